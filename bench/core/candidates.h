/* SPDX-License-Identifier: MIT */
/*
 * What a table could hash its keys with instead: the hash.h cells (of the
 * key, or of the key shifted right by its alignment, as btrfs did), the
 * kernel's other hashes (jhash, hsiphash, siphash), the key itself, and
 * any odd multiplier a user gives.  One candidate maps a key to a bucket
 * of 2^bits exactly as the kernel expression its name prints would.
 * Over names (a table that reads a string hash, names.h) the candidates
 * are that table's string hash of a generation, and siphash and hsiphash
 * of the name's bytes.
 */
#ifndef KB_CANDIDATES_H
#define KB_CANDIDATES_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh.h>

#include "names.h"

enum kb_cand_kind {
	KB_CAND_HASHH,    /* a hash.h function of (key >> shift) */
	KB_CAND_MULTIPLY, /* (key >> shift) * K, the top bits of a width-bit word */
	KB_CAND_IDENTITY, /* (key >> shift) & (2^bits - 1) */
	KB_CAND_JHASH,    /* jhash_1word, or jhash_2words(lo, hi) for wide keys */
	KB_CAND_HSIPHASH, /* hsiphash_1u32, or hsiphash_2u32(lo, hi) */
	KB_CAND_SIPHASH,  /* siphash_1u64 */
	KB_CAND_STRING,   /* a string table's own hash, of generation sgen */
	KB_CAND_USER,     /* generation U, the user's function (--source): its
			   * buckets come from kb_user_buckets, never from here */
	KB_CAND_KIND_COUNT_
};

struct kb_candidate {
	enum kb_cand_kind kind;
	lkh_func func;       /* KB_CAND_HASHH */
	lkh_gen gen;
	unsigned word;       /* the kernel's BITS_PER_LONG */
	unsigned shift;      /* key >> shift first (HASHH, MULTIPLY, IDENTITY) */
	uint64_t multiplier; /* KB_CAND_MULTIPLY: odd */
	unsigned width;      /* its word, 32 or 64 */
	int wide;            /* JHASH, HSIPHASH: the key takes two u32 words */
	uint64_t seed;       /* the keyed ones: initval / key, from it */
	/* over names: the key is a name; HSIPHASH, SIPHASH hash its bytes */
	const struct kb_string_table *names;
	lkh_sgen sgen;       /* KB_CAND_STRING */
	uint64_t param;      /* KB_CAND_STRING: the table's parameter */
};

/*
 * The candidates that are not hash.h functions, by the name of the kernel
 * function each calls (the key itself: "identity"): one row each, which
 * kb_candidate_expr prints and `hash --func` takes.
 */
struct kb_candidate_name {
	const char *name;
	enum kb_cand_kind kind;
	int wide;
};
extern const struct kb_candidate_name kb_candidate_names[];
extern const size_t kb_candidate_names_count;
/* The row of a name, or -1. */
int kb_candidate_find(const char *name);

/* Keyed: the one choice when whoever picks the keys is an attacker. */
int kb_candidate_keyed(const struct kb_candidate *c);

/* 0, or -1 and a reason why c cannot index 2^bits buckets (bits out of
 * range, an even or zero multiplier, a hash.h function that takes no
 * bits, a shift past the key). */
int kb_candidate_check(const struct kb_candidate *c, unsigned bits, char *err,
		       size_t errlen);

/* Widest key c takes: 32 or 64 bits (after its shift). */
unsigned kb_candidate_input_bits(const struct kb_candidate *c);

/* The bucket of key, 0 .. 2^bits - 1 (c checked, key within its input;
 * not KB_CAND_USER's, which runs elsewhere: kb_user_buckets). */
uint64_t kb_candidate_bucket(const struct kb_candidate *c, unsigned bits,
			     uint64_t key);

/* The bucket of a name of len bytes under a candidate over names (c
 * checked): 0, or -1 and a reason (a name its table refuses). */
int kb_candidate_name_bucket(const struct kb_candidate *c, unsigned bits, const char *name,
			     size_t len, uint64_t *bucket, char *err, size_t errlen);

/* The kernel expression, e.g. "hash_ptr(k >> 6, 10)" or
 * "jhash_2words(lo, hi, initval) & 1023"; returns buf. */
const char *kb_candidate_expr(const struct kb_candidate *c, unsigned bits,
			      char *buf, size_t len);

/* What the candidate is, for the generation column: the hash.h or
 * string-hash generation, "jhash.h", "siphash.c", "K", "--source" or "-". */
const char *kb_candidate_origin(const struct kb_candidate *c);

#endif
