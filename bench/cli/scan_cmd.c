/* SPDX-License-Identifier: MIT */
/*
 * khash-bench scan DIR...: the hash constants and idioms this project
 * knows to be dangerous, found in a source tree by a text scan, each with
 * the command that judges it.  Nothing is written until every root has
 * been read: a root that cannot be is an error, with no partial output.
 */
#include "cli_args.h"

#include <stdio.h>

#include "cmd_common.h"
#include "scan_render.h"
#include "scan_tree.h"

int kb_cmd_scan(struct kb_args *a)
{
	struct kb_scan_result r = { 0 };
	struct kb_buf b = { 0 };
	char err[1024];
	size_t i;
	int rc;

	if (a->n_operands == 0)
		return kb_fail(KB_EXIT_USAGE, "scan needs a folder to scan");
	for (i = 0; i < (size_t)a->n_operands; i++)
		if (kb_scan_tree(a->operands[i], &r, err, sizeof(err)) < 0) {
			kb_scan_result_free(&r);
			return kb_fail(KB_EXIT_RUNTIME, "%s", err);
		}
	/* a file or folder it could not read is a warning: the rest was scanned */
	for (i = 0; i < r.nwarnings; i++)
		fprintf(stderr, "khash-bench: warning: %s\n", r.warnings[i]);
	kb_render_scan(&r, a->format, &b);
	rc = kb_emit(a, &b);
	kb_scan_result_free(&r);
	return rc;
}
