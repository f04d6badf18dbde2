/* SPDX-License-Identifier: MIT */
/*
 * Every source of keys read whole: a key set, a key file, a census site,
 * a named table's key model (key_source.h).
 */
#include "key_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census.h"
#include "census_atlas.h"
#include "census_file.h"
#include "hashspec.h"
#include "keyfile.h"
#include "number.h"
#include "tables.h"

/* The readers' own reasons are cut where the commands always cut them. */
#define READER_ERR 512

static enum kb_keys_fault fail(char *err, size_t errlen, enum kb_keys_fault f,
			       const char *why)
{
	snprintf(err, errlen, "%s", why);
	return f;
}

/* A key set's keys, within the limit (weighed before any key is made). */
static enum kb_keys_fault collect(const struct kb_key_source *src, int id,
				  const struct kb_keyset_params *kp, struct kb_keys *k,
				  char *err, size_t errlen)
{
	char why[READER_ERR];

	if (kp->count > src->max_keys) {
		snprintf(err, errlen, "--count %llu: the keys need more than the --max-memory limit of %llu MiB",
			 (unsigned long long)kp->count,
			 (unsigned long long)(src->max_memory >> 20));
		return KB_KEYS_FAILED;
	}
	if (kb_keyset_collect(id, kp, &k->keys, &k->read, why, sizeof(why)) < 0)
		return fail(err, errlen, KB_KEYS_FAILED, why);
	return KB_KEYS_OK;
}

/* A named table's key model, through its transform where that is a shift. */
static enum kb_keys_fault table_keys(const struct kb_key_source *src, struct kb_keys *k,
				     char *err, size_t errlen)
{
	const struct kb_table *t = &kb_tables[src->table];
	struct kb_keyset_params kp;
	enum kb_keys_fault rc;
	size_t i;

	if (t->own_hash) {
		snprintf(err, errlen, "--table %s hashes with %s, not hash.h (%s); %s takes tables that hash the key with hash.h, as it is or shifted",
			 t->name, t->own_hash, t->formula, src->who);
		return KB_KEYS_MISUSED;
	}
	if (t->tx != KB_TX_NONE && t->tx != KB_TX_SHR16) {
		snprintf(err, errlen, "--table %s: its key goes through more than a shift before %s (%s); %s takes tables that hash the key as it is or shifted",
			 t->name, lkh_func_name(t->func), t->formula, src->who);
		return KB_KEYS_MISUSED;
	}
	kb_table_model(t, src->word, src->count, src->seed, &kp);
	if ((rc = collect(src, t->keyset, &kp, k, err, errlen)))
		return rc;
	for (i = 0; t->tx == KB_TX_SHR16 && i < k->read; i++)
		k->keys[i] >>= 16;
	k->has_func = 1;
	k->func = t->func;
	k->bits = t->bits;
	k->kind = (int)t->kind;
	snprintf(k->where, sizeof(k->where), "table %s (%s, %s)", t->name, t->formula,
		 t->keys_are);
	k->name = k->where;
	return KB_KEYS_OK;
}

/*
 * A census site's first inputs and what it hashes them with: its
 * function, its bits, its file's word, and the kind of table the census
 * says it picks in.
 */
static enum kb_keys_fault site_keys(const struct kb_key_source *src, struct kb_keys *k,
				    char *err, size_t errlen)
{
	struct kb_census_file f;
	const struct kb_census_site *s = NULL;
	enum kb_keys_fault rc = KB_KEYS_OK;
	char why[READER_ERR];
	uint64_t id;
	/* an id is a number and nothing else (strtoul took " +5"): any other
	 * text is a FILE:LINE */
	int by_id = kb_parse_u64(src->site, &id);
	size_t i;

	if (kb_census_read(src->census, &f, why, sizeof(why)) < 0)
		return fail(err, errlen, KB_KEYS_FAILED, why);
	for (i = 0; i < f.nsites; i++) {
		const struct kb_census_site *c = &f.sites[i];

		if (by_id ? c->id != id : strcmp(c->where, src->site) != 0)
			continue;
		if (s) {
			snprintf(err, errlen, "%s: sites %lu and %lu are both at %s: give an id",
				 src->census, s->id, c->id, src->site);
			rc = KB_KEYS_MISUSED;
			break;
		}
		s = c;
	}
	if (!rc && !s) {
		snprintf(err, errlen, "%s: no site %s (see 'khash-bench census %s')", src->census,
			 src->site, src->census);
		rc = KB_KEYS_MISUSED;
	}
	if (!rc && s->func >= LKH_FUNC_COUNT) {
		snprintf(err, errlen, "site %lu (%s) hashes two inputs with %s: advise takes a site of one key",
			 s->id, s->where, kb_census_func_name(s->func));
		rc = KB_KEYS_MISUSED;
	}
	if (!rc && src->need_bits && (s->bits < 1 || s->bits > 32)) {
		snprintf(err, errlen, "site %lu (%s) records no table size: give --bits", s->id,
			 s->where);
		rc = KB_KEYS_MISUSED;
	}
	if (!rc && !(k->keys = malloc((s->nkeys ? s->nkeys : 1) * sizeof(*k->keys))))
		rc = fail(err, errlen, KB_KEYS_FAILED, "out of memory");
	if (!rc) {
		struct kb_census_kind kind;
		char kernel[64];

		for (i = 0; i < s->nkeys; i++)
			k->keys[i] = s->keys[i].a;
		k->read = s->nkeys;
		k->has_func = 1;
		k->func = (lkh_func)s->func;
		k->word = f.word;
		k->bits = s->bits;
		kb_census_kind_of(kb_census_kernel(&f, kernel, sizeof(kernel)) ? kernel : NULL,
				  s->where, s->func, &kind);
		if (kind.kind >= 0 && kind.kind < KB_KIND_COUNT_)
			k->kind = kind.kind;
		snprintf(k->where, sizeof(k->where), "site %lu %s", s->id, s->where);
		k->name = k->where;
	}
	kb_census_file_free(&f);
	return rc;
}

enum kb_keys_fault kb_keys_open(const struct kb_key_source *src, struct kb_keys *k,
				char *err, size_t errlen)
{
	enum kb_keys_fault rc;
	char why[READER_ERR];

	memset(k, 0, sizeof(*k));
	k->kind = -1;
	switch (src->from) {
	case KB_KEYS_KEYSET:
		rc = collect(src, src->keyset, &src->kp, k, err, errlen);
		k->name = kb_keysets[src->keyset].name;
		break;
	case KB_KEYS_FILE:
		rc = kb_keyfile_read_all(src->path, src->binary, src->max_keys, &k->keys, &k->read,
					 why, sizeof(why)) < 0
			     ? fail(err, errlen, KB_KEYS_FAILED, why)
			     : KB_KEYS_OK;
		k->name = src->path;
		break;
	case KB_KEYS_SITE:
		rc = site_keys(src, k, err, errlen);
		break;
	default:
		rc = table_keys(src, k, err, errlen);
		break;
	}
	if (rc) {
		kb_keys_free(k);
		return rc;
	}
	k->n = src->distinct ? kb_distinct_keys(k->keys, k->read) : k->read;
	return KB_KEYS_OK;
}

void kb_keys_free(struct kb_keys *k)
{
	free(k->keys);
	k->keys = NULL;
	k->n = k->read = 0;
}
