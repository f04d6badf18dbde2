/* SPDX-License-Identifier: MIT */
#include "explain_render.h"

#include <math.h>
#include <stdlib.h>

#include "schemas.h"

/* d*K mod 2^w, the word it lands at (a hex figure a reader can check). */
static uint64_t product_of(const struct kb_explain *e, uint64_t d)
{
	return e->width >= 64 ? d * e->k : d * e->k & ((UINT64_C(1) << e->width) - 1);
}

static double share(const struct kb_explain *e, double excess)
{
	double total = (double)e->shared - e->shared_random;

	return total > 0 ? excess / total : 0;
}

/* The differences to list: none when there is nothing to explain. */
static size_t rows(const struct kb_explain *e)
{
	return e->nothing ? 0 : e->ntop;
}

/* An offset in buckets: fixed point, or exponent form for the tiny ones. */
static void offset_text(struct kb_buf *b, double x)
{
	if (x != 0 && fabs(x) < 1e-4)
		kb_buf_printf(b, "%+9.1e", x);
	else
		kb_buf_printf(b, "%+9.4f", x);
}

static void text(const struct kb_explain *e, const struct kb_hashspec *s, unsigned bits,
		 const char *keys, struct kb_buf *b)
{
	size_t i;

	kb_buf_printf(b, "explain: %s %s on %u-bit, %s, %u bits: %llu distinct keys into %llu buckets\n",
		      kb_hashspec_gen_name(s), lkh_func_name(s->func), s->word, keys, bits,
		      (unsigned long long)e->n, (unsigned long long)e->m);
	kb_buf_printf(b, "keys: every key a multiple of 2^%u; every difference a multiple of %llu; %llu pages of 4 KiB, at most %llu keys on one",
		      e->align, (unsigned long long)e->gcd, (unsigned long long)e->pages,
		      (unsigned long long)e->max_per_page);
	if (e->in_page_gcd)
		kb_buf_printf(b, "; within a page, differences multiples of %llu",
			      (unsigned long long)e->in_page_gcd);
	kb_buf_printf(b, "\ngaps between consecutive keys, commonest first:");
	for (i = 0; i < e->nstrides; i++)
		kb_buf_printf(b, "%s %llu (x%llu)", i ? "," : "", (unsigned long long)e->strides[i].d,
			      (unsigned long long)e->strides[i].count);
	kb_buf_printf(b, "\n");
	if (e->linear)
		kb_buf_printf(b, "multiplier: 0x%llx, a %u-bit product; its longest run: %u %s from bit %u to %u; a bucket is 2^%u wide\n",
			      (unsigned long long)e->k, e->width, e->run_len,
			      e->run_bit ? "ones" : "zeros", e->run_lo, e->run_lo + e->run_len - 1,
			      e->width - bits);
	else if (s->user)
		kb_buf_printf(b, "%s is your function (--source), no multiply seen from here: no model, only what was observed\n",
			      kb_hashspec_gen_name(s));
	else
		kb_buf_printf(b, "the product is not one multiply (two 32-bit products): no model, only what was observed\n");
	if (e->linear && e->nstrides) {
		uint64_t d = e->strides[0].d;

		kb_buf_printf(b, "the commonest gap, %llu: d*K mod 2^%u = %#llx, ",
			      (unsigned long long)d, e->width,
			      (unsigned long long)product_of(e, d));
		offset_text(b, kb_explain_offset(e, d, bits));
		kb_buf_printf(b, " of a bucket: keys that far apart share one with chance %.4f\n",
			      kb_explain_chance(kb_explain_offset(e, d, bits)));
	}
	kb_buf_printf(b, "pairs: %llu; sharing a bucket: %llu observed, %.1f for a random function",
		      (unsigned long long)e->pairs, (unsigned long long)e->shared, e->shared_random);
	if (e->linear)
		kb_buf_printf(b, ", %.1f predicted from the differences (%.3fx observed)",
			      e->shared_predicted,
			      e->shared ? e->shared_predicted / (double)e->shared : 0);
	if (e->shared && e->nothing) {
		kb_buf_printf(b, "\nnothing to explain: %llu pairs share a bucket, a random function's %.1f give or take %.1f (one standard deviation)\n",
			      (unsigned long long)e->shared, e->shared_random, e->shared_sd);
		return;
	}
	kb_buf_printf(b, "\n\nthe differences behind the shared buckets, most excess first (%zu distinct among the shared pairs):\n",
		      e->ndiffs);
	kb_buf_printf(b, "%20s %9s %9s %7s %18s %9s %7s %9s %7s\n", "d", "pairs", "shared", "share",
		      "d*K mod 2^w", "/ bucket", "model", "excess", "of it");
	for (i = 0; i < e->ntop; i++) {
		const struct kb_explain_diff *r = &e->top[i];

		kb_buf_printf(b, "%20llu %9llu %9llu %6.1f%% ", (unsigned long long)r->d,
			      (unsigned long long)r->pairs, (unsigned long long)r->shared,
			      100.0 * (double)r->shared / (double)r->pairs);
		unsigned pages;
		long objects;

		if (e->linear) {
			kb_buf_printf(b, "%#18llx ", (unsigned long long)product_of(e, r->d));
			offset_text(b, r->offset);
			kb_buf_printf(b, " %7.4f", r->p);
		} else {
			kb_buf_printf(b, "%18s %9s %7s", "-", "-", "-");
		}
		kb_buf_printf(b, " %9.1f %6.1f%%", r->excess, 100 * share(e, r->excess));
		if (kb_explain_layout(e, r->d, &pages, &objects) && objects)
			kb_buf_printf(b, "  %u page%s %s %ld x %llu", pages, pages > 1 ? "s" : "",
				      objects < 0 ? "-" : "+", labs(objects),
				      (unsigned long long)e->in_page_gcd);
		kb_buf_printf(b, "\n");
	}
	if (!e->shared) {
		kb_buf_printf(b, "no two keys share a bucket (a random function: %.1f pairs)\n",
			      e->shared_random);
		return;
	}
	kb_buf_printf(b, "these %zu differences have %.1f shared pairs over a random function's, all pairs together %.1f (%.1f%%%s)\n",
		      e->ntop, e->top_excess, (double)e->shared - e->shared_random,
		      100 * e->top_share, e->top_share > 1 ? ": the rest share fewer than random" : "");
}

/* A difference's fields (r NULL: none, its CSV fields empty): CSV's row
 * repeats the cell's fields, JSON's object (in "differences") has the
 * difference's alone, named without CSV's d_ and at full precision. */
static void diff_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_explain *e,
			const struct kb_hashspec *s, const struct kb_field *k, unsigned bits,
			const char *keys, const struct kb_explain_diff *r)
{
	static const struct kb_explain_diff no_diff;
	const struct kb_explain_diff *d = r ? r : &no_diff;
	unsigned none = r ? 0 : KB_NONE_NULL, lin = r && e->linear ? 0 : KB_NONE_NULL;
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_EXPLAIN].csv_version, .in = KB_IN_CSV },
		{ .name = "keys", .form = KB_FIELD_STR, .s = keys, .in = KB_IN_CSV },
		{ .name = "func", .form = KB_FIELD_STR, .s = lkh_func_name(s->func), .in = KB_IN_CSV },
		{ .name = "gen", .form = KB_FIELD_STR, .s = kb_hashspec_gen_name(s), .in = KB_IN_CSV },
		{ .name = "word", .u = s->word, .in = KB_IN_CSV },
		{ .name = "bits", .u = bits, .in = KB_IN_CSV },
		{ .name = "n", .u = e->n, .in = KB_IN_CSV },
		{ .name = "pairs", .u = e->pairs, .in = KB_IN_CSV },
		{ .name = "shared", .u = e->shared, .in = KB_IN_CSV },
		{ .name = "shared_random", .form = KB_FIELD_FIX, .prec = 4, .d = e->shared_random,
		  .in = KB_IN_CSV },
		{ .name = "shared_predicted", .form = KB_FIELD_FIX, .prec = 4,
		  .d = e->shared_predicted, .none = e->linear ? 0 : KB_NONE_NULL, .in = KB_IN_CSV },
		{ .name = "d", .u = d->d, .none = none },
		{ .name = "d_pairs", .u = d->pairs, .none = none, .in = KB_IN_CSV },
		{ .name = "pairs", .u = d->pairs, .in = KB_IN_JSON },
		{ .name = "d_shared", .u = d->shared, .none = none, .in = KB_IN_CSV },
		{ .name = "shared", .u = d->shared, .in = KB_IN_JSON },
		{ .name = "d_product", .form = KB_FIELD_HEX_0X, .u = product_of(e, d->d),
		  .none = lin, .in = KB_IN_CSV },
		{ .name = "d_offset", .form = KB_FIELD_FIX, .prec = 6, .d = d->offset, .none = lin,
		  .in = KB_IN_CSV },
		{ .name = "offset", .form = KB_FIELD_NUM, .d = d->offset, .in = KB_IN_JSON },
		{ .name = "d_chance", .form = KB_FIELD_FIX, .prec = 6, .d = d->p, .none = lin,
		  .in = KB_IN_CSV },
		{ .name = "chance", .form = KB_FIELD_NUM, .d = d->p, .in = KB_IN_JSON },
		{ .name = "d_excess", .form = KB_FIELD_FIX, .prec = 4, .d = d->excess, .none = none,
		  .in = KB_IN_CSV },
		{ .name = "excess", .form = KB_FIELD_NUM, .d = d->excess, .in = KB_IN_JSON },
		{ .name = "d_share", .form = KB_FIELD_FIX, .prec = 6, .d = share(e, d->excess),
		  .none = none, .in = KB_IN_CSV },
		{ .name = "share", .form = KB_FIELD_NUM, .d = share(e, d->excess), .in = KB_IN_JSON },
		{ .form = KB_FIELD_GROUP, .sub = k, .n = 2, .in = KB_IN_CSV },
	};

	kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_explain_names(struct kb_buf *b, enum kb_fields_as as)
{
	/* generation K: its multiplier's fields too */
	static const struct kb_gen g = { .gen = KB_GEN_K, .k = 1, .width = 64 };
	static const struct kb_explain e;
	static const struct kb_hashspec s;
	struct kb_field k[2];

	kb_k_fields(&g, k);
	diff_fields(b, as, &e, &s, k, 0, "", NULL);
}

static void csv(const struct kb_explain *e, const struct kb_hashspec *s, unsigned bits,
		const char *keys, struct kb_buf *b)
{
	struct kb_field k[2];
	struct kb_gen g;
	size_t i;

	kb_hashspec_kb_gen(s, &g);
	kb_k_fields(&g, k);
	diff_fields(b, KB_FIELDS_CSV_HEAD, e, s, k, bits, keys, NULL);
	/* nothing to explain: one row, the d_ fields empty, so that the
	 * summary stays machine-readable */
	for (i = 0; i < (rows(e) ? rows(e) : 1); i++)
		diff_fields(b, KB_FIELDS_CSV, e, s, k, bits, keys, rows(e) ? &e->top[i] : NULL);
}

static void json(const struct kb_explain *e, const struct kb_hashspec *s, unsigned bits,
		 const char *keys, struct kb_buf *b)
{
	size_t i;

	kb_json_doc_head(b, KB_DOC_EXPLAIN);
	kb_buf_printf(b, "  \"keys\": ");
	kb_json_string(b, keys);
	kb_buf_printf(b, ",\n  \"func\": \"%s\", \"gen\": \"%s\", \"word\": %u, \"bits\": %u, \"n\": %llu,\n",
		      lkh_func_name(s->func), kb_hashspec_gen_name(s), s->word, bits,
		      (unsigned long long)e->n);
	kb_buf_printf(b, "  \"align\": %u, \"gcd\": %llu, \"pages\": %llu, \"max_per_page\": %llu, \"in_page_gcd\": %llu,\n  \"strides\": [",
		      e->align, (unsigned long long)e->gcd, (unsigned long long)e->pages,
		      (unsigned long long)e->max_per_page, (unsigned long long)e->in_page_gcd);
	for (i = 0; i < e->nstrides; i++)
		kb_buf_printf(b, "%s{\"d\": %llu, \"count\": %llu}", i ? ", " : "",
			      (unsigned long long)e->strides[i].d,
			      (unsigned long long)e->strides[i].count);
	kb_buf_printf(b, "],\n  \"linear\": %s, \"multiplier\": ", e->linear ? "true" : "false");
	/* your function's is none known */
	kb_buf_printf(b, s->user ? "null" : "%llu", (unsigned long long)e->k);
	kb_buf_printf(b, ", \"width\": %u,", e->width);
	kb_buf_printf(b, " \"run\": {\"bit\": %u, \"from\": %u, \"length\": %u},\n",
		      e->run_bit, e->run_lo, e->run_len);
	kb_buf_printf(b, "  \"pairs\": %llu, \"shared\": %llu, ", (unsigned long long)e->pairs,
		      (unsigned long long)e->shared);
	kb_json_number(b, "shared_random", e->shared_random);
	kb_buf_printf(b, ", ");
	kb_json_number(b, "shared_predicted", e->linear ? e->shared_predicted : NAN);
	kb_buf_printf(b, ", ");
	kb_json_number(b, "shared_sd", e->shared_sd);
	kb_buf_printf(b, ", \"nothing_to_explain\": %s", e->nothing ? "true" : "false");
	kb_buf_printf(b, ",\n  \"differences\": [");
	for (i = 0; i < rows(e); i++) {
		kb_buf_printf(b, "%s\n    ", i ? "," : "");
		diff_fields(b, KB_FIELDS_JSON, e, s, NULL, bits, keys, &e->top[i]);
	}
	kb_buf_printf(b, "\n  ]\n}\n");
}

void kb_render_explain(const struct kb_explain *e, const struct kb_hashspec *s,
		       unsigned bits, const char *keys, enum kb_format format,
		       struct kb_buf *b)
{
	if (format == KB_FORMAT_CSV)
		csv(e, s, bits, keys, b);
	else if (format == KB_FORMAT_JSON)
		json(e, s, bits, keys, b);
	else
		text(e, s, bits, keys, b);
}
