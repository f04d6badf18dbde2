/* SPDX-License-Identifier: MIT */
/* Cells and generations: hash.h's four, K and its multiplier, and U. */
#include "hashspec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_products.h"
#include "stats.h"

/* generation U's row of the table of generations: set once a run */
static const struct kb_user_gen *user_gen;

/* kb_user_skews's buffers, kept from call to call (a report calls it for
 * each group of cells: fresh pages each time cost more than the work);
 * the counts are left zero */
static struct {
	uint64_t *vals, *loads;
	uint32_t *counts; /* at most 2^22 keys: 32 bits, half the cache */
	size_t nvals, nloads, ncounts;
} scratch;

void kb_user_gen_set(const struct kb_user_gen *u)
{
	user_gen = u;
	if (!u) {
		free(scratch.vals);
		free(scratch.loads);
		free(scratch.counts);
		memset(&scratch, 0, sizeof(scratch));
	}
}

/* *p holds at least n values, *have of them: 0, or -1 (out of memory,
 * *p as it was). */
static int grow(uint64_t **p, size_t *have, size_t n)
{
	uint64_t *q;

	if (n <= *have)
		return 0;
	if (!(q = malloc(n * sizeof(*q))))
		return -1;
	free(*p);
	*p = q;
	*have = n;
	return 0;
}

/* The same for counters, zeroed. */
static int grow32(uint32_t **p, size_t *have, size_t n)
{
	uint32_t *q;

	if (n <= *have)
		return 0;
	if (!(q = calloc(n, sizeof(*q))))
		return -1;
	free(*p);
	*p = q;
	*have = n;
	return 0;
}

const struct kb_user_gen *kb_user_gen_get(void)
{
	return user_gen;
}

int kb_hashspec_gen(const struct kb_hashspec *s)
{
	return s->user ? KB_GEN_USER : s->k_width ? KB_GEN_K : (int)s->gen;
}

void kb_hashspec_set_gen(struct kb_hashspec *s, int g, uint64_t k,
			 unsigned k_width)
{
	s->user = g == KB_GEN_USER;
	if (g == KB_GEN_K) {
		s->gen = KB_GEN_TODAY; /* unused; a valid value all the same */
		s->k = k;
		s->k_width = k_width;
	} else if (s->user) {
		s->gen = KB_GEN_TODAY; /* unused, as under K */
		s->k = 0;
		s->k_width = 0;
	} else {
		s->gen = (lkh_gen)g;
		s->k = 0;
		s->k_width = 0;
	}
}

void kb_hashspec_make(struct kb_hashspec *s, lkh_func func, unsigned word,
		      const struct kb_gen *g)
{
	memset(s, 0, sizeof(*s));
	s->func = func;
	s->word = word;
	kb_hashspec_set_gen(s, g->gen, g->k,
			    g->width ? g->width
				     : kb_multiplier_width(g->k, kb_hashspec_input_bits(s)));
}

void kb_hashspec_kb_gen(const struct kb_hashspec *s, struct kb_gen *g)
{
	g->gen = kb_hashspec_gen(s);
	g->k = s->k;
	g->width = s->k_width;
}

uint64_t kb_gen_golden_ratio_prime(const struct kb_gen *g, unsigned word)
{
	if (g->gen == KB_GEN_K)
		return word == 32 ? (uint32_t)g->k : g->k;
	return lkh_golden_ratio_prime((lkh_gen)g->gen, word);
}

const char *kb_gen_name(int g)
{
	if (g == KB_GEN_USER)
		return user_gen ? user_gen->name : "user";
	return g == KB_GEN_K ? "K" : g >= 0 ? lkh_gen_name((lkh_gen)g) : NULL;
}

const char *kb_hashspec_gen_name(const struct kb_hashspec *s)
{
	return kb_gen_name(kb_hashspec_gen(s));
}

int kb_gen_from_name(const char *name, int *g)
{
	lkh_gen lg;

	if (!strcmp(name, "K")) {
		*g = KB_GEN_K;
		return 0;
	}
	if (lkh_gen_from_name(name, &lg) != LKH_OK)
		return -1;
	*g = (int)lg;
	return 0;
}

unsigned kb_multiplier_width(uint64_t k, unsigned input_bits)
{
	return k > UINT32_MAX || input_bits > 32 ? 64 : 32;
}

int kb_multiplier_check(uint64_t k, unsigned width, char *err, size_t errlen)
{
	if (width != 32 && width != 64) {
		snprintf(err, errlen, "a multiplier's width must be 32 or 64");
		return -1;
	}
	if (!(k & 1)) {
		snprintf(err, errlen, "multiplier 0x%llx is even: not invertible mod 2^%u, so keys 2^%u apart always share a bucket (give an odd one)",
			 (unsigned long long)k, width, width - 1);
		return -1;
	}
	if (width == 32 && k > UINT32_MAX) {
		snprintf(err, errlen, "multiplier 0x%llx does not fit 32 bits",
			 (unsigned long long)k);
		return -1;
	}
	return 0;
}

unsigned kb_hashspec_single_multiply(const struct kb_hashspec *s, uint64_t *k)
{
	int p = kb_product_of(s);
	lkh_arith a;

	if (s->user)
		return 0; /* the user's function is no multiply seen here */
	if (s->k_width) {
		*k = s->k;
		return s->k_width;
	}
	a = lkh_product_arith(p, k);
	/* the old product by shifts and adds is the same multiply */
	if (a == LKH_ARITH_MUL64 || a == LKH_ARITH_CHAIN64)
		return lkh_product_width(p) == 64 ? 64 : 0;
	if (a == LKH_ARITH_MUL32)
		return lkh_product_width(p) == 32 ? 32 : 0;
	return 0;
}

unsigned kb_hashspec_input_bits(const struct kb_hashspec *s)
{
	return lkh_input_bits(s->func, s->word);
}

int kb_hashspec_check(const struct kb_hashspec *s, unsigned bits, char *err,
		      size_t errlen)
{
	/* a function that takes bits in hash.h takes them under K too */
	unsigned max = lkh_bits_max(s->func, s->k_width ? KB_GEN_TODAY : s->gen, s->word);

	if (s->word != 32 && s->word != 64) {
		snprintf(err, errlen, "word size must be 32 or 64");
		return -1;
	}
	if (max == 0) {
		snprintf(err, errlen, "%s takes no bits: it is not a bucket index",
			 lkh_func_name(s->func) ? lkh_func_name(s->func) : "?");
		return -1;
	}
	if (s->user) {
		/* the user's buckets are uint64_t: any table a word indexes */
		if (!user_gen) {
			snprintf(err, errlen, "no user function is loaded (--source, --call)");
			return -1;
		}
		max = 64;
	} else if (s->k_width) {
		if (kb_multiplier_check(s->k, s->k_width, err, errlen) < 0)
			return -1;
		/* a 32-bit product would drop the key's high half unseen */
		if (kb_hashspec_input_bits(s) > s->k_width) {
			snprintf(err, errlen, "%s on %u-bit takes 64-bit keys: a 32-bit multiplier would drop their high half (give --width 64)",
				 lkh_func_name(s->func), s->word);
			return -1;
		}
		max = s->k_width;
	}
	if (bits < 1 || bits > max) {
		snprintf(err, errlen, "bits %u out of range for %s %s on %u-bit: 1..%u",
			 bits, kb_gen_name(kb_hashspec_gen(s)), lkh_func_name(s->func),
			 s->word, max);
		return -1;
	}
	return 0;
}

/* Keys a child run evaluates at once: its values stay within 32 MiB. */
#define USER_CHUNK_VALUES (UINT64_C(1) << 22)

/* The user's buckets of n keys at bits lo..hi (kb_user_gen's layout), each
 * checked against its table: 0, or -1 with a reason. */
static int user_eval(unsigned lo, unsigned hi, const uint64_t *keys, size_t n, uint64_t *vals,
		     char *err, size_t errlen)
{
	size_t nb = hi - lo + 1, j;
	unsigned b;

	if (!user_gen) {
		snprintf(err, errlen, "no user function is loaded (--source, --call)");
		return -1;
	}
	if (n && user_gen->eval(user_gen->ctx, keys, n, lo, hi, vals, err, errlen) < 0)
		return -1;
	for (j = 0; j < n; j++)
		for (b = lo; b <= hi; b++) {
			uint64_t v = vals[j * nb + (b - lo)];

			/* a bucket past the table is no bucket: say so, count nothing */
			if (b < 64 && v >> b) {
				kb_past_text(v, keys[j], b, err, errlen);
				return -1;
			}
		}
	return 0;
}

void kb_past_text(uint64_t v, uint64_t key, unsigned bits, char *err, size_t errlen)
{
	snprintf(err, errlen, "the function returned 0x%llx on key 0x%llx, bits %u: no bucket of 2^%u",
		 (unsigned long long)v, (unsigned long long)key, bits, bits);
}

size_t kb_first_past(const uint64_t *buckets, size_t n, unsigned bits)
{
	size_t i;

	for (i = 0; i < n && (bits >= 64 || !(buckets[i] >> bits)); i++)
		;
	return i;
}

void kb_skew_of_buckets(uint64_t *buckets, size_t n, unsigned bits, uint32_t *counts,
			struct kb_skew *out)
{
	size_t i, runs;

	for (i = 0; i < n; i++)
		counts[buckets[i]]++;
	/* the loads of the buckets used, read back in the keys' order (each
	 * before its slot is overwritten), leave the table zero for the next
	 * size: O(n), not O(2^bits) */
	for (i = runs = 0; i < n; i++) {
		uint32_t *c = &counts[buckets[i]];

		if (*c) {
			buckets[runs++] = *c;
			*c = 0;
		}
	}
	kb_skew_from_loads(buckets, runs, UINT64_C(1) << bits, out);
}

int kb_user_buckets(unsigned bits, const uint64_t *keys, size_t n, uint64_t *out, char *err,
		    size_t errlen)
{
	return user_eval(bits, bits, keys, n, out, err, errlen);
}

int kb_user_count(unsigned lo, unsigned hi, const uint64_t *keys, size_t n,
		  uint64_t *const *counts, char *err, size_t errlen)
{
	size_t nb = hi - lo + 1, chunk = (size_t)(USER_CHUNK_VALUES / nb), i, m, j, b;
	uint64_t *vals;

	if (!user_gen)
		return user_eval(lo, hi, keys, 0, NULL, err, errlen); /* says why */
	if (chunk > n)
		chunk = n ? n : 1;
	if (!(vals = malloc(chunk * nb * sizeof(*vals)))) {
		snprintf(err, errlen, "out of memory for %zu keys' buckets", chunk);
		return -1;
	}
	for (i = 0; i < n; i += m) {
		m = n - i < chunk ? n - i : chunk;
		if (user_eval(lo, hi, keys + i, m, vals, err, errlen) < 0) {
			free(vals);
			return -1;
		}
		for (j = 0; j < m; j++)
			for (b = 0; b < nb; b++)
				counts[b][vals[j * nb + b]]++;
	}
	free(vals);
	return 0;
}

int kb_user_skews(unsigned lo, unsigned hi, const uint64_t *keys, size_t n,
		  struct kb_skew *out, char *err, size_t errlen)
{
	size_t nb = hi - lo + 1, i;
	uint64_t *vals, *loads;
	unsigned b;
	int rc = -1;

	if (user_gen && user_gen->skews) /* made where it runs */
		return user_gen->skews(user_gen->ctx, keys, n, lo, hi, out, err, errlen);
	if (n > USER_CHUNK_VALUES / nb) { /* their values all at once: too many */
		snprintf(err, errlen, "%zu keys at %zu table sizes are too many to keep", n, nb);
		return -1;
	}
	if (grow(&scratch.vals, &scratch.nvals, (n ? n : 1) * nb) < 0 ||
	    grow(&scratch.loads, &scratch.nloads, n ? n : 1) < 0 ||
	    grow32(&scratch.counts, &scratch.ncounts, (size_t)1 << hi) < 0) {
		snprintf(err, errlen, "out of memory for %zu keys' buckets", n);
		return -1;
	}
	vals = scratch.vals;
	loads = scratch.loads;
	if (user_eval(lo, hi, keys, n, vals, err, errlen) == 0)
		rc = 0;
	for (b = lo; b <= hi && rc == 0; b++) {
		/* this size's buckets in a row */
		for (i = 0; i < n; i++)
			loads[i] = vals[i * nb + (b - lo)];
		kb_skew_of_buckets(loads, n, b, scratch.counts, &out[b - lo]);
	}
	return rc;
}
