/* SPDX-License-Identifier: MIT */
/*
 * The 2016 story, as assertions on khash-bench's engine: 4096 keys into
 * 2^11 buckets.  Old hash_64 collapses page addresses into two buckets and
 * btrfs stripe addresses into one, on both word sizes; the posted and new
 * hash_64 spread them (X^2/df < 2), the 32-bit new hash_64 as well as the
 * 64-bit one; and old hash_32 is acceptable on 32-bit keys such as
 * sequential integers and i386 struct page pointers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "report.h"

static struct kb_skew cell(int keyset, lkh_func f, lkh_gen g, unsigned word)
{
	struct kb_keyset_params p = { 0 };
	struct kb_hashspec s = { f, g, word, 0, 0, 0 };
	struct kb_skew sk;
	uint64_t *counts = NULL;
	char err[256];

	p.count = 4096;
	p.seed = 1;
	if (kb_count_keyset(&s, 11, keyset, &p, 0, &counts, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	kb_skew_from_counts(counts, 2048, &sk);
	free(counts);
	assert_int_equal(sk.n, 4096);
	return sk;
}

static void old_hash_64_collapses_page_addresses(void **state)
{
	unsigned w;

	(void)state;
	for (w = 32; w <= 64; w += 32) {
		struct kb_skew s = cell(KB_KS_PAGE4K, LKH_FUNC_HASH_64,
					LKH_GEN_OLD, w);

		assert_int_equal(s.used, 2);
		assert_string_equal(kb_verdict(&s), "broken");
	}
}

/*
 * v4.6's minimal fix changed 64-bit kernels only: there page and btrfs
 * stripe addresses spread as under the later fix, while a 32-bit kernel's
 * hash_64 still ran the old chain and collapsed them (the facts:
 * raw stripes fill 1 of 2048 buckets under minimal on 32-bit).
 */
static void minimal_fixed_only_64_bit_kernels(void **state)
{
	struct kb_skew s;

	(void)state;
	s = cell(KB_KS_BTRFS_STRIPE, LKH_FUNC_HASH_64, LKH_GEN_MINIMAL, 32);
	assert_int_equal(s.used, 1);
	s = cell(KB_KS_PAGE4K, LKH_FUNC_HASH_64, LKH_GEN_MINIMAL, 32);
	assert_int_equal(s.used, 2);
	s = cell(KB_KS_BTRFS_STRIPE, LKH_FUNC_HASH_64, LKH_GEN_MINIMAL, 64);
	assert_true(s.used > 2000);
	assert_string_not_equal(kb_verdict(&s), "broken");
	s = cell(KB_KS_PAGE4K, LKH_FUNC_HASH_PTR, LKH_GEN_MINIMAL, 64);
	assert_true(s.used > 1900 && s.chi2_per_df < 0.5);
	/* hash_32 kept the old multiplier: the same buckets as old */
	s = cell(KB_KS_SEQ, LKH_FUNC_HASH_32, LKH_GEN_MINIMAL, 32);
	assert_true(s.chi2 == cell(KB_KS_SEQ, LKH_FUNC_HASH_32, LKH_GEN_OLD, 32).chi2);
}

static void old_hash_64_collapses_btrfs_stripes(void **state)
{
	unsigned w;

	(void)state;
	for (w = 32; w <= 64; w += 32) {
		struct kb_skew s = cell(KB_KS_BTRFS_STRIPE, LKH_FUNC_HASH_64,
					LKH_GEN_OLD, w);

		assert_int_equal(s.used, 1);
		assert_true(s.chi2_per_df > 1000);
	}
}

static void fixed_hash_64_spreads_both(void **state)
{
	static const int sets[] = { KB_KS_PAGE4K, KB_KS_BTRFS_STRIPE };
	unsigned w, i;
	int g;

	(void)state;
	for (g = LKH_GEN_POSTED; g <= LKH_GEN_NEW; g++)
		for (w = 32; w <= 64; w += 32)
			for (i = 0; i < 2; i++) {
				struct kb_skew s = cell(sets[i], LKH_FUNC_HASH_64,
							(lkh_gen)g, w);

				assert_true(s.chi2_per_df < 2);
				assert_true(s.used > 1900);
				assert_true(s.max_load <= s.expected_max + 1);
			}
}

static void new_32_bit_hash_64_as_good_as_64_bit(void **state)
{
	static const int sets[] = { KB_KS_PAGE4K, KB_KS_BTRFS_STRIPE,
				    KB_KS_STRUCT_PAGE, KB_KS_SEQ,
				    KB_KS_RANDOM };
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		struct kb_skew s32 = cell(sets[i], LKH_FUNC_HASH_64,
					  LKH_GEN_NEW, 32);
		struct kb_skew s64 = cell(sets[i], LKH_FUNC_HASH_64,
					  LKH_GEN_NEW, 64);

		assert_true(s32.chi2_per_df < 2);
		assert_true(s32.chi2_per_df < 1.5 * s64.chi2_per_df + 0.5);
	}
}

static void old_hash_32_acceptable_on_32_bit_keys(void **state)
{
	static const int sets[] = { KB_KS_SEQ, KB_KS_STRUCT_PAGE, KB_KS_RANDOM };
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		struct kb_skew s = cell(sets[i], LKH_FUNC_HASH_32, LKH_GEN_OLD,
					32);

		assert_true(s.chi2_per_df < 2);
		assert_string_not_equal(kb_verdict(&s), "broken");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(old_hash_64_collapses_page_addresses),
		cmocka_unit_test(old_hash_64_collapses_btrfs_stripes),
		cmocka_unit_test(minimal_fixed_only_64_bit_kernels),
		cmocka_unit_test(fixed_hash_64_spreads_both),
		cmocka_unit_test(new_32_bit_hash_64_as_good_as_64_bit),
		cmocka_unit_test(old_hash_32_acceptable_on_32_bit_keys),
	};

	return cmocka_run_group_tests_name("story", tests, NULL, NULL);
}
