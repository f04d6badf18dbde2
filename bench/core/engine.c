/* SPDX-License-Identifier: MIT */
#include "engine.h"

#include <pthread.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "floorsum.h"
#include "keysets.h"
#include "progress.h"

#define BLOCK 1024

/* Generation K's products, numbered after lkh_table.h's. */
enum { KB_PRODUCT_K32 = LKH_PRODUCT_COUNT, KB_PRODUCT_K64 };

/* The product a cell's words come from (lkh_table.h, or K's). */
static int product_of(const struct kb_hashspec *s)
{
	if (s->k_width)
		return s->k_width == 32 ? KB_PRODUCT_K32 : KB_PRODUCT_K64;
	return lkh_cell_product(s->func, s->gen, s->word);
}

int kb_hashspec_gen(const struct kb_hashspec *s)
{
	return s->k_width ? KB_GEN_K : (int)s->gen;
}

void kb_hashspec_set_gen(struct kb_hashspec *s, int g, uint64_t k,
			 unsigned k_width)
{
	if (g == KB_GEN_K) {
		s->gen = LKH_GEN_NEW; /* unused; a valid value all the same */
		s->k = k;
		s->k_width = k_width;
	} else {
		s->gen = (lkh_gen)g;
		s->k = 0;
		s->k_width = 0;
	}
}

void kb_hashspec_make(struct kb_hashspec *s, lkh_func func, unsigned word,
		      const struct kb_gen *g)
{
	memset(s, 0, sizeof(*s));
	s->func = func;
	s->word = word;
	kb_hashspec_set_gen(s, g->gen, g->k,
			    g->width ? g->width
				     : kb_multiplier_width(g->k, kb_hashspec_input_bits(s)));
}

void kb_hashspec_kb_gen(const struct kb_hashspec *s, struct kb_gen *g)
{
	g->gen = kb_hashspec_gen(s);
	g->k = s->k;
	g->width = s->k_width;
}

uint64_t kb_gen_golden_ratio_prime(const struct kb_gen *g, unsigned word)
{
	if (g->gen == KB_GEN_K)
		return word == 32 ? (uint32_t)g->k : g->k;
	return lkh_golden_ratio_prime((lkh_gen)g->gen, word);
}

const char *kb_gen_name(int g)
{
	return g == KB_GEN_K ? "K" : g >= 0 ? lkh_gen_name((lkh_gen)g) : NULL;
}

const char *kb_hashspec_gen_name(const struct kb_hashspec *s)
{
	return kb_gen_name(kb_hashspec_gen(s));
}

int kb_gen_from_name(const char *name, int *g)
{
	lkh_gen lg;

	if (!strcmp(name, "K")) {
		*g = KB_GEN_K;
		return 0;
	}
	if (lkh_gen_from_name(name, &lg) != LKH_OK)
		return -1;
	*g = (int)lg;
	return 0;
}

unsigned kb_multiplier_width(uint64_t k, unsigned input_bits)
{
	return k > UINT32_MAX || input_bits > 32 ? 64 : 32;
}

int kb_multiplier_check(uint64_t k, unsigned width, char *err, size_t errlen)
{
	if (width != 32 && width != 64) {
		snprintf(err, errlen, "a multiplier's width must be 32 or 64");
		return -1;
	}
	if (!(k & 1)) {
		snprintf(err, errlen, "multiplier 0x%llx is even: not invertible mod 2^%u, so keys 2^%u apart always share a bucket (give an odd one)",
			 (unsigned long long)k, width, width - 1);
		return -1;
	}
	if (width == 32 && k > UINT32_MAX) {
		snprintf(err, errlen, "multiplier 0x%llx does not fit 32 bits",
			 (unsigned long long)k);
		return -1;
	}
	return 0;
}

unsigned kb_hashspec_single_multiply(const struct kb_hashspec *s, uint64_t *k)
{
	int p = product_of(s);
	lkh_arith a;

	if (s->k_width) {
		*k = s->k;
		return s->k_width;
	}
	a = lkh_product_arith(p, k);
	/* the old product by shifts and adds is the same multiply */
	if (a == LKH_ARITH_MUL64 || a == LKH_ARITH_CHAIN64)
		return lkh_product_width(p) == 64 ? 64 : 0;
	if (a == LKH_ARITH_MUL32)
		return lkh_product_width(p) == 32 ? 32 : 0;
	return 0;
}

unsigned kb_hashspec_input_bits(const struct kb_hashspec *s)
{
	return lkh_input_bits(s->func, s->word);
}

int kb_hashspec_check(const struct kb_hashspec *s, unsigned bits, char *err,
		      size_t errlen)
{
	/* a function that takes bits in hash.h takes them under K too */
	unsigned max = lkh_bits_max(s->func, s->k_width ? LKH_GEN_NEW : s->gen, s->word);

	if (s->word != 32 && s->word != 64) {
		snprintf(err, errlen, "word size must be 32 or 64");
		return -1;
	}
	if (max == 0) {
		snprintf(err, errlen, "%s takes no bits: it is not a bucket index",
			 lkh_func_name(s->func) ? lkh_func_name(s->func) : "?");
		return -1;
	}
	if (s->k_width) {
		if (kb_multiplier_check(s->k, s->k_width, err, errlen) < 0)
			return -1;
		/* a 32-bit product would drop the key's high half unseen */
		if (kb_hashspec_input_bits(s) > s->k_width) {
			snprintf(err, errlen, "%s on %u-bit takes 64-bit keys: a 32-bit multiplier would drop their high half (give --width 64)",
				 lkh_func_name(s->func), s->word);
			return -1;
		}
		max = s->k_width;
	}
	if (bits < 1 || bits > max) {
		snprintf(err, errlen, "bits %u out of range for %s %s on %u-bit: 1..%u",
			 bits, kb_gen_name(kb_hashspec_gen(s)), lkh_func_name(s->func),
			 s->word, max);
		return -1;
	}
	return 0;
}

size_t kb_first_misfit(const uint64_t *keys, size_t n, unsigned input_bits)
{
	size_t i;

	if (input_bits >= 64)
		return n;
	for (i = 0; i < n; i++)
		if (keys[i] > UINT32_MAX)
			return i;
	return n;
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;

	return p < q ? -1 : p > q;
}

void kb_sort_u64(uint64_t *v, size_t n)
{
	if (n > 1) /* and v may be NULL when there is nothing to sort */
		qsort(v, n, sizeof(*v), u64_cmp);
}

size_t kb_distinct_keys(uint64_t *keys, size_t n)
{
	size_t i, out = 0;

	kb_sort_u64(keys, n);
	for (i = 0; i < n; i++)
		if (out == 0 || keys[out - 1] != keys[i])
			keys[out++] = keys[i];
	return out;
}

/*
 * One loop per product, so the choice is made once per block, not per key.
 * Each function defines LOOP(expr) before EACH_PRODUCT: expr is the top-
 * aligned word for key k, and LOOP computes it for each key, from an array
 * or walking an arithmetic progression in a register (no key array at all).
 */
#define PRODUCT_CASE(id, width, fn, arith, multiplier)               \
	case id:                                                     \
		LOOP((uint64_t)fn(k) << (64 - (width)));             \
		break;
#define EACH_PRODUCT(s)                                              \
	switch (product_of(s)) {                                     \
		LKH_PRODUCT_TABLE(PRODUCT_CASE)                      \
	case KB_PRODUCT_K32: {                                       \
		const uint32_t kmul_ = (uint32_t)(s)->k;             \
		LOOP((uint64_t)((uint32_t)k * kmul_) << 32);         \
		break;                                               \
	}                                                            \
	case KB_PRODUCT_K64: {                                       \
		const uint64_t kmul_ = (s)->k;                       \
		LOOP(k * kmul_);                                     \
		break;                                               \
	}                                                            \
	default:                                                     \
		break;                                               \
	}

#define ARRAY_LOOP(expr)                                 \
	do {                                             \
		for (i = 0; i < n; i++) {                \
			uint64_t k = keys[i];            \
			out[i] = (expr);                 \
		}                                        \
	} while (0)

#define PROGRESSION_LOOP(expr)                                   \
	do {                                                     \
		uint64_t k = first;                              \
		for (i = 0; i < n; i++, k += stride)             \
			out[i] = (expr);                         \
	} while (0)

void kb_full_words(const struct kb_hashspec *s, const uint64_t *keys,
		   size_t n, uint64_t *out)
{
	size_t i;

#define LOOP ARRAY_LOOP
	EACH_PRODUCT(s)
#undef LOOP
}

void kb_full_words_progression(const struct kb_hashspec *s, uint64_t first,
			       uint64_t stride, size_t n, uint64_t *out)
{
	size_t i;

#define LOOP PROGRESSION_LOOP
	EACH_PRODUCT(s)
#undef LOOP
}

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


void kb_count_block(const struct kb_hashspec *s, unsigned bits,
		    const uint64_t *keys, size_t n, uint64_t *counts)
{
	uint64_t words[BLOCK];
	unsigned shift = 64 - bits;

	while (n > 0) {
		size_t m = n < BLOCK ? n : BLOCK, i;

		kb_full_words(s, keys, m, words);
		for (i = 0; i < m; i++)
			counts[words[i] >> shift]++;
		keys += m;
		n -= m;
	}
}

void kb_fold(uint64_t *counts, unsigned bits)
{
	uint64_t i, half = UINT64_C(1) << (bits - 1);

	for (i = 0; i < half; i++)
		counts[i] = counts[2 * i] + counts[2 * i + 1];
}

/* ---- the fast engine ---------------------------------------------------- */

/* Keys a block: an array of them stays in L1 beside a small table; a
 * progression has no array, and longer blocks cost less per key (4096
 * against 1024: 6-12 % faster lanes at 2^11, measured). */
#define ARRAY_BLOCK 1024
#define PROGRESSION_BLOCK 4096
#define LANE_FLUSH (UINT64_C(1) << 30) /* u32 lanes never overflow */

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

static uint64_t cache_set[3]; /* written once at start-up, then only read */

void kb_set_cache_bytes(const uint64_t bytes[3])
{
	memcpy(cache_set, bytes, sizeof(cache_set));
}

uint64_t kb_libc_cache_bytes(unsigned level)
{
	long v = -1;

#ifdef _SC_LEVEL1_DCACHE_SIZE
	if (level == 1)
		v = sysconf(_SC_LEVEL1_DCACHE_SIZE);
	else if (level == 2)
		v = sysconf(_SC_LEVEL2_CACHE_SIZE);
	else if (level == 3)
		v = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
	return v > 0 ? (uint64_t)v : 0;
}

uint64_t kb_cache_bytes_from(unsigned level, enum kb_cache_source *src)
{
	uint64_t v;
	enum kb_cache_source dummy;

	if (!src)
		src = &dummy;
	if (level >= 1 && level <= 3 && cache_set[level - 1]) {
		*src = KB_CACHE_SET;
		return cache_set[level - 1];
	}
	if ((v = kb_libc_cache_bytes(level)) > 0) {
		*src = KB_CACHE_LIBC;
		return v;
	}
	/* virtual machines and some libcs say 0: assume a common size */
	*src = KB_CACHE_TYPICAL;
	return level == 1 ? 32768 : level == 2 ? 1 << 20 : 8 << 20;
}

uint64_t kb_cache_bytes(unsigned level)
{
	return kb_cache_bytes_from(level, NULL);
}

static uint64_t table_bytes(size_t nspecs, unsigned bits, unsigned per_bucket)
{
	return (uint64_t)nspecs * per_bucket << bits;
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
	if (table_bytes(nspecs, bits, 16) <= kb_cache_bytes(1))
		return KB_PATH_LANES;
	if (threads * table_bytes(nspecs, bits, 1) <= kb_cache_bytes(3) / 2)
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
	       (uint64_t)threads * (table_bytes(nspecs, bits, 1) / r) > budget)
		r *= 2;
	return r;
}

struct engine {
	const struct kb_hashspec *specs;
	size_t nspecs;
	unsigned bits, threads, ranges;
	enum kb_engine_path path;
	const struct kb_keystream *ks;
	uint64_t *counts;
	struct kb_progress *progress;
	void **tables;  /* each thread's private tables, for the merge */
};

struct worker {
	struct engine *e;
	unsigned t;
	int failed, started;
	pthread_t thread;
};

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

static void *count_work(void *arg)
{
	struct worker *wk = arg;
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

static void *merge_work(void *arg)
{
	struct worker *wk = arg;

	merge_private(wk->e, wk->t);
	return NULL;
}

/*
 * fn for every worker, each on a thread of its own (the caller's is the
 * first); a thread that cannot start has its share done by the caller
 * afterwards: slower, never wrong.
 */
static void run_workers(struct worker *wk, unsigned n, void *(*fn)(void *))
{
	unsigned t;

	for (t = 1; t < n; t++)
		wk[t].started = pthread_create(&wk[t].thread, NULL, fn, &wk[t]) == 0;
	fn(&wk[0]);
	for (t = 1; t < n; t++) {
		if (wk[t].started)
			pthread_join(wk[t].thread, NULL);
		else
			fn(&wk[t]);
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

unsigned kb_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

/*
 * A zeroed table of bytes; own_region: on a 2 MiB boundary of its own
 * whatever its size.  Past 2 MiB tables ask for huge pages, since a
 * counter a key at random in megabytes of table otherwise misses the TLB
 * on most keys.  Threads' private tables each get a region of their own:
 * measured on this VM (bench/RESULTS.md), two threads counting into
 * tables of 64 KiB to 1 MiB that share a 2 MiB stretch of addresses ran
 * at 0.2-0.5x of the same tables 2 MiB apart, though no cache line is
 * shared.
 */
static void *table_alloc(uint64_t bytes, int own_region)
{
	const size_t huge = (size_t)2 << 20;
	uint64_t span = (bytes + huge - 1) & ~(uint64_t)(huge - 1);
	void *p;

	if (bytes < huge && !own_region)
		return calloc(1, (size_t)bytes);
	if (span != (size_t)span || posix_memalign(&p, huge, (size_t)span) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	if (bytes >= huge)
		madvise(p, (size_t)span, MADV_HUGEPAGE); /* advice: fine if refused */
#endif
	memset(p, 0, (size_t)bytes);
	return p;
}

void *kb_table_alloc(uint64_t bytes)
{
	return table_alloc(bytes, 0);
}

/* Each thread's tables. */
static int alloc_tables(struct engine *e)
{
	uint64_t bytes = e->path == KB_PATH_LANES   ? table_bytes(e->nspecs, e->bits, 16)
			 : e->path == KB_PATH_PRIVATE ? table_bytes(e->nspecs, e->bits, 1)
			 : e->path == KB_PATH_RANGES  ? table_bytes(e->nspecs, e->bits, 1) / e->ranges
						      : 0; /* floor sums, direct: the result */
	unsigned t;

	if (bytes == 0)
		return 0;

	e->tables = calloc(e->threads, sizeof(void *));
	if (!e->tables)
		return -1;
	for (t = 0; t < e->threads; t++)
		if (!(e->tables[t] = table_alloc(bytes, e->threads > 1)))
			return -1;
	return 0;
}

static void free_tables(struct engine *e)
{
	unsigned t;

	for (t = 0; e->tables && t < e->threads; t++)
		free(e->tables[t]);
	free(e->tables);
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

int kb_count_parallel(const struct kb_hashspec *specs, size_t nspecs,
		      unsigned bits, const struct kb_keystream *ks,
		      const struct kb_engine_opts *o, uint64_t *counts,
		      char *err, size_t errlen)
{
	struct kb_engine_plan plan;
	struct engine e;
	struct worker *wk = NULL;
	unsigned t;
	int rc = 0;

	if (kb_engine_plan(specs, nspecs, bits, ks, o, &plan, err, errlen) < 0)
		return -1;
	memset(&e, 0, sizeof(e));
	e.specs = specs;
	e.nspecs = nspecs;
	e.bits = bits;
	e.ks = ks;
	e.counts = counts;
	e.progress = o ? o->progress : NULL;
	e.path = plan.path;
	e.threads = plan.threads;
	e.ranges = plan.ranges;
	if (e.path == KB_PATH_RANGES)
		kb_progress_expect(e.progress, ks->p.count * nspecs *
						       (e.ranges - 1)); /* re-hashing */
	if (alloc_tables(&e) < 0 || !(wk = calloc(e.threads, sizeof(*wk)))) {
		free_tables(&e);
		snprintf(err, errlen, "out of memory for %u threads' tables (try --threads 1)",
			 e.threads);
		return -1;
	}
	for (t = 0; t < e.threads; t++) {
		wk[t].e = &e;
		wk[t].t = t;
	}
	run_workers(wk, e.threads, count_work);
	for (t = 0; t < e.threads; t++)
		if (wk[t].failed) {
			snprintf(err, errlen, "out of memory while counting");
			rc = -1;
		}
	if (rc == 0 && (e.path == KB_PATH_LANES || e.path == KB_PATH_PRIVATE))
		run_workers(wk, e.threads, merge_work);
	free_tables(&e);
	free(wk);
	return rc;
}

int kb_open_counted(struct kb_keystream *ks, int keyset,
		    const struct kb_keyset_params *p, unsigned bits,
		    uint64_t **counts, char *err, size_t errlen)
{
	if (kb_keystream_open(ks, keyset, p, err, errlen) < 0)
		return -1;
	*counts = kb_table_alloc((uint64_t)sizeof(uint64_t) << bits); /* no size_t wrap on 32-bit */
	if (!*counts) {
		kb_keystream_close(ks);
		snprintf(err, errlen, "out of memory for 2^%u buckets", bits);
		return -1;
	}
	return 0;
}

int kb_count_keyset(const struct kb_hashspec *spec, unsigned bits, int keyset,
		    const struct kb_keyset_params *p,
		    const struct kb_engine_opts *o, uint64_t **counts,
		    char *err, size_t errlen)
{
	struct kb_keyset_params kp = *p;
	struct kb_keystream ks;
	int rc;

	if (kb_hashspec_check(spec, bits, err, errlen) < 0)
		return -1;
	kp.word = spec->word;
	kp.input_bits = kb_hashspec_input_bits(spec);
	kp.target_func = spec->func;
	kp.target_gen = spec->gen;
	kp.target_k = spec->k;
	kp.target_k_width = spec->k_width;
	kp.target_bits = bits;
	if (kb_open_counted(&ks, keyset, &kp, bits, counts, err, errlen) < 0)
		return -1;
	rc = kb_count_parallel(spec, 1, bits, &ks, o, *counts, err, errlen);
	kb_keystream_close(&ks);
	if (rc < 0) {
		free(*counts);
		*counts = NULL;
	}
	return rc;
}
