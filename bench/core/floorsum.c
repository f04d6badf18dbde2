/* SPDX-License-Identifier: MIT */
#include "floorsum.h"

#include <khash/lkh_table.h>

/*
 * The Euclid-like reduction: take whole multiples of m out of a and b,
 * then the sum counts lattice points under a line, which is the same sum
 * with the roles of a and m swapped (as in a continued fraction).  One
 * body for both widths.
 */
#define FLOOR_SUM(T, n, m, a, b)                                   \
	do {                                                       \
		T sum = 0, y;                                      \
		for (;;) {                                         \
			if (a >= m) {                              \
				sum += (n * (n - 1) / 2) * (a / m);\
				a %= m;                            \
			}                                          \
			if (b >= m) {                              \
				sum += n * (b / m);                \
				b %= m;                            \
			}                                          \
			y = a * n + b;                             \
			if (y < m)                                 \
				return sum;                        \
			n = y / m;                                 \
			b = y % m;                                 \
			y = m;                                     \
			m = a;                                     \
			a = y;                                     \
		}                                                  \
	} while (0)

uint64_t kb_floor_sum64(uint64_t n, uint64_t m, uint64_t a, uint64_t b)
{
	FLOOR_SUM(uint64_t, n, m, a, b);
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

static u128 floor_sum128(u128 n, u128 m, u128 a, u128 b)
{
	FLOOR_SUM(u128, n, m, a, b);
}

#endif

int kb_progression_countable(const struct kb_hashspec *s)
{
#ifdef __SIZEOF_INT128__
	uint64_t k;

	return kb_hashspec_single_multiply(s, &k) != 0;
#else
	(void)s;
	return 0;
#endif
}

int kb_count_progression(const struct kb_hashspec *s, unsigned bits,
			 uint64_t first, uint64_t stride, uint64_t n,
			 uint64_t lo, uint64_t hi, uint64_t *counts)
{
#ifdef __SIZEOF_INT128__
	uint64_t k, b;
	unsigned w = kb_hashspec_single_multiply(s, &k);
	u128 M, c0, c1, prev;

	if (w == 0 || bits > w || n >= (UINT64_C(1) << 62))
		return -1;
	M = (u128)1 << w;
	/* the word of key first + i*stride is c0 + i*c1 mod 2^w (a 32-bit
	 * argument is the key mod 2^32, still a progression) */
	c0 = ((u128)first * k) % M;
	c1 = ((u128)stride * k) % M;
	/*
	 * #{i : word_i mod M < L} = n + F(c0) - F(c0 + M - L), F(x) =
	 * floor_sum(n, M, c1, x), since floor(x/M) - floor((x - L)/M) is 1
	 * exactly when x mod M < L; a bucket's count is the difference of
	 * its two bounds', so F(c0) cancels.
	 */
	prev = floor_sum128(n, M, c1, c0 + M - ((u128)lo << (w - bits)));
	for (b = lo; b < hi; b++) {
		u128 next = floor_sum128(n, M, c1, c0 + M - ((u128)(b + 1) << (w - bits)));

		counts[b] += (uint64_t)(prev - next);
		prev = next;
	}
	return 0;
#else
	(void)s;
	(void)bits;
	(void)first;
	(void)stride;
	(void)n;
	(void)lo;
	(void)hi;
	(void)counts;
	return -1;
#endif
}
