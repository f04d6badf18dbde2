/* SPDX-License-Identifier: MIT */
/*
 * khash-bench audit: what to know about a multiplier, or every preset.
 */
#include "cli_args.h"

#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "cmd_common.h"
#include "plot.h"
#include "render.h"

int kb_cmd_audit(struct kb_args *a)
{
	struct kb_buf b = { 0 };
	struct kb_figure fig;
	struct kb_audit *au;
	const char *names[64];
	unsigned i, n = 0;
	int compare = KB_GIVEN(a, COMPARE);

	if (a->preset) {
		for (i = 0; i < kb_preset_count; i++)
			if (!strcmp(a->preset, kb_presets[i].name))
				break;
		if (i == kb_preset_count)
			return kb_fail(KB_EXIT_USAGE, "unknown preset '%s' (see 'khash-bench audit --compare')",
				       a->preset);
	}
	au = calloc(kb_preset_count + 1, sizeof(*au));
	if (!au)
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	for (i = 0; i < kb_preset_count || (!compare && !a->preset && i == 0); i++) {
		uint64_t k;
		unsigned width;

		if (compare || a->preset) {
			if (a->preset && strcmp(a->preset, kb_presets[i].name))
				continue;
			names[n] = kb_presets[i].name;
			k = kb_presets[i].k;
			width = kb_presets[i].width;
		} else {
			names[n] = NULL;
			k = a->multiplier;
			width = a->width ? a->width : k > UINT32_MAX ? 64 : 32;
		}
		if (kb_audit_run(k, width, &au[n]) < 0) {
			free(au);
			return kb_fail(KB_EXIT_USAGE, "multiplier %#llx does not fit %u bits",
				       (unsigned long long)k, width);
		}
		n++;
		if (!compare)
			break;
	}
	kb_render_audits(au, names, n, compare, a->format, &b);
	memset(&fig, 0, sizeof(fig));
	if (a->plot)
		kb_figure_audits(au, names, n,
				 compare ? "compare" : a->preset ? a->preset : "multiplier",
				 &fig);
	free(au);
	return kb_plot_then_emit(a, &b, &fig, 1);
}
