/* SPDX-License-Identifier: MIT */
/*
 * bench/core/conform.c on functions written here, in-process (conform
 * itself runs them in a child): the kernel's multipliers and their
 * negations are facts, the costs worked out by hand below.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conform.h"
#include "keysets.h"

static struct kb_conform c;

/* today's hash_64 on a 64-bit kernel, written from its definition */
static uint64_t new64(uint64_t x, unsigned bits)
{
	return (uint32_t)((x * UINT64_C(0x61C8864680B583EB)) >> (64 - bits));
}

/* hash_32 with the kernel's multiplier negated: 2^32 - 0x61C88647 */
static uint64_t neg32(uint64_t x, unsigned bits)
{
	return (uint32_t)((uint32_t)x * (uint32_t)(UINT64_C(0x100000000) - 0x61C88647)) >>
	       (32 - bits);
}

static uint64_t zero(uint64_t x, unsigned bits)
{
	(void)x;
	(void)bits;
	return 0;
}

/* one past the table */
static uint64_t past(uint64_t x, unsigned bits)
{
	(void)x;
	return UINT64_C(1) << bits;
}

/* fn's values at bits 1..32 over the conform keys, judged */
static void judge(kb_user_fn fn, unsigned func_mask, unsigned word_mask)
{
	struct kb_conform_keys k;
	struct kb_user_at at;
	uint64_t *vals;

	assert_int_equal(kb_conform_keys_make(&k, 1), 0);
	vals = malloc(k.n * 32 * sizeof(*vals));
	assert_non_null(vals);
	kb_user_eval(fn, k.keys, k.n, 1, 32, vals, &at);
	kb_conform_judge(&k, vals, 32, func_mask, word_mask, &c);
	free(vals);
	kb_conform_keys_free(&k);
}

static const struct kb_conform_target *target(lkh_gen g, lkh_func f, unsigned word)
{
	size_t i;

	for (i = 0; i < c.nt; i++)
		if (c.t[i].gen == g && c.t[i].func == f && c.t[i].word == word)
			return &c.t[i];
	fail_msg("no cell %d %d %u", g, f, word);
	return NULL;
}

static void new_hash_64_conforms(void **state)
{
	(void)state;
	judge(new64, ~0u, 3);
	assert_true(kb_conform_reproduces(target(LKH_GEN_NEW, LKH_FUNC_HASH_64, 64)));
	assert_true(kb_conform_passes(&c, LKH_GEN_NEW));
	assert_false(kb_conform_passes(&c, LKH_GEN_OLD));
	/* old hash_64 returns 64 bits: values to 32 bits cannot reproduce it */
	assert_false(kb_conform_reproduces(target(LKH_GEN_OLD, LKH_FUNC_HASH_64, 64)));
	assert_int_equal(c.degenerate_bits, 0);
	assert_int_equal(c.out_of_range, 0);
	assert_int_equal(c.dead_inputs, 0);
	assert_int_equal(c.k_width, 64);
	assert_true(c.k == UINT64_C(0x61C8864680B583EB));
	/* hash_32 keys only: the 64-bit cells are not compared */
	judge(new64, 1u << LKH_FUNC_HASH_32, 3);
	assert_int_equal(c.nt, LKH_GEN_COUNT * 2);
	assert_false(kb_conform_passes(&c, -1));
}

static void negated_multiplier_is_mirrored(void **state)
{
	const struct kb_conform_target *t;
	const char *name;
	int delta;

	(void)state;
	judge(neg32, ~0u, 1);
	t = target(LKH_GEN_NEW, LKH_FUNC_HASH_32, 32);
	assert_true(kb_conform_mirrored(t));
	assert_false(kb_conform_reproduces(t));
	/* 0 and 2^31 agree (-x = x for them): the rest differ */
	assert_int_equal(t->keys_differ + 2, t->keys);
	assert_int_equal(c.k_width, 32);
	assert_true(c.k == 0x9e3779b9);
	assert_true(c.dead_inputs == UINT64_C(0xffffffff00000000));
	assert_true(kb_conform_known_k(c.k, 32, &name, &delta));
	assert_string_equal(name, "GOLDEN_RATIO_32");
	assert_int_equal(delta, 0);
	/* OpenBSD's even 64-bit constant: the kernel's negated, plus one */
	assert_true(kb_conform_known_k(UINT64_C(0x9e3779b97f4a7c16), 64, &name, &delta));
	assert_string_equal(name, "GOLDEN_RATIO_64");
	assert_int_equal(delta, 1);
	assert_true(kb_conform_known_k(UINT64_C(0x9e37fffffffc0001), 64, &name, &delta));
	assert_string_equal(name, "GOLDEN_RATIO_PRIME_64");
	assert_int_equal(delta, -1);
	assert_false(kb_conform_known_k(UINT64_C(0x9e3779b97f4a7c19), 64, &name, &delta));
}

static void degenerate_and_past_the_table(void **state)
{
	(void)state;
	judge(zero, ~0u, 3);
	assert_int_equal(c.degenerate_bits, 10);
	assert_int_equal(c.distinct[10], 1);
	assert_true(c.distinct_random[10] > 500);
	assert_int_equal(c.dead_inputs, UINT64_MAX);
	judge(past, ~0u, 3);
	assert_int_equal(c.oor_bits, 1);
	assert_int_equal(c.oor_value, 2);
	assert_int_equal(c.oor_key, 1); /* the first key */
	assert_true(c.out_of_range >= c.n_distinct_keys * KB_CONFORM_TABLE_BITS);
}

/*
 * 4096 page addresses through the key itself: every key in bucket 0 at
 * every bits 8..12.  S = n^2, so a lookup compares (n + 1) / 2 = 2048.5
 * entries, a random function 1 + (n - 1) / 2m: the worst ratio is at
 * 2^12 buckets, 2048.5 / (1 + 4095/8192).
 */
static void one_bucket_costs(void **state)
{
	const unsigned nb = KB_CONFORM_COST_BITS_HI - KB_CONFORM_COST_BITS_LO + 1;
	uint64_t *keys = malloc(4096 * sizeof(*keys)), *vals = malloc(4096 * nb * sizeof(*vals));
	uint64_t *counts = malloc(sizeof(*counts) << KB_CONFORM_COST_BITS_HI);
	struct kb_conform_cost k;
	size_t i;

	(void)state;
	assert_non_null(keys);
	assert_non_null(vals);
	assert_non_null(counts);
	for (i = 0; i < 4096; i++)
		keys[i] = UINT64_C(0xffff888000000000) + i * 4096;
	memset(vals, 0, 4096 * nb * sizeof(*vals));
	kb_conform_cost_of(KB_KS_PAGE4K, keys, 4096, vals, 64, counts, &k);
	assert_int_equal(k.worst_bits, 12);
	assert_true(fabs(k.ratio - 2048.5 / (1 + 4095.0 / 8192)) < 1e-9);
	assert_int_equal(k.skew.used, 1);
	assert_true(k.kernel_ratio < 2); /* today's hash_long spreads pages */
	free(keys);
	free(vals);
	free(counts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(new_hash_64_conforms),
		cmocka_unit_test(negated_multiplier_is_mirrored),
		cmocka_unit_test(degenerate_and_past_the_table),
		cmocka_unit_test(one_bucket_costs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
