/* SPDX-License-Identifier: MIT */
/*
 * The one path policy: which path AUTO takes, on how many threads, in how
 * many ranges (bench/RESULTS.md has the measurements).  kb_count_parallel
 * runs what kb_engine_plan says, and speed labels what it says.
 */
#include "engine_plan.h"

#include <stdio.h>
#include <string.h>

#include "floorsum.h"
#include "keysets.h"
#include "machine.h"

static const char *const path_names[KB_PATH_COUNT_] = {
	[KB_PATH_AUTO] = "auto",
	[KB_PATH_LANES] = "lanes",
	[KB_PATH_PRIVATE] = "private8",
	[KB_PATH_RANGES] = "ranges8",
	[KB_PATH_DIRECT] = "direct64",
	[KB_PATH_FLOORSUM] = "floorsum",
};

const char *kb_engine_path_name(enum kb_engine_path path)
{
	return (unsigned)path < KB_PATH_COUNT_ ? path_names[path] : NULL;
}

uint64_t kb_engine_thread_bytes(enum kb_engine_path path, size_t nspecs,
				unsigned bits, unsigned ranges)
{
	uint64_t bytes = (uint64_t)nspecs << bits;

	return path == KB_PATH_LANES   ? bytes * 16 /* four u32 lanes */
	     : path == KB_PATH_PRIVATE ? bytes
	     : path == KB_PATH_RANGES  ? bytes / ranges
				       : 0; /* floor sums, direct: the result */
}

/*
 * Measured on a 2-core EPYC (bench/RESULTS.md): four u32 lanes beat one
 * table while the lanes stay in L1 (1.35x at 2^11); past that a thread's
 * own 16-bit table is fastest as long as every thread's copy fits half the
 * last-level cache (the other half is the keys, the code and neighbours);
 * beyond, copies spill to memory at ~100 ns a miss, and counting one
 * cache-sized range of buckets at a time wins although every key is hashed
 * once per range.
 */
enum kb_engine_path kb_engine_choose(size_t nspecs, unsigned bits,
				     unsigned threads)
{
	if (bits > 32)
		return KB_PATH_PRIVATE; /* never allocatable anyway */
	if (kb_engine_thread_bytes(KB_PATH_LANES, nspecs, bits, 0) <= kb_cache_bytes(1))
		return KB_PATH_LANES;
	if (threads * kb_engine_thread_bytes(KB_PATH_PRIVATE, nspecs, bits, 0) <=
	    kb_cache_bytes(3) / 2)
		return KB_PATH_PRIVATE;
	return KB_PATH_RANGES;
}

unsigned kb_engine_ranges(size_t nspecs, unsigned bits, unsigned threads)
{
	uint64_t budget = kb_cache_bytes(3) / 2; /* all threads' ranges at once */
	unsigned r = 1;

	while (r < threads)
		r *= 2;
	/* a range of one bucket is the limit; 2^bits u8 counters in total */
	while (r < (UINT64_C(1) << bits) / 2 &&
	       (uint64_t)threads * kb_engine_thread_bytes(KB_PATH_RANGES, nspecs, bits, r) >
		       budget)
		r *= 2;
	return r;
}

/* Whether floor sums can count this stream through these cells. */
static int floorsum_fits(const struct kb_hashspec *specs, size_t nspecs,
			 unsigned bits, const struct kb_keystream *ks)
{
	uint64_t first, stride, k;
	size_t j;

	if (!kb_keystream_progression(ks, &first, &stride) ||
	    ks->p.count >= UINT64_C(1) << 62)
		return 0;
	for (j = 0; j < nspecs; j++)
		if (!kb_progression_countable(&specs[j]) ||
		    bits > kb_hashspec_single_multiply(&specs[j], &k))
			return 0;
	return 1;
}

int kb_engine_plan(const struct kb_hashspec *specs, size_t nspecs,
		   unsigned bits, const struct kb_keystream *ks,
		   const struct kb_engine_opts *o, struct kb_engine_plan *plan,
		   char *err, size_t errlen)
{
	static const struct kb_engine_opts defaults;
	uint64_t total = ks->p.count;
	unsigned threads, capped;
	int floorsum, solo = 0;

	if (!o)
		o = &defaults;
	if (bits > 32) {
		snprintf(err, errlen, "the engine counts at most 2^32 buckets");
		return -1;
	}
	floorsum = floorsum_fits(specs, nspecs, bits, ks);
	threads = o->threads ? o->threads : kb_cpu_count();
	/* a thread per ~1M keys at most: below that, starting one costs more */
	capped = (uint64_t)threads > total / (1u << 20) + 1
			 ? (unsigned)(total / (1u << 20) + 1) : threads;
	memset(plan, 0, sizeof(*plan));
	if (o->path != KB_PATH_AUTO)
		plan->path = o->path;
	else if (!o->enumerate && floorsum &&
		 total >> KB_FLOORSUM_MIN_LOG >= UINT64_C(1) << bits)
		plan->path = KB_PATH_FLOORSUM;
	else if (total < UINT64_C(1) << bits ||
		 total < KB_ENGINE_MIN_WORK / (nspecs ? nspecs : 1)) {
		/* one thread: the plain loop, or lanes where they fit L1 and
		 * there are keys enough to pay for clearing them */
		solo = 1;
		plan->path = kb_engine_choose(nspecs, bits, 1) == KB_PATH_LANES &&
					     total >> KB_SOLO_LANES_MIN_LOG >= UINT64_C(1) << bits
				     ? KB_PATH_LANES : KB_PATH_DIRECT;
	} else
		plan->path = kb_engine_choose(nspecs, bits, capped);
	if (plan->path == KB_PATH_FLOORSUM && !floorsum) {
		snprintf(err, errlen, "floor sums count only arithmetic key sets through a single multiply, fewer than 2^62");
		return -1;
	}
	if (plan->path == KB_PATH_FLOORSUM) {
		/* a thread per 64 buckets at most */
		if (threads > (UINT64_C(1) << bits) / 64 + 1)
			threads = (unsigned)((UINT64_C(1) << bits) / 64 + 1);
	} else if (plan->path == KB_PATH_DIRECT || solo) {
		threads = 1; /* the result has one writer */
	} else {
		threads = capped;
	}
	if (plan->path == KB_PATH_RANGES && bits < 2)
		plan->path = KB_PATH_LANES; /* one bucket cannot be cut in ranges */
	if (plan->path == KB_PATH_RANGES) {
		plan->ranges = o->ranges ? o->ranges : kb_engine_ranges(nspecs, bits, threads);
		if (plan->ranges & (plan->ranges - 1)) {
			snprintf(err, errlen, "ranges must be a power of two, not %u",
				 plan->ranges);
			return -1;
		}
		if (plan->ranges > (1u << (bits - 1)))
			plan->ranges = 1u << (bits - 1);
		while (plan->ranges < threads)
			threads--; /* a thread without a range has nothing to do */
	}
	plan->threads = threads;
	return 0;
}

double kb_engine_seconds(const struct kb_hashspec *specs, size_t nspecs, unsigned bits,
			 const struct kb_keystream *ks, const struct kb_engine_opts *o)
{
	struct kb_engine_plan plan;
	char err[128];
	double hashes = (double)ks->p.count * (double)nspecs;

	if (kb_engine_plan(specs, nspecs, bits, ks, o, &plan, err, sizeof(err)) < 0)
		return hashes * KB_NS_PER_HASH / 1e9;
	if (plan.path == KB_PATH_FLOORSUM)
		return (double)nspecs * (double)(UINT64_C(1) << bits) * KB_NS_PER_FLOORSUM_BUCKET / 1e9;
	if (plan.path == KB_PATH_RANGES)
		hashes *= plan.ranges; /* every key hashed once per range */
	return hashes * KB_NS_PER_HASH / 1e9;
}
