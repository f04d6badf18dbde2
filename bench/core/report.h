/* SPDX-License-Identifier: MIT */
/*
 * The main job: every chosen key set x function x generation x word size
 * x bits, counted once at the largest bits and folded down (the renderers
 * in io/render.c write it down).
 */
#ifndef KB_REPORT_H
#define KB_REPORT_H

#include <stdint.h>

#include "engine.h"
#include "keysets.h"
#include "stats.h"

/* How a cell's counts were made. */
enum kb_counted_by {
	KB_COUNTED_NOT_SAID,
	KB_COUNTED_ENGINE,    /* kb_count_parallel, along a planned path */
	KB_COUNTED_SORTED,    /* report: few keys, sorted and counted once a size */
	KB_COUNTED_ONE_BY_ONE, /* a key file or a named table: key by key */
	KB_COUNTED_COUNT_
};

/* "engine", "sorted" .., or NULL for KB_COUNTED_NOT_SAID. */
const char *kb_counted_by_name(enum kb_counted_by by);

struct kb_cell {
	int keyset;            /* -1: keys given (source) */
	const char *source;    /* the given keys' name, or NULL */
	const char *table;     /* a named table's name, or NULL */
	struct kb_hashspec spec;
	const char *sgen;      /* a string table's string-hash generation
				* (spec's gen does not apply), or NULL */
	unsigned bits;
	int ok;                /* 0: not applicable, see why */
	char why[96];
	struct kb_skew skew;
	/* a key file's: keys read, how many repeat an earlier key, and
	 * whether they were dropped (skew.n = read - repeated), as they are
	 * unless skew --keep-duplicates */
	int from_file, distinct;
	uint64_t keys_read, repeated;
	/* how the counts were made: KB_COUNTED_ENGINE along `ran`, or by
	 * another method (JSON "counted_by", --verbose); 0: not said */
	enum kb_counted_by counted_by;
	struct kb_engine_plan ran;
};

struct kb_report_opts {
	unsigned keysets;      /* bit mask of kb_keyset ids */
	int keyset_order[KB_KS_COUNT]; /* keysets in the order to report */
	unsigned n_order;      /* them; 0: id order */
	unsigned funcs;        /* bit mask of lkh_func */
	unsigned gens;         /* bit mask of generations: lkh_gen, KB_GEN_K */
	uint64_t k;            /* generation K's multiplier (checked) */
	unsigned k_width;      /* its width; 0: the wider of K's and the key's */
	unsigned words;        /* bit 0: 32, bit 1: 64 */
	unsigned bits_min, bits_max;
	unsigned threads;      /* 0: one per online CPU */
	struct kb_progress *progress; /* hashes done and expected, or NULL */
	int enumerate;         /* no floor sums (kb_engine_opts) */
	struct kb_keyset_params params; /* count, seed, size */
	/* instead of the key sets: these keys (sorted and distinct, as
	 * kb_distinct_keys leaves them), named keys_name */
	const uint64_t *keys;
	size_t nkeys;
	const char *keys_name;
};

struct kb_report {
	struct kb_report_opts opts;
	struct kb_cell *cells;
	size_t n_cells;
};

/* The cell of generation g (lkh_gen or KB_GEN_K, with o's K) for func on
 * word. */
void kb_report_spec(const struct kb_report_opts *o, int g, lkh_func func,
		    unsigned word, struct kb_hashspec *s);

/* Compute every cell; -1 with a reason on failure (memory). */
int kb_report_run(struct kb_report *r, char *err, size_t errlen);
void kb_report_free(struct kb_report *r);

/* Roughly the CPU seconds kb_report_run would take on these options:
 * every cell of every key set through the engine's path for it (floor
 * sums where they count; the given keys hashed once a cell). */
double kb_report_seconds(const struct kb_report_opts *o);

/* One generation's applicable cells by verdict: "fine" is ok, even, or a
 * cell of no keys. */
struct kb_verdict_tally {
	size_t broken, skewed, fine, too_few;
};

/* The report's summary, per generation present (opts.gens). */
struct kb_report_summary {
	unsigned gens;       /* bit mask: lkh_gen, KB_GEN_K */
	size_t too_few;      /* cells with too few keys in all: the text
			      * says the legend and column only then */
	struct kb_verdict_tally gen[KB_GEN_COUNT];
	/* what the worst judged cell of each generation costs a chained
	 * table: entries compared per successful lookup over a random
	 * function's, and the cell (an index into r->cells; -1: none) */
	double worst_hit[KB_GEN_COUNT];
	long worst_cell[KB_GEN_COUNT];
};

/* Tally r's cells (every table size, n/a rows aside) into *s. */
void kb_report_summarize(const struct kb_report *r, struct kb_report_summary *s);

/* The name of a cell's key source: a key set's name, or the given keys'. */
const char *kb_cell_source(const struct kb_cell *c);

/* Most histograms one report draws. */
#define KB_MAX_HIST 16

/* A histogram request: key set, function, word size, bits. */
struct kb_hist_req {
	int keyset;
	lkh_func func;
	unsigned word, bits;
};

/* The bucket loads behind one request, one table per generation: hash.h's
 * four, and K when the report has it. */
struct kb_hist {
	struct kb_hist_req req;
	uint64_t *counts[KB_GEN_COUNT]; /* 2^bits each; NULL: not drawn */
};

/* Count the n requested histograms over the report's key-set parameters:
 * 0, or -1 with a reason (the counts made so far freed). */
int kb_report_hists(const struct kb_report *r, const struct kb_hist_req *req,
		    size_t n, struct kb_hist *out, char *err, size_t errlen);
void kb_hists_free(struct kb_hist *h, size_t n);

#endif
