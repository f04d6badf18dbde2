/* SPDX-License-Identifier: MIT */
#include "influence.h"

#include <math.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "floorsum.h"
#include "keysets.h"
#include "progress.h"

#define BATCH 256

uint64_t kb_mul_flips(unsigned w, uint32_t mult, unsigned j, unsigned k)
{
	uint64_t M = UINT64_C(1) << w, K = mult % M, D = (K << j) % M;
	uint64_t low = D % (UINT64_C(1) << k), T = (UINT64_C(1) << k) - low;
	uint64_t half = M / 2, carries;

	/* carries: x with bit j clear (the other half mirrors them: from x
	 * with the bit set, the flip subtracts D and lands on such an x)
	 * whose product has (x*K mod 2^k) >= T, so adding D carries into k */
	if (low == 0) {
		carries = 0;
	} else if (j >= k) {
		/* bit j is above the low k bits: x mod 2^k runs over every
		 * residue, and so does x*K mod 2^k (K odd) */
		carries = (half >> k) * ((UINT64_C(1) << k) - T);
	} else {
		/* x mod 2^k = u + 2^(j+1) v (u < 2^j): for each u the products
		 * run over every y = u*K mod 2^(j+1) + 2^(j+1) t below 2^k */
		uint64_t m = UINT64_C(1) << (j + 1), n = UINT64_C(1) << j;
		uint64_t q = T / m, t0 = T % m, a = K % m;
		uint64_t below = n - (kb_floor_sum64(n, m, a, m - t0) - kb_floor_sum64(n, m, a, 0));

		carries = (M >> k) * (n * ((UINT64_C(1) << (k - j - 1)) - q) - below);
	}
	return 2 * ((D >> k) & 1 ? half - carries : carries);
}

struct share {
	const struct kb_hashspec *s;
	unsigned in_bits, shift, exhaustive;
	uint64_t lo, hi, seed;
	struct kb_progress *progress;
	uint64_t flips[64][64];
	int started;
	pthread_t thread;
};

/* Input number i: i itself, or the i-th seeded random key, of in_bits. */
static uint64_t input_at(int exhaustive, uint64_t seed, uint64_t i, unsigned in_bits)
{
	uint64_t v = exhaustive ? i : kb_splitmix64_at(seed, i);

	return in_bits == 32 ? (uint32_t)v : v;
}

/* Inputs [lo, hi): every x, or the lo-th to hi-th seeded random one. */
static void *measure_share(void *arg)
{
	struct share *sh = arg;
	uint64_t x[BATCH], y[BATCH], hx[BATCH], hy[BATCH], done = sh->lo;
	unsigned j;

	while (done < sh->hi) {
		size_t n = sh->hi - done < BATCH ? (size_t)(sh->hi - done) : BATCH, i;

		for (i = 0; i < n; i++)
			x[i] = input_at((int)sh->exhaustive, sh->seed, done + i, sh->in_bits);
		kb_full_words(sh->s, x, n, hx);
		for (j = 0; j < sh->in_bits; j++) {
			for (i = 0; i < n; i++)
				y[i] = x[i] ^ (UINT64_C(1) << j);
			kb_full_words(sh->s, y, n, hy);
			for (i = 0; i < n; i++) {
				uint64_t d = (hx[i] ^ hy[i]) >> sh->shift;

				/* output bit k is bit k of the bucket index */
				while (d) {
					sh->flips[j][__builtin_ctzll(d)]++;
					d &= d - 1;
				}
			}
		}
		done += n;
		kb_progress_add(sh->progress, n);
	}
	return NULL;
}

/* The single 32-bit multiplier of a cell, or 0 when its word is more. */
static uint32_t single_multiplier(const struct kb_hashspec *s)
{
	uint64_t k = 0;

	if (kb_hashspec_single_multiply(s, &k) != 32 || kb_hashspec_input_bits(s) != 32 ||
	    !(k & 1))
		return 0;
	return (uint32_t)k;
}

static int count_flips(const struct kb_hashspec *s, unsigned bits,
		       uint64_t samples, uint64_t seed, int exhaustive,
		       const struct kb_influence_opts *o, uint64_t (*flips)[64])
{
	unsigned threads = o->threads ? o->threads : kb_cpu_count(), t, j, k;
	struct share *sh;

	/* a thread per 2^16 inputs at most */
	if ((uint64_t)threads > samples / 65536 + 1)
		threads = (unsigned)(samples / 65536 + 1);
	sh = calloc(threads, sizeof(*sh));
	if (!sh)
		return -1;
	for (t = 0; t < threads; t++) {
		sh[t].s = s;
		sh[t].in_bits = kb_hashspec_input_bits(s);
		sh[t].shift = 64 - bits;
		sh[t].exhaustive = exhaustive;
		sh[t].seed = seed;
		sh[t].progress = o->progress;
		sh[t].lo = samples / threads * t;
		sh[t].hi = t + 1 == threads ? samples : samples / threads * (t + 1);
	}
	for (t = 1; t < threads; t++)
		sh[t].started = pthread_create(&sh[t].thread, NULL, measure_share,
					       &sh[t]) == 0;
	measure_share(&sh[0]);
	for (t = 1; t < threads; t++) {
		if (sh[t].started)
			pthread_join(sh[t].thread, NULL);
		else
			measure_share(&sh[t]); /* slower, never wrong */
	}
	for (t = 0; t < threads; t++)
		for (j = 0; j < 64; j++)
			for (k = 0; k < 64; k++)
				flips[j][k] += sh[t].flips[j][k];
	free(sh);
	return 0;
}

/* Inputs of one run of generation U's function, each with its flips. */
#define USER_BATCH 4096

/*
 * Generation U's flips, as count_flips's: the user's function runs
 * elsewhere (a child process a run, hashspec.c's kb_user_buckets), so a
 * batch of inputs and every one of their flipped neighbours go in one
 * run, from this thread alone.  Bit k of the bucket is output bit k.
 */
static int count_flips_user(const struct kb_hashspec *s, unsigned bits, uint64_t samples,
			    uint64_t seed, int exhaustive, struct kb_progress *progress,
			    uint64_t (*flips)[64], char *err, size_t errlen)
{
	unsigned in_bits = kb_hashspec_input_bits(s), m = in_bits + 1, j;
	uint64_t *x = malloc((size_t)USER_BATCH * m * sizeof(*x));
	uint64_t *h = malloc((size_t)USER_BATCH * m * sizeof(*h)), done;
	int rc = 0;

	if (!x || !h) {
		snprintf(err, errlen, "out of memory for %u keys' buckets", USER_BATCH * m);
		rc = -1;
	}
	for (done = 0; !rc && done < samples;) {
		size_t n = samples - done < USER_BATCH ? (size_t)(samples - done) : USER_BATCH, i;

		for (i = 0; i < n; i++) {
			uint64_t v = input_at(exhaustive, seed, done + i, in_bits);

			x[i * m] = v;
			for (j = 0; j < in_bits; j++)
				x[i * m + 1 + j] = v ^ (UINT64_C(1) << j);
		}
		if (kb_user_buckets(bits, x, n * m, h, err, errlen) < 0) {
			rc = -1;
			break;
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < in_bits; j++) {
				uint64_t d = h[i * m] ^ h[i * m + 1 + j];

				while (d) {
					flips[j][__builtin_ctzll(d)]++;
					d &= d - 1;
				}
			}
		done += n;
		kb_progress_add(progress, n);
	}
	free(x);
	free(h);
	return rc;
}

void kb_influence_plan(const struct kb_hashspec *s, uint64_t samples,
		       int enumerate, struct kb_influence_plan *p)
{
	/* a 32-bit argument is small enough to sweep completely */
	int exhaustive = kb_hashspec_input_bits(s) == 32 && samples >= (UINT64_C(1) << 32);

	p->in_bits = kb_hashspec_input_bits(s);
	p->closed_form = single_multiplier(s) != 0;
	p->inputs = exhaustive ? UINT64_C(1) << 32 : samples;
	p->method = !exhaustive ? KB_INFLUENCE_SAMPLED
		    : p->closed_form && !enumerate ? KB_INFLUENCE_CLOSED
						   : KB_INFLUENCE_TRIED;
	p->hashes = p->method == KB_INFLUENCE_CLOSED ? 0
		    : p->inputs > UINT64_MAX / (p->in_bits + 1) ? UINT64_MAX
		    : p->inputs * (p->in_bits + 1);
}

int kb_influence_measure(const struct kb_hashspec *s, unsigned bits,
			 uint64_t samples, uint64_t seed,
			 const struct kb_influence_opts *o,
			 struct kb_influence *r)
{
	static const struct kb_influence_opts defaults;
	uint64_t (*flips)[64];
	unsigned in_bits = kb_hashspec_input_bits(s), j, k;
	uint32_t mult = single_multiplier(s);
	struct kb_influence_plan plan;
	char err[8];

	if (!o)
		o = &defaults;
	if (kb_hashspec_check(s, bits, err, sizeof(err)) < 0 || samples == 0)
		return -1;
	flips = calloc(64, sizeof(*flips));
	if (!flips)
		return -1;
	memset(r, 0, sizeof(*r));
	r->in_bits = in_bits;
	r->out_bits = bits;
	kb_influence_plan(s, samples, o->enumerate, &plan);
	r->exhaustive = plan.method != KB_INFLUENCE_SAMPLED;
	samples = plan.inputs;
	kb_progress_expect(o->progress, samples);
	if (plan.method == KB_INFLUENCE_CLOSED) {
		/* bucket bit k is bit 32 - bits + k of the product */
		for (j = 0; j < 32; j++)
			for (k = 0; k < bits; k++)
				flips[j][k] = kb_mul_flips(32, mult, j, 32 - bits + k);
		kb_progress_add(o->progress, samples);
	} else if ((s->user ? count_flips_user(s, bits, samples, seed, r->exhaustive, o->progress,
					       flips, r->why, sizeof(r->why))
			    : count_flips(s, bits, samples, seed, r->exhaustive, o, flips)) < 0) {
		free(flips);
		return -1;
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
	free(flips);
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
