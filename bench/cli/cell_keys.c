/* SPDX-License-Identifier: MIT */
/*
 * The keys of advise and explain, sorted and distinct, and what hashes
 * them: a key set, a key file, a census site or a named table's key model.
 */
#include "cli_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh.h>

#include "advise.h"
#include "census.h"
#include "census_atlas.h"
#include "census_file.h"
#include "cmd_common.h"
#include "explain.h"
#include "keyfile.h"
#include "keysets.h"
#include "number.h"
#include "tables.h"

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
		if ((rc = kb_target_cell(a, &kp, KB_GIVEN(a, FUNC) ? a->func : LKH_FUNC_HASH_PTR,
					 KB_GEN_TODAY)) ||
		    (rc = collect_keys(a, a->keyset, &kp, keys, &read)))
			return rc;
	}
	*n = kb_distinct_keys(*keys, read);
	if (a->keys)
		kb_repeats_note(a->keys, read, *n, 1);
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
	return kb_affordable(a, (double)a->kp.count * ADVISE_NS_PER_KEY / 1e9,
			     kb_count_what(a, what, sizeof(what)));
}

/*
 * The keys of advise and explain, sorted and distinct, and what hashes
 * them (o's func, gen, word, bits and kind): a key set or key file with
 * --func (default hash_ptr) and --bits, a census site (its function, bits
 * and word), or a named table's key model (its function, bits and kind).
 * *name says where they came from.
 */
int kb_cell_keys(struct kb_args *a, struct kb_advise_opts *o, uint64_t **keys,
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
	if (a->keyset >= 0 && (rc = kb_keyset_takes_options(a)))
		return rc;
	memset(o, 0, sizeof(*o));
	o->func = KB_GIVEN(a, FUNC) ? a->func : LKH_FUNC_HASH_PTR;
	/* advise takes no K; explain's cell is made from o and a */
	o->gen = KB_GIVEN(a, GEN) && a->gen != KB_GEN_K ? (lkh_gen)a->gen : KB_GEN_TODAY;
	o->word = a->word;
	o->bits = a->bits;
	o->kind = (enum kb_table_kind)a->kind;
	o->seed = a->kp.seed;
	if (a->keyset >= 0 && (rc = kb_check_heap_memory(a, 1u << a->keyset)))
		return rc;
	if ((a->keyset >= 0 || a->table >= 0) && (rc = cell_keys_affordable(a)))
		return rc;
	rc = a->census       ? advise_site(a, o, keys, n)
	     : a->table >= 0 ? table_keys(a, o, keys, n)
			     : advise_keys(a, keys, n);
	*name = a->keyset >= 0 ? kb_keysets[a->keyset].name : a->keys ? a->keys : a->site_name;
	return rc;
}
