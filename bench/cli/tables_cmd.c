/* SPDX-License-Identifier: MIT */
/*
 * khash-bench tables: every named kernel table under every generation,
 * on its key model and on the real kernel keys that fit it.
 */
#include "cli_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "engine.h"
#include "key_source.h"
#include "names.h"
#include "plot.h"
#include "progress_view.h"
#include "render.h"
#include "tables.h"
#include "tables_sweep.h"

/* A table's kernel keys (the kernel-keys files hold 4096 at most), each
 * once, as for every key file. */
static int read_kernel_keys(const char *path, struct kb_table_keys *kernel)
{
	struct kb_key_source src = { .from = KB_KEYS_FILE, .path = path,
				     .max_keys = 65536, .distinct = 1 };
	struct kb_keys k;
	int rc = kb_read_keys(&src, &k);

	kernel->keys = k.keys;
	kernel->n = k.n;
	return rc;
}

static void free_kernel_keys(struct kb_table_keys *kernel)
{
	size_t i;

	for (i = 0; kernel && i < 2 * kb_tables_count; i++)
		free((void *)kernel[i].keys);
	free(kernel);
}

/* Every named table x word x generation on its key model, and on the real
 * kernel keys that fit it (--kernel-keys DIR: DIR/x86_64 and DIR/i386). */
int kb_cmd_tables(struct kb_args *a)
{
	struct kb_table_cell *cells;
	struct kb_table_keys *kernel = NULL;
	struct kb_buf b = { 0 };
	struct kb_figure figs[2];
	struct kb_tables_sweep sw = { a->ro.words, KB_GIVEN(a, MULTIPLIER), a->multiplier,
				      a->width, a->kp.count, a->kp.seed, NULL, NULL };
	struct kb_progress progress = { 0, 0 };
	struct kb_progress_view *view;
	size_t n, nfigs = 0, i;
	unsigned w;
	char path[4096];
	int rc = 0;

	for (i = 0, w = 0; i < kb_tables_count; i++)
		w = kb_tables[i].bits > w ? kb_tables[i].bits : w;
	/* each cell's keys hashed once: hash.h's and K, and U when given */
	if ((rc = kb_exact_count(a, a->kp.count, w)) ||
	    (rc = kb_affordable(a, (double)a->kp.count * (double)kb_tables_count * 2 * 2 *
					   (KB_GEN_K + 1 + KB_GIVEN(a, SOURCE)) * KB_NS_PER_HASH / 1e9,
				kb_count_what(a, path, sizeof(path)))))
		return rc;
	cells = calloc(KB_TABLES_SWEEP_MAX(kb_tables_count), sizeof(*cells));
	if (!cells || (a->kernel_keys && !(kernel = calloc(2 * kb_tables_count, sizeof(*kernel))))) {
		free(cells);
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	}
	for (i = 0; kernel && !rc && i < 2 * kb_tables_count; i++) {
		w = i % 2 ? 32 : 64;
		if (!(a->ro.words & (w == 64 ? 2u : 1u)) || !kb_tables[i / 2].kernel_keys)
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s.txt", a->kernel_keys,
			 w == 64 ? "x86_64" : "i386", kb_tables[i / 2].kernel_keys);
		rc = read_kernel_keys(path, &kernel[i]);
	}
	if (rc) {
		free_kernel_keys(kernel);
		free(cells);
		return rc;
	}
	sw.kernel = kernel;
	sw.progress = &progress;
	view = kb_watch(a, &progress, "keys");
	n = kb_tables_sweep(&sw, cells);
	kb_progress_view_stop(view);
	free_kernel_keys(kernel);
	kb_render_tables(cells, n, a->kp.count, a->format, &b);
	/* the tables that read a string hash: text only (CSV and JSON keep
	 * their one record) */
	if (a->format == KB_FORMAT_TEXT) {
		struct kb_cell *sc = calloc(KB_STRING_SWEEP_MAX, sizeof(*sc));

		if (!sc) {
			free(cells);
			kb_buf_free(&b);
			return kb_fail(KB_EXIT_RUNTIME, "out of memory");
		}
		kb_render_string_tables(sc, kb_string_tables_sweep(a->ro.words, a->kp.count, sc),
					a->kp.count, &b);
		free(sc);
	}
	memset(figs, 0, sizeof(figs));
	/* a figure for each word size shown, 64-bit first as in the text */
	for (w = 64; a->plot && w >= 32; w -= 32)
		if (a->ro.words & (w == 64 ? 2u : 1u))
			kb_figure_tables(cells, n, w, &figs[nfigs++]);
	free(cells);
	return kb_plot_then_emit(a, &b, figs, nfigs);
}
