/* SPDX-License-Identifier: MIT */
/*
 * Benchmarks that print figures (never assertions): every hash inline and
 * through its exported symbol beside the bare arithmetic, and the counting
 * engine beside the naive loop, each pair in one binary and one run.
 */
#ifndef KB_SPEED_H
#define KB_SPEED_H

#include "format.h"
#include "output.h"
#include "progress.h"
#include "stats.h"

struct kb_candidate;

struct kb_speed_opts {
	unsigned bits;        /* for the hash table */
	double min_seconds;   /* per measurement */
	int hashes, engine;   /* which parts to run */
	int grid;             /* the engine against the naive loop, every
			       * count by every size */
	int strings;          /* full_name_hash's word path against its bytes */
	unsigned threads;     /* engine; 0 = one per CPU */
	unsigned long long engine_keys;
	struct kb_progress *progress; /* timings done and expected, or NULL */
};

/* Roughly the CPU seconds the engine part takes (its keys at every
 * table size, through the naive loop and every path, every trial): what
 * the command weighs before it starts. */
double kb_speed_engine_seconds(const struct kb_speed_opts *o);

/* The strings part (speed_strings.c), after another part or not, and
 * the timings it reports to the progress. */
void kb_speed_strings(const struct kb_speed_opts *o, enum kb_format format, int after,
		      struct kb_buf *b);
uint64_t kb_speed_string_steps(void);

/* Run and format (text, csv or json); 0, or -1 with a reason. */
int kb_speed_run(const struct kb_speed_opts *o, enum kb_format format,
		 struct kb_buf *out, char *err, size_t errlen);

/*
 * Throughput of the `speed` row that computes candidate c (a shift of the
 * key before it is not counted): ns per hash over HASH_ROUNDS rounds of
 * about `seconds` in all.  0, or -1 when no row computes it.
 */
int kb_speed_candidate(const struct kb_candidate *c, unsigned bits,
		       double seconds, struct kb_rounds *ns);

struct kb_names;
/* ns per name of a candidate over names (advise's guide), timed over the
 * first names of l in turn for about `seconds`: 0, or -1 where a name
 * fails it or for a string hash (its model here is not the kernel's code). */
int kb_speed_name_candidate(const struct kb_candidate *c, unsigned bits,
			    const struct kb_names *l, double seconds, struct kb_rounds *ns);

#endif
