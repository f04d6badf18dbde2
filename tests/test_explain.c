/* SPDX-License-Identifier: MIT */
/*
 * bench/core/explain.c on key sets whose pairs, shared buckets and model
 * chances are worked out here by hand from the multipliers.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"
#include "keysets.h"

static struct kb_explain e;

static int u64_order(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

static struct kb_hashspec spec(lkh_func f, lkh_gen g, unsigned word)
{
	struct kb_hashspec s = { f, g, word, 0, 0, 0 };

	return s;
}

/*
 * hash_32 (new) into 2 buckets: keys 0 and 1 land 0x61C88647 apart,
 * 0.7639 of a bucket (2^31): the model gives them 1 - 0x61C88647/2^31;
 * both are in bucket 0 (0x61C88647 < 2^31), so one pair is shared.
 */
static void one_pair_by_hand(void **state)
{
	struct kb_hashspec s = spec(LKH_FUNC_HASH_32, LKH_GEN_NEW, 32);
	const uint64_t keys[2] = { 0, 1 };
	char err[200];

	(void)state;
	assert_int_equal(kb_explain(&s, 1, keys, 2, &e, err, sizeof(err)), 0);
	assert_true(e.linear);
	assert_int_equal(e.width, 32);
	assert_int_equal(e.k, 0x61C88647);
	assert_int_equal(e.pairs, 1);
	assert_int_equal(e.shared, 1);
	assert_float_equal(e.shared_random, 0.5, 1e-15);
	assert_float_equal(e.shared_predicted, 1 - 1640531527.0 / 2147483648.0, 1e-12);
	assert_int_equal(e.ntop, 1);
	assert_int_equal(e.top[0].d, 1);
	assert_float_equal(e.top[0].offset, 1640531527.0 / 2147483648.0, 1e-12);
	assert_float_equal(e.top[0].excess, 0.5, 1e-15);
	assert_float_equal(e.top_share, 1, 1e-15);
}

/*
 * A negative offset: d*K just below 2^w is a little below the key's
 * bucket.  hash_32 at 8 bits (W = 2^24): d = the inverse of K mod 2^32
 * times -1 lands d*K = 2^32 - 1, one 2^24th of a bucket under.
 */
static void offsets_wrap_around_the_word(void **state)
{
	struct kb_explain f;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.k = 0x61C88647;
	f.width = 32;
	/* 0x61C88647 * 0xebb34377 == 1 (mod 2^32) (Python: pow(K, -1, 2**32)),
	 * so its negation gives -1 */
	assert_int_equal((uint32_t)(UINT32_C(0x61C88647) * UINT32_C(0xebb34377)), 1);
	assert_float_equal(kb_explain_offset(&f, (uint32_t)-UINT32_C(0xebb34377), 8),
			   -1.0 / 16777216, 1e-18);
	assert_float_equal(kb_explain_chance(-0.25), 0.75, 1e-15);
	assert_float_equal(kb_explain_chance(1.5), 0, 0);
}

/*
 * btrfs full stripes under old hash_64 (the README's story): 4096 keys
 * 2^17 apart, every pair in one bucket.  K << 17 keeps K's run of ones
 * (bits 18..50) shifted to the top: 0xfffffff800020000, -2^35 + 2^17.
 */
static void stripes_under_old_hash_64(void **state)
{
	struct kb_hashspec s = spec(LKH_FUNC_HASH_64, LKH_GEN_OLD, 64);
	static uint64_t keys[4096];
	char err[200];
	unsigned i;

	(void)state;
	for (i = 0; i < 4096; i++)
		keys[i] = (UINT64_C(1) << 30) + (uint64_t)i * 131072;
	assert_int_equal(kb_explain(&s, 11, keys, 4096, &e, err, sizeof(err)), 0);
	assert_int_equal(e.pairs, 4096 * 4095 / 2);
	assert_int_equal(e.shared, e.pairs);
	assert_int_equal(e.ndiffs, 4095); /* 1..4095 strides */
	assert_int_equal(e.top[0].d, 131072);
	assert_int_equal(e.top[0].pairs, 4095);
	assert_int_equal(e.top[0].shared, 4095);
	assert_float_equal(e.top[0].offset, (-34359738368.0 + 131072) / 9007199254740992.0, 1e-20);
	assert_int_equal(e.gcd, 131072);
	assert_int_equal(e.align, 17);
	assert_int_equal(e.nstrides, 1);
	assert_int_equal(e.strides[0].d, 131072);
	assert_int_equal(e.strides[0].count, 4095);
	assert_int_equal(e.pages, 4096);
	assert_int_equal(e.max_per_page, 1);
	assert_int_equal(e.in_page_gcd, 0);
	/* 0x9e37fffffffc0001: 33 ones from bit 18 */
	assert_int_equal(e.run_bit, 1);
	assert_int_equal(e.run_lo, 18);
	assert_int_equal(e.run_len, 33);
	/* the model: pair i, i + j is j*2^17 apart, j*(-2^35 + 2^17)/2^53 of a
	 * bucket: every chance is within 2^-6 of 1 */
	assert_true(e.shared_predicted > 0.98 * (double)e.pairs);
	assert_true(e.shared_predicted < (double)e.pairs);
}

/*
 * Slab pages: three 168-byte objects at the start of each of four
 * consecutive pages.  The gaps are 168 (x8) and 4096 - 2 * 168 = 3760
 * (x3); within a page, differences are multiples of 168.
 */
static void slab_objects_found_page_by_page(void **state)
{
	struct kb_hashspec s = spec(LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64);
	uint64_t keys[12];
	unsigned i, pages;
	long objects;
	char err[200];

	(void)state;
	for (i = 0; i < 12; i++)
		keys[i] = UINT64_C(0xffff888000000000) + (i / 3) * 4096 + (i % 3) * 168;
	assert_int_equal(kb_explain(&s, 2, keys, 12, &e, err, sizeof(err)), 0);
	assert_int_equal(e.pages, 4);
	assert_int_equal(e.max_per_page, 3);
	assert_int_equal(e.in_page_gcd, 168);
	assert_int_equal(e.gcd, 8); /* gcd(168, 4096) */
	assert_int_equal(e.align, 3);
	assert_int_equal(e.nstrides, 2);
	assert_int_equal(e.strides[0].d, 168);
	assert_int_equal(e.strides[0].count, 8);
	assert_int_equal(e.strides[1].d, 3760);
	assert_int_equal(e.strides[1].count, 3);
	assert_int_equal(kb_explain_layout(&e, 2584, &pages, &objects), 1);
	assert_int_equal(pages, 1);
	assert_int_equal(objects, -9);
	assert_int_equal(kb_explain_layout(&e, 5168, &pages, &objects), 1);
	assert_int_equal(pages, 2);
	assert_int_equal(objects, -18);
	assert_int_equal(kb_explain_layout(&e, 4096 + 168, &pages, &objects), 1);
	assert_int_equal(pages, 1);
	assert_int_equal(objects, 1);
	assert_int_equal(kb_explain_layout(&e, 100, &pages, &objects), 0);
	/* shared pairs are counted exactly: the sum over the top rows' shared
	 * pairs never exceeds the observed total */
	for (i = 0; i < e.ntop; i++) {
		assert_true(e.top[i].shared <= e.top[i].pairs);
		if (i)
			assert_true(e.top[i - 1].excess >= e.top[i].excess);
	}
}

/*
 * A difference whose pairs only partly share: hash_32 (new) into 2
 * buckets, keys 0, 1, 2.  Buckets: 0, K >> 31 = 0, 2K mod 2^32 >> 31 =
 * 0xc3910c8e >> 31 = 1.  Only (0, 1) shares; d = 1 has two pairs, one
 * shared; d = 2 has none shared and is not a row.
 */
static void a_difference_partly_shared(void **state)
{
	struct kb_hashspec s = spec(LKH_FUNC_HASH_32, LKH_GEN_NEW, 32);
	const uint64_t keys[3] = { 0, 1, 2 };
	char err[200];

	(void)state;
	assert_int_equal(kb_explain(&s, 1, keys, 3, &e, err, sizeof(err)), 0);
	assert_int_equal(e.shared, 1);
	assert_int_equal(e.ndiffs, 1);
	assert_int_equal(e.top[0].d, 1);
	assert_int_equal(e.top[0].pairs, 2);
	assert_int_equal(e.top[0].shared, 1);
	assert_float_equal(e.top[0].excess, 0, 1e-15);
}

/* Two keys 3000 bytes apart in one 4 KiB page: one page, gcd 3000. */
static void pages_are_4_kib(void **state)
{
	struct kb_hashspec s = spec(LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64);
	const uint64_t keys[2] = { 0x1000, 0x1000 + 3000 };
	char err[200];

	(void)state;
	assert_int_equal(kb_explain(&s, 4, keys, 2, &e, err, sizeof(err)), 0);
	assert_int_equal(e.pages, 1);
	assert_int_equal(e.max_per_page, 2);
	assert_int_equal(e.in_page_gcd, 3000);
}

/*
 * Nothing to explain: keys that fill the table as a random function
 * would (splitmix64 keys: their shared pairs within two standard
 * deviations of C(n,2)/m) and keys spread more evenly than random
 * (consecutive ones under new) have nothing to explain; stripes under
 * old do.
 */
static void no_excess_lists_nothing(void **state)
{
	struct kb_hashspec s = spec(LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64);
	static uint64_t keys[4096];
	char err[200];
	size_t i;

	(void)state;
	for (i = 0; i < 4096; i++)
		keys[i] = i;
	assert_int_equal(kb_explain(&s, 10, keys, 4096, &e, err, sizeof(err)), 0);
	/* sqrt(C(4096,2) / 1024 (1 - 1/1024)), from Python */
	assert_float_equal(e.shared_sd, 90.45441920174493, 1e-9);
	assert_true((double)e.shared < e.shared_random);
	assert_true(e.nothing);
	for (i = 0; i < 4096; i++)
		keys[i] = kb_splitmix64_at(7, i);
	qsort(keys, 4096, sizeof(keys[0]), u64_order);
	assert_int_equal(kb_explain(&s, 10, keys, 4096, &e, err, sizeof(err)), 0);
	assert_true(fabs((double)e.shared - e.shared_random) <= 2 * e.shared_sd);
	assert_true(e.nothing);
	/* btrfs stripes under old hash_64: all in a few buckets */
	s = spec(LKH_FUNC_HASH_64, LKH_GEN_OLD, 64);
	for (i = 0; i < 4096; i++)
		keys[i] = (uint64_t)i << 17;
	assert_int_equal(kb_explain(&s, 11, keys, 4096, &e, err, sizeof(err)), 0);
	assert_true((double)e.shared - e.shared_random > 2 * e.shared_sd);
	assert_false(e.nothing);
}

static void two_multiplies_get_no_model(void **state)
{
	struct kb_hashspec s = spec(LKH_FUNC_HASH_64, LKH_GEN_NEW, 32);
	uint64_t keys[64];
	char err[200];
	unsigned i;

	(void)state;
	for (i = 0; i < 64; i++)
		keys[i] = (uint64_t)i << 32;
	assert_int_equal(kb_explain(&s, 4, keys, 64, &e, err, sizeof(err)), 0);
	assert_false(e.linear);
	assert_true(e.shared > 0);
	assert_true(isnan(e.top[0].offset));
}

static void bad_input_is_refused(void **state)
{
	struct kb_hashspec s = spec(LKH_FUNC_HASH_32, LKH_GEN_NEW, 64);
	uint64_t keys[2] = { 1, UINT64_C(0x100000000) };
	char err[200];

	(void)state;
	assert_int_equal(kb_explain(&s, 8, keys, 1, &e, err, sizeof(err)), -1);
	assert_int_equal(kb_explain(&s, 8, keys, 2, &e, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "0x100000000"));
	assert_int_equal(kb_explain(&s, 33, keys, 1, &e, err, sizeof(err)), -1);
	assert_int_equal(kb_explain(&s, 8, keys, KB_EXPLAIN_MAX_KEYS + 1, &e, err, sizeof(err)),
			 -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_pair_by_hand),
		cmocka_unit_test(offsets_wrap_around_the_word),
		cmocka_unit_test(stripes_under_old_hash_64),
		cmocka_unit_test(slab_objects_found_page_by_page),
		cmocka_unit_test(a_difference_partly_shared),
		cmocka_unit_test(pages_are_4_kib),
		cmocka_unit_test(no_excess_lists_nothing),
		cmocka_unit_test(two_multiplies_get_no_model),
		cmocka_unit_test(bad_input_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
