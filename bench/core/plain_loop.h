/* SPDX-License-Identifier: MIT */
/*
 * The plain loop a user writes to count keys through new hash_64: the key
 * stepped in a register (or read from an array), multiplied, its top bits
 * kept, a counter incremented; the table size a constant, so the shift is
 * one instruction, and 32-bit counters while the keys cannot overflow them
 * (half the cache of u64).  It is the baseline every engine speed-up is
 * quoted against: speed times it in its own binary (plain_loop.c), and
 * bench/plain-loop.c builds the same loop alone with `cc -O2`, so that
 * bench/engine-vs-plain.sh can check the two agree.
 */
#ifndef KB_PLAIN_LOOP_H
#define KB_PLAIN_LOOP_H

#include <stdint.h>

#include <khash/lkh.h>

/* A loop over an arithmetic key set (first, first + stride, ...) and one
 * over an array of keys, into 2^BITS counters of type CT. */
#define KB_PLAIN_LOOPS(suffix, CT, BITS)                                          \
	static inline void kb_plain_step_##suffix(uint64_t first, uint64_t stride,   \
						  uint64_t n, CT *count)             \
	{                                                                            \
		uint64_t i, k = first;                                               \
		for (i = 0; i < n; i++, k += stride)                                 \
			count[(k * LKH_GOLDEN_RATIO_64) >> (64 - (BITS))]++;         \
	}                                                                            \
	static inline void kb_plain_array_##suffix(const uint64_t *keys, uint64_t n, \
						   CT *count)                        \
	{                                                                            \
		uint64_t i;                                                          \
		for (i = 0; i < n; i++)                                              \
			count[(keys[i] * LKH_GOLDEN_RATIO_64) >> (64 - (BITS))]++;   \
	}

/* The table sizes the baseline is built for: every one the engine counts. */
#define KB_PLAIN_BITS_MAX 32

/*
 * Count n keys (keys NULL: first + i * stride) into 2^bits counters, u32
 * when n < 2^32 (counts then points to uint32_t), else u64: the loop
 * built for that size.  bits outside 1..KB_PLAIN_BITS_MAX counts nothing
 * and returns -1.
 */
int kb_plain_count(const uint64_t *keys, uint64_t first, uint64_t stride,
		   uint64_t n, unsigned bits, void *counts);

/* The size of one of kb_plain_count's counters for n keys. */
static inline unsigned kb_plain_counter_bytes(uint64_t n)
{
	return n >> 32 ? 8 : 4;
}

#endif
