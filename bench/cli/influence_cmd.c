/* SPDX-License-Identifier: MIT */
/*
 * khash-bench influence: which input bits reach which output bits.
 */
#include "cli_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh.h>

#include "cmd_common.h"
#include "influence.h"
#include "plot.h"
#include "progress_view.h"
#include "render.h"

/* A rough figure for the note below: ns per hash (flips counted) on one
 * thread, measured here for hash_32 and hash_64 (7 and 9.5). */
#define INFLUENCE_NS_PER_HASH 8
/* Work worth a word before it starts: some 30 s of a CPU. */
#define INFLUENCE_NOTE_HASHES (UINT64_C(1) << 32)

/* Say how influence will measure and what it costs, before it starts,
 * when the count asks for every input or the work is long; long work
 * needs --yes, or --enumerate where that is the method. */
static int influence_note(const struct kb_args *a, const struct kb_hashspec *s)
{
	struct kb_influence_plan p;
	char what[128], why[96];
	int rc;

	kb_influence_plan(s, a->kp.count, KB_GIVEN(a, ENUMERATE), &p);
	snprintf(what, sizeof(what), "--count %llu (%llu keys x %u hashes)",
		 (unsigned long long)a->kp.count, (unsigned long long)p.inputs, p.in_bits + 1);
	if (!(KB_GIVEN(a, ENUMERATE) && p.method == KB_INFLUENCE_TRIED) &&
	    (rc = kb_affordable(a, (double)p.hashes * INFLUENCE_NS_PER_HASH / 1e9, what)))
		return rc;
	if (KB_GIVEN(a, QUIET) ||
	    (a->kp.count < (UINT64_C(1) << 32) && p.hashes < INFLUENCE_NOTE_HASHES))
		return 0;
	snprintf(what, sizeof(what), "%s %s on %u-bit", kb_gen_name(kb_hashspec_gen(s)),
		 lkh_func_name(s->func), s->word);
	if (p.method == KB_INFLUENCE_CLOSED) {
		fprintf(stderr, "khash-bench: influence: every 2^32 input of %s in closed form (floor sums): no key hashed\n",
			what);
		return 0;
	}
	if (p.method == KB_INFLUENCE_TRIED)
		snprintf(why, sizeof(why), "%s", KB_GIVEN(a, ENUMERATE)
			 ? "--enumerate: hashed, not in closed form"
			 : "not one multiply: no closed form");
	else if (p.in_bits == 64)
		snprintf(why, sizeof(why), "a 64-bit argument cannot be swept");
	else
		snprintf(why, sizeof(why), "--count %llu or more is every input%s",
			 (unsigned long long)(UINT64_C(1) << 32),
			 p.closed_form ? ", in closed form" : "");
	fprintf(stderr, "khash-bench: influence: %s %llu %s of %s (%s): %llu keys x %u hashes, roughly %.0f min of one CPU\n",
		p.method == KB_INFLUENCE_TRIED ? "trying all" : "sampling",
		(unsigned long long)p.inputs,
		p.method == KB_INFLUENCE_TRIED ? "inputs" : "random keys", what, why,
		(unsigned long long)p.inputs, p.in_bits + 1,
		(double)p.hashes * INFLUENCE_NS_PER_HASH / 60e9);
	return 0;
}

int kb_cmd_influence(struct kb_args *a)
{
	struct kb_hashspec s;
	struct kb_influence *r;
	struct kb_influence_opts io = { 0, 0, NULL };
	struct kb_progress progress = { 0, 0 };
	struct kb_progress_view *view;
	struct kb_buf b = { 0 };
	struct kb_figure fig;
	int rc;

	if ((rc = kb_need_cell_args(a, &s)) || (rc = influence_note(a, &s)))
		return rc;
	r = malloc(sizeof(*r));
	if (!r)
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	io.threads = a->threads;
	io.enumerate = KB_GIVEN(a, ENUMERATE);
	io.progress = &progress;
	view = kb_watch(a, &progress, "keys");
	rc = kb_influence_measure(&s, a->bits, a->kp.count, a->kp.seed, &io, r);
	kb_progress_view_stop(view);
	if (rc < 0) {
		rc = kb_fail(KB_EXIT_RUNTIME, "%s", r->why[0] ? r->why : "cannot measure influence");
		free(r);
		return rc;
	}
	kb_render_influence(r, &s, a->bits, a->format, &b);
	memset(&fig, 0, sizeof(fig));
	if (a->plot)
		kb_figure_influence(r, &s, a->bits, &fig);
	free(r);
	return kb_plot_then_emit(a, &b, &fig, 1);
}
