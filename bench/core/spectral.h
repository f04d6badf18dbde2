/* SPDX-License-Identifier: MIT */
/*
 * The spectral test of a multiplier K mod 2^w (Knuth, TAOCP 3.3.4): in
 * dimension t, the shortest nonzero integer vector s with
 * s1 + s2 K + ... + st K^(t-1) = 0 (mod 2^w), whose length nu_t is the
 * distance between the hyperplanes covering the points (x, xK, ..., xK^(t-1))
 * mod 2^w, and its figure of merit nu_t / (sqrt(gamma_t) 2^(w/t)) in (0, 1]
 * (gamma_t the Hermite constant: 1 is the best any lattice of that
 * determinant can do).  For a hash, dimension 2 is the one that speaks of
 * keys: its vector (e, d) says that keys d apart get products e apart mod
 * 2^w, so a table whose buckets are wider than |e| puts them together.
 */
#ifndef KB_SPECTRAL_H
#define KB_SPECTRAL_H

#include <stdint.h>

#define KB_SPECTRAL_DIM_MAX 8

struct kb_spectral {
	int ok;         /* 0: not computed here (no 128-bit integers) */
	unsigned dims;  /* 2 .. dims computed */
	/* by dimension t: the shortest vector's squared length (exact), its
	 * coordinates, and the figure of merit */
	double nu2[KB_SPECTRAL_DIM_MAX + 1]; /* (a double: may pass 2^64) */
	int64_t vec[KB_SPECTRAL_DIM_MAX + 1][KB_SPECTRAL_DIM_MAX];
	double merit[KB_SPECTRAL_DIM_MAX + 1];
	double merit_min;  /* the worst of dimensions 2 .. dims */
};

/* 1 when this build can run the test exactly (it needs 128-bit integers). */
int kb_spectral_available(void);

/*
 * The test of k (odd) mod 2^width (32 or 64) in dimensions 2 .. dims
 * (at most KB_SPECTRAL_DIM_MAX): 0, or -1 for bad arguments.  Where
 * kb_spectral_available() is 0, out->ok is 0 and nothing else is set.
 * Each vector is the shortest, its first nonzero coordinate positive.
 */
int kb_spectral_test(uint64_t k, unsigned width, unsigned dims,
		     struct kb_spectral *out);

#endif
