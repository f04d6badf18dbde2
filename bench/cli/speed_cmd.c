/* SPDX-License-Identifier: MIT */
/*
 * khash-bench speed: every hash and the counting engine, timed.
 */
#include "cli_args.h"

#include <string.h>

#include "cmd_common.h"
#include "progress_view.h"
#include "speed.h"

int kb_cmd_speed(struct kb_args *a)
{
	struct kb_speed_opts o;
	struct kb_progress progress = { 0, 0 };
	struct kb_progress_view *view;
	struct kb_buf b = { 0 };
	char err[512];
	int rc;

	if (KB_GIVEN(a, BITS) && (a->bits < 1 || a->bits > 32))
		return kb_fail(KB_EXIT_USAGE, "bits %u out of range for speed: 1..32", a->bits);
	memset(&o, 0, sizeof(o));
	o.bits = KB_GIVEN(a, BITS) ? a->bits : 11;
	o.min_seconds = a->min_time_ms / 1e3;
	o.hashes = a->part == 0 || a->part == 1;
	o.engine = a->part == 0 || a->part == 2;
	o.grid = a->part == 3;
	o.strings = a->part == 4;
	o.threads = a->threads;
	o.engine_keys = a->kp.count;
	o.progress = &progress;
	if ((rc = kb_affordable(a, kb_speed_engine_seconds(&o), kb_count_what(a, err, sizeof(err)))))
		return rc;
	view = kb_watch(a, &progress, "timings");
	rc = kb_speed_run(&o, a->format, &b, err, sizeof(err));
	kb_progress_view_stop(view);
	if (rc < 0) {
		kb_buf_free(&b);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	return kb_emit(a, &b);
}
