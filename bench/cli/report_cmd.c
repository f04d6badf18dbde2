/* SPDX-License-Identifier: MIT */
/*
 * khash-bench report: the main job, every key set x function x generation
 * x word x table size, or a key file's keys, with a summary per generation.
 */
#include "cli_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh.h>

#include "cmd_common.h"
#include "key_source.h"
#include "keysets.h"
#include "plot.h"
#include "progress_view.h"
#include "render.h"
#include "report.h"
#include "tables.h"

/* Key-set options mean nothing to a key file: say so rather than ignore. */
static int keys_not_keyset(const struct kb_args *a)
{
	static const int keyset_only[] = { KB_OPT_COUNT, KB_OPT_BASE, KB_OPT_STRIDE,
					   KB_OPT_SEED, KB_OPT_SIZE };
	size_t i;

	for (i = 0; i < sizeof(keyset_only) / sizeof(keyset_only[0]); i++)
		if (a->given & (UINT64_C(1) << keyset_only[i]))
			return kb_fail(KB_EXIT_USAGE, "--%s applies to --keyset, not to --keys",
				       kb_options[keyset_only[i]].name);
	return 0;
}

/* Generation K must suit every function and word the report sweeps. */
static int check_report_k(struct kb_args *a)
{
	struct kb_report_opts o = a->ro;
	struct kb_hashspec s;
	char err[256];
	unsigned f, w;

	if (!(o.gens & 1u << KB_GEN_K))
		return 0;
	o.k = a->multiplier;
	o.k_width = a->width;
	for (f = 0; f < LKH_FUNC_COUNT; f++)
		for (w = 32; w <= 64; w += 32) {
			if (!(o.funcs & 1u << f) || !(o.words & (w == 64 ? 2u : 1u)) ||
			    !lkh_bits_max((lkh_func)f, KB_GEN_TODAY, w))
				continue;
			kb_report_spec(&o, KB_GEN_K, (lkh_func)f, w, &s);
			if (kb_hashspec_check(&s, o.bits_max, err, sizeof(err)) < 0)
				return kb_fail(KB_EXIT_USAGE, "--multiplier: %s", err);
		}
	return 0;
}

/* --verbose: how each group of cells (a key set, function and word, every
 * generation together at the largest size) was counted. */
static void say_counted(const struct kb_report *r)
{
	unsigned per = r->opts.bits_max - r->opts.bits_min + 1;
	size_t i, j;

	for (i = 0; i < r->n_cells; i = j) {
		const struct kb_cell *c = &r->cells[i + per - 1]; /* the largest size */
		struct kb_buf v = { 0 };

		for (j = i; j < r->n_cells && r->cells[j].keyset == r->cells[i].keyset &&
			    r->cells[j].spec.func == r->cells[i].spec.func &&
			    r->cells[j].spec.word == r->cells[i].spec.word; j++)
			;
		kb_counted_text(c, (unsigned)((j - i) / per), r->opts.bits_min, &v);
		kb_fail(0, "report: %s", v.data ? v.data : "out of memory");
		kb_buf_free(&v);
	}
}

/* Names through a table that reads a string hash: every word, string
 * generation (--sgen, default all) and table size. */
static int report_names(struct kb_args *a)
{
	const unsigned per = a->ro.bits_max - a->ro.bits_min + 1;
	const struct kb_string_table *t;
	struct kb_cell *cells;
	struct kb_names names;
	struct kb_buf b = { 0 };
	const char *source = NULL;
	unsigned sgens = a->sgens ? a->sgens : (1u << LKH_SGEN_COUNT) - 1, w;
	char err[512];
	size_t n = 0;
	int g, rc;

	if (KB_GIVEN(a, KEYSETS) || KB_GIVEN(a, FUNCS) || KB_GIVEN(a, GENS) || KB_GIVEN(a, HIST) ||
	    a->plot || KB_GIVEN(a, MULTIPLIER))
		return kb_fail(KB_EXIT_USAGE, "--%s does not apply to a table that reads a string hash",
			       KB_GIVEN(a, KEYSETS) ? "keysets" : KB_GIVEN(a, FUNCS) ? "funcs"
			       : KB_GIVEN(a, GENS) ? "gens" : KB_GIVEN(a, HIST) ? "hist"
			       : a->plot ? "plot" : "multiplier");
	if (a->format == KB_FORMAT_JSON)
		return kb_fail(KB_EXIT_USAGE, "report writes a table that reads a string hash as text or csv, not json");
	/* the table's own bits are not the report's: it sweeps every size */
	a->given |= KB_OPT(BITS);
	if ((rc = kb_need_string_table_args(a, &t)))
		return rc;
	if ((rc = kb_read_names(a, t, &names, &source)))
		return rc;
	cells = calloc((size_t)per * LKH_SGEN_COUNT * 2, sizeof(*cells));
	for (w = 64; cells && !rc && w >= 32; w -= 32)
		for (g = 0; !rc && g < LKH_SGEN_COUNT; g++) {
			if (!(a->ro.words & (w == 64 ? 2u : 1u)) || !(sgens & 1u << g))
				continue;
			if (!KB_GIVEN(a, PARAM))
				a->param = kb_string_table_param(t, w);
			if (kb_string_table_sizes(t, (lkh_sgen)g, w, a->ro.bits_min, a->ro.bits_max,
						  a->param, &names, source, cells + n, err,
						  sizeof(err)) < 0)
				rc = kb_fail(KB_EXIT_RUNTIME, "%s: %s", source, err);
			n += per;
		}
	kb_names_free(&names);
	if (!cells)
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	if (!rc) {
		if (a->format == KB_FORMAT_CSV)
			kb_render_cells(cells, n, source, a->format, &b);
		else
			kb_render_string_report(cells, n, per, a->step, &b);
	}
	free(cells);
	return rc ? rc : kb_emit(a, &b);
}

int kb_cmd_report(struct kb_args *a)
{
	struct kb_keys k = { 0 };
	struct kb_key_source src;
	struct kb_report r;
	struct kb_buf b = { 0 };
	struct kb_progress progress = { 0, 0 };
	struct kb_progress_view *view;
	char err[512];
	int rc;

	if (a->ro.bits_min < 1 || a->ro.bits_min > a->ro.bits_max)
		return kb_fail(KB_EXIT_USAGE, "need 1 <= --bits-min <= --bits-max");
	if (a->ro.bits_max > 32)
		return kb_fail(KB_EXIT_USAGE, "--bits-max %u out of range: these functions return at most 32 bits for every generation (1..32)",
			    a->ro.bits_max);
	if ((rc = kb_check_memory(a, a->ro.bits_max, (unsigned)__builtin_popcount(a->ro.gens))))
		return rc;
	if (a->stable >= 0)
		return report_names(a);
	if (a->table >= 0)
		return kb_fail(KB_EXIT_USAGE, "report takes a table that reads a string hash ('khash-bench list'), not %s",
			       kb_tables[a->table].name);
	if ((rc = check_report_k(a)))
		return rc;
	if (a->keys) {
		if ((rc = keys_not_keyset(a)))
			return rc;
		if (KB_GIVEN(a, KEYSETS) || KB_GIVEN(a, HIST) || a->plot)
			return kb_fail(KB_EXIT_USAGE, "--%s applies to the built-in key sets, not to --keys",
				       KB_GIVEN(a, KEYSETS) ? "keysets" : KB_GIVEN(a, HIST) ? "hist" : "plot");
	} else if ((rc = kb_check_heap_memory(a, a->ro.keysets))) {
		return rc;
	} else if (a->ro.keysets & (1u << KB_KS_ADVERSARIAL)) {
		/* built against one cell, it has no row in a sweep */
		return kb_fail(KB_EXIT_USAGE, "--keysets %s: built against one cell, it is for skew, keys, advise and explain, not report",
			       kb_keysets[KB_KS_ADVERSARIAL].name);
	}
	if (!KB_GIVEN(a, HIST) && a->plot) {
		/* The two cells of the story: page and stripe addresses. */
		static const struct kb_hist_req defaults[] = {
			{ KB_KS_PAGE4K, LKH_FUNC_HASH_64, 64, 11 },
			{ KB_KS_BTRFS_STRIPE, LKH_FUNC_HASH_64, 64, 11 },
		};

		memcpy(a->hist, defaults, sizeof(defaults));
		a->nhist = 2;
	}
	memset(&r, 0, sizeof(r));
	r.opts = a->ro;
	r.opts.k = a->multiplier;
	r.opts.k_width = a->width;
	r.opts.params = a->kp;
	r.opts.threads = a->threads;
	r.opts.enumerate = KB_GIVEN(a, ENUMERATE);
	r.opts.progress = &progress;
	if (!a->keys && ((rc = kb_exact_count(a, a->kp.count, a->ro.bits_max)) ||
			 (rc = kb_affordable(a, kb_report_seconds(&r.opts),
					     kb_count_what(a, err, sizeof(err))))))
		return rc;
	if (a->keys) {
		/* a table holds an object once: each key counted once, its
		 * hash words and their sort beside it within --max-memory */
		if ((rc = kb_key_source_of(a, 24, &src)) || (rc = kb_read_keys(&src, &k)))
			return rc;
		r.opts.nkeys = k.n;
		r.opts.keys = k.keys;
		r.opts.keys_name = k.name;
		r.opts.params.count = r.opts.nkeys;
	}
	view = kb_watch(a, &progress, "hashes");
	rc = kb_report_run(&r, err, sizeof(err));
	kb_keys_free(&k);
	r.opts.keys = NULL;
	kb_progress_view_stop(view);
	if (rc < 0) {
		kb_report_free(&r);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	if (a->plot) {
		struct kb_hist hists[KB_MAX_HIST];
		int failed = kb_report_hists(&r, a->hist, a->nhist, hists, err,
					     sizeof(err)) < 0;

		if (!failed) {
			failed = kb_plot_outcome(kb_plot_report(&r, hists, a->nhist, a->plot,
								err, sizeof(err)),
						 err) != 0;
			kb_hists_free(hists, a->nhist);
		} else {
			kb_fail(KB_EXIT_RUNTIME, "%s", err);
		}
		if (failed) {
			kb_report_free(&r);
			return KB_EXIT_RUNTIME;
		}
	}
	if (KB_GIVEN(a, VERBOSE))
		say_counted(&r);
	kb_render_report(&r, a->format, a->step, &b);
	kb_report_free(&r);
	rc = kb_emit(a, &b);
	if (!rc && a->plot && a->format == KB_FORMAT_TEXT)
		fprintf(stdout, "plots written to %s/\n", a->plot);
	return rc;
}
