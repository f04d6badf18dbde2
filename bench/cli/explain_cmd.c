/* SPDX-License-Identifier: MIT */
/*
 * khash-bench explain: why one cell's keys collide, by their differences.
 */
#include "cli_args.h"

#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "cmd_common.h"
#include "explain.h"
#include "explain_render.h"
#include "names.h"
#include "render.h"

/* Names through a table that reads a string hash, under one --sgen. */
static int explain_names(struct kb_args *a)
{
	const struct kb_string_table *t;
	struct kb_name_explain e;
	struct kb_names names;
	struct kb_cell c;
	struct kb_buf b = { 0 };
	const char *source = NULL;
	char err[512];
	int rc;

	if (a->format != KB_FORMAT_TEXT)
		return kb_fail(KB_EXIT_USAGE, "explain writes a table that reads a string hash as text only");
	if (!a->sgens || (a->sgens & (a->sgens - 1)))
		return kb_fail(KB_EXIT_USAGE, "explain takes one --sgen");
	if ((rc = kb_need_string_table_args(a, &t)) || (rc = kb_read_names(a, t, &names, &source)))
		return rc;
	memset(&c, 0, sizeof(c));
	c.table = t->name;
	c.sgen = lkh_sgen_name((lkh_sgen)__builtin_ctz(a->sgens));
	c.spec.word = a->word;
	c.bits = a->bits;
	c.source = source;
	rc = kb_names_explain(t, (lkh_sgen)__builtin_ctz(a->sgens), a->word, a->bits, a->param,
			      &names, &e, err, sizeof(err));
	kb_names_free(&names);
	if (rc < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s: %s", source, err);
	kb_render_names_explain(&e, &c, &b);
	return kb_emit(a, &b);
}

int kb_cmd_explain(struct kb_args *a)
{
	struct kb_advise_opts o;
	struct kb_hashspec s;
	struct kb_explain *e;
	struct kb_buf b = { 0 };
	struct kb_keys k;
	char err[512];
	int rc;

	if (a->stable >= 0)
		return explain_names(a);
	if (KB_GIVEN(a, NAMES) || KB_GIVEN(a, NAME_SET) || KB_GIVEN(a, SGEN))
		return kb_fail(KB_EXIT_USAGE, "--%s applies to a table that reads a string hash ('khash-bench list')",
			       KB_GIVEN(a, SGEN) ? "sgen" : KB_GIVEN(a, NAMES) ? "names" : "name-set");
	if (a->bits > 32)
		return kb_fail(KB_EXIT_USAGE, "explain takes --bits 1..32");
	if ((rc = kb_cell_keys(a, &o, &k)))
		return rc;
	s.func = o.func;
	s.word = o.word;
	kb_cell_gen(a, &s,
		    KB_GIVEN(a, GEN) || KB_GIVEN(a, MULTIPLIER) || KB_GIVEN(a, SOURCE) ? a->gen
										    : (int)o.gen);
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
