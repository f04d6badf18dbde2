/* SPDX-License-Identifier: MIT */
#include "conform_render.h"

#include <math.h>
#include <string.h>

#include "keysets.h"
#include "schemas.h"

/* The table sizes the text shows buckets used at. */
static const unsigned shown_bits[] = { 1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 24, 28, 32 };

static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0;
}

/* Generation g's cell closest to the user's function: fewest keys
 * differing (t == NULL: none compared). */
static const struct kb_conform_target *closest(const struct kb_conform *c, unsigned g)
{
	const struct kb_conform_target *best = NULL;
	size_t i;

	for (i = 0; i < c->nt; i++) {
		const struct kb_conform_target *t = &c->t[i];

		if (t->gen != g)
			continue;
		/* mirrored first, then the fewest differing, then the most keys */
		if (!best || kb_conform_mirrored(t) > kb_conform_mirrored(best) ||
		    (kb_conform_mirrored(t) == kb_conform_mirrored(best) &&
		     (share(t->keys_differ, t->keys) < share(best->keys_differ, best->keys) ||
		      (share(t->keys_differ, t->keys) == share(best->keys_differ, best->keys) &&
		       t->keys > best->keys))))
			best = t;
	}
	return best;
}

static void gen_line(const struct kb_conform_view *v, unsigned g, struct kb_buf *b)
{
	const struct kb_conform *c = v->c;
	const struct kb_conform_target *t = closest(c, g);
	size_t i, n = 0;

	kb_buf_printf(b, "  %-8s ", lkh_gen_name((lkh_gen)g));
	for (i = 0; i < c->nt; i++)
		if (c->t[i].gen == g && kb_conform_reproduces(&c->t[i]))
			kb_buf_printf(b, "%s%s %u-bit", n++ ? ", " : "reproduces ",
				      lkh_func_name(c->t[i].func), c->t[i].word);
	if (n || !t) {
		kb_buf_printf(b, n ? "\n" : "nothing compared\n");
		return;
	}
	if (kb_conform_mirrored(t)) {
		kb_buf_printf(b, "mirrored: %s %u-bit's bucket b is 2^bits - 1 - b (or -b) here, on every key: its multiplier negated\n",
			      lkh_func_name(t->func), t->word);
		return;
	}
	if (!t->keys_differ) {
		kb_buf_printf(b, "%s %u-bit at bits 1..%u, the kernel's goes to %u: %s\n",
			      lkh_func_name(t->func), t->word, t->bits_to, t->bits_max,
			      v->high ? v->high : "not compared");
		return;
	}
	kb_buf_printf(b, "differs; closest %s %u-bit: %llu of %llu keys (%.1f%%), first 0x%llx at bits %u: 0x%llx, the kernel's 0x%llx\n",
		      lkh_func_name(t->func), t->word, (unsigned long long)t->keys_differ,
		      (unsigned long long)t->keys, 100 * share(t->keys_differ, t->keys),
		      (unsigned long long)t->first_key, t->first_bits, (unsigned long long)t->got,
		      (unsigned long long)t->want);
}

/* "63", "32-63, 0" ... : the bits of a mask, runs joined. */
static void bit_runs(uint64_t mask, struct kb_buf *b)
{
	int j = 63, first = 1;

	while (j >= 0) {
		int hi;

		if (!(mask >> j & 1)) {
			j--;
			continue;
		}
		hi = j;
		while (j >= 0 && mask >> j & 1)
			j--;
		kb_buf_printf(b, first ? "" : ", ");
		first = 0;
		if (hi == j + 1)
			kb_buf_printf(b, "%d", hi);
		else
			kb_buf_printf(b, "%d-%d", j + 1, hi);
	}
}

static void multiplier_line(const struct kb_conform *c, struct kb_buf *b)
{
	const char *name;
	int delta;

	kb_buf_printf(b, "a multiply: the key times 0x%llx mod 2^%u, its top bits",
		      (unsigned long long)c->k, c->k_width);
	if (!(c->k & 1))
		kb_buf_printf(b, "; even: the key's top bit never counts (x and x + 2^%u share every bucket)",
			      c->k_width - 1);
	if (kb_conform_known_k(c->k, c->k_width, &name, &delta)) {
		if (delta < 0)
			kb_buf_printf(b, "; the kernel's %s", name);
		else
			kb_buf_printf(b, "; the kernel's %s negated%s", name,
				      delta == 1 ? ", plus 1" : delta == 2 ? ", plus 2" : "");
	}
	kb_buf_printf(b, "\n");
}

static void text(const struct kb_conform_view *v, struct kb_buf *b)
{
	const struct kb_conform *c = v->c;
	unsigned g, i;
	int pass = kb_conform_passes(c, v->gen);

	if (c->degenerate_bits)
		kb_buf_printf(b, "degenerate: %llu of %llu buckets at bits %u (a random function fills %.0f)\n",
			      (unsigned long long)c->distinct[c->degenerate_bits],
			      (unsigned long long)1 << c->degenerate_bits, c->degenerate_bits,
			      c->distinct_random[c->degenerate_bits]);
	kb_buf_printf(b, "conform: %s from %s, --call '%s': %llu keys at bits 1..%u against hash.h\n",
		      v->name, v->file, v->expr, (unsigned long long)c->n_distinct_keys, c->bits_hi);
	for (g = 0; g < LKH_GEN_COUNT; g++)
		gen_line(v, g, b);
	if (v->high)
		kb_buf_printf(b, "bits 33..64 not judged: %s\n", v->high);
	if (c->out_of_range)
		kb_buf_printf(b, "not a bucket: %llu results at or past 2^bits, the first 0x%llx for key 0x%llx at bits %u\n",
			      (unsigned long long)c->out_of_range, (unsigned long long)c->oor_value,
			      (unsigned long long)c->oor_key, c->oor_bits);
	if (c->k_width)
		multiplier_line(c, b);
	if (c->dead_inputs) {
		kb_buf_printf(b, "input bits that never move a bucket: ");
		bit_runs(c->dead_inputs, b);
		kb_buf_printf(b, "\n");
	}
	if (v->bits0 == 1)
		kb_buf_printf(b, "bits 0 (--ubsan): undefined behaviour (UBSan stopped the function)\n");
	else if (v->bits0 == 0)
		kb_buf_printf(b, "bits 0 (--ubsan): no undefined behaviour; key 1 goes to 0x%llx\n",
			      (unsigned long long)v->bits0_value);
	kb_buf_printf(b, "buckets used by the %llu keys, a random function's below:\n  bits   ",
		      (unsigned long long)c->n_distinct_keys);
	for (i = 0; i < sizeof(shown_bits) / sizeof(shown_bits[0]) && 1; i++)
		kb_buf_printf(b, " %6u", shown_bits[i]);
	kb_buf_printf(b, "\n  used   ");
	for (i = 0; i < sizeof(shown_bits) / sizeof(shown_bits[0]) && 1; i++)
		kb_buf_printf(b, " %6llu", (unsigned long long)c->distinct[shown_bits[i]]);
	kb_buf_printf(b, "\n  random ");
	for (i = 0; i < sizeof(shown_bits) / sizeof(shown_bits[0]) && 1; i++)
		kb_buf_printf(b, " %6.0f", c->distinct_random[shown_bits[i]]);
	kb_buf_printf(b, "\ncost on the built-in key sets, %u-bit: compares per lookup in chained buckets over a random function's, at the worst of 2^%d..2^%d buckets\n",
		      v->word, KB_CONFORM_COST_BITS_LO, KB_CONFORM_COST_BITS_HI);
	kb_buf_printf(b, "  %-14s %6s %5s %9s %-14s %9s\n", "key set", "keys", "bits", "x random",
		      "verdict", "new long");
	for (i = 0; i < c->ncost; i++) {
		const struct kb_conform_cost *k = &c->cost[i];

		kb_buf_printf(b, "  %-14s %6llu %5u %9.3f %-14s %9.3f\n", kb_keysets[k->keyset].name,
			      (unsigned long long)k->n, k->worst_bits, k->ratio, kb_verdict(&k->skew),
			      k->kernel_ratio);
	}
	if (v->gen >= 0)
		kb_buf_printf(b, "%s to %s (--gen %s)\n", pass ? "conforms" : "does not conform",
			      lkh_gen_name((lkh_gen)v->gen), lkh_gen_name((lkh_gen)v->gen));
	else
		kb_buf_printf(b, "%s\n", pass ? "conforms: it reproduces a cell of hash.h"
					      : "does not conform: it reproduces no cell of hash.h");
}

/* A compared cell's fields. */
static void target_fields(struct kb_buf *b, enum kb_fields_as as,
			  const struct kb_conform_target *t)
{
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_CONFORM].csv_version, .in = KB_IN_CSV },
		{ .name = "gen", .form = KB_FIELD_STR, .s = lkh_gen_name(t->gen) },
		{ .name = "func", .form = KB_FIELD_STR, .s = lkh_func_name(t->func) },
		{ .name = "word", .u = t->word },
		{ .name = "bits_max", .u = t->bits_max },
		{ .name = "bits_compared", .u = t->bits_to },
		{ .name = "keys", .u = t->keys },
		{ .name = "keys_differ", .u = t->keys_differ },
		{ .name = "share_differ", .form = KB_FIELD_NUM_FIX, .prec = 6,
		  .d = share(t->keys_differ, t->keys) },
		{ .name = "reproduces", .form = KB_FIELD_BOOL, .u = (uint64_t)kb_conform_reproduces(t) },
		{ .name = "mirrored", .form = KB_FIELD_BOOL, .u = (uint64_t)kb_conform_mirrored(t) },
		{ .name = "first_key", .form = KB_FIELD_HEX_0X, .u = t->first_key,
		  .none = t->keys_differ ? 0 : KB_NONE_NULL },
		{ .name = "first_bits", .u = t->first_bits, .none = t->keys_differ ? 0 : KB_NONE_NULL },
		{ .name = "got", .form = KB_FIELD_HEX_0X, .u = t->got,
		  .none = t->keys_differ ? 0 : KB_NONE_NULL },
		{ .name = "kernel", .form = KB_FIELD_HEX_0X, .u = t->want,
		  .none = t->keys_differ ? 0 : KB_NONE_NULL },
	};

	kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_conform_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct kb_conform_target t;

	target_fields(b, as, &t);
}

/* A key set's cost fields. */
static void cost_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_conform_cost *k,
			unsigned word)
{
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_CONFORM_COST].csv_version, .in = KB_IN_CSV },
		{ .name = "keyset", .form = KB_FIELD_STR, .s = kb_keysets[k->keyset].name },
		{ .name = "keys", .u = k->n },
		{ .name = "word", .u = word },
		{ .name = "bits", .u = k->worst_bits },
		{ .name = "cost_vs_random", .form = KB_FIELD_NUM_FIX, .prec = 6, .d = k->ratio },
		{ .name = "chi2_per_df", .form = KB_FIELD_NUM_G, .prec = 6, .d = k->skew.chi2_per_df },
		{ .name = "verdict", .form = KB_FIELD_STR, .s = kb_verdict(&k->skew) },
		{ .name = "new_hash_long_cost_vs_random", .form = KB_FIELD_NUM_FIX, .prec = 6,
		  .d = k->kernel_ratio },
	};

	kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_conform_cost_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct kb_conform_cost k;

	cost_fields(b, as, &k, 0);
}

static void csv(const struct kb_conform_view *v, struct kb_buf *b)
{
	size_t i;

	kb_conform_names(b, KB_FIELDS_CSV_HEAD);
	for (i = 0; i < v->c->nt; i++)
		target_fields(b, KB_FIELDS_CSV, &v->c->t[i]);
	kb_buf_printf(b, "\n");
	kb_conform_cost_names(b, KB_FIELDS_CSV_HEAD);
	for (i = 0; i < v->c->ncost; i++)
		cost_fields(b, KB_FIELDS_CSV, &v->c->cost[i], v->word);
}

static void json(const struct kb_conform_view *v, struct kb_buf *b)
{
	const struct kb_conform *c = v->c;
	unsigned i;

	kb_json_doc_head(b, KB_DOC_CONFORM);
	kb_buf_printf(b, "  \"name\": ");
	kb_json_string(b, v->name);
	kb_buf_printf(b, ", \"source\": ");
	kb_json_string(b, v->file);
	kb_buf_printf(b, ", \"call\": ");
	kb_json_string(b, v->expr);
	kb_buf_printf(b, ",\n  \"gen\": ");
	if (v->gen >= 0)
		kb_json_string(b, lkh_gen_name((lkh_gen)v->gen));
	else
		kb_buf_printf(b, "null");
	kb_buf_printf(b, ", \"conforms\": %s, \"keys\": %llu, \"bits_judged\": %u, \"bits_33_64\": ",
		      kb_conform_passes(c, v->gen) ? "true" : "false",
		      (unsigned long long)c->n_distinct_keys, c->bits_hi);
	if (v->high)
		kb_json_string(b, v->high);
	else
		kb_buf_printf(b, "null");
	kb_buf_printf(b, ",\n  \"degenerate_bits\": %u, \"out_of_range\": %llu, \"dead_inputs\": \"0x%llx\", \"multiplier\": ",
		      c->degenerate_bits, (unsigned long long)c->out_of_range,
		      (unsigned long long)c->dead_inputs);
	if (c->k_width)
		kb_buf_printf(b, "\"0x%llx\"", (unsigned long long)c->k);
	else
		kb_buf_printf(b, "null");
	kb_buf_printf(b, ", \"multiplier_width\": %u, \"bits0_ub\": %s,\n  \"buckets_used\": [",
		      c->k_width, v->bits0 < 0 ? "null" : v->bits0 ? "true" : "false");
	for (i = 1; i <= KB_CONFORM_TABLE_BITS; i++) {
		kb_buf_printf(b, "%s{\"bits\": %u, \"used\": %llu, ", i > 1 ? ", " : "", i,
			      (unsigned long long)c->distinct[i]);
		kb_json_number(b, "random", c->distinct_random[i]);
		kb_buf_printf(b, "}");
	}
	kb_buf_printf(b, "],\n  \"cells\": [");
	for (i = 0; i < c->nt; i++) {
		kb_buf_printf(b, "%s\n    ", i ? "," : "");
		target_fields(b, KB_FIELDS_JSON, &c->t[i]);
	}
	kb_buf_printf(b, "\n  ],\n  \"costs\": [");
	for (i = 0; i < c->ncost; i++) {
		kb_buf_printf(b, "%s\n    ", i ? "," : "");
		cost_fields(b, KB_FIELDS_JSON, &c->cost[i], v->word);
	}
	kb_buf_printf(b, "\n  ]\n}\n");
}

void kb_render_conform(const struct kb_conform_view *v, enum kb_format format, struct kb_buf *b)
{
	if (format == KB_FORMAT_CSV)
		csv(v, b);
	else if (format == KB_FORMAT_JSON)
		json(v, b);
	else
		text(v, b);
}
