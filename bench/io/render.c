/* SPDX-License-Identifier: MIT */
#include "render.h"

#include "cost_render.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <khash/lkh.h>

#include "keysets.h"
#include "names.h"
#include "schemas.h"
#include "stats.h"

/* ---- the report and single cells ---------------------------------------- */

/* What a cell hashes with: a function, or a named table's whole recipe. */
static const char *cell_func(const struct kb_cell *c)
{
	return c->table ? c->table : lkh_func_name(c->spec.func);
}

/* Its generation's name: a string table's string-hash generation, else
 * the hash's. */
static const char *cell_gen(const struct kb_cell *c)
{
	return c->sgen ? c->sgen : kb_hashspec_gen_name(&c->spec);
}

static char mark_of(const struct kb_cell *c)
{
	return kb_verdict_mark(kb_verdict_of(&c->skew));
}

/* The '?' mark's legend, said only where a cell has it, so tables with keys
 * enough print as they did; 2^bits: the largest such table. */
static void too_few_legend(unsigned bits, struct kb_buf *b)
{
	kb_buf_printf(b, "       ? too few keys for a verdict: a random function would put fewer than %d pairs of them\n"
			 "         in a shared bucket (2^%u buckets need %llu keys)\n",
		      KB_MIN_PAIRS, bits,
		      (unsigned long long)kb_keys_needed(UINT64_C(1) << bits));
}

/* Why a cell has too few keys, and what its table would need. */
static void too_few_why(const struct kb_skew *s, struct kb_buf *b)
{
	kb_buf_printf(b, "a random function would put %.3g pairs of %llu keys in a shared bucket of %llu; a verdict needs %d pairs, %llu keys",
		      kb_expected_pairs(s->n, s->buckets), (unsigned long long)s->n,
		      (unsigned long long)s->buckets, KB_MIN_PAIRS,
		      (unsigned long long)kb_keys_needed(s->buckets));
}

void kb_gen_k_line(const struct kb_gen *k, const char *more, struct kb_buf *b)
{
	kb_buf_printf(b, "K: the key times 0x%llx mod 2^w, its top bits (w = %s%s)\n",
		      (unsigned long long)k->k,
		      k->width == 64 ? "64" : k->width == 32 ? "32" : "the wider of K's and the key's",
		      more);
}

static void report_text(const struct kb_report *r, unsigned step,
			   struct kb_buf *b)
{
	const struct kb_report_opts *o = &r->opts;
	unsigned nb = o->bits_max - o->bits_min + 1, bits;
	struct kb_report_summary sum;
	size_t i;
	int g, gw = 0;

	/* the generation column fits the longest name */
	for (g = 0; g < KB_GEN_COUNT; g++)
		if ((int)strlen(kb_gen_name(g)) > gw)
			gw = (int)strlen(kb_gen_name(g));
	kb_buf_printf(b, "khash-bench %s report: %llu keys per key set; X^2/df per table size (1 = like a random function)\n",
		      lkh_version_string(),
		      (unsigned long long)o->params.count);
	kb_buf_printf(b, "marks: # broken (X^2/df >= %d)   ! skewed (p_upper < %g)   ~ more even than random (p_lower < %g)\n",
		      KB_BROKEN, KB_ALPHA, KB_ALPHA);
	kb_report_summarize(r, &sum);
	/* said only where it happens, so reports with keys enough stay as they were */
	if (sum.too_few)
		too_few_legend(o->bits_max, b);
	if (o->gens & 1u << KB_GEN_K) {
		const struct kb_gen k = { KB_GEN_K, o->k, o->k_width };

		kb_gen_k_line(&k, "", b);
	}
	kb_buf_printf(b, "\n");
	kb_buf_printf(b, "%-13s %-9s %-4s %-*s |", "key set", "function", "word", gw,
		      "gen");
	for (bits = o->bits_min; bits <= o->bits_max; bits += step)
		kb_buf_printf(b, " %7s", "");
	kb_buf_printf(b, "\n%-13s %-9s %-4s %-*s |", "", "", "", gw, "bits:");
	for (bits = o->bits_min; bits <= o->bits_max; bits += step)
		kb_buf_printf(b, " %7u", bits);
	kb_buf_printf(b, "\n");
	for (i = 0; i < r->n_cells; i += nb) {
		const struct kb_cell *row = &r->cells[i];
		const struct kb_cell *prev = i ? row - nb : NULL;
		int first_of_group = !prev || row->keyset != prev->keyset ||
				     row->spec.func != prev->spec.func ||
				     row->spec.word != prev->spec.word;
		unsigned j;

		if (first_of_group)
			kb_buf_printf(b, "%-13s %-9s %-4u %-*s |",
				      kb_cell_source(row),
				      lkh_func_name(row->spec.func),
				      row->spec.word, gw, kb_hashspec_gen_name(&row->spec));
		else
			kb_buf_printf(b, "%-13s %-9s %-4s %-*s |", "", "", "", gw,
				      kb_hashspec_gen_name(&row->spec));
		if (!row->ok) {
			kb_buf_printf(b, " n/a: %s\n", row->why);
			continue;
		}
		for (j = 0; j < nb; j += step) {
			const struct kb_cell *c = &row[j];
			double v = c->skew.chi2_per_df;
			char num[16];

			/* six columns at most, so the table stays aligned */
			if (v == 0)
				snprintf(num, sizeof(num), "0");
			else if (v < 0.01)
				snprintf(num, sizeof(num), "<.01");
			else if (v < 1000)
				snprintf(num, sizeof(num), "%.3g", v);
			else
				snprintf(num, sizeof(num), "%.0e", v);
			kb_buf_printf(b, " %c%6s", mark_of(c), num);
		}
		kb_buf_printf(b, "\n");
	}
	kb_buf_printf(b, "\nsummary (cells over all key sets, functions, word sizes and bits %u..%u):\n",
		      o->bits_min, o->bits_max);
	for (g = 0; g < KB_GEN_COUNT; g++) {
		const struct kb_verdict_tally *t = &sum.gen[g];

		if (!(sum.gens & (1u << g)))
			continue;
		kb_buf_printf(b, "  %-*s %4zu broken, %4zu skewed, %4zu fine", gw,
			      kb_gen_name(g), t->broken, t->skewed, t->fine);
		if (sum.too_few)
			kb_buf_printf(b, ", %4zu with too few keys", t->too_few);
		kb_buf_printf(b, "\n");
	}
	kb_buf_printf(b, "worst cell, as a chained table: entries compared per successful lookup, over a random function's:\n");
	for (g = 0; g < KB_GEN_COUNT; g++) {
		const struct kb_cell *c;

		if (!(sum.gens & (1u << g)) || sum.worst_cell[g] < 0)
			continue;
		c = &r->cells[sum.worst_cell[g]];
		kb_buf_printf(b, "  %-*s %8.3gx  %s %s on %u-bit, 2^%u buckets\n", gw, kb_gen_name(g),
			      sum.worst_hit[g], kb_cell_source(c), cell_func(c), c->spec.word,
			      c->bits);
	}
}

/* A cell's fields: a key file's cell says what it read (three more
 * columns), then which K (schema 2); source: what JSON calls the keys
 * when not a key set's name (a file: its CSV says "keys").  JSON leaves
 * out what a cell with no verdict lacks and says why instead. */
static void cell_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_cell *c,
			const char *source)
{
	const struct kb_skew *s = &c->skew;
	unsigned none = c->ok ? 0 : KB_NONE_OMIT;
	int too_few = c->ok && kb_verdict_of(s) == KB_VERDICT_TOO_FEW;
	int engine = c->counted_by == KB_COUNTED_ENGINE;
	struct kb_buf why = { 0 };
	struct kb_field k[2], cost[6];
	struct kb_gen g;

	kb_hashspec_kb_gen(&c->spec, &g);
	kb_k_fields(&g, k);
	kb_cost_fields(s, none, cost);
	if (too_few && as == KB_FIELDS_JSON)
		too_few_why(s, &why);
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_CELL].csv_version, .in = KB_IN_CSV },
		{ .name = "keys", .form = KB_FIELD_STR, .s = kb_cell_source(c), .in = KB_IN_CSV },
		{ .name = "keys", .form = KB_FIELD_STR, .in = KB_IN_JSON,
		  .s = c->keyset < 0 && source ? source : kb_cell_source(c) },
		{ .name = "func", .form = KB_FIELD_STR, .s = cell_func(c) },
		{ .name = "gen", .form = KB_FIELD_STR, .s = cell_gen(c) },
		{ .name = "word", .u = c->spec.word },
		{ .name = "bits", .u = c->bits },
		{ .form = KB_FIELD_GROUP, .sub = k, .n = 2, .in = KB_IN_JSON },
		{ .name = "n", .u = s->n, .none = none },
		{ .name = "buckets", .u = s->buckets, .none = none },
		{ .name = "chi2", .form = KB_FIELD_NUM, .d = s->chi2, .none = none },
		{ .name = "df", .form = KB_FIELD_NUM_FIX, .d = s->df, .none = none },
		{ .name = "chi2_per_df", .form = KB_FIELD_NUM, .d = s->chi2_per_df, .none = none },
		/* CSV: the logarithms before the probabilities; JSON after */
		{ .name = "log10_p_upper", .form = KB_FIELD_NUM, .d = s->log10_p_upper,
		  .none = none, .in = KB_IN_CSV },
		{ .name = "log10_p_lower", .form = KB_FIELD_NUM, .d = s->log10_p_lower,
		  .none = none, .in = KB_IN_CSV },
		{ .name = "p_upper", .form = KB_FIELD_NUM_G, .prec = 6,
		  .d = kb_pow10_or_zero(s->log10_p_upper), .none = none },
		{ .name = "p_lower", .form = KB_FIELD_NUM_G, .prec = 6,
		  .d = kb_pow10_or_zero(s->log10_p_lower), .none = none },
		{ .name = "log10_p_upper", .form = KB_FIELD_NUM, .d = s->log10_p_upper,
		  .none = none, .in = KB_IN_JSON },
		{ .name = "log10_p_lower", .form = KB_FIELD_NUM, .d = s->log10_p_lower,
		  .none = none, .in = KB_IN_JSON },
		{ .name = "used", .u = s->used, .none = none },
		{ .name = "max_load", .u = s->max_load, .none = none },
		{ .name = "expected_max_load", .form = KB_FIELD_NUM_FIX, .prec = 4,
		  .d = s->expected_max, .none = none },
		{ .form = KB_FIELD_GROUP, .sub = cost, .n = 6 },
		{ .name = "verdict", .form = KB_FIELD_STR, .s = c->ok ? kb_verdict(s) : "n/a" },
		{ .name = "keys_read", .u = c->keys_read, .none = none,
		  .in = c->from_file ? 0 : KB_IN_NEITHER },
		{ .name = "repeated", .u = c->repeated, .none = none,
		  .in = c->from_file ? 0 : KB_IN_NEITHER },
		{ .name = "distinct", .form = KB_FIELD_YESNO, .u = (uint64_t)c->distinct,
		  .none = none, .in = c->from_file ? 0 : KB_IN_NEITHER },
		{ .name = "keys_needed", .u = kb_keys_needed(s->buckets), .in = KB_IN_JSON,
		  .none = too_few ? 0 : KB_NONE_OMIT },
		{ .name = "why", .form = KB_FIELD_STR, .in = KB_IN_JSON,
		  .s = !c->ok ? c->why : why.data ? why.data : "",
		  .none = !c->ok || too_few ? 0 : KB_NONE_OMIT },
		{ .form = KB_FIELD_GROUP, .sub = k, .n = 2, .in = KB_IN_CSV },
		/* how the counts were made (schema 2) */
		{ .name = "counted_by", .form = KB_FIELD_STR, .in = KB_IN_JSON,
		  .s = c->counted_by ? kb_counted_by_name(c->counted_by) : "",
		  .none = c->counted_by ? 0 : KB_NONE_OMIT },
		{ .name = "path", .form = KB_FIELD_STR, .in = KB_IN_JSON,
		  .s = engine ? kb_engine_path_name(c->ran.path) : "", .none = engine ? 0 : KB_NONE_OMIT },
		{ .name = "threads", .u = c->ran.threads, .in = KB_IN_JSON,
		  .none = engine ? 0 : KB_NONE_OMIT },
		{ .name = "ranges", .u = c->ran.ranges, .in = KB_IN_JSON,
		  .none = engine && c->ran.path == KB_PATH_RANGES ? 0 : KB_NONE_OMIT },
		{ .name = "price_s", .form = KB_FIELD_NUM_G, .prec = 4, .d = c->ran.seconds,
		  .in = KB_IN_JSON, .none = engine ? 0 : KB_NONE_OMIT },
	};

	kb_fields(b, as, f, KB_FIELDS_N(f));
	b->failed |= why.failed;
	kb_buf_free(&why);
}

/* Seconds as a person reads them: ms below one, s above. */
static void seconds_text(struct kb_buf *b, double s)
{
	if (s < 1)
		kb_buf_printf(b, "%.3g ms", s * 1e3);
	else
		kb_buf_printf(b, "%.3g s", s);
}

void kb_counted_text(const struct kb_cell *c, unsigned gens, unsigned bits_min,
		     struct kb_buf *b)
{
	if (gens > 1)
		kb_buf_printf(b, "%s, %s on %u-bit, %u generations at 2^%u buckets", kb_cell_source(c),
			      cell_func(c), c->spec.word, gens, c->bits);
	else
		kb_buf_printf(b, "%s, %s %s on %u-bit, 2^%u buckets", kb_cell_source(c),
			      kb_hashspec_gen_name(&c->spec), cell_func(c), c->spec.word, c->bits);
	if (bits_min < c->bits && c->counted_by == KB_COUNTED_ENGINE)
		kb_buf_printf(b, " (folded to 2^%u)", bits_min);
	else if (bits_min < c->bits)
		kb_buf_printf(b, " and each size down to 2^%u", bits_min);
	kb_buf_printf(b, ": %s", c->counted_by ? kb_counted_by_name(c->counted_by) : "not said");
	if (c->counted_by != KB_COUNTED_ENGINE)
		return;
	kb_buf_printf(b, ", %s on %u thread%s", kb_engine_path_name(c->ran.path),
		      c->ran.threads, c->ran.threads == 1 ? "" : "s");
	if (c->ran.path == KB_PATH_RANGES)
		kb_buf_printf(b, " in %u ranges", c->ran.ranges);
	kb_buf_printf(b, ", priced ");
	seconds_text(b, c->ran.seconds);
	kb_buf_printf(b, ", took ");
	seconds_text(b, c->ran.took);
}

void kb_cell_names(struct kb_buf *b, enum kb_fields_as as)
{
	/* a key file's judged cell: every field a cell can have */
	static const struct kb_cell file = { .ok = 1, .from_file = 1, .keyset = -1 };

	cell_fields(b, as, &file, NULL);
}

static void cells_csv(const struct kb_cell *c, size_t n, struct kb_buf *b)
{
	static const struct kb_cell none;
	size_t i;

	cell_fields(b, KB_FIELDS_CSV_HEAD, n ? c : &none, NULL);
	for (i = 0; i < n; i++)
		cell_fields(b, KB_FIELDS_CSV, &c[i], NULL);
}

/* "summary": each generation present, its cells by verdict. */
static void summary_json(const struct kb_report_summary *sum, struct kb_buf *b)
{
	int g, first = 1;

	kb_buf_printf(b, ",\n  \"summary\": {");
	for (g = 0; g < KB_GEN_COUNT; g++) {
		const struct kb_verdict_tally *t = &sum->gen[g];

		if (!(sum->gens & (1u << g)))
			continue;
		kb_buf_printf(b, "%s\n    \"%s\": {\"broken\": %zu, \"skewed\": %zu, \"fine\": %zu, \"too_few\": %zu",
			      first ? "" : ",", kb_gen_name(g), t->broken, t->skewed,
			      t->fine, t->too_few);
		kb_buf_printf(b, "}");
		first = 0;
	}
	/* the costliest judged cell of each, as a chained table, by its
	 * index in "cells" */
	kb_buf_printf(b, "\n  },\n  \"worst_lookup\": {");
	for (g = 0, first = 1; g < KB_GEN_COUNT; g++) {
		if (!(sum->gens & (1u << g)) || sum->worst_cell[g] < 0)
			continue;
		kb_buf_printf(b, "%s\n    \"%s\": {\"hit_vs_random\": %.6g, \"cell\": %ld}",
			      first ? "" : ",", kb_gen_name(g), sum->worst_hit[g],
			      sum->worst_cell[g]);
		first = 0;
	}
	kb_buf_printf(b, "\n  }");
}

/* source: what the keys are called when not a key set's name (a file);
 * sum: the report's summary, or NULL. */
static void cells_json(const struct kb_cell *c, size_t n,
			  enum kb_doc doc, const struct kb_report_opts *o,
			  const char *source, const struct kb_report_summary *sum,
			  struct kb_buf *b)
{
	size_t i;

	kb_json_doc_head(b, doc);
	kb_buf_printf(b, "  \"generator\": \"khash-bench %s\",\n", lkh_version_string());
	if (o)
		kb_buf_printf(b, "  \"count\": %llu,\n  \"seed\": %llu,\n  \"bits_min\": %u,\n  \"bits_max\": %u,\n",
			      (unsigned long long)o->params.count,
			      (unsigned long long)o->params.seed, o->bits_min,
			      o->bits_max);
	kb_buf_printf(b, "  \"cells\": [");
	for (i = 0; i < n; i++) {
		kb_buf_printf(b, "%s\n    ", i ? "," : "");
		cell_fields(b, KB_FIELDS_JSON, &c[i], source);
	}
	kb_buf_printf(b, "\n  ]");
	if (sum)
		summary_json(sum, b);
	kb_buf_printf(b, "\n}\n");
}

/* A cell's generation as its text says it: K with its multiplier. */
static const char *gen_label(const struct kb_hashspec *s, char *buf, size_t len)
{
	if (kb_hashspec_gen(s) != KB_GEN_K)
		return kb_hashspec_gen_name(s);
	snprintf(buf, len, "K = 0x%llx (%u-bit product)", (unsigned long long)s->k,
		 s->k_width);
	return buf;
}

static void cell_text(const struct kb_cell *c, const char *source,
			 struct kb_buf *b)
{
	const struct kb_skew *s = &c->skew;
	char label[64];

	kb_buf_printf(b, "%s %s on %u-bit, %s, %u bits: %llu keys into %llu buckets\n",
		      c->sgen ? c->sgen : gen_label(&c->spec, label, sizeof(label)), cell_func(c),
		      c->spec.word, source, c->bits,
		      (unsigned long long)s->n, (unsigned long long)s->buckets);
	kb_buf_printf(b, "  X^2 = %.6g with %.0f degrees of freedom, X^2/df = %.4g\n",
		      s->chi2, s->df, s->chi2_per_df);
	kb_buf_printf(b, "  p_upper = %.4g (log10 %.4f), p_lower = %.4g (log10 %.4f)\n",
		      kb_pow10_or_zero(s->log10_p_upper), s->log10_p_upper + 0.0,
		      kb_pow10_or_zero(s->log10_p_lower), s->log10_p_lower + 0.0);
	kb_buf_printf(b, "  buckets used %llu of %llu, max load %llu (a random function: %.2f)\n",
		      (unsigned long long)s->used,
		      (unsigned long long)s->buckets,
		      (unsigned long long)s->max_load, s->expected_max);
	kb_cost_text(s, "  ", b);
	if (c->from_file)
		kb_buf_printf(b, "  key file: %llu keys read, %llu repeat an earlier key%s\n",
			      (unsigned long long)c->keys_read, (unsigned long long)c->repeated,
			      !c->repeated ? ""
			      : c->distinct ? " (dropped: each key counted once)"
					    : " (counted again: --keep-duplicates)");
	kb_buf_printf(b, "  verdict: %s", kb_verdict(s));
	if (kb_verdict_of(s) == KB_VERDICT_TOO_FEW) {
		kb_buf_printf(b, " (");
		too_few_why(s, b);
		kb_buf_printf(b, ")");
	}
	kb_buf_printf(b, "\n");
}

void kb_render_report(const struct kb_report *r, enum kb_format f,
		      unsigned step, struct kb_buf *b)
{
	if (f == KB_FORMAT_CSV)
		cells_csv(r->cells, r->n_cells, b);
	else if (f == KB_FORMAT_JSON) {
		struct kb_report_summary sum;

		kb_report_summarize(r, &sum);
		cells_json(r->cells, r->n_cells, KB_DOC_REPORT, &r->opts, NULL, &sum, b);
	}
	else
		report_text(r, step, b);
}

void kb_render_cells(const struct kb_cell *c, size_t n, const char *source,
		     enum kb_format f, struct kb_buf *b)
{
	size_t i;

	if (f == KB_FORMAT_CSV)
		cells_csv(c, n, b);
	else if (f == KB_FORMAT_JSON)
		cells_json(c, n, KB_DOC_SKEW, NULL, source, NULL, b);
	else
		for (i = 0; i < n; i++) {
			if (i)
				kb_buf_printf(b, "\n");
			cell_text(&c[i], source, b);
		}
}

/* ---- bit influence ------------------------------------------------------- */

static char bias_mark(double p)
{
	double b = p < 0.5 ? 0.5 - p : p - 0.5;

	return b < 0.05 ? ' ' : b < 0.15 ? '.' : b < 0.3 ? 'o' : '#';
}

/* One CSV row of the map, input bit j against output bit k; the JSON
 * document holds the map as an array of rows, the rest at its top. */
static void influence_fields(struct kb_buf *b, enum kb_fields_as as,
			     const struct kb_hashspec *s, const struct kb_field *k,
			     unsigned bits, unsigned j, unsigned o, double p)
{
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_INFLUENCE].csv_version },
		{ .name = "func", .form = KB_FIELD_STR, .s = lkh_func_name(s->func) },
		{ .name = "gen", .form = KB_FIELD_STR, .s = kb_hashspec_gen_name(s) },
		{ .name = "word", .u = s->word },
		{ .name = "bits", .u = bits },
		{ .name = "in_bit", .u = j },
		{ .name = "out_bit", .u = o },
		{ .name = "p_flip", .form = KB_FIELD_FIX, .prec = 6, .d = p },
		{ .form = KB_FIELD_GROUP, .sub = k, .n = 2 },
	};

	kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_influence_names(struct kb_buf *b, enum kb_fields_as as)
{
	/* generation K: its multiplier's fields too */
	static const struct kb_gen k = { .gen = KB_GEN_K, .k = 1, .width = 64 };
	static const struct kb_hashspec s;
	struct kb_field kf[2];

	kb_k_fields(&k, kf);
	influence_fields(b, as, &s, kf, 0, 0, 0, 0);
}

void kb_render_influence(const struct kb_influence *r,
			 const struct kb_hashspec *s, unsigned bits,
			 enum kb_format f, struct kb_buf *b)
{
	unsigned j, k;
	struct kb_field kf[2];
	struct kb_gen g;

	kb_hashspec_kb_gen(s, &g);
	kb_k_fields(&g, kf);
	if (f == KB_FORMAT_CSV) {
		influence_fields(b, KB_FIELDS_CSV_HEAD, s, kf, bits, 0, 0, 0);
		for (j = 0; j < r->in_bits; j++)
			for (k = 0; k < r->out_bits; k++)
				influence_fields(b, KB_FIELDS_CSV, s, kf, bits, j, k, r->p[j][k]);
	} else if (f == KB_FORMAT_JSON) {
		kb_json_doc_head(b, KB_DOC_INFLUENCE);
		kb_buf_printf(b, "  \"func\": \"%s\", \"gen\": \"%s\", \"word\": %u, \"bits\": %u,\n",
			      lkh_func_name(s->func), kb_hashspec_gen_name(s), s->word,
			      bits);
		kb_buf_printf(b, "  ");
		kb_fields(b, KB_FIELDS_JSON_MEMBERS, kf, 2);
		kb_buf_printf(b, "\"samples\": %llu, \"exhaustive\": %s, \"mean_bias\": %.6f, \"worst_bias\": %.6f, \"worst_in_bit\": %u, \"worst_out_bit\": %u,\n  \"p_flip\": [",
			      (unsigned long long)r->samples,
			      r->exhaustive ? "true" : "false", r->mean_bias,
			      r->worst_bias, r->worst_in, r->worst_out);
		for (j = 0; j < r->in_bits; j++) {
			kb_buf_printf(b, "%s\n    [", j ? "," : "");
			for (k = 0; k < r->out_bits; k++)
				kb_buf_printf(b, "%s%.6f", k ? ", " : "", r->p[j][k]);
			kb_buf_printf(b, "]");
		}
		kb_buf_printf(b, "\n  ]\n}\n");
	} else {
		char label[64];

		kb_buf_printf(b, "%s %s on %u-bit, %u output bits: P(flipping input bit j flips output bit k), %llu samples\n",
			      gen_label(s, label, sizeof(label)), lkh_func_name(s->func), s->word,
			      bits, (unsigned long long)r->samples);
		kb_buf_printf(b, "marks by |P - 1/2|: ' ' < 0.05   . < 0.15   o < 0.30   # >= 0.30 (rarely or always flips)\n\n");
		kb_buf_printf(b, "in bit | out bit 0..%u\n", bits - 1);
		for (j = 0; j < r->in_bits; j++) {
			kb_buf_printf(b, "%6u | ", j);
			for (k = 0; k < r->out_bits; k++)
				kb_buf_printf(b, "%c", bias_mark(r->p[j][k]));
			kb_buf_printf(b, "\n");
		}
		kb_buf_printf(b, "\nmean |bias| %.4f, worst %.4f (input bit %u -> output bit %u)\n",
			      r->mean_bias, r->worst_bias, r->worst_in, r->worst_out);
		if (bits < 16 && r->in_bits >= 32)
			kb_buf_printf(b, "input bits 16..%u (where the old hash_32 is blind): mean |bias| %.4f\n",
				      31 - bits, kb_influence_band(r, 16, 31 - bits));
	}
}

void kb_figure_influence(const struct kb_influence *r,
			 const struct kb_hashspec *s, unsigned bits,
			 struct kb_figure *fig)
{
	unsigned j, k;

	snprintf(fig->base, sizeof(fig->base), "influence_%s_%s_w%u_b%u",
		 lkh_func_name(s->func), kb_hashspec_gen_name(s), s->word, bits);
	snprintf(fig->title, sizeof(fig->title), "P(input bit flips output bit): %s %s, %u-bit, %u bits, mean |bias| %.3f",
		 kb_hashspec_gen_name(s), lkh_func_name(s->func), s->word, bits,
		 r->mean_bias);
	fig->width = 520;
	fig->height = 720;
	for (j = 0; j < r->in_bits; j++) {
		for (k = 0; k < r->out_bits; k++)
			kb_buf_printf(&fig->dat, "%u %u %.5f\n", k, j, r->p[j][k]);
		kb_buf_printf(&fig->dat, "\n");
	}
	kb_buf_printf(&fig->body, "%s",
		      "  set xlabel \"output bit\"\n  set ylabel \"input bit\"\n"
		 "  set cbrange [0:1]\n  set palette defined (0 \"#2166ac\", 0.5 \"#f7f7f7\", 1 \"#b2182b\")\n"
		 "  set title gptitle\n  set autoscale fix\n"
		 "  plot data using 1:2:3 with image notitle\n");
}

/* ---- multiplier audits --------------------------------------------------- */

/* Dimension 2's vector (e, d), e + d K = 0 mod 2^w, as keys d > 0 apart
 * whose products are *apart = -e apart (mod 2^w, signed). */
static long long keys_apart(const struct kb_spectral *sp, long long *apart)
{
	long long d = (long long)sp->vec[2][1], e = (long long)sp->vec[2][0];

	*apart = d < 0 ? e : -e;
	return d < 0 ? -d : d;
}

/* The spectral test's figures, and what dimension 2 says of keys. */
static void spectral_text(const struct kb_audit *a, struct kb_buf *b)
{
	const struct kb_spectral *sp = &a->spectral;
	double e, width;
	long long apart;
	unsigned t;

	if (!sp->ok) {
		kb_buf_printf(b, "  spectral test   %s\n", a->odd ? "not in this build (it needs 128-bit integers)"
								: "none: an even K has no lattice of its own");
		return;
	}
	kb_buf_printf(b, "  spectral test   figure of merit in dimensions 2..%u:", sp->dims);
	for (t = 2; t <= sp->dims; t++)
		kb_buf_printf(b, " %.3f", sp->merit[t]);
	kb_buf_printf(b, ", worst %.3f (1: the best any lattice can do)\n", sp->merit_min);
	/* e + d K = 0 mod 2^w: keys d apart, products -e apart */
	e = fabs((double)sp->vec[2][0]);
	width = log2(e > 0 ? e : 1);
	kb_buf_printf(b, "    dimension 2: keys %lld apart get products %.0f apart mod 2^%u (2^%.1f), so every table\n"
			 "    of up to 2^%d buckets puts such keys together with chance at least 1/2\n",
		      keys_apart(sp, &apart), e, a->width, width,
		      (int)floor((double)a->width - width - 1));
}

static void audit_text(const struct kb_audit *a, const char *name,
		       struct kb_buf *b)
{
	unsigned i, bits;
	int k;

	kb_buf_printf(b, "multiplier %#llx (%u-bit)%s%s\n", (unsigned long long)a->k,
		      a->width, name ? ", preset " : "", name ? name : "");
	if (a->odd)
		kb_buf_printf(b, "  parity          odd (invertible mod 2^w: every key has its own product)\n");
	else if (a->k == 0)
		kb_buf_printf(b, "  parity          ZERO: every product is 0, so every key hashes to bucket 0\n");
	else /* K = 2^t odd: keys 2^(w-t) apart have one product */
		kb_buf_printf(b, "  parity          EVEN: K = 2^%d x odd, so keys that differ only in their top %d bits share a product, %.0f at a time\n",
			      __builtin_ctzll(a->k), __builtin_ctzll(a->k),
			      ldexp(1.0, __builtin_ctzll(a->k)));
	kb_buf_printf(b, "  popcount        %u of %u bits\n", a->popcount, a->width);
	kb_buf_printf(b, "  longest run     %u equal bits in a row\n", a->longest_run);
	kb_buf_printf(b, "  shift-and-add   %u signed terms (non-adjacent form): %u adds/subtracts\n",
		      a->naf_terms, a->naf_terms ? a->naf_terms - 1 : 0);
	kb_buf_printf(b, "  K / 2^%u         = [0;", a->width);
	for (i = 0; i < a->cf_len; i++)
		kb_buf_printf(b, "%s%llu", i ? "," : " ", (unsigned long long)a->cf[i]);
	kb_buf_printf(b, "]  (largest partial quotient %llu; the golden ratio's are all 1)\n",
		      (unsigned long long)a->cf_max);
	kb_buf_printf(b, "  worst stride (keys 0, s, 2s, ... twice the table size), X^2/df; broken: >= %d, as skew and report judge a table:\n",
		      KB_BROKEN);
	for (bits = a->bits_min; bits <= a->bits_max; bits += 2)
		kb_buf_printf(b, "    bits %2u: stride %#-18llx X^2/df %.4g%s\n", bits,
			      (unsigned long long)a->worst[bits].stride,
			      a->worst[bits].chi2_per_df,
			      kb_chi2_broken(a->worst[bits].chi2_per_df) ? "  broken" : "");
	spectral_text(a, b);
	kb_buf_printf(b, "  key sets, %llu keys into 2^%u buckets (X^2/df, buckets used):\n",
		      (unsigned long long)a->sets_keys, a->sets_bits);
	for (k = 0; k < KB_KS_COUNT; k++)
		if (a->sets[k].ok)
			kb_buf_printf(b, "    %-14s %10.4g %6llu%s\n", kb_keysets[k].name,
				      a->sets[k].chi2_per_df,
				      (unsigned long long)a->sets[k].used,
				      kb_chi2_broken(a->sets[k].chi2_per_df) ? "  broken" : "");
}

/* JSON's "spectral": the test's figures, nested, or null without them. */
static void spectral_json(struct kb_buf *b, const void *arg)
{
	const struct kb_spectral *sp = arg;
	long long apart, d;
	unsigned t;

	if (!sp->ok) {
		kb_buf_printf(b, "null");
		return;
	}
	d = keys_apart(sp, &apart);
	kb_buf_printf(b, "{\"merit\": [");
	for (t = 2; t <= sp->dims; t++)
		kb_buf_printf(b, "%s%.6f", t > 2 ? ", " : "", sp->merit[t]);
	kb_buf_printf(b, "], \"merit_min\": %.6f, \"d2_keys_apart\": %lld, \"d2_products_apart\": %lld}",
		      sp->merit_min, d, apart);
}

/* A multiplier's fields: the spectral test's, CSV's last columns, are
 * JSON's nested "spectral" (an array of merits in it). */
static void audit_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_audit *a,
			 const char *name)
{
	const struct kb_spectral *sp = &a->spectral;
	unsigned none = sp->ok ? 0 : KB_NONE_NULL;
	long long apart = 0, d = sp->ok ? keys_apart(sp, &apart) : 0;
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_AUDIT].csv_version, .in = KB_IN_CSV },
		{ .name = "name", .form = KB_FIELD_STR, .s = name ? name : "" },
		{ .name = "multiplier", .form = KB_FIELD_HEX, .u = a->k },
		{ .name = "width", .u = a->width },
		{ .name = "odd", .form = KB_FIELD_BOOL, .u = (uint64_t)a->odd },
		{ .name = "popcount", .u = a->popcount },
		{ .name = "longest_run", .u = a->longest_run },
		{ .name = "naf_terms", .u = a->naf_terms },
		{ .name = "cf_max", .u = a->cf_max },
		{ .name = "worst_stride_chi2_per_df", .form = KB_FIELD_G, .prec = 6,
		  .d = a->worst_overall },
		{ .name = "key_sets_broken", .u = a->sets_broken },
		{ .name = "stride_sizes_broken", .u = a->strides_broken },
		{ .name = "spectral_merit_2", .form = KB_FIELD_FIX, .prec = 6,
		  .d = sp->merit[2], .none = none, .in = KB_IN_CSV },
		{ .name = "spectral_merit_min", .form = KB_FIELD_FIX, .prec = 6,
		  .d = sp->merit_min, .none = none, .in = KB_IN_CSV },
		{ .name = "spectral_d2_keys_apart", .form = KB_FIELD_INT, .i = d,
		  .none = none, .in = KB_IN_CSV },
		{ .name = "spectral_d2_products_apart", .form = KB_FIELD_INT, .i = apart,
		  .none = none, .in = KB_IN_CSV },
		{ .name = "spectral", .form = KB_FIELD_JSON, .json = spectral_json, .arg = sp },
	};

	kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_audit_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct kb_audit none;

	audit_fields(b, as, &none, NULL);
}

void kb_render_audits(const struct kb_audit *au, const char *const *names,
		      size_t n, int compare, enum kb_format f,
		      struct kb_buf *b)
{
	size_t i;

	if (f == KB_FORMAT_CSV) {
		kb_audit_names(b, KB_FIELDS_CSV_HEAD);
	} else if (f == KB_FORMAT_JSON) {
		kb_json_doc_head(b, KB_DOC_AUDIT);
		kb_buf_printf(b, "  \"multipliers\": [");
	} else if (compare)
		kb_buf_printf(b, "%-11s %-18s %5s %4s %5s %4s %5s %9s %12s %7s %6s %6s\n", "preset",
			      "multiplier", "width", "odd", "ones", "run", "terms",
			      "max CF q", "worst X2/df", "broken", "S2", "S2..8");
	for (i = 0; i < n; i++) {
		const struct kb_audit *a = &au[i];
		const char *name = names[i];

		if (f == KB_FORMAT_CSV) {
			audit_fields(b, KB_FIELDS_CSV, a, name);
		} else if (f == KB_FORMAT_JSON) {
			kb_buf_printf(b, "%s\n    ", i ? "," : "");
			audit_fields(b, KB_FIELDS_JSON, a, name);
		} else if (compare) {
			kb_buf_printf(b, "%-11s %#-18llx %5u %4s %5u %4u %5u %9llu %11.4g%c %7u",
				      name, (unsigned long long)a->k, a->width,
				      a->odd ? "yes" : "NO", a->popcount, a->longest_run,
				      a->naf_terms, (unsigned long long)a->cf_max,
				      a->worst_overall, a->strides_broken ? '#' : ' ',
				      a->sets_broken);
			if (a->spectral.ok)
				kb_buf_printf(b, " %6.3f %6.3f\n", a->spectral.merit[2],
					      a->spectral.merit_min);
			else
				kb_buf_printf(b, " %6s %6s\n", "-", "-");
		} else {
			audit_text(a, name, b);
		}
	}
	if (f == KB_FORMAT_JSON)
		kb_buf_printf(b, "\n  ]\n}\n");
	else if (compare && f == KB_FORMAT_TEXT)
		kb_buf_printf(b, "\nterms: shift-and-add terms (non-adjacent form); max CF q: largest of the first 24\n"
				 "partial quotients of K/2^w; worst X2/df: over strides s, 3s, 5s, 7s (s = 2^j)\n"
				 "and 2^6..2^16 buckets, # where that stride breaks the table (X^2/df >= %d, what\n"
				 "report marks #); broken: key sets with X^2/df >= %d at 4096 keys, 2^11 buckets;\n"
				 "S2, S2..8: the spectral test's figure of merit in dimension 2 and the worst of\n"
				 "dimensions 2..8 (1: the best any lattice can do; '-': an even K has none)\n",
			      KB_BROKEN, KB_BROKEN);
}

/* Does series b lie on series a's line: within 5% at every table size? */
static int audit_coincide(const struct kb_audit *a, const struct kb_audit *b)
{
	unsigned bits;

	for (bits = a->bits_min; bits <= a->bits_max; bits += 2)
		if (fabs(log(b->worst[bits].chi2_per_df / a->worst[bits].chi2_per_df)) > log(1.05))
			return 0;
	return 1;
}

void kb_figure_audits(const struct kb_audit *au, const char *const *names,
		      size_t n, const char *base, struct kb_figure *fig)
{
	/* a colour and a point of its own for each multiplier (eight colours
	 * cycled gave eleven series three pairs); 64-bit ones dashed */
	static const char *const colour[] = { "#1f77b4", "#000080", "#2ca02c", "#9467bd",
					      "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
					      "#7f7f7f", "#bcbd22", "#000000", "#a6cee3" };
	static const int point[] = { 7, 5, 9, 11, 13, 1, 2, 3, 15 };
	const size_t ncolour = sizeof(colour) / sizeof(colour[0]);
	double lo = 1, hi = KB_BROKEN;
	unsigned bits;
	size_t m, j;

	if (n == 0)
		return;
	snprintf(fig->base, sizeof(fig->base), "audit_%s", base);
	snprintf(fig->title, sizeof(fig->title), "Worst stride s, 3s, 5s, 7s (s = 2^j): X^2/df by table size");
	fig->width = 900;
	fig->height = 520;
	kb_buf_printf(&fig->dat, "bits");
	for (m = 0; m < n; m++)
		kb_buf_printf(&fig->dat, " %s", names[m] ? names[m] : "K");
	kb_buf_printf(&fig->dat, "\n");
	for (bits = au[0].bits_min; bits <= au[0].bits_max; bits += 2) {
		kb_buf_printf(&fig->dat, "%u", bits);
		for (m = 0; m < n; m++) {
			kb_buf_printf(&fig->dat, " %.6g", au[m].worst[bits].chi2_per_df);
			lo = fmin(lo, au[m].worst[bits].chi2_per_df);
			hi = fmax(hi, au[m].worst[bits].chi2_per_df);
		}
		kb_buf_printf(&fig->dat, "\n");
	}
	/* the line at 1 clear of the bottom frame, 10 and the data inside */
	kb_buf_printf(&fig->body,
		      "  set logscale y\n  set yrange [%.6g:%.6g]\n"
		      "  set xlabel \"bits (2^bits buckets, twice as many keys)\"\n"
		      "  set ylabel \"worst X^2/df\"\n  set key outside right\n  set title gptitle\n"
		      "  plot ", lo / 3, hi * 3);
	for (m = 0; m < n; m++) {
		const char *name = names[m] ? names[m] : "K";

		/* one that lies on an earlier one's line: a ring around its
		 * points, and the legend says so */
		for (j = 0; j < m && !audit_coincide(&au[j], &au[m]); j++)
			;
		kb_buf_printf(&fig->body, "data using 1:%zu with linespoints lw 1.5 lc rgb \"%s\" dt %d ",
			      m + 2, colour[m % ncolour], au[m].width == 64 ? 2 : 1);
		if (j < m)
			kb_buf_printf(&fig->body, "pt 6 ps 2.2 title \"%s (on %s's line)\", \\\n    ", name,
				      names[j] ? names[j] : "K");
		else
			kb_buf_printf(&fig->body, "pt %d ps 1.1 title \"%s\", \\\n    ",
				      point[m % (sizeof(point) / sizeof(point[0]))], name);
	}
	/* a random function's 1, and where report says broken */
	kb_buf_printf(&fig->body,
		      "1 with lines dashtype 3 lw 2 lc \"black\" title \"1: random function\", \\\n"
		      "    %d with lines dashtype 3 lw 2 lc \"red\" title \"%d: broken\"\n",
		      KB_BROKEN, KB_BROKEN);
}

/* ---- the 2002 wait tables ------------------------------------------------ */

/* A wait-table row's fields (the run's word and waiters: CSV columns,
 * JSON's top level); a NULL row: the names alone. */
static void wait_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_wait_row *r,
			unsigned word, unsigned waiters)
{
	static const struct kb_wait_row none;
	const struct kb_wait_row *w = r ? r : &none;
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_WAIT].csv_version, .in = KB_IN_CSV },
		{ .name = "word", .u = word, .in = KB_IN_CSV },
		{ .name = "waiters", .u = waiters, .in = KB_IN_CSV },
		{ .name = "zone_mib", .u = w->zone_bytes >> 20 },
		{ .name = "pages", .u = w->pages, .in = KB_IN_CSV },
		{ .name = "table", .u = w->table },
		{ .name = "old_random", .form = KB_FIELD_FIX, .prec = 4, .d = w->old_random },
		{ .name = "new_random", .form = KB_FIELD_FIX, .prec = 4, .d = w->new_random },
		{ .name = "old_run", .form = KB_FIELD_FIX, .prec = 4, .d = w->old_run },
		{ .name = "new_run", .form = KB_FIELD_FIX, .prec = 4, .d = w->new_run },
		{ .name = "random_function", .form = KB_FIELD_FIX, .prec = 4, .d = w->baseline },
		{ .name = "seed_table", .u = w->seed_table },
		{ .name = "seed_shift", .u = w->seed_shift },
		{ .name = "shift_overflow", .form = KB_FIELD_BOOL, .u = (uint64_t)w->shift_overflow },
		{ .name = "hw_index", .form = KB_FIELD_HEX, .u = w->hw_index },
		{ .name = "fixed_table", .u = w->fixed_table },
	};

	kb_fields(b, as, f, sizeof(f) / sizeof(f[0]));
}

void kb_wait_names(struct kb_buf *b, enum kb_fields_as as)
{
	wait_fields(b, as, NULL, 0, 0);
}

void kb_render_waittable(const struct kb_wait_row *rows, size_t n,
			 unsigned word, unsigned waiters, unsigned trials,
			 enum kb_format f, struct kb_buf *b)
{
	size_t i;

	if (f == KB_FORMAT_CSV) {
		wait_fields(b, KB_FIELDS_CSV_HEAD, NULL, word, waiters);
		for (i = 0; i < n; i++)
			wait_fields(b, KB_FIELDS_CSV, &rows[i], word, waiters);
	} else if (f == KB_FORMAT_JSON) {
		kb_json_doc_head(b, KB_DOC_WAITTABLE);
		kb_buf_printf(b, "  \"word\": %u, \"waiters\": %u, \"trials\": %u,\n  \"zones\": [",
			      word, waiters, trials);
		for (i = 0; i < n; i++) {
			kb_buf_printf(b, "%s\n    ", i ? "," : "");
			wait_fields(b, KB_FIELDS_JSON, &rows[i], word, waiters);
		}
		kb_buf_printf(b, "\n  ]\n}\n");
	} else {
		kb_buf_printf(b, "Rik van Riel's 2002 hashed page wait tables, %u-bit kernel: %u pages waited on,\n"
				 "mean waiters woken for nothing per unlock (%u trials). random: pages anywhere\n"
				 "in the zone; run: %u consecutive pages (readahead).\n\n",
			      word, waiters, trials, waiters);
		kb_buf_printf(b, "%10s %9s %6s | %8s %8s | %8s %8s | %8s\n", "zone", "pages",
			      "queues", "old rnd", "new rnd", "old run", "new run", "random f");
		for (i = 0; i < n; i++) {
			uint64_t mib = rows[i].zone_bytes >> 20;

			/* a table the 2002 sizing could not index is marked with '*' */
			kb_buf_printf(b, rows[i].shift_overflow
						 ? "%7llu %s %9llu %5llu* | %8.3f %8.3f | %8.3f %8.3f | %8.3f\n"
						 : "%7llu %s %9llu %6llu | %8.3f %8.3f | %8.3f %8.3f | %8.3f\n",
				      (unsigned long long)(mib >= 1024 ? mib >> 10 : mib),
				      mib >= 1024 ? "GiB" : "MiB",
				      (unsigned long long)rows[i].pages,
				      (unsigned long long)rows[i].table, rows[i].old_random,
				      rows[i].new_random, rows[i].old_run, rows[i].new_run,
				      rows[i].baseline);
		}
		for (i = 0; i < n; i++) {
			uint64_t mib = rows[i].zone_bytes >> 20;

			if (rows[i].shift_overflow)
				kb_buf_printf(b, "\n* %llu MiB (%llu pages): the 2002 tables sized 1 queue, so wait_table_shift = %u, a shift\n"
						 "  by the word width, undefined in C.  x86 shifts by the count modulo %u, by 0:\n"
						 "  the zone's first struct page indexed queue %#llx of a 1-entry table.\n"
						 "  The December 2002 fix (at least 4 queues) is what is simulated here.\n",
					      (unsigned long long)mib, (unsigned long long)rows[i].pages,
					      rows[i].seed_shift, word,
					      (unsigned long long)rows[i].hw_index);
			else if (rows[i].fixed_table != rows[i].seed_table)
				/* every row is the 2002 table where that table works:
				 * only the '*' rows borrow the fix's */
				kb_buf_printf(b, "\n  %llu MiB: simulated with the %llu queues the 2002 tables sized, which work (a shift by %u)\n"
						 "  and are what such zones had until the December 2002 fix raised the\n"
						 "  floor to %llu.  Only a zone whose 2002 table cannot work, marked '*',\n"
						 "  is simulated with the fix's size.\n",
					      (unsigned long long)mib,
					      (unsigned long long)rows[i].seed_table, rows[i].seed_shift,
					      (unsigned long long)rows[i].fixed_table);
		}
	}
}

void kb_figure_cells_hist(const struct kb_cell *c, const uint64_t *const *counts,
			  size_t n, const char *source, struct kb_figure *fig)
{
	uint64_t i, m = UINT64_C(1) << c[0].bits;
	size_t g;
	const char *slash = strrchr(source, '/');
	char name[64];
	int len;

	/* a file name without its folders, and only characters a file takes */
	snprintf(name, sizeof(name), "%s", c[0].table ? c[0].table : slash ? slash + 1 : source);
	for (len = 0; name[len]; len++)
		if (!isalnum((unsigned char)name[len]) && name[len] != '-' && name[len] != '_')
			name[len] = '_';
	snprintf(fig->base, sizeof(fig->base), "skew_%s_%s_w%u_b%u", name,
		 lkh_func_name(c[0].spec.func), c[0].spec.word, c[0].bits);
	snprintf(fig->title, sizeof(fig->title), "%s%s%s: %llu keys of %s into %llu buckets, %u-bit kernel",
		 c[0].table ? c[0].table : "", c[0].table ? ", " : "", lkh_func_name(c[0].spec.func),
		 (unsigned long long)c[0].skew.n, source, (unsigned long long)m, c[0].spec.word);
	fig->width = 1200;
	fig->height = 100 + 220 * (int)n;
	kb_buf_printf(&fig->dat, "# bucket");
	for (g = 0; g < n; g++)
		kb_buf_printf(&fig->dat, " %s", kb_hashspec_gen_name(&c[g].spec));
	kb_buf_printf(&fig->dat, "\n");
	for (i = 0; i < m; i++) {
		kb_buf_printf(&fig->dat, "%llu", (unsigned long long)i);
		for (g = 0; g < n; g++)
			kb_buf_printf(&fig->dat, " %llu", (unsigned long long)counts[g][i]);
		kb_buf_printf(&fig->dat, "\n");
	}
	kb_buf_printf(&fig->body, "  set multiplot layout %zu,1 title gptitle\n", n);
	kb_plot_hist_head(&fig->body, m);
	for (g = 0; g < n; g++) {
		char label[64];

		kb_plot_hist_panel(&fig->body, gen_label(&c[g].spec, label, sizeof(label)),
				   (int)g + 2, counts[g], m, g + 1 == n);
	}
	kb_buf_printf(&fig->body, "  unset multiplot\n");
}

void kb_figure_waittable(const struct kb_wait_row *rows, size_t n,
			 unsigned word, unsigned waiters,
			 struct kb_figure *fig)
{
	/* the four simulations: column, title, colour, point; its zeros are
	 * drawn at a floor of their own in an open point of its shape */
	static const struct {
		const char *title, *colour;
		int pt, zero_pt;
	} series[] = {
		{ "old, random pages", "#d62728", 7, 6 },
		{ "new, random pages", "#1f77b4", 5, 4 },
		{ "old, a run of pages", "#ff7f0e", 9, 8 },
		{ "new, a run of pages", "#2ca02c", 11, 10 },
	};
	double low = 1, high = 1, v[4], zero;
	int zeros[4] = { 0 }, c;
	size_t i;

	snprintf(fig->base, sizeof(fig->base), "waittable_w%u_n%u", word, waiters);
	snprintf(fig->title, sizeof(fig->title), "Spurious wake-ups per unlock, %u waiters, %u-bit kernel (Rik van Riel's 2002 hashed page wait tables)",
		 waiters, word);
	fig->width = 1050;
	fig->height = 520;
	kb_buf_printf(&fig->dat, "# zone_mib old_random new_random old_run new_run random_function\n");
	for (i = 0; i < n; i++) {
		kb_buf_printf(&fig->dat, "%llu %.4f %.4f %.4f %.4f %.4f\n",
			      (unsigned long long)(rows[i].zone_bytes >> 20),
			      rows[i].old_random, rows[i].new_random,
			      rows[i].old_run, rows[i].new_run, rows[i].baseline);
		v[0] = rows[i].old_random;
		v[1] = rows[i].new_random;
		v[2] = rows[i].old_run;
		v[3] = rows[i].new_run;
		for (c = 0; c < 4; c++) {
			/* as written: a mean that prints as 0.0000 is drawn as 0 */
			if (v[c] < 0.00005)
				zeros[c] = 1;
			else
				low = fmin(low, v[c]);
			high = fmax(high, v[c]);
		}
		if (rows[i].baseline > 0)
			low = fmin(low, rows[i].baseline);
	}
	/* a log scale has no 0: zeros go on a floor a decade below the
	 * smallest mean, labelled 0 on the axis, inside the frame */
	zero = pow(10, floor(log10(low)) - 1);
	kb_buf_printf(&fig->body,
		      "  set logscale x 2\n  set logscale y\n  set yrange [%.6g:%.6g]\n"
		      "  set ytics add (\"0\" %.6g)\n  set xlabel \"zone size (MiB)\"\n"
		      "  set ylabel \"waiters woken for nothing per unlock\"\n"
		      "  set key outside right top Left reverse\n  set title gptitle\n  plot ",
		      zero / 2, high * 2, zero);
	for (c = 0; c < 4; c++)
		kb_buf_printf(&fig->body, "data using 1:%d with linespoints lc rgb \"%s\" pt %d title \"%s\", \\\n       ",
			      c + 2, series[c].colour, series[c].pt, series[c].title);
	kb_buf_printf(&fig->body, "data using 1:6 with lines dashtype 2 lc \"black\" title \"random function\"");
	if (zeros[0] + zeros[1] + zeros[2] + zeros[3])
		kb_buf_printf(&fig->body, ", \\\n       %.6g with lines dashtype 3 lc \"gray50\" title \"0: none woken (no 0 on a log scale)\"",
			      zero);
	for (c = 0; c < 4; c++)
		if (zeros[c])
			kb_buf_printf(&fig->body, ", \\\n       data using 1:(column(%d) == 0 ? %.6g : NaN) with points lc rgb \"%s\" pt %d ps %.1f title \"%s: 0\"",
				      c + 2, zero, series[c].colour, series[c].zero_pt,
				      1.0 + 0.4 * c, series[c].title);
	kb_buf_printf(&fig->body, "\n");
}

/* ---- named kernel tables ------------------------------------------------ */

/* A named table's cell: CSV says the cost its kind pays, JSON every
 * kind's; JSON leaves out what a cell with no verdict lacks and says why. */
static void table_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_table_cell *c)
{
	const struct kb_table *t = &kb_tables[c->table];
	const struct kb_skew *s = &c->cell.skew;
	unsigned none = c->cell.ok ? 0 : KB_NONE_OMIT;
	struct kb_field k[2], cost[6];
	struct kb_cost kc;
	double v, random, ratio;
	struct kb_gen g;

	kb_hashspec_kb_gen(&c->cell.spec, &g);
	kb_k_fields(&g, k);
	kb_cost_fields(s, none, cost);
	kb_cost_of(s, &kc);
	kb_cost_for(&kc, t->kind, &v, &random, &ratio);
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_TABLE].csv_version, .in = KB_IN_CSV },
		{ .name = "table", .form = KB_FIELD_STR, .s = t->name },
		{ .name = "site", .form = KB_FIELD_STR, .s = t->site, .in = KB_IN_CSV },
		{ .name = "keys", .form = KB_FIELD_STR, .s = c->source },
		{ .name = "gen", .form = KB_FIELD_STR, .s = kb_hashspec_gen_name(&c->cell.spec) },
		{ .name = "word", .u = c->cell.spec.word },
		{ .name = "bits", .u = c->cell.bits },
		{ .form = KB_FIELD_GROUP, .sub = k, .n = 2, .in = KB_IN_JSON },
		{ .name = "n", .u = s->n, .none = none },
		{ .name = "buckets", .u = s->buckets, .none = none, .in = KB_IN_CSV },
		{ .name = "chi2_per_df", .form = KB_FIELD_NUM, .d = s->chi2_per_df, .none = none },
		{ .name = "log10_p_upper", .form = KB_FIELD_NUM, .d = s->log10_p_upper, .none = none },
		{ .name = "used", .u = s->used, .none = none },
		{ .name = "max_load", .u = s->max_load, .none = none },
		{ .name = "expected_max_load", .form = KB_FIELD_FIX, .prec = 4, .d = s->expected_max,
		  .none = none, .in = KB_IN_CSV },
		{ .form = KB_FIELD_GROUP, .sub = cost, .n = 6, .in = KB_IN_JSON },
		{ .name = "verdict", .form = KB_FIELD_STR, .s = c->cell.ok ? kb_verdict(s) : "n/a" },
		{ .name = "why", .form = KB_FIELD_STR, .s = c->cell.why, .in = KB_IN_JSON,
		  .none = c->cell.ok ? KB_NONE_OMIT : 0 },
		{ .name = "kind", .form = KB_FIELD_STR, .s = kb_table_kind_name(t->kind),
		  .in = KB_IN_CSV },
		{ .name = "cost", .form = KB_FIELD_G, .prec = 6, .d = v, .none = none,
		  .in = KB_IN_CSV },
		{ .name = "cost_random", .form = KB_FIELD_G, .prec = 6, .d = random, .none = none,
		  .in = KB_IN_CSV },
		{ .name = "cost_vs_random", .form = KB_FIELD_G, .prec = 6, .d = ratio, .none = none,
		  .in = KB_IN_CSV },
		{ .form = KB_FIELD_GROUP, .sub = k, .n = 2, .in = KB_IN_CSV },
	};

	kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_table_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct kb_table_cell none = { .source = "" };

	table_fields(b, as, &none);
}

static void tables_csv(const struct kb_table_cell *c, size_t n, struct kb_buf *b)
{
	static const struct kb_table_cell none = { .source = "" };
	size_t i;

	table_fields(b, KB_FIELDS_CSV_HEAD, n ? c : &none);
	for (i = 0; i < n; i++)
		table_fields(b, KB_FIELDS_CSV, &c[i]);
}

static void tables_json(const struct kb_table_cell *c, size_t n, uint64_t count,
			struct kb_buf *b)
{
	size_t i;
	unsigned t;

	kb_json_doc_head(b, KB_DOC_TABLES);
	kb_buf_printf(b, "  \"count\": %llu,\n  \"tables\": [", (unsigned long long)count);
	for (t = 0; t < kb_tables_count; t++) {
		const struct kb_table *tb = &kb_tables[t];

		kb_buf_printf(b, "%s\n    {\"name\": ", t ? "," : "");
		kb_json_string(b, tb->name);
		kb_buf_printf(b, ", \"site\": ");
		kb_json_string(b, tb->site);
		kb_buf_printf(b, ", \"formula\": ");
		kb_json_string(b, tb->formula);
		kb_buf_printf(b, ", \"bits\": %u, \"kind\": \"%s\", \"keys\": ", tb->bits,
			      kb_table_kind_name(tb->kind));
		kb_json_string(b, tb->keys_are);
		kb_buf_printf(b, "}");
	}
	kb_buf_printf(b, "\n  ],\n  \"cells\": [");
	for (i = 0; i < n; i++) {
		kb_buf_printf(b, "%s\n    ", i ? "," : "");
		table_fields(b, KB_FIELDS_JSON, &c[i]);
	}
	kb_buf_printf(b, "\n  ]\n}\n");
}

/* Does cell i start a text row (a table, word and key source of its own)? */
static int starts_row(const struct kb_table_cell *c, size_t i)
{
	return i == 0 || c[i - 1].table != c[i].table ||
	       c[i - 1].cell.spec.word != c[i].cell.spec.word ||
	       strcmp(c[i - 1].source, c[i].source);
}

/* The width of the tables' name column: the longest name. */
static int table_name_width(void)
{
	size_t w = 17, i;

	for (i = 0; i < kb_tables_count; i++)
		w = strlen(kb_tables[i].name) > w ? strlen(kb_tables[i].name) : w;
	return (int)w;
}

/* The same rows as what each generation's skew costs the table, in its
 * own terms (tables.h: chained, tree or locks), against random. */
static void tables_cost_text(const struct kb_table_cell *c, size_t n,
			     struct kb_buf *b)
{
	size_t i;

	kb_buf_printf(b, "\nWhat that costs, over a random function's cost at the same load: chained,\n"
			 "entries a lookup compares; tree, keys in the tree it searches; locks,\n"
			 "other keys met on a lock or wait queue (1.00x: as random)\n\n");
	kb_buf_printf(b, "%-*s %-4s %-7s %-12s |", table_name_width(), "table", "word", "kind",
		      "keys");
	for (i = 0; i < n && (i == 0 || !starts_row(c, i)); i++)
		kb_buf_printf(b, " %-8s", kb_hashspec_gen_name(&c[i].cell.spec));
	kb_buf_printf(b, "\n");
	for (i = 0; i < n; i++) {
		const struct kb_cell *cl = &c[i].cell;
		enum kb_table_kind kind = kb_tables[c[i].table].kind;
		struct kb_cost cost;
		double v, random, ratio;

		if (starts_row(c, i))
			kb_buf_printf(b, "%s%-*s %-4u %-7s %-12s |", i ? "\n" : "",
				      table_name_width(), kb_tables[c[i].table].name, cl->spec.word,
				      kb_table_kind_name(kind), c[i].source);
		if (!cl->ok) {
			kb_buf_printf(b, " %-8s", "n/a");
			continue;
		}
		kb_cost_of(&cl->skew, &cost);
		kb_cost_for(&cost, kind, &v, &random, &ratio);
		kb_buf_printf(b, " %7.2fx", ratio);
	}
	kb_buf_printf(b, "\n");
}

/* The marks of the tables' text. */
static void marks_legend(struct kb_buf *b)
{
	kb_buf_printf(b, "marks: # broken (X^2/df >= %d)   ! skewed (p_upper < %g)   ~ more even than random\n",
		      KB_BROKEN, KB_ALPHA);
}

/* X^2/df in at most six characters. */
static const char *chi2_short(double v, char *num, size_t len)
{
	if (v < 0.01)
		snprintf(num, len, "<.01");
	else if (v < 1000)
		snprintf(num, len, "%.3g", v);
	else
		snprintf(num, len, "%.0e", v);
	return num;
}

/* One cell of the tables' text: its mark, X^2/df and buckets used, or n/a. */
static void skew_mark_text(const struct kb_cell *cl, struct kb_buf *b)
{
	char num[32];

	if (!cl->ok) {
		kb_buf_printf(b, " %-16s", "n/a");
		return;
	}
	kb_buf_printf(b, " %c%6s (%6llu)", mark_of(cl),
		      chi2_short(cl->skew.chi2_per_df, num, sizeof(num)),
		      (unsigned long long)cl->skew.used);
}

void kb_render_names_explain(const struct kb_name_explain *e, const struct kb_cell *c,
			     struct kb_buf *b)
{
	size_t i;

	kb_buf_printf(b, "%s %s on %u-bit, %s, %u bits: %llu names into %llu buckets\n", c->sgen,
		      c->table, c->spec.word, c->source, c->bits, (unsigned long long)e->n,
		      (unsigned long long)e->buckets);
	kb_buf_printf(b, "pairs: %llu; sharing a bucket: %llu observed, %.1f for a random function\n",
		      (unsigned long long)e->pairs, (unsigned long long)e->shared, e->random);
	/* as explain over keys: an excess within a random function's noise
	 * is nothing to explain */
	if (!e->nrows || (double)e->shared <= e->random + KB_NOISE_SDS * kb_shared_pairs_sd(e->n, e->buckets)) {
		kb_buf_printf(b, "within %d standard deviations of a random function's: nothing to explain\n",
			      KB_NOISE_SDS);
		return;
	}
	kb_buf_printf(b, "the pairs that share a bucket, by how their names differ: their length (both;\n"
			 "- when they differ) and the bytes they share at the start and then at the end%s\n\n",
		      e->all_classed ? "; pairs: all of that class, random: 1/2^bits of them" : "");
	kb_buf_printf(b, "%7s %7s %7s %12s %12s %8s %12s\n", "length", "prefix", "suffix", "pairs",
		      "shared", "share", "random");
	for (i = 0; i < e->nrows; i++) {
		const struct kb_name_class *r = &e->rows[i];
		char len[16];

		snprintf(len, sizeof(len), r->len ? "%u" : "-", r->len);
		if (e->all_classed)
			kb_buf_printf(b, "%7s %7u %7u %12llu %12llu %7.1f%% %12.1f\n", len, r->prefix,
				      r->suffix, (unsigned long long)r->pairs,
				      (unsigned long long)r->shared,
				      100.0 * (double)r->shared / (double)r->pairs,
				      (double)r->pairs / (double)e->buckets);
		else
			kb_buf_printf(b, "%7s %7u %7u %12s %12llu %8s %12s\n", len, r->prefix, r->suffix,
				      "-", (unsigned long long)r->shared, "-", "-");
	}
	if (!e->all_classed)
		kb_buf_printf(b, "(over %d names every pair is not classed: shared pairs only)\n",
			      KB_NAME_EXPLAIN_ALL);
}

void kb_render_string_report(const struct kb_cell *c, size_t n, unsigned per, unsigned step,
			     struct kb_buf *b)
{
	char num[32];
	size_t i;

	kb_buf_printf(b, "%s through %s, as x86 hashes them: X^2/df by table size\n", n ? c[0].source : "",
		      n ? c[0].table : "");
	marks_legend(b);
	kb_buf_printf(b, "\n%-14s %-4s %-8s |", "table", "word", "sgen");
	for (i = 0; i < per && i < n; i += step)
		kb_buf_printf(b, " %7u", c[i].bits);
	for (i = 0; i < n; i++) {
		if (i % per == 0)
			kb_buf_printf(b, "\n%-14s %-4u %-8s |", c[i].table, c[i].spec.word, c[i].sgen);
		if ((i % per) % step == 0)
			kb_buf_printf(b, " %c%6s", mark_of(&c[i]),
				      chi2_short(c[i].skew.chi2_per_df, num, sizeof(num)));
	}
	kb_buf_printf(b, "\n%llu names\n", n ? (unsigned long long)c[0].skew.n : 0ULL);
}

static void tables_text(const struct kb_table_cell *c, size_t n, uint64_t count,
			struct kb_buf *b)
{
	size_t i;
	unsigned t, too_few = 0;

	kb_buf_printf(b, "Named tables: the key transform, function and bits of real Linux call sites (6.1;\n"
			 "the futex tables 2016, 6.12 and 6.16)\n\n");
	for (t = 0; t < kb_tables_count; t++) {
		const struct kb_table *tb = &kb_tables[t];

		kb_buf_printf(b, "  %-*s %s\n  %-*s %s\n  %-*s keys: %s\n", table_name_width(),
			      tb->name, tb->site, table_name_width(), "", tb->formula,
			      table_name_width(), "", tb->keys_are);
	}
	kb_buf_printf(b, "\n%llu keys of each model (or the kernel's own); X^2/df (buckets used of 2^bits)\n",
		      (unsigned long long)count);
	marks_legend(b);
	for (i = 0; i < n; i++)
		if (c[i].cell.ok && kb_verdict_of(&c[i].cell.skew) == KB_VERDICT_TOO_FEW &&
		    c[i].cell.bits > too_few)
			too_few = c[i].cell.bits;
	if (too_few)
		too_few_legend(too_few, b);
	for (i = 0; i < n; i++)
		if (c[i].cell.spec.k_width) {
			kb_buf_printf(b, "K: the key times 0x%llx mod 2^w, its top bits, K the GOLDEN_RATIO_PRIME of inode-hash\n",
				      (unsigned long long)c[i].cell.spec.k);
			break;
		}
	kb_buf_printf(b, "\n");
	kb_buf_printf(b, "%-*s %-4s %-4s %-12s |", table_name_width(), "table", "word", "bits",
		      "keys");
	for (i = 0; i < n && (i == 0 || !starts_row(c, i)); i++)
		kb_buf_printf(b, " %-16s", kb_hashspec_gen_name(&c[i].cell.spec));
	kb_buf_printf(b, "\n");
	for (i = 0; i < n; i++) {
		const struct kb_cell *cl = &c[i].cell;

		if (starts_row(c, i))
			kb_buf_printf(b, "%s%-*s %-4u %-4u %-12s |", i ? "\n" : "",
				      table_name_width(), kb_tables[c[i].table].name, cl->spec.word, cl->bits,
				      c[i].source);
		skew_mark_text(cl, b);
	}
	kb_buf_printf(b, "\n");
	tables_cost_text(c, n, b);
	for (i = 0; i < n; i++)
		if (!c[i].cell.ok) {
			kb_buf_printf(b, "\nn/a: %s\n", c[i].cell.why);
			break;
		}
}

void kb_render_string_tables(const struct kb_cell *c, size_t n, uint64_t count,
			     struct kb_buf *b)
{
	size_t i;
	unsigned t;

	kb_buf_printf(b, "\nTables that read a string hash: real Linux 6.12 call sites, the names hashed\n"
			 "as x86 hashes them (a word at a time, little-endian)\n\n");
	for (t = 0; t < kb_string_tables_count; t++) {
		const struct kb_string_table *tb = &kb_string_tables[t];

		kb_buf_printf(b, "  %-17s %s\n  %-17s %s\n  %-17s keys: %s\n", tb->name, tb->site,
			      "", tb->formula, "", tb->keys_are);
	}
	kb_buf_printf(b, "\n%llu names of each name set; X^2/df (buckets used of 2^bits), by string-hash generation\n",
		      (unsigned long long)count);
	marks_legend(b);
	for (i = 0, t = 0; i < n; i++)
		if (c[i].ok && kb_verdict_of(&c[i].skew) == KB_VERDICT_TOO_FEW && c[i].bits > t)
			t = c[i].bits;
	if (t)
		too_few_legend(t, b);
	kb_buf_printf(b, "\n");
	kb_buf_printf(b, "%-17s %-4s %-4s %-12s |", "table", "word", "bits", "names");
	for (i = 0; i < LKH_SGEN_COUNT; i++)
		kb_buf_printf(b, " %-16s", lkh_sgen_name((lkh_sgen)i));
	kb_buf_printf(b, "\n");
	for (i = 0; i < n; i++) {
		if (i % LKH_SGEN_COUNT == 0)
			kb_buf_printf(b, "%s%-17s %-4u %-4u %-12s |", i ? "\n" : "", c[i].table,
				      c[i].spec.word, c[i].bits, c[i].source);
		skew_mark_text(&c[i], b);
	}
	kb_buf_printf(b, "\n");
	for (i = 0; i < n; i++)
		if (!c[i].ok) {
			kb_buf_printf(b, "\nn/a: %s\n", c[i].why);
			break;
		}
}

void kb_render_tables(const struct kb_table_cell *c, size_t n, uint64_t count,
		      enum kb_format f, struct kb_buf *b)
{
	if (f == KB_FORMAT_CSV)
		tables_csv(c, n, b);
	else if (f == KB_FORMAT_JSON)
		tables_json(c, n, count, b);
	else
		tables_text(c, n, count, b);
}

void kb_figure_tables(const struct kb_table_cell *c, size_t n, unsigned word,
		      struct kb_figure *fig)
{
	struct kb_buf labels = { 0 };
	size_t i;
	int row = -1, rows = 0, ngens = LKH_GEN_COUNT;
	size_t last = (size_t)-1;

	snprintf(fig->base, sizeof(fig->base), "tables_w%u", word);
	snprintf(fig->title, sizeof(fig->title), "X^2/df of real kernel tables on %u-bit kernels, by generation; " KB_PLOT_SKEW_LEGEND, word);
	fig->width = 900;
	fig->height = 560;
	kb_buf_printf(&fig->dat, "# generation row log10_chi2_per_df mark\n");
	for (i = 0; i < n; i++) {
		const struct kb_cell *cl = &c[i].cell;

		if (cl->spec.word != word)
			continue;
		if (last == (size_t)-1 || c[last].table != c[i].table || strcmp(c[last].source, c[i].source)) {
			row++;
			rows = row + 1;
			kb_buf_printf(&labels, "%d \"%s (%s)\"\n", row,
				      kb_tables[c[i].table].name, c[i].source);
		}
		last = i;
		kb_plot_heat_cell(&fig->dat, kb_hashspec_gen(&cl->spec), row,
				  cl->ok ? &cl->skew : NULL);
		if (kb_hashspec_gen(&cl->spec) + 1 > ngens)
			ngens = kb_hashspec_gen(&cl->spec) + 1;
	}
	/* rows from the top down, in the order of the text output */
	kb_figure_gen_heatmap(fig, rows, 1, ngens, &labels);
	kb_buf_free(&labels);
}

void kb_figure_gen_heatmap(struct kb_figure *fig, int rows, int row0_on_top,
			   int ngens, const struct kb_buf *labels)
{
	size_t used = 0;
	char xtics[256], layers[1024], yrange[64];
	int g;

	snprintf(yrange, sizeof(yrange), row0_on_top ? "[%d.5:-0.5]" : "[-0.5:%d.5]",
		 rows - 1);
	for (g = 0; g < ngens; g++)
		used += (size_t)snprintf(xtics + used, sizeof(xtics) - used, "%s\"%s\" %d",
					 g ? ", " : "", kb_gen_name(g), g);
	/* the row names, a block of their own: y tic labels in the margin */
	kb_buf_printf(&fig->dat, "\n\n# row name\n%.*s", (int)labels->len,
		      labels->data ? labels->data : "");
	if (labels->failed)
		fig->dat.failed = 1;
	kb_plot_heat_layers(layers, sizeof(layers), "index 0",
			    ", \\\n    data index 1 using (0):1:ytic(2) with points pt -1 notitle");
	kb_buf_printf(&fig->body,
		      "  set xlabel \"generation\"\n  set xtics (%s)\n"
		      "  set ytics scale 0 font \",8\"\n  set yrange %s\n  set xrange [-0.5:%d.5]\n"
		      KB_PLOT_SKEW_SCALE "  set title gptitle\n%s",
		      xtics, yrange, ngens - 1, layers);
}
