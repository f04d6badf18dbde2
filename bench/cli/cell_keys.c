/* SPDX-License-Identifier: MIT */
/*
 * Where a command's keys come from: the source its command line names,
 * described here and read by kb_keys_open() (io/key_source.c); and the
 * keys of advise and explain with what hashes them.
 */
#include "cli_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh.h>

#include "advise.h"
#include "cmd_common.h"
#include "explain.h"
#include "key_source.h"
#include "keysets.h"
#include "tables.h"

/*
 * The key source a command line names, described in this one place: a
 * census site (--census, --site), a named table's key model (--table at
 * --word, --count, --seed), a key file (--keys, --binary) or a key set
 * (--keyset and its options on --word, an adversarial one built against
 * --func, else hash_ptr, --gen, else today's, and --bits); at most
 * --max-memory / per_key keys (per_key: the bytes a command keeps for
 * each key), each once.  0, or the exit status with the reason said.
 * Only a command that holds every key at once reads through here.  The
 * others do not get keys, they count or stream them: skew and report
 * count a key set as the engine makes it (floor sums count arithmetic
 * sets without making a key), skew reads a key file block by block (a
 * misfit key named where it is read, --keep-duplicates counted as read),
 * hash hashes a file's keys in input order, and keys writes a set as made.
 */
int kb_key_source_of(const struct kb_args *a, unsigned per_key, struct kb_key_source *src)
{
	memset(src, 0, sizeof(*src));
	src->from = a->census	   ? KB_KEYS_SITE
		    : a->table >= 0 ? KB_KEYS_TABLE
		    : a->keys	   ? KB_KEYS_FILE
				   : KB_KEYS_KEYSET;
	src->keyset = a->keyset;
	src->kp = a->kp;
	src->kp.word = a->word;
	src->kp.input_bits = 64;
	src->path = a->keys;
	src->binary = a->binary;
	src->census = a->census;
	src->site = a->site;
	src->table = a->table;
	src->word = a->word;
	src->count = a->kp.count;
	src->seed = a->kp.seed;
	src->max_keys = a->max_memory / per_key;
	src->max_memory = a->max_memory;
	src->distinct = 1;
	src->need_bits = !KB_GIVEN(a, BITS);
	src->who = a->cmd->name;
	if (src->from != KB_KEYS_KEYSET)
		return 0;
	return kb_target_cell(a, &src->kp, KB_GIVEN(a, FUNC) ? a->func : LKH_FUNC_HASH_PTR,
			      KB_GEN_TODAY);
}

/* src's keys into *k, a key file's repeats noted: 0, or the exit status
 * with the reason said. */
int kb_read_keys(const struct kb_key_source *src, struct kb_keys *k)
{
	char err[2048];
	enum kb_keys_fault f = kb_keys_open(src, k, err, sizeof(err));

	if (f != KB_KEYS_OK)
		return kb_fail(f == KB_KEYS_MISUSED ? KB_EXIT_USAGE : KB_EXIT_RUNTIME, "%s", err);
	if (src->from == KB_KEYS_FILE)
		kb_repeats_note(src->path, k->read, k->n, 1);
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
 * and word, and its kind by the census), or a named table's key model
 * (its function, bits and kind); --bits and --kind, given, stay.  k->name
 * says where they came from.
 */
int kb_cell_keys(struct kb_args *a, struct kb_advise_opts *o, struct kb_keys *k)
{
	struct kb_key_source src;
	int rc;

	k->keys = NULL;
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
	/* the keys and the candidates' buckets, 8 bytes each */
	if ((rc = kb_key_source_of(a, 16, &src)) || (rc = kb_read_keys(&src, k)))
		return rc;
	if (k->has_func)
		o->func = k->func;
	if (k->word)
		o->word = k->word;
	if (k->has_func && !KB_GIVEN(a, BITS))
		o->bits = a->bits = k->bits;
	if (k->kind >= 0 && !KB_GIVEN(a, KIND))
		o->kind = (enum kb_table_kind)k->kind;
	return 0;
}
