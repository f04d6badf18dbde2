/* SPDX-License-Identifier: MIT */
#include "advise_render.h"

#include <math.h>
#include <string.h>

#include "cost_render.h"
#include "stats.h"

#define CSV_ADVICE 3 /* 1 had no noise and tie columns; 2 no re-layouts */
#define JSON_ADVICE 3 /* 2 had no re-layouts */

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

void kb_advice_line(const struct kb_advice *a, struct kb_buf *b)
{
	const struct kb_advice_row *cur = &a->rows[a->current], *pick = &a->rows[a->pick];
	char e1[64], e2[64], g[64];

	kb_candidate_expr(&cur->cand, a->bits, e1, sizeof(e1));
	kb_buf_printf(b, "%s (%s) costs %.2fx a random function's %s here", e1,
		      lkh_gen_name(cur->cand.gen), cur->ratio, kb_cost_unit(a->kind));
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

static void text(const struct kb_advice *a, const double *ns, const char *keys,
		 struct kb_buf *b)
{
	char e[64], g[64];
	size_t i;

	gcd_text(a->gcd, a->shift, g, sizeof(g));
	kb_buf_printf(b, "advise: %llu distinct keys of %s into 2^%u buckets, %u-bit kernel, %s table\n",
		      (unsigned long long)a->n, keys, a->bits, a->word, kb_table_kind_name(a->kind));
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
	kb_buf_printf(b, "\n(the key itself fits these keys only; keyed: the one choice when an attacker picks the keys)\n");
	if (a->relayouts)
		kb_buf_printf(b, "(re-layouts: the keys' %zu run%s of keys at most 2^%u bytes apart, each moved whole to random 2^%u-byte units of their span, offsets kept; a change must win in %.0f%% of them)\n",
			      a->runs, a->runs == 1 ? "" : "s", a->unit, a->unit, 100 * KB_ADVISE_CLEAR);
	kb_buf_printf(b, "advice: ");
	kb_advice_line(a, b);
}

static void csv(const struct kb_advice *a, const double *ns, const char *keys,
		struct kb_buf *b)
{
	char e[64];
	size_t i;

	kb_buf_printf(b, "schema,keys,n,bits,word,kind,align,gcd,noise,tie,rank,candidate,origin,keyed,current,picked,advised,relayouts,wins,chi2_per_df,verdict,cost,cost_random,cost_vs_random,ns_per_hash\n");
	for (i = 0; i < a->nrows; i++) {
		const struct kb_advice_row *r = &a->rows[i];

		kb_buf_printf(b, "%d,", CSV_ADVICE);
		kb_csv_field(b, keys);
		kb_buf_printf(b, ",%llu,%u,%u,%s,%u,%llu,%.6f,%.6f,%zu,", (unsigned long long)a->n,
			      a->bits, a->word, kb_table_kind_name(a->kind), a->align,
			      (unsigned long long)a->gcd, a->noise, a->tie, i + 1);
		kb_csv_field(b, kb_candidate_expr(&r->cand, a->bits, e, sizeof(e)));
		kb_buf_printf(b, ",%s,%d,%d,%d,%d,%u,%u,%.6g,%s,%.6f,%.6f,%.6f,",
			      kb_candidate_origin(&r->cand), kb_candidate_keyed(&r->cand), r->current,
			      i == a->pick, i == advised(a), a->relayouts,
			      i == a->pick ? a->wins : 0, r->skew.chi2_per_df, kb_verdict(&r->skew), r->cost, r->random,
			      r->ratio);
		if (ns[i] >= 0)
			kb_buf_printf(b, "%.4f", ns[i]);
		kb_buf_printf(b, "\n");
	}
}

static void json(const struct kb_advice *a, const double *ns, const char *keys,
		 struct kb_buf *b)
{
	struct kb_buf line = { 0 };
	char e[64];
	size_t i;

	kb_buf_printf(b, "{\n  \"schema\": \"khash-bench/advise\",\n  \"schema_version\": %d,\n  \"keys\": ",
		      JSON_ADVICE);
	kb_json_string(b, keys);
	kb_buf_printf(b, ",\n  \"n\": %llu, \"bits\": %u, \"word\": %u, \"kind\": \"%s\",\n  \"min\": %llu, \"max\": %llu, \"align\": %u, \"gcd\": %llu,\n  \"noise\": %.6f, \"tie\": %.6f,\n  \"candidates\": [",
		      (unsigned long long)a->n, a->bits, a->word, kb_table_kind_name(a->kind),
		      (unsigned long long)a->min, (unsigned long long)a->max, a->align,
		      (unsigned long long)a->gcd, a->noise, a->tie);
	for (i = 0; i < a->nrows; i++) {
		const struct kb_advice_row *r = &a->rows[i];

		kb_buf_printf(b, "%s\n    {\"rank\": %zu, \"candidate\": ", i ? "," : "", i + 1);
		kb_json_string(b, kb_candidate_expr(&r->cand, a->bits, e, sizeof(e)));
		kb_buf_printf(b, ", \"origin\": \"%s\", \"keyed\": %s, \"current\": %s, \"picked\": %s, \"advised\": %s, \"verdict\": \"%s\"",
			      kb_candidate_origin(&r->cand),
			      kb_candidate_keyed(&r->cand) ? "true" : "false",
			      r->current ? "true" : "false", i == a->pick ? "true" : "false",
			      i == advised(a) ? "true" : "false", kb_verdict(&r->skew));
		kb_buf_printf(b, ", ");
		kb_json_number(b, "chi2_per_df", r->skew.chi2_per_df);
		kb_buf_printf(b, ", ");
		kb_json_number(b, "cost", r->cost);
		kb_buf_printf(b, ", ");
		kb_json_number(b, "cost_random", r->random);
		kb_buf_printf(b, ", ");
		kb_json_number(b, "cost_vs_random", r->ratio);
		kb_buf_printf(b, ", ");
		/* an unknown speed is null, as an infinity is */
		kb_json_number(b, "ns_per_hash", ns[i] >= 0 ? ns[i] : NAN);
		kb_buf_printf(b, "}");
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
