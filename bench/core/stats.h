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

/* False-alarm rate of one cell's verdict (a literal: help texts quote it). */
#define KB_ALPHA 1e-6

/* X^2/df at or above which a table is "broken": most keys in a few
 * buckets, whatever the tails say (a literal: help texts quote it). */
#define KB_BROKEN 10

/*
 * A chi-squared verdict needs keys.  A table's X^2 is, up to constants,
 * the number of key pairs that share a bucket; a random function gives a
 * Poisson number of them, lambda = n(n-1)/2m for n keys and m buckets, and
 * the chi-squared tail stands for that count's tail.  At KB_ALPHA the two
 * agree within a factor of 3 once lambda >= 100 (mpmath: 2.9e-6 at lambda
 * 100, 1.8e-5 at 10, and about lambda itself, not 1e-6, for a handful of
 * keys in a large table: 40 keys in 2^16 buckets come out "skewed" at
 * p_upper 7e-19 when one pair shares a bucket).  Below that the verdict
 * is KB_TOO_FEW, for skew, report and census alike.
 */
#define KB_MIN_PAIRS 100
#define KB_TOO_FEW "too few keys"

/* The key pairs a random function puts in a shared bucket: n(n-1)/2m. */
double kb_expected_pairs(uint64_t n, uint64_t m);
/* Is that at least KB_MIN_PAIRS?  (Exact, in integers.) */
int kb_enough_keys(uint64_t n, uint64_t m);
/* The fewest keys m buckets need for a verdict. */
uint64_t kb_keys_needed(uint64_t m);

struct kb_skew {
	uint64_t n;             /* keys */
	uint64_t buckets;       /* m = 2^bits */
	double chi2;            /* Pearson X^2 */
	double df;              /* m - 1 */
	double chi2_per_df;     /* X^2 / df, ~1 for a random function */
	double log10_p_upper;   /* P(X^2 >= observed): small = worse than random */
	double log10_p_lower;   /* P(X^2 <= observed): small = more even;
				 * never below the exact chance of the most
				 * even table n keys can make */
	uint64_t used;          /* buckets with at least one key */
	uint64_t max_load;      /* fullest bucket */
	double expected_max;    /* what a random function would give */
	double sum_sq;          /* sum of the squared loads (what the costs
				 * below follow from) */
};

/* Fill s from the bucket counts of a table with m buckets. */
void kb_skew_from_counts(const uint64_t *counts, uint64_t m,
			 struct kb_skew *s);
/* The same from the loads of some buckets of a table with m buckets,
 * the others empty (any order): a sparse table costs its keys, not m. */
void kb_skew_from_loads(const uint64_t *loads, uint64_t nloads, uint64_t m,
			struct kb_skew *s);

/* The most keys a table of 2^bits buckets is judged exactly for: X^2's
 * numerator m * sum c^2 - n^2 is formed in 128 bits, and n keys in one
 * bucket make it (m - 1) n^2, so n < 2^(64 - bits/2). */
uint64_t kb_skew_max_keys(unsigned bits);

/*
 * What a table's skew costs, in the table's own terms.  Every figure is
 * a mean over the keys in the table (n keys, m buckets, loads L_i), and
 * follows from the sum of squared loads S = sum L_i^2:
 *  - chained buckets (hlist): entries compared to find a present key,
 *    (S/n + 1) / 2; entries compared for an absent key that hashes the
 *    way the present keys do (the whole chain of a key's bucket), S/n.
 *    (An absent key hashed uniformly at random meets n/m whatever the
 *    function: no figure says more.)
 *  - buckets that are trees (rb-trees): keys in the tree a lookup
 *    searches, S/n (it descends about log2 of that).
 *  - arrays of locks or wait queues: other keys met on a key's lock or
 *    queue when all are busy at once, S/n - 1.
 * and a random function's expectation at the same n and m, from
 * E[S] = n + n(n-1)/m: 1 + (n-1)/2m, 1 + (n-1)/m and (n-1)/m.
 */
enum kb_table_kind { KB_KIND_CHAINED, KB_KIND_TREE, KB_KIND_LOCKS, KB_KIND_COUNT_ };
/* "chained", "tree", "locks" */
const char *kb_table_kind_name(enum kb_table_kind kind);

struct kb_cost {
	double hit, hit_random;     /* chained: a present key's compares */
	double miss, miss_random;   /* chained: an absent key's compares; tree:
				     * the keys of the tree searched */
	double met, met_random;     /* locks: the other keys met */
	/* each over its random figure: 1 is a random function's cost, and
	 * a cost with nothing to meet at random (met, n < 2) is 1 */
	double hit_ratio, miss_ratio, met_ratio;
};
/* s's costs (no keys: all 0, ratios 1). */
void kb_cost_of(const struct kb_skew *s, struct kb_cost *c);
/* The figure and its random one that say what a kind of table pays. */
void kb_cost_for(const struct kb_cost *c, enum kb_table_kind kind,
		 double *cost, double *random, double *ratio);

/*
 * How far a random function's cost ratio (kb_cost_for's) strays at n keys
 * and m buckets: its standard deviation.  S = n + 2P, P the key pairs in
 * a shared bucket; the pairs' indicators are pairwise independent, so
 * Var(P) = C(n,2) (1/m)(1 - 1/m) exactly, and each figure is linear in S.
 * Two hashes whose ratios differ by a few of these are a tie.
 */
double kb_cost_ratio_sd(uint64_t n, uint64_t m, enum kb_table_kind kind);

/* The standard deviation of P itself, the pairs a random function puts in
 * a shared bucket: sqrt(C(n,2) (1/m)(1 - 1/m)). */
double kb_shared_pairs_sd(uint64_t n, uint64_t m);

/* Standard deviations of a random function's figure within which two
 * figures are a tie, or an excess is noise. */
#define KB_NOISE_SDS 2

/*
 * A benchmark's rounds: the fastest (the figure least disturbed by the
 * machine), the median, the mean, the slowest, and the spread (slowest -
 * fastest) / median, which says how far the figures can be trusted.
 * Lower is faster: give times, not rates.
 */
struct kb_rounds {
	unsigned n;
	double best, median, mean, worst, spread;
};
/* Summarize n >= 1 times (t is sorted in place). */
void kb_rounds_of(double *t, unsigned n, struct kb_rounds *r);

/* 10^log10p, or 0 when that underflows a double. */
double kb_pow10_or_zero(double log10p);

/*
 * A cell's verdict.  The judged ones come first, from best to worst (the
 * census ranks and counts sites by them); then the two that judge
 * nothing.  stats.c's one table gives each its word, its marks and the
 * rule that picks it.
 */
enum kb_verdict_kind {
	KB_VERDICT_EVEN,    /* "even": more even than random at KB_ALPHA
			     * (good for a table) */
	KB_VERDICT_OK,      /* "ok" */
	KB_VERDICT_SKEWED,  /* "skewed": worse than random at KB_ALPHA */
	KB_VERDICT_BROKEN,  /* "broken": X^2/df >= KB_BROKEN */
	KB_VERDICT_TOO_FEW, /* KB_TOO_FEW (see KB_MIN_PAIRS) */
	KB_VERDICT_NA,      /* "n/a": no keys, or one bucket */
	KB_VERDICT_KINDS
};
#define KB_VERDICT_JUDGED KB_VERDICT_TOO_FEW /* kinds below it judge */

enum kb_verdict_kind kb_verdict_of(const struct kb_skew *s);
/* Its word, as every output writes it. */
const char *kb_verdict_word(enum kb_verdict_kind v);
/* Its mark before a cell's X^2/df in a text table: '#', '!', '~', '?'
 * or ' '. */
char kb_verdict_mark(enum kb_verdict_kind v);
/* Its mark in a heatmap's data: "B", "S", "-" (judged, neither), "n/a"
 * (no verdict: drawn hatched). */
const char *kb_verdict_heat_mark(enum kb_verdict_kind v);

/* X^2/df alone says broken (audits judge strides by it, without tails). */
int kb_chi2_broken(double chi2_per_df);

/* The word of a cell's verdict: kb_verdict_word(kb_verdict_of(s)). */
const char *kb_verdict(const struct kb_skew *s);

#endif
