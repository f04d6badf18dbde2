/* SPDX-License-Identifier: MIT */
/*
 * The counting engine: keys through one (function, generation, word size)
 * into 2^bits buckets, as kb_engine_plan says (engine_plan.h), on the
 * machine's threads and caches (machine.h).  The cells themselves and the
 * reference counting are in hashspec.h.
 */
#ifndef KB_ENGINE_H
#define KB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "engine_plan.h"
#include "hashspec.h"
#include "machine.h"

/*
 * The fast engine: count one key stream through nspecs hash cells into
 * counts (nspecs tables of 2^bits, zeroed by the caller), on o->threads
 * threads along o->path (o NULL: all CPUs, AUTO, no progress).  Reports
 * progress in hashes (a key through one cell), which KB_PATH_RANGES does
 * more of than there are keys.  0, or -1 with a reason.
 */
int kb_count_parallel(const struct kb_hashspec *specs, size_t nspecs,
		      unsigned bits, const struct kb_keystream *ks,
		      const struct kb_engine_opts *o, uint64_t *counts,
		      char *err, size_t errlen);

struct kb_keyset_params;

/* Open a key set and a zeroed table of 2^bits counts (kb_table_alloc):
 * 0, or -1 with a reason and nothing left open. */
int kb_open_counted(struct kb_keystream *ks, int keyset,
		    const struct kb_keyset_params *p, unsigned bits,
		    uint64_t **counts, char *err, size_t errlen);

/* Counts for one cell over a built-in key set (skew, the histograms):
 * 0, or -1 with a reason.  *counts is malloc'ed, 2^bits entries. */
int kb_count_keyset(const struct kb_hashspec *spec, unsigned bits, int keyset,
		    const struct kb_keyset_params *p,
		    const struct kb_engine_opts *o, uint64_t **counts,
		    char *err, size_t errlen);

/* Roughly the CPU seconds kb_count_keyset would take (the stream opened
 * and closed again to see its path; a heap set, whose opening allocates
 * its objects, is counted as hashed key by key): 0, or -1 with a reason. */
int kb_keyset_seconds(const struct kb_hashspec *spec, unsigned bits, int keyset,
		      const struct kb_keyset_params *p, const struct kb_engine_opts *o,
		      double *seconds, char *err, size_t errlen);

#endif
