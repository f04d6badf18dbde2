/* SPDX-License-Identifier: MIT */
/*
 * The counting paths (engine_plan.h names them): lanes, private8 and
 * direct64 split the keys, ranges8 splits the buckets and hashes every
 * key once per range, floorsum counts an arithmetic key set bucket by
 * bucket without enumerating it.  Each counts what kb_count_block does.
 */
#include "engine_paths.h"

#include <stdlib.h>
#include <string.h>

#include "engine_products.h"
#include "floorsum.h"
#include "keysets.h"
#include "progress.h"

/*
 * Hash and count in one loop, the word never leaving a register, through
 * four sub-histograms (lanes: key i counts in table i % 4) so that keys
 * landing in one bucket one after another do not each wait for the
 * previous store.  Four whole tables side by side ran ~10 % faster here
 * than four counters a bucket interleaved.  KEY(i) steps an array or a
 * progression (engine_block.h).
 */
#define LANES_LOOP(expr)                                                    \
	do {                                                                \
		for (i = 0; i + 4 <= n; i += 4) {                           \
			uint64_t k, w0, w1, w2, w3;                         \
			k = KEY(i);                                         \
			w0 = (expr);                                        \
			k = KEY(i + 1);                                     \
			w1 = (expr);                                        \
			k = KEY(i + 2);                                     \
			w2 = (expr);                                        \
			k = KEY(i + 3);                                     \
			w3 = (expr);                                        \
			sub[w0 >> shift]++;                                 \
			sub[lane + (w1 >> shift)]++;                        \
			sub[2 * lane + (w2 >> shift)]++;                    \
			sub[3 * lane + (w3 >> shift)]++;                    \
		}                                                           \
		for (; i < n; i++) {                                        \
			uint64_t k = KEY(i);                                \
			sub[(expr) >> shift]++;                             \
		}                                                           \
	} while (0)

/* Keys a block: an array of them stays in L1 beside a small table; a
 * progression has no array, and longer blocks cost less per key (4096
 * against 1024: 6-12 % faster lanes at 2^11, measured). */
#define ARRAY_BLOCK 1024
#define PROGRESSION_BLOCK 4096
#define LANE_FLUSH (UINT64_C(1) << 30) /* u32 lanes never overflow */

/* Rare events land in the shared result from any thread. */
static void add_shared(uint64_t *c, uint64_t v)
{
	__atomic_fetch_add(c, v, __ATOMIC_RELAXED);
}

static void lanes_flush(uint64_t *counts, uint32_t *sub, unsigned bits)
{
	uint64_t i, m = UINT64_C(1) << bits;

	for (i = 0; i < m; i++) {
		add_shared(&counts[i], (uint64_t)sub[i] + sub[m + i] + sub[2 * m + i] +
					       sub[3 * m + i]);
	}
	memset(sub, 0, (size_t)m * 4 * sizeof(uint32_t));
}

/*
 * The stream's next block: an arithmetic key set needs no key array (the
 * loops hash as they walk from first by stride), others fill keys.
 * Returns how many keys, 0 at the end.
 */
struct block {
	int progression;
	uint64_t first, stride;
};

static size_t next_block(struct kb_keystream *ks, uint64_t *keys,
			 struct block *bk)
{
	bk->progression = kb_keystream_progression(ks, &bk->first, &bk->stride);
	return bk->progression ? kb_keystream_skip(ks, PROGRESSION_BLOCK)
			       : kb_keystream_next(ks, keys, ARRAY_BLOCK);
}

/*
 * Fused loops for the counters past L1: hash and count in one pass, the
 * index never stored (measured: a pass storing indices and another
 * counting them ran at half the speed).  8-bit counters: the smallest
 * table is the one that stays in cache; a wrap adds 256 to the result.
 */
#define COUNT8_LOOP(expr)                                                   \
	do {                                                                \
		for (i = 0; i < n; i++) {                                   \
			uint64_t k = KEY(i);                                \
			uint32_t x = (uint32_t)((expr) >> shift);           \
			if (++c[x] == 0) /* wrapped: rare unless broken */  \
				add_shared(&wrap[x], 256);                  \
		}                                                           \
	} while (0)

/* The keys of range r (buckets [r << lb, (r + 1) << lb)) as offsets in
 * it, appended to sel without a branch per key (m counts them). */
#define SELECT_LOOP(expr)                                                   \
	do {                                                                \
		for (i = 0; i < n; i++) {                                   \
			uint64_t k = KEY(i);                                \
			uint32_t x = (uint32_t)((expr) >> shift);           \
			sel[m] = x & mask;                                  \
			m += (x >> lb) == r;                                \
		}                                                           \
	} while (0)

static void lanes_block(const struct kb_hashspec *s, const struct block *bk,
			const uint64_t *keys, size_t n, unsigned bits,
			uint32_t *sub)
{
	unsigned shift = 64 - bits;
	uint64_t lane = UINT64_C(1) << bits; /* the lanes are whole tables */
	size_t i;

#define LOOP LANES_LOOP
#include "engine_block.h"
#undef LOOP
}

#define COUNT64_LOOP(expr)                                                  \
	do {                                                                \
		for (i = 0; i < n; i++) {                                   \
			uint64_t k = KEY(i);                                \
			c[(expr) >> shift]++;                               \
		}                                                           \
	} while (0)

static void count64_block(const struct kb_hashspec *s, const struct block *bk,
			  const uint64_t *keys, size_t n, unsigned bits,
			  uint64_t *c)
{
	unsigned shift = 64 - bits;
	size_t i;

#define LOOP COUNT64_LOOP
#include "engine_block.h"
#undef LOOP
}

static void count8_block(const struct kb_hashspec *s, const struct block *bk,
			 const uint64_t *keys, size_t n, unsigned bits,
			 uint8_t *c, uint64_t *wrap)
{
	unsigned shift = 64 - bits;
	size_t i;

#define LOOP COUNT8_LOOP
#include "engine_block.h"
#undef LOOP
}

/* The keys of a block whose bucket is in range r, into sel; how many. */
static size_t select_block(const struct kb_hashspec *s, const struct block *bk,
			   const uint64_t *keys, size_t n, unsigned bits,
			   unsigned lb, uint32_t r, uint32_t *restrict sel)
{
	unsigned shift = 64 - bits;
	uint32_t mask = (uint32_t)((UINT64_C(1) << lb) - 1);
	size_t i, m = 0;

#define LOOP SELECT_LOOP
#include "engine_block.h"
#undef LOOP
	return m;
}

/* This thread's share of the keys, into its private tables. */
static int count_private(struct engine *e, unsigned t, uint64_t *keys)
{
	struct kb_keystream ks = *e->ks;
	uint64_t total = ks.p.count, lo = total / e->threads * t;
	uint64_t hi = t + 1 == e->threads ? total : total / e->threads * (t + 1);
	uint64_t pending = 0;
	struct block bk;
	size_t n, j;

	kb_keystream_seek(&ks, lo, hi);
	while ((n = next_block(&ks, keys, &bk)) > 0) {
		for (j = 0; j < e->nspecs; j++) {
			const struct kb_hashspec *sp = &e->specs[j];
			uint64_t *counts = e->counts + (j << e->bits);

			if (e->path == KB_PATH_LANES) {
				uint32_t *sub = (uint32_t *)e->tables[t] + (j << (e->bits + 2));

				lanes_block(sp, &bk, keys, n, e->bits, sub);
				if (pending + n >= LANE_FLUSH)
					lanes_flush(counts, sub, e->bits);
			} else if (e->path == KB_PATH_DIRECT) {
				count64_block(sp, &bk, keys, n, e->bits, counts);
			} else {
				count8_block(sp, &bk, keys, n, e->bits,
					     (uint8_t *)e->tables[t] + (j << e->bits),
					     counts);
			}
		}
		pending = pending + n >= LANE_FLUSH ? 0 : pending + n;
		kb_progress_add(e->progress, (uint64_t)n * e->nspecs);
	}
	return 0;
}

/* Add every thread's private tables into the result, this thread taking
 * one slice of the buckets (the others' slices are theirs: no locks). */
static void merge_private(struct engine *e, unsigned t)
{
	uint64_t m = UINT64_C(1) << e->bits, all = e->nspecs * m;
	uint64_t lo = all / e->threads * t;
	uint64_t hi = t + 1 == e->threads ? all : all / e->threads * (t + 1), i;
	unsigned u;

	for (u = 0; u < e->threads; u++) {
		if (e->path == KB_PATH_LANES) {
			const uint32_t *sub = e->tables[u];

			for (i = lo; i < hi; i++) {
				/* spec i >> bits: four tables of m, one a lane */
				const uint32_t *l = sub + ((i >> e->bits) << (e->bits + 2)) +
						    (i & (m - 1));

				e->counts[i] += (uint64_t)l[0] + l[m] + l[2 * m] + l[3 * m];
			}
		} else {
			const uint8_t *c = e->tables[u];

			for (i = lo; i < hi; i++)
				e->counts[i] += c[i];
		}
	}
}

/*
 * The ranges this thread owns (t, t + threads, ...): for each, every key
 * is hashed and those whose index falls in the range are counted in 8-bit
 * counters small enough to stay in cache; a wrap adds 256 to the result,
 * which only this thread writes in its ranges.
 */
#define RANGE_AHEAD 16

static int count_ranges(struct engine *e, unsigned t, uint64_t *keys)
{
	unsigned rb = (unsigned)__builtin_ctz(e->ranges), lb = e->bits - rb;
	uint64_t rsize = UINT64_C(1) << lb, i;
	uint8_t *c8 = e->tables[t];
	uint32_t sel[PROGRESSION_BLOCK + RANGE_AHEAD] = { 0 }; /* the tail: prefetched, never counted */
	struct block bk;
	unsigned r;
	size_t n, j;

	for (r = t; r < e->ranges; r += e->threads) {
		struct kb_keystream ks = *e->ks;

		memset(c8, 0, e->nspecs * rsize);
		kb_keystream_seek(&ks, 0, ks.p.count);
		while ((n = next_block(&ks, keys, &bk)) > 0) {
			for (j = 0; j < e->nspecs; j++) {
				uint64_t *g = e->counts + (j << e->bits) + r * rsize;
				uint8_t *c = c8 + j * rsize;
				size_t k, m = select_block(&e->specs[j], &bk, keys, n,
							   e->bits, lb, r, sel);

				for (k = 0; k < m; k++) {
					/* a dozen L3 misses in flight, not a few */
					__builtin_prefetch(&c[sel[k + RANGE_AHEAD]], 1, 3);
					if (++c[sel[k]] == 0)
						g[sel[k]] += 256; /* only this thread writes g */
				}
			}
			kb_progress_add(e->progress, (uint64_t)n * e->nspecs);
		}
		for (j = 0; j < e->nspecs; j++) {
			uint64_t *g = e->counts + (j << e->bits) + r * rsize;

			for (i = 0; i < rsize; i++)
				g[i] += c8[j * rsize + i];
		}
	}
	return 0;
}

/* This thread's slice of the buckets, of every table, by floor sums. */
static void count_floorsum(struct engine *e, unsigned t)
{
	struct kb_keystream ks = *e->ks;
	uint64_t m = UINT64_C(1) << e->bits, first, stride;
	uint64_t lo = m / e->threads * t;
	uint64_t hi = t + 1 == e->threads ? m : m / e->threads * (t + 1);
	size_t j;

	kb_keystream_seek(&ks, 0, ks.p.count);
	kb_keystream_progression(&ks, &first, &stride);
	for (j = 0; j < e->nspecs; j++)
		kb_count_progression(&e->specs[j], e->bits, first, stride,
				     ks.p.count, lo, hi, e->counts + (j << e->bits));
	/* the hashes it stands for: this thread's share of all of them */
	kb_progress_add(e->progress, ks.p.count * e->nspecs / e->threads * (t + 1) +
				     (t + 1 == e->threads ? ks.p.count * e->nspecs % e->threads : 0) -
				     ks.p.count * e->nspecs / e->threads * t);
}

void *kb_path_count(void *arg)
{
	struct kb_worker *wk = arg;
	struct engine *e = wk->e;
	uint64_t *keys;

	if (e->path == KB_PATH_FLOORSUM) {
		count_floorsum(e, wk->t);
		return NULL;
	}
	keys = malloc(ARRAY_BLOCK * sizeof(uint64_t));
	if (!keys)
		wk->failed = 1;
	else if (e->path == KB_PATH_RANGES)
		count_ranges(e, wk->t, keys);
	else
		count_private(e, wk->t, keys);
	free(keys);
	return NULL;
}

void *kb_path_merge(void *arg)
{
	struct kb_worker *wk = arg;

	merge_private(wk->e, wk->t);
	return NULL;
}
