/* SPDX-License-Identifier: MIT */
/*
 * Does a user's bucket function reproduce a cell of hash.h, and if not,
 * what does it do to a table?  The user's function is called only by
 * kb_user_eval, which fills a table of its values; whoever calls that
 * runs it where a crash or an endless loop cannot take the program down
 * (io/user_hash.c: a child process).  Everything else here reads that
 * table and compares it with libkhash, so it never runs the user's code.
 */
#ifndef KB_CONFORM_H
#define KB_CONFORM_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh.h>

#include "stats.h"

/* A user's bucket function: the bucket of key x in a table of 2^bits. */
typedef uint64_t (*kb_user_fn)(uint64_t x, unsigned bits);

/* The call under way, written before each call: what a crash report
 * names. */
struct kb_user_at {
	volatile uint64_t key;
	volatile unsigned bits;
};

/* out[i * (hi - lo + 1) + b - lo] := fn(keys[i], b) for every bits b in
 * lo..hi, keys in order, each bits in order. */
void kb_user_eval(kb_user_fn fn, const uint64_t *keys, size_t n, unsigned lo, unsigned hi,
		  uint64_t *out, struct kb_user_at *at);

/*
 * The keys conform checks, in one array: first 1 and 2^32 (a multiply's
 * multiplier reads off them), the golden vectors' swept inputs, 2^j and
 * 2^j - 1, runs of page, slab and small keys, random 64- and 32-bit keys;
 * then KB_CONFORM_FLIP_BASES random keys, each followed by its 64
 * one-bit flips (which input bits ever move a bucket).
 */
#define KB_CONFORM_FLIP_BASES 16
struct kb_conform_keys {
	uint64_t *keys;
	size_t n;       /* all of them */
	size_t n_plain; /* those before the flips */
};
/* 0, or -1 (out of memory). */
int kb_conform_keys_make(struct kb_conform_keys *k, uint64_t seed);
void kb_conform_keys_free(struct kb_conform_keys *k);

/* One cell of hash.h compared with the user's function. */
struct kb_conform_target {
	lkh_gen gen;
	lkh_func func;
	unsigned word;
	unsigned bits_max;         /* the kernel's, 32 or 64 */
	unsigned bits_to;          /* compared at 1..bits_to (the user's
				    * values may stop at 32) */
	uint64_t keys, keys_differ; /* keys that fit its argument; those
				     * differing at some bits */
	uint64_t checks, mirrored;  /* (key, bits) compared; those where the
				     * user's bucket is the kernel's mirrored:
				     * 2^bits - 1 - b, or -b mod 2^bits */
	uint64_t first_key, got, want; /* the first difference, in key order */
	unsigned first_bits;
};

/* The functions with bits a cell is compared for, at most. */
#define KB_CONFORM_FUNCS 4
#define KB_CONFORM_MAX_TARGETS (LKH_GEN_COUNT * KB_CONFORM_FUNCS * 2)

/* What the user's function does with keys from the built-in key sets. */
#define KB_CONFORM_COST_KEYS 4096
#define KB_CONFORM_COST_BITS_LO 8
#define KB_CONFORM_COST_BITS_HI 12
struct kb_conform_cost {
	int keyset;
	uint64_t n;
	unsigned worst_bits;      /* where its cost over a random function's is worst */
	double ratio, kernel_ratio; /* that cost ratio; the kernel's, same keys and bits */
	struct kb_skew skew;      /* its table at worst_bits */
};

/* The table sizes judged for buckets used and results past the table:
 * 2^1..2^32 (a table of more is not a kernel's; a 32-bit function's
 * shift is undefined beyond). */
#define KB_CONFORM_TABLE_BITS 32
struct kb_conform {
	struct kb_conform_target t[KB_CONFORM_MAX_TARGETS];
	size_t nt;
	unsigned bits_hi;          /* the user's values cover bits 1..bits_hi */
	/* distinct buckets of the plain keys at bits 1..KB_CONFORM_TABLE_BITS
	 * and what a random function fills; the first bits (10 if it is one)
	 * where the function fills under half of that, or 0 */
	uint64_t n_distinct_keys;
	uint64_t distinct[KB_CONFORM_TABLE_BITS + 1];
	double distinct_random[KB_CONFORM_TABLE_BITS + 1];
	unsigned degenerate_bits;
	/* results that are no bucket of the table (>= 2^bits, bits
	 * 1..KB_CONFORM_TABLE_BITS): how many, the first */
	uint64_t out_of_range, oor_key, oor_value;
	unsigned oor_bits;
	uint64_t dead_inputs;      /* input bits whose flip never moved a bucket */
	/* a plain multiply, top bits kept at bits 1..32: its multiplier and
	 * width (0: not one) */
	uint64_t k;
	unsigned k_width;
	struct kb_conform_cost cost[16];
	size_t ncost;
};

/* Mask bits of the functions and words compared: func_mask over lkh_func,
 * word_mask 1 (32-bit) | 2 (64-bit). */
/*
 * Judge the user's values (vals: keys->n rows of bits 1..bits_hi, as
 * kb_user_eval writes them) against every cell of hash.h whose function
 * takes bits and whose function and word the masks allow.
 */
void kb_conform_judge(const struct kb_conform_keys *keys, const uint64_t *vals,
		      unsigned bits_hi, unsigned func_mask, unsigned word_mask,
		      struct kb_conform *c);

/* Does target t reproduce the function bit for bit, at every bits the
 * kernel allows? */
int kb_conform_reproduces(const struct kb_conform_target *t);

/* Does c hold a cell of generation gen (-1: any) that it reproduces? */
int kb_conform_passes(const struct kb_conform *c, int gen);

/* Did every comparison of t find the kernel's bucket mirrored? */
int kb_conform_mirrored(const struct kb_conform_target *t);

/* The key sets whose cost conform prices (no heap sets, which vary run to
 * run, and no per-cell set): a mask over enum kb_keyset_id. */
unsigned kb_conform_cost_keysets(void);

/*
 * The cost of one key set's keys (n of them) through the user's values
 * (vals: n rows of bits KB_CONFORM_COST_BITS_LO..HI) beside today's
 * hash_long on a word-bit kernel: the worst bits of the user's, counted
 * in counts (2^KB_CONFORM_COST_BITS_HI, scratch).
 */
void kb_conform_cost_of(int keyset, const uint64_t *keys, size_t n, const uint64_t *vals,
			unsigned word, uint64_t *counts, struct kb_conform_cost *c);

/* A known multiplier K (width w) is: "GOLDEN_RATIO_64" and the like in
 * *name, with *delta such that K = delta - C mod 2^w (negated, delta
 * 0..2) or K = C (*delta -1); 0 when K is none of them. */
int kb_conform_known_k(uint64_t k, unsigned width, const char **name, int *delta);

#endif
