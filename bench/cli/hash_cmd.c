/* SPDX-License-Identifier: MIT */
/*
 * khash-bench hash: each key's hash or bucket, in input order, as the
 * kernel computes it, for a hash.h function, a named table or a candidate,
 * or as a user's function (--source) does in the hash.h function's place.
 */
#include "cli_args.h"

#include <stdlib.h>
#include <string.h>

#include <khash/lkh.h>

#include "candidates.h"
#include "cmd_common.h"
#include "keyfile.h"
#include "output.h"
#include "tables.h"

/* Generation U's keys wait for one run of the user's function until there
 * are this many: a run (a child process) costs about a millisecond here,
 * which a block of the key file's would pay every 4096 keys. */
#define HASH_USER_KEYS (16 * KB_KEYFILE_EACH)

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
	uint64_t *pend, *out;       /* U: keys waiting for a run, their buckets */
	size_t npend;
	uint64_t pend_done;         /* the keys read before the first of them */
	char name[512];             /* the file's name for messages */
};

/* The buckets of n keys, keys[0] the key file's key done + 1, into words[n]. */
static int buckets_of(struct hash_run *h, const char *name, const uint64_t *keys, size_t n,
		      uint64_t done, uint64_t *words)
{
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
		if (kb_table_buckets(h->t, &h->kg, h->a->word, h->a->bits, h->a->param, keys, n,
				     words, &i, err, sizeof(err)) < 0)
			return kb_fail(KB_EXIT_RUNTIME, "%s: %s",
				       i < n ? kb_key_place(h->path, h->a->binary, name, done + i + 1,
							    where, sizeof(where))
					     : name,
				       err);
	} else {
		if ((rc = kb_check_fit(&h->s, keys, n, done, h->path, h->a->binary, name)))
			return rc;
		if (h->s.user) { /* the bucket itself, from one run of the function */
			if (kb_user_buckets(h->a->bits, keys, n, words, err, sizeof(err)) < 0)
				return kb_fail(KB_EXIT_RUNTIME, "%s: %s", name, err);
		} else {
			kb_full_words(&h->s, keys, n, words);
			for (i = 0; i < n; i++)
				words[i] >>= 64 - h->a->bits;
		}
	}
	return 0;
}

/* U's waiting keys, through one run of the function, then written. */
static int flush_user(struct hash_run *h)
{
	char err[512];
	int rc;

	if (!h->npend)
		return 0;
	if ((rc = buckets_of(h, h->name, h->pend, h->npend, h->pend_done, h->out)))
		return rc;
	if (kb_keywriter_put(&h->w, h->out, h->npend, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	h->npend = 0;
	return 0;
}

static int hash_block(void *ctx, const char *name, const uint64_t *keys, size_t n,
		      uint64_t done)
{
	struct hash_run *h = ctx;
	uint64_t words[KB_KEYFILE_EACH];
	char err[512];
	int rc;

	if (h->pend) {
		if (h->npend + n > HASH_USER_KEYS && (rc = flush_user(h)))
			return rc;
		if (!h->npend) {
			h->pend_done = done;
			snprintf(h->name, sizeof(h->name), "%s", name);
		}
		memcpy(h->pend + h->npend, keys, n * sizeof(*keys));
		h->npend += n;
		return 0;
	}
	if ((rc = buckets_of(h, name, keys, n, done, words)))
		return rc;
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

	if (row && (KB_GIVEN(a, GEN) || KB_GIVEN(a, MULTIPLIER) || KB_GIVEN(a, SOURCE)))
		return kb_fail(KB_EXIT_USAGE, "--%s: %s is not a hash.h function: it has no generation",
			       KB_GIVEN(a, GEN) ? "gen" : KB_GIVEN(a, MULTIPLIER) ? "multiplier" : "source",
			       row->name);
	if (KB_GIVEN(a, SEED) && (!row || row->kind == KB_CAND_IDENTITY))
		return kb_fail(KB_EXIT_USAGE, "--seed applies to jhash, hsiphash and siphash");
	if (KB_GIVEN(a, SHIFT) && (a->table >= 0 || KB_GIVEN(a, MULTIPLIER) || KB_GIVEN(a, SOURCE) ||
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
	/* a table whose hash is not hash.h's (jhash2) has no generation */
	if (a->table >= 0 && kb_tables[a->table].own_hash)
		rc = KB_GIVEN(a, GEN) || KB_GIVEN(a, MULTIPLIER)
			     ? kb_fail(KB_EXIT_USAGE, "--%s: table %s hashes with %s: it has no generation",
				       KB_GIVEN(a, GEN) ? "gen" : "multiplier", kb_tables[a->table].name,
				       kb_tables[a->table].own_hash)
			     : need_candidate_args(a, h);
	else if (!a->cand && !KB_GIVEN(a, GEN) && !KB_GIVEN(a, MULTIPLIER) && !KB_GIVEN(a, SOURCE))
		rc = kb_fail(KB_EXIT_USAGE, "hash needs --gen, --multiplier or --source");
	else
		rc = need_candidate_args(a, h);
	if (rc || (h->cand ? 0
		   : a->table >= 0 ? (rc = kb_need_table_args(a, &h->t))
				   : (rc = kb_need_cell_args(a, &h->s)))) {
		free(h);
		return rc;
	}
	if (kb_keywriter_open(&h->w, a->output, 0, err, sizeof(err)) < 0) {
		free(h);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	h->path = a->n_operands ? a->operands[0] : "-";
	if (!h->cand && a->gen == KB_GEN_USER &&
	    (!(h->pend = malloc(HASH_USER_KEYS * sizeof(*h->pend))) ||
	     !(h->out = malloc(HASH_USER_KEYS * sizeof(*h->out))))) {
		rc = kb_fail(KB_EXIT_RUNTIME, "out of memory");
	} else {
		rc = kb_keyfile_each(h->path, a->binary, hash_block, h, err, sizeof(err));
		if (rc < 0)
			rc = kb_fail(KB_EXIT_RUNTIME, "%s", err);
		else if (!rc)
			rc = flush_user(h);
	}
	if (rc)
		kb_keywriter_abort(&h->w);
	else if (kb_keywriter_commit(&h->w, err, sizeof(err)) < 0)
		rc = kb_fail(KB_EXIT_RUNTIME, "%s", err);
	free(h->pend);
	free(h->out);
	free(h);
	return rc;
}
