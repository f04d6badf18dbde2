/* SPDX-License-Identifier: MIT */
/*
 * "What should this table hash with?": every candidate (candidates.h) over
 * one set of distinct keys and one table size, ranked by what its skew
 * costs the table (stats.h), with the structure of the keys that explains
 * the hash.h cell's cost, and the one candidate the advice names.
 */
#ifndef KB_ADVISE_H
#define KB_ADVISE_H

#include <stddef.h>
#include <stdint.h>

#include "candidates.h"
#include "stats.h"

#define KB_ADVISE_MAX 16
/* Standard deviations of a random function's ratio that make a tie. */
#define KB_ADVISE_SDS KB_NOISE_SDS
/* Other layouts of the keys a change of hash must win, and the share of
 * them that makes a clear majority: 3 in 4. */
#define KB_ADVISE_RELAYOUTS 200
#define KB_ADVISE_CLEAR 0.75
/* Fewer for many keys: relayouts x keys stays below this, and at least
 * this many. */
#define KB_ADVISE_RELAYOUT_KEYS (UINT64_C(200) << 17)
#define KB_ADVISE_RELAYOUTS_MIN 20

/*
 * The candidates advise ranks beside the table's own hash, by family:
 * X(id, name).  new: today's generation of the table's function (over
 * names: the string hash's other generations); shift: the key shifted by
 * its stride's low zero bits (under the table's generation and new);
 * hash_32: where the keys fit 32 bits; source: the user's function
 * (--source, generation U), where there is one.  Over names only new,
 * hsiphash and siphash apply (of the name's bytes).
 */
#define KB_ADVISE_FAMILIES(X)             \
	X(KB_FAMILY_NEW, "new")           \
	X(KB_FAMILY_SHIFT, "shift")       \
	X(KB_FAMILY_HASH32, "hash_32")    \
	X(KB_FAMILY_IDENTITY, "identity") \
	X(KB_FAMILY_JHASH, "jhash")       \
	X(KB_FAMILY_HSIPHASH, "hsiphash") \
	X(KB_FAMILY_SIPHASH, "siphash")   \
	X(KB_FAMILY_SOURCE, "source")

enum kb_advise_family {
#define KB_FAMILY_ENUM_(id, name) id,
	KB_ADVISE_FAMILIES(KB_FAMILY_ENUM_)
#undef KB_FAMILY_ENUM_
	KB_FAMILY_COUNT_
};

/* A family's name, and the family of a name (-1: none). */
const char *kb_advise_family_name(int family);
int kb_advise_family_find(const char *name);

struct kb_advise_opts {
	lkh_func func;   /* what the table hashes with now */
	lkh_gen gen;
	unsigned word;   /* the kernel's BITS_PER_LONG */
	unsigned bits;   /* 2^bits buckets, 1..32 */
	enum kb_table_kind kind;
	uint64_t multiplier; /* a candidate of the user's own; 0: none */
	unsigned width;      /* its word, 32 or 64 */
	uint64_t seed;       /* the keyed candidates' key and jhash's initval */
	unsigned families;   /* 1 << enum kb_advise_family; 0: all */
	/* over names (kb_advise_over_names): the table, its string generation now
	 * and its parameter */
	const struct kb_string_table *table;
	lkh_sgen sgen;
	uint64_t param;
};

struct kb_advice_row {
	struct kb_candidate cand;
	struct kb_skew skew;
	double cost, random, ratio; /* kb_cost_for() for the table's kind */
	int current;                /* the table's own hash */
	unsigned same_sgens;        /* names: the other string generations
				     * that put every name where this row does
				     * (1 << lkh_sgen), folded into it */
};

struct kb_advice {
	unsigned bits, word;
	enum kb_table_kind kind;
	int names;           /* over names: min and max are their lengths,
			      * there are no re-layouts, and no stride */
	uint64_t n;          /* distinct keys */
	uint64_t min, max;
	unsigned align;      /* every key is a multiple of 2^align */
	uint64_t gcd;        /* of the keys' differences (0: one key) */
	unsigned shift;      /* the stride's low zero bits: ctz(gcd) */
	size_t nrows;
	struct kb_advice_row rows[KB_ADVISE_MAX]; /* cheapest first */
	double noise;        /* a random function's cost ratio: its standard
			      * deviation at this load (kb_cost_ratio_sd) */
	double tie;          /* ratios closer than this are a tie, broken by
			      * the cheaper arithmetic: KB_ADVISE_SDS noises */
	size_t current;      /* the row of the table's own hash */
	size_t pick;         /* the cheapest row that mixes the key (not the
			      * key itself, which only these keys suit, nor
			      * a past generation of a string hash) */
	unsigned unit;       /* re-layouts move runs of keys by 2^unit bytes */
	size_t runs;         /* the runs: keys at most 2^unit apart */
	unsigned relayouts;  /* made (0: the keys favour no change) */
	unsigned wins;       /* of them, where the pick costs less than now */
	int change;          /* the advice: the pick (1) or the table's own */
};

/*
 * Rank every candidate over keys[0..n) (sorted and distinct, as
 * kb_distinct_keys leaves them); memory is O(n), whatever bits is.
 * 0, or -1 and a reason (a bad option, keys too wide for the table's
 * function, too few keys).
 */
int kb_advise(const struct kb_advise_opts *o, const uint64_t *keys, size_t n,
	      struct kb_advice *a, char *err, size_t errlen);

/*
 * The same over names (distinct, as kb_names_distinct leaves them)
 * through o->table: its string hash under o->sgen, the other generations
 * (one row for those that put every name in the same bucket: same_sgens),
 * and hsiphash and siphash of the bytes.  Names have no layout to redraw:
 * a change is advised where the pick wins beyond a random function's
 * noise.  0, or -1 and a reason (a name the table refuses, too few).
 */
int kb_advise_over_names(const struct kb_advise_opts *o, const struct kb_names *l,
		    struct kb_advice *a, char *err, size_t errlen);

#endif
