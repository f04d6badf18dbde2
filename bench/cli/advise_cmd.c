/* SPDX-License-Identifier: MIT */
/*
 * khash-bench advise: what a table should hash its keys with, every
 * candidate ranked by what it costs.
 */
#include "cli_args.h"

#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "advise_render.h"
#include "candidates.h"
#include "cmd_common.h"
#include "names.h"
#include "speed.h"

/* Names through a table that reads a string hash, its generation now
 * one --sgen (default new). */
static int advise_names(struct kb_args *a)
{
	const struct kb_string_table *t;
	struct kb_advise_opts o;
	struct kb_advice *adv;
	struct kb_names names;
	struct kb_buf b = { 0 };
	const char *source = NULL;
	double ns[KB_ADVISE_MAX];
	char err[512];
	size_t i;
	int rc;

	if (a->sgens & (a->sgens - 1))
		return kb_fail(KB_EXIT_USAGE, "advise takes one --sgen: the table's string hash now");
	if (a->families & ~(1u << KB_FAMILY_NEW | 1u << KB_FAMILY_HSIPHASH | 1u << KB_FAMILY_SIPHASH))
		return kb_fail(KB_EXIT_USAGE, "--candidates: over names only new (the other generations), hsiphash and siphash apply");
	if ((rc = kb_need_string_table_args(a, &t)))
		return rc;
	if ((rc = kb_read_names(a, t, &names, &source)))
		return rc;
	memset(&o, 0, sizeof(o));
	o.table = t;
	o.sgen = a->sgens ? (lkh_sgen)__builtin_ctz(a->sgens) : LKH_SGEN_NEW;
	o.param = a->param;
	o.word = a->word;
	o.bits = a->bits;
	o.kind = KB_GIVEN(a, KIND) ? (enum kb_table_kind)a->kind : t->kind;
	o.seed = a->kp.seed;
	o.families = a->families;
	adv = malloc(sizeof(*adv));
	rc = adv ? kb_advise_over_names(&o, &names, adv, err, sizeof(err)) : -1;
	if (rc < 0) {
		kb_names_free(&names);
		free(adv);
		return kb_fail(KB_EXIT_RUNTIME, "%s: %s", source, adv ? err : "out of memory");
	}
	for (i = 0; i < adv->nrows; i++) {
		struct kb_rounds r;

		ns[i] = kb_speed_name_candidate(&adv->rows[i].cand, a->bits, &names, 0.02, &r) < 0
				? -1
				: r.best;
	}
	kb_names_free(&names);
	kb_render_advice(adv, ns, source, a->format, &b);
	free(adv);
	return kb_emit(a, &b);
}

int kb_cmd_advise(struct kb_args *a)
{
	struct kb_advise_opts o;
	struct kb_advice *adv;
	struct kb_candidate c;
	struct kb_buf b = { 0 };
	struct kb_keys k;
	double ns[KB_ADVISE_MAX];
	char err[512];
	size_t i;
	int rc;

	if (a->stable >= 0) {
		if (KB_GIVEN(a, MULTIPLIER))
			return kb_fail(KB_EXIT_USAGE, "--multiplier: a table that reads a string hash ranks string hashes, not a multiplier");
		return advise_names(a);
	}
	if (KB_GIVEN(a, NAMES) || KB_GIVEN(a, NAME_SET) || KB_GIVEN(a, SGEN))
		return kb_fail(KB_EXIT_USAGE, "--%s applies to a table that reads a string hash ('khash-bench list')",
			       KB_GIVEN(a, SGEN) ? "sgen" : KB_GIVEN(a, NAMES) ? "names" : "name-set");
	/* the user's multiplier before any key is read */
	memset(&c, 0, sizeof(c));
	c.kind = KB_CAND_MULTIPLY;
	c.multiplier = a->multiplier;
	c.width = a->width ? a->width : a->multiplier > UINT32_MAX ? 64 : 32;
	c.word = 64;
	if (KB_GIVEN(a, MULTIPLIER) && KB_GIVEN(a, BITS) &&
	    kb_candidate_check(&c, a->bits, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_USAGE, "--multiplier: %s", err);
	if ((rc = kb_cell_keys(a, &o, &k)))
		return rc;
	o.multiplier = a->multiplier;
	o.width = c.width;
	o.families = a->families;
	/* the table's own hash, and the multiplier at the bits now known */
	c.word = o.word;
	if (KB_GIVEN(a, MULTIPLIER) && kb_candidate_check(&c, a->bits, err, sizeof(err)) < 0) {
		kb_keys_free(&k);
		return kb_fail(KB_EXIT_USAGE, "--multiplier: %s", err);
	}
	c.kind = KB_CAND_HASHH;
	c.func = o.func;
	c.gen = o.gen;
	if (a->bits > 32 || kb_candidate_check(&c, a->bits, err, sizeof(err)) < 0) {
		kb_keys_free(&k);
		return kb_fail(KB_EXIT_USAGE, "%s", a->bits > 32 ? "advise takes --bits 1..32" : err);
	}
	adv = malloc(sizeof(*adv));
	if (!adv) {
		kb_keys_free(&k);
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	}
	rc = kb_advise(&o, k.keys, k.n, adv, err, sizeof(err));
	kb_keys_free(&k);
	if (rc < 0) {
		free(adv);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	for (i = 0; i < adv->nrows; i++) {
		struct kb_rounds r;

		/* a short measurement: the ranking is by cost, speed is a guide */
		ns[i] = kb_speed_candidate(&adv->rows[i].cand, a->bits, 0.02, &r) < 0 ? -1 : r.best;
	}
	kb_render_advice(adv, ns, k.name, a->format, &b);
	free(adv);
	return kb_emit(a, &b);
}
