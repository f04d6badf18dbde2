/* SPDX-License-Identifier: MIT */
/*
 * khash-bench skew: one cell, a key set or key file through one function
 * (or named table) under one generation or several, and its verdict.
 */
#include "cli_args.h"

#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "engine.h"
#include "keyfile.h"
#include "keysets.h"
#include "plot.h"
#include "progress_view.h"
#include "render.h"
#include "stats.h"
#include "tables.h"

/* Count n keys through ns cells (s, one generation each) into counts[i],
 * through the named table t where there is one; done: keys before them,
 * for messages. */
static int count_keys(const struct kb_args *a, const struct kb_hashspec *s, size_t ns,
		      const struct kb_table *t, const uint64_t *keys, size_t n,
		      uint64_t done, const char *name, uint64_t **counts)
{
	char err[512];
	size_t i, m, g;
	int rc;

	for (i = 0; i < n; i += m) {
		m = n - i < KB_BLOCK ? n - i : KB_BLOCK;
		for (g = 0; g < ns; g++) {
			if (t) {
				struct kb_gen kg;

				kb_hashspec_kb_gen(&s[g], &kg);
				if (kb_table_count(t, &kg, a->word, a->bits, a->param, keys + i,
						   m, counts[g], err, sizeof(err)) < 0)
					return kb_fail(KB_EXIT_RUNTIME, "%s: %s", name, err);
			} else {
				if ((rc = kb_check_fit(&s[g], keys + i, m, done + i, a->keys, a->binary,
						       name)))
					return rc;
				if (s[g].user)
					continue; /* all at once, below: a child process a run */
				kb_count_block(&s[g], a->bits, keys + i, m, counts[g]);
			}
		}
	}
	for (g = 0; g < ns && !t; g++)
		if (s[g].user && kb_user_count(a->bits, a->bits, keys, n, &counts[g], err,
					       sizeof(err)) < 0)
			return kb_fail(KB_EXIT_RUNTIME, "%s: %s", name, err);
	return 0;
}

/* count_keyfile's keys, kept to find the repeats. */
struct keep_run {
	const struct kb_args *a;
	const struct kb_hashspec *s;
	size_t ns;
	const struct kb_table *t;
	uint64_t **counts;
	uint64_t *all, budget;
	size_t n, cap;
	const char *name;     /* the file's, in messages */
};

static int keep_block(void *ctx, const char *name, const uint64_t *keys, size_t n,
		      uint64_t done)
{
	struct keep_run *k = ctx;
	const struct kb_args *a = k->a;

	if (done + n > k->cap) {
		size_t want = k->cap ? 2 * k->cap : 16 * KB_BLOCK;
		uint64_t *p;

		if (want > k->budget)
			want = (size_t)k->budget;
		if (done + n > want)
			return kb_fail(KB_EXIT_RUNTIME, "%s: over %llu keys: keeping them to find repeats needs more than the --max-memory limit of %llu MiB",
				       name, (unsigned long long)done,
				       (unsigned long long)(a->max_memory >> 20));
		p = realloc(k->all, want * sizeof(*k->all));
		if (!p)
			return kb_fail(KB_EXIT_RUNTIME, "out of memory for %zu keys", want);
		k->all = p;
		k->cap = want;
	}
	memcpy(k->all + done, keys, n * sizeof(*keys));
	k->n = done + n;
	k->name = name;
	/* as read with --keep-duplicates; else once they are known */
	if (KB_GIVEN(a, KEEP_DUPLICATES))
		return count_keys(a, k->s, k->ns, k->t, k->all + done, n, done, name, k->counts);
	if (!k->t)
		return kb_check_fit(k->s, k->all + done, n, done, a->keys, a->binary, name);
	return 0;
}

/*
 * Count a key file, read once, through ns cells or a named table (t) into
 * counts[i].  Its keys are kept (8 bytes each, within --max-memory) to
 * find the repeats: counted once each, or as read with --keep-duplicates.
 */
static int count_keyfile(const struct kb_args *a, const struct kb_hashspec *s, size_t ns,
			 const struct kb_table *t, uint64_t **counts, struct kb_cell *cell)
{
	/* what the counters leave of --max-memory, in keys */
	struct keep_run k = { a, s, ns, t, counts, NULL,
			      (a->max_memory - ns * (sizeof(uint64_t) << a->bits)) / sizeof(uint64_t),
			      0, 0, NULL };
	uint64_t done;
	size_t distinct;
	char err[512];
	int rc = kb_keyfile_each(a->keys, a->binary, keep_block, &k, err, sizeof(err));

	if (rc < 0)
		rc = kb_fail(KB_EXIT_RUNTIME, "%s", err);
	if (!rc) {
		uint64_t *all = k.all;

		done = k.n;
		distinct = kb_distinct_keys(all, (size_t)done);
		cell->from_file = 1;
		cell->distinct = !KB_GIVEN(a, KEEP_DUPLICATES);
		cell->keys_read = done;
		cell->repeated = done - distinct;
		if (cell->distinct)
			rc = count_keys(a, s, ns, t, all, distinct, 0, k.name, counts);
		kb_repeats_note(k.name, done, distinct, cell->distinct);
	}
	free(k.all);
	return rc;
}

/* A built-in key set through one cell or a named table, with progress. */
static int count_keyset(const struct kb_args *a, const struct kb_table *t,
			const struct kb_hashspec *s, uint64_t **counts, struct kb_cell *cell,
			char *err, size_t errlen)
{
	struct kb_progress progress = { a->kp.count, 0 };
	struct kb_engine_opts eo = { .threads = a->threads, .path = KB_PATH_AUTO,
				     .progress = &progress, .enumerate = KB_GIVEN(a, ENUMERATE),
				     .ran = &cell->ran };
	struct kb_progress_view *view = kb_watch(a, &progress, t ? "keys" : "hashes");
	struct kb_gen kg;
	int rc;

	kb_hashspec_kb_gen(s, &kg);
	rc = t ? kb_table_count_keyset(t, &kg, a->word, a->bits, a->param,
					   a->keyset, &a->kp, &progress, counts, err,
					   errlen)
		   : kb_count_keyset(s, a->bits, a->keyset, &a->kp, &eo, counts, err,
				     errlen);

	kb_progress_view_stop(view);
	cell->counted_by = t || s->user ? KB_COUNTED_ONE_BY_ONE : KB_COUNTED_ENGINE;
	return rc;
}

/* What counting a key set through ng cells (or a named table) costs,
 * before it starts. */
static int skew_affordable(const struct kb_args *a, const struct kb_table *t,
			   const struct kb_hashspec *specs, size_t ng)
{
	struct kb_engine_opts eo = { .threads = a->threads, .path = KB_PATH_AUTO,
				     .enumerate = KB_GIVEN(a, ENUMERATE) };
	double seconds = 0, one;
	char err[512], what[64];
	size_t g;
	int rc;

	for (g = 0; g < ng; g++) {
		/* a named table hashes each key of its set */
		if (t)
			one = (double)a->kp.count * KB_NS_PER_HASH / 1e9;
		else if (kb_keyset_seconds(&specs[g], a->bits, a->keyset, &a->kp, &eo, &one, err,
					   sizeof(err)) < 0)
			return kb_fail(KB_EXIT_RUNTIME, "%s", err); /* the keys' own fault */
		seconds += one;
	}
	if ((rc = kb_exact_count(a, a->kp.count, a->bits)))
		return rc;
	return kb_affordable(a, seconds, kb_count_what(a, what, sizeof(what)));
}

/* Names through a table that reads a string hash, a cell for each string
 * generation of --sgen. */
static int skew_names(struct kb_args *a)
{
	const struct kb_string_table *t;
	struct kb_cell cells[LKH_SGEN_COUNT];
	struct kb_names names;
	struct kb_buf b = { 0 };
	const char *source = NULL;
	char err[512];
	size_t ng = 0;
	int g, rc;

	if ((rc = kb_need_string_table_args(a, &t)))
		return rc;
	if (a->plot)
		return kb_fail(KB_EXIT_USAGE, "--plot does not draw a table that reads a string hash");
	if ((rc = kb_check_memory(a, a->bits, 1)) || (rc = kb_read_names(a, t, &names, &source)))
		return rc;
	for (g = 0; g < LKH_SGEN_COUNT && !rc; g++) {
		if (!(a->sgens & 1u << g))
			continue;
		if (kb_string_table_sizes(t, (lkh_sgen)g, a->word, a->bits, a->bits, a->param,
					  &names, source, &cells[ng], err, sizeof(err)) < 0)
			rc = kb_fail(KB_EXIT_RUNTIME, "%s: %s", source, err);
		cells[ng].from_file = a->names != NULL;
		cells[ng].distinct = 1;
		cells[ng].keys_read = names.n;
		cells[ng++].counted_by = KB_COUNTED_ONE_BY_ONE;
	}
	kb_names_free(&names);
	if (rc)
		return rc;
	kb_render_cells(cells, ng, source, a->format, &b);
	return kb_emit(a, &b);
}

int kb_cmd_skew(struct kb_args *a)
{
	const struct kb_table *t = NULL;
	struct kb_hashspec s, specs[KB_GEN_COUNT];
	struct kb_cell cell, cells[KB_GEN_COUNT];
	struct kb_buf b = { 0 };
	uint64_t *counts[KB_GEN_COUNT] = { NULL };
	struct kb_figure fig;
	const char *source;
	char err[512];
	size_t g, ng = 0;
	int rc = 0;

	if (a->stable >= 0)
		return skew_names(a);
	if (KB_GIVEN(a, NAMES) || KB_GIVEN(a, NAME_SET) || KB_GIVEN(a, SGEN))
		return kb_fail(KB_EXIT_USAGE, "--%s applies to a table that reads a string hash ('khash-bench list')",
			       KB_GIVEN(a, SGEN) ? "sgen" : KB_GIVEN(a, NAMES) ? "names" : "name-set");
	if (a->table >= 0 ? (rc = kb_need_table_args(a, &t)) : (rc = kb_need_cell_args(a, &s)))
		return rc;
	if (a->keyset >= 0 && (rc = kb_keyset_takes_options(a)))
		return rc;
	if (a->plot && a->bits > KB_PLOT_HIST_MAX_BITS)
		return kb_fail(KB_EXIT_USAGE, "--plot draws at most 2^%d buckets, not 2^%u",
			       KB_PLOT_HIST_MAX_BITS, a->bits);
	if (a->keyset >= 0 && (rc = kb_check_heap_memory(a, 1u << a->keyset)))
		return rc;
	memset(&cell, 0, sizeof(cell));
	cell.keyset = a->keyset;
	if (t) {
		s.func = t->func;
		s.word = a->word;
		cell.table = t->name;
	}
	cell.bits = a->bits;
	cell.ok = 1;
	/* one cell a generation: --gen all or a list */
	for (g = 0; g < KB_GEN_COUNT; g++) {
		if (!(a->gen_mask & 1u << g))
			continue;
		specs[ng] = s;
		kb_cell_gen(a, &specs[ng], (int)g);
		if (!t && kb_hashspec_check(&specs[ng], a->bits, err, sizeof(err)) < 0)
			return kb_fail(KB_EXIT_USAGE, "%s: %s", kb_gen_name((int)g), err);
		cells[ng] = cell;
		cells[ng].spec = specs[ng];
		ng++;
	}
	if ((rc = kb_check_memory(a, a->bits, (unsigned)ng)))
		return rc;
	if (a->keyset >= 0 && (rc = skew_affordable(a, t, specs, ng)))
		return rc;
	for (g = 0; g < ng; g++) {
		if (a->keyset >= 0) {
			/* the cell's generation rides in its spec, K too */
			if (count_keyset(a, t, &specs[g], &counts[g], &cells[g], err,
					 sizeof(err)) < 0) {
				rc = kb_fail(KB_EXIT_RUNTIME, "%s", err);
				break;
			}
		} else if (!(counts[g] = calloc((size_t)1 << a->bits, sizeof(**counts)))) {
			rc = kb_fail(KB_EXIT_RUNTIME, "out of memory for 2^%u buckets", a->bits);
			break;
		}
	}
	if (!rc && a->keys && (rc = count_keyfile(a, specs, ng, t, counts, &cell)) == 0)
		for (g = 0; g < ng; g++) {
			cells[g].from_file = cell.from_file;
			cells[g].distinct = cell.distinct;
			cells[g].keys_read = cell.keys_read;
			cells[g].repeated = cell.repeated;
			cells[g].counted_by = KB_COUNTED_ONE_BY_ONE;
		}
	for (g = 0; g < ng && !rc; g++)
		kb_skew_from_counts(counts[g], UINT64_C(1) << a->bits, &cells[g].skew);
	for (g = 0; g < ng && !rc && KB_GIVEN(a, VERBOSE); g++) {
		struct kb_buf v = { 0 };

		kb_counted_text(&cells[g], 1, a->bits, &v);
		kb_fail(0, "skew: %s", v.data ? v.data : "out of memory");
		kb_buf_free(&v);
	}
	source = a->keyset >= 0 ? kb_keysets[a->keyset].name : a->keys;
	memset(&fig, 0, sizeof(fig));
	if (!rc && a->plot)
		kb_figure_cells_hist(cells, (const uint64_t *const *)counts, ng, source, &fig);
	for (g = 0; g < ng; g++)
		free(counts[g]);
	if (rc)
		return rc;
	kb_render_cells(cells, ng, source, a->format, &b);
	return kb_plot_then_emit(a, &b, &fig, a->plot ? 1 : 0);
}
