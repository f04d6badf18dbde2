/* SPDX-License-Identifier: MIT */
/*
 * The main job: every chosen key set x function x generation x word size
 * x bits, counted once at the largest bits and folded down, then written
 * as a table a person reads, or as CSV or JSON with a schema version.
 */
#ifndef KB_REPORT_H
#define KB_REPORT_H

#include <stdint.h>

#include "keysets.h"
#include "output.h"
#include "skew.h"
#include "stats.h"

#define KB_SCHEMA_VERSION 1

struct kb_cell {
	int keyset;
	struct kb_hashspec spec;
	unsigned bits;
	int ok;                /* 0: not applicable, see why */
	char why[96];
	struct kb_skew skew;
};

struct kb_report_opts {
	unsigned keysets;      /* bit mask of kb_keyset ids */
	unsigned funcs;        /* bit mask of lkh_func */
	unsigned gens;         /* bit mask of lkh_gen */
	unsigned words;        /* bit 0: 32, bit 1: 64 */
	unsigned bits_min, bits_max;
	unsigned threads;      /* 0: one per online CPU */
	struct kb_keyset_params params; /* count, seed, size */
};

struct kb_report {
	struct kb_report_opts opts;
	struct kb_cell *cells;
	size_t n_cells;
	double elapsed;        /* seconds, filled by the caller */
};

/* Compute every cell; -1 with a reason on failure (memory). */
int kb_report_run(struct kb_report *r, char *err, size_t errlen);
void kb_report_free(struct kb_report *r);

/* Counts for one cell at its bits (used by skew and the histograms):
 * 0, or -1 with a reason.  *counts is malloc'ed, 2^bits entries. */
int kb_count_keyset(const struct kb_hashspec *spec, unsigned bits, int keyset,
		    const struct kb_keyset_params *p, unsigned threads,
		    uint64_t **counts, char *err, size_t errlen);

/* Formatting */
void kb_format_report_text(const struct kb_report *r, unsigned step,
			   struct kb_buf *b);
void kb_format_cells_csv(const struct kb_cell *c, size_t n, struct kb_buf *b);
void kb_format_cells_json(const struct kb_cell *c, size_t n,
			  const char *kind, const struct kb_report_opts *o,
			  struct kb_buf *b);
void kb_format_cell_text(const struct kb_cell *c, const char *source,
			 struct kb_buf *b);

/* The name of a cell's key source: a key set's name. */
const char *kb_cell_source(const struct kb_cell *c);

#endif
