/* SPDX-License-Identifier: MIT */
/*
 * The report (core/report.c) and its text (io/render.c): every cell of
 * every table size is counted, folding agrees with counting each size
 * directly, and the summary per generation (kb_report_summarize, the
 * text's lines and the JSON's object) is the tally of the cells' own
 * verdicts, counted here independently.
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

/* Every generation at 2^6..2^12 buckets, one thread. */
static struct kb_report run_report(unsigned keysets, unsigned funcs, unsigned words,
				   uint64_t count)
{
	struct kb_report r;
	char err[256];

	memset(&r, 0, sizeof(r));
	r.opts.keysets = keysets;
	r.opts.funcs = funcs;
	r.opts.gens = (1u << LKH_GEN_COUNT) - 1;
	r.opts.words = words;
	r.opts.bits_min = 6;
	r.opts.bits_max = 12;
	r.opts.threads = 1;
	r.opts.params.count = count;
	r.opts.params.seed = 1;
	assert_int_equal(kb_report_run(&r, err, sizeof(err)), 0);
	return r;
}

static struct kb_report run_small(uint64_t count)
{
	/* random: keys as wide as each function's argument */
	return run_report(1u << KB_KS_SEQ | 1u << KB_KS_PAGE4K | 1u << KB_KS_BTRFS_STRIPE |
				  1u << KB_KS_STRUCT_PAGE | 1u << KB_KS_RANDOM,
			  1u << LKH_FUNC_HASH_32 | 1u << LKH_FUNC_HASH_64, 3, count);
}

/* Every applicable cell holds all the keys, at every table size, and
 * equals a direct count at its own size: with as many keys as the
 * largest table has buckets (counted there and folded down) and with
 * fewer (every size from the sorted hash words). */
static void every_cell_is_counted_at(uint64_t count)
{
	struct kb_report r = run_small(count);
	const struct kb_engine_opts one_thread = { .threads = 1, .path = KB_PATH_AUTO };
	size_t i, ok = 0;

	for (i = 0; i < r.n_cells; i++) {
		const struct kb_cell *c = &r.cells[i];
		uint64_t *counts;
		struct kb_skew direct;
		char err[256];

		if (!c->ok)
			continue;
		ok++;
		assert_true(c->skew.n == count);
		assert_true(c->skew.buckets == UINT64_C(1) << c->bits);
		assert_int_equal(kb_count_keyset(&c->spec, c->bits, c->keyset, &r.opts.params,
						 &one_thread, &counts, err, sizeof(err)), 0);
		kb_skew_from_counts(counts, UINT64_C(1) << c->bits, &direct);
		free(counts);
		assert_true(direct.used == c->skew.used);
		assert_true(direct.max_load == c->skew.max_load);
		assert_true(direct.chi2 == c->skew.chi2);
		assert_true(direct.log10_p_upper == c->skew.log10_p_upper);
		assert_true(direct.log10_p_lower == c->skew.log10_p_lower);
	}
	/* 4 sets x 2 functions x 2 words x 3 generations x 7 sizes, less the
	 * address sets that do not fit hash_32's 32-bit argument on 64-bit */
	assert_true(ok > 200);
	kb_report_free(&r);
}

static void every_cell_is_counted(void **state)
{
	(void)state;
	every_cell_is_counted_at(4096);
	every_cell_is_counted_at(1000);
}

static void summary_is_the_tally_of_verdicts(void **state)
{
	struct kb_report r = run_small(4096);
	struct kb_buf b = { 0 };
	int tally[LKH_GEN_COUNT][3] = { { 0 } };
	size_t i;
	int g, any_even = 0, width = 0;

	(void)state;
	for (i = 0; i < r.n_cells; i++) {
		enum kb_verdict_kind v;

		if (!r.cells[i].ok)
			continue;
		v = kb_verdict_of(&r.cells[i].skew);
		any_even |= v == KB_VERDICT_EVEN;
		tally[r.cells[i].spec.gen][v == KB_VERDICT_BROKEN ? 0 : v == KB_VERDICT_SKEWED ? 1 : 2]++;
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

/* A cell of generation g with the verdict's inputs (n keys, 4096 buckets). */
static void hand_cell(struct kb_cell *c, int g, unsigned bits, int ok, uint64_t n,
		      double chi2_per_df, double log10_p_upper, double log10_p_lower)
{
	memset(c, 0, sizeof(*c));
	c->keyset = KB_KS_SEQ;
	c->spec.func = LKH_FUNC_HASH_32;
	c->spec.word = 64;
	kb_hashspec_set_gen(&c->spec, g, 0x61C88647, 32);
	c->bits = bits;
	c->ok = ok;
	if (!ok)
		snprintf(c->why, sizeof(c->why), "not applicable");
	c->skew.n = n;
	c->skew.buckets = 4096;
	c->skew.df = 4095;
	c->skew.chi2_per_df = chi2_per_df;
	c->skew.chi2 = chi2_per_df * 4095;
	c->skew.log10_p_upper = log10_p_upper;
	c->skew.log10_p_lower = log10_p_lower;
}

/*
 * A report built by hand, two table sizes a row, so every count below is
 * read off the rows: old has one broken cell and one with too few keys
 * (905 keys in 4096 buckets), and a row that does not apply, which counts
 * nowhere although its cells look broken; new has a skewed cell, an even
 * one (fine) and two broken; K an ok cell and one of no keys (fine, no
 * verdict); minimal and posted are not in the report.
 */
static void summary_of_a_report_by_hand(void **state)
{
	struct kb_cell cells[10];
	struct kb_report r;
	struct kb_report_summary s;
	struct kb_buf b = { 0 };
	const struct kb_verdict_tally none = { 0, 0, 0, 0 };

	(void)state;
	hand_cell(&cells[0], LKH_GEN_OLD, 6, 1, 906, 50, -90, -0.1);
	hand_cell(&cells[1], LKH_GEN_OLD, 7, 1, 905, 50, -90, -0.1);
	hand_cell(&cells[2], LKH_GEN_NEW, 6, 1, 906, 1.2, -7, -0.1);
	hand_cell(&cells[3], LKH_GEN_NEW, 7, 1, 906, 0.8, -0.1, -7);
	hand_cell(&cells[4], LKH_GEN_OLD, 6, 0, 906, 50, -90, -0.1);
	hand_cell(&cells[5], LKH_GEN_OLD, 7, 0, 906, 50, -90, -0.1);
	hand_cell(&cells[6], KB_GEN_K, 6, 1, 906, 1.0, -0.3, -0.3);
	hand_cell(&cells[7], KB_GEN_K, 7, 1, 0, 0, 0, 0);
	hand_cell(&cells[8], LKH_GEN_NEW, 6, 1, 906, 10, -0.1, -0.1);
	hand_cell(&cells[9], LKH_GEN_NEW, 7, 1, 906, 11, -0.1, -0.1);
	memset(&r, 0, sizeof(r));
	r.opts.gens = 1u << LKH_GEN_OLD | 1u << LKH_GEN_NEW | 1u << KB_GEN_K;
	r.opts.k = 0x61C88647;
	r.opts.k_width = 32;
	r.opts.bits_min = 6;
	r.opts.bits_max = 7;
	r.cells = cells;
	r.n_cells = 10;
	kb_report_summarize(&r, &s);
	assert_int_equal(s.gens, r.opts.gens);
	assert_int_equal(s.too_few, 1);
	assert_memory_equal(&s.gen[LKH_GEN_OLD], (&(struct kb_verdict_tally){ 1, 0, 0, 1 }),
			    sizeof(none));
	assert_memory_equal(&s.gen[LKH_GEN_NEW], (&(struct kb_verdict_tally){ 2, 1, 1, 0 }),
			    sizeof(none));
	assert_memory_equal(&s.gen[KB_GEN_K], (&(struct kb_verdict_tally){ 0, 0, 2, 0 }),
			    sizeof(none));
	assert_memory_equal(&s.gen[LKH_GEN_MINIMAL], &none, sizeof(none));
	assert_memory_equal(&s.gen[LKH_GEN_POSTED], &none, sizeof(none));

	/* the text says it, names padded to "minimal", the column for too
	 * few keys because a cell has too few */
	kb_render_report(&r, KB_FORMAT_TEXT, 1, &b);
	assert_non_null(strstr(b.data, "\n  old        1 broken,    0 skewed,    0 fine,    1 with too few keys\n"
				       "  new        2 broken,    1 skewed,    1 fine,    0 with too few keys\n"
				       "  K          0 broken,    0 skewed,    2 fine,    0 with too few keys\n"));
	assert_null(strstr(b.data, "  minimal "));
	kb_buf_free(&b);
	kb_render_report(&r, KB_FORMAT_JSON, 1, &b);
	assert_non_null(strstr(b.data, "\n  ],\n  \"summary\": {\n"
				       "    \"old\": {\"broken\": 1, \"skewed\": 0, \"fine\": 0, \"too_few\": 1},\n"
				       "    \"new\": {\"broken\": 2, \"skewed\": 1, \"fine\": 1, \"too_few\": 0},\n"
				       "    \"K\": {\"broken\": 0, \"skewed\": 0, \"fine\": 2, \"too_few\": 0}\n"
				       "  },\n  \"worst_lookup\": {"));
	kb_buf_free(&b);
}

/*
 * 300 keys make 300 * 299 / 2m = 44850 / m colliding pairs under a random
 * function: 175 at 2^8 buckets, 87.6 at 2^9, so a verdict from 2^6 to 2^8
 * and too few keys above, in every cell, text, CSV and JSON; 2^12 buckets
 * would need 906 keys (906 * 905 = 819930 >= 200 * 4096, 905 * 904 =
 * 818120 is not).
 */
static void too_few_keys_from_2_to_the_9(void **state)
{
	struct kb_report r = run_report(1u << KB_KS_SEQ, 1u << LKH_FUNC_HASH_32, 2, 300);
	struct kb_buf b = { 0 };
	char line[128];
	size_t i, judged = 0, too_few[LKH_GEN_COUNT] = { 0 };
	int g;

	(void)state;
	for (i = 0; i < r.n_cells; i++) {
		const char *v = kb_verdict(&r.cells[i].skew);

		assert_true(r.cells[i].ok);
		if (r.cells[i].bits >= 9) {
			assert_string_equal(v, "too few keys");
			too_few[r.cells[i].spec.gen]++;
		} else {
			assert_string_not_equal(v, "too few keys");
			judged++;
		}
	}
	assert_int_equal(judged, 3 * LKH_GEN_COUNT);
	kb_render_report(&r, KB_FORMAT_TEXT, 1, &b);
	assert_non_null(strstr(b.data, "\n       ? too few keys for a verdict: a random function would put fewer than 100 pairs of them\n"
				       "         in a shared bucket (2^12 buckets need 906 keys)\n"));
	/* old hash_32 of 0..299 at 2^9, by Python: c[(x * 0x9e370001 % 2**32)
	 * >> 23] += 1, (512 * sum(v * v) - 300**2) / 300 / 511 = 0.8157 */
	assert_non_null(strstr(b.data, "| ~ 0.141 ~ 0.205 ~ 0.249 ? 0.816 ?"));
	for (g = 0; g < LKH_GEN_COUNT; g++) {
		snprintf(line, sizeof(line), " fine, %4zu with too few keys\n", too_few[g]);
		assert_int_equal(too_few[g], 4);
		assert_non_null(strstr(b.data, line));
	}
	kb_buf_free(&b);
	kb_render_report(&r, KB_FORMAT_CSV, 1, &b);
	assert_non_null(strstr(b.data, ",too few keys,,\n")); /* then K's two columns */
	kb_buf_free(&b);
	kb_render_report(&r, KB_FORMAT_JSON, 1, &b);
	assert_non_null(strstr(b.data, "\"verdict\": \"too few keys\", \"keys_needed\": 906, \"why\": \"a random function would put 10.9 pairs of 300 keys in a shared bucket of 4096; a verdict needs 100 pairs, 906 keys\", \"counted_by\": \"sorted\"}"));
	kb_buf_free(&b);
	kb_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_cell_is_counted),
		cmocka_unit_test(summary_is_the_tally_of_verdicts),
		cmocka_unit_test(summary_of_a_report_by_hand),
		cmocka_unit_test(too_few_keys_from_2_to_the_9),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
