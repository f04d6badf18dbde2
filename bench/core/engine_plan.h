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
	KB_PATH_AUTO,    /* the cheapest by the price model below */
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

struct kb_engine_plan;

struct kb_engine_opts {
	unsigned threads;         /* 0: one per online CPU */
	enum kb_engine_path path; /* KB_PATH_AUTO unless measuring */
	unsigned ranges;          /* KB_PATH_RANGES: how many (a power of two,
				   * at least the threads); 0: from the caches */
	struct kb_progress *progress; /* hashes done and expected, or NULL */
	int enumerate;            /* 1: AUTO counts every key even where floor
				   * sums could (to check them, or time the
				   * engine) */
	struct kb_engine_plan *ran; /* or NULL: kb_count_parallel puts the
				     * plan it ran here, with its time */
};

/*
 * AUTO takes floor sums only for arithmetic key sets through single
 * multiplies, fewer than 2^62 keys, and not when told to enumerate.
 */

/*
 * The price model AUTO plans by: the wall seconds a path is expected to
 * take, from the keys (counting grows with them), the buckets (clearing,
 * merging and floor sums grow with them), the threads, and the machine's
 * caches (machine.h): an increment costs what its table's level costs.
 * The figures are nanoseconds of one thread, fitted to `speed --part grid`
 * and `speed --part engine` on the 2-vCPU Xeon of bench/RESULTS.md; they
 * rank paths, they promise no time.  One row a figure.
 */
#define KB_PRICE_TABLE(X)                                                              \
	X(THREAD, 250000.0, "starting and joining one more thread")                    \
	X(LANES_KEY, 0.45, "a key through four u32 lanes, in L1")                       \
	X(DIRECT_KEY, 0.55, "a key into the u64 result, in L1")                         \
	X(PRIVATE_KEY, 0.6, "a key into a private 8-bit table, in L1")                  \
	X(MADE_KEY, 1.5, "a key made by a key set that is no progression (random, slab ...)") \
	X(SELECT_KEY, 1.1, "a key hashed and tested against one range")                 \
	X(RANGE_KEY, 0.3, "a selected key counted in its range, in L1")                 \
	X(MISS_L2, 0.3, "an increment whose table is in L2, at L1's size; each \
doubling past it adds half as much again")                                             \
	X(MISS_L3, 1.1, "an increment whose tables are in the last-level cache, at L2's \
size; each doubling past it adds half as much again (more TLB misses)")              \
	X(MISS_MEMORY, 8.0, "an increment whose tables spill to memory")               \
	X(LANES_BUCKET, 1.6, "clearing and merging four u32 lanes, a bucket")           \
	X(PRIVATE_BUCKET, 0.8, "clearing (fresh pages) and merging an 8-bit counter, a bucket")       \
	X(RANGE_BUCKET, 1.0, "clearing and adding a range's counter, a bucket")        \
	X(FLOORSUM_BUCKET, 180.0, "a bucket counted by floor sums")

enum kb_price {
#define KB_PRICE_ENUM(id, ns, what) KB_PRICE_##id,
	KB_PRICE_TABLE(KB_PRICE_ENUM)
#undef KB_PRICE_ENUM
	KB_PRICE_COUNT_
};

/* A figure of the price model, in nanoseconds. */
double kb_price_ns(enum kb_price figure);

/* The work a plan prices: keys through nspecs cells into 2^bits buckets;
 * a progression's keys cost nothing to make (the loops step them in a
 * register), others KB_PRICE_MADE_KEY each, once a pass. */
struct kb_engine_work {
	uint64_t keys;
	size_t nspecs;
	unsigned bits;
	int progression;
};

/*
 * The model's price, in wall seconds, of work w along `path` on `threads`
 * threads (and `ranges` ranges for KB_PATH_RANGES): HUGE_VAL for a
 * combination the engine cannot or should not run (ranges not a power of
 * two, fewer than the threads or more than half the buckets; DIRECT on
 * more than one thread; floor sums on more than a thread per 64 buckets;
 * more than 2^32 buckets).  AUTO also leaves out private tables that
 * would take more than the result's size and 64 MiB.  Floor sums are priced as if the keys allowed them: the plan
 * checks that they do.
 */
double kb_engine_price(enum kb_engine_path path, unsigned threads, unsigned ranges,
		       const struct kb_engine_work *w);

/* What kb_count_parallel will do: the path, its threads and ranges, and
 * the model's price for them.  AUTO takes the cheapest path, threads and
 * ranges; a path given is run on its cheapest threads and ranges. */
struct kb_engine_plan {
	enum kb_engine_path path;
	unsigned threads;
	unsigned ranges; /* KB_PATH_RANGES only */
	double seconds;  /* the model's price, wall seconds */
	double took;     /* kb_count_parallel's o->ran: the wall seconds it took */
};

/* The plan for counting ks through nspecs cells into 2^bits buckets
 * under o (NULL: defaults): 0, or -1 with a reason (the request cannot
 * be done: a path that does not apply, bits past 32). */
int kb_engine_plan(const struct kb_hashspec *specs, size_t nspecs,
		   unsigned bits, const struct kb_keystream *ks,
		   const struct kb_engine_opts *o, struct kb_engine_plan *plan,
		   char *err, size_t errlen);

/*
 * Rough CPU cost of a hash, to weigh work before it starts where no plan
 * is made (a key file, a named table): no timed promise.
 */
#define KB_NS_PER_HASH 3.0

/* Roughly the CPU seconds counting ks through nspecs cells into 2^bits
 * buckets under o takes: the plan's price times its threads (a path that
 * cannot be taken: every key hashed once at KB_NS_PER_HASH). */
double kb_engine_seconds(const struct kb_hashspec *specs, size_t nspecs, unsigned bits,
			 const struct kb_keystream *ks, const struct kb_engine_opts *o);

/* The bytes of one thread's private tables on a path (ranges: how many
 * KB_PATH_RANGES cuts them into; 0 for paths that count into the result):
 * what the policy weighs against the caches, and what the engine
 * allocates. */
uint64_t kb_engine_thread_bytes(enum kb_engine_path path, size_t nspecs,
				unsigned bits, unsigned ranges);

#endif
