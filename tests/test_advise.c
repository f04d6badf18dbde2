/* SPDX-License-Identifier: MIT */
/*
 * bench/core/candidates.c and advise.c: each candidate's bucket against the
 * kernel expression its name prints, worked out here by hand, the checks
 * that refuse a candidate, the keys' structure, and the ranking on key
 * sets whose costs follow from a count done on paper.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "advise.h"
#include "hashspec.h"
#include "kernel_hashes.h"
#include "keysets.h"

static struct kb_candidate cand(enum kb_cand_kind kind, unsigned word)
{
	struct kb_candidate c;

	memset(&c, 0, sizeof(c));
	c.kind = kind;
	c.word = word;
	c.func = LKH_FUNC_HASH_PTR;
	c.gen = LKH_GEN_NEW;
	c.seed = 1;
	return c;
}

static void each_bucket_is_its_kernel_expression(void **state)
{
	const uint64_t k = UINT64_C(0xffff888012345640);
	struct kb_candidate c = cand(KB_CAND_HASHH, 64);
	uint32_t iv = (uint32_t)kb_splitmix64_at(1, 0);

	(void)state;
	/* hash_ptr(k, 10) on a 64-bit kernel: the top 10 bits of k * K64 */
	assert_int_equal(kb_candidate_bucket(&c, 10, k),
			 (k * UINT64_C(0x61C8864680B583EB)) >> 54);
	c.shift = 6;
	assert_int_equal(kb_candidate_bucket(&c, 10, k),
			 ((k >> 6) * UINT64_C(0x61C8864680B583EB)) >> 54);
	c = cand(KB_CAND_IDENTITY, 64);
	c.shift = 6;
	assert_int_equal(kb_candidate_bucket(&c, 10, k), (k >> 6) & 1023);
	c = cand(KB_CAND_MULTIPLY, 64);
	c.multiplier = 0x9e370001;
	c.width = 32;
	/* a 32-bit product keeps the key's low word */
	assert_int_equal(kb_candidate_bucket(&c, 8, k),
			 (uint32_t)((uint32_t)k * UINT32_C(0x9e370001)) >> 24);
	c.width = 64;
	assert_int_equal(kb_candidate_bucket(&c, 8, k), (k * UINT64_C(0x9e370001)) >> 56);
	/* jhash: the low bits, one word or (lo, hi) */
	c = cand(KB_CAND_JHASH, 64);
	assert_int_equal(kb_candidate_bucket(&c, 9, 77), kb_jhash_1word(77, iv) & 511);
	c.wide = 1;
	assert_int_equal(kb_candidate_bucket(&c, 9, k),
			 kb_jhash_2words((uint32_t)k, (uint32_t)(k >> 32), iv) & 511);
}

static void keyed_candidates_follow_the_seed_and_the_word(void **state)
{
	struct kb_candidate c = cand(KB_CAND_HSIPHASH, 64);
	struct kb_hsiphash_key hk = { { kb_splitmix64_at(1, 0), kb_splitmix64_at(1, 1) } };
	unsigned i, differ = 0;

	(void)state;
	assert_true(kb_candidate_keyed(&c));
	assert_int_equal(kb_candidate_bucket(&c, 12, 5), kb_hsiphash_1u32(5, &hk, 64) & 4095);
	c.word = 32;
	assert_int_equal(kb_candidate_bucket(&c, 12, 5), kb_hsiphash_1u32(5, &hk, 32) & 4095);
	/* another seed is another key: most buckets move */
	for (i = 0; i < 64; i++) {
		struct kb_candidate d = c;

		d.seed = 2;
		differ += kb_candidate_bucket(&c, 12, i) != kb_candidate_bucket(&d, 12, i);
	}
	assert_true(differ > 48);
	c = cand(KB_CAND_JHASH, 64);
	assert_false(kb_candidate_keyed(&c));
}

static void bad_candidates_are_refused_with_a_reason(void **state)
{
	struct kb_candidate c = cand(KB_CAND_MULTIPLY, 64);
	char err[200];

	(void)state;
	c.width = 64;
	c.multiplier = 0x61C8864680B583EA; /* even */
	assert_int_equal(kb_candidate_check(&c, 10, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "even"));
	c.multiplier = 0;
	assert_int_equal(kb_candidate_check(&c, 10, err, sizeof(err)), -1);
	c.multiplier = UINT64_C(0x100000001);
	c.width = 32;
	assert_int_equal(kb_candidate_check(&c, 10, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "32 bits"));
	c.width = 64;
	assert_int_equal(kb_candidate_check(&c, 10, err, sizeof(err)), 0);
	assert_int_equal(kb_candidate_check(&c, 65, err, sizeof(err)), -1);
	c = cand(KB_CAND_HASHH, 64);
	c.func = LKH_FUNC_HASH32_PTR;
	assert_int_equal(kb_candidate_check(&c, 10, err, sizeof(err)), -1);
	c = cand(KB_CAND_JHASH, 64);
	assert_int_equal(kb_candidate_check(&c, 32, err, sizeof(err)), 0);
	assert_int_equal(kb_candidate_check(&c, 33, err, sizeof(err)), -1);
	assert_int_equal(kb_candidate_check(&c, 0, err, sizeof(err)), -1);
}

static struct kb_advise_opts opts(lkh_func f, lkh_gen g, unsigned word, unsigned bits)
{
	struct kb_advise_opts o;

	memset(&o, 0, sizeof(o));
	o.func = f;
	o.gen = g;
	o.word = word;
	o.bits = bits;
	o.kind = KB_KIND_CHAINED;
	o.seed = 1;
	return o;
}

static const struct kb_advice_row *row_of(const struct kb_advice *a, enum kb_cand_kind kind,
					  lkh_gen gen, unsigned shift)
{
	size_t i;

	for (i = 0; i < a->nrows; i++)
		if (a->rows[i].cand.kind == kind && a->rows[i].cand.shift == shift &&
		    (kind != KB_CAND_HASHH || a->rows[i].cand.gen == gen))
			return &a->rows[i];
	return NULL;
}

/*
 * btrfs full stripes under old hash_64 (the README's story): 4096 keys
 * 2^17 apart land in one bucket of 2048.  By hand: S = 4096^2, a present
 * key compares (S/n + 1)/2 = 2048.5 entries, a random function
 * 1 + 4095/4096; the key >> 17 is 0..4095, two keys a bucket: 1.5.
 */
static void old_hash_64_on_stripes_costs_what_one_bucket_costs(void **state)
{
	struct kb_advise_opts o = opts(LKH_FUNC_HASH_64, LKH_GEN_OLD, 64, 11);
	static uint64_t keys[4096];
	struct kb_advice a;
	const struct kb_advice_row *r;
	char err[200];
	unsigned i;

	(void)state;
	for (i = 0; i < 4096; i++)
		keys[i] = (UINT64_C(1) << 30) + (uint64_t)i * 131072;
	assert_int_equal(kb_advise(&o, keys, 4096, &a, err, sizeof(err)), 0);
	assert_int_equal(a.gcd, 131072);
	assert_int_equal(a.shift, 17);
	assert_int_equal(a.align, 17);
	assert_true(a.rows[a.current].current);
	r = &a.rows[a.current];
	assert_int_equal(r->cand.kind, KB_CAND_HASHH);
	assert_int_equal(r->cand.gen, LKH_GEN_OLD);
	assert_int_equal(r->skew.used, 1);
	assert_float_equal(r->cost, 2048.5, 1e-9);
	assert_float_equal(r->random, 1 + 4095.0 / 4096, 1e-12);
	/* the key itself, shifted: exactly two keys in every bucket */
	r = row_of(&a, KB_CAND_IDENTITY, LKH_GEN_NEW, 17);
	assert_non_null(r);
	assert_float_equal(r->cost, 1.5, 1e-12);
	/* it ranks first, yet the advice names a hash that mixes */
	assert_int_equal(a.rows[0].cand.kind, KB_CAND_IDENTITY);
	assert_int_not_equal(a.rows[a.pick].cand.kind, KB_CAND_IDENTITY);
	assert_true(a.pick > 0 && a.pick < a.nrows);
	/* a random function's ratio strays by 0.007811 here (Python: 2 *
	 * sqrt(C(4096,2)/2048 * (1 - 1/2048)) / 8192 / (1 + 4095/4096)); two
	 * of that make a tie */
	assert_float_equal(a.noise, 0.0078105924, 1e-9);
	assert_float_equal(a.tie, 2 * a.noise, 1e-15);
	for (i = 1; i < a.nrows; i++)
		assert_true(a.rows[i - 1].ratio <= a.rows[i].ratio + a.tie);
	/* k & 2047 and old hash_64 both put every key in bucket 0: the
	 * cheaper arithmetic (the key itself) ranks first */
	assert_int_equal(a.rows[a.nrows - 2].cand.kind, KB_CAND_IDENTITY);
	assert_int_equal(a.rows[a.nrows - 2].cand.shift, 0);
	assert_int_equal(a.current, a.nrows - 1);
	/* one run (keys 2^17 apart, the unit 2^17), so every re-layout is the
	 * progression at another base: old hash_64 keeps them in a few
	 * buckets, the shifted key through new spreads them, every time */
	assert_int_equal(a.unit, 17);
	assert_int_equal(a.runs, 1);
	assert_int_equal(a.relayouts, KB_ADVISE_RELAYOUTS);
	assert_int_equal(a.wins, KB_ADVISE_RELAYOUTS);
	assert_true(a.change);
}

/* Runs: keys at most a unit apart stay together; the unit is a page, or
 * the power of two every difference shares when that is larger. */
static void runs_keep_a_slabs_objects_together(void **state)
{
	struct kb_advise_opts o = opts(LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64, 8);
	/* a page apart (one run), then 4097 bytes on: a run of its own */
	uint64_t page[] = { 0x10000, 0x11000, 0x12001 };
	uint64_t slab[64];
	struct kb_advice a;
	char err[200];
	size_t i, n = 0;

	(void)state;
	assert_int_equal(kb_advise(&o, page, 3, &a, err, sizeof(err)), 0);
	assert_int_equal(a.unit, 12);
	assert_int_equal(a.runs, 2);
	/* 192-byte objects over two adjacent pages (256 bytes from the last
	 * of one to the first of the next) and a page far off: two runs */
	for (i = 0; i < 21; i++) {
		slab[n++] = 0x40000000 + 192 * i;
		slab[n++] = 0x40001000 + 192 * i;
		slab[n++] = 0x40100000 + 192 * i;
	}
	kb_sort_u64(slab, n);
	assert_int_equal(kb_advise(&o, slab, n, &a, err, sizeof(err)), 0);
	assert_int_equal(a.shift, 6);
	assert_int_equal(a.unit, 12);
	assert_int_equal(a.runs, 2);
	/* 2^20 apart, every difference a multiple of 2^20: one run */
	for (i = 0; i < 64; i++)
		slab[i] = (uint64_t)i << 20;
	assert_int_equal(kb_advise(&o, slab, 64, &a, err, sizeof(err)), 0);
	assert_int_equal(a.unit, 20);
	assert_int_equal(a.runs, 1);
}

/* Beyond 2^17 keys, fewer re-layouts: their work stays that of 200 x 2^17
 * keys (2^18 stripes: 100). */
static void many_keys_take_fewer_relayouts(void **state)
{
	struct kb_advise_opts o = opts(LKH_FUNC_HASH_64, LKH_GEN_OLD, 64, 11);
	size_t i, n = (size_t)1 << 18;
	uint64_t *keys = malloc(n * sizeof(*keys));
	struct kb_advice a;
	char err[200];

	(void)state;
	assert_non_null(keys);
	for (i = 0; i < n; i++)
		keys[i] = (uint64_t)i << 17;
	assert_int_equal(kb_advise(&o, keys, n, &a, err, sizeof(err)), 0);
	assert_int_equal(a.relayouts, 100);
	assert_int_equal(a.wins, 100);
	free(keys);
}

static void keys_that_fit_32_bits_add_hash_32_and_one_word_forms(void **state)
{
	struct kb_advise_opts o = opts(LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64, 8);
	uint64_t keys[1000];
	struct kb_advice a;
	char err[200];
	size_t i, hash32 = 0, wide = 0;

	(void)state;
	for (i = 0; i < 1000; i++)
		keys[i] = 3 * i + 1; /* odd: align 0; differences 3: shift 0 */
	assert_int_equal(kb_advise(&o, keys, 1000, &a, err, sizeof(err)), 0);
	assert_int_equal(a.gcd, 3);
	assert_int_equal(a.shift, 0);
	assert_int_equal(a.align, 0);
	for (i = 0; i < a.nrows; i++) {
		hash32 += a.rows[i].cand.kind == KB_CAND_HASHH &&
			  a.rows[i].cand.func == LKH_FUNC_HASH_32;
		wide += a.rows[i].cand.wide;
		/* no shift, so no shifted candidate */
		assert_int_equal(a.rows[i].cand.shift, 0);
	}
	assert_int_equal(hash32, 1);
	assert_int_equal(wide, 0);
}

static void the_multiplier_given_is_ranked_too(void **state)
{
	struct kb_advise_opts o = opts(LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64, 10);
	uint64_t keys[2000];
	struct kb_advice a;
	char err[200];
	size_t i;

	(void)state;
	o.multiplier = 1; /* the identity's top bits: every key < 2^54 in bucket 0 */
	o.width = 64;
	for (i = 0; i < 2000; i++)
		keys[i] = i * 4096;
	assert_int_equal(kb_advise(&o, keys, 2000, &a, err, sizeof(err)), 0);
	for (i = 0; i < a.nrows; i++)
		if (a.rows[i].cand.kind == KB_CAND_MULTIPLY)
			break;
	assert_true(i < a.nrows);
	assert_int_equal(a.rows[i].skew.used, 1);
	assert_int_equal(i, a.nrows - 1);
}

static void too_few_or_too_wide_keys_are_refused(void **state)
{
	struct kb_advise_opts o = opts(LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 32, 10);
	uint64_t keys[2] = { 1, UINT64_C(0x100000000) };
	struct kb_advice a;
	char err[200];

	(void)state;
	assert_int_equal(kb_advise(&o, keys, 1, &a, err, sizeof(err)), -1);
	/* a 32-bit kernel's pointer cannot hold the second key */
	assert_int_equal(kb_advise(&o, keys, 2, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "0x100000000"));
	o.word = 64;
	assert_int_equal(kb_advise(&o, keys, 2, &a, err, sizeof(err)), 0);
	/* a key past 32 bits goes through the two-word forms */
	assert_true(row_of(&a, KB_CAND_JHASH, LKH_GEN_NEW, 0)->cand.wide);
	assert_true(row_of(&a, KB_CAND_HSIPHASH, LKH_GEN_NEW, 0)->cand.wide);
	o.bits = 33;
	assert_int_equal(kb_advise(&o, keys, 2, &a, err, sizeof(err)), -1);
}

static void the_kind_of_table_picks_the_figure(void **state)
{
	struct kb_advise_opts o = opts(LKH_FUNC_HASH_64, LKH_GEN_OLD, 64, 11);
	static uint64_t keys[4096];
	struct kb_advice a;
	char err[200];
	unsigned i;

	(void)state;
	for (i = 0; i < 4096; i++)
		keys[i] = (UINT64_C(1) << 30) + (uint64_t)i * 131072;
	/* locks: the others met on a key's lock, S/n - 1 = 4095 */
	o.kind = KB_KIND_LOCKS;
	assert_int_equal(kb_advise(&o, keys, 4096, &a, err, sizeof(err)), 0);
	assert_float_equal(a.rows[a.current].cost, 4095, 1e-9);
	assert_float_equal(a.rows[a.current].random, 4095.0 / 2048, 1e-12);
	/* trees: the keys of the tree searched, S/n */
	o.kind = KB_KIND_TREE;
	assert_int_equal(kb_advise(&o, keys, 4096, &a, err, sizeof(err)), 0);
	assert_float_equal(a.rows[a.current].cost, 4096, 1e-9);
}

/*
 * Over names (the costs against the Python models are test_advise_names.sh's):
 * the rows follow the string generations' table (lkh_string.h): on x86's
 * word path salted and new differ only in the byte path's end, so for the
 * dcache they are one row; mix (no salt), minimal, fold and sum each their
 * own; then hsiphash and siphash.  The pick is never a past generation.
 */
static void names_rank_every_generation_folding_the_equal_ones(void **state)
{
	struct kb_advise_opts o;
	struct kb_names l = { 0 };
	struct kb_advice a;
	char err[200];
	size_t i;
	int g;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.table = &kb_string_tables[kb_string_table_find("dcache")];
	o.param = kb_string_table_param(o.table, 64);
	o.word = 64;
	o.bits = 10;
	o.seed = 1;
	o.sgen = LKH_SGEN_NEW;
	assert_int_equal(kb_name_set_make(KB_NS_NUMBERED, 4096, &l), 0);
	assert_int_equal(kb_advise_over_names(&o, &l, &a, err, sizeof(err)), 0);
	assert_true(a.names);
	assert_int_equal(a.nrows, 7);
	assert_int_equal(a.rows[a.current].cand.kind, KB_CAND_STRING);
	assert_int_equal(a.rows[a.current].same_sgens, 1u << LKH_SGEN_SALTED);
	for (i = 0; i < a.nrows; i++)
		if (!a.rows[i].current)
			assert_int_equal(a.rows[i].same_sgens, 0);
	/* whatever the table's own, the advice is today's hash or a keyed one */
	for (g = 0; g < LKH_SGEN_COUNT; g++) {
		const struct kb_candidate *p;

		o.sgen = (lkh_sgen)g;
		assert_int_equal(kb_advise_over_names(&o, &l, &a, err, sizeof(err)), 0);
		p = &a.rows[a.pick].cand;
		assert_true(p->kind != KB_CAND_STRING || p->sgen == LKH_SGEN_NEW || p->sgen == o.sgen);
		assert_true(!a.change || p->kind != KB_CAND_STRING || p->sgen == LKH_SGEN_NEW);
	}
	/* the old sum hash on a 64-bit kernel folds the numbered names'
	 * halves together: far worse than a random function */
	o.sgen = LKH_SGEN_SUM;
	assert_int_equal(kb_advise_over_names(&o, &l, &a, err, sizeof(err)), 0);
	assert_true(a.rows[a.current].ratio > 10);
	assert_int_equal(a.current, a.nrows - 1);
	assert_true(a.change);
	kb_names_free(&l);
}

static void names_and_their_candidates_are_checked(void **state)
{
	struct kb_candidate c = cand(KB_CAND_STRING, 64);
	struct kb_advise_opts o;
	struct kb_names l = { 0 };
	struct kb_advice a;
	uint64_t b;
	char err[200];

	(void)state;
	/* a string hash takes names; an integer candidate takes no name */
	assert_int_equal(kb_candidate_check(&c, 10, err, sizeof(err)), -1);
	c = cand(KB_CAND_JHASH, 64);
	assert_int_equal(kb_candidate_name_bucket(&c, 10, "a", 1, &b, err, sizeof(err)), -1);
	/* hsiphash over a name returns a u32: 1..32 bits */
	c = cand(KB_CAND_HSIPHASH, 64);
	c.names = &kb_string_tables[0];
	assert_int_equal(kb_candidate_check(&c, 32, err, sizeof(err)), 0);
	assert_int_equal(kb_candidate_check(&c, 33, err, sizeof(err)), -1);
	memset(&o, 0, sizeof(o));
	o.table = &kb_string_tables[kb_string_table_find("nfsd-idmap")];
	o.word = 64;
	o.bits = 8;
	assert_int_equal(kb_name_set_make(KB_NS_USERS, 1, &l), 0);
	assert_int_equal(kb_advise_over_names(&o, &l, &a, err, sizeof(err)), -1);
	assert_string_equal(err, "1 distinct name: nothing can collide");
	assert_int_equal(kb_name_set_make(KB_NS_USERS, 2, &l), 0);
	o.bits = 0;
	assert_int_equal(kb_advise_over_names(&o, &l, &a, err, sizeof(err)), -1);
	kb_names_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_bucket_is_its_kernel_expression),
		cmocka_unit_test(keyed_candidates_follow_the_seed_and_the_word),
		cmocka_unit_test(bad_candidates_are_refused_with_a_reason),
		cmocka_unit_test(old_hash_64_on_stripes_costs_what_one_bucket_costs),
		cmocka_unit_test(runs_keep_a_slabs_objects_together),
		cmocka_unit_test(many_keys_take_fewer_relayouts),
		cmocka_unit_test(keys_that_fit_32_bits_add_hash_32_and_one_word_forms),
		cmocka_unit_test(the_multiplier_given_is_ranked_too),
		cmocka_unit_test(too_few_or_too_wide_keys_are_refused),
		cmocka_unit_test(the_kind_of_table_picks_the_figure),
		cmocka_unit_test(names_rank_every_generation_folding_the_equal_ones),
		cmocka_unit_test(names_and_their_candidates_are_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
