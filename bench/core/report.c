/* SPDX-License-Identifier: MIT */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "progress.h"
#include "skew_by_bits.h"

const char *kb_cell_source(const struct kb_cell *c)
{
	return c->keyset >= 0 ? kb_keysets[c->keyset].name : c->source ? c->source : "keys";
}

static void tally(struct kb_verdict_tally *t, enum kb_verdict_kind v)
{
	if (v == KB_VERDICT_BROKEN)
		t->broken++;
	else if (v == KB_VERDICT_SKEWED)
		t->skewed++;
	else if (v == KB_VERDICT_TOO_FEW)
		t->too_few++;
	else
		t->fine++;
}

void kb_report_summarize(const struct kb_report *r, struct kb_report_summary *s)
{
	size_t nb = r->opts.bits_max - r->opts.bits_min + 1, i, j;

	memset(s, 0, sizeof(*s));
	s->gens = r->opts.gens;
	for (i = 0; i < r->n_cells; i++)
		s->too_few += r->cells[i].ok &&
			      kb_verdict_of(&r->cells[i].skew) == KB_VERDICT_TOO_FEW;
	/* a row: one key source, function, word and generation, a cell a
	 * table size; a row that does not apply counts nowhere */
	for (j = 0; j < KB_GEN_COUNT; j++)
		s->worst_cell[j] = -1;
	for (i = 0; i < r->n_cells; i += nb) {
		int g = kb_hashspec_gen(&r->cells[i].spec);

		if (!r->cells[i].ok)
			continue;
		for (j = 0; j < nb && i + j < r->n_cells; j++) {
			const struct kb_skew *k = &r->cells[i + j].skew;
			enum kb_verdict_kind v = kb_verdict_of(k);
			struct kb_cost c;

			tally(&s->gen[g], v);
			if (v == KB_VERDICT_TOO_FEW)
				continue;
			kb_cost_of(k, &c);
			if (s->worst_cell[g] < 0 || c.hit_ratio > s->worst_hit[g]) {
				s->worst_hit[g] = c.hit_ratio;
				s->worst_cell[g] = (long)(i + j);
			}
		}
	}
}

static uint64_t *alloc_counts(unsigned bits, size_t ways)
{
	return calloc(ways << bits, sizeof(uint64_t));
}

/*
 * Fewer keys than buckets at bits_max (the default report: 65,536 keys,
 * up to 2^20 buckets): every size from the sorted hash words
 * (skew_by_bits.h), which costs the keys, where counting costs the
 * buckets (a fresh table of 2^bits_max counters and a pass over every
 * size's buckets, for each group).  Up to SPARSE_MAX_KEYS keys.
 *
 * A key set's keys depend on it, the word size and the argument's width
 * alone (a heap set's not even on the word), so they are read once for
 * each of those (at most KEY_SLOTS combinations) and every function of the
 * set hashes the same keys: for the heap sets, the same live objects
 * through every function and word, instead of allocating tens of MB of new
 * ones for each (most of the time of a report, before).
 */
#define SPARSE_MAX_KEYS (UINT64_C(1) << 24)
#define KEY_SLOTS 4

struct key_slot {
	int keyset;             /* -1: empty */
	unsigned word, input_bits;
	size_t n;
	uint64_t *keys;
};

struct sparse_bufs {
	struct key_slot slot[KEY_SLOTS];
	uint64_t *words, *scratch;
	size_t cap;
};

static void sparse_init(struct sparse_bufs *sb)
{
	int i;

	memset(sb, 0, sizeof(*sb));
	for (i = 0; i < KEY_SLOTS; i++)
		sb->slot[i].keyset = -1;
}

static void sparse_free(struct sparse_bufs *sb)
{
	int i;

	for (i = 0; i < KEY_SLOTS; i++)
		free(sb->slot[i].keys);
	free(sb->words);
	free(sb->scratch);
}

static int sparse_fits(const struct kb_report_opts *o)
{
	return o->params.count < UINT64_C(1) << o->bits_max &&
	       o->params.count <= SPARSE_MAX_KEYS;
}

/* The slot holding this key set's keys for these parameters, or NULL. */
static struct key_slot *slot_of(struct sparse_bufs *sb, int keyset,
				const struct kb_keyset_params *kp)
{
	int i;

	/* a heap set's objects are this host's, whatever word is modelled */
	int any_word = (kb_keysets[keyset].flags & KB_KS_HEAP) != 0;

	for (i = 0; i < KEY_SLOTS; i++)
		if (sb->slot[i].keyset == keyset &&
		    (any_word || sb->slot[i].word == kp->word) &&
		    sb->slot[i].input_bits == kp->input_bits)
			return &sb->slot[i];
	return NULL;
}

/* Read an open stream into a slot: another key set's slots are emptied
 * first (the report takes one key set after the other). */
static struct key_slot *slot_fill(struct sparse_bufs *sb, int keyset,
				  const struct kb_keyset_params *kp,
				  struct kb_keystream *ks)
{
	size_t cap = (size_t)kp->count, got, i;
	struct key_slot *sl = NULL;

	for (i = 0; i < KEY_SLOTS; i++) {
		if (sb->slot[i].keyset != keyset)
			sb->slot[i].keyset = -1;
		if (!sl && sb->slot[i].keyset == -1)
			sl = &sb->slot[i];
	}
	if (!sl)
		sl = &sb->slot[0]; /* more combinations than slots: reuse */
	if (cap > sb->cap) {
		uint64_t *w = realloc(sb->words, cap * sizeof(uint64_t));

		if (w)
			sb->words = w;
		w = w ? realloc(sb->scratch, cap * sizeof(uint64_t)) : NULL;
		if (!w)
			return NULL;
		sb->scratch = w;
		sb->cap = cap;
	}
	free(sl->keys);
	sl->keyset = -1;
	if (!(sl->keys = malloc((cap ? cap : 1) * sizeof(uint64_t))))
		return NULL;
	sl->n = 0;
	while (sl->n < cap && (got = kb_keystream_next(ks, sl->keys + sl->n, cap - sl->n)) > 0)
		sl->n += got;
	sl->keyset = keyset;
	sl->word = kp->word;
	sl->input_bits = kp->input_bits;
	return sl;
}

/* Every cell of a group from its keys, one generation after the other;
 * cells as run_group lays them out. */
static const char *const counted_by_names[KB_COUNTED_COUNT_] = {
	[KB_COUNTED_ENGINE] = "engine",
	[KB_COUNTED_SORTED] = "sorted",
	[KB_COUNTED_ONE_BY_ONE] = "one by one",
};

const char *kb_counted_by_name(enum kb_counted_by by)
{
	return (unsigned)by < KB_COUNTED_COUNT_ ? counted_by_names[by] : NULL;
}

/*
 * Generation U's cells of a group (the g-th generation of the group that
 * starts at first): its keys through the user's function at every size,
 * each size on its own, for its buckets do not fold.
 */
static int user_cells(struct kb_report *r, const uint64_t *keys, size_t n, int g,
		      size_t first, char *err, size_t errlen)
{
	const struct kb_report_opts *o = &r->opts;
	unsigned per = o->bits_max - o->bits_min + 1, b;
	uint64_t *all, *counts[64] = { NULL };
	struct kb_skew sk[64];
	size_t at = 0;
	int rc;

	/* few keys: their buckets held, the tables' cost is the keys' */
	if ((uint64_t)n * per <= UINT64_C(1) << 22 && o->bits_max <= 32) {
		rc = kb_user_skews(o->bits_min, o->bits_max, keys, n, sk, err, errlen);
		for (b = 0; b < per && rc == 0; b++) {
			struct kb_cell *c = &r->cells[first + (size_t)g * per + b];

			c->skew = sk[b];
			c->ok = 1;
			c->counted_by = KB_COUNTED_ONE_BY_ONE;
		}
		kb_progress_add(o->progress, n);
		return rc;
	}
	if (!(all = calloc((UINT64_C(2) << o->bits_max) - (UINT64_C(1) << o->bits_min),
			   sizeof(*all)))) {
		snprintf(err, errlen, "out of memory for 2^%u buckets", o->bits_max + 1);
		return -1;
	}
	for (b = 0; b < per; b++) {
		counts[b] = all + at;
		at += (size_t)1 << (o->bits_min + b);
	}
	rc = kb_user_count(o->bits_min, o->bits_max, keys, n, counts, err, errlen);
	for (b = 0; b < per && rc == 0; b++) {
		struct kb_cell *c = &r->cells[first + (size_t)g * per + b];

		kb_skew_from_counts(counts[b], UINT64_C(1) << (o->bits_min + b), &c->skew);
		c->ok = 1;
		c->counted_by = KB_COUNTED_ONE_BY_ONE;
	}
	free(all);
	kb_progress_add(o->progress, n);
	return rc;
}

static int sparse_group(struct kb_report *r, struct sparse_bufs *sb,
			const struct key_slot *sl, const struct kb_hashspec *specs,
			int ng, size_t first, char *err, size_t errlen)
{
	const struct kb_report_opts *o = &r->opts;
	unsigned per = o->bits_max - o->bits_min + 1, b;
	int g;

	for (g = 0; g < ng; g++) {
		struct kb_skew sk[64];

		if (specs[g].user) {
			if (user_cells(r, sl->keys, sl->n, g, first, err, errlen) < 0)
				return -1;
			continue;
		}
		kb_full_words(&specs[g], sl->keys, sl->n, sb->words);
		kb_skew_by_bits(sb->words, sb->scratch, sl->n, o->bits_min,
				o->bits_max, sk);
		for (b = 0; b < per; b++) {
			struct kb_cell *c = &r->cells[first + (size_t)g * per + b];

			c->skew = sk[b];
			c->ok = 1;
			c->counted_by = KB_COUNTED_SORTED;
		}
		kb_progress_add(o->progress, sl->n);
	}
	return 0;
}

/* A group over the given keys: all of them through every generation, at
 * the cost of the keys (skew_by_bits), or n/a where a key is too wide. */
static int given_group(struct kb_report *r, struct sparse_bufs *sb,
		       const struct kb_hashspec *specs, int ng, size_t first,
		       unsigned input_bits, char *err, size_t errlen)
{
	const struct kb_report_opts *o = &r->opts;
	struct key_slot sl;
	size_t n, bad = kb_first_misfit(o->keys, o->nkeys, input_bits);

	if (bad < o->nkeys) {
		for (n = first; n < r->n_cells; n++)
			snprintf(r->cells[n].why, sizeof(r->cells[n].why),
				 "key 0x%llx does not fit the %u-bit argument",
				 (unsigned long long)o->keys[bad], input_bits);
		kb_progress_add(o->progress, (uint64_t)o->nkeys * (uint64_t)ng);
		return 0;
	}
	if (o->nkeys > sb->cap) {
		uint64_t *w = realloc(sb->words, o->nkeys * sizeof(uint64_t));

		if (w)
			sb->words = w;
		w = w ? realloc(sb->scratch, o->nkeys * sizeof(uint64_t)) : NULL;
		if (!w) {
			snprintf(err, errlen, "out of memory for %zu keys", o->nkeys);
			return -1;
		}
		sb->scratch = w;
		sb->cap = o->nkeys;
	}
	memset(&sl, 0, sizeof(sl));
	sl.keys = (uint64_t *)o->keys;
	sl.n = o->nkeys;
	return sparse_group(r, sb, &sl, specs, ng, first, err, errlen);
}

/* Whether the report has a cell of generation g for func on word. */
static int takes(const struct kb_report_opts *o, int g, lkh_func func, unsigned word)
{
	return (o->gens & (1u << g)) &&
	       lkh_bits_max(func, g >= (int)LKH_GEN_COUNT ? KB_GEN_TODAY : (lkh_gen)g, word);
}

void kb_report_spec(const struct kb_report_opts *o, int g, lkh_func func,
		    unsigned word, struct kb_hashspec *s)
{
	struct kb_gen kg = { g, o->k, o->k_width };

	kb_hashspec_make(s, func, word, &kg);
}

/* Generation U over a key set too large to keep for the other cells:
 * its keys read apart, into memory. */
static int user_stream(struct kb_report *r, int keyset, const struct kb_keyset_params *kp,
		       int g, size_t first, char *err, size_t errlen)
{
	uint64_t *keys;
	size_t n;
	int rc;

	if (kb_keyset_collect(keyset, kp, &keys, &n, err, errlen) < 0)
		return -1;
	rc = user_cells(r, keys, n, g, first, err, errlen);
	free(keys);
	return rc;
}

static int run_group(struct kb_report *r, struct sparse_bufs *sb, int keyset,
		     lkh_func func, unsigned word, char *err, size_t errlen)
{
	const struct kb_report_opts *o = &r->opts;
	struct kb_keyset_params kp = o->params;
	struct kb_keystream ks;
	struct kb_engine_opts eo = { 0 };
	struct kb_engine_plan ran;
	struct kb_hashspec specs[KB_GEN_COUNT];
	uint64_t *counts;
	int ng = 0, g, rc, user;
	unsigned bmax = o->bits_max, b;
	size_t n, first = r->n_cells;
	struct key_slot *sl;
	char why[96] = "";

	for (g = 0; g < KB_GEN_COUNT; g++)
		if (takes(o, g, func, word))
			kb_report_spec(o, g, func, word, &specs[ng++]);
	if (ng == 0)
		return 0;
	/* cells first, so a group that does not apply still shows */
	for (g = 0; g < ng; g++) {
		for (b = o->bits_min; b <= bmax; b++) {
			struct kb_cell *c = &r->cells[r->n_cells++];

			memset(c, 0, sizeof(*c));
			c->keyset = keyset;
			c->source = keyset < 0 ? o->keys_name : NULL;
			c->spec = specs[g];
			c->bits = b;
		}
	}
	kp.word = word;
	kp.input_bits = lkh_input_bits(func, word);
	if (keyset < 0)
		return given_group(r, sb, specs, ng, first, kp.input_bits, err, errlen);
	if (kb_keysets[keyset].flags & KB_KS_PER_CELL)
		snprintf(why, sizeof(why), "built for one cell: use khash-bench skew --keyset %s",
			 kb_keysets[keyset].name);
	if (!why[0] && sparse_fits(o) && (sl = slot_of(sb, keyset, &kp)))
		return sparse_group(r, sb, sl, specs, ng, first, err, errlen);
	if (why[0] || kb_keystream_open(&ks, keyset, &kp, why, sizeof(why)) < 0) {
		/* expected by kb_report_run: a group that counts nothing is done */
		kb_progress_add(o->progress, o->params.count * (uint64_t)ng);
		for (n = first; n < r->n_cells; n++)
			strcpy(r->cells[n].why, why);
		return 0;
	}
	if (sparse_fits(o)) {
		sl = slot_fill(sb, keyset, &kp, &ks);
		kb_keystream_close(&ks);
		if (!sl) {
			snprintf(err, errlen, "out of memory for %llu keys",
				 (unsigned long long)kp.count);
			return -1;
		}
		return sparse_group(r, sb, sl, specs, ng, first, err, errlen);
	}
	/* generation U, the last when present, is no engine's: its keys apart */
	user = specs[ng - 1].user;
	if (user && user_stream(r, keyset, &kp, ng - 1, first, err, errlen) < 0) {
		kb_keystream_close(&ks);
		return -1;
	}
	if (ng == user) {
		kb_keystream_close(&ks);
		return 0;
	}
	ng -= user;
	counts = alloc_counts(bmax, (size_t)ng);
	if (!counts) {
		kb_keystream_close(&ks);
		snprintf(err, errlen, "out of memory for %d x 2^%u buckets", ng,
			 bmax);
		return -1;
	}
	eo.threads = o->threads;
	eo.progress = o->progress;
	eo.enumerate = o->enumerate;
	eo.ran = &ran;
	rc = kb_count_parallel(specs, (size_t)ng, bmax, &ks, &eo, counts, err,
			       errlen);
	kb_keystream_close(&ks);
	if (rc < 0) {
		free(counts);
		return -1;
	}
	for (g = 0; g < ng; g++) {
		uint64_t *h = counts + ((size_t)g << bmax);

		for (b = bmax; b >= o->bits_min; b--) {
			struct kb_cell *c =
				&r->cells[first + (size_t)g * (bmax - o->bits_min + 1) +
					  (b - o->bits_min)];

			kb_skew_from_counts(h, UINT64_C(1) << b, &c->skew);
			c->ok = 1;
			c->counted_by = KB_COUNTED_ENGINE;
			c->ran = ran;
			if (b > 1)
				kb_fold(h, b);
		}
	}
	free(counts);
	return 0;
}

/* Every (key set, function, word) of the report, in order: counted, or
 * (count_only) only announced to the progress; -1 at a failure. */
static int each_group(struct kb_report *r, struct sparse_bufs *sb,
		      int count_only, char *err, size_t errlen)
{
	const struct kb_report_opts *o = &r->opts;
	int k, f, g;
	unsigned w;

	unsigned i;

	/* the given keys are one key set of their own, k = -1; the key sets
	 * in the order the user named them */
	for (i = 0; i < (o->keys ? 1u : o->n_order ? o->n_order : KB_KS_COUNT); i++) {
		k = o->keys ? -1 : o->n_order ? o->keyset_order[i] : (int)i;
		if (k >= 0 && !(o->keysets & (1u << k)))
			continue;
		for (f = 0; f < LKH_FUNC_COUNT; f++) {
			if (!(o->funcs & (1u << f)))
				continue;
			for (w = 64; w >= 32; w -= 32) {
				if (!(o->words & (w == 64 ? 2u : 1u)))
					continue;
				if (!count_only) {
					if (run_group(r, sb, k, (lkh_func)f, w,
						      err, errlen) < 0)
						return -1;
					continue;
				}
				/* what the progress shows: keys x generations */
				for (g = 0; g < KB_GEN_COUNT; g++)
					if (takes(o, g, (lkh_func)f, w))
						kb_progress_expect(o->progress,
								   o->keys ? o->nkeys
									   : o->params.count);
			}
		}
	}
	return 0;
}

int kb_report_run(struct kb_report *r, char *err, size_t errlen)
{
	const struct kb_report_opts *o = &r->opts;
	size_t per = (size_t)(o->bits_max - o->bits_min + 1) * KB_GEN_COUNT;
	struct sparse_bufs sb;
	int rc;

	r->cells = calloc((size_t)KB_KS_COUNT * LKH_FUNC_COUNT * 2 * per,
			  sizeof(*r->cells));
	r->n_cells = 0;
	if (!r->cells) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	each_group(r, NULL, 1, err, errlen);
	sparse_init(&sb);
	rc = each_group(r, &sb, 0, err, errlen);
	sparse_free(&sb);
	return rc;
}

double kb_report_seconds(const struct kb_report_opts *o)
{
	struct kb_engine_opts eo = { .threads = o->threads, .path = KB_PATH_AUTO,
				     .enumerate = o->enumerate };
	struct kb_hashspec s;
	double seconds = 0, one;
	char err[256];
	int k, f, g;
	unsigned w;

	for (k = o->keys ? -1 : 0; k < (o->keys ? 0 : KB_KS_COUNT); k++)
		for (f = 0; f < LKH_FUNC_COUNT; f++)
			for (w = 32; w <= 64; w += 32)
				for (g = 0; g < KB_GEN_COUNT; g++) {
					if ((k >= 0 && !(o->keysets & (1u << k))) ||
					    !(o->funcs & (1u << f)) ||
					    !(o->words & (w == 64 ? 2u : 1u)) ||
					    !takes(o, g, (lkh_func)f, w))
						continue;
					kb_report_spec(o, g, (lkh_func)f, w, &s);
					if (k < 0)
						one = (double)o->nkeys * KB_NS_PER_HASH / 1e9;
					else if (kb_keyset_seconds(&s, o->bits_max, k, &o->params,
								   &eo, &one, err, sizeof(err)) < 0)
						one = 0; /* an n/a row */
					seconds += one;
				}
	return seconds;
}

void kb_report_free(struct kb_report *r)
{
	free(r->cells);
	r->cells = NULL;
	r->n_cells = 0;
}

int kb_report_hists(const struct kb_report *r, const struct kb_hist_req *req,
		    size_t n, struct kb_hist *out, char *err, size_t errlen)
{
	struct kb_engine_opts eo = { .threads = r->opts.threads, .path = KB_PATH_AUTO,
				     .enumerate = r->opts.enumerate };
	size_t i;
	int g;

	memset(out, 0, n * sizeof(*out));
	for (i = 0; i < n; i++) {
		out[i].req = req[i];
		for (g = 0; g < KB_GEN_COUNT; g++) {
			struct kb_hashspec s;

			/* hash.h's always; K and U when the report has them */
			if (g >= (int)LKH_GEN_COUNT && !(r->opts.gens & 1u << g))
				continue;
			kb_report_spec(&r->opts, g, req[i].func, req[i].word, &s);
			if (kb_count_keyset(&s, req[i].bits, req[i].keyset,
					    &r->opts.params, &eo, &out[i].counts[g],
					    err, errlen) < 0) {
				kb_hists_free(out, i + 1);
				return -1;
			}
		}
	}
	return 0;
}

void kb_hists_free(struct kb_hist *h, size_t n)
{
	size_t i;
	int g;

	for (i = 0; i < n; i++)
		for (g = 0; g < KB_GEN_COUNT; g++) {
			free(h[i].counts[g]);
			h[i].counts[g] = NULL;
		}
}
