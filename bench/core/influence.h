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
	char why[256];         /* when generation U's function failed: why, in
				* one line naming the key and bits */
};

struct kb_progress;

struct kb_influence_opts {
	unsigned threads;   /* 0: one per online CPU */
	int enumerate;      /* 1: try every input even where the exhaustive
			     * answer has a closed form (to check it, time it) */
	struct kb_progress *progress; /* inputs done and expected, or NULL */
};

/* How kb_influence_measure will go about it, and what that costs. */
enum kb_influence_method {
	KB_INFLUENCE_SAMPLED,  /* seeded random inputs */
	KB_INFLUENCE_TRIED,    /* every input of a 32-bit argument, hashed */
	KB_INFLUENCE_CLOSED    /* every input, by floor sums: nothing hashed */
};

struct kb_influence_plan {
	enum kb_influence_method method;
	unsigned in_bits;
	uint64_t inputs;     /* inputs measured (2^32 when exhaustive) */
	uint64_t hashes;     /* hashes computed: inputs x (in_bits + 1) */
	int closed_form;     /* the cell has one: --count 2^32 would use it */
};

/* The plan for these arguments (enumerate: o->enumerate), by the rule
 * kb_influence_measure follows. */
void kb_influence_plan(const struct kb_hashspec *s, uint64_t samples,
		       int enumerate, struct kb_influence_plan *p);

/*
 * Measure over `samples` seeded random inputs, or over every input of a
 * 32-bit argument when samples >= 2^32: in closed form for a single
 * multiply (kb_mul_flips), else by trying them all on o->threads threads
 * (o NULL: every CPU); generation U's in child processes, from this
 * thread alone.  Reentrant.  0, or -1 on bad bits or samples, when a
 * thread's memory cannot be had, or when U's function fails (r->why).
 */
int kb_influence_measure(const struct kb_hashspec *s, unsigned bits,
			 uint64_t samples, uint64_t seed,
			 const struct kb_influence_opts *o,
			 struct kb_influence *r);

/*
 * For h(x) = x * mult mod 2^w (mult odd, 1 <= w <= 32): over all 2^w
 * inputs x, how many flip bit k of h when bit j of x flips.  Flipping
 * bit j adds or subtracts D = mult << j, and bit k of the sum differs
 * from bit k of h by D's bit k and the carry into k, which depends only
 * on h mod 2^k; counting the x whose product's low bits reach the carry
 * threshold is a floor sum, O(w) steps instead of 2^w products.
 */
uint64_t kb_mul_flips(unsigned w, uint32_t mult, unsigned j, unsigned k);

/* Mean |bias| over input bits [lo, hi] and every output bit. */
double kb_influence_band(const struct kb_influence *r, unsigned lo,
			 unsigned hi);

#endif
