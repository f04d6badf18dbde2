/* SPDX-License-Identifier: MIT */
/*
 * Where a command's keys come from, and the one reader of them all: a
 * built-in key set, a key file, a census site or a named table's key
 * model, each read whole into memory.  A command describes its source
 * (struct kb_key_source) and calls kb_keys_open() once; it gets the keys,
 * how many were read and how many are distinct, what hashes them where
 * the source says (a site's or a table's function, bits, word and kind)
 * and a name for where they came from.  Streams that never hold every key
 * (hash, keys, skew's key file read block by block) are not read here.
 */
#ifndef KB_KEY_SOURCE_H
#define KB_KEY_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh.h>

#include "keysets.h"

enum kb_key_from {
	KB_KEYS_KEYSET, /* a built-in key set, made here */
	KB_KEYS_FILE,   /* a key file, text or binary */
	KB_KEYS_SITE,   /* a census site's first inputs */
	KB_KEYS_TABLE,  /* a named table's key model, through its shift */
};

struct kb_key_source {
	enum kb_key_from from;
	int keyset;                  /* KEYSET: its id, */
	struct kb_keyset_params kp;  /* its count, seed, ... and target cell */
	const char *path;            /* FILE: as given, "-" standard input */
	int binary;                  /* FILE: little-endian u64, not text */
	const char *census;          /* SITE: the census file, */
	const char *site;            /* and the site: its id or FILE:LINE */
	int table;                   /* TABLE: an index into kb_tables, */
	unsigned word;               /* its model's word, count and seed */
	uint64_t count, seed;
	uint64_t max_keys;           /* refuse more keys than this, */
	uint64_t max_memory;         /* the --max-memory it was drawn from
				      * (bytes), for messages */
	int distinct;                /* keys sorted, each once; else as read */
	int need_bits;               /* SITE: no --bits, so the site must
				      * record its table's size */
	const char *who;             /* TABLE: the command, for messages */
};

struct kb_keys {
	uint64_t *keys;     /* malloc()ed: kb_keys_free() */
	size_t read;        /* keys read, repeats too */
	size_t n;           /* keys in keys: the distinct ones if asked */
	/* what hashes them, where the source says so (SITE, TABLE) */
	int has_func;
	lkh_func func;
	unsigned bits;      /* 0: the source records none */
	unsigned word;      /* 0: the source's word is the caller's */
	int kind;           /* enum kb_table_kind, or -1: the source says none */
	const char *name;   /* where they came from: the key set's name, the
			     * path as given, or where below */
	char where[160];
};

/* Whose the failure is: the command line's (usage) or the run's. */
enum kb_keys_fault { KB_KEYS_OK, KB_KEYS_FAILED, KB_KEYS_MISUSED };

/*
 * Read src's keys into *k: KB_KEYS_OK, or a fault with a one-line reason
 * in err (k then holds no keys).  k->name points into k or src: it lives
 * while both do, unmoved.
 */
enum kb_keys_fault kb_keys_open(const struct kb_key_source *src, struct kb_keys *k,
				char *err, size_t errlen);
void kb_keys_free(struct kb_keys *k);

#endif
