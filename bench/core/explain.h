/* SPDX-License-Identifier: MIT */
/*
 * Why a table's keys collide: for one cell and one set of distinct keys,
 * the key differences d behind the colliding pairs, each with how many
 * pairs differ by d, how many of them share a bucket, and where d*K mod
 * 2^w falls against a bucket's width; the colliding pairs that model
 * predicts from the differences alone beside those observed; and the
 * structure of the keys (alignment, gcd, strides, pages, slab objects).
 *
 * The model: a multiplicative hash keeps the top bits of x*K mod 2^w, so
 * keys x and x + d land delta = d*K mod 2^w apart (on the circle); over
 * positions of x*K spread evenly within a bucket of width W = 2^(w-bits)
 * they share one with probability max(0, 1 - |delta|/W).  Cells that are
 * not one multiply (the 32-bit kernels' two-multiply hash_64) get the
 * observed groups and no prediction.
 */
#ifndef KB_EXPLAIN_H
#define KB_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define KB_EXPLAIN_TOP 12
#define KB_EXPLAIN_STRIDES 6
/* n(n-1)/2 pairs are visited: 2^15 keys is half a billion */
#define KB_EXPLAIN_MAX_KEYS 32768

struct kb_explain_diff {
	uint64_t d;       /* the difference, mod 2^w */
	uint64_t pairs;   /* key pairs that differ by d */
	uint64_t shared;  /* of them, pairs in one bucket */
	double offset;    /* d*K mod 2^w as a signed fraction of a bucket's
			   * width (linear cells) */
	double p;         /* the model's chance that such a pair shares */
	double excess;    /* shared - pairs/m: over a random function's */
};

struct kb_explain_stride {
	uint64_t d, count; /* a gap between consecutive keys, how often */
};

struct kb_explain {
	uint64_t n, m;           /* distinct keys, buckets */
	unsigned width;          /* w: the product's word */
	uint64_t k;              /* its multiplier (linear cells) */
	int linear;              /* one multiply: the model applies */
	uint64_t pairs;          /* n(n-1)/2 */
	uint64_t shared;         /* observed pairs in one bucket */
	double shared_random;    /* a random function's: pairs / m */
	double shared_predicted; /* the model's, from every pair's d */
	double shared_sd;        /* a random function's strays by (stats.h) */
	int nothing;             /* no excess beyond KB_NOISE_SDS of that:
				  * nothing to explain (the outputs list no
				  * row) */
	size_t ndiffs;           /* distinct differences among shared pairs */
	struct kb_explain_diff top[KB_EXPLAIN_TOP]; /* most excess first */
	size_t ntop;
	double top_excess;       /* the top rows' shared pairs over random */
	double top_share;        /* of the whole excess, that part (0 when
				  * there is none) */
	/* the keys */
	unsigned align;          /* every key a multiple of 2^align */
	uint64_t gcd;            /* of the differences */
	struct kb_explain_stride strides[KB_EXPLAIN_STRIDES];
	size_t nstrides;         /* most common gaps, commonest first */
	uint64_t pages, max_per_page; /* distinct 4 KiB pages, fullest */
	uint64_t in_page_gcd;    /* gcd of differences within one page: the
				  * object size of a slab (0: none) */
	/* the multiplier: its longest run of equal bits */
	unsigned run_lo, run_len, run_bit;
};

/* The model: where keys d apart land, d*K mod 2^w as a signed fraction
 * of a bucket's width, and the chance max(0, 1 - |offset|) they share. */
double kb_explain_offset(const struct kb_explain *e, uint64_t d, unsigned bits);
double kb_explain_chance(double offset);

/*
 * A difference in the keys' page layout: 1 with d = pages * 4096 +
 * objects * in_page_gcd (1 <= pages <= 64, |objects| under a page's
 * worth), e.g. the next page nine 168-byte objects back, 4096 - 9 * 168.
 */
int kb_explain_layout(const struct kb_explain *e, uint64_t d, unsigned *pages,
		      long *objects);

/*
 * Explain spec's table of 2^bits buckets over keys[0..n) (sorted and
 * distinct, each fitting the function's argument); at most
 * KB_EXPLAIN_MAX_KEYS keys.  0, or -1 and a reason.
 */
int kb_explain(const struct kb_hashspec *spec, unsigned bits, const uint64_t *keys,
	       size_t n, struct kb_explain *e, char *err, size_t errlen);

#endif
