/* SPDX-License-Identifier: MIT */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LN10 2.302585092994045684
#define LN_SQRT_2PI 0.918938533204672742

/* ln(1 + t) - t, accurate for small |t| where the plain form cancels. */
static double log1pmx(double t)
{
	double term, sum, k;

	if (fabs(t) > 0.25)
		return log1p(t) - t;
	/* sum over k >= 2 of (-1)^(k+1) t^k / k: -t^2/2 + t^3/3 - ... */
	term = t;
	sum = 0.0;
	for (k = 2; k < 200; k++) {
		term *= -t;
		sum += term / k;
		if (fabs(term / k) < 1e-18 * fabs(sum))
			break;
	}
	return sum;
}

/* Stirling's correction: lgamma(a) - [(a - 1/2) ln a - a + ln sqrt(2 pi)],
 * by its asymptotic series: only ever asked for a >= 10 (log_prefactor). */
static double stirling_correction(double a)
{
	double a2 = a * a;

	return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - 1.0 / (1680 * a2)) / a2) /
				   a2) / a;
}

/*
 * ln(x^a e^-x / Gamma(a)), the factor both tails share.  Written around
 * x = a(1 + t) so the large terms cancel analytically, not in floating
 * point: for a in the millions the naive form loses ~8 digits.
 */
static double log_prefactor(double a, double x)
{
	if (a < 10)
		return a * log(x) - x - lgamma(a);
	return 0.5 * log(a) - LN_SQRT_2PI - stirling_correction(a) +
	       a * log1pmx((x - a) / a);
}

/* ln of sum_{n>=0} x^n / ((a+1)...(a+n)); P(a,x) = prefactor * that / a. */
static double log_lower_series(double a, double x)
{
	double term = 1.0, sum = 1.0, n;

	for (n = 1; n < 1e8; n++) {
		term *= x / (a + n);
		sum += term;
		if (term < sum * 1e-17)
			break;
	}
	return log(sum) - log(a);
}

/* ln of the continued fraction with Q(a,x) = prefactor * CF (modified Lentz). */
static double log_upper_fraction(double a, double x)
{
	const double tiny = 1e-300;
	/* Where it is used (x >= a + 1) it converges in fewer than 0.2 of
	 * these steps (measured for a from 0.01 to 1e19, x from a + 1 to
	 * a + 1e4 sqrt(a)): steps beyond them mean a broken fraction. */
	const double steps = 1000.0 + 50.0 * cbrt(a);
	double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d, i;

	for (i = 1; i < steps; i++) {
		double an = -i * (i - a), delta;

		b += 2.0;
		d = an * d + b;
		if (fabs(d) < tiny)
			d = tiny;
		c = b + an / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1.0) < 1e-16)
			return log(h);
	}
	/* it did not converge: NaN, not a number that passes for a p-value */
	return NAN;
}

/* ln(1 - e^l) for l <= 0, without cancellation at either end. */
static double log1mexp(double l)
{
	return l > -0.693 ? log(-expm1(l)) : log1p(-exp(l));
}

void kb_gamma_log_tails(double a, double x, double *log_p, double *log_q)
{
	double pre;

	if (x <= 0) {
		*log_p = -INFINITY;
		*log_q = 0.0;
		return;
	}
	if (isinf(x)) {
		*log_p = 0.0;
		*log_q = -INFINITY;
		return;
	}
	pre = log_prefactor(a, x);
	/* Each method on the side where it converges and loses nothing. */
	if (x < a + 1.0) {
		*log_p = pre + log_lower_series(a, x);
		*log_q = log1mexp(*log_p);
	} else {
		*log_q = pre + log_upper_fraction(a, x);
		*log_p = log1mexp(*log_q);
	}
}

double kb_chi2_log_sf(double df, double x)
{
	double lp, lq;

	kb_gamma_log_tails(df / 2, x / 2, &lp, &lq);
	return lq;
}

double kb_chi2_log_cdf(double df, double x)
{
	double lp, lq;

	kb_gamma_log_tails(df / 2, x / 2, &lp, &lq);
	return lp;
}

/* P(max load >= k) for n keys in m buckets, loads taken as independent
 * Poisson(lambda): 1 - F(k-1)^m, with 1 - F(k-1) = P(k, lambda). */
static double p_max_at_least(double k, double lambda, double m)
{
	double lp, lq;

	/* k >= 1 always: the bisections below start at 1 */
	if (lambda > 1e7) {
		/*
		 * Tens of millions of keys a bucket: the series would take
		 * millions of terms, so use the normal limit, continuity-
		 * corrected and with the Poisson's skewness taken out
		 * (Cornish-Fisher, to first order: a Poisson quantile is
		 * lambda + z sqrt(lambda) + (z^2 - 1) / 6).  Without that term
		 * the expected maximum comes out ~1.6 keys low at any load.
		 */
		double w = (k - 0.5 - lambda) / sqrt(lambda);
		/* beyond 40 sigma both tails are 0 or 1 in a double; the
		 * correction would only break z's monotony there */
		double z = fabs(w) < 40 ? w - (w * w - 1) / (6 * sqrt(lambda)) : w;

		return -expm1(m * log1p(-0.5 * erfc(z / sqrt(2.0))));
	}
	kb_gamma_log_tails(k, lambda, &lp, &lq);
	return -expm1(m * log1mexp(lp));
}

/* Smallest integer k in [lo, hi] with p_max_at_least(k) < target. */
static double first_below(double lo, double hi, double target, double lambda,
			  double m)
{
	while (lo < hi) {
		double mid = floor(lo + (hi - lo) / 2);

		if (p_max_at_least(mid, lambda, m) < target)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

double kb_expected_max_load(double n, double m)
{
	/*
	 * E[max] = sum_{k>=1} P(max >= k).  The terms are 1 up to k_lo and 0
	 * from k_hi on, both found by bisection; between them the sum is
	 * taken term by term, or for huge loads (millions of keys a bucket)
	 * by the trapezoid rule over at most 4096 points of a curve that is
	 * smooth on that scale.
	 */
	double lambda, k_lo, k_hi, sum, step, k;

	if (n <= 0 || m <= 0)
		return 0.0;
	if (m == 1)
		return n;
	lambda = n / m;
	k_lo = first_below(1, n, 1 - 1e-15, lambda, m);
	k_hi = first_below(k_lo, n + 1, 1e-15, lambda, m);
	sum = k_lo - 1;
	if (k_hi - k_lo <= 4096) {
		for (k = k_lo; k <= k_hi; k++)
			sum += p_max_at_least(k, lambda, m);
		return sum;
	}
	step = (k_hi - k_lo) / 4096;
	sum += 0.5 * (p_max_at_least(k_lo, lambda, m) +
		      p_max_at_least(k_hi, lambda, m)) * step;
	for (k = k_lo + step; k < k_hi - step / 2; k += step)
		sum += p_max_at_least(k, lambda, m) * step;
	return sum + 0.5 * (p_max_at_least(k_lo, lambda, m) +
			    p_max_at_least(k_hi, lambda, m));
}

/* 128-bit unsigned arithmetic, portable to 32-bit hosts without __int128. */
struct u128 {
	uint64_t hi, lo;
};

static struct u128 mul64(uint64_t a, uint64_t b)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	struct u128 r;

	r.lo = (mid << 32) | (uint32_t)p00;
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

static void add128(struct u128 *acc, struct u128 v)
{
	acc->lo += v.lo;
	acc->hi += v.hi + (acc->lo < v.lo);
}

static double u128_to_double(struct u128 v)
{
	return (double)v.hi * 18446744073709551616.0 + (double)v.lo;
}

static int u128_less(struct u128 a, struct u128 b)
{
	return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
}

double kb_expected_pairs(uint64_t n, uint64_t m)
{
	return n < 2 || m == 0 ? 0.0 : (double)n * (double)(n - 1) / (2.0 * (double)m);
}

int kb_enough_keys(uint64_t n, uint64_t m)
{
	/* n(n-1) >= 2 KB_MIN_PAIRS m, both sides exact in 128 bits */
	return n >= 2 && !u128_less(mul64(n, n - 1), mul64(2 * KB_MIN_PAIRS, m));
}

uint64_t kb_keys_needed(uint64_t m)
{
	/* about sqrt(2 KB_MIN_PAIRS m) + 1/2; the exact test settles it */
	uint64_t n = (uint64_t)(sqrt(2.0 * KB_MIN_PAIRS * (double)m) + 0.5);

	while (n > 2 && kb_enough_keys(n - 1, m))
		n--;
	while (!kb_enough_keys(n, m))
		n++;
	return n;
}

/*
 * ln P(a random function makes the most even table there is): n = qm + r
 * keys give r buckets q + 1 and the rest q, the one table (up to the order
 * of its buckets) with the least X^2, so P(X^2 <= observed) is never less.
 * The continuous tail knows nothing of that: it gives 2 keys that land
 * apart in 2 buckets, X^2 = 0, p_lower = 0, where the truth is 1/2.
 */
static double log_most_even(uint64_t n, uint64_t m)
{
	double q = (double)(n / m), r = (double)(n % m), md = (double)m;

	return lgamma((double)n + 1) - (md - r) * lgamma(q + 1) - r * lgamma(q + 2) +
	       lgamma(md + 1) - lgamma(r + 1) - lgamma(md - r + 1) -
	       (double)n * log(md);
}

void kb_skew_from_counts(const uint64_t *counts, uint64_t m,
			 struct kb_skew *s)
{
	kb_skew_from_loads(counts, m, m, s);
}

uint64_t kb_skew_max_keys(unsigned bits)
{
	unsigned half = (bits + 1) / 2; /* rounded up: m n^2 < 2^128 */

	return half == 0 ? UINT64_MAX : half >= 64 ? 0 : (UINT64_C(1) << (64 - half)) - 1;
}

void kb_skew_from_loads(const uint64_t *loads, uint64_t nloads, uint64_t m,
			struct kb_skew *s)
{
	struct u128 sumsq = { 0, 0 }, n2, num, even;
	uint64_t i, n = 0, used = 0, max = 0;
	unsigned shift = 0;

	/* empty buckets add nothing to n, used, max or the sum of squares;
	 * a load below 2^32 squares in 64 bits (the 128-bit product is most
	 * of the time of a sweep over many buckets) */
	for (i = 0; i < nloads; i++) {
		uint64_t c = loads[i];

		n += c;
		used += c != 0;
		if (c > max)
			max = c;
		if (c <= UINT32_MAX) {
			uint64_t sq = c * c;

			sumsq.lo += sq;
			sumsq.hi += sumsq.lo < sq;
		} else {
			add128(&sumsq, mul64(c, c));
		}
	}
	/*
	 * X^2 = sum (c - n/m)^2 / (n/m) = (m * sum c^2 - n^2) / n.  The
	 * numerator is formed exactly in 128 bits (m is a power of two),
	 * so small X^2 over large n keeps all its digits.
	 */
	while ((UINT64_C(1) << shift) < m)
		shift++;
	num.hi = shift ? (sumsq.hi << shift) | (sumsq.lo >> (64 - shift))
		       : sumsq.hi;
	num.lo = sumsq.lo << shift;
	n2 = mul64(n, n);
	num.hi -= n2.hi + (num.lo < n2.lo);
	num.lo -= n2.lo;

	s->n = n;
	s->buckets = m;
	s->used = used;
	s->max_load = max;
	s->df = (double)(m - 1);
	s->chi2 = n ? u128_to_double(num) / (double)n : 0.0;
	s->chi2_per_df = m > 1 ? s->chi2 / s->df : 0.0;
	if (m > 1 && n > 0) {
		double atom = log_most_even(n, m) / LN10;

		s->log10_p_upper = kb_chi2_log_sf(s->df, s->chi2) / LN10;
		s->log10_p_lower = kb_chi2_log_cdf(s->df, s->chi2) / LN10;
		/* sum of squares of the most even table: q(n - r) + r(2q + 1) */
		even = mul64(n / m, n - n % m);
		add128(&even, mul64(n % m, 2 * (n / m) + 1));
		if (even.hi == sumsq.hi && even.lo == sumsq.lo)
			s->log10_p_lower = atom; /* exactly that table's chance */
		else if (atom > s->log10_p_lower)
			s->log10_p_lower = atom;
	} else {
		s->log10_p_upper = 0.0;
		s->log10_p_lower = 0.0;
	}
	s->expected_max = kb_expected_max_load((double)n, (double)m);
	s->sum_sq = u128_to_double(sumsq);
}

static const char *const kind_names[KB_KIND_COUNT_] = {
	[KB_KIND_CHAINED] = "chained",
	[KB_KIND_TREE] = "tree",
	[KB_KIND_LOCKS] = "locks",
};

const char *kb_table_kind_name(enum kb_table_kind kind)
{
	return (unsigned)kind < KB_KIND_COUNT_ ? kind_names[kind] : "?";
}

static double ratio_of(double cost, double random)
{
	return random > 0 ? cost / random : 1.0;
}

void kb_cost_of(const struct kb_skew *s, struct kb_cost *c)
{
	double n = (double)s->n, m = (double)s->buckets;
	double per = s->n ? s->sum_sq / n : 0.0; /* a key's bucket, itself included */
	double others = s->n && m > 0 ? (n - 1) / m : 0.0;

	memset(c, 0, sizeof(*c));
	if (s->n) {
		c->hit = (per + 1) / 2;
		c->hit_random = 1 + others / 2;
		c->miss = per;
		c->miss_random = 1 + others;
		c->met = per - 1;
		c->met_random = others;
	}
	c->hit_ratio = ratio_of(c->hit, c->hit_random);
	c->miss_ratio = ratio_of(c->miss, c->miss_random);
	c->met_ratio = ratio_of(c->met, c->met_random);
}

void kb_cost_for(const struct kb_cost *c, enum kb_table_kind kind,
		 double *cost, double *random, double *ratio)
{
	if (kind == KB_KIND_LOCKS) {
		*cost = c->met, *random = c->met_random, *ratio = c->met_ratio;
	} else if (kind == KB_KIND_TREE) {
		*cost = c->miss, *random = c->miss_random, *ratio = c->miss_ratio;
	} else {
		*cost = c->hit, *random = c->hit_random, *ratio = c->hit_ratio;
	}
}

double kb_shared_pairs_sd(uint64_t n, uint64_t m)
{
	double nn = (double)n, mm = (double)m;

	return n < 2 || m < 1 ? 0 : sqrt(nn * (nn - 1) / 2 / mm * (1 - 1 / mm));
}

double kb_cost_ratio_sd(uint64_t n, uint64_t m, enum kb_table_kind kind)
{
	double nn = (double)n, mm = (double)m, others;
	double sd_s; /* of the sum of squared loads */

	if (n < 2 || m < 1)
		return 0;
	others = (nn - 1) / mm;
	sd_s = 2 * kb_shared_pairs_sd(n, m);
	if (kind == KB_KIND_LOCKS)
		return sd_s / nn / others;
	if (kind == KB_KIND_TREE)
		return sd_s / nn / (1 + others);
	return sd_s / (2 * nn) / (1 + others / 2);
}

static int double_order(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

void kb_rounds_of(double *t, unsigned n, struct kb_rounds *r)
{
	double sum = 0;
	unsigned i;

	qsort(t, n, sizeof(*t), double_order);
	for (i = 0; i < n; i++)
		sum += t[i];
	r->n = n;
	r->best = t[0];
	r->worst = t[n - 1];
	r->median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	r->mean = sum / n;
	r->spread = r->median > 0 ? (r->worst - r->best) / r->median : 0;
}

double kb_pow10_or_zero(double log10p)
{
	return log10p < DBL_MIN_10_EXP - 16 ? 0.0 : pow(10.0, log10p);
}

int kb_chi2_broken(double chi2_per_df)
{
	return chi2_per_df >= KB_BROKEN;
}

static int no_table(const struct kb_skew *s)
{
	return s->buckets < 2 || s->n == 0;
}

static int too_few_keys(const struct kb_skew *s)
{
	return !kb_enough_keys(s->n, s->buckets);
}

static int broken(const struct kb_skew *s)
{
	return kb_chi2_broken(s->chi2_per_df);
}

static int upper_tail(const struct kb_skew *s)
{
	return s->log10_p_upper < log10(KB_ALPHA);
}

static int lower_tail(const struct kb_skew *s)
{
	return s->log10_p_lower < log10(KB_ALPHA);
}

static int always(const struct kb_skew *s)
{
	(void)s;
	return 1;
}

/* Every verdict, in the order the rules are tried: the first that holds
 * is the cell's (a broken table's tails say nothing more, and a table
 * with too few keys has no tails worth reading). */
static const struct kb_verdict_rule {
	enum kb_verdict_kind kind;
	const char *word;
	char mark;
	const char *heat;
	int (*holds)(const struct kb_skew *s);
} verdict_rules[KB_VERDICT_KINDS] = {
	{ KB_VERDICT_NA, "n/a", ' ', "n/a", no_table },
	{ KB_VERDICT_TOO_FEW, KB_TOO_FEW, '?', "n/a", too_few_keys },
	{ KB_VERDICT_BROKEN, "broken", '#', "B", broken },
	{ KB_VERDICT_SKEWED, "skewed", '!', "S", upper_tail },
	{ KB_VERDICT_EVEN, "even", '~', "-", lower_tail },
	{ KB_VERDICT_OK, "ok", ' ', "-", always },
};

static const struct kb_verdict_rule *rule_of(enum kb_verdict_kind v)
{
	size_t i;

	for (i = 0; i + 1 < KB_VERDICT_KINDS; i++)
		if (verdict_rules[i].kind == v)
			break;
	return &verdict_rules[i]; /* else the last, "ok" */
}

enum kb_verdict_kind kb_verdict_of(const struct kb_skew *s)
{
	const struct kb_verdict_rule *r = verdict_rules;

	while (!r->holds(s))
		r++; /* the last, "ok", always holds */
	return r->kind;
}

const char *kb_verdict_word(enum kb_verdict_kind v)
{
	return rule_of(v)->word;
}

char kb_verdict_mark(enum kb_verdict_kind v)
{
	return rule_of(v)->mark;
}

const char *kb_verdict_heat_mark(enum kb_verdict_kind v)
{
	return rule_of(v)->heat;
}

const char *kb_verdict(const struct kb_skew *s)
{
	return kb_verdict_word(kb_verdict_of(s));
}
