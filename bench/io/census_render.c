/* SPDX-License-Identifier: MIT */
#include "census_render.h"
#include "cost_render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <khash/lkh.h>

#include "census_sites.h"
#include "render.h"
#include "schemas.h"
#include "tables.h"


static const char *const bits_from_names[] = {
	[KB_CENSUS_BITS_SITE] = "site", [KB_CENSUS_BITS_TABLE] = "table",
	[KB_CENSUS_BITS_WORD] = "word", [KB_CENSUS_BITS_INODE] = "inode"
};

/* The bits column's mark of where the size came from. */
static const char *const bits_from_marks[] = {
	[KB_CENSUS_BITS_SITE] = "", [KB_CENSUS_BITS_TABLE] = "t",
	[KB_CENSUS_BITS_WORD] = "w", [KB_CENSUS_BITS_INODE] = "i"
};

static const char *const kind_from_names[] = {
	[KB_CENSUS_KIND_NONE] = "none", [KB_CENSUS_KIND_TABLE] = "table",
	[KB_CENSUS_KIND_SITE] = "site"
};

/* The cost the row's kind pays under generation g, beside a random
 * function's (kb_cost_for): 1, or 0 when it has none (too few keys, a
 * hash that picks no bucket, a kind unknown). */
static int kind_cost(const struct kb_census_row *r, int g, double *cost, double *random,
		     double *ratio)
{
	struct kb_cost c;

	if (!r->at || r->kind.kind < 0 || r->kind.kind >= KB_KIND_COUNT_ ||
	    kb_census_row_verdict(r, g) == KB_CENSUS_NA)
		return 0;
	kb_cost_of(&r->gen[g], &c);
	kb_cost_for(&c, (enum kb_table_kind)r->kind.kind, cost, random, ratio);
	return 1;
}

static const char *table_name(const struct kb_census_row *r)
{
	return r->table >= 0 ? kb_tables[r->table].name : NULL;
}

static const char *meta_of(const struct kb_census_file *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nmeta; i++)
		if (!strcmp(f->meta[i].name, name))
			return f->meta[i].value;
	return "";
}

/* ---- text ----------------------------------------------------------------- */

/* X^2/df in 7 columns: the precision a reader compares by eye. */
static void ratio(char *out, size_t len, double v)
{
	if (v < 0.01)
		snprintf(out, len, "<.01");
	else if (v < 1000)
		snprintf(out, len, "%.3g", v);
	else
		snprintf(out, len, "%.0e", v);
}

/* The lines under a site: its kind, what it picks and who says so; what
 * its value feeds where it picks no bucket; and per generation the cost
 * its kind pays (x a random function's). */
static void kind_text(const struct kb_census_row *rows, size_t nrows,
		      const struct kb_census_row *r, struct kb_buf *b)
{
	const struct kb_census_row *to;
	double v, random, x;
	int g;

	if (r->kind.from == KB_CENSUS_KIND_NONE) {
		/* nobody says which cost is the table's: all of them */
		kb_buf_printf(b, "    kind unknown%s\n", r->at ? "; per generation a hit's compares / a miss's / others met:" : "");
		for (g = kb_census_gen_next(r->gens, 0); r->at && g < KB_GEN_COUNT;
		     g = kb_census_gen_next(r->gens, g + 1)) {
			struct kb_cost c;

			if (kb_census_row_verdict(r, g) == KB_CENSUS_NA)
				continue; /* its line under the site says why */
			kb_cost_of(&r->gen[g], &c);
			kb_buf_printf(b, "      %-7s %.3g (%.2fx) / %.3g (%.2fx) / %.3g (%.2fx)\n",
				      kb_gen_name(g), c.hit, c.hit_ratio, c.miss, c.miss_ratio,
				      c.met, c.met_ratio);
		}
		return;
	}
	kb_buf_printf(b, "    %s: %s (%s)\n", kb_site_kind_name(r->kind.kind), r->kind.what,
		      r->kind.from == KB_CENSUS_KIND_TABLE ? "named table" : "site table");
	if (r->kind.kind == KB_SITE_OTHER) {
		kb_buf_printf(b, "    %s, no cost", r->at ? kb_census_row_verdict_word(r, 0)
						: "no bucket");
		if ((to = kb_census_bucket_row(rows, nrows, r)) && to->at) {
			char num[32];

			ratio(num, sizeof(num), to->gen[KB_GEN_TODAY].chi2_per_df);
			kb_buf_printf(b, ": %s on this line picks the bucket (under %s %s, %s)",
				      kb_census_func_name(to->site->func), kb_gen_name(KB_GEN_TODAY), num,
				      kb_census_row_verdict_word(to, KB_GEN_TODAY));
		} else if (to) {
			kb_buf_printf(b, ": %s on this line picks the bucket",
				      kb_census_func_name(to->site->func));
		}
		else if (r->kind.feeds)
			kb_buf_printf(b, ": %s", r->kind.feeds);
		kb_buf_printf(b, "\n");
		return;
	}
	/* old, always judged, says whether the kind has a cost at all */
	if (!kind_cost(r, LKH_GEN_OLD, &v, &random, &x))
		return;
	kb_buf_printf(b, "    %s:", kb_cost_unit((enum kb_table_kind)r->kind.kind));
	for (g = kb_census_gen_next(r->gens, 0); g < KB_GEN_COUNT;
	     g = kb_census_gen_next(r->gens, g + 1)) {
		kb_buf_printf(b, "%s", g ? "," : "");
		if (kind_cost(r, g, &v, &random, &x))
			kb_buf_printf(b, " %.3g (%.2fx)", v, x);
		else
			kb_buf_printf(b, " n/a");
	}
	kb_buf_printf(b, "\n");
}

/* ---- the atlas ------------------------------------------------------------ */

static const char *const build_letters[] = {
	[KB_ATLAS_BUILT_IN] = "y", [KB_ATLAS_MODULE] = "m", [KB_ATLAS_NOT_BUILT] = "n",
	[KB_ATLAS_HEADER] = "h", [KB_ATLAS_UNDECIDED] = "?"
};

/* What the text calls a miss's class. */
static const char *const seen_words[] = {
	[KB_ATLAS_COMPILED] = "compiled but not called",
	[KB_ATLAS_NOT_COMPILED] = "not in the census kernel"
};

/* " (N hardware, N kvm, N workload)" */
static void hints_text(const size_t *missed, struct kb_buf *b)
{
	int h;

	for (h = 0; h < KB_ATLAS_HINT_COUNT; h++)
		kb_buf_printf(b, "%s%zu %s", h ? ", " : " (", missed[h],
			      kb_atlas_hint_name((enum kb_atlas_hint)h));
	kb_buf_printf(b, ")");
}

/* A subsystem's rows in tree, built (y, m), modules, reached of the
 * built and reached of the rest (h, n, ?). */
static void subsys_counts(const struct kb_atlas_subsys *s, size_t c[5])
{
	int k;

	c[0] = c[4] = 0;
	for (k = 0; k < KB_ATLAS_BUILD_COUNT; k++)
		c[0] += s->build[k];
	c[1] = s->build[KB_ATLAS_BUILT_IN] + s->build[KB_ATLAS_MODULE];
	c[2] = s->build[KB_ATLAS_MODULE];
	c[3] = s->reached[KB_ATLAS_BUILT_IN] + s->reached[KB_ATLAS_MODULE];
	c[4] = s->reached[KB_ATLAS_HEADER] + s->reached[KB_ATLAS_NOT_BUILT] +
	       s->reached[KB_ATLAS_UNDECIDED];
}

static void subsys_row(const char *indent, const char *name, int len, int width,
		       const size_t c[5], struct kb_buf *b)
{
	kb_buf_printf(b, "  %s%.*s%*s %7zu %6zu %7zu %7zu ", indent, len, name,
		      width - (int)strlen(indent) - len, "", c[0], c[1], c[2], c[3]);
	if (c[1])
		kb_buf_printf(b, "%3.0f%%", 100.0 * (double)c[3] / (double)c[1]);
	else
		kb_buf_printf(b, "   -");
	kb_buf_printf(b, " %5zu\n", c[4]);
}

/* A deeper subsystem gets a row of its own under its top where the
 * census reached any of its sites. */
static int subsys_shown(const struct kb_atlas_report *r, const struct kb_atlas_subsys *s)
{
	int k;

	if (s->len == r->tops[s->group].len)
		return 0;
	for (k = 0; k < KB_ATLAS_BUILD_COUNT; k++)
		if (s->reached[k])
			return 1;
	return 0;
}

/* The table by subsystem: each top directory, under it its deeper
 * subsystems the census reached, then all. */
static void subsys_text(const struct kb_atlas_report *r, struct kb_buf *b)
{
	struct kb_atlas_subsys all = { 0 };
	size_t i, t, c[5];
	int width = 9, k;

	for (i = 0; i < r->ntops; i++)
		if ((int)r->tops[i].len > width)
			width = (int)r->tops[i].len;
	for (i = 0; i < r->nsubsys; i++)
		if (subsys_shown(r, &r->subsys[i]) && (int)r->subsys[i].len + 2 > width)
			width = (int)r->subsys[i].len + 2;
	kb_buf_printf(b, "by subsystem (built: y or m; reached: of the built, and %% of them; h/n/?: reached of the rest):\n");
	kb_buf_printf(b, "  %-*s in tree  built modules reached    %% h/n/?\n", width, "subsystem");
	for (t = 0, i = 0; t < r->ntops; t++) {
		subsys_counts(&r->tops[t], c);
		subsys_row("", r->tops[t].name, (int)r->tops[t].len, width, c, b);
		for (; i < r->nsubsys && r->subsys[i].group == t; i++)
			if (subsys_shown(r, &r->subsys[i])) {
				subsys_counts(&r->subsys[i], c);
				subsys_row("  ", r->subsys[i].name, (int)r->subsys[i].len, width, c, b);
			}
		for (k = 0; k < KB_ATLAS_BUILD_COUNT; k++) {
			all.build[k] += r->tops[t].build[k];
			all.reached[k] += r->tops[t].reached[k];
		}
	}
	subsys_counts(&all, c);
	subsys_row("", "all", 3, width, c, b);
}

/* The atlas's figures under a file's summary, the table by subsystem,
 * then its missed sites by class and hint. */
static void atlas_text(const struct kb_atlas *a, const struct kb_atlas_report *r,
		       struct kb_buf *b)
{
	size_t built = r->build[KB_ATLAS_BUILT_IN] + r->build[KB_ATLAS_MODULE], i;
	int s, h;

	kb_buf_printf(b, "atlas %s: reached %zu of the %zu sites Debian builds (%zu built in, %zu modules); of all %zu sites %zu (%zu of %zu in headers, %zu of %zu not built, %zu of %zu undecided)\n",
		      a->name, r->reached[KB_ATLAS_BUILT_IN] + r->reached[KB_ATLAS_MODULE], built,
		      r->build[KB_ATLAS_BUILT_IN], r->build[KB_ATLAS_MODULE], r->rows,
		      r->seen[KB_ATLAS_REACHED], r->reached[KB_ATLAS_HEADER],
		      r->build[KB_ATLAS_HEADER], r->reached[KB_ATLAS_NOT_BUILT],
		      r->build[KB_ATLAS_NOT_BUILT], r->reached[KB_ATLAS_UNDECIDED],
		      r->build[KB_ATLAS_UNDECIDED]);
	subsys_text(r, b);
	kb_buf_printf(b, "never reached of those %zu:", built);
	for (s = KB_ATLAS_NOT_COMPILED; s >= KB_ATLAS_COMPILED; s--) {
		size_t n = 0;

		for (h = 0; h < KB_ATLAS_HINT_COUNT; h++)
			n += r->missed[s][h];
		kb_buf_printf(b, "%s %zu %s", s == KB_ATLAS_NOT_COMPILED ? "" : ",", n,
			      seen_words[s]);
		hints_text(r->missed[s], b);
	}
	kb_buf_printf(b, "\n");
	for (s = KB_ATLAS_NOT_COMPILED; s >= KB_ATLAS_COMPILED; s--)
		for (h = 0; h < KB_ATLAS_HINT_COUNT; h++) {
			if (!r->missed[s][h])
				continue;
			kb_buf_printf(b, "  %s, %s:\n", seen_words[s],
				      kb_atlas_hint_name((enum kb_atlas_hint)h));
			for (i = 0; i < r->nmisses; i++) {
				const struct kb_atlas_miss *m = &r->misses[i];
				const struct kb_atlas_row *row = &a->rows[m->row];

				if ((int)m->seen == s && (int)m->hint == h)
					kb_buf_printf(b, "    %s:%llu %s %s %s\n", row->file,
						      (unsigned long long)row->line,
						      row->function[0] ? row->function : "-",
						      row->called, build_letters[row->build]);
			}
		}
}

/* "build": {"y": N, ...}, "reached": {...}: rows and reached rows by
 * build */
static void builds_json(const size_t *build, const size_t *reached, struct kb_buf *b)
{
	int k;

	kb_buf_printf(b, "\"build\": {");
	for (k = 0; k < KB_ATLAS_BUILD_COUNT; k++)
		kb_buf_printf(b, "%s\"%s\": %zu", k ? ", " : "", build_letters[k], build[k]);
	kb_buf_printf(b, "}, \"reached\": {");
	for (k = 0; k < KB_ATLAS_BUILD_COUNT; k++)
		kb_buf_printf(b, "%s\"%s\": %zu", k ? ", " : "", build_letters[k], reached[k]);
	kb_buf_printf(b, "}");
}

/* ",\n     \"atlas\": {...}": the counts and every missed site */
static void atlas_json(const struct kb_atlas *a, const struct kb_atlas_report *r,
		       struct kb_buf *b)
{
	size_t i;
	int k, h;

	kb_buf_printf(b, ",\n     \"atlas\": {\"file\": ");
	kb_json_string(b, a->name);
	kb_buf_printf(b, ", \"rows\": %zu, \"seen\": {", r->rows);
	for (k = 0; k < KB_ATLAS_SEEN_COUNT; k++)
		kb_buf_printf(b, "%s\"%s\": %zu", k ? ", " : "",
			      kb_atlas_seen_name((enum kb_atlas_seen)k), r->seen[k]);
	kb_buf_printf(b, "}, ");
	builds_json(r->build, r->reached, b);
	kb_buf_printf(b, ", \"never_reached\": {");
	for (k = KB_ATLAS_COMPILED; k < KB_ATLAS_SEEN_COUNT; k++) {
		kb_buf_printf(b, "%s\"%s\": {", k > KB_ATLAS_COMPILED ? ", " : "",
			      kb_atlas_seen_name((enum kb_atlas_seen)k));
		for (h = 0; h < KB_ATLAS_HINT_COUNT; h++)
			kb_buf_printf(b, "%s\"%s\": %zu", h ? ", " : "",
				      kb_atlas_hint_name((enum kb_atlas_hint)h), r->missed[k][h]);
		kb_buf_printf(b, "}");
	}
	kb_buf_printf(b, "},\n       \"subsystems\": [");
	for (i = 0; i < r->nsubsys; i++) {
		const struct kb_atlas_subsys *s = &r->subsys[i];
		const struct kb_atlas_subsys *t = &r->tops[s->group];

		kb_buf_printf(b, "%s\n        {\"subsystem\": ", i ? "," : "");
		kb_json_string_n(b, s->name, s->len);
		kb_buf_printf(b, ", \"top\": ");
		kb_json_string_n(b, t->name, t->len);
		kb_buf_printf(b, ", ");
		builds_json(s->build, s->reached, b);
		kb_buf_printf(b, "}");
	}
	kb_buf_printf(b, "%s],\n       \"missed\": [", r->nsubsys ? "\n       " : "");
	for (i = 0; i < r->nmisses; i++) {
		const struct kb_atlas_miss *m = &r->misses[i];
		const struct kb_atlas_row *row = &a->rows[m->row];

		kb_buf_printf(b, "%s\n        {\"file\": ", i ? "," : "");
		kb_json_string(b, row->file);
		kb_buf_printf(b, ", \"line\": %llu, \"function\": ", (unsigned long long)row->line);
		kb_json_string(b, row->function);
		kb_buf_printf(b, ", \"called\": ");
		kb_json_string(b, row->called);
		kb_buf_printf(b, ", \"build\": \"%s\", \"seen\": \"%s\", \"hint\": \"%s\"}",
			      build_letters[row->build], kb_atlas_seen_name(m->seen),
			      kb_atlas_hint_name(m->hint));
	}
	kb_buf_printf(b, "%s]}", r->nmisses ? "\n       " : "");
}

/* One generation's cell: X^2/df with its verdict's mark ('#' broken, '!'
 * skewed, '~' even), or in parentheses where the site picks no bucket. */
static void gen_cell(const struct kb_census_row *r, int g, int width, struct kb_buf *b)
{
	int v = kb_census_row_verdict(r, g);
	char num[32], cell[40];

	ratio(num, sizeof(num), r->gen[g].chi2_per_df);
	if (v == KB_CENSUS_NA)
		snprintf(cell, sizeof(cell), "n/a");
	else if (v == KB_CENSUS_NO_BUCKET)
		snprintf(cell, sizeof(cell), "(%s)", num);
	else
		snprintf(cell, sizeof(cell), "%c%s",
			 v == KB_VERDICT_OK ? ' ' : kb_verdict_mark((enum kb_verdict_kind)v), num);
	kb_buf_printf(b, " %*s", width, cell);
}

/* A generation column's width: 7, or the longest name of gens (U's is
 * the user's function's). */
static int gen_width(unsigned gens)
{
	int g, w = 7;

	for (g = kb_census_gen_next(gens, 0); g < KB_GEN_COUNT; g = kb_census_gen_next(gens, g + 1))
		if ((int)strlen(kb_gen_name(g)) > w)
			w = (int)strlen(kb_gen_name(g));
	return w;
}

static void census_text(const struct kb_census_file *files, size_t nfiles,
			const struct kb_census_row *rows, size_t nrows,
			const struct kb_atlas *atlas, const struct kb_atlas_report *reports,
			struct kb_buf *b)
{
	size_t fi, i, wf;
	int g;

	for (fi = 0; fi < nfiles; fi++) {
		const struct kb_census_file *f = &files[fi];
		struct kb_census_summary s;

		kb_census_summarize(rows, nrows, fi, &s);
		kb_buf_printf(b, "%scensus %s: %s, %u-bit kernel %s\n", fi ? "\n" : "", f->name,
			      f->arch, f->word, meta_of(f, "kernel"));
		kb_buf_printf(b, "%zu sites: %zu judged, %zu with too few keys (fewer than %llu distinct)\n",
			      s.sites, s.judged, s.too_few,
			      (unsigned long long)kb_census_min_keys());
		for (g = kb_census_gen_next(s.gens, 0); g < KB_GEN_COUNT;
		     g = kb_census_gen_next(s.gens, g + 1))
		{
			kb_buf_printf(b, "  %-*s %4zu broken, %4zu skewed, %4zu fine",
				      gen_width(s.gens), kb_gen_name(g), s.verdicts[g][KB_VERDICT_BROKEN],
				      s.verdicts[g][KB_VERDICT_SKEWED],
				      s.verdicts[g][KB_VERDICT_OK] + s.verdicts[g][KB_VERDICT_EVEN]);
			kb_buf_printf(b, s.na[g] ? ", %4zu n/a\n" : "\n", s.na[g]);
		}
		kb_buf_printf(b, "  no verdict: %zu judged sites pick no bucket, %zu of them feed another hash\n",
			      s.no_bucket, s.feeds);
		if ((s.gens >> KB_GEN_K & 1u) && nrows)
			kb_gen_k_line(&rows[0].k, "; inode hashes: K as GOLDEN_RATIO_PRIME", b);
		if (atlas)
			atlas_text(atlas, &reports[fi], b);
		kb_buf_printf(b, "Per generation X^2/df at 2^at buckets, the largest at <= bits where a random function\n"
				 "would put %d pairs of the distinct keys in a shared bucket; # broken, ! skewed, ~ even;\n"
				 "(in parentheses): the site picks no bucket, so no verdict. bits: the site's, t: its\n"
				 "named table's, w: the 32-bit word it returns, i: i_hash_shift of the hash() records\n"
				 "(btrfs_inode_hash). Under each site: its kind, what it picks and who says so, and per\n"
				 "generation the cost that kind pays (x a random function's). Calls, buckets used, loads:\n"
				 "--format csv or json.\n\n",
			      KB_MIN_PAIRS);
		for (i = 0, wf = 8; i < nrows; i++)
			if (rows[i].file == fi &&
			    strlen(kb_census_func_name(rows[i].site->func)) > wf)
				wf = strlen(kb_census_func_name(rows[i].site->func));
		for (g = kb_census_gen_next(s.gens, 0); g < KB_GEN_COUNT;
		     g = kb_census_gen_next(s.gens, g + 1))
			kb_buf_printf(b, " %*s", gen_width(s.gens), kb_gen_name(g));
		kb_buf_printf(b, " %4s %2s %8s %-*s site\n", "bits", "at", "distinct", (int)wf,
			      "function");
		for (i = 0; i < nrows; i++) {
			const struct kb_census_row *r = &rows[i];
			char bits[16];

			if (r->file != fi)
				continue;
			for (g = kb_census_gen_next(r->gens, 0); g < KB_GEN_COUNT && r->at;
			     g = kb_census_gen_next(r->gens, g + 1))
				gen_cell(r, g, gen_width(r->gens), b);
			if (!r->at)
				kb_buf_printf(b, " %-*s",
					      (gen_width(r->gens) + 1) *
							      kb_census_gen_column(r->gens, KB_GEN_COUNT) - 1,
					      kb_verdict_word(KB_VERDICT_TOO_FEW));
			snprintf(bits, sizeof(bits), "%u%s", r->bits, bits_from_marks[r->bits_from]);
			kb_buf_printf(b, " %4s %2u %8llu %-*s %s", bits, r->at,
				      (unsigned long long)r->distinct, (int)wf,
				      kb_census_func_name(r->site->func), r->site->where);
			if (r->site->module)
				kb_buf_printf(b, " [%s]", r->site->module);
			kb_buf_printf(b, "\n");
			if (r->at && kb_census_row_verdict(r, KB_GEN_USER) == KB_CENSUS_NA &&
			    (r->gens >> KB_GEN_USER & 1u))
				kb_buf_printf(b, "    %s n/a: %s\n", kb_gen_name(KB_GEN_USER),
					      r->user_na);
			kind_text(rows, nrows, r, b);
		}
	}
}

/* ---- CSV and JSON: a site and its generations ------------------------------ */

/* A site as its record takes it: the row, and the file and the rows
 * around it (the call on its line that picks the bucket). */
struct census_at {
	const struct kb_census_file *file;
	const struct kb_census_row *rows, *r;
	size_t nrows;
};

static void census_fields(struct kb_buf *b, enum kb_fields_as as, const struct census_at *at,
			  int g, int gen_object);

/* JSON's "gens": each generation's object, nested in the site's (CSV
 * has a row a generation instead), or null for a site with too few keys. */
static void gens_json(struct kb_buf *b, const void *arg)
{
	const struct census_at *at = arg;
	int g;

	if (!at->r->at) {
		kb_buf_printf(b, "null");
		return;
	}
	kb_buf_printf(b, "{");
	for (g = kb_census_gen_next(at->r->gens, 0); g < KB_GEN_COUNT;
	     g = kb_census_gen_next(at->r->gens, g + 1)) {
		kb_buf_printf(b, "%s", g ? ", " : "");
		kb_json_string(b, kb_gen_name(g));
		kb_buf_printf(b, ": ");
		census_fields(b, KB_FIELDS_JSON, at, g, 1);
	}
	kb_buf_printf(b, "}");
}

/*
 * A site under generation g: CSV one row a site and generation, the
 * generation's fields (gen) in the site's row; JSON one object a site,
 * each generation's fields an object of its own in "gens" (gen_object:
 * write that).  What a site picks (kind) is the site's in JSON, at its
 * end; CSV has it before the cost that kind pays.  feeds: the hash a
 * value that picks no bucket feeds; bucket_site: the id of the line's
 * other call where that picks the bucket.
 */
static void census_fields(struct kb_buf *b, enum kb_fields_as as, const struct census_at *at,
			  int g, int gen_object)
{
	const struct kb_census_row *r = at->r;
	/* only JSON names the call that picks the bucket */
	const struct kb_census_row *to = as == KB_FIELDS_JSON && !gen_object
						 ? kb_census_bucket_row(at->rows, at->nrows, r)
						 : NULL;
	const struct kb_skew *k = &r->gen[g];
	unsigned none = !r->at ? KB_NONE_OMIT
			: kb_census_row_verdict(r, g) == KB_CENSUS_NA ? KB_NONE_NULL : 0;
	double v = 0, random = 0, x = 0;
	unsigned no_cost = kind_cost(r, g, &v, &random, &x) ? 0 : KB_NONE_NULL;
	const char *what = r->kind.what;
	const char *feeds = !r->kind.feeds ? NULL
			    : to ? kb_census_func_name(to->site->func) : r->kind.feeds;
	struct kb_field kf[2], cost[6];
	struct kb_gen kg = { g, r->k.k, r->k_width };

	kb_k_fields(&kg, kf);
	kb_cost_fields(k, none, cost);
	const struct kb_field gen[] = {
		{ .name = "gen", .form = KB_FIELD_STR, .s = kb_gen_name(g), .in = KB_IN_CSV },
		{ .form = KB_FIELD_GROUP, .sub = kf, .n = 2, .in = KB_IN_JSON },
		{ .name = "buckets", .u = k->buckets, .none = none },
		{ .name = "chi2_per_df", .form = KB_FIELD_NUM, .d = k->chi2_per_df, .none = none },
		{ .name = "log10_p_upper", .form = KB_FIELD_NUM, .d = k->log10_p_upper, .none = none },
		{ .name = "log10_p_lower", .form = KB_FIELD_NUM, .d = k->log10_p_lower, .none = none },
		{ .name = "used", .u = k->used, .none = none },
		{ .name = "max_load", .u = k->max_load, .none = none },
		{ .name = "expected_max_load", .form = KB_FIELD_NUM_FIX, .prec = 4,
		  .d = k->expected_max, .none = none },
		{ .form = KB_FIELD_GROUP, .sub = cost, .n = 6 },
		{ .name = "verdict", .form = KB_FIELD_STR,
		  .s = r->at ? kb_census_row_verdict_word(r, g) : kb_verdict_word(KB_VERDICT_TOO_FEW) },
		{ .name = "kind", .form = KB_FIELD_STR, .s = kb_site_kind_name(r->kind.kind),
		  .in = KB_IN_CSV },
		{ .name = "kind_from", .form = KB_FIELD_STR, .s = kind_from_names[r->kind.from],
		  .in = KB_IN_CSV },
		{ .name = "indexes", .form = KB_FIELD_STR, .s = what, .in = KB_IN_CSV },
		{ .name = "cost", .form = KB_FIELD_NUM_G, .prec = 6, .d = v, .none = no_cost },
		{ .name = "cost_random", .form = KB_FIELD_NUM_G, .prec = 6, .d = random,
		  .none = no_cost },
		{ .name = "cost_vs_random", .form = KB_FIELD_NUM_G, .prec = 6, .d = x,
		  .none = no_cost },
		{ .form = KB_FIELD_GROUP, .sub = kf, .n = 2, .in = KB_IN_CSV },
	};
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_CENSUS].csv_version, .in = KB_IN_CSV },
		{ .name = "file", .form = KB_FIELD_STR, .s = at->file->name, .in = KB_IN_CSV },
		{ .name = "arch", .form = KB_FIELD_STR, .s = at->file->arch, .in = KB_IN_CSV },
		{ .name = "word", .u = at->file->word, .in = KB_IN_CSV },
		{ .name = "id", .u = r->site->id },
		{ .name = "site", .form = KB_FIELD_STR, .s = r->site->where },
		{ .name = "func", .form = KB_FIELD_STR, .s = kb_census_func_name(r->site->func) },
		{ .name = "table", .form = KB_FIELD_STR, .s = table_name(r),
		  .none = table_name(r) ? 0 : KB_NONE_NULL },
		{ .name = "bits", .u = r->bits },
		{ .name = "bits_from", .form = KB_FIELD_STR, .s = bits_from_names[r->bits_from] },
		{ .name = "at", .u = r->at },
		{ .name = "calls", .u = r->site->calls },
		{ .name = "recorded", .u = r->site->nkeys },
		{ .name = "distinct", .u = r->distinct },
		{ .name = "sb_found", .form = KB_FIELD_INT, .i = r->sb_found,
		  .none = r->site->func == KB_CENSUS_BTRFS_INODE_HASH && r->at ? 0 : KB_NONE_OMIT },
		{ .name = "verdict", .form = KB_FIELD_STR, .s = kb_verdict_word(KB_VERDICT_TOO_FEW),
		  .none = none ? 0 : KB_NONE_OMIT, .in = KB_IN_JSON },
		{ .name = "gens", .form = KB_FIELD_JSON, .json = gens_json, .arg = at },
		{ .form = KB_FIELD_GROUP, .sub = gen, .n = KB_FIELDS_N(gen), .in = KB_IN_CSV },
		{ .name = "kind", .form = KB_FIELD_STR, .s = kb_site_kind_name(r->kind.kind),
		  .in = KB_IN_JSON },
		{ .name = "kind_from", .form = KB_FIELD_STR, .s = kind_from_names[r->kind.from],
		  .in = KB_IN_JSON },
		{ .name = "indexes", .form = KB_FIELD_STR, .s = what, .in = KB_IN_JSON,
		  .none = what ? 0 : KB_NONE_NULL },
		{ .name = "feeds", .form = KB_FIELD_STR, .s = feeds, .in = KB_IN_JSON,
		  .none = feeds ? 0 : KB_NONE_NULL },
		{ .name = "bucket_site", .u = to ? to->site->id : 0, .in = KB_IN_JSON,
		  .none = to ? 0 : KB_NONE_NULL },
	};

	if (gen_object)
		kb_fields(b, as, gen, KB_FIELDS_N(gen));
	else
		kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_census_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct kb_census_file no_file;
	static const struct kb_census_site no_site;
	static const struct kb_census_row no_row = { .site = &no_site };
	const struct census_at at = { &no_file, NULL, &no_row, 0 };

	census_fields(b, as, &at, 0, 0);
}

static void census_csv(const struct kb_census_file *files,
		       const struct kb_census_row *rows, size_t nrows, struct kb_buf *b)
{
	struct census_at at = { NULL, rows, NULL, nrows };
	size_t i;
	int g;

	kb_census_names(b, KB_FIELDS_CSV_HEAD);
	for (i = 0; i < nrows; i++) {
		at.r = &rows[i];
		at.file = &files[rows[i].file];
		for (g = kb_census_gen_next(rows[i].gens, 0); g < KB_GEN_COUNT;
		     g = kb_census_gen_next(rows[i].gens, g + 1))
			census_fields(b, KB_FIELDS_CSV, &at, g, 0);
	}
}

static void census_json(const struct kb_census_file *files, size_t nfiles,
			const struct kb_census_row *rows, size_t nrows,
			const struct kb_atlas *atlas, const struct kb_atlas_report *reports,
			struct kb_buf *b)
{
	size_t fi, i, n;
	int g, v;

	kb_json_doc_head(b, KB_DOC_CENSUS);
	kb_buf_printf(b, "  \"min_pairs\": %d,\n  \"files\": [", KB_MIN_PAIRS);
	for (fi = 0; fi < nfiles; fi++) {
		const struct kb_census_file *f = &files[fi];
		struct kb_census_summary s;

		kb_census_summarize(rows, nrows, fi, &s);
		kb_buf_printf(b, "%s\n    {\"file\": ", fi ? "," : "");
		kb_json_string(b, f->name);
		kb_buf_printf(b, ", \"arch\": ");
		kb_json_string(b, f->arch);
		kb_buf_printf(b, ", \"word\": %u,\n     \"meta\": {", f->word);
		for (i = 0; i < f->nmeta; i++) {
			kb_buf_printf(b, "%s", i ? ", " : "");
			kb_json_string(b, f->meta[i].name);
			kb_buf_printf(b, ": ");
			kb_json_string(b, f->meta[i].value);
		}
		kb_buf_printf(b, "},\n     \"summary\": {\"sites\": %zu, \"judged\": %zu, \"too_few\": %zu, \"no_bucket\": %zu, \"feeds_another_hash\": %zu",
			      s.sites, s.judged, s.too_few, s.no_bucket, s.feeds);
		for (g = kb_census_gen_next(s.gens, 0); g < KB_GEN_COUNT;
		     g = kb_census_gen_next(s.gens, g + 1)) {
			kb_buf_printf(b, ", ");
			kb_json_string(b, kb_gen_name(g));
			kb_buf_printf(b, ": {");
			for (v = KB_VERDICT_JUDGED - 1; v >= 0; v--)
				kb_buf_printf(b, "\"%s\": %zu%s",
					      kb_verdict_word((enum kb_verdict_kind)v),
					      s.verdicts[g][v], v ? ", " : "}");
		}
		kb_buf_printf(b, "}");
		if (atlas)
			atlas_json(atlas, &reports[fi], b);
		kb_buf_printf(b, ",\n     \"sites\": [");
		for (i = 0, n = 0; i < nrows; i++) {
			if (rows[i].file != fi)
				continue;
			struct census_at at = { f, rows, &rows[i], nrows };

			kb_buf_printf(b, "%s\n      ", n++ ? "," : "");
			census_fields(b, KB_FIELDS_JSON, &at, 0, 0);
		}
		kb_buf_printf(b, "\n     ]}");
	}
	kb_buf_printf(b, "\n  ]\n}\n");
}

void kb_render_census(const struct kb_census_file *files, size_t nfiles,
		      const struct kb_census_row *rows, size_t nrows,
		      const struct kb_atlas *atlas, const struct kb_atlas_report *reports,
		      enum kb_format f, struct kb_buf *b)
{
	if (f == KB_FORMAT_CSV)
		census_csv(files, rows, nrows, b);
	else if (f == KB_FORMAT_JSON)
		census_json(files, nfiles, rows, nrows, atlas, reports, b);
	else
		census_text(files, nfiles, rows, nrows, atlas, reports, b);
}

/* ---- the figure ------------------------------------------------------------ */

/* A cell's colour class in the census figure: its verdict, or no bucket
 * (kb_census_row_verdict); the palette has one colour a class, so a
 * colour says the verdict whatever the X^2/df that led to it (at 2
 * buckets 8.17 is ok, at 2^8 12 is broken). */
enum { HEAT_EVEN, HEAT_OK, HEAT_SKEWED, HEAT_BROKEN, HEAT_NO_BUCKET, HEAT_CLASSES };

static int heat_class(const struct kb_census_row *r, int g)
{
	switch (kb_census_row_verdict(r, g)) {
	case KB_VERDICT_EVEN:
		return HEAT_EVEN;
	case KB_VERDICT_SKEWED:
		return HEAT_SKEWED;
	case KB_VERDICT_BROKEN:
		return HEAT_BROKEN;
	case KB_CENSUS_NO_BUCKET:
	case KB_CENSUS_NA:
		return HEAT_NO_BUCKET;
	default:
		return HEAT_OK;
	}
}

/* Does another file of the census have this one's arch?  Then its rows
 * are named by the file, not the arch. */
static int arch_repeats(const struct kb_census_file *files, size_t nfiles, size_t fi)
{
	size_t i;

	for (i = 0; i < nfiles; i++)
		if (i != fi && !strcmp(files[i].arch, files[fi].arch))
			return 1;
	return 0;
}

void kb_figure_census(const struct kb_census_file *files, size_t nfiles,
		      const struct kb_census_row *rows, size_t nrows,
		      struct kb_figure *fig)
{
	struct kb_buf labels = { 0 };
	size_t i, judged = 0;
	unsigned gens = nrows ? rows[0].gens : (1u << LKH_GEN_COUNT) - 1;
	int g, row, ngens = kb_census_gen_column(gens, KB_GEN_COUNT), used = 0;
	char xtics[256];
	double box;

	for (i = 0; i < nrows; i++)
		judged += rows[i].at != 0;
	snprintf(fig->base, sizeof(fig->base), "census");
	snprintf(fig->title, sizeof(fig->title),
		 "%zu census sites with enough keys, worst under old on top: each cell's X^2/df, coloured by its verdict",
		 judged);
	/* the row names take 600 pixels at most, the key 240 */
	fig->width = 1300;
	fig->height = 170 + 14 * (int)(judged ? judged : 1);
	/* the key's height in pixels: 50 a class, within the plot */
	box = fmin(250.0, fig->height - 120.0);
	/* rows from the bottom up, so the worst (the first) is at the top;
	 * the image takes its colour from the class, the label says X^2/df
	 * and the verdict's letter */
	kb_buf_printf(&fig->dat, "# generation row class log10_chi2_per_df mark verdict label\n");
	for (g = kb_census_gen_next(gens, 0); g < KB_GEN_COUNT; g = kb_census_gen_next(gens, g + 1)) {
		int na, col = kb_census_gen_column(gens, g);

		row = (int)judged;
		for (i = 0; i < nrows; i++) {
			const struct kb_census_row *r = &rows[i];
			const char *mark;
			char num[32];
			int c;

			if (!r->at)
				continue;
			row--;
			c = heat_class(r, g);
			na = kb_census_row_verdict(r, g) == KB_CENSUS_NA;
			mark = na ? "-" : c == HEAT_NO_BUCKET ? (r->kind.feeds ? "F" : "N")
							       : kb_skew_mark(&r->gen[g]);
			if (na)
				snprintf(num, sizeof(num), "n/a");
			else
				ratio(num, sizeof(num), r->gen[g].chi2_per_df);
			/* the label: X^2/df, in parentheses where no bucket, and
			 * the letter of a verdict that is not ok or even */
			kb_buf_printf(&fig->dat, "%d %d %d %.4f %s \"%s\" \"%s%s%s%s%s\"\n", col, row, c,
				      na ? 0.0 : log10(fmax(r->gen[g].chi2_per_df, 1e-3)), mark,
				      kb_census_row_verdict_word(r, g), c == HEAT_NO_BUCKET && !na ? "(" : "",
				      num, c == HEAT_NO_BUCKET && !na ? ")" : "", strcmp(mark, "-") ? " " : "",
				      strcmp(mark, "-") ? mark : "");
			if (g)
				continue;
			/* unique: a file's arch (or name) and the site's id */
			kb_buf_printf(&labels, "%d \"%s %s %s #%lu%s%s\"\n", row,
				      arch_repeats(files, nfiles, r->file) ? files[r->file].name
									 : files[r->file].arch,
				      r->site->where, kb_census_func_name(r->site->func),
				      r->site->id, r->site->module ? " " : "",
				      r->site->module ? r->site->module : "");
		}
	}
	kb_buf_printf(&fig->dat, "\n\n# row name\n%.*s", (int)labels.len,
		      labels.data ? labels.data : "");
	if (labels.failed)
		fig->dat.failed = 1;
	kb_buf_free(&labels);
	for (g = kb_census_gen_next(gens, 0); g < KB_GEN_COUNT; g = kb_census_gen_next(gens, g + 1))
		used += snprintf(xtics + used, sizeof(xtics) - (size_t)used, "%s\"%s\" %d",
				 g ? ", " : "", kb_gen_name(g), kb_census_gen_column(gens, g));
	kb_buf_printf(&fig->body,
		 "  set xlabel \"generation\"\n  set xtics (%s)\n"
		 "  set ytics scale 0 font \",8\"\n  set yrange [-0.5:%d.5]\n  set xrange [-0.5:%d.5]\n"
		 "  set rmargin at screen %.4f\n"
		 /* a key of five colours, not a bar as tall as the rows */
		 "  set colorbox user origin screen %.4f, screen %.4f size screen %.4f, screen %.4f\n"
		 /* one colour a class, each class a unit of the colour box */
		 "  set cbrange [0:%d]\n"
		 "  set cbtics (\"even\" 0.5, \"ok\" 1.5, \"skewed S\" 2.5, \"broken B\" 3.5, \"no bucket: N,\\nF feeds another hash;\\nn/a: no hash.h call\\nto replace\" 4.5) scale 0\n"

		 "  set palette defined (0 \"#6baed6\", 1 \"#6baed6\", 1 \"#f7f7f7\", 2 \"#f7f7f7\", 2 \"#fdae61\", 3 \"#fdae61\", 3 \"#d73027\", 4 \"#d73027\", 4 \"#bdbdbd\", 5 \"#bdbdbd\")\n"
		 "  set title gptitle\n"
		 "  plot data index 0 using 1:2:($3 + 0.5) with image notitle, \\\n"
		 /* X^2/df, in parentheses where no bucket; the verdict's letter */
		 "    data index 0 using 1:2:7:($3 == %d ? 0xffffff : 0) with labels font \",7\" tc rgb variable notitle, \\\n"
		 "    data index 1 using (0):1:ytic(2) with points pt -1 notitle\n",
		 xtics, judged ? (int)judged - 1 : 0, ngens - 1, 1 - 240.0 / fig->width,
		 1 - 220.0 / fig->width, 1 - (50.0 + box) / fig->height,
		 18.0 / fig->width, box / fig->height, HEAT_CLASSES, HEAT_BROKEN);
}
