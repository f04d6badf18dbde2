/* SPDX-License-Identifier: MIT */
/*
 * Every result as text, CSV or JSON, and as a figure's data: the report,
 * one cell, bit influence, multiplier audits and the wait tables.  The
 * computations live in core/; this module only writes them down.
 */
#ifndef KB_RENDER_H
#define KB_RENDER_H

#include <stddef.h>

#include "audit.h"
#include "format.h"
#include "influence.h"
#include "names.h"
#include "plot.h"
#include "report.h"
#include "tables.h"
#include "tables_sweep.h"
#include "waittable.h"

/* The report, in any format; text shows every step-th table size. */
void kb_render_report(const struct kb_report *r, enum kb_format f,
		      unsigned step, struct kb_buf *b);

/* Cells of one key set (skew: a generation each); source names the keys
 * in the text format. */
/* How a cell was counted, as --verbose says it: "page4k, new hash_64 on
 * 64-bit, 2^16 buckets: engine, private8 on 2 threads, priced 1.2 ms,
 * took 1.4 ms" (or "sorted", "one by one").  gens > 1: the cell stands
 * for that many generations counted together at its size, and folded
 * down to 2^bits_min. */
void kb_counted_text(const struct kb_cell *c, unsigned gens, unsigned bits_min,
		     struct kb_buf *b);

void kb_render_cells(const struct kb_cell *c, size_t n, const char *source,
		     enum kb_format f, struct kb_buf *b);

/* An influence map and its figure (a heatmap of P(flip)). */
void kb_render_influence(const struct kb_influence *r,
			 const struct kb_hashspec *s, unsigned bits,
			 enum kb_format f, struct kb_buf *b);
void kb_figure_influence(const struct kb_influence *r,
			 const struct kb_hashspec *s, unsigned bits,
			 struct kb_figure *fig);

/* Audits of n multipliers (names[i] NULL for one given by value): the
 * full text of one, or a comparison table; and the worst-stride figure. */
void kb_render_audits(const struct kb_audit *au, const char *const *names,
		      size_t n, int compare, enum kb_format f,
		      struct kb_buf *b);
void kb_figure_audits(const struct kb_audit *au, const char *const *names,
		      size_t n, const char *base, struct kb_figure *fig);

/* The wait-table simulation, one row a zone, and its figure. */
void kb_render_waittable(const struct kb_wait_row *rows, size_t n,
			 unsigned word, unsigned waiters, unsigned trials,
			 enum kb_format f, struct kb_buf *b);
/* The bucket loads of skew's cells (one key set, a generation each, at
 * most 2^KB_PLOT_HIST_MAX_BITS buckets), a panel each, beside what a
 * random function gives. */
#define KB_PLOT_HIST_MAX_BITS 20
void kb_figure_cells_hist(const struct kb_cell *c, const uint64_t *const *counts,
			  size_t n, const char *source, struct kb_figure *fig);

void kb_figure_waittable(const struct kb_wait_row *rows, size_t n,
			 unsigned word, unsigned waiters,
			 struct kb_figure *fig);

/* The named tables: the list with citations, then every table x word x
 * generation cell (cells in table, word, source, generation order; a
 * cell's keyset is -1 and source names the kernel keys for real keys). */
/* explain over names, as text: c names the cell (table, sgen, word, bits,
 * source). */
void kb_render_names_explain(const struct kb_name_explain *e, const struct kb_cell *c,
			     struct kb_buf *b);
/* report over names: per cells a row (a table, word and string
 * generation, table sizes smallest first), every step-th shown, as text. */
void kb_render_string_report(const struct kb_cell *c, size_t n, unsigned per, unsigned step,
			     struct kb_buf *b);
/* `tables`'s section on the tables that read a string hash, as text: the
 * cells of kb_string_tables_sweep(), count names each. */
void kb_render_string_tables(const struct kb_cell *c, size_t n, uint64_t count,
			     struct kb_buf *b);
void kb_render_tables(const struct kb_table_cell *c, size_t n, uint64_t count,
		      enum kb_format f, struct kb_buf *b);
void kb_figure_tables(const struct kb_table_cell *c, size_t n, unsigned word,
		      struct kb_figure *fig);

/* The line that says what generation K is: K's value, the width of its
 * product, and more (or ""). */
void kb_gen_k_line(const struct kb_gen *k, const char *more, struct kb_buf *b);

/* The body of a heatmap of log10(X^2/df), generations across and rows
 * 0..rows-1 up, from fig->dat's lines of generation, row, value and
 * kb_skew_mark() (see kb_plot_heat_layers), to which the row names
 * (labels: lines of row and "name") are added as a block of their own;
 * row 0 at the top when row0_on_top, else at the bottom. */
void kb_figure_gen_heatmap(struct kb_figure *fig, int rows, int row0_on_top,
			   int ngens, const struct kb_buf *labels);

#endif
