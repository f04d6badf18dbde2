/* SPDX-License-Identifier: MIT */
/*
 * bench/stats.c against known values: chi-squared tails against mpmath at
 * 60 digits (tests/stats/chi2_reference.csv, relative error of p under
 * 1e-6 from 2 to 2^24 buckets, far below double's range), the expected
 * maximum load against an exact sum, and X^2 of hand-worked tables.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "stats.h"

#define LN10 2.302585092994045684

static const char *chi2_path, *max_load_path;

/*
 * log10 p within 1e-11 of the reference, relative to |log10 p| in deep
 * tails: the implementation reaches ~1e-13 (measured), so a bug in any
 * term of Stirling's series or the continued fraction shows.
 */
#define LOG10_TOLERANCE(ref) (1e-11 * (fabs(ref) > 1 ? fabs(ref) : 1))

static void chi2_tails_match_reference(void **state)
{
	FILE *f = fopen(chi2_path, "r");
	char line[256];
	int rows = 0, bad = 0;

	(void)state;
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		double df, x, ref_sf, ref_cdf, sf, cdf;

		assert_int_equal(sscanf(line, "%lf,%lf,%lf,%lf", &df, &x,
					&ref_sf, &ref_cdf),
				 4);
		sf = kb_chi2_log_sf(df, x) / LN10;
		cdf = kb_chi2_log_cdf(df, x) / LN10;
		if (fabs(sf - ref_sf) > LOG10_TOLERANCE(ref_sf) ||
		    fabs(cdf - ref_cdf) > LOG10_TOLERANCE(ref_cdf)) {
			if (bad++ < 10)
				print_error("df=%.0f x=%.17g: log10 sf %.17g (want %.17g), cdf %.17g (want %.17g)\n",
					    df, x, sf, ref_sf, cdf, ref_cdf);
		}
		rows++;
	}
	fclose(f);
	assert_true(rows >= 200);
	assert_int_equal(bad, 0);
}

static void expected_max_load_matches_reference(void **state)
{
	FILE *f = fopen(max_load_path, "r");
	char line[256];
	int rows = 0;

	(void)state;
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		double n, m, ref, got;

		assert_int_equal(sscanf(line, "%lf,%lf,%lf", &n, &m, &ref), 3);
		got = kb_expected_max_load(n, m);
		/* 1e-10 relative: a tenth of a key at 10^9 keys a bucket, so
		 * an off-by-one anywhere (a continuity correction, a sum's
		 * start) shows; measured error ~2e-12 */
		if (fabs(got - ref) > 1e-10 * ref)
			fail_msg("n=%.0f m=%.0f: %.10g, want %.10g", n, m, got,
				 ref);
		rows++;
	}
	fclose(f);
	assert_true(rows >= 20); /* up to 10^9 keys a bucket */
}

static void chi2_of_hand_worked_tables(void **state)
{
	static const uint64_t even[4] = { 10, 10, 10, 10 };
	static const uint64_t one[4] = { 40, 0, 0, 0 };
	static const uint64_t mixed[4] = { 1, 2, 3, 6 };
	struct kb_skew s;

	(void)state;
	kb_skew_from_counts(even, 4, &s);
	assert_int_equal(s.n, 40);
	assert_true(s.chi2 == 0.0);
	assert_int_equal(s.used, 4);
	assert_int_equal(s.max_load, 10);
	/* X^2 = 0, yet a random function does this 40!/(10!^4 4^40) =
	 * 0.39 % of the time (by hand, with Python's exact integers):
	 * p_lower is that chance, not 0, and the verdict is no "even" */
	assert_true(fabs(s.log10_p_lower - log10(0.0038921832876177)) < 1e-9);
	assert_string_equal(kb_verdict(&s), "ok");

	/* (4 * 1600 - 1600) / 40 = 120: all keys in one of four buckets */
	kb_skew_from_counts(one, 4, &s);
	assert_true(fabs(s.chi2 - 120.0) < 1e-12);
	assert_true(fabs(s.chi2_per_df - 40.0) < 1e-12);
	assert_int_equal(s.used, 1);
	assert_string_equal(kb_verdict(&s), "broken");

	/* E = 3: (4 + 1 + 0 + 9) / 3 = 14/3 */
	kb_skew_from_counts(mixed, 4, &s);
	assert_true(fabs(s.chi2 - 14.0 / 3) < 1e-12);
	assert_true(fabs(s.df - 3) < 1e-12);
	assert_int_equal(s.used, 4);
	assert_int_equal(s.max_load, 6);
}

/* The chi2_and_max_load_at_zero_infinity_and_one_bucket: an infinite statistic, no keys, a table of one bucket. */
static void chi2_and_max_load_at_zero_infinity_and_one_bucket(void **state)
{
	static const uint64_t one_bucket[1] = { 9 };
	struct kb_skew s;

	(void)state;
	assert_true(isinf(kb_chi2_log_sf(5, INFINITY)) && kb_chi2_log_sf(5, INFINITY) < 0);
	assert_true(kb_chi2_log_cdf(5, INFINITY) == 0.0);
	assert_true(kb_chi2_log_sf(5, 0) == 0.0);
	assert_true(isinf(kb_chi2_log_cdf(5, 0)));
	assert_true(kb_expected_max_load(0, 16) == 0.0);
	assert_true(kb_expected_max_load(5, 0) == 0.0);
	assert_true(kb_expected_max_load(7, 1) == 7.0);
	kb_skew_from_counts(one_bucket, 1, &s);
	assert_true(s.chi2_per_df == 0.0 && s.log10_p_upper == 0.0 && s.used == 1);
	assert_string_equal(kb_verdict(&s), "n/a");
}

/* Buckets used and the fullest bucket, counted by hand. */
static void used_and_max_load(void **state)
{
	static const uint64_t a[8] = { 0, 1, 1, 0, 2, 3, 0, 1 };
	static const uint64_t b[4] = { 7, 8, 0, 0 };
	static const uint64_t c[2] = { 0, 0 };
	struct kb_skew s;

	(void)state;
	kb_skew_from_counts(a, 8, &s);
	assert_int_equal(s.n, 8);
	assert_int_equal(s.used, 5);
	assert_int_equal(s.max_load, 3);
	kb_skew_from_counts(b, 4, &s);
	assert_int_equal(s.used, 2);
	assert_int_equal(s.max_load, 8);
	kb_skew_from_counts(c, 2, &s);
	assert_int_equal(s.used, 0);
	assert_int_equal(s.max_load, 0);
	assert_string_equal(kb_verdict(&s), "n/a");
}

static void chi2_exact_for_huge_loads(void **state)
{
	/* 2^40 keys, loads differing by one: X^2 = 2 / 2^39 exactly. */
	static uint64_t c[2] = { (UINT64_C(1) << 39) + 1,
				 (UINT64_C(1) << 39) - 1 };
	struct kb_skew s;

	(void)state;
	kb_skew_from_counts(c, 2, &s);
	assert_true(fabs(s.chi2 - 2.0 / 549755813888.0) <
		    1e-9 * (2.0 / 549755813888.0));
}

/* A numerator whose low 64 bits borrow from the high ones: X^2 computed
 * with Python's exact fractions, 11699443443912916561 / 9577107003. */
static void chi2_numerator_borrows(void **state)
{
	static const uint64_t c[2] = { UINT64_C(6498775961), UINT64_C(3078331042) };
	struct kb_skew s;

	(void)state;
	kb_skew_from_counts(c, 2, &s);
	assert_true(fabs(s.chi2 - 11699443443912916561.0 / 9577107003.0) < 1e-6);
}

/*
 * P(X^2 <= observed) by enumerating every way n keys fall into m buckets,
 * independently of stats.c: X^2 orders tables as their sum of squares.
 */
static double exact_p_lower(const uint64_t *c, unsigned m, unsigned n)
{
	unsigned long total = 1, a, at_most = 0, i;
	uint64_t obs = 0;

	for (i = 0; i < m; i++)
		obs += c[i] * c[i];
	for (i = 0; i < n; i++)
		total *= m;
	for (a = 0; a < total; a++) {
		uint64_t cnt[8] = { 0 }, sq = 0;
		unsigned long x = a;

		for (i = 0; i < n; i++, x /= m)
			cnt[x % m]++;
		for (i = 0; i < m; i++)
			sq += cnt[i] * cnt[i];
		at_most += sq <= obs;
	}
	return (double)at_most / (double)total;
}

/*
 * The lower tail of tiny tables: 2 keys in 2 buckets land apart half the
 * time, so p_lower = 1/2 (it was 0, and the verdict "even"); 4 keys split
 * 2-2 with chance 6/16.  Every most even table of up to 7 keys in 2..4
 * buckets matches the enumeration exactly, and no table gets p_lower 0.
 */
static void lower_tail_of_tiny_tables(void **state)
{
	static const uint64_t two[2] = { 1, 1 }, four[2] = { 2, 2 };
	struct kb_skew s;
	unsigned m, n, i;

	(void)state;
	kb_skew_from_counts(two, 2, &s);
	assert_true(s.chi2 == 0);
	assert_true(fabs(s.log10_p_lower - log10(0.5)) < 1e-12);
	assert_string_equal(kb_verdict(&s), KB_TOO_FEW);
	kb_skew_from_counts(four, 2, &s);
	assert_true(fabs(s.log10_p_lower - log10(6.0 / 16)) < 1e-12);
	for (m = 2; m <= 4; m++)
		for (n = 1; n <= 7; n++) {
			uint64_t c[4] = { 0 };

			for (i = 0; i < m; i++) /* the most even: r buckets of q + 1 */
				c[i] = n / m + (i < n % m);
			kb_skew_from_counts(c, m, &s);
			if (fabs(s.log10_p_lower - log10(exact_p_lower(c, m, n))) > 1e-12)
				fail_msg("%u keys, %u buckets: log10 p_lower %.15g, want %.15g", n, m,
					 s.log10_p_lower, log10(exact_p_lower(c, m, n)));
			/* a lopsided table: all but one key in the first bucket */
			c[0] = n - (n > 1);
			c[1] = n > 1;
			for (i = 2; i < m; i++)
				c[i] = 0;
			kb_skew_from_counts(c, m, &s);
			assert_true(s.log10_p_lower > -INFINITY);
			assert_true(s.log10_p_lower <= 1e-12);
		}
}

/*
 * Larger tables, by Python: 299 keys in 299 buckets of 512 is the most
 * even table, of chance prod(1 - i/512 for i < 299) = 10^-48.53405798060541
 * (the continuous tail says 10^-33.8); 65536 keys in 64 buckets, 1024
 * each but one 1025 and one 1023, is not, and its true p_lower (mpmath:
 * the most even table's 10^-119.06628589856344 plus 64 * 63 tables of
 * 1024/1025 of that, 10^-115.46108148014645) is far above the continuous
 * tail's 10^-129: the floor, the most even table's chance, is the better.
 */
static void lower_tail_of_larger_tables(void **state)
{
	static uint64_t birthday[512], one_off[64];
	struct kb_skew s;
	unsigned i;

	(void)state;
	for (i = 0; i < 299; i++)
		birthday[i] = 1;
	kb_skew_from_counts(birthday, 512, &s);
	assert_true(fabs(s.log10_p_lower - -48.53405798060541) < 1e-9);
	for (i = 0; i < 64; i++)
		one_off[i] = 1024;
	one_off[0]++;
	one_off[1]--;
	kb_skew_from_counts(one_off, 64, &s);
	assert_true(fabs(s.log10_p_lower - -119.06628589856344) < 1e-8);
	assert_true(s.log10_p_lower < -115.46108148014645);
}

/*
 * Enough keys: a verdict needs n(n-1)/2m >= 100.  By hand: 2 buckets need
 * 21 keys (21 * 20 = 420 >= 400, 20 * 19 = 380), 2048 need 641 (641 * 640
 * = 410240 >= 409600, 640 * 639 = 408960), 65536 need 3621 (3621 * 3620
 * = 13108020 >= 13107200, 3620 * 3619 = 13100780); 40 keys in 65536
 * buckets make 40 * 39 / 131072 = 0.011901855 pairs.
 */
static void enough_keys_at_both_sides(void **state)
{
	struct kb_skew s = { 0 };

	(void)state;
	assert_int_equal(kb_keys_needed(2), 21);
	assert_int_equal(kb_keys_needed(2048), 641);
	assert_int_equal(kb_keys_needed(65536), 3621);
	assert_false(kb_enough_keys(20, 2));
	assert_true(kb_enough_keys(21, 2));
	assert_false(kb_enough_keys(640, 2048));
	assert_true(kb_enough_keys(641, 2048));
	assert_false(kb_enough_keys(1, 0));
	/* 2^32 keys: n(n-1) = 2^64 - 2^32 passes 64 bits with 200m */
	assert_true(kb_enough_keys(UINT64_C(1) << 32, UINT64_C(1) << 56));
	assert_false(kb_enough_keys(UINT64_C(1) << 32, UINT64_C(1) << 57));
	assert_true(fabs(kb_expected_pairs(40, 65536) - 40.0 * 39 / 131072) < 1e-15);
	assert_true(kb_expected_pairs(1, 8) == 0.0);

	/* the verdict: however skewed the tails, too few keys says so */
	s.buckets = 2048;
	s.chi2_per_df = 50;
	s.log10_p_upper = -100;
	s.n = 640;
	assert_string_equal(kb_verdict(&s), KB_TOO_FEW);
	s.n = 641;
	assert_string_equal(kb_verdict(&s), "broken");
}

/* Each threshold from both sides: X^2/df 10, and KB_ALPHA in each tail. */
static void thresholds_at_both_sides(void **state)
{
	struct kb_skew s = { 0 };

	(void)state;
	s.n = 4096;
	s.buckets = 2048;
	s.log10_p_upper = -0.3;
	s.log10_p_lower = -0.3;
	s.chi2_per_df = 9.999;
	assert_string_equal(kb_verdict(&s), "ok");
	s.chi2_per_df = 10.0;
	assert_string_equal(kb_verdict(&s), "broken");
	s.chi2_per_df = 10.001;
	assert_string_equal(kb_verdict(&s), "broken");
	assert_true(KB_BROKEN == 10);

	s.chi2_per_df = 1.2;
	s.log10_p_upper = -6.001; /* p 0.998e-6 */
	assert_string_equal(kb_verdict(&s), "skewed");
	s.log10_p_upper = -6.0;
	assert_string_equal(kb_verdict(&s), "ok");
	s.log10_p_upper = -5.999;
	assert_string_equal(kb_verdict(&s), "ok");

	s.chi2_per_df = 0.8;
	s.log10_p_upper = -0.01;
	s.log10_p_lower = -6.001;
	assert_string_equal(kb_verdict(&s), "even");
	s.log10_p_lower = -6.0;
	assert_string_equal(kb_verdict(&s), "ok");
	s.log10_p_lower = -5.999;
	assert_string_equal(kb_verdict(&s), "ok");
	/* both tails small cannot happen, but the upper one would win */
	s.log10_p_upper = -7;
	assert_string_equal(kb_verdict(&s), "skewed");
}

/*
 * The verdict table at each rule's chi2_and_max_load_at_zero_infinity_and_one_bucket, worked by hand: 4096 buckets
 * need 906 keys (906 * 905 / 2 / 4096 = 100.09 pairs; 905 keys give
 * 99.86), X^2/df 10 is broken and just under is not, a tail at
 * log10 p = -6.001 is past KB_ALPHA and one at -5.999 is not, and the
 * rules are tried in order: no table, too few keys, broken, upper tail,
 * lower tail.
 */
static void verdict_table_at_its_edges(void **state)
{
	static const struct {
		uint64_t n, buckets;
		double chi2_per_df, log10_p_upper, log10_p_lower;
		enum kb_verdict_kind kind;
		const char *word;
		char mark;
		const char *heat;
	} c[] = {
		{ 0, 4096, 0, 0, 0, KB_VERDICT_NA, "n/a", ' ', "n/a" },
		{ 906, 1, 0, 0, 0, KB_VERDICT_NA, "n/a", ' ', "n/a" },
		{ 905, 4096, 50, -90, -0.1, KB_VERDICT_TOO_FEW, "too few keys", '?', "n/a" },
		{ 906, 4096, 50, -90, -0.1, KB_VERDICT_BROKEN, "broken", '#', "B" },
		{ 906, 4096, 10.0, -0.3, -0.3, KB_VERDICT_BROKEN, "broken", '#', "B" },
		{ 906, 4096, 10.0, -0.01, -7, KB_VERDICT_BROKEN, "broken", '#', "B" },
		{ 906, 4096, 9.999, -0.3, -0.3, KB_VERDICT_OK, "ok", ' ', "-" },
		{ 906, 4096, 9.999, -7, -0.3, KB_VERDICT_SKEWED, "skewed", '!', "S" },
		{ 906, 4096, 1.2, -6.001, -0.3, KB_VERDICT_SKEWED, "skewed", '!', "S" },
		{ 906, 4096, 1.2, -5.999, -0.3, KB_VERDICT_OK, "ok", ' ', "-" },
		{ 906, 4096, 0.8, -0.01, -6.001, KB_VERDICT_EVEN, "even", '~', "-" },
		{ 906, 4096, 0.8, -0.01, -5.999, KB_VERDICT_OK, "ok", ' ', "-" },
		{ 906, 4096, 1.5, -7, -7, KB_VERDICT_SKEWED, "skewed", '!', "S" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct kb_skew s = { 0 };
		enum kb_verdict_kind v;

		s.n = c[i].n;
		s.buckets = c[i].buckets;
		s.chi2_per_df = c[i].chi2_per_df;
		s.log10_p_upper = c[i].log10_p_upper;
		s.log10_p_lower = c[i].log10_p_lower;
		v = kb_verdict_of(&s);
		if (v != c[i].kind)
			fail_msg("case %zu: kind %d, not %d", i, (int)v, (int)c[i].kind);
		assert_string_equal(kb_verdict_word(v), c[i].word);
		assert_string_equal(kb_verdict(&s), c[i].word);
		assert_int_equal(kb_verdict_mark(v), c[i].mark);
		assert_string_equal(kb_verdict_heat_mark(v), c[i].heat);
	}
	assert_int_equal(kb_chi2_broken(10.0), 1);
	assert_int_equal(kb_chi2_broken(9.999), 0);
	/* the judged kinds, best to worst: the census ranks sites by them */
	assert_true(KB_VERDICT_EVEN < KB_VERDICT_OK && KB_VERDICT_OK < KB_VERDICT_SKEWED &&
		    KB_VERDICT_SKEWED < KB_VERDICT_BROKEN && KB_VERDICT_BROKEN < KB_VERDICT_JUDGED);
}

static void verdicts_follow_the_tails(void **state)
{
	struct kb_skew s = { 0 };

	(void)state;
	s.n = 4096;
	s.buckets = 2048;
	s.chi2_per_df = 1.0;
	s.log10_p_upper = -0.3;
	s.log10_p_lower = -0.3;
	assert_string_equal(kb_verdict(&s), "ok");
	s.log10_p_upper = -7;
	s.chi2_per_df = 1.5;
	assert_string_equal(kb_verdict(&s), "skewed");
	s.log10_p_upper = 0;
	s.log10_p_lower = -300;
	s.chi2_per_df = 0.01;
	assert_string_equal(kb_verdict(&s), "even");
	assert_true(kb_pow10_or_zero(-400) == 0.0);
	assert_true(fabs(kb_pow10_or_zero(-2) - 0.01) < 1e-15);
}

/* Hand-worked: odd and even counts, unsorted input, one round. */
static void rounds_summarized(void **state)
{
	double odd[] = { 3.0, 1.0, 2.0, 10.0, 4.0 }, even[] = { 4.0, 2.0, 8.0, 6.0 }, one[] = { 5.0 };
	struct kb_rounds r;

	(void)state;
	kb_rounds_of(odd, 5, &r);
	assert_int_equal(r.n, 5);
	assert_true(r.best == 1.0 && r.worst == 10.0 && r.median == 3.0 && r.mean == 4.0);
	assert_true(r.spread == 3.0); /* (10 - 1) / 3 */
	kb_rounds_of(even, 4, &r);
	assert_true(r.best == 2.0 && r.worst == 8.0 && r.median == 5.0 && r.mean == 5.0);
	assert_true(fabs(r.spread - 1.2) < 1e-15); /* (8 - 2) / 5 */
	kb_rounds_of(one, 1, &r);
	assert_true(r.best == 5.0 && r.worst == 5.0 && r.median == 5.0 && r.mean == 5.0 &&
		    r.spread == 0.0);
}

/*
 * Costs, worked by hand from the chains themselves (not from the sum of
 * squares the code uses): loads {3, 1, 0, 0}, 4 keys in 4 buckets.  A
 * present key: chain positions 1 2 3 and 1, 7/4 compares.  An absent key
 * landing where keys land: 3/4 of the time the chain of 3, else the
 * chain of 1, 10/4.  Others met: 2, 2, 2 and 0, 6/4.  A random function:
 * averaged over all 4^4 = 256 of them, by enumeration.
 */
/*
 * The random function's spread, against every way n keys can fall into m
 * buckets, enumerated here (m^n equally likely tables): the standard
 * deviation of each kind's cost ratio.
 */
static void cost_spread_of_every_table_enumerated(void **state)
{
	static const unsigned cases[][2] = { { 3, 2 }, { 4, 3 }, { 5, 4 }, { 6, 2 } };
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		unsigned n = cases[c][0], m = cases[c][1], i, k;
		unsigned long t, tables = 1;
		double sum[3] = { 0 }, sum2[3] = { 0 }, pairs = 0, pairs2 = 0;

		for (i = 0; i < n; i++)
			tables *= m;
		for (t = 0; t < tables; t++) {
			unsigned load[8] = { 0 };
			unsigned long code = t;
			double sq = 0, f[3];

			for (i = 0; i < n; i++, code /= m)
				load[code % m]++;
			for (i = 0; i < m; i++)
				sq += (double)load[i] * load[i];
			/* the pairs in a shared bucket: S = n + 2P */
			pairs += (sq - n) / 2;
			pairs2 += (sq - n) / 2 * ((sq - n) / 2);
			/* each kind's cost over its random figure (stats.h) */
			f[KB_KIND_CHAINED] = (sq / n + 1) / 2 / (1 + (n - 1.0) / m / 2);
			f[KB_KIND_TREE] = sq / n / (1 + (n - 1.0) / m);
			f[KB_KIND_LOCKS] = (sq / n - 1) / ((n - 1.0) / m);
			for (k = 0; k < 3; k++) {
				sum[k] += f[k];
				sum2[k] += f[k] * f[k];
			}
		}
		for (k = 0; k < 3; k++) {
			double mean = sum[k] / tables;
			double sd = sqrt(sum2[k] / tables - mean * mean);

			/* a random function's ratio averages 1 */
			assert_float_equal(mean, 1, 1e-12);
			assert_float_equal(kb_cost_ratio_sd(n, m, (enum kb_table_kind)k), sd, 1e-12);
		}
		pairs /= tables;
		assert_float_equal(pairs, n * (n - 1.0) / 2 / m, 1e-12);
		assert_float_equal(kb_shared_pairs_sd(n, m), sqrt(pairs2 / tables - pairs * pairs),
				   1e-12);
	}
	assert_float_equal(kb_cost_ratio_sd(1, 8, KB_KIND_LOCKS), 0, 0);
	/* sqrt(C(n,2) (1/m)(1 - 1/m)) from Python's math.comb and sqrt */
	assert_float_equal(kb_shared_pairs_sd(4096, 1024), 90.45441920174493, 1e-11);
	assert_float_equal(kb_shared_pairs_sd(1069, 1024), 23.599203285411495, 1e-11);
	assert_float_equal(kb_shared_pairs_sd(1, 1024), 0, 0);
}

static void costs_of_hand_worked_tables(void **state)
{
	const uint64_t loads[4] = { 3, 1, 0, 0 }, apart[4] = { 1, 1, 1, 1 };
	const uint64_t one[2] = { 1, 0 };
	struct kb_skew s;
	struct kb_cost c;
	double hit = 0, miss = 0, met = 0, cost, random, ratio;
	unsigned f, k;

	(void)state;
	kb_skew_from_counts(loads, 4, &s);
	kb_cost_of(&s, &c);
	assert_true(fabs(c.hit - 1.75) < 1e-12);
	assert_true(fabs(c.miss - 2.5) < 1e-12);
	assert_true(fabs(c.met - 1.5) < 1e-12);
	/* every function from 4 keys to 4 buckets, equally likely */
	for (f = 0; f < 256; f++) {
		uint64_t l[4] = { 0 };
		double pos = 0, sq = 0;

		for (k = 0; k < 4; k++)
			pos += (double)++l[(f >> (2 * k)) & 3]; /* its place in the chain */
		for (k = 0; k < 4; k++)
			sq += (double)(l[k] * l[k]);
		hit += pos / 4 / 256;
		miss += sq / 4 / 256;
		met += (sq - 4) / 4 / 256;
	}
	assert_true(fabs(c.hit_random - hit) < 1e-12);   /* 1.375 */
	assert_true(fabs(c.miss_random - miss) < 1e-12); /* 1.75 */
	assert_true(fabs(c.met_random - met) < 1e-12);   /* 0.75 */
	assert_true(fabs(c.hit_ratio - 1.75 / 1.375) < 1e-12);
	assert_true(fabs(c.miss_ratio - 2.5 / 1.75) < 1e-12);
	assert_true(fabs(c.met_ratio - 2.0) < 1e-12);
	/* which figure each kind of table pays */
	kb_cost_for(&c, KB_KIND_CHAINED, &cost, &random, &ratio);
	assert_true(cost == c.hit && random == c.hit_random && ratio == c.hit_ratio);
	kb_cost_for(&c, KB_KIND_TREE, &cost, &random, &ratio);
	assert_true(cost == c.miss && random == c.miss_random && ratio == c.miss_ratio);
	kb_cost_for(&c, KB_KIND_LOCKS, &cost, &random, &ratio);
	assert_true(cost == c.met && random == c.met_random && ratio == c.met_ratio);
	assert_string_equal(kb_table_kind_name(KB_KIND_LOCKS), "locks");
	/* every key alone: one compare, nobody met, better than random */
	kb_skew_from_counts(apart, 4, &s);
	kb_cost_of(&s, &c);
	assert_true(c.hit == 1 && c.miss == 1 && c.met == 0 && c.met_ratio == 0);
	assert_true(c.hit_ratio < 1);
	/* one key: nothing to meet, at random either, a ratio of 1 */
	kb_skew_from_counts(one, 2, &s);
	kb_cost_of(&s, &c);
	assert_true(c.met == 0 && c.met_random == 0 && c.met_ratio == 1);
	assert_true(c.hit == 1 && c.hit_random == 1);
	/* sparse and dense agree: the occupied buckets' loads only */
	kb_skew_from_loads(loads, 2, 4, &s);
	kb_cost_of(&s, &c);
	assert_true(fabs(c.hit - 1.75) < 1e-12 && fabs(c.met_random - 0.75) < 1e-12);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chi2_tails_match_reference),
		cmocka_unit_test(expected_max_load_matches_reference),
		cmocka_unit_test(chi2_of_hand_worked_tables),
		cmocka_unit_test(chi2_exact_for_huge_loads),
		cmocka_unit_test(chi2_numerator_borrows),
		cmocka_unit_test(used_and_max_load),
		cmocka_unit_test(chi2_and_max_load_at_zero_infinity_and_one_bucket),
		cmocka_unit_test(verdicts_follow_the_tails),
		cmocka_unit_test(lower_tail_of_tiny_tables),
		cmocka_unit_test(lower_tail_of_larger_tables),
		cmocka_unit_test(enough_keys_at_both_sides),
		cmocka_unit_test(thresholds_at_both_sides),
		cmocka_unit_test(verdict_table_at_its_edges),
		cmocka_unit_test(rounds_summarized),
		cmocka_unit_test(costs_of_hand_worked_tables),
		cmocka_unit_test(cost_spread_of_every_table_enumerated),
	};

	if (argc != 3) {
		fprintf(stderr, "usage: %s CHI2.csv MAX_LOAD.csv\n", argv[0]);
		return 2;
	}
	chi2_path = argv[1];
	max_load_path = argv[2];
	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
