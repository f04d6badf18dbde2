/* SPDX-License-Identifier: MIT */
/*
 * Plots as data + gnuplot script + images (PNG via pngcairo, and SVG), all
 * renamed into the folder together only after gnuplot succeeded for every
 * one of them, so a failed or interrupted run leaves no partial set.
 */
#ifndef KB_PLOT_H
#define KB_PLOT_H

#include <stddef.h>

#include "output.h"
#include "report.h"

/* One figure: its file name (no extension), title, size in pixels, data
 * and the gnuplot commands that draw it (`data` names the data file,
 * `gptitle` the title). */
struct kb_figure {
	char base[160];
	char title[256];
	int width, height;
	struct kb_buf dat;
	struct kb_buf body;
};

void kb_figure_free(struct kb_figure *fig);

/* A heatmap cell's mark, kb_verdict_heat_mark's: "B" broken, "S" skewed,
 * "-" ok or even, "n/a" where there is no verdict (too few keys, one
 * bucket). */
const char *kb_skew_mark(const struct kb_skew *s);

/* The colour scale of every X^2/df heatmap: log10(X^2/df) from 0.1 (blue,
 * more even than random) through 1 (white, random) to 10 (red, broken)
 * and 1000 (dark), with the tics labelled in X^2/df itself, powers of ten
 * only (a tic at the palette's yellow, 2, said nothing a reader could use). */
#define KB_PLOT_SKEW_SCALE                                                      \
	"  set cbrange [-1:3]\n"                                                 \
	"  set cbtics (\"0.1\" -1, \"1\" 0, \"10\" 1, \"100\" 2, \">=1000\" 3)\n" \
	"  set cblabel \"X^2/df (1: random)\"\n"                          \
	"  set palette defined (-1 \"#6baed6\", 0 \"#f7f7f7\", 0.301 \"#fee090\", 1 \"#d73027\", 3 \"#67001f\")\n"

#define KB_PLOT_STR_(x) #x
#define KB_PLOT_STR(x) KB_PLOT_STR_(x)
/* What the letters and the hatching of every heatmap mean. */
#define KB_PLOT_SKEW_LEGEND \
	"B broken (X^2/df >= " KB_PLOT_STR(KB_BROKEN) "), S skewed, hatched: no verdict (n/a, too few keys)"

/* A bucket-load histogram, one panel a column of its data (bucket, then
 * loads): the settings every panel shares, for m buckets; then each panel,
 * GEN naming it, COL its data column, LAST giving it the x label.  A panel
 * shows a random function's mean and fullest loads, goes logarithmic when
 * its fullest bucket is far past that, and marks and writes the load of
 * up to eight buckets fuller than a random function's fullest. */
void kb_plot_hist_head(struct kb_buf *gp, uint64_t m);
void kb_plot_hist_panel(struct kb_buf *gp, const char *gen, int col,
			const uint64_t *counts, uint64_t m, int last);

/* One heatmap cell as a data line: x, y, log10(X^2/df) and the mark;
 * s NULL for a cell that does not apply (drawn hatched, like no verdict). */
void kb_plot_heat_cell(struct kb_buf *b, int x, int y, const struct kb_skew *s);

/*
 * The layers of a marked heatmap, as a gnuplot plot command into out:
 * data SEL's columns x, y, log10(X^2/df) and the kb_skew_mark() are drawn
 * as an image where there is a verdict, hatched where there is none
 * (every cell at its own place), and lettered B or S; then EXTRA (", ..."
 * more plot elements, or "").
 */
void kb_plot_heat_layers(char *out, size_t len, const char *sel,
			 const char *extra);

/* Heatmaps of log10(X^2/df) for every (function, word) of the report, and
 * per-bucket load histograms, one panel a generation, for each counted
 * histogram.  0; 1 when there is no gnuplot, with the data and scripts
 * written and err saying so; or -1 with a one-line reason. */
int kb_plot_report(const struct kb_report *r, const struct kb_hist *h,
		   size_t nh, const char *dir, char *err, size_t errlen);

/* n figures, each into DIR/BASE.{dat,gp,png,svg}, all or nothing.  0;
 * 1 when there is no gnuplot to render them, with every .dat and .gp
 * written (images are the user's to render) and err saying so; or -1
 * with a one-line reason and nothing written. */
int kb_plot_figures(const char *dir, const struct kb_figure *figs, size_t n,
		    char *err, size_t errlen);

#endif
