/* SPDX-License-Identifier: MIT */
/*
 * The census (core/census.c) written down: text, CSV, JSON, and the
 * figure's data (a heatmap of log10(X^2/df), judged site x generation).
 */
#ifndef KB_CENSUS_RENDER_H
#define KB_CENSUS_RENDER_H

#include <stddef.h>

#include "census.h"
#include "census_atlas.h"
#include "format.h"
#include "plot.h"

/* atlas: NULL, or the atlas with one report a file (text and JSON say
 * which built sites each census reached; CSV, one row a site and
 * generation, has no place for it) */
void kb_render_census(const struct kb_census_file *files, size_t nfiles,
		      const struct kb_census_row *rows, size_t nrows,
		      const struct kb_atlas *atlas, const struct kb_atlas_report *reports,
		      enum kb_format f, struct kb_buf *b);

/* One figure for every file: the judged sites, worst first. */
void kb_figure_census(const struct kb_census_file *files, size_t nfiles,
		      const struct kb_census_row *rows, size_t nrows,
		      struct kb_figure *fig);

#endif
