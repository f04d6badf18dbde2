/* SPDX-License-Identifier: MIT */
/*
 * The one path policy: which path AUTO takes, on how many threads, in how
 * many ranges (bench/RESULTS.md has the measurements).  kb_count_parallel
 * runs what kb_engine_plan says, and speed labels what it says.
 */
#include "engine_plan.h"

#include <math.h>
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

static const double price_ns[KB_PRICE_COUNT_] = {
#define KB_PRICE_ROW(id, ns, what) [KB_PRICE_##id] = ns,
	KB_PRICE_TABLE(KB_PRICE_ROW)
#undef KB_PRICE_ROW
};

double kb_price_ns(enum kb_price figure)
{
	return (unsigned)figure < KB_PRICE_COUNT_ ? price_ns[figure] : 0;
}

/* What an increment costs over L1 when each of `sharers` threads has a
 * table of `bytes`: L1 and L2 are a core's own; the last-level cache is
 * shared, and half of it is left to the keys, the code and neighbours. */
static double miss_ns(uint64_t bytes, unsigned sharers)
{
	double l1 = (double)kb_cache_bytes(1), l2 = (double)kb_cache_bytes(2);
	double l2_top = price_ns[KB_PRICE_MISS_L2] * (1 + log2(l2 > l1 ? l2 / l1 : 1) / 2);

	if (bytes <= kb_cache_bytes(1))
		return 0;
	if (bytes <= kb_cache_bytes(2))
		return price_ns[KB_PRICE_MISS_L2] * (1 + log2((double)bytes / l1) / 2);
	/* from where L2 ends, never below it */
	if ((double)bytes * sharers <= (double)kb_cache_bytes(3) / 2)
		return (l2_top > price_ns[KB_PRICE_MISS_L3] ? l2_top : price_ns[KB_PRICE_MISS_L3]) *
		       (1 + log2((double)bytes / l2) / 2);
	return price_ns[KB_PRICE_MISS_MEMORY];
}

/* Private tables may take, over all threads, as much memory as the
 * result (8 bytes a bucket) or 64 MiB, whichever is more: lanes for 2^28
 * buckets would otherwise ask for gigabytes no one counted on. */
static int tables_fit(uint64_t own, unsigned threads, double buckets)
{
	double budget = buckets * 8 > 64.0 * (1 << 20) ? buckets * 8 : 64.0 * (1 << 20);

	return (double)own * threads <= budget;
}

double kb_engine_price(enum kb_engine_path path, unsigned threads, unsigned ranges,
		       const struct kb_engine_work *w)
{
	unsigned bits = w->bits;
	double b = (double)w->nspecs * (double)(UINT64_C(1) << (bits < 63 ? bits : 63));
	double h = (double)w->keys * (double)w->nspecs; /* hashes */
	double made = w->progression ? 0 : (double)w->keys * price_ns[KB_PRICE_MADE_KEY];
	double t = threads ? threads : 1, ns;
	uint64_t own;

	if (threads < 1 || bits > 32 ||
	    (path == KB_PATH_RANGES &&
	     (bits < 2 || !ranges || ranges & (ranges - 1) || ranges < threads ||
	      ranges > (UINT64_C(1) << (bits - 1)))))
		return HUGE_VAL;
	own = kb_engine_thread_bytes(path, w->nspecs, bits, ranges);
	if (path == KB_PATH_FLOORSUM && threads > b / w->nspecs / 64 + 1)
		return HUGE_VAL; /* floor sums: a thread per 64 buckets at most */
	switch (path) {
	case KB_PATH_DIRECT:
		if (threads != 1)
			return HUGE_VAL; /* the result has one writer */
		ns = made + h * (price_ns[KB_PRICE_DIRECT_KEY] + miss_ns((uint64_t)b * 8, 1));
		break;
	case KB_PATH_LANES:
		ns = (made + h * (price_ns[KB_PRICE_LANES_KEY] + miss_ns(own, threads))) / t +
		     b * price_ns[KB_PRICE_LANES_BUCKET];
		break;
	case KB_PATH_PRIVATE:
		ns = (made + h * (price_ns[KB_PRICE_PRIVATE_KEY] + miss_ns(own, threads))) / t +
		     b * price_ns[KB_PRICE_PRIVATE_BUCKET];
		break;
	case KB_PATH_RANGES:
		/* each thread: its share of the ranges, each a pass over every
		 * key and the counting of the keys that fall in it */
		ns = ceil((double)ranges / t) * /* threads take ranges in turn */
		     (made + h * price_ns[KB_PRICE_SELECT_KEY] +
		      h / ranges * (price_ns[KB_PRICE_RANGE_KEY] + miss_ns(own, threads)) +
		      b / ranges * price_ns[KB_PRICE_RANGE_BUCKET]);
		break;
	case KB_PATH_FLOORSUM:
		ns = b / t * price_ns[KB_PRICE_FLOORSUM_BUCKET];
		break;
	default:
		return HUGE_VAL;
	}
	return (ns + (t - 1) * price_ns[KB_PRICE_THREAD]) / 1e9;
}

/* The cheapest threads (tmin..tmax) and ranges (want_ranges, or any
 * power of two to half the buckets) for a path, into *plan; budget: only
 * private tables within tables_fit (AUTO's rule; a path given to measure
 * it is run as asked). */
static void cheapest_for(enum kb_engine_path path, unsigned tmin, unsigned tmax,
			 unsigned want_ranges, int budget, const struct kb_engine_work *w,
			 struct kb_engine_plan *plan)
{
	unsigned t, r;

	plan->path = path;
	plan->seconds = HUGE_VAL;
	plan->threads = tmin;
	plan->ranges = want_ranges;
	for (t = tmin; t <= tmax; t++) {
		if (path != KB_PATH_RANGES) {
			double p = kb_engine_price(path, t, 0, w);

			if (budget && !tables_fit(kb_engine_thread_bytes(path, w->nspecs, w->bits, 0),
						  t, (double)w->nspecs * (double)(UINT64_C(1) << w->bits)))
				continue;

			if (p < plan->seconds) {
				plan->seconds = p;
				plan->threads = t;
				plan->ranges = 0;
			}
			continue;
		}
		for (r = want_ranges ? want_ranges : 1; r && w->bits >= 2 &&
		     r <= (UINT64_C(1) << (w->bits - 1)); r = want_ranges ? 0 : r * 2) {
			double p = kb_engine_price(path, t, r, w);

			if (budget && !tables_fit(kb_engine_thread_bytes(path, w->nspecs, w->bits, r),
						  t, (double)w->nspecs * (double)(UINT64_C(1) << w->bits)))
				continue;

			if (p < plan->seconds) {
				plan->seconds = p;
				plan->threads = t;
				plan->ranges = r;
			}
		}
	}
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

/* The paths AUTO weighs, the simpler first: a tie goes to it. */
static const enum kb_engine_path auto_order[] = {
	KB_PATH_DIRECT, KB_PATH_LANES, KB_PATH_PRIVATE, KB_PATH_RANGES, KB_PATH_FLOORSUM,
};

int kb_engine_plan(const struct kb_hashspec *specs, size_t nspecs,
		   unsigned bits, const struct kb_keystream *ks,
		   const struct kb_engine_opts *o, struct kb_engine_plan *plan,
		   char *err, size_t errlen)
{
	static const struct kb_engine_opts defaults;
	struct kb_engine_work w = { ks->p.count, nspecs, bits, 0 };
	uint64_t first, stride;
	unsigned tmax;
	int floorsum, l;

	if (!o)
		o = &defaults;
	memset(plan, 0, sizeof(*plan));
	if (bits > 32) {
		snprintf(err, errlen, "the engine counts at most 2^32 buckets");
		return -1;
	}
	if (o->path == KB_PATH_RANGES && o->ranges && (o->ranges & (o->ranges - 1))) {
		snprintf(err, errlen, "ranges must be a power of two, not %u", o->ranges);
		return -1;
	}
	floorsum = floorsum_fits(specs, nspecs, bits, ks);
	w.progression = kb_keystream_progression(ks, &first, &stride);
	if (o->path == KB_PATH_FLOORSUM && !floorsum) {
		snprintf(err, errlen, "floor sums count only arithmetic key sets through a single multiply, fewer than 2^62");
		return -1;
	}
	tmax = o->threads ? o->threads : kb_cpu_count();
	if (o->path != KB_PATH_AUTO) {
		/* a path given, to measure it: on the threads given (one for
		 * the plain loop, no more than the ranges), else its cheapest;
		 * one bucket cannot be cut in ranges, lanes count it */
		enum kb_engine_path path = o->path == KB_PATH_RANGES && bits < 2 ? KB_PATH_LANES
										  : o->path;
		unsigned r = o->ranges && path == KB_PATH_RANGES
				     ? (o->ranges < (1u << (bits - 1)) ? o->ranges : 1u << (bits - 1))
				     : 0;

		if (path == KB_PATH_DIRECT)
			tmax = 1;
		if (path == KB_PATH_RANGES && tmax > (1u << (bits - 1)))
			tmax = 1u << (bits - 1); /* a range a thread at least */
		if (path == KB_PATH_FLOORSUM && tmax > (1u << bits) / 64 + 1)
			tmax = (1u << bits) / 64 + 1; /* 64 buckets a thread at least */
		if (r && tmax > r)
			tmax = r;
		cheapest_for(path, o->threads ? tmax : 1, tmax, r, 0, &w, plan);
		if (plan->seconds == HUGE_VAL) {
			snprintf(err, errlen, "%s cannot count 2^%u buckets on %u threads",
				 kb_engine_path_name(path), bits, tmax);
			return -1;
		}
		return 0;
	}
	/* AUTO: every path at its cheapest, the cheapest of them (a tie goes
	 * to the simpler path, listed first) */
	plan->seconds = HUGE_VAL;
	for (l = 0; l < (int)(sizeof(auto_order) / sizeof(auto_order[0])); l++) {
		enum kb_engine_path path = auto_order[l];
		struct kb_engine_plan p;

		if (path == KB_PATH_FLOORSUM && (!floorsum || o->enumerate))
			continue;
		cheapest_for(path, 1, path == KB_PATH_DIRECT ? 1 : tmax, 0, 1, &w, &p);
		if (p.seconds < plan->seconds)
			*plan = p;
	}
	return 0;
}

double kb_engine_seconds(const struct kb_hashspec *specs, size_t nspecs, unsigned bits,
			 const struct kb_keystream *ks, const struct kb_engine_opts *o)
{
	struct kb_engine_plan plan;
	char err[128];

	if (kb_engine_plan(specs, nspecs, bits, ks, o, &plan, err, sizeof(err)) < 0)
		return (double)ks->p.count * (double)nspecs * KB_NS_PER_HASH / 1e9;
	return plan.seconds * plan.threads;
}
