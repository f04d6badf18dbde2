/* SPDX-License-Identifier: MIT */
/*
 * The engine's one path policy: which counting path AUTO takes for a
 * table, on how many threads, cut in how many ranges.  kb_count_parallel
 * runs kb_engine_plan's answer; speed labels the same answer "chosen".
 */
#ifndef KB_ENGINE_PLAN_H
#define KB_ENGINE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "hashspec.h"

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
 * Rough costs on one CPU, to weigh work before it starts (no timed
 * promise): a hash (a key through one cell) and a floor-summed bucket.
 * Measured on the 2-core EPYC of bench/RESULTS.md: 2^28 random keys
 * through new hash_64 into 2^16 buckets, 0.78 s of CPU; 2^40 seq keys
 * into 2^20 buckets by floor sums, 0.63 s.
 */
#define KB_NS_PER_HASH 3.0
#define KB_NS_PER_FLOORSUM_BUCKET 600.0

/* Roughly the CPU seconds counting ks through nspecs cells into 2^bits
 * buckets under o takes, along the path kb_engine_plan picks (a path
 * that cannot be taken: every key hashed once). */
double kb_engine_seconds(const struct kb_hashspec *specs, size_t nspecs, unsigned bits,
			 const struct kb_keystream *ks, const struct kb_engine_opts *o);

/* The bytes of one thread's private tables on a path (ranges: how many
 * KB_PATH_RANGES cuts them into; 0 for paths that count into the result):
 * what the policy weighs against the caches, and what the engine
 * allocates. */
uint64_t kb_engine_thread_bytes(enum kb_engine_path path, size_t nspecs,
				unsigned bits, unsigned ranges);

#endif
