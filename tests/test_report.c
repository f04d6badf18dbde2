/* SPDX-License-Identifier: MIT */
/*
 * The report (core/report.c) and its text (io/render.c): every cell of
 * every table size is counted, folding agrees with counting each size
 * directly, and the summary line per generation is the tally of the cells'
 * own verdicts, counted here independently of the renderer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "render.h"
#include "report.h"

static struct kb_report run_small(void)
{
	struct kb_report r;
	char err[256];

	memset(&r, 0, sizeof(r));
	r.opts.keysets = 1u << KB_KS_SEQ | 1u << KB_KS_PAGE4K | 1u << KB_KS_BTRFS_STRIPE |
			 1u << KB_KS_STRUCT_PAGE;
	r.opts.funcs = 1u << LKH_FUNC_HASH_32 | 1u << LKH_FUNC_HASH_64;
	r.opts.gens = (1u << LKH_GEN_COUNT) - 1;
	r.opts.words = 3;
	r.opts.bits_min = 6;
	r.opts.bits_max = 12;
	r.opts.threads = 1;
	r.opts.params.count = 4096;
	r.opts.params.seed = 1;
	assert_int_equal(kb_report_run(&r, err, sizeof(err)), 0);
	return r;
}

/* Every applicable cell holds all the keys, at every table size, and
 * equals a direct count at its own size. */
static void every_cell_is_counted(void **state)
{
	struct kb_report r = run_small();
	const struct kb_engine_opts one_thread = { 1, KB_PATH_AUTO, 0, NULL, 0 };
	size_t i, ok = 0;

	(void)state;
	for (i = 0; i < r.n_cells; i++) {
		const struct kb_cell *c = &r.cells[i];
		uint64_t *counts;
		struct kb_skew direct;
		char err[256];

		if (!c->ok)
			continue;
		ok++;
		assert_true(c->skew.n == 4096);
		assert_true(c->skew.buckets == UINT64_C(1) << c->bits);
		assert_int_equal(kb_count_keyset(&c->spec, c->bits, c->keyset, &r.opts.params,
						 &one_thread, &counts, err, sizeof(err)), 0);
		kb_skew_from_counts(counts, UINT64_C(1) << c->bits, &direct);
		free(counts);
		assert_true(direct.used == c->skew.used);
		assert_true(direct.max_load == c->skew.max_load);
		assert_true(direct.chi2 == c->skew.chi2);
	}
	/* 4 sets x 2 functions x 2 words x 3 generations x 7 sizes, less the
	 * address sets that do not fit hash_32's 32-bit argument on 64-bit */
	assert_true(ok > 200);
	kb_report_free(&r);
}

static void summary_is_the_tally_of_verdicts(void **state)
{
	struct kb_report r = run_small();
	struct kb_buf b = { 0 };
	int tally[LKH_GEN_COUNT][3] = { { 0 } };
	size_t i;
	int g, any_even = 0, width = 0;

	(void)state;
	for (i = 0; i < r.n_cells; i++) {
		const char *v;

		if (!r.cells[i].ok)
			continue;
		v = kb_verdict(&r.cells[i].skew);
		any_even |= !strcmp(v, "even");
		tally[r.cells[i].spec.gen][!strcmp(v, "broken") ? 0 : !strcmp(v, "skewed") ? 1 : 2]++;
	}
	assert_true(any_even); /* the case the summary must not miscount */
	assert_true(tally[LKH_GEN_OLD][0] > 0);
	kb_render_report(&r, KB_FORMAT_TEXT, 1, &b);
	for (g = 0; g < LKH_GEN_COUNT; g++)
		if ((int)strlen(lkh_gen_name((lkh_gen)g)) > width)
			width = (int)strlen(lkh_gen_name((lkh_gen)g));
	for (g = 0; g < LKH_GEN_COUNT; g++) {
		char line[128];

		/* names padded to the longest, "minimal" */
		snprintf(line, sizeof(line), "  %-*s %4d broken, %4d skewed, %4d fine\n",
			 width, lkh_gen_name((lkh_gen)g), tally[g][0], tally[g][1], tally[g][2]);
		if (!strstr(b.data, line))
			fail_msg("summary line missing: %s in\n%s", line, b.data);
	}
	kb_buf_free(&b);
	kb_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_cell_is_counted),
		cmocka_unit_test(summary_is_the_tally_of_verdicts),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
