/* SPDX-License-Identifier: MIT */
/*
 * The reference words and counts (every engine path counts what
 * kb_count_block does), and the key array helpers around them.
 */
#include "hashspec.h"

#include <stdlib.h>

#include "engine_products.h"

#define BLOCK 1024

size_t kb_first_misfit(const uint64_t *keys, size_t n, unsigned input_bits)
{
	size_t i;

	if (input_bits >= 64)
		return n;
	for (i = 0; i < n; i++)
		if (keys[i] > UINT32_MAX)
			return i;
	return n;
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;

	return p < q ? -1 : p > q;
}

void kb_sort_u64(uint64_t *v, size_t n)
{
	if (n > 1) /* and v may be NULL when there is nothing to sort */
		qsort(v, n, sizeof(*v), u64_cmp);
}

size_t kb_distinct_keys(uint64_t *keys, size_t n)
{
	size_t i, out = 0;

	kb_sort_u64(keys, n);
	for (i = 0; i < n; i++)
		if (out == 0 || keys[out - 1] != keys[i])
			keys[out++] = keys[i];
	return out;
}

#define ARRAY_LOOP(expr)                                 \
	do {                                             \
		for (i = 0; i < n; i++) {                \
			uint64_t k = keys[i];            \
			out[i] = (expr);                 \
		}                                        \
	} while (0)

#define PROGRESSION_LOOP(expr)                                   \
	do {                                                     \
		uint64_t k = first;                              \
		for (i = 0; i < n; i++, k += stride)             \
			out[i] = (expr);                         \
	} while (0)

void kb_full_words(const struct kb_hashspec *s, const uint64_t *keys,
		   size_t n, uint64_t *out)
{
	size_t i;

#define LOOP ARRAY_LOOP
	EACH_PRODUCT(s)
#undef LOOP
}

void kb_full_words_progression(const struct kb_hashspec *s, uint64_t first,
			       uint64_t stride, size_t n, uint64_t *out)
{
	size_t i;

#define LOOP PROGRESSION_LOOP
	EACH_PRODUCT(s)
#undef LOOP
}

void kb_count_block(const struct kb_hashspec *s, unsigned bits,
		    const uint64_t *keys, size_t n, uint64_t *counts)
{
	uint64_t words[BLOCK];
	unsigned shift = 64 - bits;

	while (n > 0) {
		size_t m = n < BLOCK ? n : BLOCK, i;

		kb_full_words(s, keys, m, words);
		for (i = 0; i < m; i++)
			counts[words[i] >> shift]++;
		keys += m;
		n -= m;
	}
}

void kb_fold(uint64_t *counts, unsigned bits)
{
	uint64_t i, half = UINT64_C(1) << (bits - 1);

	for (i = 0; i < half; i++)
		counts[i] = counts[2 * i] + counts[2 * i + 1];
}
