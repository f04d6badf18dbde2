/* SPDX-License-Identifier: MIT */
#include "conform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hashspec.h"
#include "keysets.h"

void kb_user_eval(kb_user_fn fn, const uint64_t *keys, size_t n, unsigned lo, unsigned hi,
		  uint64_t *out, struct kb_user_at *at)
{
	size_t i;
	unsigned b;

	for (i = 0; i < n; i++)
		for (b = lo; b <= hi; b++) {
			at->key = keys[i];
			at->bits = b;
			*out++ = fn(keys[i], b);
		}
}

/* The inputs tests/golden/gen_golden_vectors.py sweeps at every bits. */
static const uint64_t golden_sweep[] = {
	0, UINT64_MAX, UINT64_C(1) << 63, UINT64_C(0xffffffff), UINT64_C(0x0123456789abcdef),
	UINT64_C(0xffff888000001000), UINT64_C(0xffffea0000000040), 0x40000000 + 7 * 3 * 65536,
	UINT64_C(1) << 31, 0x12345678, 0xc0001000, 0xf7000020,
};

/* Runs of structured keys: first, step, how many. */
static const struct {
	uint64_t first, step;
	unsigned n;
} runs[] = {
	{ 0, 1, 128 },                                 /* small integers */
	{ UINT64_C(0xffff888000000000), 4096, 128 },   /* 64-bit pages */
	{ UINT64_C(0xffff888100000000), 192, 128 },    /* a 192-byte slab */
	{ UINT64_C(0xffffea0000000000), 64, 128 },     /* struct pages */
	{ 0xc0000000, 4096, 128 },                     /* 32-bit pages */
	{ 0xc1000000, 32, 128 },                       /* 32-bit struct pages */
};
#define RANDOM64 512
#define RANDOM32 256

/* Keep the first of each key, in order (a few thousand: quadratic is
 * fine, and 1 and 2^32 stay first). */
static size_t first_of_each(uint64_t *v, size_t n)
{
	size_t i, j, kept = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < kept && v[j] != v[i]; j++)
			;
		if (j == kept)
			v[kept++] = v[i];
	}
	return kept;
}

int kb_conform_keys_make(struct kb_conform_keys *k, uint64_t seed)
{
	size_t cap = 2 + sizeof(golden_sweep) / sizeof(golden_sweep[0]) + 128 + RANDOM64 +
		     RANDOM32 + (size_t)KB_CONFORM_FLIP_BASES * 65, n = 0, i;
	uint64_t state = seed, *v;
	unsigned j, r;

	for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++)
		cap += runs[r].n;
	if (!(v = malloc(cap * sizeof(*v))))
		return -1;
	v[n++] = 1;
	v[n++] = UINT64_C(1) << 32;
	for (i = 0; i < sizeof(golden_sweep) / sizeof(golden_sweep[0]); i++)
		v[n++] = golden_sweep[i];
	for (j = 1; j < 64; j++) {
		v[n++] = UINT64_C(1) << j;
		v[n++] = (UINT64_C(1) << j) - 1;
	}
	for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++)
		for (j = 0; j < runs[r].n; j++)
			v[n++] = runs[r].first + j * runs[r].step;
	for (i = 0; i < RANDOM64; i++)
		v[n++] = kb_splitmix64(&state);
	for (i = 0; i < RANDOM32; i++)
		v[n++] = kb_splitmix64(&state) >> 32;
	n = first_of_each(v, n);
	k->n_plain = n;
	for (i = 0; i < KB_CONFORM_FLIP_BASES; i++) {
		uint64_t base = kb_splitmix64(&state);

		v[n++] = base;
		for (j = 0; j < 64; j++)
			v[n++] = base ^ UINT64_C(1) << j;
	}
	k->keys = v;
	k->n = n;
	return 0;
}

void kb_conform_keys_free(struct kb_conform_keys *k)
{
	free(k->keys);
	k->keys = NULL;
	k->n = k->n_plain = 0;
}

static const lkh_func conform_funcs[KB_CONFORM_FUNCS] = {
	LKH_FUNC_HASH_32, LKH_FUNC_HASH_64, LKH_FUNC_HASH_LONG, LKH_FUNC_HASH_PTR,
};

static uint64_t low_mask(unsigned bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/* Compare the user's values with one cell over every key that fits it. */
static void compare(const struct kb_conform_keys *keys, const uint64_t *vals, unsigned bits_hi,
		    struct kb_conform_target *t)
{
	unsigned in = lkh_input_bits(t->func, t->word), b;
	size_t i;

	t->bits_to = t->bits_max < bits_hi ? t->bits_max : bits_hi;
	for (i = 0; i < keys->n_plain; i++) {
		uint64_t x = keys->keys[i];
		int differs = 0;

		if (in < 64 && x >> in)
			continue;
		t->keys++;
		for (b = 1; b <= t->bits_to; b++) {
			uint64_t want = 0, got = vals[i * bits_hi + b - 1], m = low_mask(b);

			lkh_hash(t->func, t->gen, t->word, x, b, &want);
			t->checks++;
			if (got == (m - want) || got == ((0 - want) & m))
				t->mirrored++;
			if (got == want)
				continue;
			if (!differs && !t->keys_differ) {
				t->first_key = x;
				t->first_bits = b;
				t->got = got;
				t->want = want;
			}
			differs = 1;
		}
		t->keys_differ += (uint64_t)differs;
	}
}

int kb_conform_reproduces(const struct kb_conform_target *t)
{
	return t->keys && !t->keys_differ && t->bits_to == t->bits_max;
}

int kb_conform_passes(const struct kb_conform *c, int gen)
{
	size_t i;

	for (i = 0; i < c->nt; i++)
		if ((gen < 0 || (int)c->t[i].gen == gen) && kb_conform_reproduces(&c->t[i]))
			return 1;
	return 0;
}

int kb_conform_mirrored(const struct kb_conform_target *t)
{
	return t->checks && t->mirrored == t->checks;
}

/* Is the user's function at bits 1..bits_hi the top bits of x * K mod
 * 2^width?  K reads off keys 1 and 2^32 at bits 32 (width 64), or key 1
 * (width 32, over the keys that fit 32 bits). */
static void find_multiplier(const struct kb_conform_keys *keys, const uint64_t *vals,
			    unsigned bits_hi, struct kb_conform *c)
{
	unsigned width, b;
	size_t i;

	for (width = 64; width >= 32; width -= 32) {
		uint64_t k = width == 64 ? vals[31] << 32 | vals[bits_hi + 31] : vals[31];
		int fits = 1;

		for (i = 0; i < keys->n_plain && fits; i++) {
			uint64_t x = keys->keys[i], p = x * k;

			if (width == 32) {
				if (x >> 32)
					continue;
				p = (p & UINT32_MAX) << 32;
			}
			for (b = 1; b <= 32 && fits; b++)
				fits = vals[i * bits_hi + b - 1] == p >> (64 - b);
		}
		if (fits) {
			/* K * 2^32 mod 2^64 is a 32-bit multiply of the key's low
			 * half: said as that */
			c->k = width == 64 && !(k & UINT32_MAX) ? k >> 32 : k;
			c->k_width = width == 64 && !(k & UINT32_MAX) ? 32 : width;
			return;
		}
	}
}

void kb_conform_judge(const struct kb_conform_keys *keys, const uint64_t *vals,
		      unsigned bits_hi, unsigned func_mask, unsigned word_mask,
		      struct kb_conform *c)
{
	unsigned g, f, w, b, j;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->bits_hi = bits_hi;
	for (g = 0; g < LKH_GEN_COUNT; g++)
		for (w = 0; w < 2; w++)
			for (f = 0; f < KB_CONFORM_FUNCS; f++) {
				struct kb_conform_target *t = &c->t[c->nt];

				if (!(func_mask & 1u << conform_funcs[f]) || !(word_mask & 1u << w))
					continue;
				t->gen = (lkh_gen)g;
				t->func = conform_funcs[f];
				t->word = 32u << w;
				t->bits_max = lkh_bits_max(t->func, t->gen, t->word);
				compare(keys, vals, bits_hi, t);
				c->nt++;
			}
	/* buckets filled, and results that are no bucket */
	c->n_distinct_keys = keys->n_plain;
	for (b = 1; b <= KB_CONFORM_TABLE_BITS; b++) {
		uint64_t *col = malloc(keys->n_plain * sizeof(*col)), m = low_mask(b);

		for (i = 0; i < keys->n_plain; i++) {
			uint64_t v = vals[i * bits_hi + b - 1];

			if (v > m && !c->out_of_range++) {
				c->oor_key = keys->keys[i];
				c->oor_bits = b;
				c->oor_value = v;
			}
			if (col)
				col[i] = v;
		}
		if (col)
			c->distinct[b] = kb_distinct_keys(col, keys->n_plain);
		free(col);
		/* m (1 - (1 - 1/m)^n), the buckets n random keys fill */
		c->distinct_random[b] = ldexp(1, (int)b) *
					-expm1((double)keys->n_plain * log1p(-ldexp(1, -(int)b)));
		if (!c->degenerate_bits && 2 * (double)c->distinct[b] < c->distinct_random[b])
			c->degenerate_bits = b;
	}
	if (2 * (double)c->distinct[10] < c->distinct_random[10])
		c->degenerate_bits = 10;
	/* input bits whose flip never moved a bucket of any flipped key */
	c->dead_inputs = UINT64_MAX;
	for (i = keys->n_plain; i + 64 < keys->n; i += 65)
		for (j = 0; j < 64; j++)
			for (b = 1; b <= bits_hi; b++)
				if (vals[(i + 1 + j) * bits_hi + b - 1] != vals[i * bits_hi + b - 1])
					c->dead_inputs &= ~(UINT64_C(1) << j);
	find_multiplier(keys, vals, bits_hi, c);
}

unsigned kb_conform_cost_keysets(void)
{
	unsigned mask = 0;
	int id;

	for (id = 0; id < KB_KS_COUNT; id++)
		/* as report's defaults: the futex words model lock tables */
		if (!(kb_keysets[id].flags & (KB_KS_HEAP | KB_KS_PER_CELL)) &&
		    !(KB_KS_FUTEX_SETS & 1u << id))
			mask |= 1u << id;
	return mask;
}

/* A table's cost over a random function's: compares per successful
 * lookup in chained buckets, what advise and skew price by default. */
static double cost_ratio(const uint64_t *counts, unsigned bits, struct kb_skew *s)
{
	struct kb_cost cost;
	double v, r, ratio;

	kb_skew_from_counts(counts, UINT64_C(1) << bits, s);
	kb_cost_of(s, &cost);
	kb_cost_for(&cost, KB_KIND_CHAINED, &v, &r, &ratio);
	return ratio;
}

void kb_conform_cost_of(int keyset, const uint64_t *keys, size_t n, const uint64_t *vals,
			unsigned word, uint64_t *counts, struct kb_conform_cost *c)
{
	const unsigned nb = KB_CONFORM_COST_BITS_HI - KB_CONFORM_COST_BITS_LO + 1;
	struct kb_hashspec s;
	struct kb_skew skew;
	unsigned b;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->keyset = keyset;
	c->n = n;
	c->ratio = -1;
	kb_hashspec_make(&s, LKH_FUNC_HASH_LONG, word, KB_GEN_OF(KB_GEN_TODAY));
	for (b = KB_CONFORM_COST_BITS_LO; b <= KB_CONFORM_COST_BITS_HI; b++) {
		double ratio;

		memset(counts, 0, sizeof(*counts) << b);
		for (i = 0; i < n; i++) {
			uint64_t v = vals[i * nb + b - KB_CONFORM_COST_BITS_LO];

			/* a result past the table is no bucket: it counts in the last */
			counts[v >> b ? (UINT64_C(1) << b) - 1 : v]++;
		}
		ratio = cost_ratio(counts, b, &skew);
		if (ratio > c->ratio) {
			c->ratio = ratio;
			c->worst_bits = b;
			c->skew = skew;
		}
	}
	memset(counts, 0, sizeof(*counts) << c->worst_bits);
	kb_count_block(&s, c->worst_bits, keys, n, counts);
	c->kernel_ratio = cost_ratio(counts, c->worst_bits, &skew);
}

int kb_conform_known_k(uint64_t k, unsigned width, const char **name, int *delta)
{
	static const struct {
		const char *name;
		uint64_t c;
		unsigned width;
	} known[] = {
		{ "GOLDEN_RATIO_32", LKH_GOLDEN_RATIO_32, 32 },
		{ "GOLDEN_RATIO_64", LKH_GOLDEN_RATIO_64, 64 },
		{ "GOLDEN_RATIO_PRIME_32", LKH_GOLDEN_RATIO_PRIME_32, 32 },
		{ "GOLDEN_RATIO_PRIME_64", LKH_GOLDEN_RATIO_PRIME_64, 64 },
	};
	uint64_t m = low_mask(width);
	size_t i;
	int d;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (known[i].width != width)
			continue;
		*name = known[i].name;
		*delta = -1;
		if (k == known[i].c)
			return 1;
		for (d = 0; d <= 2; d++)
			if (k == (((uint64_t)d - known[i].c) & m)) {
				*delta = d;
				return 1;
			}
	}
	return 0;
}
