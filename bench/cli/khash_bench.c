/* SPDX-License-Identifier: MIT */
/*
 * khash-bench: structured key sets through every generation of the
 * kernel's integer hashes, and how evenly they fill a table.  This file
 * runs the commands: the command line is cli_args.c's, the computations
 * core/'s, the files and formats io/'s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <khash/lkh.h>
#include <khash/lkh_table.h>

#include "advise.h"
#include "candidates.h"
#include "advise_render.h"
#include "audit.h"
#include "explain.h"
#include "explain_render.h"
#include "caches.h"
#include "census.h"
#include "census_atlas.h"
#include "census_file.h"
#include "cli_args.h"
#include "engine.h"
#include "influence.h"
#include "keyfile.h"
#include "keysets.h"
#include "number.h"
#include "output.h"
#include "plot.h"
#include "progress_view.h"
#include "render.h"
#include "report.h"
#include "speed.h"
#include "stats.h"
#include "tables.h"
#include "tables_sweep.h"
#include "waittable.h"

#define BLOCK 4096

/* Progress of long work, shown on a terminal unless --quiet. */
static struct kb_progress_view *watch(const struct kb_args *a,
				      struct kb_progress *p, const char *unit)
{
	return kb_progress_view_start(p, unit, !KB_GIVEN(a, QUIET));
}

static int check_memory(const struct kb_args *a, unsigned bits, unsigned tables)
{
	uint64_t need = bits > 40 ? UINT64_MAX
				  : ((uint64_t)tables * sizeof(uint64_t)) << bits;

	if (need > a->max_memory)
		return kb_fail(KB_EXIT_USAGE, "2^%u buckets need %s%llu MiB of counters, over the --max-memory limit of %llu MiB",
			    bits, bits > 40 ? "over " : "",
			    (unsigned long long)((bits > 40 ? UINT64_C(1) << 43 : need) >> 20),
			    (unsigned long long)(a->max_memory >> 20));
	return 0;
}

/* A rough duration for a message: minutes, hours, days or years. */
static const char *duration_text(double seconds, char *out, size_t len)
{
	static const struct { double s; const char *unit; } units[] = {
		{ 365.25 * 86400, "years" }, { 86400, "days" }, { 3600, "hours" }, { 60, "min" },
	};
	size_t i;

	for (i = 0; i + 1 < sizeof(units) / sizeof(units[0]) && seconds < 2 * units[i].s; i++)
		;
	snprintf(out, len, "%.3g %s", seconds / units[i].s, units[i].unit);
	return out;
}

/*
 * No command starts work it cannot finish, or work that is most likely a
 * typo, without saying so first: an estimate past KB_ASK_MINUTES of one
 * CPU needs --yes (or what, below, an explicit method); past KB_NEVER_DAYS
 * it is refused even so.  what names the work: "--count N".
 */
static int affordable(const struct kb_args *a, double seconds, const char *what)
{
	char t[64];

	if (seconds <= KB_ASK_MINUTES * 60.0)
		return 0;
	duration_text(seconds, t, sizeof(t));
	if (seconds > KB_NEVER_DAYS * 86400.0)
		return kb_fail(KB_EXIT_USAGE, "%s: %s would take some %s of one CPU, past the %d days anything here may take: not started",
			       a->cmd->name, what, t, KB_NEVER_DAYS);
	if (!KB_GIVEN(a, YES))
		return kb_fail(KB_EXIT_USAGE, "%s: %s would take some %s of one CPU (more than %d min): give --yes to start it",
			       a->cmd->name, what, t, KB_ASK_MINUTES);
	return 0;
}

/* "--count N", for affordable()'s messages. */
static const char *count_what(const struct kb_args *a, char *out, size_t len)
{
	snprintf(out, len, "--count %llu", (unsigned long long)a->kp.count);
	return out;
}

/* count keys into 2^bits buckets must be judged exactly (stats.h). */
static int exact_count(const struct kb_args *a, uint64_t count, unsigned bits)
{
	uint64_t max = kb_skew_max_keys(bits);

	if (count > max)
		return kb_fail(KB_EXIT_USAGE, "%s: --count %llu: a table of 2^%u buckets is judged for at most %llu keys (its X^2 is formed in 128 bits)",
			       a->cmd->name, (unsigned long long)count, bits,
			       (unsigned long long)max);
	return 0;
}

/* Heap key sets keep every object live: refuse counts that cannot fit. */
static int check_heap_memory(const struct kb_args *a, unsigned keyset_mask)
{
	unsigned size = a->kp.size ? a->kp.size : 4096; /* the mix's largest */
	uint64_t per = 8 + (uint64_t)size, need;

	if (!(keyset_mask & (1u << KB_KS_HEAP_GLIBC | 1u << KB_KS_HEAP_JEMALLOC)))
		return 0;
	need = a->kp.count > UINT64_MAX / per ? UINT64_MAX : a->kp.count * per;
	if (need > a->max_memory)
		return kb_fail(KB_EXIT_USAGE, "--count %llu heap objects of up to %u bytes need up to %llu MiB, over the --max-memory limit of %llu MiB",
			       (unsigned long long)a->kp.count, size,
			       (unsigned long long)(need >> 20),
			       (unsigned long long)(a->max_memory >> 20));
	return 0;
}

/* A named table instead of a function: --func is its, bits its default,
 * the parameter its default unless given; checked on one key. */
/* Make s (its function and word set) a cell of generation g: K takes
 * --multiplier at --width, or at the wider of K's and the argument's. */
static void cell_gen(const struct kb_args *a, struct kb_hashspec *s, int g)
{
	const struct kb_gen kg = { g, a->multiplier, a->width };

	kb_hashspec_make(s, s->func, s->word, &kg);
}

/* The cell the adversarial key set is built against: f, --gen (else
 * dflt), --bits; K is checked here, since no counting follows `keys`. */
static int target_cell(const struct kb_args *a, struct kb_keyset_params *kp, lkh_func f,
		       int dflt)
{
	struct kb_hashspec s = { f, LKH_GEN_NEW, a->word, 0, 0 };
	char err[256];

	cell_gen(a, &s, KB_GIVEN(a, GEN) || (a->gen_mask & 1u << KB_GEN_K) ? a->gen : dflt);
	/* a usage error, named, before any key is built */
	if (a->keyset == KB_KS_ADVERSARIAL && !KB_GIVEN(a, BITS))
		return kb_fail(KB_EXIT_USAGE, "--keyset adversarial needs --bits: the table it is built against");
	if (a->keyset == KB_KS_ADVERSARIAL && kb_hashspec_check(&s, a->bits, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_USAGE, "--keyset adversarial: %s", err);
	kp->target_func = f;
	kp->target_gen = s.gen;
	kp->target_k = s.k;
	kp->target_k_width = s.k_width;
	kp->target_bits = a->bits;
	return 0;
}

static int need_table_args(struct kb_args *a, const struct kb_table **t)
{
	const struct kb_gen kg = { a->gen, a->multiplier, a->width };
	uint64_t b;
	char why[256];

	*t = &kb_tables[a->table];
	if (KB_GIVEN(a, PARAM) && !(*t)->param)
		return kb_fail(KB_EXIT_USAGE, "table %s takes no --param", (*t)->name);
	if (a->param_name && strcmp(a->param_name, (*t)->param))
		return kb_fail(KB_EXIT_USAGE, "table %s's parameter is %s, not %s", (*t)->name,
			       (*t)->param, a->param_name);
	if (!KB_GIVEN(a, PARAM))
		a->param = kb_table_param(*t, a->word);
	if (!KB_GIVEN(a, BITS))
		a->bits = (*t)->bits;
	if (kb_table_bucket(*t, &kg, a->word, a->bits, 0, a->param, &b, why, sizeof(why)) < 0)
		return kb_fail(KB_EXIT_USAGE, "%s", why);
	return 0;
}

static int need_cell_args(const struct kb_args *a, struct kb_hashspec *s)
{
	char why[160];

	s->func = a->func;
	s->word = a->word;
	cell_gen(a, s, a->gen);
	if (kb_hashspec_check(s, a->bits, why, sizeof(why)) < 0)
		return kb_fail(KB_EXIT_USAGE, "%s", why);
	return 0;
}

/* key_place's search: the line of key number want (from 1). */
struct key_line {
	uint64_t want, seen, line;
};

static int key_line_of(void *ctx, char *line, size_t len)
{
	struct key_line *k = ctx;
	uint64_t key;
	char err[128];

	k->line++;
	return kb_parse_key_line(line, len, &key, err, sizeof(err)) == 1 && ++k->seen == k->want;
}

/*
 * Where key number index (from 1) of the key file at path is, as a
 * reader finds it: "FILE:LINE" in a text file (read again: errors only),
 * the key's bytes in a binary one, its number in standard input.
 */
static const char *key_place(const char *path, int binary, const char *name,
			     uint64_t index, char *out, size_t len)
{
	struct key_line k = { index, 0, 0 };
	const char *shown;
	char err[256];

	if (binary)
		snprintf(out, len, "%s: key %llu (bytes %llu..%llu)", name,
			 (unsigned long long)index, (unsigned long long)(index - 1) * 8,
			 (unsigned long long)index * 8 - 1);
	else if (strcmp(path, "-") &&
		 kb_textfile_lines(path, "key file", KB_KEYFILE_BLOCK - 1, key_line_of, &k, &shown,
				   err, sizeof(err)) >= 0 && k.seen == index)
		snprintf(out, len, "%s:%llu", name, (unsigned long long)k.line);
	else
		snprintf(out, len, "%s: key %llu", name, (unsigned long long)index);
	return out;
}

/* Reject a block's first key that does not fit a 32-bit argument. */
static int check_fit(const struct kb_hashspec *s, const uint64_t *keys, size_t n,
		     uint64_t done, const char *path, int binary, const char *name)
{
	size_t bad = kb_first_misfit(keys, n, kb_hashspec_input_bits(s));
	char where[512];

	if (bad < n)
		return kb_fail(KB_EXIT_RUNTIME, "%s: %#llx does not fit the 32-bit argument of %s on %u-bit",
			       key_place(path, binary, name, done + bad + 1, where, sizeof(where)),
			       (unsigned long long)keys[bad], lkh_func_name(s->func), s->word);
	return 0;
}

/* What hash does to each block of its keys. */
struct hash_run {
	const struct kb_args *a;
	const struct kb_table *t;   /* a named table's buckets, or */
	int cand;                   /* a candidate's (--func NAME, --shift), or */
	struct kb_candidate c;
	struct kb_hashspec s;       /* a cell's */
	struct kb_gen kg;
	struct kb_keywriter w;
	const char *path;           /* the key file, - for standard input */
};

static int hash_block(void *ctx, const char *name, const uint64_t *keys, size_t n,
		      uint64_t done)
{
	struct hash_run *h = ctx;
	uint64_t words[KB_KEYFILE_EACH];
	char err[512], where[512];
	size_t i;
	int rc;

	if (h->cand) {
		unsigned in = kb_candidate_input_bits(&h->c);
		char e[64];

		for (i = 0; i < n; i++) {
			if (in < 64 && keys[i] >> in)
				return kb_fail(KB_EXIT_RUNTIME, "%s: key %llu (%#llx) does not fit %s, which takes %u bits on %u-bit",
					       name, (unsigned long long)(done + i + 1),
					       (unsigned long long)keys[i],
					       kb_candidate_expr(&h->c, h->a->bits, e, sizeof(e)), in,
					       h->a->word);
			words[i] = kb_candidate_bucket(&h->c, h->a->bits, keys[i]);
		}
	} else if (h->t) {
		for (i = 0; i < n; i++)
			if (kb_table_bucket(h->t, &h->kg, h->a->word, h->a->bits, keys[i],
					    h->a->param, &words[i], err, sizeof(err)) < 0)
				return kb_fail(KB_EXIT_RUNTIME, "%s: %s",
					       key_place(h->path, h->a->binary, name, done + i + 1,
							 where, sizeof(where)),
					       err);
	} else {
		if ((rc = check_fit(&h->s, keys, n, done, h->path, h->a->binary, name)))
			return rc;
		kb_full_words(&h->s, keys, n, words);
		for (i = 0; i < n; i++)
			words[i] >>= 64 - h->a->bits;
	}
	if (kb_keywriter_put(&h->w, words, n, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	return 0;
}

/*
 * hash's candidates of advise's (--func NAME, or a hash.h function with
 * --shift): the kb_candidate advise ranks, keyed from --seed as advise
 * keys it.  --seed keys only those, and --shift shifts only a key that a
 * hash.h function or the identity takes.
 */
static int need_candidate_args(const struct kb_args *a, struct hash_run *h)
{
	const struct kb_candidate_name *row = a->cand ? &kb_candidate_names[a->cand - 1] : NULL;
	char err[256];

	if (row && (KB_GIVEN(a, GEN) || KB_GIVEN(a, MULTIPLIER)))
		return kb_fail(KB_EXIT_USAGE, "--%s: %s is not a hash.h function: it has no generation",
			       KB_GIVEN(a, GEN) ? "gen" : "multiplier", row->name);
	if (KB_GIVEN(a, SEED) && (!row || row->kind == KB_CAND_IDENTITY))
		return kb_fail(KB_EXIT_USAGE, "--seed applies to jhash, hsiphash and siphash");
	if (KB_GIVEN(a, SHIFT) && (a->table >= 0 || KB_GIVEN(a, MULTIPLIER) ||
				   (row && row->kind != KB_CAND_IDENTITY)))
		return kb_fail(KB_EXIT_USAGE, "--shift applies to a hash.h function and identity");
	if (!row && !KB_GIVEN(a, SHIFT))
		return 0;
	memset(&h->c, 0, sizeof(h->c));
	h->c.kind = row ? row->kind : KB_CAND_HASHH;
	h->c.wide = row ? row->wide : 0;
	h->c.func = a->func;
	h->c.gen = (lkh_gen)a->gen;
	h->c.word = a->word;
	h->c.shift = a->shift;
	h->c.seed = a->kp.seed;
	if (kb_candidate_check(&h->c, a->bits, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_USAGE, "%s", err);
	h->cand = 1;
	return 0;
}

int kb_cmd_hash(struct kb_args *a)
{
	struct hash_run *h = calloc(1, sizeof(*h));
	char err[512];
	int rc = 0;

	if (!h)
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	h->a = a;
	h->kg = (struct kb_gen){ a->gen, a->multiplier, a->width };
	if (!a->cand && !KB_GIVEN(a, GEN) && !KB_GIVEN(a, MULTIPLIER))
		rc = kb_fail(KB_EXIT_USAGE, "hash needs --gen or --multiplier");
	else
		rc = need_candidate_args(a, h);
	if (rc || (h->cand ? 0
		   : a->table >= 0 ? (rc = need_table_args(a, &h->t))
				   : (rc = need_cell_args(a, &h->s)))) {
		free(h);
		return rc;
	}
	if (kb_keywriter_open(&h->w, a->output, 0, err, sizeof(err)) < 0) {
		free(h);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	h->path = a->n_operands ? a->operands[0] : "-";
	rc = kb_keyfile_each(h->path, a->binary, hash_block, h,
			     err, sizeof(err));
	if (rc < 0)
		rc = kb_fail(KB_EXIT_RUNTIME, "%s", err);
	if (rc)
		kb_keywriter_abort(&h->w);
	else if (kb_keywriter_commit(&h->w, err, sizeof(err)) < 0)
		rc = kb_fail(KB_EXIT_RUNTIME, "%s", err);
	free(h);
	return rc;
}

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
		m = n - i < BLOCK ? n - i : BLOCK;
		for (g = 0; g < ns; g++) {
			if (t) {
				struct kb_gen kg;

				kb_hashspec_kb_gen(&s[g], &kg);
				if (kb_table_count(t, &kg, a->word, a->bits, a->param, keys + i,
						   m, counts[g], err, sizeof(err)) < 0)
					return kb_fail(KB_EXIT_RUNTIME, "%s: %s", name, err);
			} else {
				if ((rc = check_fit(&s[g], keys + i, m, done + i, a->keys, a->binary,
						    name)))
					return rc;
				kb_count_block(&s[g], a->bits, keys + i, m, counts[g]);
			}
		}
	}
	return 0;
}

/* One rule for every command: a table holds an object once, so a key
 * that repeats an earlier one is dropped (skew --keep-duplicates counts
 * it again); a note says how many, so no file is judged on fewer keys
 * than it holds without a word. */
static void repeats_note(const char *name, uint64_t read, uint64_t distinct, int dropped)
{
	if (read > distinct)
		kb_fail(0, "note: %s: %llu of its %llu keys repeat an earlier key and are %s",
			name, (unsigned long long)(read - distinct), (unsigned long long)read,
			dropped ? "dropped (each key counted once)"
				: "counted again (--keep-duplicates)");
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
		size_t want = k->cap ? 2 * k->cap : 16 * BLOCK;
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
		return check_fit(k->s, k->all + done, n, done, a->keys, a->binary, name);
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
		repeats_note(k.name, done, distinct, cell->distinct);
	}
	free(k.all);
	return rc;
}

static int emit(const struct kb_args *a, struct kb_buf *b)
{
	char err[512];
	int rc = kb_write_all(a->output, b, err, sizeof(err)) < 0
			 ? kb_fail(KB_EXIT_RUNTIME, "%s", err)
			 : 0;

	kb_buf_free(b);
	return rc;
}

static int plot_then_emit(const struct kb_args *a, struct kb_buf *b,
			  struct kb_figure *figs, size_t n)
{
	char err[512];
	size_t i;
	int rc = 0;

	if (a->plot)
		rc = kb_plot_outcome(kb_plot_figures(a->plot, figs, n, err, sizeof(err)),
				     err);
	for (i = 0; i < n; i++)
		kb_figure_free(&figs[i]);
	if (rc) {
		kb_buf_free(b);
		return rc;
	}
	return emit(a, b);
}

/* Key-set options mean nothing to a key file: say so rather than ignore. */
static int keys_not_keyset(const struct kb_args *a)
{
	static const int keyset_only[] = { KB_OPT_COUNT, KB_OPT_BASE, KB_OPT_STRIDE,
					   KB_OPT_SEED, KB_OPT_SIZE };
	size_t i;

	for (i = 0; i < sizeof(keyset_only) / sizeof(keyset_only[0]); i++)
		if (a->given & (UINT64_C(1) << keyset_only[i]))
			return kb_fail(KB_EXIT_USAGE, "--%s applies to --keyset, not to --keys",
				       kb_options[keyset_only[i]].name);
	return 0;
}

/* Options one key set would ignore are refused, as for key files. */
static int keyset_takes_options(const struct kb_args *a)
{
	const struct kb_keyset_info *ks = &kb_keysets[a->keyset];

	if (KB_GIVEN(a, STRIDE) && !(ks->flags & KB_KS_ARITHMETIC))
		return kb_fail(KB_EXIT_USAGE, "--stride applies to the arithmetic key sets (base + i * stride), not to %s",
			       ks->name);
	if (KB_GIVEN(a, SIZE) && !(ks->flags & KB_KS_SIZED))
		return kb_fail(KB_EXIT_USAGE, "--size applies to key sets of objects of a size (see 'khash-bench list'), not to %s",
			       ks->name);
	return 0;
}

/* A built-in key set through one cell or a named table, with progress. */
static int count_keyset(const struct kb_args *a, const struct kb_table *t,
			const struct kb_hashspec *s, uint64_t **counts, char *err,
			size_t errlen)
{
	struct kb_progress progress = { a->kp.count, 0 };
	struct kb_engine_opts eo = { a->threads, KB_PATH_AUTO, 0, &progress,
				     KB_GIVEN(a, ENUMERATE) };
	struct kb_progress_view *view = watch(a, &progress, t ? "keys" : "hashes");
	struct kb_gen kg;
	int rc;

	kb_hashspec_kb_gen(s, &kg);
	rc = t ? kb_table_count_keyset(t, &kg, a->word, a->bits, a->param,
					   a->keyset, &a->kp, &progress, counts, err,
					   errlen)
		   : kb_count_keyset(s, a->bits, a->keyset, &a->kp, &eo, counts, err,
				     errlen);

	kb_progress_view_stop(view);
	return rc;
}

/* What counting a key set through ng cells (or a named table) costs,
 * before it starts. */
static int skew_affordable(const struct kb_args *a, const struct kb_table *t,
			   const struct kb_hashspec *specs, size_t ng)
{
	struct kb_engine_opts eo = { a->threads, KB_PATH_AUTO, 0, NULL, KB_GIVEN(a, ENUMERATE) };
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
	if ((rc = exact_count(a, a->kp.count, a->bits)))
		return rc;
	return affordable(a, seconds, count_what(a, what, sizeof(what)));
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

	if (a->table >= 0 ? (rc = need_table_args(a, &t)) : (rc = need_cell_args(a, &s)))
		return rc;
	if (a->keyset >= 0 && (rc = keyset_takes_options(a)))
		return rc;
	if (a->plot && a->bits > KB_PLOT_HIST_MAX_BITS)
		return kb_fail(KB_EXIT_USAGE, "--plot draws at most 2^%d buckets, not 2^%u",
			       KB_PLOT_HIST_MAX_BITS, a->bits);
	if (a->keyset >= 0 && (rc = check_heap_memory(a, 1u << a->keyset)))
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
		cell_gen(a, &specs[ng], (int)g);
		if (!t && kb_hashspec_check(&specs[ng], a->bits, err, sizeof(err)) < 0)
			return kb_fail(KB_EXIT_USAGE, "%s: %s", kb_gen_name((int)g), err);
		cells[ng] = cell;
		cells[ng].spec = specs[ng];
		ng++;
	}
	if ((rc = check_memory(a, a->bits, (unsigned)ng)))
		return rc;
	if (a->keyset >= 0 && (rc = skew_affordable(a, t, specs, ng)))
		return rc;
	for (g = 0; g < ng; g++) {
		if (a->keyset >= 0) {
			/* the cell's generation rides in its spec, K too */
			if (count_keyset(a, t, &specs[g], &counts[g], err, sizeof(err)) < 0) {
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
		}
	for (g = 0; g < ng && !rc; g++)
		kb_skew_from_counts(counts[g], UINT64_C(1) << a->bits, &cells[g].skew);
	source = a->keyset >= 0 ? kb_keysets[a->keyset].name : a->keys;
	memset(&fig, 0, sizeof(fig));
	if (!rc && a->plot)
		kb_figure_cells_hist(cells, (const uint64_t *const *)counts, ng, source, &fig);
	for (g = 0; g < ng; g++)
		free(counts[g]);
	if (rc)
		return rc;
	kb_render_cells(cells, ng, source, a->format, &b);
	return plot_then_emit(a, &b, &fig, a->plot ? 1 : 0);
}

/* Generation K must suit every function and word the report sweeps. */
static int check_report_k(struct kb_args *a)
{
	struct kb_report_opts o = a->ro;
	struct kb_hashspec s;
	char err[256];
	unsigned f, w;

	if (!(o.gens & 1u << KB_GEN_K))
		return 0;
	o.k = a->multiplier;
	o.k_width = a->width;
	for (f = 0; f < LKH_FUNC_COUNT; f++)
		for (w = 32; w <= 64; w += 32) {
			if (!(o.funcs & 1u << f) || !(o.words & (w == 64 ? 2u : 1u)) ||
			    !lkh_bits_max((lkh_func)f, LKH_GEN_NEW, w))
				continue;
			kb_report_spec(&o, KB_GEN_K, (lkh_func)f, w, &s);
			if (kb_hashspec_check(&s, o.bits_max, err, sizeof(err)) < 0)
				return kb_fail(KB_EXIT_USAGE, "--multiplier: %s", err);
		}
	return 0;
}

int kb_cmd_report(struct kb_args *a)
{
	uint64_t *keys = NULL;
	struct kb_report r;
	struct kb_buf b = { 0 };
	struct kb_progress progress = { 0, 0 };
	struct kb_progress_view *view;
	char err[512];
	int rc;

	if (a->ro.bits_min < 1 || a->ro.bits_min > a->ro.bits_max)
		return kb_fail(KB_EXIT_USAGE, "need 1 <= --bits-min <= --bits-max");
	if (a->ro.bits_max > 32)
		return kb_fail(KB_EXIT_USAGE, "--bits-max %u out of range: these functions return at most 32 bits for every generation (1..32)",
			    a->ro.bits_max);
	if ((rc = check_memory(a, a->ro.bits_max, (unsigned)__builtin_popcount(a->ro.gens))))
		return rc;
	if ((rc = check_report_k(a)))
		return rc;
	if (a->keys) {
		if ((rc = keys_not_keyset(a)))
			return rc;
		if (KB_GIVEN(a, KEYSETS) || KB_GIVEN(a, HIST) || a->plot)
			return kb_fail(KB_EXIT_USAGE, "--%s applies to the built-in key sets, not to --keys",
				       KB_GIVEN(a, KEYSETS) ? "keysets" : KB_GIVEN(a, HIST) ? "hist" : "plot");
	} else if ((rc = check_heap_memory(a, a->ro.keysets))) {
		return rc;
	} else if (a->ro.keysets & (1u << KB_KS_ADVERSARIAL)) {
		/* built against one cell, it has no row in a sweep */
		return kb_fail(KB_EXIT_USAGE, "--keysets %s: built against one cell, it is for skew, keys, advise and explain, not report",
			       kb_keysets[KB_KS_ADVERSARIAL].name);
	}
	if (!KB_GIVEN(a, HIST) && a->plot) {
		/* The two cells of the story: page and stripe addresses. */
		static const struct kb_hist_req defaults[] = {
			{ KB_KS_PAGE4K, LKH_FUNC_HASH_64, 64, 11 },
			{ KB_KS_BTRFS_STRIPE, LKH_FUNC_HASH_64, 64, 11 },
		};

		memcpy(a->hist, defaults, sizeof(defaults));
		a->nhist = 2;
	}
	memset(&r, 0, sizeof(r));
	r.opts = a->ro;
	r.opts.k = a->multiplier;
	r.opts.k_width = a->width;
	r.opts.params = a->kp;
	r.opts.threads = a->threads;
	r.opts.enumerate = KB_GIVEN(a, ENUMERATE);
	r.opts.progress = &progress;
	if (!a->keys && ((rc = exact_count(a, a->kp.count, a->ro.bits_max)) ||
			 (rc = affordable(a, kb_report_seconds(&r.opts),
					  count_what(a, err, sizeof(err))))))
		return rc;
	if (a->keys) {
		/* a table holds an object once: each key counted once, its
		 * hash words and their sort beside it within --max-memory */
		size_t read;

		if (kb_keyfile_read_all(a->keys, a->binary, a->max_memory / 24, &keys, &read,
					err, sizeof(err)) < 0)
			return kb_fail(KB_EXIT_RUNTIME, "%s", err);
		r.opts.nkeys = kb_distinct_keys(keys, read);
		r.opts.keys = keys;
		r.opts.keys_name = a->keys;
		r.opts.params.count = r.opts.nkeys;
		repeats_note(a->keys, read, r.opts.nkeys, 1);
	}
	view = watch(a, &progress, "hashes");
	rc = kb_report_run(&r, err, sizeof(err));
	free(keys);
	r.opts.keys = NULL;
	kb_progress_view_stop(view);
	if (rc < 0) {
		kb_report_free(&r);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	if (a->plot) {
		struct kb_hist hists[KB_MAX_HIST];
		int failed = kb_report_hists(&r, a->hist, a->nhist, hists, err,
					     sizeof(err)) < 0;

		if (!failed) {
			failed = kb_plot_outcome(kb_plot_report(&r, hists, a->nhist, a->plot,
								err, sizeof(err)),
						 err) != 0;
			kb_hists_free(hists, a->nhist);
		} else {
			kb_fail(KB_EXIT_RUNTIME, "%s", err);
		}
		if (failed) {
			kb_report_free(&r);
			return KB_EXIT_RUNTIME;
		}
	}
	kb_render_report(&r, a->format, a->step, &b);
	kb_report_free(&r);
	rc = emit(a, &b);
	if (!rc && a->plot && a->format == KB_FORMAT_TEXT)
		fprintf(stdout, "plots written to %s/\n", a->plot);
	return rc;
}

int kb_cmd_speed(struct kb_args *a)
{
	struct kb_speed_opts o;
	struct kb_progress progress = { 0, 0 };
	struct kb_progress_view *view;
	struct kb_buf b = { 0 };
	char err[512];
	int rc;

	if (KB_GIVEN(a, BITS) && (a->bits < 1 || a->bits > 32))
		return kb_fail(KB_EXIT_USAGE, "bits %u out of range for speed: 1..32", a->bits);
	memset(&o, 0, sizeof(o));
	o.bits = KB_GIVEN(a, BITS) ? a->bits : 11;
	o.min_seconds = a->min_time_ms / 1e3;
	o.hashes = a->part == 0 || a->part == 1;
	o.engine = a->part == 0 || a->part == 2;
	o.grid = a->part == 3;
	o.threads = a->threads;
	o.engine_keys = a->kp.count;
	o.progress = &progress;
	if ((rc = affordable(a, kb_speed_engine_seconds(&o), count_what(a, err, sizeof(err)))))
		return rc;
	view = watch(a, &progress, "timings");
	rc = kb_speed_run(&o, a->format, &b, err, sizeof(err));
	kb_progress_view_stop(view);
	if (rc < 0) {
		kb_buf_free(&b);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	return emit(a, &b);
}

/* Draw n figures when --plot was given, then write the text output; a
 * failed figure leaves neither.  Frees all. */
/* A rough figure for the note below: ns per hash (flips counted) on one
 * thread, measured here for hash_32 and hash_64 (7 and 9.5). */
#define INFLUENCE_NS_PER_HASH 8
/* Work worth a word before it starts: some 30 s of a CPU. */
#define INFLUENCE_NOTE_HASHES (UINT64_C(1) << 32)

/* Say how influence will measure and what it costs, before it starts,
 * when the count asks for every input or the work is long; long work
 * needs --yes, or --enumerate where that is the method. */
static int influence_note(const struct kb_args *a, const struct kb_hashspec *s)
{
	struct kb_influence_plan p;
	char what[128], why[96];
	int rc;

	kb_influence_plan(s, a->kp.count, KB_GIVEN(a, ENUMERATE), &p);
	snprintf(what, sizeof(what), "--count %llu (%llu keys x %u hashes)",
		 (unsigned long long)a->kp.count, (unsigned long long)p.inputs, p.in_bits + 1);
	if (!(KB_GIVEN(a, ENUMERATE) && p.method == KB_INFLUENCE_TRIED) &&
	    (rc = affordable(a, (double)p.hashes * INFLUENCE_NS_PER_HASH / 1e9, what)))
		return rc;
	if (KB_GIVEN(a, QUIET) ||
	    (a->kp.count < (UINT64_C(1) << 32) && p.hashes < INFLUENCE_NOTE_HASHES))
		return 0;
	snprintf(what, sizeof(what), "%s %s on %u-bit", kb_gen_name(kb_hashspec_gen(s)),
		 lkh_func_name(s->func), s->word);
	if (p.method == KB_INFLUENCE_CLOSED) {
		fprintf(stderr, "khash-bench: influence: every 2^32 input of %s in closed form (floor sums): no key hashed\n",
			what);
		return 0;
	}
	if (p.method == KB_INFLUENCE_TRIED)
		snprintf(why, sizeof(why), "%s", KB_GIVEN(a, ENUMERATE)
			 ? "--enumerate: hashed, not in closed form"
			 : "not one multiply: no closed form");
	else if (p.in_bits == 64)
		snprintf(why, sizeof(why), "a 64-bit argument cannot be swept");
	else
		snprintf(why, sizeof(why), "--count %llu or more is every input%s",
			 (unsigned long long)(UINT64_C(1) << 32),
			 p.closed_form ? ", in closed form" : "");
	fprintf(stderr, "khash-bench: influence: %s %llu %s of %s (%s): %llu keys x %u hashes, roughly %.0f min of one CPU\n",
		p.method == KB_INFLUENCE_TRIED ? "trying all" : "sampling",
		(unsigned long long)p.inputs,
		p.method == KB_INFLUENCE_TRIED ? "inputs" : "random keys", what, why,
		(unsigned long long)p.inputs, p.in_bits + 1,
		(double)p.hashes * INFLUENCE_NS_PER_HASH / 60e9);
	return 0;
}

int kb_cmd_influence(struct kb_args *a)
{
	struct kb_hashspec s;
	struct kb_influence *r;
	struct kb_influence_opts io = { 0, 0, NULL };
	struct kb_progress progress = { 0, 0 };
	struct kb_progress_view *view;
	struct kb_buf b = { 0 };
	struct kb_figure fig;
	int rc;

	if ((rc = need_cell_args(a, &s)) || (rc = influence_note(a, &s)))
		return rc;
	r = malloc(sizeof(*r));
	if (!r)
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	io.threads = a->threads;
	io.enumerate = KB_GIVEN(a, ENUMERATE);
	io.progress = &progress;
	view = watch(a, &progress, "keys");
	rc = kb_influence_measure(&s, a->bits, a->kp.count, a->kp.seed, &io, r);
	kb_progress_view_stop(view);
	if (rc < 0) {
		free(r);
		return kb_fail(KB_EXIT_RUNTIME, "cannot measure influence");
	}
	kb_render_influence(r, &s, a->bits, a->format, &b);
	memset(&fig, 0, sizeof(fig));
	if (a->plot)
		kb_figure_influence(r, &s, a->bits, &fig);
	free(r);
	return plot_then_emit(a, &b, &fig, 1);
}

int kb_cmd_audit(struct kb_args *a)
{
	struct kb_buf b = { 0 };
	struct kb_figure fig;
	struct kb_audit *au;
	const char *names[64];
	unsigned i, n = 0;
	int compare = KB_GIVEN(a, COMPARE);

	if (a->preset) {
		for (i = 0; i < kb_preset_count; i++)
			if (!strcmp(a->preset, kb_presets[i].name))
				break;
		if (i == kb_preset_count)
			return kb_fail(KB_EXIT_USAGE, "unknown preset '%s' (see 'khash-bench audit --compare')",
				       a->preset);
	}
	au = calloc(kb_preset_count + 1, sizeof(*au));
	if (!au)
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	for (i = 0; i < kb_preset_count || (!compare && !a->preset && i == 0); i++) {
		uint64_t k;
		unsigned width;

		if (compare || a->preset) {
			if (a->preset && strcmp(a->preset, kb_presets[i].name))
				continue;
			names[n] = kb_presets[i].name;
			k = kb_presets[i].k;
			width = kb_presets[i].width;
		} else {
			names[n] = NULL;
			k = a->multiplier;
			width = a->width ? a->width : k > UINT32_MAX ? 64 : 32;
		}
		if (kb_audit_run(k, width, &au[n]) < 0) {
			free(au);
			return kb_fail(KB_EXIT_USAGE, "multiplier %#llx does not fit %u bits",
				       (unsigned long long)k, width);
		}
		n++;
		if (!compare)
			break;
	}
	kb_render_audits(au, names, n, compare, a->format, &b);
	memset(&fig, 0, sizeof(fig));
	if (a->plot)
		kb_figure_audits(au, names, n,
				 compare ? "compare" : a->preset ? a->preset : "multiplier",
				 &fig);
	free(au);
	return plot_then_emit(a, &b, &fig, 1);
}

/*
 * A census site's keys and what it hashes them with: its function, its
 * bits (unless --bits), its file's word, and the kind of its named table.
 */
static int advise_site(struct kb_args *a, struct kb_advise_opts *o, uint64_t **keys,
		       size_t *n)
{
	struct kb_census_file f;
	const struct kb_census_site *s = NULL;
	char err[512];
	uint64_t id;
	/* an id is a number and nothing else (strtoul took " +5"): any other
	 * text is a FILE:LINE */
	int by_id = kb_parse_u64(a->site, &id);
	size_t i;
	int rc = 0;

	if (kb_census_read(a->census, &f, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	for (i = 0; i < f.nsites; i++) {
		const struct kb_census_site *c = &f.sites[i];

		if (by_id ? c->id != id : strcmp(c->where, a->site) != 0)
			continue;
		if (s) {
			rc = kb_fail(KB_EXIT_USAGE, "%s: sites %lu and %lu are both at %s: give an id",
				     a->census, s->id, c->id, a->site);
			break;
		}
		s = c;
	}
	if (!rc && !s)
		rc = kb_fail(KB_EXIT_USAGE, "%s: no site %s (see 'khash-bench census %s')",
			     a->census, a->site, a->census);
	if (!rc && s->func >= LKH_FUNC_COUNT)
		rc = kb_fail(KB_EXIT_USAGE, "site %lu (%s) hashes two inputs with %s: advise takes a site of one key",
			     s->id, s->where, kb_census_func_name(s->func));
	if (!rc && !KB_GIVEN(a, BITS) && (s->bits < 1 || s->bits > 32))
		rc = kb_fail(KB_EXIT_USAGE, "site %lu (%s) records no table size: give --bits",
			     s->id, s->where);
	if (!rc && !(*keys = malloc((s->nkeys ? s->nkeys : 1) * sizeof(**keys))))
		rc = kb_fail(KB_EXIT_RUNTIME, "out of memory");
	if (!rc) {
		for (i = 0; i < s->nkeys; i++)
			(*keys)[i] = s->keys[i].a;
		*n = kb_distinct_keys(*keys, s->nkeys);
		o->func = (lkh_func)s->func;
		o->word = f.word;
		if (!KB_GIVEN(a, BITS))
			o->bits = a->bits = s->bits;
		if (!KB_GIVEN(a, KIND)) {
			/* what the census says the site's hash picks */
			struct kb_census_kind k;
			char kernel[64];

			kb_census_kind_of(kb_census_kernel(&f, kernel, sizeof(kernel)) ? kernel : NULL,
					  s->where, s->func, &k);
			if (k.kind >= 0 && k.kind < KB_KIND_COUNT_)
				o->kind = (enum kb_table_kind)k.kind;
		}
		snprintf(a->site_name, sizeof(a->site_name), "site %lu %s", s->id, s->where);
	}
	kb_census_file_free(&f);
	return rc;
}

/* A key set's keys, within --max-memory (the keys and their buckets). */
static int collect_keys(const struct kb_args *a, int id, const struct kb_keyset_params *kp,
			uint64_t **keys, size_t *n)
{
	char err[512];

	if (kp->count > a->max_memory / 16)
		return kb_fail(KB_EXIT_RUNTIME, "--count %llu: the keys need more than the --max-memory limit of %llu MiB",
			       (unsigned long long)kp->count,
			       (unsigned long long)(a->max_memory >> 20));
	if (kb_keyset_collect(id, kp, keys, n, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	return 0;
}

/* Every key of the key set or file advise was given, sorted and distinct. */
static int advise_keys(const struct kb_args *a, uint64_t **keys, size_t *n)
{
	/* the keys and the candidates' buckets, 8 bytes each */
	uint64_t max_keys = a->max_memory / 16;
	struct kb_keyset_params kp = a->kp;
	char err[512];
	size_t read;
	int rc;

	if (a->keys) {
		if (kb_keyfile_read_all(a->keys, a->binary, max_keys, keys, &read, err,
					sizeof(err)) < 0)
			return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	} else {
		kp.word = a->word;
		kp.input_bits = 64;
		if ((rc = target_cell(a, &kp, KB_GIVEN(a, FUNC) ? a->func : LKH_FUNC_HASH_PTR,
				      LKH_GEN_NEW)) ||
		    (rc = collect_keys(a, a->keyset, &kp, keys, &read)))
			return rc;
	}
	*n = kb_distinct_keys(*keys, read);
	if (a->keys)
		repeats_note(a->keys, read, *n, 1);
	return 0;
}

/* A named table's key model, through its transform where that is a shift. */
static int table_keys(struct kb_args *a, struct kb_advise_opts *o, uint64_t **keys,
		      size_t *n)
{
	const struct kb_table *t = &kb_tables[a->table];
	struct kb_keyset_params kp;
	size_t i;
	int rc;

	if (t->tx != KB_TX_NONE && t->tx != KB_TX_SHR16)
		return kb_fail(KB_EXIT_USAGE, "--table %s: its key goes through more than a shift before %s (%s); %s takes tables that hash the key as it is or shifted",
			       t->name, lkh_func_name(t->func), t->formula, a->cmd->name);
	kb_table_model(t, a->word, a->kp.count, a->kp.seed, &kp);
	if ((rc = collect_keys(a, t->keyset, &kp, keys, n)))
		return rc;
	for (i = 0; t->tx == KB_TX_SHR16 && i < *n; i++)
		(*keys)[i] >>= 16;
	*n = kb_distinct_keys(*keys, *n);
	o->func = t->func;
	if (!KB_GIVEN(a, BITS))
		o->bits = a->bits = t->bits;
	if (!KB_GIVEN(a, KIND))
		o->kind = t->kind;
	snprintf(a->site_name, sizeof(a->site_name), "table %s (%s, %s)", t->name, t->formula,
		 t->keys_are);
	return 0;
}

/* advise's rough cost of a key, all candidates ranked: 2^24 seq keys took
 * 16.7 s of CPU here (bench/RESULTS.md's machine). */
#define ADVISE_NS_PER_KEY 1000.0

/* A key set's or table's --count for advise or explain, weighed before
 * any key is made: explain visits every pair, so it has a limit. */
static int cell_keys_affordable(const struct kb_args *a)
{
	char what[64];

	if (a->cmd->run == kb_cmd_explain && a->kp.count > KB_EXPLAIN_MAX_KEYS)
		return kb_fail(KB_EXIT_USAGE, "explain: --count %llu: explain takes at most %d keys (it visits every pair)",
			       (unsigned long long)a->kp.count, KB_EXPLAIN_MAX_KEYS);
	return affordable(a, (double)a->kp.count * ADVISE_NS_PER_KEY / 1e9,
			  count_what(a, what, sizeof(what)));
}

/*
 * The keys of advise and explain, sorted and distinct, and what hashes
 * them (o's func, gen, word, bits and kind): a key set or key file with
 * --func (default hash_ptr) and --bits, a census site (its function, bits
 * and word), or a named table's key model (its function, bits and kind).
 * *name says where they came from.
 */
static int cell_keys(struct kb_args *a, struct kb_advise_opts *o, uint64_t **keys,
		     size_t *n, const char **name)
{
	int rc;

	*keys = NULL;
	if ((a->census || a->table >= 0) && (KB_GIVEN(a, FUNC) || (a->census && KB_GIVEN(a, WORD)))) {
		return kb_fail(KB_EXIT_USAGE, "--%s: %s hashes with its own function%s",
			       KB_GIVEN(a, FUNC) ? "func" : "word",
			       a->census ? "a census site" : "a named table",
			       a->census ? " on its file's word" : "");
	}
	if (a->keyset >= 0 && (rc = keyset_takes_options(a)))
		return rc;
	memset(o, 0, sizeof(*o));
	o->func = KB_GIVEN(a, FUNC) ? a->func : LKH_FUNC_HASH_PTR;
	/* advise takes no K; explain's cell is made from o and a */
	o->gen = KB_GIVEN(a, GEN) && a->gen != KB_GEN_K ? (lkh_gen)a->gen : LKH_GEN_NEW;
	o->word = a->word;
	o->bits = a->bits;
	o->kind = (enum kb_table_kind)a->kind;
	o->seed = a->kp.seed;
	if (a->keyset >= 0 && (rc = check_heap_memory(a, 1u << a->keyset)))
		return rc;
	if ((a->keyset >= 0 || a->table >= 0) && (rc = cell_keys_affordable(a)))
		return rc;
	rc = a->census       ? advise_site(a, o, keys, n)
	     : a->table >= 0 ? table_keys(a, o, keys, n)
			     : advise_keys(a, keys, n);
	*name = a->keyset >= 0 ? kb_keysets[a->keyset].name : a->keys ? a->keys : a->site_name;
	return rc;
}

int kb_cmd_advise(struct kb_args *a)
{
	struct kb_advise_opts o;
	struct kb_advice *adv;
	struct kb_candidate c;
	struct kb_buf b = { 0 };
	uint64_t *keys = NULL;
	double ns[KB_ADVISE_MAX];
	const char *name;
	char err[512];
	size_t n, i;
	int rc;

	/* the user's multiplier before any key is read */
	memset(&c, 0, sizeof(c));
	c.kind = KB_CAND_MULTIPLY;
	c.multiplier = a->multiplier;
	c.width = a->width ? a->width : a->multiplier > UINT32_MAX ? 64 : 32;
	c.word = 64;
	if (KB_GIVEN(a, MULTIPLIER) && KB_GIVEN(a, BITS) &&
	    kb_candidate_check(&c, a->bits, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_USAGE, "--multiplier: %s", err);
	if ((rc = cell_keys(a, &o, &keys, &n, &name)))
		return rc;
	o.multiplier = a->multiplier;
	o.width = c.width;
	o.families = a->families;
	/* the table's own hash, and the multiplier at the bits now known */
	c.word = o.word;
	if (KB_GIVEN(a, MULTIPLIER) && kb_candidate_check(&c, a->bits, err, sizeof(err)) < 0) {
		free(keys);
		return kb_fail(KB_EXIT_USAGE, "--multiplier: %s", err);
	}
	c.kind = KB_CAND_HASHH;
	c.func = o.func;
	c.gen = o.gen;
	if (a->bits > 32 || kb_candidate_check(&c, a->bits, err, sizeof(err)) < 0) {
		free(keys);
		return kb_fail(KB_EXIT_USAGE, "%s", a->bits > 32 ? "advise takes --bits 1..32" : err);
	}
	adv = malloc(sizeof(*adv));
	if (!adv) {
		free(keys);
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	}
	rc = kb_advise(&o, keys, n, adv, err, sizeof(err));
	free(keys);
	if (rc < 0) {
		free(adv);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	for (i = 0; i < adv->nrows; i++) {
		struct kb_rounds r;

		/* a short measurement: the ranking is by cost, speed is a guide */
		ns[i] = kb_speed_candidate(&adv->rows[i].cand, a->bits, 0.02, &r) < 0 ? -1 : r.best;
	}
	kb_render_advice(adv, ns, name, a->format, &b);
	free(adv);
	return emit(a, &b);
}

int kb_cmd_explain(struct kb_args *a)
{
	struct kb_advise_opts o;
	struct kb_hashspec s;
	struct kb_explain *e;
	struct kb_buf b = { 0 };
	uint64_t *keys = NULL;
	const char *name;
	char err[512];
	size_t n;
	int rc;

	if (a->bits > 32)
		return kb_fail(KB_EXIT_USAGE, "explain takes --bits 1..32");
	if ((rc = cell_keys(a, &o, &keys, &n, &name)))
		return rc;
	s.func = o.func;
	s.word = o.word;
	cell_gen(a, &s, KB_GIVEN(a, GEN) || KB_GIVEN(a, MULTIPLIER) ? a->gen : (int)o.gen);
	if (kb_hashspec_check(&s, a->bits, err, sizeof(err)) < 0) {
		free(keys);
		return kb_fail(KB_EXIT_USAGE, "%s", err);
	}
	e = malloc(sizeof(*e));
	if (!e) {
		free(keys);
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	}
	rc = kb_explain(&s, a->bits, keys, n, e, err, sizeof(err));
	free(keys);
	if (rc < 0) {
		free(e);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	kb_render_explain(e, &s, a->bits, name, a->format, &b);
	free(e);
	return emit(a, &b);
}

int kb_cmd_waittable(struct kb_args *a)
{
	struct kb_wait_row rows[KB_WAIT_ZONES];
	struct kb_buf b = { 0 };
	struct kb_figure fig;
	uint64_t zone;
	int n = kb_wait_sweep(a->word, (unsigned)a->kp.count, KB_WAIT_TRIALS, a->kp.seed,
			      rows, &zone);

	if (n < 0)
		return kb_fail(KB_EXIT_RUNTIME, "cannot simulate a %llu MiB zone",
			       (unsigned long long)(zone >> 20));
	kb_render_waittable(rows, (size_t)n, a->word, (unsigned)a->kp.count, KB_WAIT_TRIALS,
			    a->format, &b);
	memset(&fig, 0, sizeof(fig));
	if (a->plot)
		kb_figure_waittable(rows, (size_t)n, a->word, (unsigned)a->kp.count, &fig);
	return plot_then_emit(a, &b, &fig, 1);
}

/* A table's kernel keys (the kernel-keys files hold 4096 at most), each
 * once, as for every key file. */
static int read_kernel_keys(const char *path, uint64_t **keys, size_t *n)
{
	enum { MAX_KERNEL_KEYS = 65536 };
	char err[512];
	size_t read;

	if (kb_keyfile_read_all(path, 0, MAX_KERNEL_KEYS, keys, &read, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	*n = kb_distinct_keys(*keys, read);
	repeats_note(path, read, *n, 1);
	return 0;
}

static void free_kernel_keys(struct kb_table_keys *kernel)
{
	size_t i;

	for (i = 0; kernel && i < 2 * kb_tables_count; i++)
		free((void *)kernel[i].keys);
	free(kernel);
}

/* Every named table x word x generation on its key model, and on the real
 * kernel keys that fit it (--kernel-keys DIR: DIR/x86_64 and DIR/i386). */
int kb_cmd_tables(struct kb_args *a)
{
	struct kb_table_cell *cells;
	struct kb_table_keys *kernel = NULL;
	struct kb_buf b = { 0 };
	struct kb_figure figs[2];
	struct kb_tables_sweep sw = { a->ro.words, KB_GIVEN(a, MULTIPLIER), a->multiplier,
				      a->width, a->kp.count, a->kp.seed, NULL, NULL };
	struct kb_progress progress = { 0, 0 };
	struct kb_progress_view *view;
	size_t n, nfigs = 0, i;
	unsigned w;
	char path[4096];
	int rc = 0;

	for (i = 0, w = 0; i < kb_tables_count; i++)
		w = kb_tables[i].bits > w ? kb_tables[i].bits : w;
	/* each cell's keys hashed once */
	if ((rc = exact_count(a, a->kp.count, w)) ||
	    (rc = affordable(a, (double)a->kp.count * (double)KB_TABLES_SWEEP_MAX(kb_tables_count) *
					KB_NS_PER_HASH / 1e9,
			     count_what(a, path, sizeof(path)))))
		return rc;
	cells = calloc(KB_TABLES_SWEEP_MAX(kb_tables_count), sizeof(*cells));
	if (!cells || (a->kernel_keys && !(kernel = calloc(2 * kb_tables_count, sizeof(*kernel))))) {
		free(cells);
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	}
	for (i = 0; kernel && !rc && i < 2 * kb_tables_count; i++) {
		uint64_t *keys;

		w = i % 2 ? 32 : 64;
		if (!(a->ro.words & (w == 64 ? 2u : 1u)) || !kb_tables[i / 2].kernel_keys)
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s.txt", a->kernel_keys,
			 w == 64 ? "x86_64" : "i386", kb_tables[i / 2].kernel_keys);
		rc = read_kernel_keys(path, &keys, &kernel[i].n);
		kernel[i].keys = keys;
	}
	if (rc) {
		free_kernel_keys(kernel);
		free(cells);
		return rc;
	}
	sw.kernel = kernel;
	sw.progress = &progress;
	view = watch(a, &progress, "keys");
	n = kb_tables_sweep(&sw, cells);
	kb_progress_view_stop(view);
	free_kernel_keys(kernel);
	kb_render_tables(cells, n, a->kp.count, a->format, &b);
	memset(figs, 0, sizeof(figs));
	/* a figure for each word size shown, 64-bit first as in the text */
	for (w = 64; a->plot && w >= 32; w -= 32)
		if (a->ro.words & (w == 64 ? 2u : 1u))
			kb_figure_tables(cells, n, w, &figs[nfigs++]);
	free(cells);
	return plot_then_emit(a, &b, figs, nfigs);
}

/* keys' rough cost of a key, generated and written as text: 10M keys
 * into /dev/null took 0.39 s here (bench/RESULTS.md's machine). */
#define KEYS_NS_PER_KEY 40.0

/* Write a key set as a key file: text (0x hex, one a line) or --binary
 * little-endian u64, so any other machine reads the same keys. */
int kb_cmd_keys(struct kb_args *a)
{
	struct kb_keyset_params kp = a->kp;
	struct kb_keystream ks;
	struct kb_keywriter *w;
	uint64_t keys[BLOCK];
	char err[512];
	size_t n;
	int rc = 0;

	if ((rc = keyset_takes_options(a)))
		return rc;
	if ((rc = check_heap_memory(a, 1u << a->keyset)))
		return rc;
	if ((rc = affordable(a, (double)a->kp.count * KEYS_NS_PER_KEY / 1e9,
			     count_what(a, err, sizeof(err)))))
		return rc;
	kp.word = a->word;
	kp.input_bits = 64;
	/* keys' adversarial set is built against old unless --gen says */
	if ((rc = target_cell(a, &kp, KB_GIVEN(a, FUNC) ? a->func : LKH_FUNC_HASH_64,
			      LKH_GEN_OLD)))
		return rc;
	if (kb_keystream_open(&ks, a->keyset, &kp, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	w = malloc(sizeof(*w));
	if (!w || kb_keywriter_open(w, a->output, a->binary, err, sizeof(err)) < 0) {
		if (!w)
			snprintf(err, sizeof(err), "out of memory");
		kb_keystream_close(&ks);
		free(w);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	while (!rc && (n = kb_keystream_next(&ks, keys, BLOCK)) > 0)
		rc = kb_keywriter_put(w, keys, n, err, sizeof(err));
	kb_keystream_close(&ks);
	if (rc)
		kb_keywriter_abort(w);
	else
		rc = kb_keywriter_commit(w, err, sizeof(err));
	free(w);
	return rc ? kb_fail(KB_EXIT_RUNTIME, "%s", err) : 0;
}

int kb_cmd_list(struct kb_args *a)
{
	int i;

	(void)a;
	printf("key sets:\n");
	for (i = 0; i < KB_KS_COUNT; i++)
		printf("  %-14s %s%s\n", kb_keysets[i].name, kb_keysets[i].formula,
		       kb_keyset_available(i) ? "" : " [not in this build]");
	printf("functions:");
	for (i = 0; i < LKH_FUNC_COUNT; i++)
		if (lkh_bits_max((lkh_func)i, LKH_GEN_NEW, 64))
			printf(" %s", lkh_func_name((lkh_func)i));
	printf("\ngenerations:\n");
#define GEN_LINE(id, name, what, ...) printf("  %-7s %s\n", #name, what);
	LKH_GENERATION_TABLE(GEN_LINE)
#undef GEN_LINE
	printf("  %-7s --multiplier K: the key times K mod 2^w, its top bits (not a kernel's)\n",
	       kb_gen_name(KB_GEN_K));
	printf("word sizes: 32 64 (default %u)\n", lkh_bits_per_long());
	return 0;
}

static void print_version(void)
{
	printf("khash-bench (libkhash) %s\n", lkh_version_string());
}

/* Every output the command line names must be writable before any work
 * is done: minutes of counting are not lost to a mistyped folder. */
static int check_outputs(const struct kb_args *a)
{
	char err[512];

	if (kb_output_check_file(a->output, err, sizeof(err)) < 0 ||
	    (a->plot && kb_output_check_dir(a->plot, err, sizeof(err)) < 0))
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	return 0;
}

/* Run a parsed command line. */
static int run(const struct kb_args *a_in)
{
	struct kb_args a = *a_in;
	int rc;

	if (a.action == KB_HELP) {
		kb_command_usage(stdout, a.cmd);
		return 0;
	}
	if (a.action == KB_VERSION) {
		print_version();
		return 0;
	}
	if ((rc = check_outputs(&a)))
		return rc;
	/* a row whose function is not linked (cli_args.h: weakly) */
	if (!a.cmd->run)
		return kb_fail(KB_EXIT_RUNTIME, "command '%s' has no implementation", a.cmd->name);
	return a.cmd->run(&a);
}

/* Whatever went to standard output must have arrived: a full disk or a
 * closed pipe is an error, not a silent success (once: commands that
 * write their own output already said so). */
static int finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (rc == 0)
			rc = kb_fail(KB_EXIT_RUNTIME, "cannot write standard output: %s",
				     strerror(errno ? errno : EIO));
		clearerr(stdout);
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct kb_args a;
	uint64_t caches[3];
	int rc;

	if (argc < 2) /* a usage error: one line, as every other */
		return kb_fail(KB_EXIT_USAGE, "no command (try --help)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		kb_usage(stdout);
		return finish(0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		print_version();
		return finish(0);
	}
	kb_output_install_signal_cleanup();
	if ((rc = kb_parse_args(argc - 1, argv + 1, &a)))
		return rc;
	kb_read_cache_bytes("", caches); /* the engine sizes its tables by them */
	kb_set_cache_bytes(caches);
	return finish(run(&a));
}
