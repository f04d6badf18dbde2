/* SPDX-License-Identifier: MIT */
/*
 * kb_skew_by_bits (core/skew_by_bits.c) against two other ways, at every
 * table size: up to 2^16 buckets, a table of 2^b counters filled key by
 * key with the top b bits of each word and judged by kb_skew_from_counts
 * (itself checked against mpmath in test_stats); above, each size's
 * bucket numbers sorted with qsort and their runs judged by
 * kb_skew_from_loads.  Every field must be equal, not close: all are the
 * same integers summed in another order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "skew_by_bits.h"
#include "test_rng.h"

static void assert_same_skew(const struct kb_skew *a, const struct kb_skew *b)
{
	assert_true(a->n == b->n);
	assert_true(a->buckets == b->buckets);
	assert_true(a->used == b->used);
	assert_true(a->max_load == b->max_load);
	assert_true(a->chi2 == b->chi2);
	assert_true(a->df == b->df);
	assert_true(a->chi2_per_df == b->chi2_per_df);
	assert_true(a->log10_p_upper == b->log10_p_upper);
	assert_true(a->log10_p_lower == b->log10_p_lower);
	assert_true(a->expected_max == b->expected_max);
}

static int u64_order(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* The skew of 2^b buckets without a table: sorted bucket numbers, runs. */
static void skew_by_sorting(const uint64_t *words, size_t n, unsigned b,
			    struct kb_skew *s)
{
	uint64_t *ids = malloc((n + 1) * sizeof(*ids)), *loads = malloc((n + 1) * sizeof(*ids));
	size_t i, k = 0;

	assert_non_null(ids);
	assert_non_null(loads);
	for (i = 0; i < n; i++)
		ids[i] = words[i] >> (64 - b);
	qsort(ids, n, sizeof(*ids), u64_order);
	for (i = 0; i < n; i++) {
		if (i == 0 || ids[i] != ids[i - 1])
			loads[k++] = 0;
		loads[k - 1]++;
	}
	kb_skew_from_loads(loads, k, UINT64_C(1) << b, s);
	free(ids);
	free(loads);
}

/* words[n] through kb_skew_by_bits, and each size on its own. */
static void check_words(const uint64_t *words, size_t n, unsigned bmin,
			unsigned bmax)
{
	uint64_t *w = malloc((n + 1) * sizeof(*w)), *scratch = malloc((n + 1) * sizeof(*w));
	struct kb_skew got[64];
	unsigned b;

	assert_non_null(w);
	assert_non_null(scratch);
	if (n)
		memcpy(w, words, n * sizeof(*w));
	kb_skew_by_bits(w, scratch, n, bmin, bmax, got);
	for (b = bmin; b <= bmax; b++) {
		struct kb_skew want;

		if (b <= 16) {
			uint64_t counts[1u << 16] = { 0 };
			size_t i;

			for (i = 0; i < n; i++)
				counts[words[i] >> (64 - b)]++;
			kb_skew_from_counts(counts, UINT64_C(1) << b, &want);
		} else {
			skew_by_sorting(words, n, b, &want);
		}
		assert_same_skew(&got[b - bmin], &want);
	}
	free(w);
	free(scratch);
}

/* Random words, fewer and more than the buckets, several ranges of sizes
 * (one radix pass and up to three). */
static void random_words_at_every_size(void **state)
{
	static const unsigned range[][2] = { { 1, 1 }, { 1, 10 }, { 6, 20 }, { 11, 11 },
					     { 12, 22 }, { 3, 32 } };
	static const size_t counts[] = { 1, 2, 100, 5000, 70000 };
	uint64_t rng = 7, *words = malloc(70000 * sizeof(*words));
	size_t r, c, i;

	(void)state;
	assert_non_null(words);
	for (r = 0; r < sizeof(range) / sizeof(range[0]); r++)
		for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			for (i = 0; i < counts[c]; i++)
				words[i] = test_next_random(&rng);
			check_words(words, counts[c], range[r][0], range[r][1]);
		}
	free(words);
}

/* The structure a bad hash gives: many equal words, words that differ
 * only below the top bits (the same bucket at every size), an arithmetic
 * progression, and the extremes of the word. */
static void structured_words_skew_as_each_size_alone(void **state)
{
	uint64_t words[4096], rng = 3;
	size_t i;

	(void)state;
	for (i = 0; i < 4096; i++)
		words[i] = UINT64_C(0x9e37000000000000) + (i % 3);
	check_words(words, 4096, 1, 20);
	for (i = 0; i < 4096; i++)
		words[i] = (uint64_t)(i % 5) << 60 | (test_next_random(&rng) >> 40);
	check_words(words, 4096, 2, 32);
	for (i = 0; i < 4096; i++)
		words[i] = (uint64_t)i * UINT64_C(0x61C8864680B583EB);
	check_words(words, 4096, 4, 24);
	for (i = 0; i < 4096; i++)
		words[i] = i & 1 ? UINT64_MAX - (uint64_t)(i / 2) : (uint64_t)(i / 2);
	check_words(words, 4096, 1, 32);
}

/* No keys: every size empty, as a table of zeros says. */
static void no_words_leave_every_size_empty(void **state)
{
	(void)state;
	check_words(NULL, 0, 1, 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_words_at_every_size),
		cmocka_unit_test(structured_words_skew_as_each_size_alone),
		cmocka_unit_test(no_words_leave_every_size_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
