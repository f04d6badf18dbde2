/* SPDX-License-Identifier: MIT */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *kb_cell_source(const struct kb_cell *c)
{
	return c->keyset >= 0 ? kb_keysets[c->keyset].name : "keys";
}

static uint64_t *alloc_counts(unsigned bits, size_t ways)
{
	return calloc(ways << bits, sizeof(uint64_t));
}

int kb_count_keyset(const struct kb_hashspec *spec, unsigned bits, int keyset,
		    const struct kb_keyset_params *p, unsigned threads,
		    uint64_t **counts, char *err, size_t errlen)
{
	struct kb_keyset_params kp = *p;
	struct kb_keystream ks;
	int rc;

	if (kb_hashspec_check(spec, bits, err, errlen) < 0)
		return -1;
	kp.word = spec->word;
	kp.input_bits = kb_hashspec_input_bits(spec);
	kp.target_func = spec->func;
	kp.target_gen = spec->gen;
	kp.target_bits = bits;
	if (kb_keystream_open(&ks, keyset, &kp, err, errlen) < 0)
		return -1;
	*counts = alloc_counts(bits, 1);
	if (!*counts) {
		kb_keystream_close(&ks);
		snprintf(err, errlen, "out of memory for 2^%u buckets", bits);
		return -1;
	}
	rc = kb_count_parallel(spec, 1, bits, &ks, threads, *counts, err, errlen);
	kb_keystream_close(&ks);
	if (rc < 0) {
		free(*counts);
		*counts = NULL;
	}
	return rc;
}

/* One (key set, function, word): all chosen generations over the same keys,
 * counted at bits_max and folded down to bits_min. */
static int run_group(struct kb_report *r, int keyset, lkh_func func,
		     unsigned word, char *err, size_t errlen)
{
	const struct kb_report_opts *o = &r->opts;
	struct kb_keyset_params kp = o->params;
	struct kb_keystream ks;
	struct kb_hashspec specs[LKH_GEN_COUNT];
	uint64_t *counts;
	int gens[LKH_GEN_COUNT], ng = 0, g, rc;
	unsigned bmax = o->bits_max, b;
	size_t n, first = r->n_cells;
	char why[96] = "";

	for (g = 0; g < LKH_GEN_COUNT; g++) {
		if (o->gens & (1u << g) && lkh_bits_max(func, (lkh_gen)g, word)) {
			specs[ng].func = func;
			specs[ng].gen = (lkh_gen)g;
			specs[ng].word = word;
			gens[ng++] = g;
		}
	}
	if (ng == 0)
		return 0;
	/* cells first, so a group that does not apply still shows */
	for (g = 0; g < ng; g++) {
		for (b = o->bits_min; b <= bmax; b++) {
			struct kb_cell *c = &r->cells[r->n_cells++];

			memset(c, 0, sizeof(*c));
			c->keyset = keyset;
			c->spec.func = func;
			c->spec.gen = (lkh_gen)gens[g];
			c->spec.word = word;
			c->bits = b;
		}
	}
	kp.word = word;
	kp.input_bits = lkh_input_bits(func, word);
	if (kb_keysets[keyset].flags & KB_KS_PER_CELL)
		snprintf(why, sizeof(why), "built for one cell: use khash-bench skew --keyset %s",
			 kb_keysets[keyset].name);
	if (why[0] || kb_keystream_open(&ks, keyset, &kp, why, sizeof(why)) < 0) {
		for (n = first; n < r->n_cells; n++)
			strcpy(r->cells[n].why, why);
		return 0;
	}
	counts = alloc_counts(bmax, (size_t)ng);
	if (!counts) {
		kb_keystream_close(&ks);
		snprintf(err, errlen, "out of memory for %d x 2^%u buckets", ng,
			 bmax);
		return -1;
	}
	rc = kb_count_parallel(specs, (size_t)ng, bmax, &ks, o->threads, counts,
			       err, errlen);
	kb_keystream_close(&ks);
	if (rc < 0) {
		free(counts);
		return -1;
	}
	for (g = 0; g < ng; g++) {
		uint64_t *h = counts + ((size_t)g << bmax);

		for (b = bmax; b >= o->bits_min; b--) {
			struct kb_cell *c =
				&r->cells[first + (size_t)g * (bmax - o->bits_min + 1) +
					  (b - o->bits_min)];

			kb_skew_from_counts(h, UINT64_C(1) << b, &c->skew);
			c->ok = 1;
			if (b > 1)
				kb_fold(h, b);
		}
	}
	free(counts);
	return 0;
}

int kb_report_run(struct kb_report *r, char *err, size_t errlen)
{
	const struct kb_report_opts *o = &r->opts;
	size_t per = (size_t)(o->bits_max - o->bits_min + 1) * LKH_GEN_COUNT;
	int k, f;
	unsigned w;

	r->cells = calloc((size_t)KB_KS_COUNT * LKH_FUNC_COUNT * 2 * per,
			  sizeof(*r->cells));
	r->n_cells = 0;
	if (!r->cells) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (k = 0; k < KB_KS_COUNT; k++) {
		if (!(o->keysets & (1u << k)))
			continue;
		for (f = 0; f < LKH_FUNC_COUNT; f++) {
			if (!(o->funcs & (1u << f)))
				continue;
			for (w = 64; w >= 32; w -= 32) {
				if (!(o->words & (w == 64 ? 2u : 1u)))
					continue;
				if (run_group(r, k, (lkh_func)f, w, err,
					      errlen) < 0)
					return -1;
			}
		}
	}
	return 0;
}

void kb_report_free(struct kb_report *r)
{
	free(r->cells);
	r->cells = NULL;
	r->n_cells = 0;
}

static char mark_of(const struct kb_cell *c)
{
	const char *v = kb_verdict(&c->skew);

	if (!strcmp(v, "broken"))
		return '#';
	if (!strcmp(v, "skewed"))
		return '!';
	if (!strcmp(v, "even"))
		return '~';
	return ' ';
}

void kb_format_report_text(const struct kb_report *r, unsigned step,
			   struct kb_buf *b)
{
	const struct kb_report_opts *o = &r->opts;
	unsigned nb = o->bits_max - o->bits_min + 1, bits;
	size_t i;
	int tally[LKH_GEN_COUNT][3] = { { 0 } };
	int g;

	kb_buf_printf(b, "khash-bench %s report: %llu keys per key set; X^2/df per table size (1 = like a random function)\n",
		      lkh_version_string(),
		      (unsigned long long)o->params.count);
	kb_buf_printf(b, "marks: # broken (X^2/df >= 10)   ! skewed (p_upper < %g)   ~ more even than random (p_lower < %g)\n\n",
		      KB_ALPHA, KB_ALPHA);
	kb_buf_printf(b, "%-13s %-9s %-4s %-6s |", "key set", "function", "word",
		      "gen");
	for (bits = o->bits_min; bits <= o->bits_max; bits += step)
		kb_buf_printf(b, " %7s", "");
	kb_buf_printf(b, "\n%-13s %-9s %-4s %-6s |", "", "", "", "bits:");
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
			kb_buf_printf(b, "%-13s %-9s %-4u %-6s |",
				      kb_cell_source(row),
				      lkh_func_name(row->spec.func),
				      row->spec.word, lkh_gen_name(row->spec.gen));
		else
			kb_buf_printf(b, "%-13s %-9s %-4s %-6s |", "", "", "",
				      lkh_gen_name(row->spec.gen));
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
		for (j = 0; j < nb; j++) {
			char m = mark_of(&row[j]);

			tally[row->spec.gen][m == '#' ? 0 : m == '!' ? 1 : 2]++;
		}
	}
	kb_buf_printf(b, "\nsummary (cells over all key sets, functions, word sizes and bits %u..%u):\n",
		      o->bits_min, o->bits_max);
	for (g = 0; g < LKH_GEN_COUNT; g++) {
		if (!(o->gens & (1u << g)))
			continue;
		kb_buf_printf(b, "  %-6s %4d broken, %4d skewed, %4d fine\n",
			      lkh_gen_name((lkh_gen)g), tally[g][0], tally[g][1],
			      tally[g][2]);
	}
	if (r->elapsed > 0)
		kb_buf_printf(b, "elapsed %.2f s\n", r->elapsed);
}

static void fmt_double(struct kb_buf *b, double v)
{
	v += 0.0; /* print -0 as 0 */
	if (isinf(v))
		kb_buf_printf(b, v < 0 ? "-inf" : "inf");
	else
		kb_buf_printf(b, "%.10g", v);
}

void kb_format_cells_csv(const struct kb_cell *c, size_t n, struct kb_buf *b)
{
	size_t i;

	kb_buf_printf(b, "schema,keys,func,gen,word,bits,n,buckets,chi2,df,chi2_per_df,log10_p_upper,log10_p_lower,p_upper,p_lower,used,max_load,expected_max_load,verdict\n");
	for (i = 0; i < n; i++, c++) {
		const struct kb_skew *s = &c->skew;

		kb_buf_printf(b, "%d,%s,%s,%s,%u,%u,", KB_SCHEMA_VERSION,
			      kb_cell_source(c), lkh_func_name(c->spec.func),
			      lkh_gen_name(c->spec.gen), c->spec.word, c->bits);
		if (!c->ok) {
			kb_buf_printf(b, ",,,,,,,,,,,,n/a\n");
			continue;
		}
		kb_buf_printf(b, "%llu,%llu,", (unsigned long long)s->n,
			      (unsigned long long)s->buckets);
		fmt_double(b, s->chi2);
		kb_buf_printf(b, ",%.0f,", s->df);
		fmt_double(b, s->chi2_per_df);
		kb_buf_printf(b, ",");
		fmt_double(b, s->log10_p_upper);
		kb_buf_printf(b, ",");
		fmt_double(b, s->log10_p_lower);
		kb_buf_printf(b, ",%.6g,%.6g,%llu,%llu,%.4f,%s\n",
			      kb_pow10_or_zero(s->log10_p_upper),
			      kb_pow10_or_zero(s->log10_p_lower),
			      (unsigned long long)s->used,
			      (unsigned long long)s->max_load, s->expected_max,
			      kb_verdict(s));
	}
}

static void json_num(struct kb_buf *b, const char *key, double v)
{
	v += 0.0;
	if (isinf(v) || isnan(v))
		kb_buf_printf(b, "\"%s\": null", key);
	else
		kb_buf_printf(b, "\"%s\": %.10g", key, v);
}

void kb_format_cells_json(const struct kb_cell *c, size_t n,
			  const char *kind, const struct kb_report_opts *o,
			  struct kb_buf *b)
{
	size_t i;

	kb_buf_printf(b, "{\n  \"schema\": \"khash-bench/%s\",\n  \"schema_version\": %d,\n  \"generator\": \"khash-bench %s\",\n",
		      kind, KB_SCHEMA_VERSION, lkh_version_string());
	if (o)
		kb_buf_printf(b, "  \"count\": %llu,\n  \"seed\": %llu,\n  \"bits_min\": %u,\n  \"bits_max\": %u,\n",
			      (unsigned long long)o->params.count,
			      (unsigned long long)o->params.seed, o->bits_min,
			      o->bits_max);
	kb_buf_printf(b, "  \"cells\": [");
	for (i = 0; i < n; i++, c++) {
		const struct kb_skew *s = &c->skew;

		kb_buf_printf(b, "%s\n    {\"keys\": \"%s\", \"func\": \"%s\", \"gen\": \"%s\", \"word\": %u, \"bits\": %u, ",
			      i ? "," : "", kb_cell_source(c),
			      lkh_func_name(c->spec.func),
			      lkh_gen_name(c->spec.gen), c->spec.word, c->bits);
		if (!c->ok) {
			kb_buf_printf(b, "\"verdict\": \"n/a\", \"why\": \"%s\"}",
				      c->why);
			continue;
		}
		kb_buf_printf(b, "\"n\": %llu, \"buckets\": %llu, ",
			      (unsigned long long)s->n,
			      (unsigned long long)s->buckets);
		json_num(b, "chi2", s->chi2);
		kb_buf_printf(b, ", ");
		json_num(b, "df", s->df);
		kb_buf_printf(b, ", ");
		json_num(b, "chi2_per_df", s->chi2_per_df);
		kb_buf_printf(b, ", ");
		json_num(b, "p_upper", kb_pow10_or_zero(s->log10_p_upper));
		kb_buf_printf(b, ", ");
		json_num(b, "p_lower", kb_pow10_or_zero(s->log10_p_lower));
		kb_buf_printf(b, ", ");
		json_num(b, "log10_p_upper", s->log10_p_upper);
		kb_buf_printf(b, ", ");
		json_num(b, "log10_p_lower", s->log10_p_lower);
		kb_buf_printf(b, ", \"used\": %llu, \"max_load\": %llu, ",
			      (unsigned long long)s->used,
			      (unsigned long long)s->max_load);
		json_num(b, "expected_max_load", s->expected_max);
		kb_buf_printf(b, ", \"verdict\": \"%s\"}", kb_verdict(s));
	}
	kb_buf_printf(b, "\n  ]\n}\n");
}

void kb_format_cell_text(const struct kb_cell *c, const char *source,
			 struct kb_buf *b)
{
	const struct kb_skew *s = &c->skew;

	kb_buf_printf(b, "%s %s on %u-bit, %s, %u bits: %llu keys into %llu buckets\n",
		      lkh_gen_name(c->spec.gen), lkh_func_name(c->spec.func),
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
	kb_buf_printf(b, "  verdict: %s\n", kb_verdict(s));
}
