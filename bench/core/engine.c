/* SPDX-License-Identifier: MIT */
#include "engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keysets.h"

#define BLOCK 1024

/* The product a cell's words come from (lkh_table.h). */
static int product_of(const struct kb_hashspec *s)
{
	return lkh_cell_product(s->func, s->gen, s->word);
}

unsigned kb_hashspec_input_bits(const struct kb_hashspec *s)
{
	return lkh_input_bits(s->func, s->word);
}

int kb_hashspec_check(const struct kb_hashspec *s, unsigned bits, char *err,
		      size_t errlen)
{
	unsigned max = lkh_bits_max(s->func, s->gen, s->word);

	if (s->word != 32 && s->word != 64) {
		snprintf(err, errlen, "word size must be 32 or 64");
		return -1;
	}
	if (max == 0) {
		snprintf(err, errlen, "%s takes no bits: it is not a bucket index",
			 lkh_func_name(s->func) ? lkh_func_name(s->func) : "?");
		return -1;
	}
	if (bits < 1 || bits > max) {
		snprintf(err, errlen, "bits %u out of range for %s %s on %u-bit: 1..%u",
			 bits, lkh_gen_name(s->gen), lkh_func_name(s->func),
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
 * Hash and count in one loop, the word never leaving a register: through
 * four interleaved sub-histograms (lanes) so that keys landing in one
 * bucket one after another do not each wait for the previous store, or
 * straight into the table.  NEXT_KEY steps an array or a progression.
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
			sub[4 * (w0 >> shift)]++;                           \
			sub[4 * (w1 >> shift) + 1]++;                       \
			sub[4 * (w2 >> shift) + 2]++;                       \
			sub[4 * (w3 >> shift) + 3]++;                       \
		}                                                           \
		for (; i < n; i++) {                                        \
			uint64_t k = KEY(i);                                \
			sub[4 * ((expr) >> shift)]++;                       \
		}                                                           \
	} while (0)

#define DIRECT_LOOP(expr)                                                   \
	do {                                                                \
		for (i = 0; i < n; i++) {                                   \
			uint64_t k = KEY(i);                                \
			counts[(expr) >> shift]++;                          \
		}                                                           \
	} while (0)

#define GATHER_LOOP(expr)                                                   \
	do {                                                                \
		for (i = 0; i < n; i++) {                                   \
			uint64_t k = KEY(i);                                \
			out[i] = (uint32_t)((expr) >> shift);               \
		}                                                           \
	} while (0)

#define KEY(i) (first + (uint64_t)(i) * stride)
static void gather_progression(const struct kb_hashspec *s, uint64_t first,
			       uint64_t stride, size_t n, unsigned bits,
			       uint32_t *out)
{
	unsigned shift = 64 - bits;
	size_t i;

#define LOOP GATHER_LOOP
	EACH_PRODUCT(s)
#undef LOOP
}

static void lanes_progression(const struct kb_hashspec *s, uint64_t first,
			      uint64_t stride, size_t n, unsigned bits,
			      uint32_t *sub)
{
	unsigned shift = 64 - bits;
	size_t i;

#define LOOP LANES_LOOP
	EACH_PRODUCT(s)
#undef LOOP
}

static void direct_progression(const struct kb_hashspec *s, uint64_t first,
			       uint64_t stride, size_t n, unsigned bits,
			       uint64_t *counts)
{
	unsigned shift = 64 - bits;
	size_t i;

#define LOOP DIRECT_LOOP
	EACH_PRODUCT(s)
#undef LOOP
}
#undef KEY

#define KEY(i) (keys[i])
static void gather_array(const struct kb_hashspec *s, const uint64_t *keys,
			 size_t n, unsigned bits, uint32_t *out)
{
	unsigned shift = 64 - bits;
	size_t i;

#define LOOP GATHER_LOOP
	EACH_PRODUCT(s)
#undef LOOP
}

static void lanes_array(const struct kb_hashspec *s, const uint64_t *keys,
			size_t n, unsigned bits, uint32_t *sub)
{
	unsigned shift = 64 - bits;
	size_t i;

#define LOOP LANES_LOOP
	EACH_PRODUCT(s)
#undef LOOP
}

static void direct_array(const struct kb_hashspec *s, const uint64_t *keys,
			 size_t n, unsigned bits, uint64_t *counts)
{
	unsigned shift = 64 - bits;
	size_t i;

#define LOOP DIRECT_LOOP
	EACH_PRODUCT(s)
#undef LOOP
}
#undef KEY

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

#define FAST_BLOCK 1024       /* keys and words stay in L1 */
#define SUB_MAX_BITS 12       /* 4 lanes x 2^12 x 4 bytes = 64 KiB, near L1 */
#define NARROW_MIN_BITS 17    /* past L2 (2^17 x 8 bytes): 16-bit counters, prefetched */
#define SUB_FLUSH (UINT64_C(1) << 30) /* u32 lanes never overflow */

struct tally {
	unsigned bits;
	uint64_t *counts;  /* one table */
	uint32_t *sub;     /* small tables: 4 interleaved lanes */
	uint64_t pending;
	uint16_t *narrow;  /* large tables: 16-bit counters, a quarter of the
			    * memory of u64 ones; each wrap adds 2^16 to counts */
};

/* Add a large table's 16-bit remainders into the u64 result. */
static void narrow_flush(struct tally *t)
{
	uint64_t i, m = UINT64_C(1) << t->bits;

	for (i = 0; i < m; i++)
		t->counts[i] += t->narrow[i];
}

static void sub_flush(struct tally *t)
{
	uint64_t i, m = UINT64_C(1) << t->bits;

	for (i = 0; i < m; i++) {
		uint32_t *l = &t->sub[4 * i];

		t->counts[i] += (uint64_t)l[0] + l[1] + l[2] + l[3];
	}
	memset(t->sub, 0, (size_t)m * 4 * sizeof(uint32_t));
	t->pending = 0;
}

/*
 * Tables past the caches: every increment would wait ~100 ns for memory.
 * Computing a block of bucket indices first lets each increment prefetch
 * the counter it will need PREFETCH_AHEAD keys later, so a dozen misses
 * are in flight at once instead of one.
 */
#define PREFETCH_AHEAD 48

static inline void count_narrow(struct tally *t, uint32_t i)
{
	if (++t->narrow[i] == 0) /* wrapped: rare unless the cell is broken */
		t->counts[i] += 65536;
}

static void count_prefetched(struct tally *t, const uint32_t *idx, size_t n)
{
	size_t i;

	for (i = 0; i + PREFETCH_AHEAD < n; i++) {
		__builtin_prefetch(&t->narrow[idx[i + PREFETCH_AHEAD]], 1, 0);
		count_narrow(t, idx[i]);
	}
	for (; i < n; i++)
		count_narrow(t, idx[i]);
}

struct worker {
	const struct kb_hashspec *specs;
	size_t nspecs;
	unsigned bits;
	struct kb_keystream ks;
	uint64_t *counts;   /* nspecs tables: the result's, or private */
	int failed;
	pthread_t thread;
};

static void *work(void *arg)
{
	struct worker *wk = arg;
	uint64_t *keys = malloc(FAST_BLOCK * sizeof(uint64_t));
	uint32_t *scratch = NULL;
	struct tally *tl = calloc(wk->nspecs, sizeof(*tl));
	size_t n, j;
	int small = wk->bits <= SUB_MAX_BITS;
	int narrow = wk->bits >= NARROW_MIN_BITS && wk->bits <= 32;

	if (narrow)
		scratch = malloc(FAST_BLOCK * sizeof(uint32_t));
	if (!keys || !tl || (narrow && !scratch))
		goto fail;
	for (j = 0; j < wk->nspecs; j++) {
		tl[j].bits = wk->bits;
		tl[j].counts = wk->counts + (j << wk->bits);
		if (small &&
		    !(tl[j].sub = calloc((size_t)4 << wk->bits, sizeof(uint32_t))))
			goto fail;
		if (narrow &&
		    !(tl[j].narrow = calloc((size_t)1 << wk->bits, sizeof(uint16_t))))
			goto fail;
	}
	for (;;) {
		uint64_t first, stride;
		int progression = kb_keystream_progression(&wk->ks, &first, &stride);

		/* an arithmetic key set needs no key array: hash as it walks */
		n = progression ? kb_keystream_skip(&wk->ks, FAST_BLOCK)
				: kb_keystream_next(&wk->ks, keys, FAST_BLOCK);
		if (n == 0)
			break;
		for (j = 0; j < wk->nspecs; j++) {
			const struct kb_hashspec *sp = &wk->specs[j];
			struct tally *t = &tl[j];

			if (narrow) {
				/* bucket indices first, then prefetched counting */
				if (progression)
					gather_progression(sp, first, stride, n,
							   wk->bits, scratch);
				else
					gather_array(sp, keys, n, wk->bits, scratch);
				count_prefetched(t, scratch, n);
			} else if (small) {
				if (progression)
					lanes_progression(sp, first, stride, n,
							  wk->bits, t->sub);
				else
					lanes_array(sp, keys, n, wk->bits, t->sub);
				t->pending += n;
				if (t->pending >= SUB_FLUSH)
					sub_flush(t);
			} else if (progression) {
				direct_progression(sp, first, stride, n, wk->bits,
						   t->counts);
			} else {
				direct_array(sp, keys, n, wk->bits, t->counts);
			}
		}
	}
	for (j = 0; j < wk->nspecs; j++) {
		if (small)
			sub_flush(&tl[j]);
		if (narrow)
			narrow_flush(&tl[j]);
	}
	goto out;
fail:
	wk->failed = 1;
out:
	for (j = 0; tl && j < wk->nspecs; j++) {
		free(tl[j].sub);
		free(tl[j].narrow);
	}
	free(tl);
	free(keys);
	free(scratch);
	return NULL;
}

unsigned kb_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

int kb_count_parallel(const struct kb_hashspec *specs, size_t nspecs,
		      unsigned bits, const struct kb_keystream *ks,
		      unsigned threads, uint64_t *counts, char *err,
		      size_t errlen)
{
	struct worker *wk;
	uint64_t total = ks->p.count, per, i, m = UINT64_C(1) << bits;
	unsigned t, started = 0;
	int rc = 0;

	if (threads == 0)
		threads = kb_cpu_count();
	/* a thread per ~1M keys at most: below that, starting one costs more */
	if ((uint64_t)threads > total / (1u << 20) + 1)
		threads = (unsigned)(total / (1u << 20) + 1);
	wk = calloc(threads, sizeof(*wk));
	if (!wk) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	per = total / threads;
	for (t = 0; t < threads; t++) {
		wk[t].specs = specs;
		wk[t].nspecs = nspecs;
		wk[t].bits = bits;
		wk[t].ks = *ks;
		kb_keystream_seek(&wk[t].ks, t * per,
				  t + 1 == threads ? total : (t + 1) * per);
		/* thread 0 counts straight into the result */
		wk[t].counts = t == 0 ? counts
				      : calloc(nspecs << bits, sizeof(uint64_t));
		if (!wk[t].counts) {
			snprintf(err, errlen, "out of memory for %u threads' tables (try --threads 1)",
				 threads);
			rc = -1;
			break;
		}
	}
	for (t = 0; rc == 0 && t < threads; t++) {
		if (t > 0 && pthread_create(&wk[t].thread, NULL, work, &wk[t]) != 0) {
			snprintf(err, errlen, "cannot start a counting thread");
			rc = -1;
			break;
		}
		started = t + 1;
	}
	if (started > 0)
		work(&wk[0]);
	for (t = 1; t < started; t++)
		pthread_join(wk[t].thread, NULL);
	for (t = 0; t < started && rc == 0; t++)
		if (wk[t].failed) {
			snprintf(err, errlen, "out of memory while counting");
			rc = -1;
		}
	for (t = 1; t < threads; t++) {
		if (rc == 0 && wk[t].counts)
			for (i = 0; i < nspecs * m; i++)
				counts[i] += wk[t].counts[i];
		free(wk[t].counts);
	}
	free(wk);
	return rc;
}

int kb_count_keyset(const struct kb_hashspec *spec, unsigned bits, int keyset,
		    const struct kb_keyset_params *p, unsigned threads,
		    uint64_t **counts, char *err, size_t errlen)
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
	kp.target_bits = bits;
	if (kb_keystream_open(&ks, keyset, &kp, err, errlen) < 0)
		return -1;
	*counts = calloc((size_t)1 << bits, sizeof(uint64_t));
	if (!*counts) {
		kb_keystream_close(&ks);
		snprintf(err, errlen, "out of memory for 2^%u buckets", bits);
		return -1;
	}
	rc = kb_count_parallel(spec, 1, bits, &ks, threads, *counts, err, errlen);
	kb_keystream_close(&ks);
	if (rc < 0) {
		free(*counts);
		*counts = NULL;
	}
	return rc;
}
