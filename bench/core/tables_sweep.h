/* SPDX-License-Identifier: MIT */
/*
 * The named tables' sweep (`khash-bench tables`): every table x word x
 * generation, on the table's key model and on the kernel's own keys where
 * the caller has read them.  Computation only: the caller reads the key
 * files and writes the cells down.
 */
#ifndef KB_TABLES_SWEEP_H
#define KB_TABLES_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "progress.h"
#include "report.h"
#include "tables.h"

/* One cell of the sweep. */
struct kb_table_cell {
	unsigned table;
	const char *source;     /* "model" or the kernel-keys file's kind */
	struct kb_cell cell;
};

/* The kernel's own keys for one table on one word size. */
struct kb_table_keys {
	const uint64_t *keys;
	size_t n;               /* 0: none */
};

struct kb_tables_sweep {
	unsigned words;         /* bit 0: 32, bit 1: 64 */
	int with_k;             /* generation K too, with k and width: */
	uint64_t k;
	unsigned width;
	uint64_t count, seed;   /* the key models' */
	/* kernel keys, kernel[2 * table + (word == 64 ? 0 : 1)]; NULL: none */
	const struct kb_table_keys *kernel;
	struct kb_progress *progress; /* model keys counted, or NULL */
};

/* The most cells a sweep makes: every table, word, source, generation. */
#define KB_TABLES_SWEEP_MAX(ntables) ((size_t)(ntables) * 2 * 2 * KB_GEN_COUNT)

/*
 * The cells, in table, word (64 first), source (model first), generation
 * order, into cells (room for KB_TABLES_SWEEP_MAX(kb_tables_count));
 * returns how many.  A cell that cannot be computed (keys that do not fit
 * the word, no memory) has ok 0 and says why.
 */
size_t kb_tables_sweep(const struct kb_tables_sweep *s, struct kb_table_cell *cells);

#endif
