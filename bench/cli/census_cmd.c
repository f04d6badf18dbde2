/* SPDX-License-Identifier: MIT */
/*
 * khash-bench census FILE...: the hash call sites a kernel reached, and
 * how each generation would have spread the keys they really hashed.
 */
#include "cli_args.h"

#include <stdlib.h>
#include <string.h>

#include "atlas_file.h"
#include "census.h"
#include "census_atlas.h"
#include "census_file.h"
#include "census_render.h"
#include "output.h"
#include "plot.h"

static void free_files(struct kb_census_file *files, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		kb_census_file_free(&files[i]);
	free(files);
}

/* Each file against the atlas: reports (one a file), or NULL out of
 * memory. */
static struct kb_atlas_report *match_atlas(const struct kb_atlas *atlas,
					   const struct kb_census_file *files, size_t n)
{
	struct kb_atlas_report *reports = calloc(n, sizeof(*reports));
	size_t i;

	for (i = 0; reports && i < n; i++)
		if (kb_atlas_match(atlas, &files[i], &reports[i]) < 0) {
			while (i--)
				kb_atlas_report_free(&reports[i]);
			free(reports);
			return NULL;
		}
	return reports;
}

static void free_reports(struct kb_atlas_report *reports, size_t n)
{
	size_t i;

	for (i = 0; reports && i < n; i++)
		kb_atlas_report_free(&reports[i]);
	free(reports);
}

int kb_cmd_census(struct kb_args *a)
{
	struct kb_atlas atlas = { 0 };
	struct kb_atlas_report *reports = NULL;
	struct kb_census_file *files;
	struct kb_census_row *rows = NULL;
	struct kb_buf b = { 0 };
	struct kb_figure fig;
	size_t n = (size_t)a->n_operands, nrows = 0, i, stdin_uses = 0;
	char err[512];
	int rc = 0;

	if (n == 0)
		return kb_fail(KB_EXIT_USAGE, "census needs a census file (or - for standard input)");
	for (i = 0; i < n; i++)
		stdin_uses += !strcmp(a->operands[i], "-");
	stdin_uses += a->atlas && !strcmp(a->atlas, "-");
	if (stdin_uses > 1)
		return kb_fail(KB_EXIT_USAGE, "census reads standard input (-) once at most");
	/* the atlas first: a bad one costs no census run */
	if (a->atlas && kb_atlas_read(a->atlas, &atlas, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	files = calloc(n, sizeof(*files));
	if (!files) {
		kb_atlas_free(&atlas);
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	}
	for (i = 0; i < n; i++)
		if (kb_census_read(a->operands[i], &files[i], err, sizeof(err)) < 0) {
			free_files(files, i);
			kb_atlas_free(&atlas);
			return kb_fail(KB_EXIT_RUNTIME, "%s", err);
		}
	for (i = 0; a->atlas && i < n; i++)
		if (kb_atlas_other_kernel(&atlas, &files[i])) {
			char v[64] = "?";

			kb_census_kernel(&files[i], v, sizeof(v));
			rc = kb_fail(KB_EXIT_RUNTIME,
				     "%s is an atlas of Linux %s, %s a census of %s: their file:lines do not match",
				     atlas.name, atlas.kernel, files[i].name, v);
			free_files(files, n);
			kb_atlas_free(&atlas);
			return rc;
		}
	if (a->atlas && !(reports = match_atlas(&atlas, files, n))) {
		free_files(files, n);
		kb_atlas_free(&atlas);
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	}
	const struct kb_gen k = { KB_GEN_K, a->multiplier, a->width };

	if (kb_census_run(files, n, KB_GIVEN(a, MULTIPLIER) ? &k : NULL, &rows, &nrows, err,
			  sizeof(err)) < 0) {
		free_files(files, n);
		free_reports(reports, n);
		kb_atlas_free(&atlas);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	kb_render_census(files, n, rows, nrows, a->atlas ? &atlas : NULL, reports, a->format, &b);
	memset(&fig, 0, sizeof(fig));
	/* the figure first: a failed one leaves no output file either */
	if (a->plot) {
		kb_figure_census(files, n, rows, nrows, &fig);
		rc = kb_plot_outcome(kb_plot_figures(a->plot, &fig, 1, err, sizeof(err)), err);
		kb_figure_free(&fig);
	}
	free(rows);
	free_files(files, n);
	free_reports(reports, n);
	kb_atlas_free(&atlas);
	if (!rc && kb_write_all(a->output, &b, err, sizeof(err)) < 0)
		rc = kb_fail(KB_EXIT_RUNTIME, "%s", err);
	kb_buf_free(&b);
	return rc;
}
