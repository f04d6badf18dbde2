/* SPDX-License-Identifier: MIT */
/*
 * Statistics of bucket loads, all in one place: Pearson's chi-squared, its
 * two tail probabilities (kept as logarithms so deep tails do not underflow),
 * the maximum load a random function would give, and a verdict word.
 */
#ifndef KB_STATS_H
#define KB_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Natural logs of both regularized incomplete gamma tails, P(a,x), Q(a,x). */
void kb_gamma_log_tails(double a, double x, double *log_p, double *log_q);

/* ln of the chi-squared survival function (upper tail) and CDF (lower). */
double kb_chi2_log_sf(double df, double x);
double kb_chi2_log_cdf(double df, double x);

/* Expected maximum bucket load for n keys thrown uniformly into m buckets
 * (Poisson approximation, accurate once m is more than a few dozen). */
double kb_expected_max_load(double n, double m);

/* False-alarm rate of one cell's verdict. */
#define KB_ALPHA 1e-6

struct kb_skew {
	uint64_t n;             /* keys */
	uint64_t buckets;       /* m = 2^bits */
	double chi2;            /* Pearson X^2 */
	double df;              /* m - 1 */
	double chi2_per_df;     /* X^2 / df, ~1 for a random function */
	double log10_p_upper;   /* P(X^2 >= observed): small = worse than random */
	double log10_p_lower;   /* P(X^2 <= observed): small = more even */
	uint64_t used;          /* buckets with at least one key */
	uint64_t max_load;      /* fullest bucket */
	double expected_max;    /* what a random function would give */
};

/* Fill s from the bucket counts of a table with m buckets. */
void kb_skew_from_counts(const uint64_t *counts, uint64_t m,
			 struct kb_skew *s);
/* The same from the loads of some buckets of a table with m buckets,
 * the others empty (any order): a sparse table costs its keys, not m. */
void kb_skew_from_loads(const uint64_t *loads, uint64_t nloads, uint64_t m,
			struct kb_skew *s);

/* 10^log10p, or 0 when that underflows a double. */
double kb_pow10_or_zero(double log10p);

/*
 * One word per cell: "broken" (X^2/df >= 10, e.g. most keys in a few
 * buckets), "skewed" (worse than random at KB_ALPHA), "even" (more even
 * than random at KB_ALPHA: good for a table), or "ok".
 */
const char *kb_verdict(const struct kb_skew *s);

#endif
