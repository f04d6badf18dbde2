/* SPDX-License-Identifier: MIT */
#include "skew_by_bits.h"

#include <string.h>

/* Bits per radix pass: its 2^11 counters stay in L1. */
#define DIGIT 11

/*
 * Least-significant-digit radix sort of w by bits [64 - bits, 64) only
 * (the lower bits never choose a bucket): returns whichever of w and tmp
 * holds the result.
 */
static uint64_t *sort_top_bits(uint64_t *w, uint64_t *tmp, size_t n,
			       unsigned bits)
{
	size_t count[1u << DIGIT];
	unsigned lo = 64 - bits;

	while (lo < 64) {
		unsigned width = 64 - lo < DIGIT ? 64 - lo : DIGIT;
		uint64_t mask = (UINT64_C(1) << width) - 1, *t;
		size_t i, sum = 0;

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(w[i] >> lo) & mask]++;
		for (i = 0; i <= mask; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[(w[i] >> lo) & mask]++] = w[i];
		t = w;
		w = tmp;
		tmp = t;
		lo += width;
	}
	return w;
}

void kb_skew_by_bits(uint64_t *words, uint64_t *scratch, size_t n,
		     unsigned bits_min, unsigned bits_max, struct kb_skew *out)
{
	uint64_t *ids = sort_top_bits(words, scratch, n, bits_max);
	uint64_t *loads = ids == words ? scratch : words;
	size_t i, k = 0;
	unsigned b;

	/* the occupied buckets of the largest table, in order: ids[k] is a
	 * bucket, loads[k] its keys (written behind the reading, in place) */
	for (i = 0; i < n; i++) {
		uint64_t id = ids[i] >> (64 - bits_max);

		if (k && ids[k - 1] == id) {
			loads[k - 1]++;
		} else {
			ids[k] = id;
			loads[k++] = 1;
		}
	}
	for (b = bits_max;; b--) {
		size_t j, m = 0;

		kb_skew_from_loads(loads, k, UINT64_C(1) << b, &out[b - bits_min]);
		if (b == bits_min)
			break;
		/* half the buckets: bucket id of 2^(b-1) holds 2id and 2id+1 */
		for (j = 0; j < k; j++) {
			uint64_t id = ids[j] >> 1;

			if (m && ids[m - 1] == id) {
				loads[m - 1] += loads[j];
			} else {
				ids[m] = id;
				loads[m++] = loads[j];
			}
		}
		k = m;
	}
}
