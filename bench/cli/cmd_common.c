/* SPDX-License-Identifier: MIT */
/*
 * What the commands share: the checks made before work starts (memory,
 * time, a cell or named table), where a key file's bad key is, the note
 * on repeated keys, and writing the output and figures.
 */
#include "cli_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "namefile.h"
#include "keyfile.h"
#include "keysets.h"
#include "output.h"
#include "plot.h"
#include "progress_view.h"
#include "stats.h"
#include "tables.h"

/* Progress of long work, shown on a terminal unless --quiet. */
struct kb_progress_view *kb_watch(const struct kb_args *a,
				  struct kb_progress *p, const char *unit)
{
	return kb_progress_view_start(p, unit, !KB_GIVEN(a, QUIET));
}

int kb_check_memory(const struct kb_args *a, unsigned bits, unsigned tables)
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
int kb_affordable(const struct kb_args *a, double seconds, const char *what)
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

/* "--count N", for kb_affordable()'s messages. */
const char *kb_count_what(const struct kb_args *a, char *out, size_t len)
{
	snprintf(out, len, "--count %llu", (unsigned long long)a->kp.count);
	return out;
}

/* count keys into 2^bits buckets must be judged exactly (stats.h). */
int kb_exact_count(const struct kb_args *a, uint64_t count, unsigned bits)
{
	uint64_t max = kb_skew_max_keys(bits);

	if (count > max)
		return kb_fail(KB_EXIT_USAGE, "%s: --count %llu: a table of 2^%u buckets is judged for at most %llu keys (its X^2 is formed in 128 bits)",
			       a->cmd->name, (unsigned long long)count, bits,
			       (unsigned long long)max);
	return 0;
}

/* Heap key sets keep every object live: refuse counts that cannot fit. */
int kb_check_heap_memory(const struct kb_args *a, unsigned keyset_mask)
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

/* Make s (its function and word set) a cell of generation g: K takes
 * --multiplier at --width, or at the wider of K's and the argument's. */
void kb_cell_gen(const struct kb_args *a, struct kb_hashspec *s, int g)
{
	const struct kb_gen kg = { g, a->multiplier, a->width };

	kb_hashspec_make(s, s->func, s->word, &kg);
}

/* The cell the adversarial key set is built against: f, --gen (else
 * dflt), --bits; K is checked here, since no counting follows `keys`. */
int kb_target_cell(const struct kb_args *a, struct kb_keyset_params *kp, lkh_func f,
		   int dflt)
{
	struct kb_hashspec s = { f, KB_GEN_TODAY, a->word, 0, 0, 0 };
	char err[256];

	kb_cell_gen(a, &s, KB_GIVEN(a, GEN) || (a->gen_mask & 1u << KB_GEN_K) ? a->gen : dflt);
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

/* --param against a named table's parameter (NULL: it takes none): 0, or
 * a usage failure said. */
static int table_param_given(const struct kb_args *a, const char *table, const char *param)
{
	if (KB_GIVEN(a, PARAM) && !param)
		return kb_fail(KB_EXIT_USAGE, "table %s takes no --param", table);
	if (a->param_name && strcmp(a->param_name, param))
		return kb_fail(KB_EXIT_USAGE, "table %s's parameter is %s, not %s", table, param,
			       a->param_name);
	return 0;
}

/* A named table instead of a function: --func is its, bits its default,
 * the parameter its default unless given; checked on one key. */
int kb_need_table_args(struct kb_args *a, const struct kb_table **t)
{
	const struct kb_gen kg = { a->gen, a->multiplier, a->width };
	uint64_t b;
	char why[256];

	*t = &kb_tables[a->table];
	if (table_param_given(a, (*t)->name, (*t)->param))
		return KB_EXIT_USAGE;
	if (!KB_GIVEN(a, PARAM))
		a->param = kb_table_param(*t, a->word);
	if (!KB_GIVEN(a, BITS))
		a->bits = (*t)->bits;
	/* the user's function is not run for a usage check (a crash there is
	 * no usage error): its place, then the bits as today's take them */
	if (kg.gen == KB_GEN_USER
	    ? kb_table_arg_check(*t, &kg, a->word, a->bits, 0, a->param, why, sizeof(why)) < 0 ||
	      kb_table_bucket(*t, KB_GEN_OF(KB_GEN_TODAY), a->word, a->bits, 0, a->param, &b, why,
			      sizeof(why)) < 0
	    : kb_table_bucket(*t, &kg, a->word, a->bits, 0, a->param, &b, why, sizeof(why)) < 0)
		return kb_fail(KB_EXIT_USAGE, "%s", why);
	return 0;
}

int kb_need_string_table_args(struct kb_args *a, const struct kb_string_table **t)
{
	*t = &kb_string_tables[a->stable];
	if (KB_GIVEN(a, GEN) || KB_GIVEN(a, MULTIPLIER))
		return kb_fail(KB_EXIT_USAGE, "table %s reads a string hash: its generations are --sgen's, not --%s",
			       (*t)->name, KB_GIVEN(a, GEN) ? "gen" : "multiplier");
	if (KB_GIVEN(a, SOURCE))
		return kb_fail(KB_EXIT_USAGE, "table %s reads a string hash: --source's function hashes integer keys",
			       (*t)->name);
	if (KB_GIVEN(a, FUNC))
		return kb_fail(KB_EXIT_USAGE, "table %s hashes names with its own string hash: --func does not apply",
			       (*t)->name);
	if (KB_GIVEN(a, NAMES) && KB_GIVEN(a, NAME_SET))
		return kb_fail(KB_EXIT_USAGE, "table %s: give --names FILE or --name-set NAME, not both",
			       (*t)->name);
	if (KB_GIVEN(a, NAMES) && KB_GIVEN(a, COUNT))
		return kb_fail(KB_EXIT_USAGE, "--count applies to --name-set, not to --names");
	if (!KB_GIVEN(a, NAMES) && !KB_GIVEN(a, NAME_SET))
		return kb_fail(KB_EXIT_USAGE, "table %s reads names: give --names FILE or --name-set NAME%s",
			       (*t)->name, KB_GIVEN(a, KEYS) ? ", not --keys"
					   : KB_GIVEN(a, KEYSET) ? ", not --keyset" : "");
	if (table_param_given(a, (*t)->name, (*t)->param))
		return KB_EXIT_USAGE;
	if (!KB_GIVEN(a, PARAM))
		a->param = kb_string_table_param(*t, a->word);
	if (a->word == 32 && a->param > UINT32_MAX)
		return kb_fail(KB_EXIT_USAGE, "table %s: --param %s=%#llx does not fit a 32-bit kernel's word",
			       (*t)->name, (*t)->param, (unsigned long long)a->param);
	if (!KB_GIVEN(a, BITS))
		a->bits = (*t)->bits;
	if (a->bits > 32)
		return kb_fail(KB_EXIT_USAGE, "table %s: bits %u out of range: 1..32", (*t)->name,
			       a->bits);
	return 0;
}

int kb_read_names(const struct kb_args *a, const struct kb_string_table *t,
		  struct kb_names *l, const char **source)
{
	char err[512];
	size_t read;

	memset(l, 0, sizeof(*l));
	if (!a->names) {
		/* a name set's names are short: 32 bytes each, and their place */
		if (a->kp.count > a->max_memory / (32 + sizeof(struct kb_name)))
			return kb_fail(KB_EXIT_USAGE, "--count %llu: the names need more than the --max-memory limit of %llu MiB",
				       (unsigned long long)a->kp.count,
				       (unsigned long long)(a->max_memory >> 20));
		*source = kb_name_sets[a->name_set].name;
		if (kb_name_set_make(a->name_set, a->kp.count, l) < 0)
			return kb_fail(KB_EXIT_RUNTIME, "out of memory for %llu names",
				       (unsigned long long)a->kp.count);
		return 0;
	}
	if (kb_namefile_read(a->names, t->component, a->max_memory, l, source, err,
			     sizeof(err)) < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	if (!l->n)
		return kb_fail(KB_EXIT_RUNTIME, "%s: no names", *source);
	read = l->n;
	if (kb_names_distinct(l) < read)
		kb_fail(0, "note: %s: %zu of its %zu names repeat an earlier name and are dropped (each name counted once)",
			*source, read - l->n, read);
	return 0;
}

int kb_need_cell_args(const struct kb_args *a, struct kb_hashspec *s)
{
	char why[160];

	s->func = a->func;
	s->word = a->word;
	kb_cell_gen(a, s, a->gen);
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
const char *kb_key_place(const char *path, int binary, const char *name,
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
int kb_check_fit(const struct kb_hashspec *s, const uint64_t *keys, size_t n,
		 uint64_t done, const char *path, int binary, const char *name)
{
	size_t bad = kb_first_misfit(keys, n, kb_hashspec_input_bits(s));
	char where[512];

	if (bad < n)
		return kb_fail(KB_EXIT_RUNTIME, "%s: %#llx does not fit the 32-bit argument of %s on %u-bit",
			       kb_key_place(path, binary, name, done + bad + 1, where, sizeof(where)),
			       (unsigned long long)keys[bad], lkh_func_name(s->func), s->word);
	return 0;
}

/* One rule for every command: a table holds an object once, so a key
 * that repeats an earlier one is dropped (skew --keep-duplicates counts
 * it again); a note says how many, so no file is judged on fewer keys
 * than it holds without a word. */
void kb_repeats_note(const char *name, uint64_t read, uint64_t distinct, int dropped)
{
	if (read > distinct)
		kb_fail(0, "note: %s: %llu of its %llu keys repeat an earlier key and are %s",
			name, (unsigned long long)(read - distinct), (unsigned long long)read,
			dropped ? "dropped (each key counted once)"
				: "counted again (--keep-duplicates)");
}

/* Write the output (standard output or -o's file, atomically); frees b. */
int kb_emit(const struct kb_args *a, struct kb_buf *b)
{
	char err[512];
	int rc = kb_write_all(a->output, b, err, sizeof(err)) < 0
			 ? kb_fail(KB_EXIT_RUNTIME, "%s", err)
			 : 0;

	kb_buf_free(b);
	return rc;
}

/* Draw n figures when --plot was given, then write the text output; a
 * failed figure leaves neither.  Frees all. */
int kb_plot_then_emit(const struct kb_args *a, struct kb_buf *b,
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
	return kb_emit(a, b);
}

/* Options one key set would ignore are refused, as for key files. */
int kb_keyset_takes_options(const struct kb_args *a)
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
