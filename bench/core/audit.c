/* SPDX-License-Identifier: MIT */
#include "audit.h"

#include <stdlib.h>
#include <string.h>

#include <khash/lkh.h>

#include "stats.h"

const struct kb_preset kb_presets[] = {
	{ "old32", 0x9e370001, 32, "GOLDEN_RATIO_PRIME_32, v2.6.25..v4.6 (sparse prime)" },
	{ "old64", UINT64_C(0x9e37fffffffc0001), 64, "GOLDEN_RATIO_PRIME_64, until v4.6 (sparse prime)" },
	{ "new32", 0x61C88647, 32, "GOLDEN_RATIO_32, v4.7 on: 2^32 (1 - 1/phi)" },
	{ "new64", UINT64_C(0x61C8864680B583EB), 64, "GOLDEN_RATIO_64, v4.7 on" },
	{ "phi32", 0x9E3779B9, 32, "2^32 / phi (TEA, Fibonacci hashing)" },
	{ "phi64", UINT64_C(0x9E3779B97F4A7C15), 64, "2^64 / phi" },
	{ "knuth32", 2654435761u, 32, "Knuth's prime near 2^32 / phi" },
	{ "fxhash64", UINT64_C(0x517cc1b727220a95), 64, "rustc's FxHasher" },
	{ "murmur64", UINT64_C(0xff51afd7ed558ccd), 64, "MurmurHash3 fmix64's first constant" },
	{ "splitmix64", UINT64_C(0xbf58476d1ce4e5b9), 64, "splitmix64's first mixing constant" },
	{ "even32", 0x61C88646, 32, "an even number: never use one (not invertible)" },
};
const unsigned kb_preset_count = sizeof(kb_presets) / sizeof(kb_presets[0]);

unsigned kb_naf_terms(uint64_t k)
{
	/*
	 * Recode lowest digit first: an odd remainder ending in ...11 takes
	 * digit -1 (adding 1 clears the run of ones), one ending in ...01
	 * takes +1.  The remainder can reach 2^64, so it carries a 65th bit,
	 * and it has at most 65 digits: one a step.
	 */
	uint64_t x = k;
	unsigned terms = 0, hi = 0, digit;

	for (digit = 0; digit < 65 && (x || hi); digit++) {
		if (x & 1) {
			terms++;
			if ((x & 3) == 3) {
				x += 1;
				hi |= x == 0;
			} else {
				x -= 1;
			}
		}
		x = (x >> 1) | ((uint64_t)hi << 63);
		hi = 0;
	}
	return terms;
}

unsigned kb_continued_fraction(uint64_t k, unsigned width, uint64_t *q,
			       unsigned max)
{
	uint64_t a, b, t;
	unsigned n = 0;

	if (k == 0 || max == 0)
		return 0;
	if (width == 64) {
		/* 2^64 / k without a 65-bit numerator */
		uint64_t quo = UINT64_MAX / k, rem = UINT64_MAX % k;

		if (rem + 1 == k) {
			quo++;
			rem = 0;
		} else {
			rem++;
		}
		q[n++] = quo;
		a = k;
		b = rem;
	} else {
		a = UINT64_C(1) << width;
		b = k;
	}
	while (b != 0 && n < max) {
		q[n++] = a / b;
		t = a % b;
		a = b;
		b = t;
	}
	return n;
}

static uint64_t mask_of(unsigned width)
{
	return width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

/* X^2/df of n keys start + i*stride into 2^bits buckets by x*k >> (w-b). */
static double progression_skew(uint64_t k, unsigned width, uint64_t start,
			       uint64_t stride, uint64_t n, unsigned bits,
			       uint64_t *counts)
{
	uint64_t m = UINT64_C(1) << bits, i, x = start, mask = mask_of(width);
	unsigned shift = width - bits;
	struct kb_skew s;

	memset(counts, 0, m * sizeof(*counts));
	for (i = 0; i < n; i++, x += stride)
		counts[((x * k) & mask) >> shift]++;
	kb_skew_from_counts(counts, m, &s);
	return s.chi2_per_df;
}

int kb_audit_run(uint64_t k, unsigned width, struct kb_audit *a)
{
	uint64_t *counts, keys[1024], mask = mask_of(width);
	unsigned bits, i, run = 0, set;

	if ((width != 32 && width != 64) || (k & ~mask))
		return -1;
	memset(a, 0, sizeof(*a));
	a->k = k;
	a->width = width;
	a->odd = (int)(k & 1);
	if (a->odd)
		(void)kb_spectral_test(k, width, KB_SPECTRAL_DIM_MAX, &a->spectral);
	for (i = 0; i < width; i++) {
		a->popcount += (unsigned)((k >> i) & 1);
		run = i && ((k >> i) & 1) == ((k >> (i - 1)) & 1) ? run + 1 : 1;
		if (run > a->longest_run)
			a->longest_run = run;
	}
	a->naf_terms = kb_naf_terms(k);
	a->cf_len = kb_continued_fraction(k, width, a->cf, 24);
	for (i = 0; i < a->cf_len; i++)
		if (a->cf[i] > a->cf_max)
			a->cf_max = a->cf[i];

	counts = malloc(sizeof(uint64_t) << KB_AUDIT_BITS_MAX);
	if (!counts)
		return -1;
	/* strides 2^j, 3 * 2^j, 5 * 2^j, 7 * 2^j: pages, stripes, records */
	a->bits_min = 6;
	a->bits_max = KB_AUDIT_BITS_MAX;
	for (bits = a->bits_min; bits <= a->bits_max; bits += 2) {
		unsigned j, odd;

		a->worst[bits].chi2_per_df = -1;
		for (odd = 1; odd <= 7; odd += 2)
			for (j = 0; j < width; j++) {
				uint64_t stride = ((uint64_t)odd << j) & mask;
				double x;

				/* distinct keys only: n * stride below 2^w */
				if (stride == 0 || j + 3 + bits + 1 > width)
					continue;
				x = progression_skew(k, width, 0, stride,
						     UINT64_C(2) << bits, bits,
						     counts);
				if (x > a->worst[bits].chi2_per_df) {
					a->worst[bits].chi2_per_df = x;
					a->worst[bits].stride = stride;
				}
			}
		a->strides_broken += kb_chi2_broken(a->worst[bits].chi2_per_df);
		if (a->worst[bits].chi2_per_df > a->worst_overall)
			a->worst_overall = a->worst[bits].chi2_per_df;
	}

	/* the built-in key sets, 4096 keys into 2^11 buckets (the story) */
	a->sets_bits = 11;
	a->sets_keys = 4096;
	for (set = 0; set < KB_KS_COUNT; set++) {
		struct kb_keyset_params p;
		struct kb_keystream ks;
		char err[128];
		size_t n;
		struct kb_skew s;

		if (kb_keysets[set].flags & KB_KS_PER_CELL || KB_KS_FUTEX_SETS & 1u << set)
			continue;
		memset(&p, 0, sizeof(p));
		p.count = a->sets_keys;
		p.seed = 1;
		p.word = width;
		p.input_bits = width;
		if (kb_keystream_open(&ks, (int)set, &p, err, sizeof(err)) < 0)
			continue;
		memset(counts, 0, sizeof(uint64_t) << a->sets_bits);
		while ((n = kb_keystream_next(&ks, keys, 1024)) > 0)
			for (i = 0; i < n; i++)
				counts[((keys[i] * k) & mask) >> (width - a->sets_bits)]++;
		kb_keystream_close(&ks);
		kb_skew_from_counts(counts, UINT64_C(1) << a->sets_bits, &s);
		a->sets[set].ok = 1;
		a->sets[set].chi2_per_df = s.chi2_per_df;
		a->sets[set].used = s.used;
		a->sets_broken += kb_chi2_broken(s.chi2_per_df);
	}
	free(counts);
	return 0;
}
