/* SPDX-License-Identifier: MIT */
/*
 * How far long work has come, shared between the threads doing it and
 * whoever shows it (bench/io/progress.c).  Computation only counts here:
 * it never prints, so the core stays free of I/O.  Units are whatever
 * the work counts (hashes, for the engine); total may grow as work finds
 * out how much it has to do.
 */
#ifndef KB_PROGRESS_H
#define KB_PROGRESS_H

#include <stdint.h>

struct kb_progress {
	uint64_t total; /* units expected; 0 while unknown */
	uint64_t done;  /* units finished */
};

/* Both may be called from any thread, with p NULL when nobody watches. */
static inline void kb_progress_add(struct kb_progress *p, uint64_t n)
{
	if (p)
		__atomic_fetch_add(&p->done, n, __ATOMIC_RELAXED);
}

static inline void kb_progress_expect(struct kb_progress *p, uint64_t n)
{
	if (p)
		__atomic_fetch_add(&p->total, n, __ATOMIC_RELAXED);
}

#endif
