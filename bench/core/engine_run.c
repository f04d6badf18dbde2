/* SPDX-License-Identifier: MIT */
/*
 * Running a plan: each thread's tables, the threads, the merge; and the
 * entry points that open a key set and count it.
 */
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine_paths.h"
#include "keysets.h"
#include "progress.h"

/*
 * fn for every worker, each on a thread of its own (the caller's is the
 * first); a thread that cannot start has its share done by the caller
 * afterwards: slower, never wrong.
 */
static void run_workers(struct kb_worker *wk, unsigned n, void *(*fn)(void *))
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

/* Each thread's tables. */
static int alloc_tables(struct engine *e)
{
	uint64_t bytes = kb_engine_thread_bytes(e->path, e->nspecs, e->bits, e->ranges);
	unsigned t;

	if (bytes == 0)
		return 0;

	e->tables = calloc(e->threads, sizeof(void *));
	if (!e->tables)
		return -1;
	for (t = 0; t < e->threads; t++)
		if (!(e->tables[t] = kb_table_alloc_region(bytes, e->threads > 1)))
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

int kb_count_parallel(const struct kb_hashspec *specs, size_t nspecs,
		      unsigned bits, const struct kb_keystream *ks,
		      const struct kb_engine_opts *o, uint64_t *counts,
		      char *err, size_t errlen)
{
	struct kb_engine_plan plan;
	struct engine e;
	struct kb_worker *wk = NULL;
	struct timespec t0, t1;
	unsigned t;
	int rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0); /* planning is part of the cost */
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
	run_workers(wk, e.threads, kb_path_count);
	for (t = 0; t < e.threads; t++)
		if (wk[t].failed) {
			snprintf(err, errlen, "out of memory while counting");
			rc = -1;
		}
	if (rc == 0 && (e.path == KB_PATH_LANES || e.path == KB_PATH_PRIVATE))
		run_workers(wk, e.threads, kb_path_merge);
	free_tables(&e);
	free(wk);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	plan.took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (o && o->ran)
		*o->ran = plan;
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

/* A key set's parameters for one cell: its word, argument and target. */
static void cell_params(const struct kb_hashspec *spec, unsigned bits,
			const struct kb_keyset_params *p, struct kb_keyset_params *kp)
{
	*kp = *p;
	kp->word = spec->word;
	kp->input_bits = kb_hashspec_input_bits(spec);
	kp->target_func = spec->func;
	kp->target_gen = spec->gen;
	kp->target_k = spec->k;
	kp->target_k_width = spec->k_width;
	kp->target_bits = bits;
}

int kb_keyset_seconds(const struct kb_hashspec *spec, unsigned bits, int keyset,
		      const struct kb_keyset_params *p, const struct kb_engine_opts *o,
		      double *seconds, char *err, size_t errlen)
{
	struct kb_keyset_params kp;
	struct kb_keystream ks;

	*seconds = (double)p->count * KB_NS_PER_HASH / 1e9;
	if (keyset >= 0 && keyset < KB_KS_COUNT && (kb_keysets[keyset].flags & KB_KS_HEAP))
		return 0;
	if (kb_hashspec_check(spec, bits, err, errlen) < 0)
		return -1;
	if (spec->user)
		return 0; /* a call per key, in a child process: the estimate above */
	cell_params(spec, bits, p, &kp);
	if (kb_keystream_open(&ks, keyset, &kp, err, errlen) < 0)
		return -1;
	*seconds = kb_engine_seconds(spec, 1, bits, &ks, o);
	kb_keystream_close(&ks);
	return 0;
}

/* Generation U over a key set: its keys read into memory first, for the
 * user's function runs elsewhere on an array of them. */
static int user_keyset(unsigned bits, int keyset, const struct kb_keyset_params *kp,
		       const struct kb_engine_opts *o, uint64_t **counts, char *err, size_t errlen)
{
	uint64_t *keys;
	size_t n;
	int rc;

	if (kb_keyset_collect(keyset, kp, &keys, &n, err, errlen) < 0)
		return -1;
	*counts = kb_table_alloc((uint64_t)sizeof(uint64_t) << bits);
	if (!*counts) {
		free(keys);
		snprintf(err, errlen, "out of memory for 2^%u buckets", bits);
		return -1;
	}
	rc = kb_user_count(bits, bits, keys, n, counts, err, errlen);
	free(keys);
	if (rc < 0) {
		free(*counts);
		*counts = NULL;
		return -1;
	}
	if (o && o->ran)
		memset(o->ran, 0, sizeof(*o->ran));
	kb_progress_add(o ? o->progress : NULL, n);
	return 0;
}

int kb_count_keyset(const struct kb_hashspec *spec, unsigned bits, int keyset,
		    const struct kb_keyset_params *p,
		    const struct kb_engine_opts *o, uint64_t **counts,
		    char *err, size_t errlen)
{
	struct kb_keyset_params kp;
	struct kb_keystream ks;
	int rc;

	if (kb_hashspec_check(spec, bits, err, errlen) < 0)
		return -1;
	cell_params(spec, bits, p, &kp);
	if (spec->user)
		return user_keyset(bits, keyset, &kp, o, counts, err, errlen);
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
