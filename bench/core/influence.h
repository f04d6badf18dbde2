/* SPDX-License-Identifier: MIT */
/*
 * Bit influence: for every input bit j and output bit k, the probability
 * that flipping j flips k.  An ideal hash gives 1/2 everywhere; 0 means
 * input bit j cannot reach output bit k at all.
 */
#ifndef KB_INFLUENCE_H
#define KB_INFLUENCE_H

#include <stdint.h>

#include "engine.h"

struct kb_influence {
	unsigned in_bits, out_bits;
	uint64_t samples;
	double p[64][64];      /* p[j][k] */
	double mean_bias;      /* mean |p - 1/2| */
	double worst_bias;     /* max |p - 1/2| */
	unsigned worst_in, worst_out;
	int exhaustive;        /* every input was tried */
};

/*
 * Measure over `samples` seeded random inputs, or over every input of a
 * 32-bit argument when samples >= 2^32.  0, or -1 on bad bits or samples.
 */
int kb_influence_measure(const struct kb_hashspec *s, unsigned bits,
			 uint64_t samples, uint64_t seed,
			 struct kb_influence *r);

/* Mean |bias| over input bits [lo, hi] and every output bit. */
double kb_influence_band(const struct kb_influence *r, unsigned lo,
			 unsigned hi);

#endif
