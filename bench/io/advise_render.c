/* SPDX-License-Identifier: MIT */
#include "advise_render.h"

#include <math.h>
#include <string.h>

#include "cost_render.h"
#include "schemas.h"
#include "stats.h"

/* "192 = 3 * 2^6", "131072 = 2^17" */
static void gcd_text(uint64_t g, unsigned shift, char *out, size_t len)
{
	if (!shift || shift >= 64)
		snprintf(out, len, "%llu", (unsigned long long)g);
	else if (g >> shift == 1)
		snprintf(out, len, "%llu = 2^%u", (unsigned long long)g, shift);
	else
		snprintf(out, len, "%llu = %llu * 2^%u", (unsigned long long)g,
			 (unsigned long long)(g >> shift), shift);
}

/* The row the advice names: the pick, or the table's own hash. */
static size_t advised(const struct kb_advice *a)
{
	return a->change ? a->pick : a->current;
}

/* Over names: the change, and the keyed row for names a client picks. */
static void names_advice(const struct kb_advice *a, struct kb_buf *b)
{
	const struct kb_advice_row *pick = &a->rows[a->pick];
	char e[64];
	size_t i;

	if (a->change)
		kb_buf_printf(b, "; %s (%s) costs %.2fx: change", kb_candidate_expr(&pick->cand, a->bits, e, sizeof(e)),
			      kb_candidate_origin(&pick->cand), pick->ratio);
	else
		kb_buf_printf(b, ": keep it");
	for (i = 0; i < a->nrows && !kb_candidate_keyed(&a->rows[i].cand); i++)
		;
	if (i < a->nrows && !kb_candidate_keyed(&a->rows[a->current].cand))
		kb_buf_printf(b, "; where a client picks the names, only a keyed hash holds: %s (%.2fx)",
			      kb_candidate_expr(&a->rows[i].cand, a->bits, e, sizeof(e)),
			      a->rows[i].ratio);
	kb_buf_printf(b, "\n");
}

void kb_advice_line(const struct kb_advice *a, struct kb_buf *b)
{
	const struct kb_advice_row *cur = &a->rows[a->current], *pick = &a->rows[a->pick];
	char e1[64], e2[64], g[64];

	kb_candidate_expr(&cur->cand, a->bits, e1, sizeof(e1));
	kb_buf_printf(b, "%s (%s) costs %.2fx a random function's %s here", e1,
		      kb_candidate_origin(&cur->cand), cur->ratio, kb_cost_unit(a->kind));
	if (a->names) {
		names_advice(a, b);
		return;
	}
	if (!a->relayouts) {
		kb_buf_printf(b, ": keep it\n");
		return;
	}
	kb_candidate_expr(&pick->cand, a->bits, e2, sizeof(e2));
	gcd_text(a->gcd, a->shift, g, sizeof(g));
	/* a fact about the keys, not a claimed cause (that is explain's) */
	if (a->shift)
		kb_buf_printf(b, "; every difference between these keys is a multiple of %s", g);
	kb_buf_printf(b, "; %s (%s) costs %.2fx", e2, kb_candidate_origin(&pick->cand),
		      pick->ratio);
	if (a->change)
		kb_buf_printf(b, ", and less than now in %u of %u re-layouts of these keys\n",
			      a->wins, a->relayouts);
	else
		kb_buf_printf(b, " but less than now in only %u of %u re-layouts of these keys: no clear winner: keep it\n",
			      a->wins, a->relayouts);
}

/* The string generations of a row's same_sgens, as "mix, salted". */
static void sgens_text(unsigned mask, char *out, size_t len)
{
	size_t used = 0;
	int g;

	out[0] = 0;
	for (g = 0; g < LKH_SGEN_COUNT && used < len; g++)
		if (mask & 1u << g)
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "",
						 lkh_sgen_name((lkh_sgen)g));
}

static void text(const struct kb_advice *a, const double *ns, const char *keys,
		 struct kb_buf *b)
{
	char e[64], g[64];
	size_t i, folds;

	gcd_text(a->gcd, a->shift, g, sizeof(g));
	kb_buf_printf(b, "advise: %llu distinct %s of %s into 2^%u buckets, %u-bit kernel, %s table\n",
		      (unsigned long long)a->n, a->names ? "names" : "keys", keys, a->bits, a->word,
		      kb_table_kind_name(a->kind));
	if (a->names)
		kb_buf_printf(b, "names: %llu .. %llu bytes, hashed as x86 does (a word at a time, little-endian)\n",
			      (unsigned long long)a->min, (unsigned long long)a->max);
	else
		kb_buf_printf(b, "keys: 0x%llx .. 0x%llx; every key a multiple of 2^%u; their differences multiples of %s\n",
			      (unsigned long long)a->min, (unsigned long long)a->max, a->align, g);
	kb_buf_printf(b, "cost: %s; x random: over a random function's at the same load (1 = as good;\n"
			 "a random function's strays by %.3f, one standard deviation: ratios within %.3f are a tie)\n\n",
		      kb_cost_unit(a->kind), a->noise, a->tie);
	kb_buf_printf(b, "%4s %-36s %-9s %-5s %9s %-12s %9s %7s %9s %8s\n", "rank", "candidate",
		      "gen", "keyed", "X2/df", "verdict", "cost", "random", "x random", "ns/hash");
	for (i = 0; i < a->nrows; i++) {
		const struct kb_advice_row *r = &a->rows[i];
		char t[16];

		if (ns[i] >= 0)
			snprintf(t, sizeof(t), "%8.2f", ns[i]);
		else
			snprintf(t, sizeof(t), "%8s", "-");
		kb_buf_printf(b, "%4zu %-36s %-9s %-5s %9.4g %-12s %9.3f %7.3f %9.3f %s%s\n", i + 1,
			      kb_candidate_expr(&r->cand, a->bits, e, sizeof(e)),
			      kb_candidate_origin(&r->cand),
			      kb_candidate_keyed(&r->cand) ? "yes" : "no", r->skew.chi2_per_df,
			      kb_verdict(&r->skew), r->cost, r->random, r->ratio, t,
			      r->current ? "  <- now" : "");
	}
	for (i = 0, folds = 0; i < a->nrows; i++)
		if (a->rows[i].same_sgens) {
			sgens_text(a->rows[i].same_sgens, g, sizeof(g));
			kb_buf_printf(b, "%s(%s: every name in the bucket %s puts it in)",
				      folds++ ? " " : "\n", g, kb_candidate_origin(&a->rows[i].cand));
		}
	if (a->names)
		kb_buf_printf(b, "\n(keyed: the one choice when a client picks the names, as it does for sunrpc's and nfsd's caches)\n");
	else
		kb_buf_printf(b, "\n(the key itself fits these keys only; keyed: the one choice when an attacker picks the keys)\n");
	if (a->relayouts)
		kb_buf_printf(b, "(re-layouts: the keys' %zu run%s of keys at most 2^%u bytes apart, each moved whole to random 2^%u-byte units of their span, offsets kept; a change must win in %.0f%% of them)\n",
			      a->runs, a->runs == 1 ? "" : "s", a->unit, a->unit, 100 * KB_ADVISE_CLEAR);
	kb_buf_printf(b, "advice: ");
	kb_advice_line(a, b);
}

/* Candidate i's fields: CSV's row repeats the keys' and the advice's
 * fields, JSON has them once at its top; verdict is JSON's before the
 * figures, CSV's after X^2/df.  e: room for the candidate's expression. */
static void candidate_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_advice *a,
			     const double *ns, const char *keys, size_t i, char e[64])
{
	const struct kb_advice_row *r = &a->rows[i];
	const char *verdict = kb_verdict(&r->skew);
	char same[64];
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_ADVISE].csv_version, .in = KB_IN_CSV },
		{ .name = "keys", .form = KB_FIELD_STR, .s = keys, .in = KB_IN_CSV },
		{ .name = "n", .u = a->n, .in = KB_IN_CSV },
		{ .name = "bits", .u = a->bits, .in = KB_IN_CSV },
		{ .name = "word", .u = a->word, .in = KB_IN_CSV },
		{ .name = "kind", .form = KB_FIELD_STR, .s = kb_table_kind_name(a->kind),
		  .in = KB_IN_CSV },
		{ .name = "align", .u = a->align, .in = KB_IN_CSV },
		{ .name = "gcd", .u = a->gcd, .in = KB_IN_CSV },
		{ .name = "noise", .form = KB_FIELD_FIX, .prec = 6, .d = a->noise, .in = KB_IN_CSV },
		{ .name = "tie", .form = KB_FIELD_FIX, .prec = 6, .d = a->tie, .in = KB_IN_CSV },
		{ .name = "rank", .u = i + 1 },
		{ .name = "candidate", .form = KB_FIELD_STR,
		  .s = kb_candidate_expr(&r->cand, a->bits, e, 64) },
		{ .name = "origin", .form = KB_FIELD_STR, .s = kb_candidate_origin(&r->cand) },
		/* names: the string generations folded into this row */
		{ .name = "same_buckets_as", .form = KB_FIELD_STR, .s = same, .in = KB_IN_JSON },
		{ .name = "keyed", .form = KB_FIELD_BOOL, .u = (uint64_t)kb_candidate_keyed(&r->cand) },
		{ .name = "current", .form = KB_FIELD_BOOL, .u = (uint64_t)r->current },
		{ .name = "picked", .form = KB_FIELD_BOOL, .u = i == a->pick },
		{ .name = "advised", .form = KB_FIELD_BOOL, .u = i == advised(a) },
		{ .name = "verdict", .form = KB_FIELD_STR, .s = verdict, .in = KB_IN_JSON },
		{ .name = "relayouts", .u = a->relayouts, .in = KB_IN_CSV },
		{ .name = "wins", .u = i == a->pick ? a->wins : 0, .in = KB_IN_CSV },
		{ .name = "chi2_per_df", .form = KB_FIELD_NUM_G, .prec = 6, .d = r->skew.chi2_per_df },
		{ .name = "verdict", .form = KB_FIELD_STR, .s = verdict, .in = KB_IN_CSV },
		{ .name = "cost", .form = KB_FIELD_NUM_FIX, .prec = 6, .d = r->cost },
		{ .name = "cost_random", .form = KB_FIELD_NUM_FIX, .prec = 6, .d = r->random },
		{ .name = "cost_vs_random", .form = KB_FIELD_NUM_FIX, .prec = 6, .d = r->ratio },
		/* an unknown speed: empty, null as an infinity is */
		{ .name = "ns_per_hash", .form = KB_FIELD_NUM_FIX, .prec = 4, .d = ns[i],
		  .none = ns[i] >= 0 ? 0 : KB_NONE_NULL },
	};

	sgens_text(r->same_sgens, same, sizeof(same));
	kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_advise_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct kb_advice none;
	static const double no_ns;
	char e[64];

	candidate_fields(b, as, &none, &no_ns, "", 0, e);
}

static void csv(const struct kb_advice *a, const double *ns, const char *keys,
		struct kb_buf *b)
{
	char e[64];
	size_t i;

	kb_advise_names(b, KB_FIELDS_CSV_HEAD);
	for (i = 0; i < a->nrows; i++)
		candidate_fields(b, KB_FIELDS_CSV, a, ns, keys, i, e);
}

static void json(const struct kb_advice *a, const double *ns, const char *keys,
		 struct kb_buf *b)
{
	struct kb_buf line = { 0 };
	char e[64];
	size_t i;

	kb_json_doc_head(b, KB_DOC_ADVISE);
	kb_buf_printf(b, "  \"keys\": ");
	kb_json_string(b, keys);
	kb_buf_printf(b, ",\n  \"input\": \"%s\", \"n\": %llu, \"bits\": %u, \"word\": %u, \"kind\": \"%s\",\n",
		      a->names ? "names" : "keys", (unsigned long long)a->n, a->bits, a->word,
		      kb_table_kind_name(a->kind));
	/* names: their lengths, not values, and no stride */
	if (a->names)
		kb_buf_printf(b, "  \"name_bytes_min\": %llu, \"name_bytes_max\": %llu,\n",
			      (unsigned long long)a->min, (unsigned long long)a->max);
	else
		kb_buf_printf(b, "  \"min\": %llu, \"max\": %llu, \"align\": %u, \"gcd\": %llu,\n",
			      (unsigned long long)a->min, (unsigned long long)a->max, a->align,
			      (unsigned long long)a->gcd);
	kb_buf_printf(b, "  \"noise\": %.6f, \"tie\": %.6f,\n  \"candidates\": [", a->noise, a->tie);
	for (i = 0; i < a->nrows; i++) {
		kb_buf_printf(b, "%s\n    ", i ? "," : "");
		candidate_fields(b, KB_FIELDS_JSON, a, ns, keys, i, e);
	}
	kb_advice_line(a, &line);
	if (line.len && line.data[line.len - 1] == '\n')
		line.data[--line.len] = 0;
	kb_buf_printf(b, "\n  ],\n  \"relayouts\": %u, \"runs\": %zu, \"relayout_unit\": %llu, \"pick_wins\": %u, \"clear_share\": %.2f, \"change\": %s,\n  \"advice\": ",
		      a->relayouts, a->runs, 1ull << a->unit, a->wins,
		      KB_ADVISE_CLEAR, a->change ? "true" : "false");
	kb_json_string(b, line.data ? line.data : "");
	kb_buf_printf(b, "\n}\n");
	kb_buf_free(&line);
}

void kb_render_advice(const struct kb_advice *a, const double *ns, const char *keys,
		      enum kb_format format, struct kb_buf *b)
{
	if (format == KB_FORMAT_CSV)
		csv(a, ns, keys, b);
	else if (format == KB_FORMAT_JSON)
		json(a, ns, keys, b);
	else
		text(a, ns, keys, b);
}
