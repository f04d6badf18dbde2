/* SPDX-License-Identifier: MIT */
/*
 * khash-bench explain: why one cell's keys collide, by their differences.
 */
#include "cli_args.h"

#include <stdlib.h>

#include "advise.h"
#include "cmd_common.h"
#include "explain.h"
#include "explain_render.h"

int kb_cmd_explain(struct kb_args *a)
{
	struct kb_advise_opts o;
	struct kb_hashspec s;
	struct kb_explain *e;
	struct kb_buf b = { 0 };
	struct kb_keys k;
	char err[512];
	int rc;

	if (a->bits > 32)
		return kb_fail(KB_EXIT_USAGE, "explain takes --bits 1..32");
	if ((rc = kb_cell_keys(a, &o, &k)))
		return rc;
	s.func = o.func;
	s.word = o.word;
	kb_cell_gen(a, &s, KB_GIVEN(a, GEN) || KB_GIVEN(a, MULTIPLIER) ? a->gen : (int)o.gen);
	if (kb_hashspec_check(&s, a->bits, err, sizeof(err)) < 0) {
		kb_keys_free(&k);
		return kb_fail(KB_EXIT_USAGE, "%s", err);
	}
	e = malloc(sizeof(*e));
	if (!e) {
		kb_keys_free(&k);
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	}
	rc = kb_explain(&s, a->bits, k.keys, k.n, e, err, sizeof(err));
	kb_keys_free(&k);
	if (rc < 0) {
		free(e);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	kb_render_explain(e, &s, a->bits, k.name, a->format, &b);
	free(e);
	return kb_emit(a, &b);
}
