/* SPDX-License-Identifier: MIT */
#include "census_cmd.h"

#include <stdlib.h>
#include <string.h>

#include "census.h"
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

int kb_cmd_census(const struct kb_args *a)
{
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
	if (stdin_uses > 1)
		return kb_fail(KB_EXIT_USAGE, "census reads standard input (-) once at most");
	files = calloc(n, sizeof(*files));
	if (!files)
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	for (i = 0; i < n; i++)
		if (kb_census_read(a->operands[i], &files[i], err, sizeof(err)) < 0) {
			free_files(files, i);
			return kb_fail(KB_EXIT_RUNTIME, "%s", err);
		}
	const struct kb_gen k = { KB_GEN_K, a->multiplier, a->width };

	if (kb_census_run(files, n, KB_GIVEN(a, MULTIPLIER) ? &k : NULL, &rows, &nrows, err,
			  sizeof(err)) < 0) {
		free_files(files, n);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	kb_render_census(files, n, rows, nrows, a->format, &b);
	memset(&fig, 0, sizeof(fig));
	/* the figure first: a failed one leaves no output file either */
	if (a->plot) {
		kb_figure_census(files, n, rows, nrows, &fig);
		rc = kb_plot_outcome(kb_plot_figures(a->plot, &fig, 1, err, sizeof(err)), err);
		kb_figure_free(&fig);
	}
	free(rows);
	free_files(files, n);
	if (!rc && kb_write_all(a->output, &b, err, sizeof(err)) < 0)
		rc = kb_fail(KB_EXIT_RUNTIME, "%s", err);
	kb_buf_free(&b);
	return rc;
}
