/* SPDX-License-Identifier: MIT */
#include "explain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh_table.h>

#include "keysets.h"
#include "stats.h"

static uint64_t mask_of(unsigned width)
{
	return width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;
}

/* d*K mod 2^w as a signed fraction of a bucket's width W = 2^(w-bits). */
static double offset_of(uint64_t d, uint64_t k, unsigned width, unsigned bits)
{
	uint64_t delta = d * k & mask_of(width), half = UINT64_C(1) << (width - 1);
	double w = ldexp(1, (int)(width - bits));

	return delta >= half ? -(double)((mask_of(width) - delta) + 1) / w : (double)delta / w;
}

double kb_explain_offset(const struct kb_explain *e, uint64_t d, unsigned bits)
{
	return offset_of(d, e->k, e->width, bits);
}

double kb_explain_chance(double offset)
{
	double a = fabs(offset);

	return a < 1 ? 1 - a : 0;
}

/* The longest run of equal bits of k's low width bits. */
static void longest_run(uint64_t k, unsigned width, struct kb_explain *e)
{
	unsigned i, len = 0;

	e->run_len = 0;
	for (i = 0; i < width; i++) {
		unsigned bit = (unsigned)(k >> i & 1);

		len = i && bit == (unsigned)(k >> (i - 1) & 1) ? len + 1 : 1;
		if (len > e->run_len) {
			e->run_len = len;
			e->run_lo = i + 1 - len;
			e->run_bit = bit;
		}
	}
}

/* Gaps between consecutive keys, commonest first (ties: smaller first). */
static void strides(const uint64_t *keys, size_t n, struct kb_explain *e, uint64_t *scratch)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		scratch[i - 1] = keys[i] - keys[i - 1];
	kb_sort_u64(scratch, n - 1);
	e->nstrides = 0;
	for (i = 0; i < n - 1; i = j) {
		struct kb_explain_stride s;
		size_t at;

		for (j = i; j < n - 1 && scratch[j] == scratch[i]; j++)
			;
		s.d = scratch[i];
		s.count = j - i;
		for (at = e->nstrides; at > 0 && e->strides[at - 1].count < s.count; at--)
			if (at < KB_EXPLAIN_STRIDES)
				e->strides[at] = e->strides[at - 1];
		if (at < KB_EXPLAIN_STRIDES) {
			e->strides[at] = s;
			if (e->nstrides < KB_EXPLAIN_STRIDES)
				e->nstrides++;
		}
	}
}

/* Distinct pages, the fullest, and the gcd of differences within a page. */
static void pages(const uint64_t *keys, size_t n, struct kb_explain *e)
{
	size_t i, run = 1;

	e->pages = 1;
	e->max_per_page = 1;
	e->in_page_gcd = 0;
	for (i = 1; i < n; i++) {
		if (keys[i] >> 12 == keys[i - 1] >> 12) {
			e->in_page_gcd = kb_gcd64(e->in_page_gcd, keys[i] - keys[i - 1]);
			run++;
		} else {
			e->pages++;
			run = 1;
		}
		if (run > e->max_per_page)
			e->max_per_page = run;
	}
}

static int by_excess(const void *x, const void *y)
{
	const struct kb_explain_diff *a = x, *b = y;

	if (a->excess != b->excess)
		return a->excess < b->excess ? 1 : -1;
	return a->d < b->d ? -1 : a->d > b->d;
}

/* Index of d in the sorted ds[0..n), or -1. */
static long find(const uint64_t *ds, size_t n, uint64_t d)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ds[mid] < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ds[lo] == d ? (long)lo : -1;
}

/* The keys explain can take for spec: 0, or -1 with the reason in err. */
static int check_keys(const struct kb_hashspec *spec, unsigned bits, const uint64_t *keys,
		      size_t n, char *err, size_t errlen)
{
	size_t misfit;

	if (kb_hashspec_check(spec, bits, err, errlen) < 0)
		return -1;
	if (n < 2 || n > KB_EXPLAIN_MAX_KEYS) {
		snprintf(err, errlen, "%zu distinct keys: explain takes 2..%d", n, KB_EXPLAIN_MAX_KEYS);
		return -1;
	}
	misfit = kb_first_misfit(keys, n, kb_hashspec_input_bits(spec));
	if (misfit < n) {
		snprintf(err, errlen, "key 0x%llx does not fit %s's %u-bit argument",
			 (unsigned long long)keys[misfit], lkh_func_name(spec->func),
			 kb_hashspec_input_bits(spec));
		return -1;
	}
	return 0;
}

/* The multiplier and its width (one multiply, the old chain's too, else
 * the word's product), and what random buckets would share. */
static void model(const struct kb_hashspec *spec, unsigned bits, size_t n, struct kb_explain *e)
{
	e->width = kb_hashspec_single_multiply(spec, &e->k);
	e->linear = e->width != 0;
	if (spec->user) {
		e->width = 64; /* its values, uint64_t; no multiplier known */
		e->k = 0;
	} else if (!e->linear) {
		int product = lkh_cell_product(spec->func, spec->gen, spec->word);

		e->width = lkh_product_width(product);
		(void)lkh_product_arith(product, &e->k);
	}
	e->n = n;
	e->m = UINT64_C(1) << bits;
	e->pairs = (uint64_t)n * (n - 1) / 2;
	e->shared_random = (double)e->pairs / (double)e->m;
	if (e->linear)
		longest_run(e->k, e->width, e);
}

/* The keys' alignment, gcd, strides and pages. */
static void layout(const uint64_t *keys, size_t n, struct kb_explain *e, uint64_t *scratch)
{
	uint64_t or_all = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		or_all |= keys[i];
		e->gcd = kb_gcd64(e->gcd, keys[i] - keys[0]);
	}
	e->align = or_all ? (unsigned)__builtin_ctzll(or_all) : 64;
	strides(keys, n, e, scratch);
	pages(keys, n, e);
}

/*
 * Pass 1: the distinct differences (mod 2^width) of the pairs that share
 * a bucket, sorted, into *ds (*nds of them), and every pair's chance
 * under the model.  0, or -1 out of memory.
 */
static int shared_differences(const uint64_t *keys, const uint64_t *bucket, size_t n,
			      unsigned bits, struct kb_explain *e, uint64_t **ds, size_t *nds)
{
	uint64_t wmask = mask_of(e->width);
	size_t i, j, cap = 0;

	*ds = NULL;
	*nds = 0;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			uint64_t d = (keys[j] - keys[i]) & wmask;

			if (e->linear)
				e->shared_predicted +=
					kb_explain_chance(offset_of(d, e->k, e->width, bits));
			if (bucket[i] != bucket[j])
				continue;
			e->shared++;
			if (*nds == cap) {
				size_t want = cap ? 2 * cap : 4096;
				uint64_t *p = realloc(*ds, want * sizeof(**ds));

				if (!p)
					return -1;
				*ds = p;
				cap = want;
			}
			(*ds)[(*nds)++] = d;
		}
	kb_sort_u64(*ds, *nds);
	for (i = j = 0; i < *nds; i++)
		if (!j || (*ds)[j - 1] != (*ds)[i])
			(*ds)[j++] = (*ds)[i];
	*nds = j;
	return 0;
}

/* r into e's top rows, most excess first (a partial insertion sort). */
static void keep_top(struct kb_explain *e, const struct kb_explain_diff *r)
{
	size_t at;

	for (at = e->ntop; at > 0 && by_excess(r, &e->top[at - 1]) < 0; at--)
		if (at < KB_EXPLAIN_TOP)
			e->top[at] = e->top[at - 1];
	if (at < KB_EXPLAIN_TOP) {
		e->top[at] = *r;
		if (e->ntop < KB_EXPLAIN_TOP)
			e->ntop++;
	}
}

/*
 * Pass 2: how many pairs differ by each of ds[0..nds), shared or not; the
 * differences with the most excess over random, and their share of it.
 * 0, or -1 out of memory.
 */
static int rank_differences(const uint64_t *keys, const uint64_t *bucket, size_t n,
			    unsigned bits, const uint64_t *ds, size_t nds, struct kb_explain *e)
{
	uint64_t wmask = mask_of(e->width);
	uint64_t *pairs_of = calloc(nds ? nds : 1, sizeof(*pairs_of));
	uint64_t *shared_of = calloc(nds ? nds : 1, sizeof(*shared_of));
	double excess_total = (double)e->shared - e->shared_random, top = 0;
	size_t i, j;

	if (!pairs_of || !shared_of) {
		free(pairs_of);
		free(shared_of);
		return -1;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			long at = find(ds, nds, (keys[j] - keys[i]) & wmask);

			if (at < 0)
				continue;
			pairs_of[at]++;
			shared_of[at] += bucket[i] == bucket[j];
		}
	for (i = 0; i < nds; i++) {
		struct kb_explain_diff r;

		r.d = ds[i];
		r.pairs = pairs_of[i];
		r.shared = shared_of[i];
		r.excess = (double)r.shared - (double)r.pairs / (double)e->m;
		r.offset = e->linear ? offset_of(r.d, e->k, e->width, bits) : NAN;
		r.p = e->linear ? kb_explain_chance(r.offset) : NAN;
		keep_top(e, &r);
	}
	/* as many pairs as a random function shares, give or take its noise:
	 * no difference stands out, whatever the rows would say */
	e->shared_sd = kb_shared_pairs_sd(e->n, e->m);
	e->nothing = excess_total <= KB_NOISE_SDS * e->shared_sd;
	for (i = 0; i < e->ntop; i++)
		top += e->top[i].excess;
	e->top_excess = top;
	e->top_share = excess_total > 0 ? top / excess_total : 0;
	free(pairs_of);
	free(shared_of);
	return 0;
}

int kb_explain(const struct kb_hashspec *spec, unsigned bits, const uint64_t *keys,
	       size_t n, struct kb_explain *e, char *err, size_t errlen)
{
	uint64_t *bucket = NULL, *scratch = NULL, *ds = NULL;
	size_t i, nds = 0;
	int rc = -1;

	memset(e, 0, sizeof(*e));
	if (check_keys(spec, bits, keys, n, err, errlen) < 0)
		return -1;
	model(spec, bits, n, e);
	bucket = malloc(n * sizeof(*bucket));
	scratch = malloc(n * sizeof(*scratch));
	if (bucket && scratch) {
		if (spec->user) {
			/* its buckets from where it runs, for this bits alone */
			if (kb_user_buckets(bits, keys, n, bucket, err, errlen) < 0) {
				free(bucket);
				free(scratch);
				return -1;
			}
		} else {
			kb_full_words(spec, keys, n, bucket);
			for (i = 0; i < n; i++)
				bucket[i] >>= 64 - bits;
		}
		layout(keys, n, e, scratch);
		if (shared_differences(keys, bucket, n, bits, e, &ds, &nds) == 0) {
			e->ndiffs = nds;
			rc = rank_differences(keys, bucket, n, bits, ds, nds, e);
		}
	}
	if (rc < 0)
		snprintf(err, errlen, "out of memory for %zu keys' pairs", n);
	free(bucket);
	free(scratch);
	free(ds);
	return rc;
}

int kb_explain_layout(const struct kb_explain *e, uint64_t d, unsigned *pages,
		      long *objects)
{
	uint64_t g = e->in_page_gcd, p;
	int found = 0;

	if (!g || g >= 4096)
		return 0;
	/* the page count below and above d: the one with fewer objects */
	for (p = d / 4096; p <= d / 4096 + 1; p++) {
		int64_t r = (int64_t)(d - p * 4096);

		if (p < 1 || p > 64 || r % (int64_t)g)
			continue;
		if (!found || labs((long)(r / (int64_t)g)) < labs(*objects)) {
			*pages = (unsigned)p;
			*objects = (long)(r / (int64_t)g);
			found = 1;
		}
	}
	return found;
}
