/* SPDX-License-Identifier: MIT */
#include "advise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "keysets.h"

/* The least tie, for many keys, where the noise is below what matters. */
#define KB_ADVISE_TIE 0.01

static unsigned ctz64(uint64_t x)
{
	unsigned n = 0;

	if (!x)
		return 64;
	while (!(x & 1)) {
		x >>= 1;
		n++;
	}
	return n;
}

/* What advise ranks over: integer keys, or names. */
struct advise_keys {
	const uint64_t *keys;
	const struct kb_names *names;
	size_t n;
};

static int bucket_at(const struct kb_candidate *c, unsigned bits, const struct advise_keys *k,
		     size_t i, uint64_t *b, char *err, size_t errlen)
{
	if (!k->names) {
		*b = kb_candidate_bucket(c, bits, k->keys[i]);
		return 0;
	}
	return kb_candidate_name_bucket(c, bits, kb_names_at(k->names, i), k->names->v[i].len, b,
					err, errlen);
}

/* The skew of one candidate: counted in scratch[n] where the table fits
 * it, else from the sorted buckets, whose runs are loads (the user's
 * function's buckets, had from its child process in one run); *print (if
 * asked) a sum that two candidates share only if they put every key in
 * the same bucket (but for a 2^-64 chance).  0, or -1 and a reason. */
static int judge(const struct kb_candidate *c, unsigned bits, const struct advise_keys *k,
		 uint64_t *scratch, struct kb_skew *s, uint64_t *print, char *err, size_t errlen)
{
	size_t i, runs = 0, n = k->n;
	int fits = (UINT64_C(1) << bits) <= n && c->kind != KB_CAND_USER;
	uint64_t b, sum = 0;

	if (c->kind == KB_CAND_USER) {
		if (k->names) {
			snprintf(err, errlen, "the user's function takes integer keys, not names");
			return -1;
		}
		if (kb_user_buckets(bits, k->keys, n, scratch, err, errlen) < 0)
			return -1;
		for (i = 0; print && i < n; i++)
			sum += kb_splitmix64_at(scratch[i], i);
	}
	if (fits)
		memset(scratch, 0, (sizeof(*scratch)) << bits);
	for (i = 0; c->kind != KB_CAND_USER && i < n; i++) {
		if (bucket_at(c, bits, k, i, &b, err, errlen) < 0) {
			size_t at = err ? strlen(err) : 0;

			if (err && at < errlen)
				snprintf(err + at, errlen - at, " (name %zu of %zu, sorted)", i + 1, n);
			return -1;
		}
		if (print)
			sum += kb_splitmix64_at(b, i);
		if (fits)
			scratch[b]++;
		else
			scratch[i] = b;
	}
	if (print)
		*print = sum;
	if (fits) {
		kb_skew_from_counts(scratch, UINT64_C(1) << bits, s);
		return 0;
	}
	kb_sort_u64(scratch, n);
	/* each run of equal buckets becomes its load, in place */
	for (i = 0; i < n; runs++) {
		size_t j = i;

		while (j < n && scratch[j] == scratch[i])
			j++;
		scratch[runs] = j - i;
		i = j;
	}
	kb_skew_from_loads(scratch, runs, UINT64_C(1) << bits, s);
	return 0;
}

/* The arithmetic each kind costs, cheapest first: what breaks a tie. */
static int cheapness(enum kb_cand_kind k)
{
	static const int order[KB_CAND_KIND_COUNT_] = {
		[KB_CAND_IDENTITY] = 0, [KB_CAND_MULTIPLY] = 1, [KB_CAND_HASHH] = 2,
		[KB_CAND_JHASH] = 3,    [KB_CAND_HSIPHASH] = 4, [KB_CAND_SIPHASH] = 5,
		[KB_CAND_STRING] = 2,
		[KB_CAND_USER] = 6, /* a call, and code no one here has measured */
	};

	return order[k];
}

static int row_cmp(const struct kb_advice_row *x, const struct kb_advice_row *y,
		   double tie)
{
	if (x->ratio < y->ratio - tie)
		return -1;
	if (y->ratio < x->ratio - tie)
		return 1;
	return cheapness(x->cand.kind) - cheapness(y->cand.kind);
}

/* Insertion sort: stable, so equal rows keep the order they were made in. */
static void rank(struct kb_advice_row *rows, size_t n, double tie)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct kb_advice_row r = rows[i];

		for (j = i; j > 0 && row_cmp(&r, &rows[j - 1], tie) < 0; j--)
			rows[j] = rows[j - 1];
		rows[j] = r;
	}
}

static void add(struct kb_advice *a, const struct kb_candidate *c, int current)
{
	if (a->nrows < KB_ADVISE_MAX) {
		a->rows[a->nrows].cand = *c;
		a->rows[a->nrows].current = current;
		a->nrows++;
	}
}

static const char *const family_names[KB_FAMILY_COUNT_] = {
#define KB_FAMILY_NAME_(id, name) [id] = name,
	KB_ADVISE_FAMILIES(KB_FAMILY_NAME_)
#undef KB_FAMILY_NAME_
};

const char *kb_advise_family_name(int family)
{
	return family >= 0 && family < KB_FAMILY_COUNT_ ? family_names[family] : NULL;
}

int kb_advise_family_find(const char *name)
{
	int f;

	for (f = 0; f < KB_FAMILY_COUNT_; f++)
		if (!strcmp(name, family_names[f]))
			return f;
	return -1;
}

static int want(const struct kb_advise_opts *o, enum kb_advise_family f)
{
	return !o->families || (o->families & 1u << f);
}

/* The keyed candidates like c (of its key or name): hsiphash, siphash. */
static void add_keyed(const struct kb_advise_opts *o, struct kb_advice *a, struct kb_candidate c)
{
	c.kind = KB_CAND_HSIPHASH;
	if (want(o, KB_FAMILY_HSIPHASH))
		add(a, &c, 0);
	c.kind = KB_CAND_SIPHASH;
	c.wide = 0; /* siphash_1u64 takes any key whole */
	if (want(o, KB_FAMILY_SIPHASH))
		add(a, &c, 0);
}

/* The candidates, in the order a tie keeps them: the table's own hash,
 * today's, each of the key shifted by its stride, then the others. */
static void candidates(const struct kb_advise_opts *o, struct kb_advice *a)
{
	struct kb_candidate c;
	int wide = a->max > UINT32_MAX;

	memset(&c, 0, sizeof(c));
	c.word = o->word;
	c.seed = o->seed;
	c.kind = KB_CAND_HASHH;
	c.func = o->func;
	c.gen = o->gen;
	add(a, &c, 1);
	c.gen = KB_GEN_TODAY;
	if (o->gen != KB_GEN_TODAY && want(o, KB_FAMILY_NEW))
		add(a, &c, 0);
	if (a->shift && a->shift < 64 && want(o, KB_FAMILY_SHIFT)) {
		c.shift = a->shift;
		c.gen = o->gen;
		add(a, &c, 0);
		c.gen = KB_GEN_TODAY;
		if (o->gen != KB_GEN_TODAY)
			add(a, &c, 0);
	}
	c.shift = 0;
	/* hash_min() of a key held in a u32 is hash_32 */
	if (!wide && o->func != LKH_FUNC_HASH_32 && want(o, KB_FAMILY_HASH32)) {
		c.func = LKH_FUNC_HASH_32;
		add(a, &c, 0);
	}
	c.func = o->func;
	c.kind = KB_CAND_IDENTITY;
	if (want(o, KB_FAMILY_IDENTITY)) {
		add(a, &c, 0);
		if (a->shift && a->shift < 64) {
			c.shift = a->shift;
			add(a, &c, 0);
			c.shift = 0;
		}
	}
	c.wide = wide;
	c.kind = KB_CAND_JHASH;
	if (want(o, KB_FAMILY_JHASH))
		add(a, &c, 0);
	add_keyed(o, a, c);
	c.wide = 0;
	if (o->multiplier) {
		c.kind = KB_CAND_MULTIPLY;
		c.multiplier = o->multiplier;
		c.width = o->width;
		add(a, &c, 0);
	}
	if (kb_user_gen_get() && want(o, KB_FAMILY_SOURCE)) {
		memset(&c, 0, sizeof(c));
		c.kind = KB_CAND_USER;
		c.word = o->word;
		add(a, &c, 0);
	}
}

/*
 * The keys' runs: sorted keys at most a unit (2^u bytes) apart stay
 * together, so a slab's objects keep their offsets across its pages and
 * an arithmetic progression moves as a whole.  first[] gets each run's
 * first key; returns how many runs, and *units the units they span.
 */
static size_t runs_of(const uint64_t *keys, size_t n, unsigned u, size_t *first,
		      uint64_t *units)
{
	size_t i, runs = 0;

	*units = 0;
	for (i = 0; i < n; i++) {
		if (i && keys[i] - keys[i - 1] <= UINT64_C(1) << u)
			continue;
		if (runs)
			*units += (keys[i - 1] >> u) - (keys[first[runs - 1]] >> u) + 1;
		first[runs++] = i;
	}
	*units += (keys[n - 1] >> u) - (keys[first[runs - 1]] >> u) + 1;
	return runs;
}

/* A uniform double in (0, 1]. */
static double unit_open(uint64_t *rng)
{
	return ((kb_splitmix64(rng) >> 11) + 1) * 0x1p-53;
}

struct kb_relayout {
	const uint64_t *keys;
	size_t n, runs;
	unsigned u;          /* a unit is 2^u bytes */
	uint64_t lo, free;   /* the window's first unit; its units no run holds */
	size_t *first;       /* each run's first key */
	size_t *order;       /* the runs in the order a re-layout puts them */
	double *gap;         /* the free units before each run, and after all */
};

/*
 * One re-layout into out[n]: the runs in a random order at random places
 * in the window, none overlapping (so the keys stay distinct), each key's
 * offset within its unit kept.  The free units are cut at the sorted
 * points of runs uniform draws, made in order as sums of exponential
 * spacings (O(runs), no sort).
 */
static void relayout(const struct kb_relayout *l, uint64_t *rng, uint64_t *out)
{
	size_t i, r;
	double sum = 0;
	uint64_t at = l->lo;

	for (r = 0; r < l->runs; r++)
		l->order[r] = r;
	for (r = l->runs; r > 1; r--) {
		size_t j = kb_splitmix64(rng) % r, t = l->order[j];

		l->order[j] = l->order[r - 1];
		l->order[r - 1] = t;
	}
	for (r = 0; r <= l->runs; r++)
		sum += l->gap[r] = -log(unit_open(rng));
	for (r = 0, sum = (double)l->free / sum; r < l->runs; r++) {
		size_t j = l->order[r], end = j + 1 < l->runs ? l->first[j + 1] : l->n;
		uint64_t from = l->keys[l->first[j]] >> l->u;
		double cut = l->gap[r] * sum;

		at += (uint64_t)cut; /* rounding down never overlaps */
		for (i = l->first[j]; i < end; i++)
			out[i] = l->keys[i] - (from << l->u) + (at << l->u);
		at += (l->keys[end - 1] >> l->u) - from + 1;
	}
}

/*
 * The keys' runs, and where a change is favoured (make): does the pick
 * beat the table's own hash on other layouts of these keys, or only on
 * this one?  Counts the re-layouts (from the seed) where it costs less.
 */
static int relayouts(const struct kb_advise_opts *o, const uint64_t *keys, size_t n,
		     int make, struct kb_advice *a, char *err, size_t errlen)
{
	struct kb_relayout l;
	uint64_t top, units, slots, rng = kb_splitmix64_at(o->seed, 2);
	uint64_t *moved = malloc(2 * n * sizeof(*moved));
	unsigned r, want = KB_ADVISE_RELAYOUTS;
	int rc = 0;

	memset(&l, 0, sizeof(l));
	l.keys = keys;
	l.n = n;
	l.u = a->shift > 12 ? a->shift : 12;
	l.first = malloc(n * sizeof(*l.first));
	l.order = malloc(n * sizeof(*l.order));
	l.gap = malloc((n + 1) * sizeof(*l.gap));
	if (!moved || !l.first || !l.order || !l.gap) {
		snprintf(err, errlen, "out of memory for %zu keys", n);
		rc = -1;
		goto out;
	}
	l.runs = runs_of(keys, n, l.u, l.first, &units);
	/* the window: the keys' own span, or room for twice their runs,
	 * within the keys' width */
	top = (a->max > UINT32_MAX ? UINT64_MAX : UINT32_MAX) >> l.u;
	l.lo = keys[0] >> l.u;
	slots = (keys[n - 1] >> l.u) - l.lo + 1;
	if (slots < 2 * units)
		slots = 2 * units;
	if (slots - 1 > top)
		slots = top + 1;
	if (l.lo > top - (slots - 1))
		l.lo = top - (slots - 1);
	l.free = slots - units;
	/* many keys take fewer re-layouts: the work stays that of 2^24 keys */
	if (n > KB_ADVISE_RELAYOUT_KEYS / want)
		want = n > KB_ADVISE_RELAYOUT_KEYS / KB_ADVISE_RELAYOUTS_MIN
			       ? KB_ADVISE_RELAYOUTS_MIN
			       : (unsigned)(KB_ADVISE_RELAYOUT_KEYS / n);
	a->unit = l.u;
	a->runs = l.runs;
	if (!make)
		goto out;
	for (r = 0; r < want; r++) {
		double ratio[2];
		size_t j;

		relayout(&l, &rng, moved);
		for (j = 0; j < 2; j++) {
			const struct kb_advice_row *row = &a->rows[j ? a->pick : a->current];
			const struct advise_keys mk = { moved, NULL, n };
			struct kb_skew s;
			struct kb_cost cost;
			double c, rnd;

			if (judge(&row->cand, o->bits, &mk, moved + n, &s, NULL, err, errlen) < 0) {
				rc = -1;
				goto out;
			}
			kb_cost_of(&s, &cost);
			kb_cost_for(&cost, o->kind, &c, &rnd, &ratio[j]);
		}
		a->wins += ratio[1] < ratio[0];
	}
	a->relayouts = want;
out:
	free(l.first);
	free(l.order);
	free(l.gap);
	free(moved);
	return rc;
}

/* What the advice can name: not the key itself, which only these keys
 * suit, nor a string hash of a past generation, which no kernel offers
 * now (unless it is the table's own). */
static int pickable(const struct kb_advice_row *r)
{
	if (r->cand.kind == KB_CAND_STRING)
		return r->current || r->cand.sgen == LKH_SGEN_NEW;
	return r->cand.kind != KB_CAND_IDENTITY;
}

/* Every row's cost, the rows ranked, the table's own and the pick found. */
static void rank_and_pick(const struct kb_advise_opts *o, struct kb_advice *a)
{
	struct kb_cost cost;
	size_t i;

	for (i = 0; i < a->nrows; i++) {
		struct kb_advice_row *r = &a->rows[i];

		kb_cost_of(&r->skew, &cost);
		kb_cost_for(&cost, o->kind, &r->cost, &r->random, &r->ratio);
	}
	a->noise = kb_cost_ratio_sd(a->n, UINT64_C(1) << o->bits, o->kind);
	a->tie = KB_ADVISE_SDS * a->noise > KB_ADVISE_TIE ? KB_ADVISE_SDS * a->noise : KB_ADVISE_TIE;
	rank(a->rows, a->nrows, a->tie);
	a->pick = a->nrows;
	for (i = 0; i < a->nrows; i++) {
		if (a->rows[i].current)
			a->current = i;
		if (a->pick == a->nrows && pickable(&a->rows[i]))
			a->pick = i;
	}
}

/* The first checks of either kind of key: 0, or -1 and a reason. */
static int advise_start(const struct kb_advise_opts *o, size_t n, const char *what,
			struct kb_advice *a, char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	if (o->bits < 1 || o->bits > 32) {
		snprintf(err, errlen, "bits must be 1..32 for advise, not %u", o->bits);
		return -1;
	}
	if (n < 2) {
		snprintf(err, errlen, "%zu distinct %s%s: nothing can collide", n, what,
			 n == 1 ? "" : "s");
		return -1;
	}
	a->bits = o->bits;
	a->word = o->word;
	a->kind = o->kind;
	a->n = n;
	return 0;
}

int kb_advise(const struct kb_advise_opts *o, const uint64_t *keys, size_t n,
	      struct kb_advice *a, char *err, size_t errlen)
{
	uint64_t *scratch, or_all = 0, g = 0;
	size_t i;

	if (advise_start(o, n, "key", a, err, errlen) < 0)
		return -1;
	a->min = keys[0];
	a->max = keys[n - 1];
	for (i = 0; i < n; i++) {
		or_all |= keys[i];
		g = kb_gcd64(g, keys[i] - keys[0]);
	}
	a->align = ctz64(or_all);
	a->gcd = g;
	a->shift = ctz64(g);
	candidates(o, a);
	for (i = 0; i < a->nrows; i++) {
		struct kb_candidate *c = &a->rows[i].cand;
		unsigned in = kb_candidate_input_bits(c);

		if (kb_candidate_check(c, o->bits, err, errlen) < 0)
			return -1;
		if (in < 64 && a->max >> in) {
			char e[64];

			snprintf(err, errlen, "key 0x%llx does not fit %s, which takes %u bits on a %u-bit kernel",
				 (unsigned long long)a->max, kb_candidate_expr(c, o->bits, e, sizeof(e)),
				 in, o->word);
			return -1;
		}
	}
	scratch = malloc(n * sizeof(*scratch));
	if (!scratch) {
		snprintf(err, errlen, "out of memory for %zu keys", n);
		return -1;
	}
	for (i = 0; i < a->nrows; i++) {
		const struct advise_keys k = { keys, NULL, n };

		if (judge(&a->rows[i].cand, o->bits, &k, scratch, &a->rows[i].skew, NULL, err,
			  errlen) < 0) {
			free(scratch);
			return -1;
		}
	}
	free(scratch);
	rank_and_pick(o, a);
	/* a change the keys at hand favour beyond a random function's noise
	 * must hold on other layouts of them */
	if (relayouts(o, keys, n,
		      a->pick < a->nrows && a->pick != a->current &&
			      a->rows[a->current].ratio > a->rows[a->pick].ratio + a->tie,
		      a, err, errlen) < 0)
		return -1;
	a->change = a->relayouts && a->wins >= KB_ADVISE_CLEAR * a->relayouts;
	return 0;
}

/* Over names: the table's own hash, its other generations from today's
 * back, then hsiphash and siphash of the bytes. */
static void name_candidates(const struct kb_advise_opts *o, struct kb_advice *a)
{
	struct kb_candidate c;
	int g;

	memset(&c, 0, sizeof(c));
	c.word = o->word;
	c.seed = o->seed;
	c.names = o->table;
	c.param = o->param;
	c.kind = KB_CAND_STRING;
	c.sgen = o->sgen;
	add(a, &c, 1);
	for (g = LKH_SGEN_COUNT - 1; g >= 0 && want(o, KB_FAMILY_NEW); g--) {
		c.sgen = (lkh_sgen)g;
		if (c.sgen != o->sgen)
			add(a, &c, 0);
	}
	add_keyed(o, a, c);
}

int kb_advise_over_names(const struct kb_advise_opts *o, const struct kb_names *l,
		    struct kb_advice *a, char *err, size_t errlen)
{
	const struct advise_keys k = { NULL, l, l->n };
	uint64_t *scratch, print[KB_ADVISE_MAX];
	size_t i, j, kept = 0;
	int rc = 0;

	if (advise_start(o, l->n, "name", a, err, errlen) < 0)
		return -1;
	a->names = 1;
	a->min = a->max = l->v[0].len;
	for (i = 1; i < l->n; i++) {
		a->min = l->v[i].len < a->min ? l->v[i].len : a->min;
		a->max = l->v[i].len > a->max ? l->v[i].len : a->max;
	}
	name_candidates(o, a);
	for (i = 0; i < a->nrows; i++)
		if (kb_candidate_check(&a->rows[i].cand, o->bits, err, errlen) < 0)
			return -1;
	scratch = malloc(l->n * sizeof(*scratch));
	if (!scratch) {
		snprintf(err, errlen, "out of memory for %zu names", l->n);
		return -1;
	}
	for (i = 0; i < a->nrows && rc == 0; i++) {
		struct kb_advice_row *r = &a->rows[i];

		rc = judge(&r->cand, o->bits, &k, scratch, &r->skew, &print[i], err, errlen);
	}
	free(scratch);
	if (rc < 0)
		return -1;
	/* a generation that puts every name where one before it does is
	 * that row again: folded into it */
	for (i = 0; i < a->nrows; i++) {
		struct kb_advice_row *r = &a->rows[i];

		for (j = 0; j < kept; j++)
			if (r->cand.kind == KB_CAND_STRING && a->rows[j].cand.kind == KB_CAND_STRING &&
			    print[j] == print[i] && !r->current)
				break;
		if (j < kept) {
			a->rows[j].same_sgens |= 1u << r->cand.sgen;
			continue;
		}
		print[kept] = print[i];
		a->rows[kept++] = *r;
	}
	a->nrows = kept;
	rank_and_pick(o, a);
	a->change = a->pick < a->nrows && a->pick != a->current &&
		    a->rows[a->current].ratio > a->rows[a->pick].ratio + a->tie;
	return 0;
}
