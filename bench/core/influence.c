/* SPDX-License-Identifier: MIT */
#include "influence.h"

#include <math.h>
#include <string.h>

#include "keysets.h"

#define BATCH 256

int kb_influence_measure(const struct kb_hashspec *s, unsigned bits,
			 uint64_t samples, uint64_t seed,
			 struct kb_influence *r)
{
	static uint64_t flips[64][64];
	uint64_t x[BATCH], y[BATCH], hx[BATCH], hy[BATCH];
	unsigned in_bits = kb_hashspec_input_bits(s), j, k, shift = 64 - bits;
	uint64_t done = 0, rng = seed;
	char err[8];

	if (kb_hashspec_check(s, bits, err, sizeof(err)) < 0 || samples == 0)
		return -1;
	memset(r, 0, sizeof(*r));
	memset(flips, 0, sizeof(flips));
	r->in_bits = in_bits;
	r->out_bits = bits;
	/* a 32-bit argument is small enough to sweep completely */
	r->exhaustive = in_bits == 32 && samples >= (UINT64_C(1) << 32);
	if (r->exhaustive)
		samples = UINT64_C(1) << 32;
	while (done < samples) {
		size_t n = samples - done < BATCH ? (size_t)(samples - done) : BATCH, i;

		for (i = 0; i < n; i++) {
			uint64_t v = r->exhaustive ? done + i : kb_splitmix64(&rng);

			x[i] = in_bits == 32 ? (uint32_t)v : v;
		}
		kb_full_words(s, x, n, hx);
		for (j = 0; j < in_bits; j++) {
			for (i = 0; i < n; i++)
				y[i] = x[i] ^ (UINT64_C(1) << j);
			kb_full_words(s, y, n, hy);
			for (i = 0; i < n; i++) {
				uint64_t d = (hx[i] ^ hy[i]) >> shift;

				/* output bit k is bit k of the bucket index */
				while (d) {
					flips[j][__builtin_ctzll(d)]++;
					d &= d - 1;
				}
			}
		}
		done += n;
	}
	r->samples = samples;
	r->worst_bias = -1;
	for (j = 0; j < in_bits; j++)
		for (k = 0; k < bits; k++) {
			double p = (double)flips[j][k] / (double)samples;
			double b = fabs(p - 0.5);

			r->p[j][k] = p;
			r->mean_bias += b;
			if (b > r->worst_bias) {
				r->worst_bias = b;
				r->worst_in = j;
				r->worst_out = k;
			}
		}
	r->mean_bias /= (double)in_bits * bits;
	return 0;
}

double kb_influence_band(const struct kb_influence *r, unsigned lo,
			 unsigned hi)
{
	double sum = 0;
	unsigned j, k, n = 0;

	for (j = lo; j <= hi && j < r->in_bits; j++)
		for (k = 0; k < r->out_bits; k++, n++)
			sum += fabs(r->p[j][k] - 0.5);
	return n ? sum / n : 0;
}
