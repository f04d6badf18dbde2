/* SPDX-License-Identifier: MIT */
/*
 * The counting engine: keys through one (function, generation, word size)
 * into 2^bits buckets.  Every function here keeps the top bits of one word,
 * so words are computed once, top-aligned to 64 bits, and a histogram for
 * fewer bits is the sum of adjacent buckets (kb_fold).
 */
#ifndef KB_ENGINE_H
#define KB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh.h>
#include <khash/lkh_table.h>

struct kb_hashspec {
	lkh_func func;
	lkh_gen gen;
	unsigned word;
};

/* 0 if spec and bits are valid for bucket counting; else -1 and a reason. */
int kb_hashspec_check(const struct kb_hashspec *s, unsigned bits, char *err,
		      size_t errlen);

/* Width of the function's argument: 32 or 64. */
unsigned kb_hashspec_input_bits(const struct kb_hashspec *s);

/* Index of the first key wider than input_bits, or n when all fit. */
size_t kb_first_misfit(const uint64_t *keys, size_t n, unsigned input_bits);

/* Top-aligned hash words: the result for b bits is out[i] >> (64 - b). */
void kb_full_words(const struct kb_hashspec *s, const uint64_t *keys,
		   size_t n, uint64_t *out);

/* The same for keys first, first + stride, ... (n of them, mod 2^64). */
void kb_full_words_progression(const struct kb_hashspec *s, uint64_t first,
			       uint64_t stride, size_t n, uint64_t *out);

/* Add n keys to counts[2^bits]. */
void kb_count_block(const struct kb_hashspec *s, unsigned bits,
		    const uint64_t *keys, size_t n, uint64_t *counts);

/* Halve a histogram of 2^bits buckets in place (bits >= 1). */
void kb_fold(uint64_t *counts, unsigned bits);

struct kb_keystream;

/*
 * The fast engine: count one key stream through nspecs hash cells into
 * counts (nspecs tables of 2^bits, zeroed by the caller), splitting the
 * keys between `threads` threads (0: one per online CPU).  Each thread
 * counts into private tables: small ones through four interleaved lanes
 * (consecutive keys in one bucket do not wait on each other's stores),
 * tables past L2 in 16-bit counters with software prefetch (a quarter of
 * the memory, a dozen misses in flight).  0, or -1 with a reason.
 */
int kb_count_parallel(const struct kb_hashspec *specs, size_t nspecs,
		      unsigned bits, const struct kb_keystream *ks,
		      unsigned threads, uint64_t *counts, char *err,
		      size_t errlen);

/* The online CPUs, at least 1. */
unsigned kb_cpu_count(void);

struct kb_keyset_params;

/* Counts for one cell over a built-in key set (skew, the histograms):
 * 0, or -1 with a reason.  *counts is malloc'ed, 2^bits entries. */
int kb_count_keyset(const struct kb_hashspec *spec, unsigned bits, int keyset,
		    const struct kb_keyset_params *p, unsigned threads,
		    uint64_t **counts, char *err, size_t errlen);

#endif
