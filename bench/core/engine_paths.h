/* SPDX-License-Identifier: MIT */
/*
 * Internal to the engine: the counting paths as kb_count_parallel runs
 * them, one worker a thread.  engine_paths.c holds the paths' loops,
 * engine_run.c the threads that run them.
 */
#ifndef KB_ENGINE_PATHS_H
#define KB_ENGINE_PATHS_H

#include <pthread.h>

#include "engine.h"

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

struct kb_worker {
	struct engine *e;
	unsigned t;
	int failed, started;
	pthread_t thread;
};

/* A worker's share of the counting (fn for run_workers); wk->failed when
 * it ran out of memory. */
void *kb_path_count(void *wk);

/* A worker's slice of the merge of private tables into the result
 * (KB_PATH_LANES, KB_PATH_PRIVATE). */
void *kb_path_merge(void *wk);

#endif
