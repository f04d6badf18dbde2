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
#include "spectral.h"

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

static void continued_fraction_quotients_worked_by_hand(void **state)
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

/*
 * The spectral test against tests/audit/spectral.py (exact integers and
 * fractions): in every dimension 2..8 the squared length of the shortest
 * vector and the figure of merit for the old and new constants and
 * splitmix64's, and four where LLL alone stops short; the vector itself
 * where it is the only one of its length up to sign (dimension 2), and
 * everywhere that it lies in the lattice.
 */
static void spectral_test_matches_exact_arithmetic(void **state)
{
	static const struct {
		uint64_t k;
		unsigned width, t;
		double merit;
		uint64_t nu2; /* 0: past 2^53, where a double rounds it */
		int64_t vec[8];
	} want[] = {
		/* odd 32-bit multipliers whose LLL basis holds no shortest
		 * vector in that dimension: only the enumeration finds it */
		{ 0x3fd42359u, 32, 8, 0.701561, UINT64_C(252), { INT64_C(1) } },
		{ 0x4a0fe75du, 32, 8, 0.634306, UINT64_C(206), { INT64_C(8) } },
		{ 0x585a01du, 32, 7, 0.727528, UINT64_C(542), { INT64_C(4) } },
		{ 0xb2489191u, 32, 7, 0.693159, UINT64_C(492), { INT64_C(1) } },
		{ 0x61C88647u, 32, 2, 0.852779, UINT64_C(3606635378), { INT64_C(52777), INT64_C(28657) } },
		{ 0x61C88647u, 32, 3, 0.780487, UINT64_C(2027906), { INT64_C(1369), INT64_C(256), INT64_C(-297) } },
		{ 0x61C88647u, 32, 4, 0.507151, UINT64_C(23838), { INT64_C(113), INT64_C(51), INT64_C(-68), INT64_C(-62) } },
		{ 0x61C88647u, 32, 5, 0.433572, UINT64_C(2032), { INT64_C(19), INT64_C(-13), INT64_C(27), INT64_C(17), INT64_C(22) } },
		{ 0x61C88647u, 32, 6, 0.325039, UINT64_C(286), { INT64_C(12), INT64_C(-5), INT64_C(1), INT64_C(8), INT64_C(4), INT64_C(6) } },
		{ 0x61C88647u, 32, 7, 0.528485, UINT64_C(286), { INT64_C(12), INT64_C(-5), INT64_C(1), INT64_C(8), INT64_C(4), INT64_C(6), INT64_C(0) } },
		{ 0x61C88647u, 32, 8, 0.589624, UINT64_C(178), { INT64_C(6), INT64_C(0), INT64_C(-4), INT64_C(-6), INT64_C(1), INT64_C(-8), INT64_C(4), INT64_C(-3) } },
		{ 0x9e370001u, 32, 2, 0.659477, UINT64_C(2156892770), { INT64_C(30599), INT64_C(34937) } },
		{ 0x9e370001u, 32, 3, 0.001343, UINT64_C(6), { INT64_C(1), INT64_C(-2), INT64_C(1) } },
		{ 0x9e370001u, 32, 4, 0.006570, UINT64_C(4), { INT64_C(1), INT64_C(-1), INT64_C(-1), INT64_C(1) } },
		{ 0x9e370001u, 32, 5, 0.019237, UINT64_C(4), { INT64_C(1), INT64_C(-1), INT64_C(-1), INT64_C(1), INT64_C(0) } },
		{ 0x9e370001u, 32, 6, 0.038440, UINT64_C(4), { INT64_C(1), INT64_C(-1), INT64_C(-1), INT64_C(1), INT64_C(0), INT64_C(0) } },
		{ 0x9e370001u, 32, 7, 0.062500, UINT64_C(4), { INT64_C(1), INT64_C(-1), INT64_C(-1), INT64_C(1), INT64_C(0), INT64_C(0), INT64_C(0) } },
		{ 0x9e370001u, 32, 8, 0.088388, UINT64_C(4), { INT64_C(1), INT64_C(-1), INT64_C(-1), INT64_C(1), INT64_C(0), INT64_C(0), INT64_C(0), INT64_C(0) } },
		{ 0x61C8864680B583EBu, 64, 2, 0.643878, 0, { INT64_C(50920843), INT64_C(-2971215073) } },
		{ 0x61C8864680B583EBu, 64, 3, 0.789072, UINT64_C(5476758839718), { INT64_C(1137922), INT64_C(-1966853), INT64_C(559805) } },
		{ 0x61C8864680B583EBu, 64, 4, 0.640981, UINT64_C(2495543010), { INT64_C(23248), INT64_C(-31644), INT64_C(-19693), INT64_C(-23789) } },
		{ 0x61C8864680B583EBu, 64, 5, 0.571262, UINT64_C(25156890), { INT64_C(2789), INT64_C(2934), INT64_C(2850), INT64_C(-788), INT64_C(163) } },
		{ 0x61C8864680B583EBu, 64, 6, 0.684185, UINT64_C(2059826), { INT64_C(461), INT64_C(-518), INT64_C(124), INT64_C(585), INT64_C(808), INT64_C(754) } },
		{ 0x61C8864680B583EBu, 64, 7, 0.436429, UINT64_C(110256), { INT64_C(84), INT64_C(136), INT64_C(211), INT64_C(149), INT64_C(42), INT64_C(93), INT64_C(-87) } },
		{ 0x61C8864680B583EBu, 64, 8, 0.702148, UINT64_C(64620), { INT64_C(97), INT64_C(23), INT64_C(0), INT64_C(158), INT64_C(-63), INT64_C(-16), INT64_C(73), INT64_C(-142) } },
		{ 0x9e37fffffffc0001u, 64, 2, 0.465301, 0, { INT64_C(2147475456), INT64_C(8192) } },
		{ 0x9e37fffffffc0001u, 64, 3, 0.124999, UINT64_C(137437380614), { INT64_C(262143), INT64_C(-262142), INT64_C(-1) } },
		{ 0x9e37fffffffc0001u, 64, 4, 0.058759, UINT64_C(20971520), { INT64_C(1024), INT64_C(-3072), INT64_C(3072), INT64_C(-1024) } },
		{ 0x9e37fffffffc0001u, 64, 5, 0.000953, UINT64_C(70), { INT64_C(1), INT64_C(-4), INT64_C(6), INT64_C(-4), INT64_C(1) } },
		{ 0x9e37fffffffc0001u, 64, 6, 0.002523, UINT64_C(28), { INT64_C(1), INT64_C(-3), INT64_C(2), INT64_C(2), INT64_C(-3), INT64_C(1) } },
		{ 0x9e37fffffffc0001u, 64, 7, 0.006955, UINT64_C(28), { INT64_C(1), INT64_C(-3), INT64_C(2), INT64_C(2), INT64_C(-3), INT64_C(1), INT64_C(0) } },
		{ 0x9e37fffffffc0001u, 64, 8, 0.009568, UINT64_C(12), { INT64_C(1), INT64_C(-2), INT64_C(0), INT64_C(1), INT64_C(1), INT64_C(0), INT64_C(-2), INT64_C(1) } },
		{ 0xbf58476d1ce4e5b9u, 64, 2, 0.407377, 0, { INT64_C(1682898648), INT64_C(-838328728) } },
		{ 0xbf58476d1ce4e5b9u, 64, 3, 0.526956, UINT64_C(2442518249888), { INT64_C(1369628), INT64_C(-752748), INT64_C(2800) } },
		{ 0xbf58476d1ce4e5b9u, 64, 4, 0.663656, UINT64_C(2675226206), { INT64_C(11210), INT64_C(-44991), INT64_C(12629), INT64_C(19128) } },
		{ 0xbf58476d1ce4e5b9u, 64, 5, 0.541147, UINT64_C(22574374), { INT64_C(4298), INT64_C(-1349), INT64_C(114), INT64_C(-382), INT64_C(-1457) } },
		{ 0xbf58476d1ce4e5b9u, 64, 6, 0.588147, UINT64_C(1522140), { INT64_C(731), INT64_C(-407), INT64_C(-302), INT64_C(662), INT64_C(1), INT64_C(-541) } },
		{ 0xbf58476d1ce4e5b9u, 64, 7, 0.393627, UINT64_C(89690), { INT64_C(113), INT64_C(51), INT64_C(-142), INT64_C(-74), INT64_C(-208), INT64_C(-54), INT64_C(50) } },
		{ 0xbf58476d1ce4e5b9u, 64, 8, 0.689129, UINT64_C(62246), { INT64_C(46), INT64_C(107), INT64_C(-40), INT64_C(-24), INT64_C(-52), INT64_C(203), INT64_C(-36), INT64_C(36) } },
	};
	size_t i;

	(void)state;
	if (!kb_spectral_available()) {
		/* no 128-bit integers: it says so rather than guess */
		struct kb_spectral s;

		assert_int_equal(kb_spectral_test(0x61C88647u, 32, 8, &s), 0);
		assert_false(s.ok);
		return;
	}
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct kb_spectral s;
		unsigned t = want[i].t, j;
		uint64_t p = 1, dot = 0;
		double n2 = 0;

		assert_int_equal(kb_spectral_test(want[i].k, want[i].width, 8, &s), 0);
		assert_true(s.ok);
		if (fabs(s.merit[t] - want[i].merit) > 5e-7)
			fail_msg("K %#llx t %u: merit %.7f, want %.6f", (unsigned long long)want[i].k, t,
				 s.merit[t], want[i].merit);
		/* the vector found: in the lattice, and as short as the best */
		for (j = 0; j < t; j++) {
			dot += (uint64_t)s.vec[t][j] * p;
			p *= want[i].k;
			n2 += (double)s.vec[t][j] * (double)s.vec[t][j];
		}
		assert_int_equal(want[i].width == 32 ? (uint32_t)dot : dot, 0);
		if (want[i].nu2)
			assert_true(n2 == (double)want[i].nu2 && s.nu2[t] == (double)want[i].nu2);
		if (t == 2)
			for (j = 0; j < 2; j++)
				assert_int_equal(s.vec[2][j], want[i].vec[j]);
	}
}

/* Even multipliers and widths other than 32 and 64 have no test. */
static void spectral_test_refuses_what_has_no_lattice(void **state)
{
	struct kb_spectral s;

	(void)state;
	assert_int_equal(kb_spectral_test(0x61C88646u, 32, 8, &s), -1);
	assert_int_equal(kb_spectral_test(0x61C88647u, 48, 8, &s), -1);
	assert_int_equal(kb_spectral_test(UINT64_C(0x161C88647), 32, 8, &s), -1);
	assert_int_equal(kb_spectral_test(0x61C88647u, 32, 9, &s), -1);
	assert_int_equal(kb_spectral_test(0x61C88647u, 32, 1, &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(naf_matches_the_comments),
		cmocka_unit_test(continued_fraction_quotients_worked_by_hand),
		cmocka_unit_test(old_and_new_64_bit_multipliers),
		cmocka_unit_test(new64_strides_that_break_a_table),
		cmocka_unit_test(bad_multipliers_are_refused),
		cmocka_unit_test(spectral_test_matches_exact_arithmetic),
		cmocka_unit_test(spectral_test_refuses_what_has_no_lattice),
	};

	return cmocka_run_group_tests_name("audit", tests, NULL, NULL);
}
