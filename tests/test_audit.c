/* SPDX-License-Identifier: MIT */
/*
 * The multiplier audit against facts that can be checked by hand: the old
 * constants' own comments (seven signed terms, a run of 33 ones), the
 * golden ratio's continued fraction (all ones), and small fractions.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "audit.h"

static void naf_matches_the_comments(void **state)
{
	(void)state;
	/* 2^31 + 2^29 - 2^25 + 2^22 - 2^19 - 2^16 + 1 */
	assert_int_equal(kb_naf_terms(0x9e370001), 7);
	/* 2^63 + 2^61 - 2^57 + 2^54 - 2^51 - 2^18 + 1 */
	assert_int_equal(kb_naf_terms(UINT64_C(0x9e37fffffffc0001)), 7);
	assert_int_equal(kb_naf_terms(0), 0);
	assert_int_equal(kb_naf_terms(1), 1);
	assert_int_equal(kb_naf_terms(3), 2);   /* 4 - 1 */
	assert_int_equal(kb_naf_terms(7), 2);   /* 8 - 1 */
	assert_int_equal(kb_naf_terms(5), 2);   /* 4 + 1 */
	assert_int_equal(kb_naf_terms(UINT64_MAX), 2); /* 2^64 - 1 */
	assert_int_equal(kb_naf_terms(UINT64_C(0x5555555555555555)), 32);
}

static void continued_fractions(void **state)
{
	uint64_t q[40];
	unsigned n, i;

	(void)state;
	/* 2^64 / phi: the golden ratio's quotients are all 1 */
	n = kb_continued_fraction(UINT64_C(0x9E3779B97F4A7C15), 64, q, 30);
	assert_int_equal(n, 30);
	for (i = 0; i < 20; i++)
		assert_int_equal(q[i], 1);
	/* 2^31 / 2^32 = [0; 2] */
	n = kb_continued_fraction(UINT64_C(1) << 31, 32, q, 40);
	assert_int_equal(n, 1);
	assert_int_equal(q[0], 2);
	/* 3 / 2^32 = [0; 1431655765, 3] */
	n = kb_continued_fraction(3, 32, q, 40);
	assert_int_equal(n, 2);
	assert_int_equal(q[0], 1431655765);
	assert_int_equal(q[1], 3);
	/* 2^32 divides 2^64: [0; 4294967296], the quotient's carry case */
	n = kb_continued_fraction(UINT64_C(1) << 32, 64, q, 40);
	assert_int_equal(n, 1);
	assert_true(q[0] == UINT64_C(4294967296));
	/* 2^64 / 3 needs the 65-bit first step: [0; 6148914691236517205, 3] */
	n = kb_continued_fraction(3, 64, q, 40);
	assert_int_equal(n, 2);
	assert_int_equal(q[0], UINT64_C(6148914691236517205));
	assert_int_equal(q[1], 3);
}

static void old_and_new_64_bit_multipliers(void **state)
{
	static struct kb_audit a;

	(void)state;
	assert_int_equal(kb_audit_run(UINT64_C(0x9e37fffffffc0001), 64, &a), 0);
	assert_int_equal(a.popcount, 41);
	assert_int_equal(a.longest_run, 33); /* the article's run of 33 ones */
	assert_true(a.cf_max > 1000000);
	assert_true(a.sets[KB_KS_PAGE4K].ok);
	assert_int_equal(a.sets[KB_KS_PAGE4K].used, 2);
	assert_true(a.sets_broken >= 5);
	assert_true(a.worst_overall > 1000);

	assert_int_equal(kb_audit_run(UINT64_C(0x61C8864680B583EB), 64, &a), 0);
	assert_true(a.odd);
	assert_true(a.longest_run <= 8);
	assert_true(a.cf_max <= 4);
	assert_int_equal(a.sets_broken, 0);
	assert_true(a.worst_overall < 100);
}

/*
 * The new 64-bit multiplier's worst strides, X^2/df of keys 0, s, 2s, ...
 * (2 << bits of them) by Python's exact integers:
 *   m = 1 << b; c = [0] * m
 *   for i in range(2 * m): c[(i * s * K % 2**64) >> (64 - b)] += 1
 *   (m * sum(v * v for v in c) - 4 * m * m) / (2 * m) / (m - 1)
 * Four of the six table sizes reach the broken line (10.08 just), and the
 * audit must count them as skew and report would.
 */
static void new64_strides_that_break_a_table(void **state)
{
	static const struct {
		unsigned bits;
		uint64_t stride;
		double x2df;
	} want[] = {
		{ 6, UINT64_C(0x1c000000000000), 14.333333333333334 },
		{ 8, UINT64_C(0x1c000000000000), 10.08235294117647 },
		{ 10, 0x70000000, 8.298142717497557 },
		{ 12, 0xe0, 17.943345543345544 },
		{ 14, 0xe0, 4.280107428431911 },
		{ 16, 0x10000, 15.526955062180514 },
	};
	static struct kb_audit a;
	unsigned i;

	(void)state;
	assert_int_equal(kb_audit_run(UINT64_C(0x61C8864680B583EB), 64, &a), 0);
	for (i = 0; i < sizeof(want) / sizeof(*want); i++) {
		assert_true(a.worst[want[i].bits].stride == want[i].stride);
		assert_true(fabs(a.worst[want[i].bits].chi2_per_df - want[i].x2df) < 1e-9);
	}
	assert_int_equal(a.strides_broken, 4);
	assert_true(fabs(a.worst_overall - 17.943345543345544) < 1e-9);
	assert_int_equal(a.sets_broken, 0);
}

static void bad_multipliers_are_refused(void **state)
{
	static struct kb_audit a;

	(void)state;
	assert_int_equal(kb_audit_run(UINT64_C(1) << 32, 32, &a), -1);
	assert_int_equal(kb_audit_run(3, 48, &a), -1);
	assert_int_equal(kb_audit_run(0x61C88646, 32, &a), 0);
	assert_false(a.odd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(naf_matches_the_comments),
		cmocka_unit_test(continued_fractions),
		cmocka_unit_test(old_and_new_64_bit_multipliers),
		cmocka_unit_test(new64_strides_that_break_a_table),
		cmocka_unit_test(bad_multipliers_are_refused),
	};

	return cmocka_run_group_tests_name("audit", tests, NULL, NULL);
}
