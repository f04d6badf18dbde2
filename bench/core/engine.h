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

/*
 * khash-bench's generations: hash.h's four (lkh_gen, in release order),
 * then K, a multiplier of the user's (--multiplier): the function's
 * argument times K mod 2^width, its top bits.  That is hash.h's one-
 * multiply hash with K in place of the golden ratio, on every function and
 * word alike (no 32-bit kernel's two-multiply hash_64): what K does to
 * the keys, and nothing else.
 */
#define KB_GEN_K ((int)LKH_GEN_COUNT)
#define KB_GEN_COUNT (LKH_GEN_COUNT + 1)

struct kb_hashspec {
	lkh_func func;
	lkh_gen gen;        /* when k_width is 0 */
	unsigned word;
	uint64_t k;         /* generation K: the odd multiplier */
	unsigned k_width;   /* its word, 32 or 64; 0: hash.h's generation */
};

/* A generation as a command takes it: hash.h's (gen an lkh_gen), or K
 * (gen KB_GEN_K) with its multiplier and width (0: for each argument,
 * kb_multiplier_width's). */
struct kb_gen {
	int gen;
	uint64_t k;
	unsigned width;
};

/* hash.h's generation g, as a struct kb_gen. */
#define KB_GEN_OF(g) (&(const struct kb_gen){ (int)(g), 0, 0 })

/* s := func on a word-bit kernel under generation g. */
void kb_hashspec_make(struct kb_hashspec *s, lkh_func func, unsigned word,
		      const struct kb_gen *g);

/* The generation of a cell, as a struct kb_gen (K's width resolved). */
void kb_hashspec_kb_gen(const struct kb_hashspec *s, struct kb_gen *g);

/* GOLDEN_RATIO_PRIME as g has it on a word-bit kernel: hash.h's, or K in
 * its place (its low word bits: the kernel's unsigned long). */
uint64_t kb_gen_golden_ratio_prime(const struct kb_gen *g, unsigned word);

/* The generation of a cell: an lkh_gen, or KB_GEN_K. */
int kb_hashspec_gen(const struct kb_hashspec *s);

/* Make s a cell of generation g (KB_GEN_K: the multiplier k of width
 * k_width, both ignored for hash.h's generations). */
void kb_hashspec_set_gen(struct kb_hashspec *s, int g, uint64_t k,
			 unsigned k_width);

/* "old" .. "new", "K"; NULL for no generation. */
const char *kb_gen_name(int g);

/* The name of a cell's generation. */
const char *kb_hashspec_gen_name(const struct kb_hashspec *s);

/* A generation name ("K" too) to its number: 0, or -1. */
int kb_gen_from_name(const char *name, int *g);

/* The width --multiplier K takes when --width is not given: the wider of
 * K's own (32 when it fits) and the argument's (input_bits). */
unsigned kb_multiplier_width(uint64_t k, unsigned input_bits);

/* 0 if K can be generation K's multiplier at width: odd, fits; else -1 and
 * a reason. */
int kb_multiplier_check(uint64_t k, unsigned width, char *err, size_t errlen);

/* 0 if spec and bits are valid for bucket counting; else -1 and a reason. */
int kb_hashspec_check(const struct kb_hashspec *s, unsigned bits, char *err,
		      size_t errlen);

/* When a cell's word is one multiply (hash.h's single-multiply cells, the
 * old chain, generation K): its width, 32 or 64, and *k the multiplier;
 * else 0. */
unsigned kb_hashspec_single_multiply(const struct kb_hashspec *s, uint64_t *k);

/* Width of the function's argument: 32 or 64. */
unsigned kb_hashspec_input_bits(const struct kb_hashspec *s);

/* Index of the first key wider than input_bits, or n when all fit. */
size_t kb_first_misfit(const uint64_t *keys, size_t n, unsigned input_bits);

/* Sort keys and keep one of each (a table holds an object once): the
 * number kept, O(n log n). */
size_t kb_distinct_keys(uint64_t *keys, size_t n);

/* Sort n u64 ascending. */
void kb_sort_u64(uint64_t *v, size_t n);

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
struct kb_progress;

/*
 * How the fast engine counts (bench/RESULTS.md has the measurements the
 * choice rests on).  Every path counts exactly what kb_count_block does.
 */
enum kb_engine_path {
	KB_PATH_AUTO,    /* chosen from the table's size and the caches */
	KB_PATH_LANES,   /* threads split the keys; four private u32 tables
			  * a thread, keys in turn (consecutive keys in one
			  * bucket do not wait on each other's stores): tables
			  * in L1 */
	KB_PATH_PRIVATE, /* threads split the keys; private 8-bit counters
			  * (an eighth of u64's memory): tables that fit the
			  * last-level cache, one copy a thread */
	KB_PATH_RANGES,  /* threads split the buckets: the table is cut into
			  * ranges by the top bits of the index, and a thread
			  * hashes every key once per range it owns and counts
			  * the keys that fall in it in 8-bit counters, so each
			  * range stays in cache (re-hashing is cheaper here
			  * than writing partitions to memory and back) */
	KB_PATH_DIRECT,  /* one thread, straight into the u64 result: fewer
			  * keys than buckets, where clearing and merging a
			  * private table would cost more than the counting */
	KB_PATH_FLOORSUM, /* no keys at all: an arithmetic key set through a
			   * single multiply, counted bucket by bucket with
			   * floor sums (floorsum.h); threads split the buckets */
	KB_PATH_COUNT_
};

const char *kb_engine_path_name(enum kb_engine_path path);

struct kb_engine_opts {
	unsigned threads;         /* 0: one per online CPU */
	enum kb_engine_path path; /* KB_PATH_AUTO unless measuring */
	unsigned ranges;          /* KB_PATH_RANGES: how many (a power of two,
				   * at least the threads); 0: from the caches */
	struct kb_progress *progress; /* hashes done and expected, or NULL */
	int enumerate;            /* 1: AUTO counts every key even where floor
				   * sums could (to check them, or time the
				   * engine) */
};

/*
 * The path AUTO takes for nspecs tables of 2^bits on `threads` threads
 * (KB_PATH_DIRECT when there are fewer keys than buckets) when the keys
 * must be enumerated (AUTO takes KB_PATH_FLOORSUM instead
 * for arithmetic key sets through single multiplies when there are
 * 2^KB_FLOORSUM_MIN_LOG times more keys than buckets), and the number of
 * bucket ranges KB_PATH_RANGES cuts them into.
 */
#define KB_FLOORSUM_MIN_LOG 13
enum kb_engine_path kb_engine_choose(size_t nspecs, unsigned bits,
				     unsigned threads);
unsigned kb_engine_ranges(size_t nspecs, unsigned bits, unsigned threads);

/*
 * Below this many hashes (keys x cells) AUTO counts on one thread
 * (`speed --part grid`, bench/RESULTS.md): on this 2-vCPU VM starting a
 * second thread costs a good part of a millisecond, so threaded paths lost
 * to the naive loop at 2^20 keys (0.3-0.9x) and were mixed at 2^22
 * (0.87-1.98x).  That one thread counts straight into the result
 * (KB_PATH_DIRECT, the plain loop), or in lanes where they fit L1 and
 * there are 2^KB_SOLO_LANES_MIN_LOG keys a bucket or more to pay for
 * clearing and adding them (1.15-1.28x at 2^6 buckets, even at 2^8-2^10;
 * with 2^6 keys a bucket, 0.68-0.9x).
 */
#define KB_ENGINE_MIN_WORK (UINT64_C(1) << 24)
#define KB_SOLO_LANES_MIN_LOG 8

/* What kb_count_parallel will do: the path, its threads and ranges. */
struct kb_engine_plan {
	enum kb_engine_path path;
	unsigned threads;
	unsigned ranges; /* KB_PATH_RANGES only */
};

/* The plan for counting ks through nspecs cells into 2^bits buckets
 * under o (NULL: defaults): 0, or -1 with a reason (the request cannot
 * be done: a path that does not apply, bits past 32). */
int kb_engine_plan(const struct kb_hashspec *specs, size_t nspecs,
		   unsigned bits, const struct kb_keystream *ks,
		   const struct kb_engine_opts *o, struct kb_engine_plan *plan,
		   char *err, size_t errlen);

/*
 * The fast engine: count one key stream through nspecs hash cells into
 * counts (nspecs tables of 2^bits, zeroed by the caller), on o->threads
 * threads along o->path (o NULL: all CPUs, AUTO, no progress).  Reports
 * progress in hashes (a key through one cell), which KB_PATH_RANGES does
 * more of than there are keys.  0, or -1 with a reason.
 */
int kb_count_parallel(const struct kb_hashspec *specs, size_t nspecs,
		      unsigned bits, const struct kb_keystream *ks,
		      const struct kb_engine_opts *o, uint64_t *counts,
		      char *err, size_t errlen);

/* A zeroed table for free(): past 2 MiB on huge pages where the system
 * grants them (a counter a key at random otherwise misses the TLB). */
void *kb_table_alloc(uint64_t bytes);

/* The online CPUs, at least 1. */
unsigned kb_cpu_count(void);

/* The data caches, in bytes: level 1, 2 or 3 (the last level a core
 * shares): as set by kb_set_cache_bytes, else the C library's figure,
 * else typical sizes. */
uint64_t kb_cache_bytes(unsigned level);

/* Where kb_cache_bytes took a level's figure from. */
enum kb_cache_source {
	KB_CACHE_SET,    /* kb_set_cache_bytes (the kernel's tables) */
	KB_CACHE_LIBC,   /* the C library (sysconf, from CPUID) */
	KB_CACHE_TYPICAL /* neither had one: a common size */
};
uint64_t kb_cache_bytes_from(unsigned level, enum kb_cache_source *src);
/* The C library's own figure for a level, 0 where it has none. */
uint64_t kb_libc_cache_bytes(unsigned level);

/*
 * Tell the engine the machine's caches (bytes[0..2]: L1d, L2, L3; 0 keeps
 * the C library's figure).  Once, before counting: glibc reads them from
 * CPUID, which a virtual machine may fill with its host's (256 MiB of L3
 * here, where the guest's own tables say 32 MiB); the command line reads
 * the kernel's tables (bench/io/caches.c) and sets them.
 */
void kb_set_cache_bytes(const uint64_t bytes[3]);

struct kb_keyset_params;

/* Open a key set and a zeroed table of 2^bits counts (kb_table_alloc):
 * 0, or -1 with a reason and nothing left open. */
int kb_open_counted(struct kb_keystream *ks, int keyset,
		    const struct kb_keyset_params *p, unsigned bits,
		    uint64_t **counts, char *err, size_t errlen);

/* Counts for one cell over a built-in key set (skew, the histograms):
 * 0, or -1 with a reason.  *counts is malloc'ed, 2^bits entries. */
int kb_count_keyset(const struct kb_hashspec *spec, unsigned bits, int keyset,
		    const struct kb_keyset_params *p,
		    const struct kb_engine_opts *o, uint64_t **counts,
		    char *err, size_t errlen);

#endif
