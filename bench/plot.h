/* SPDX-License-Identifier: MIT */
/*
 * Plots as data + gnuplot script + images (PNG via pngcairo, and SVG), all
 * renamed into the folder together only after gnuplot succeeded for every
 * one of them, so a failed or interrupted run leaves no partial set.
 */
#ifndef KB_PLOT_H
#define KB_PLOT_H

#include <stddef.h>

#include "report.h"

/* A histogram request: key set, function, word size, bits. */
struct kb_hist_req {
	int keyset;
	lkh_func func;
	unsigned word, bits;
};

/* Heatmaps of log10(X^2/df) for every (function, word) of the report, and
 * per-bucket load histograms (old / posted / new) for each request.
 * 0, or -1 with a one-line reason. */
int kb_plot_report(const struct kb_report *r, const struct kb_hist_req *h,
		   size_t nh, const char *dir, char *err, size_t errlen);

/*
 * One figure: data, and a gnuplot body (the commands inside the loop that
 * renders PNG then SVG; `data` names the data file) into DIR/BASE.*,
 * all or nothing.  0, or -1 with a one-line reason.
 */
int kb_plot_single(const char *dir, const char *base, const char *title,
		   int width, int height, const struct kb_buf *dat,
		   const char *body, char *err, size_t errlen);

#endif
