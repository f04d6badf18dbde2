/* SPDX-License-Identifier: MIT */
/*
 * A cell: one (function, generation, word size) the engine counts keys
 * through into 2^bits buckets.  Every function here keeps the top bits of
 * one word, so words are computed once, top-aligned to 64 bits, and a
 * histogram for fewer bits is the sum of adjacent buckets (kb_fold).
 */
#ifndef KB_HASHSPEC_H
#define KB_HASHSPEC_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh.h>
#include <khash/lkh_table.h>

struct kb_skew;

/*
 * khash-bench's generations: hash.h's four (lkh_gen, in release order),
 * then K, a multiplier of the user's (--multiplier): the function's
 * argument times K mod 2^width, its top bits.  That is hash.h's one-
 * multiply hash with K in place of the golden ratio, on every function and
 * word alike (no 32-bit kernel's two-multiply hash_64): what K does to
 * the keys, and nothing else.
 */
#define KB_GEN_K ((int)LKH_GEN_COUNT)
/*
 * Then U, a user's bucket function (--source, --call), named after it.
 * It is no multiply and cannot run here: its buckets come from its eval
 * (io/user_hash.c runs it in a child process), one table size at a time,
 * since a bucket index for bits b says nothing of bits b - 1 (no kb_fold).
 */
#define KB_GEN_USER ((int)LKH_GEN_COUNT + 1)
#define KB_GEN_COUNT (LKH_GEN_COUNT + 2)
/* Today's generation, what a cell is judged under unless told: the
 * newest of lkh_table.h's rows (oldest first), so a generation added
 * there is today's everywhere here. */
#define KB_GEN_TODAY ((lkh_gen)(LKH_GEN_COUNT - 1))

struct kb_hashspec {
	lkh_func func;
	lkh_gen gen;        /* when k_width is 0 */
	unsigned word;
	uint64_t k;         /* generation K: the odd multiplier */
	unsigned k_width;   /* its word, 32 or 64; 0: hash.h's generation */
	int user;           /* generation U: the registered user function */
};

/*
 * Generation U's function: its name, and how its buckets and its time are had.
 * eval(ctx, keys, n, lo, hi, out, ...) fills out[i * (hi - lo + 1) + b -
 * lo] with the bucket of keys[i] in 2^b buckets, b = lo..hi: 0, or -1 and
 * a one-line reason naming the key and bits where it failed.
 */
struct kb_user_gen {
	char name[64];
	const char *call;   /* the expression, as given (--call) */
	int (*eval)(void *ctx, const uint64_t *keys, size_t n, unsigned lo, unsigned hi,
		    uint64_t *out, char *err, size_t errlen);
	/* its time as eval's callers pay it: rounds rounds over keys at bits,
	 * about seconds in all, ns per call of each into ns[]; 0, or -1 and
	 * a reason */
	int (*time)(void *ctx, const uint64_t *keys, size_t n, unsigned bits, unsigned rounds,
		    double seconds, double *ns, char *err, size_t errlen);
	/* optional: the skews kb_user_skews makes, made where the function
	 * runs (its buckets never leave it); 0, or -1 and a reason */
	int (*skews)(void *ctx, const uint64_t *keys, size_t n, unsigned lo, unsigned hi,
		     struct kb_skew *out, char *err, size_t errlen);
	void *ctx;
};

/* Make u generation U for the rest of the run (NULL: none); one user
 * function a run, as one --source is. */
void kb_user_gen_set(const struct kb_user_gen *u);
const struct kb_user_gen *kb_user_gen_get(void);

/* A generation as a command takes it: hash.h's (gen an lkh_gen), or K
 * (gen KB_GEN_K) with its multiplier and width (0: for each argument,
 * kb_multiplier_width's). */
struct kb_gen {
	int gen;
	uint64_t k;
	unsigned width;
};

/* hash.h's generation g, as a struct kb_gen. */
#define KB_GEN_OF(g) (&(const struct kb_gen){ (int)(g), 0, 0 })

/* s := func on a word-bit kernel under generation g. */
void kb_hashspec_make(struct kb_hashspec *s, lkh_func func, unsigned word,
		      const struct kb_gen *g);

/* The generation of a cell, as a struct kb_gen (K's width resolved). */
void kb_hashspec_kb_gen(const struct kb_hashspec *s, struct kb_gen *g);

/* GOLDEN_RATIO_PRIME as g has it on a word-bit kernel: hash.h's, or K in
 * its place (its low word bits: the kernel's unsigned long). */
uint64_t kb_gen_golden_ratio_prime(const struct kb_gen *g, unsigned word);

/* The generation of a cell: an lkh_gen, or KB_GEN_K. */
int kb_hashspec_gen(const struct kb_hashspec *s);

/* Make s a cell of generation g (KB_GEN_K: the multiplier k of width
 * k_width, both ignored for hash.h's generations). */
void kb_hashspec_set_gen(struct kb_hashspec *s, int g, uint64_t k,
			 unsigned k_width);

/* "old" .. "new", "K", U's function's name ("user" before one is set);
 * NULL for no generation. */
const char *kb_gen_name(int g);

/* The name of a cell's generation. */
const char *kb_hashspec_gen_name(const struct kb_hashspec *s);

/* A generation name ("K" too) to its number: 0, or -1. */
int kb_gen_from_name(const char *name, int *g);

/* The width --multiplier K takes when --width is not given: the wider of
 * K's own (32 when it fits) and the argument's (input_bits). */
unsigned kb_multiplier_width(uint64_t k, unsigned input_bits);

/* 0 if K can be generation K's multiplier at width: odd, fits; else -1 and
 * a reason. */
int kb_multiplier_check(uint64_t k, unsigned width, char *err, size_t errlen);

/* 0 if spec and bits are valid for bucket counting; else -1 and a reason. */
int kb_hashspec_check(const struct kb_hashspec *s, unsigned bits, char *err,
		      size_t errlen);

/* When a cell's word is one multiply (hash.h's single-multiply cells, the
 * old chain, generation K): its width, 32 or 64, and *k the multiplier;
 * else 0. */
unsigned kb_hashspec_single_multiply(const struct kb_hashspec *s, uint64_t *k);

/* Width of the function's argument: 32 or 64. */
unsigned kb_hashspec_input_bits(const struct kb_hashspec *s);

/* Index of the first key wider than input_bits, or n when all fit. */
size_t kb_first_misfit(const uint64_t *keys, size_t n, unsigned input_bits);

/* Sort keys and keep one of each (a table holds an object once): the
 * number kept, O(n log n). */
size_t kb_distinct_keys(uint64_t *keys, size_t n);

/* Sort n u64 ascending. */
void kb_sort_u64(uint64_t *v, size_t n);

/* Top-aligned hash words: the result for b bits is out[i] >> (64 - b). */
void kb_full_words(const struct kb_hashspec *s, const uint64_t *keys,
		   size_t n, uint64_t *out);

/* The same for keys first, first + stride, ... (n of them, mod 2^64). */
void kb_full_words_progression(const struct kb_hashspec *s, uint64_t first,
			       uint64_t stride, size_t n, uint64_t *out);

/* Add n keys to counts[2^bits]. */
void kb_count_block(const struct kb_hashspec *s, unsigned bits,
		    const uint64_t *keys, size_t n, uint64_t *counts);

/*
 * Generation U's counts: n keys through the user's function into
 * counts[b - lo] (2^b each, zeroed by the caller) for b = lo..hi, each
 * size evaluated on its own.  A bucket past the table is an error naming
 * key and bits.  0, or -1 with a reason.
 */
int kb_user_count(unsigned lo, unsigned hi, const uint64_t *keys, size_t n,
		  uint64_t *const *counts, char *err, size_t errlen);

/* The first of n buckets past a table of 2^bits, or n. */
size_t kb_first_past(const uint64_t *buckets, size_t n, unsigned bits);

/* The one line that says bucket v of key is past a table of 2^bits. */
void kb_past_text(uint64_t v, uint64_t key, unsigned bits, char *err, size_t errlen);

/* The skew of a table of 2^bits (at most 32) holding n buckets (each
 * within it), from counts (2^bits zeros, left zero) and buckets (made
 * its loads): the cost of the keys, not of the table. */
void kb_skew_of_buckets(uint64_t *buckets, size_t n, unsigned bits, uint32_t *counts,
			struct kb_skew *out);

/* Generation U's skew at every bits lo..hi (hi at most 32) of n keys into
 * out[b - lo], from their buckets held at once (n (hi - lo + 1) values of
 * at most 2^22, else an error): the cost of the keys, not of the tables.
 * 0, or -1 with a reason (as kb_user_count). */
int kb_user_skews(unsigned lo, unsigned hi, const uint64_t *keys, size_t n,
		  struct kb_skew *out, char *err, size_t errlen);

/* Generation U's buckets of n keys in 2^bits buckets, into out[n]: 0, or
 * -1 with a reason (as kb_user_count). */
int kb_user_buckets(unsigned bits, const uint64_t *keys, size_t n, uint64_t *out, char *err,
		    size_t errlen);

/* Halve a histogram of 2^bits buckets in place (bits >= 1). */
void kb_fold(uint64_t *counts, unsigned bits);

#endif
