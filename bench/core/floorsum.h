/* SPDX-License-Identifier: MIT */
/*
 * Counting without enumerating: sums of floor((a*i + b) / m) over
 * i < n, in O(log m) steps, and with them the bucket counts of an
 * arithmetic key progression through a hash that is one multiply (the
 * word of key first + i*stride is c0 + i*c1 mod 2^W, and how many of
 * those fall below a bucket's bound is a floor sum).  Time depends on
 * the number of buckets, not of keys.
 */
#ifndef KB_FLOORSUM_H
#define KB_FLOORSUM_H

#include <stdint.h>

#include "engine.h"

/* sum of floor((a*i + b) / m) for i in [0, n); m > 0.  Exact as long as
 * a*n + b and the sum stay below 2^64 (a, b < m <= 2^32, n <= 2^31 do). */
uint64_t kb_floor_sum64(uint64_t n, uint64_t m, uint64_t a, uint64_t b);

/*
 * 1 when counting a progression through s needs no enumeration here: its
 * word is a single multiply of the key (lkh_table.h's arithmetic column)
 * and this compiler has 128-bit integers.
 */
int kb_progression_countable(const struct kb_hashspec *s);

/*
 * Add to counts[2^bits] the buckets of keys first + i*stride (mod 2^64),
 * i in [0, n), n < 2^62, for buckets [lo, hi) only (so threads can share
 * a table).  0, or -1 when s is not countable this way.
 */
int kb_count_progression(const struct kb_hashspec *s, unsigned bits,
			 uint64_t first, uint64_t stride, uint64_t n,
			 uint64_t lo, uint64_t hi, uint64_t *counts);

#endif
