/* SPDX-License-Identifier: MIT */
/*
 * Named tables: the hash tables of real Linux 6.1 call sites, each with
 * the exact key transform, function and bits it uses (cited file:line in
 * the tree linux-source-6.1 installs), so a generation can be judged on
 * the keys a table really sees, after the transforms (some of them old
 * workarounds) the call site applies.  The futex tables (2016's unmerged
 * private hash, 6.12's global table, 6.16's private one) cite their
 * sources in their rows.
 */
#ifndef KB_TABLES_H
#define KB_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh.h>

#include "engine.h"
#include "keysets.h"

#include "stats.h"

/* A dentry in the direct map: the parent of the names of in-lookup-hash
 * and of the dcache (names.c), the same on both words. */
#define KB_DCACHE_PARENT32 (KB_I386_PAGE_OFFSET + 0x3a4e0c0)
#define KB_DCACHE_PARENT64 (KB_X86_64_DIRECT_MAP + 0x3a4e0c0)

/* What a call site does to its key before (or instead of) hashing. */
enum kb_transform {
	KB_TX_NONE,     /* the key as it is */
	KB_TX_SHR16,    /* key >> 16 */
	KB_TX_BITWAIT,  /* word << (BITS_PER_LONG == 32 ? 5 : 6) | bit */
	KB_TX_HASH_MIN, /* hash_32 for keys of 4 bytes or fewer, else hash_long */
	KB_TX_INODE,    /* fs/inode.c hash(sb, hashval), on GOLDEN_RATIO_PRIME */
	KB_TX_XOR,      /* key ^ param, then hashed (ksmbd's proposed fix) */
	KB_TX_DCACHE,   /* hash += parent / L1_CACHE_BYTES, as a u32 */
	/* a futex's user address: jhash2 over its key's words, the offset
	 * in its page as initval, & (2^bits - 1) */
	KB_TX_FUTEX_GLOBAL,  /* words: the mm (a u64), the page's address */
	KB_TX_FUTEX_PRIVATE  /* words: the page's address */
};

struct kb_table {
	const char *name;
	const char *site;       /* file:line in Linux 6.1 */
	const char *formula;    /* what the call site computes */
	lkh_func func;          /* the hash.h function it calls */
	const char *own_hash;   /* or, when not NULL, the other hash it calls
				 * (func then unused): no generation changes it */
	unsigned bits;          /* the table's size, 2^bits (the default where
				 * it is chosen at run time) */
	enum kb_transform tx;
	const char *param;      /* the second argument's name, or NULL */
	uint64_t param32, param64; /* its default on 32- and 64-bit kernels */
	/* the natural key model: a built-in key set, with its base and
	 * stride when they differ from the set's own */
	int keyset;
	uint64_t base32, base64, stride;
	unsigned size;          /* object size, for the sized key sets */
	const char *keys_are;   /* what those keys stand for */
	const char *kernel_keys; /* a kind in tests/data/kernel-keys that
				  * fits, or NULL */
	unsigned size32;        /* object size on 32-bit kernels, where it
				 * differs (0: size) */
	enum kb_table_kind kind; /* what a bucket is: what its skew costs */
};

extern const struct kb_table kb_tables[];
extern const unsigned kb_tables_count;

/* Look a table up by name; -1 when unknown. */
int kb_table_find(const char *name);

/* The default of a table's parameter on a word-bit kernel. */
uint64_t kb_table_param(const struct kb_table *t, unsigned word);

/*
 * The bucket a table puts key in, as generation g (hash.h's, or K: its
 * hash and GOLDEN_RATIO_PRIME K's) on a word-bit kernel
 * with a table of 2^bits: 0, or -1 with a reason (a key or parameter that
 * does not fit the kernel's word, bits out of range).
 */
int kb_table_bucket(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		    unsigned bits, uint64_t key, uint64_t param,
		    uint64_t *bucket, char *err, size_t errlen);

/* 0 if table t takes key and param as generation g (U: if it has a place
 * for the user's function) on a word-bit kernel with 2^bits buckets,
 * without hashing it; else -1 with a reason. */
int kb_table_arg_check(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		       unsigned bits, uint64_t key, uint64_t param, char *err, size_t errlen);

/* The buckets of n keys into out[n], as kb_table_bucket's, generation U's
 * in one run of the user's function: 0, or -1 with a reason and *at the
 * index of the key it names (n: the reason names the key itself). */
int kb_table_buckets(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		     unsigned bits, uint64_t param, const uint64_t *keys, size_t n,
		     uint64_t *out, size_t *at, char *err, size_t errlen);

/* Add n keys to counts[2^bits]; 0, or -1 with a reason naming the key. */
int kb_table_count(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		   unsigned bits, uint64_t param, const uint64_t *keys,
		   size_t n, uint64_t *counts, char *err, size_t errlen);

struct kb_keyset_params;

struct kb_progress;

/* Counts of a built-in key set through the table: 0, or -1 with a reason.
 * *counts is malloc'ed, 2^bits entries.  Keys counted go to progress
 * (NULL: nobody watches). */
int kb_table_count_keyset(const struct kb_table *t, const struct kb_gen *g, unsigned word,
			  unsigned bits, uint64_t param, int keyset,
			  const struct kb_keyset_params *p,
			  struct kb_progress *progress, uint64_t **counts,
			  char *err, size_t errlen);

/* The key set parameters of the table's natural key model (its key set
 * is t->keyset): count keys, seeded, on a word-bit kernel. */
void kb_table_model(const struct kb_table *t, unsigned word, uint64_t count,
		    uint64_t seed, struct kb_keyset_params *kp);

/* The same for the table's natural key model, count keys, seeded. */
int kb_table_count_model(const struct kb_table *t, const struct kb_gen *g, unsigned word,
			 unsigned bits, uint64_t param, uint64_t count,
			 uint64_t seed, uint64_t **counts, char *err,
			 size_t errlen);

#endif
