/* SPDX-License-Identifier: MIT */
#include "spectral.h"

#include <math.h>
#include <string.h>

#ifdef __SIZEOF_INT128__
/*
 * gamma_t^t, the Hermite constants' known powers for t = 2 .. 8
 * (4/3, 2, 4, 8, 64/3, 64, 256): the figure of merit divides by
 * sqrt(gamma_t) 2^(w/t), the most the shortest vector of a lattice of
 * determinant 2^w can be.
 */
static const double gamma_pow_t[KB_SPECTRAL_DIM_MAX + 1] = {
	0, 0, 4.0 / 3.0, 2, 4, 8, 64.0 / 3.0, 64, 256
};

typedef __int128 i128;

#define N KB_SPECTRAL_DIM_MAX

struct lattice {
	unsigned t;
	i128 b[N][N];          /* basis rows, exact */
	long double bs[N][N];  /* Gram-Schmidt vectors */
	long double mu[N][N];
	long double bn[N];     /* |b*_i|^2 */
};

/* Gram-Schmidt from the exact basis, every time: t <= 8 makes it cheap,
 * and the rounding never accumulates across steps. */
static void gram_schmidt(struct lattice *L)
{
	unsigned i, j, c, t = L->t;

	for (i = 0; i < t; i++) {
		for (c = 0; c < t; c++)
			L->bs[i][c] = (long double)L->b[i][c];
		for (j = 0; j < i; j++) {
			long double dot = 0;

			for (c = 0; c < t; c++)
				dot += (long double)L->b[i][c] * L->bs[j][c];
			L->mu[i][j] = L->bn[j] > 0 ? dot / L->bn[j] : 0;
			for (c = 0; c < t; c++)
				L->bs[i][c] -= L->mu[i][j] * L->bs[j][c];
		}
		L->bn[i] = 0;
		for (c = 0; c < t; c++)
			L->bn[i] += L->bs[i][c] * L->bs[i][c];
	}
}

/* LLL (delta 3/4) with exact row operations; the step cap only guards
 * against rounding that could make the floating comparisons cycle. */
static void lll(struct lattice *L)
{
	unsigned k = 1, c, steps = 0;
	int j;

	gram_schmidt(L);
	while (k < L->t && steps++ < 100000) {
		for (j = (int)k - 1; j >= 0; j--) {
			long double q = roundl(L->mu[k][j]);

			if (q != 0) {
				i128 qi = (i128)q;

				for (c = 0; c < L->t; c++)
					L->b[k][c] -= qi * L->b[j][c];
				gram_schmidt(L);
			}
		}
		if (L->bn[k] >= (0.75L - L->mu[k][k - 1] * L->mu[k][k - 1]) * L->bn[k - 1]) {
			k++;
		} else {
			for (c = 0; c < L->t; c++) {
				i128 x = L->b[k][c];

				L->b[k][c] = L->b[k - 1][c];
				L->b[k - 1][c] = x;
			}
			gram_schmidt(L);
			k = k > 1 ? k - 1 : 1;
		}
	}
}

static unsigned __int128 norm2(const i128 *v, unsigned t)
{
	unsigned __int128 s = 0;
	unsigned c;

	for (c = 0; c < t; c++)
		s += (unsigned __int128)(v[c] < 0 ? -v[c] : v[c]) *
		     (unsigned __int128)(v[c] < 0 ? -v[c] : v[c]);
	return s;
}

struct search {
	struct lattice *L;
	long long x[N];
	unsigned __int128 best;
	i128 bestv[N];
};

/* Fincke-Pohst: every coefficient vector whose lattice point can be
 * shorter than the best so far, level by level from the last basis
 * vector; candidates are measured exactly, the floating bound only
 * prunes (with a little slack so that rounding never prunes the answer). */
static void enumerate(struct search *S, int i, long double partial)
{
	struct lattice *L = S->L;
	long double bound = (long double)S->best * (1 + 1e-9L) + 1;
	long double c = 0, r;
	long long lo, hi, xi;
	unsigned j, col;

	if (i < 0) {
		i128 v[N];
		unsigned __int128 n;

		for (col = 0; col < L->t; col++) {
			v[col] = 0;
			for (j = 0; j < L->t; j++)
				v[col] += (i128)S->x[j] * L->b[j][col];
		}
		n = norm2(v, L->t);
		if (n != 0 && n < S->best) {
			S->best = n;
			memcpy(S->bestv, v, sizeof(v));
		}
		return;
	}
	for (j = (unsigned)i + 1; j < L->t; j++)
		c -= (long double)S->x[j] * L->mu[j][i];
	r = (bound - partial) / L->bn[i];
	if (r < 0)
		return;
	r = sqrtl(r);
	lo = (long long)floorl(c - r) - 1;
	hi = (long long)ceill(c + r) + 1;
	for (xi = lo; xi <= hi; xi++) {
		long double d = ((long double)xi - c) * ((long double)xi - c) * L->bn[i];

		if (partial + d <= bound) {
			S->x[i] = xi;
			enumerate(S, i - 1, partial + d);
		}
	}
	S->x[i] = 0;
}

int kb_spectral_available(void)
{
	return 1;
}

int kb_spectral_test(uint64_t k, unsigned width, unsigned dims,
		     struct kb_spectral *out)
{
	const unsigned __int128 m = (unsigned __int128)1 << width;
	unsigned t, j, c;

	memset(out, 0, sizeof(*out));
	if ((width != 32 && width != 64) || !(k & 1) || dims < 2 || dims > N ||
	    (width == 32 && k > UINT32_MAX))
		return -1;
	out->ok = 1;
	out->dims = dims;
	out->merit_min = 1;
	for (t = 2; t <= dims; t++) {
		struct lattice L;
		struct search S;
		unsigned __int128 p = 1;

		memset(&L, 0, sizeof(L));
		L.t = t;
		/* the vectors s with s1 = -(s2 K + ... ) mod 2^w: m e1, and
		 * e_j - (K^(j-1) mod m) e1 */
		L.b[0][0] = (i128)m;
		for (j = 1; j < t; j++) {
			p = (p * k) % m;
			L.b[j][0] = -(i128)p;
			L.b[j][j] = 1;
		}
		lll(&L);
		memset(&S, 0, sizeof(S));
		S.L = &L;
		/* start from the shortest reduced basis vector */
		S.best = norm2(L.b[0], t);
		memcpy(S.bestv, L.b[0], sizeof(S.bestv));
		for (j = 1; j < t; j++)
			if (norm2(L.b[j], t) < S.best) {
				S.best = norm2(L.b[j], t);
				memcpy(S.bestv, L.b[j], sizeof(S.bestv));
			}
		enumerate(&S, (int)t - 1, 0);
		/* the sign that makes the first nonzero coordinate positive */
		for (c = 0; c < t && S.bestv[c] == 0; c++)
			;
		for (j = 0; j < t; j++)
			out->vec[t][j] = (int64_t)(c < t && S.bestv[c] < 0 ? -S.bestv[j] : S.bestv[j]);
		out->nu2[t] = (double)S.best;
		out->merit[t] = sqrt(out->nu2[t]) /
				(pow(gamma_pow_t[t], 0.5 / t) * pow(2.0, (double)width / t));
		if (out->merit[t] < out->merit_min)
			out->merit_min = out->merit[t];
	}
	return 0;
}

#else /* no 128-bit integers: the lattice's first row, 2^64, has no type */

int kb_spectral_available(void)
{
	return 0;
}

int kb_spectral_test(uint64_t k, unsigned width, unsigned dims,
		     struct kb_spectral *out)
{
	memset(out, 0, sizeof(*out));
	if ((width != 32 && width != 64) || !(k & 1) || dims < 2 ||
	    dims > KB_SPECTRAL_DIM_MAX || (width == 32 && k > UINT32_MAX))
		return -1;
	return 0;
}

#endif
