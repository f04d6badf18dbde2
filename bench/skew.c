/* SPDX-License-Identifier: MIT */
#include "skew.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keysets.h"

#define BLOCK 1024

/* The distinct words behind the 24 (function, generation, word) cells. */
enum word_kernel {
	W_OLD32,
	W_POSTED32,
	W_NEW32,
	W_OLD64_MUL,
	W_OLD64_CHAIN,
	W_GR64,
	W_POSTED64_ON32,
	W_NEW64_ON32
};

static enum word_kernel kernel_of(const struct kb_hashspec *s)
{
	lkh_func f = s->func;

	if (f == LKH_FUNC_HASH_LONG || f == LKH_FUNC_HASH_PTR)
		f = s->word == 32 ? LKH_FUNC_HASH_32 : LKH_FUNC_HASH_64;
	if (f == LKH_FUNC_HASH_32)
		return s->gen == LKH_GEN_OLD      ? W_OLD32
		       : s->gen == LKH_GEN_POSTED ? W_POSTED32
						  : W_NEW32;
	if (s->gen == LKH_GEN_OLD)
		return s->word == 64 ? W_OLD64_MUL : W_OLD64_CHAIN;
	if (s->word == 64)
		return W_GR64;
	return s->gen == LKH_GEN_POSTED ? W_POSTED64_ON32 : W_NEW64_ON32;
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

/* One loop per kernel, so the choice is made once per block, not per key. */
#define WORD_LOOP(expr)                                  \
	do {                                             \
		for (i = 0; i < n; i++) {                \
			uint64_t k = keys[i];            \
			out[i] = (expr);                 \
		}                                        \
	} while (0)

void kb_full_words(const struct kb_hashspec *s, const uint64_t *keys,
		   size_t n, uint64_t *out)
{
	size_t i;

	switch (kernel_of(s)) {
	case W_OLD32:
		WORD_LOOP((uint64_t)lkh_old_hash32_raw((uint32_t)k) << 32);
		break;
	case W_POSTED32:
		WORD_LOOP((uint64_t)lkh_posted_hash32_raw((uint32_t)k) << 32);
		break;
	case W_NEW32:
		WORD_LOOP((uint64_t)lkh_new_hash32_raw((uint32_t)k) << 32);
		break;
	case W_OLD64_MUL:
		WORD_LOOP(lkh_old_hash64_raw(k));
		break;
	case W_OLD64_CHAIN:
		WORD_LOOP(lkh_old_hash64_raw_chain(k));
		break;
	case W_GR64:
		WORD_LOOP(lkh_new_hash64_raw_w64(k));
		break;
	case W_POSTED64_ON32:
		WORD_LOOP((uint64_t)lkh_posted_hash64_raw_w32(k) << 32);
		break;
	case W_NEW64_ON32:
		WORD_LOOP((uint64_t)lkh_new_hash64_raw_w32(k) << 32);
		break;
	}
}

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
#define PART_BLOCK 65536      /* bucket indices gathered per partitioning */
#define SUB_MAX_BITS 16       /* 4 x 2^16 x 4 bytes = 1 MiB of sub-counters */
#define PARTITION_MIN_BITS 19 /* 2^19 x 8 bytes = 4 MiB: beyond the caches */
#define PARTITION_BITS 8
#define SUB_FLUSH (UINT64_C(1) << 30) /* u32 lanes never overflow */

struct tally {
	unsigned bits;
	uint64_t *counts;  /* one table */
	uint32_t *sub;     /* small tables: 4 interleaved lanes */
	uint64_t pending;
	uint64_t *gather;  /* large tables: words waiting to be partitioned */
	size_t ngather;
};

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

static void count_small(struct tally *t, const uint64_t *w, size_t n)
{
	unsigned shift = 64 - t->bits;
	uint32_t *sub = t->sub;
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		sub[4 * (w[i] >> shift) + 0]++;
		sub[4 * (w[i + 1] >> shift) + 1]++;
		sub[4 * (w[i + 2] >> shift) + 2]++;
		sub[4 * (w[i + 3] >> shift) + 3]++;
	}
	for (; i < n; i++)
		sub[4 * (w[i] >> shift)]++;
	t->pending += n;
	if (t->pending >= SUB_FLUSH)
		sub_flush(t);
}

/* Bucket indices grouped by their top PARTITION_BITS, then counted group
 * by group, so each group's increments stay within 1/256 of the table. */
static void count_partitioned(struct tally *t, const uint64_t *w, size_t n,
			      uint32_t *scratch)
{
	size_t start[(1 << PARTITION_BITS) + 1] = { 0 }, pos[1 << PARTITION_BITS];
	unsigned shift = 64 - t->bits, pshift = 64 - PARTITION_BITS;
	size_t i, p;

	for (i = 0; i < n; i++)
		start[(w[i] >> pshift) + 1]++;
	for (p = 1; p <= (1 << PARTITION_BITS); p++)
		start[p] += start[p - 1];
	memcpy(pos, start, sizeof(pos));
	for (i = 0; i < n; i++)
		scratch[pos[w[i] >> pshift]++] = (uint32_t)(w[i] >> shift);
	for (i = 0; i < n; i++)
		t->counts[scratch[i]]++;
}

/* Gather small blocks until a partitioning pass is worth its overhead. */
static void count_large(struct tally *t, const uint64_t *w, size_t n,
			uint32_t *scratch, int flush)
{
	memcpy(t->gather + t->ngather, w, n * sizeof(*w));
	t->ngather += n;
	if (t->ngather + FAST_BLOCK > PART_BLOCK || (flush && t->ngather)) {
		count_partitioned(t, t->gather, t->ngather, scratch);
		t->ngather = 0;
	}
}

static void count_direct(struct tally *t, const uint64_t *w, size_t n)
{
	unsigned shift = 64 - t->bits;
	size_t i;

	for (i = 0; i < n; i++)
		t->counts[w[i] >> shift]++;
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
	uint64_t *words = malloc(FAST_BLOCK * sizeof(uint64_t));
	uint32_t *scratch = NULL;
	struct tally *tl = calloc(wk->nspecs, sizeof(*tl));
	size_t n, j;
	int small = wk->bits <= SUB_MAX_BITS;
	int part = wk->bits >= PARTITION_MIN_BITS && wk->bits <= 32;

	if (part)
		scratch = malloc(PART_BLOCK * sizeof(uint32_t));
	if (!keys || !words || !tl || (part && !scratch))
		goto fail;
	for (j = 0; j < wk->nspecs; j++) {
		tl[j].bits = wk->bits;
		tl[j].counts = wk->counts + (j << wk->bits);
		if (small &&
		    !(tl[j].sub = calloc((size_t)4 << wk->bits, sizeof(uint32_t))))
			goto fail;
		if (part &&
		    !(tl[j].gather = malloc(PART_BLOCK * sizeof(uint64_t))))
			goto fail;
	}
	while ((n = kb_keystream_next(&wk->ks, keys, FAST_BLOCK)) > 0) {
		for (j = 0; j < wk->nspecs; j++) {
			kb_full_words(&wk->specs[j], keys, n, words);
			if (small)
				count_small(&tl[j], words, n);
			else if (part)
				count_large(&tl[j], words, n, scratch, 0);
			else
				count_direct(&tl[j], words, n);
		}
	}
	for (j = 0; j < wk->nspecs; j++) {
		if (small)
			sub_flush(&tl[j]);
		if (part)
			count_large(&tl[j], words, 0, scratch, 1);
	}
	goto out;
fail:
	wk->failed = 1;
out:
	for (j = 0; tl && j < wk->nspecs; j++) {
		free(tl[j].sub);
		free(tl[j].gather);
	}
	free(tl);
	free(keys);
	free(words);
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
