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
	char body[1024];
};

void kb_figure_free(struct kb_figure *fig);

/* Heatmaps of log10(X^2/df) for every (function, word) of the report, and
 * per-bucket load histograms, one panel a generation, for each counted
 * histogram.  0, or -1 with a one-line reason. */
int kb_plot_report(const struct kb_report *r, const struct kb_hist *h,
		   size_t nh, const char *dir, char *err, size_t errlen);

/* One figure into DIR/BASE.{dat,gp,png,svg}, all or nothing.  0, or -1
 * with a one-line reason. */
int kb_plot_figure(const char *dir, const struct kb_figure *fig, char *err,
		   size_t errlen);

#endif
