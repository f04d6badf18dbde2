/* SPDX-License-Identifier: MIT */
/*
 * khash-bench waittable: the 2002 page wait tables, waiters woken for
 * nothing under each generation.
 */
#include "cli_args.h"

#include <string.h>

#include "cmd_common.h"
#include "plot.h"
#include "render.h"
#include "waittable.h"

int kb_cmd_waittable(struct kb_args *a)
{
	struct kb_wait_row rows[KB_WAIT_ZONES];
	struct kb_buf b = { 0 };
	struct kb_figure fig;
	uint64_t zone;
	int n = kb_wait_sweep(a->word, (unsigned)a->kp.count, KB_WAIT_TRIALS, a->kp.seed,
			      rows, &zone);

	if (n < 0)
		return kb_fail(KB_EXIT_RUNTIME, "cannot simulate a %llu MiB zone",
			       (unsigned long long)(zone >> 20));
	kb_render_waittable(rows, (size_t)n, a->word, (unsigned)a->kp.count, KB_WAIT_TRIALS,
			    a->format, &b);
	memset(&fig, 0, sizeof(fig));
	if (a->plot)
		kb_figure_waittable(rows, (size_t)n, a->word, (unsigned)a->kp.count, &fig);
	return kb_plot_then_emit(a, &b, &fig, 1);
}
