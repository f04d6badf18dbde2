/* SPDX-License-Identifier: MIT */
#include "census.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh_table.h>

#include "census_atlas.h"
#include "census_sites.h"
#include "tables.h"

static const char *const extra_names[] = { "inode_hash", "btrfs_inode_hash" };

const char *kb_census_func_name(int func)
{
	if (func >= 0 && func < LKH_FUNC_COUNT)
		return lkh_func_name((lkh_func)func);
	if (func >= LKH_FUNC_COUNT && func < KB_CENSUS_FUNC_COUNT)
		return extra_names[func - LKH_FUNC_COUNT];
	return NULL;
}

int kb_census_func_find(const char *name)
{
	int f;

	for (f = 0; f < KB_CENSUS_FUNC_COUNT; f++)
		if (!strcmp(name, kb_census_func_name(f)))
			return f;
	return -1;
}

int kb_census_two_inputs(int func)
{
	return func >= LKH_FUNC_COUNT;
}

unsigned kb_census_input_bits(int func, unsigned word)
{
	if (func == KB_CENSUS_INODE_HASH)
		return word; /* both are unsigned long */
	if (func == KB_CENSUS_BTRFS_INODE_HASH)
		return 64;   /* u64 objectid, u64 root objectid */
	return lkh_input_bits((lkh_func)func, word);
}

unsigned kb_census_bits_max(int func, unsigned word)
{
	unsigned max = 0, b;
	int g;

	if (func == KB_CENSUS_INODE_HASH)
		return word - 1; /* i_hash_shift: the fold shifts by it */
	if (func == KB_CENSUS_BTRFS_INODE_HASH)
		return 0;
	for (g = 0; g < LKH_GEN_COUNT; g++)
		if ((b = lkh_bits_max((lkh_func)func, (lkh_gen)g, word)) > max)
			max = b;
	return max;
}

int kb_census_add_key(struct kb_census_site *s, uint64_t a, uint64_t b)
{
	if (s->nkeys == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct kb_census_key *k = realloc(s->keys, cap * sizeof(*k));

		if (!k)
			return -1;
		s->keys = k;
		s->cap = cap;
	}
	s->keys[s->nkeys].a = a;
	s->keys[s->nkeys].b = b;
	s->nkeys++;
	return 0;
}

void kb_census_file_free(struct kb_census_file *f)
{
	size_t i;

	for (i = 0; i < f->nsites; i++) {
		free(f->sites[i].where);
		free(f->sites[i].module);
		free(f->sites[i].keys);
	}
	for (i = 0; i < f->nmeta; i++) {
		free(f->meta[i].name);
		free(f->meta[i].value);
	}
	for (i = 0; i < f->nuncalled; i++)
		free(f->uncalled[i]);
	free(f->uncalled);
	free(f->sites);
	free(f->meta);
	free(f->name);
	memset(f, 0, sizeof(*f));
}

enum kb_verdict_kind kb_census_verdict(const struct kb_skew *s)
{
	enum kb_verdict_kind v = kb_verdict_of(s);

	return v < KB_VERDICT_JUDGED ? v : KB_VERDICT_OK;
}

int kb_census_gen_next(unsigned gens, int g)
{
	while (g < KB_GEN_COUNT && !(gens >> g & 1u))
		g++;
	return g;
}

int kb_census_gen_column(unsigned gens, int g)
{
	int c = 0, i;

	for (i = 0; i < g; i++)
		c += gens >> i & 1u;
	return c;
}

int kb_census_row_verdict(const struct kb_census_row *r, int g)
{
	if (!r->at)
		return KB_VERDICT_TOO_FEW;
	if (g == KB_GEN_USER && r->user_na)
		return KB_CENSUS_NA;
	if (r->kind.kind == KB_SITE_OTHER)
		return KB_CENSUS_NO_BUCKET;
	return kb_census_verdict(&r->gen[g]);
}

const char *kb_census_row_verdict_word(const struct kb_census_row *r, int g)
{
	int v = kb_census_row_verdict(r, g);

	if (v == KB_CENSUS_NA)
		return "n/a";
	if (v != KB_CENSUS_NO_BUCKET)
		return kb_verdict_word((enum kb_verdict_kind)v);
	return r->kind.feeds ? "feeds another hash" : "no bucket";
}

const struct kb_census_row *kb_census_bucket_row(const struct kb_census_row *rows, size_t n,
						 const struct kb_census_row *r)
{
	size_t i;

	if (!r->kind.feeds || strcmp(r->kind.feeds, KB_SITE_FEEDS_SAME_LINE))
		return NULL;
	for (i = 0; i < n; i++)
		if (rows[i].file == r->file && rows[i].site->func != r->site->func &&
		    rows[i].kind.kind != KB_SITE_OTHER && !strcmp(rows[i].site->where, r->site->where))
			return &rows[i];
	return NULL;
}

static int key_cmp(const void *x, const void *y)
{
	const struct kb_census_key *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* The distinct keys of a site, sorted: a table holds each object once,
 * however often it was looked up.  NULL when out of memory. */
static struct kb_census_key *distinct_keys(const struct kb_census_site *s, size_t *n)
{
	struct kb_census_key *k = malloc((s->nkeys ? s->nkeys : 1) * sizeof(*k));
	size_t i, out = 0;

	if (!k)
		return NULL;
	if (s->nkeys)
		memcpy(k, s->keys, s->nkeys * sizeof(*k));
	qsort(k, s->nkeys, sizeof(*k), key_cmp);
	for (i = 0; i < s->nkeys; i++)
		if (out == 0 || key_cmp(&k[out - 1], &k[i]) != 0)
			k[out++] = k[i];
	*n = out;
	return k;
}

int kb_census_table_of(const char *where, int func)
{
	unsigned t;

	for (t = 0; t < kb_tables_count; t++)
		/* both two-input functions feed fs/inode.c hash(): its recipe */
		if (func >= LKH_FUNC_COUNT ? kb_tables[t].tx == KB_TX_INODE
					   : !strcmp(kb_tables[t].site, where))
			return (int)t;
	return -1;
}

void kb_census_kind_of(const char *kernel, const char *where, int func,
		       struct kb_census_kind *k)
{
	int t = kb_census_table_of(where, func);
	const struct kb_census_site_use *u = NULL;

	if (t < 0 && (u = kb_census_site_use_find(kernel, where, kb_census_func_name(func))) &&
	    u->kind == KB_SITE_NAMED)
		t = kb_table_find(u->what);
	k->kind = KB_SITE_UNKNOWN;
	k->what = NULL;
	k->feeds = NULL;
	k->from = KB_CENSUS_KIND_NONE;
	if (t >= 0) {
		k->kind = kb_tables[t].kind;
		k->what = kb_tables[t].name;
		k->from = KB_CENSUS_KIND_TABLE;
	} else if (u && u->kind != KB_SITE_NAMED) {
		k->kind = u->kind;
		k->what = u->what;
		k->feeds = u->feeds;
		k->from = KB_CENSUS_KIND_SITE;
	}
}

/* btrfs_inode_hash() (fs/btrfs/btrfs_inode.h:261 in 6.1): u64 arithmetic
 * on the generation's GOLDEN_RATIO_PRIME, folded to 32 bits on a 32-bit
 * kernel; the result is the hashval fs/inode.c hash() goes on with. */
static uint64_t btrfs_inode_hash(const struct kb_gen *g, unsigned word, uint64_t objectid,
				 uint64_t root)
{
	uint64_t h = objectid ^ (root * kb_gen_golden_ratio_prime(g, word));

	if (word == 32)
		h = (h >> 32) ^ (h & 0xffffffffu);
	return h;
}

/* The bucket of one key in the row's table of 2^bits, as gen computes it,
 * then its top `at` bits. */
static int bucket_of(const struct kb_census_row *r, unsigned word, const struct kb_gen *g,
		     const struct kb_census_key *k, uint64_t sb, uint64_t *out,
		     char *err, size_t errlen)
{
	const struct kb_census_site *s = r->site;
	uint64_t full, b;
	unsigned width;
	int rc;

	if (s->func < LKH_FUNC_COUNT && g->gen == KB_GEN_K &&
	    s->func != LKH_FUNC_HASH32_PTR) {
		/* K's product (hash32_ptr multiplies by nothing: as hash.h) */
		struct kb_hashspec ks;

		kb_hashspec_make(&ks, (lkh_func)s->func, word, g);
		kb_full_words(&ks, &k->a, 1, &full);
		*out = full >> (64 - r->at);
		return 0;
	}
	if (s->func < LKH_FUNC_COUNT) {
		/* every function keeps the top bits of one word */
		rc = lkh_hash_full((lkh_func)s->func,
				   g->gen == KB_GEN_K ? KB_GEN_TODAY : (lkh_gen)g->gen, word, k->a,
				   &full, &width);
		if (rc != LKH_OK) {
			snprintf(err, errlen, "site %lu (%s): key %#llx: %s", s->id, s->where,
				 (unsigned long long)k->a, lkh_strerror(rc));
			return -1;
		}
		*out = full >> (width - r->at);
		return 0;
	}
	if (s->func == KB_CENSUS_INODE_HASH)
		rc = kb_table_bucket(&kb_tables[r->table], g, word, r->bits, k->b, k->a, &b,
				     err, errlen);
	else
		rc = kb_table_bucket(&kb_tables[r->table], g, word, r->bits,
				     btrfs_inode_hash(g, word, k->a, k->b), sb, &b, err, errlen);
	if (rc < 0)
		return -1;
	*out = b >> (r->bits - r->at);
	return 0;
}

/*
 * What a file's fs/inode.c hash() records tell about its inode table: the
 * (hashval, sb) pairs, sorted, and i_hash_shift.  btrfs_inode_hash()'s
 * value is the hashval of such a record, so its keys find their super
 * block there (a btrfs key's own record holds none).
 */
struct inode_records {
	struct kb_census_key *by_hashval; /* a = hashval, b = sb */
	size_t n;
	unsigned shift;                   /* 0: no record gave one */
};

static int inode_records_of(const struct kb_census_file *f, struct inode_records *ir)
{
	size_t i, j, total = 0;

	memset(ir, 0, sizeof(*ir));
	for (i = 0; i < f->nsites; i++)
		if (f->sites[i].func == KB_CENSUS_INODE_HASH) {
			total += f->sites[i].nkeys;
			if (!ir->shift)
				ir->shift = f->sites[i].bits;
		}
	ir->by_hashval = malloc((total ? total : 1) * sizeof(*ir->by_hashval));
	if (!ir->by_hashval)
		return -1;
	for (i = 0; i < f->nsites; i++)
		for (j = 0; f->sites[i].func == KB_CENSUS_INODE_HASH && j < f->sites[i].nkeys; j++) {
			ir->by_hashval[ir->n].a = f->sites[i].keys[j].b;
			ir->by_hashval[ir->n++].b = f->sites[i].keys[j].a;
		}
	qsort(ir->by_hashval, ir->n, sizeof(*ir->by_hashval), key_cmp);
	return 0;
}

/* The super block of the first record with this hashval, or 0. */
static uint64_t sb_of_hashval(const struct inode_records *ir, uint64_t hashval)
{
	size_t lo = 0, hi = ir->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ir->by_hashval[mid].a < hashval)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ir->n && ir->by_hashval[lo].a == hashval ? ir->by_hashval[lo].b : 0;
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;

	return p < q ? -1 : p > q;
}

/*
 * Each btrfs key's super block: the one whose hash() record has the value
 * 6.1 (new) computed for it; a key without one takes the super block most
 * of the others found, or, when none did, the inode-hash table's.
 * Returns how many found theirs, or -1 out of memory.
 */
static long btrfs_super_blocks(const struct inode_records *ir, unsigned word,
			       const struct kb_census_key *keys, size_t n,
			       uint64_t fallback, uint64_t *sb)
{
	uint64_t *found = malloc((n ? n : 1) * sizeof(*found)), best = fallback;
	size_t i, nf = 0, run, best_run = 0;

	if (!found)
		return -1;
	/* the value the census kernel (6.1, on new) recorded, not today's */
	for (i = 0; i < n; i++)
		if ((sb[i] = sb_of_hashval(ir, btrfs_inode_hash(KB_GEN_OF(LKH_GEN_NEW), word, keys[i].a,
								keys[i].b))))
			found[nf++] = sb[i];
	qsort(found, nf, sizeof(*found), u64_cmp);
	for (i = 0; i < nf; i += run) {
		for (run = 1; i + run < nf && found[i + run] == found[i]; run++)
			;
		if (run > best_run) {
			best_run = run;
			best = found[i];
		}
	}
	for (i = 0; i < n; i++)
		if (!sb[i])
			sb[i] = best;
	free(found);
	return (long)nf;
}

unsigned kb_census_judge_bits(uint64_t n, unsigned max)
{
	unsigned a = 0;

	while (a < max && a < 32 && kb_enough_keys(n, UINT64_C(2) << a))
		a++;
	return a;
}

uint64_t kb_census_min_keys(void)
{
	return kb_keys_needed(2);
}

/* U at a site: the keys (the first input of each) through the user's
 * function at 2^at buckets, in place of the site's hash.h function;
 * args: room for n.  0, or -1 with a reason naming the site. */
static int user_skew(struct kb_census_row *r, const struct kb_census_key *keys, size_t n,
		     uint64_t *args, char *err, size_t errlen)
{
	size_t i, len;

	for (i = 0; i < n; i++)
		args[i] = keys[i].a;
	if (kb_user_skews(r->at, r->at, args, n, &r->gen[KB_GEN_USER], err, errlen) == 0)
		return 0;
	/* the reason names key and bits; the site goes before it */
	len = strlen(err);
	if (len + 1 < errlen) {
		char site[128];
		int m = snprintf(site, sizeof(site), "site %lu (%s): ", r->site->id, r->site->where);

		if (m > 0 && (size_t)m + len < errlen) {
			memmove(err + m, err, len + 1);
			memcpy(err, site, (size_t)m);
		}
	}
	return -1;
}

static int judge_site(const struct kb_census_file *f, size_t fi,
		      const struct inode_records *ir, const struct kb_census_site *s,
		      const struct kb_gen *kg, struct kb_census_row *r, char *err,
		      size_t errlen)
{
	struct kb_census_key *keys;
	uint64_t *counts, *sb = NULL;
	size_t n, i;
	char kernel[64];
	int g;

	memset(r, 0, sizeof(*r));
	r->gens = (1u << LKH_GEN_COUNT) - 1;
	if (kg)
		r->gens |= 1u << KB_GEN_K;
	if (kb_user_gen_get())
		r->gens |= 1u << KB_GEN_USER;
	if (s->func >= LKH_FUNC_COUNT)
		r->user_na = "its bucket is fs/inode.c hash()'s, no hash.h call of the key";
	if (kg)
		r->k = *kg;
	r->file = fi;
	r->site = s;
	r->table = kb_census_table_of(s->where, s->func);
	kb_census_kind_of(kb_census_kernel(f, kernel, sizeof(kernel)) ? kernel : NULL,
			  s->where, s->func, &r->kind);
	r->bits = s->bits;
	r->bits_from = KB_CENSUS_BITS_SITE;
	if (s->func >= LKH_FUNC_COUNT && r->table < 0) {
		snprintf(err, errlen, "no named table computes fs/inode.c hash()");
		return -1;
	}
	if (r->bits == 0 && s->func == KB_CENSUS_BTRFS_INODE_HASH && ir->shift) {
		/* the table it feeds is the one the hash() records measured */
		r->bits_from = KB_CENSUS_BITS_INODE;
		r->bits = ir->shift;
	} else if (r->bits == 0) {
		r->bits_from = r->table >= 0 ? KB_CENSUS_BITS_TABLE : KB_CENSUS_BITS_WORD;
		r->bits = r->table >= 0 ? kb_tables[r->table].bits : 32;
	}
	if (kg && s->func < LKH_FUNC_COUNT && s->func != LKH_FUNC_HASH32_PTR) {
		/* K's product must see the whole argument */
		struct kb_hashspec ks;

		kb_hashspec_make(&ks, (lkh_func)s->func, f->word, kg);
		if (kb_multiplier_check(ks.k, ks.k_width, err, errlen) < 0)
			return -1;
		if (kb_hashspec_input_bits(&ks) > ks.k_width) {
			snprintf(err, errlen, "site %lu (%s): %s on %u-bit takes 64-bit keys: a 32-bit multiplier would drop their high half (give --width 64)",
				 s->id, s->where, kb_census_func_name(s->func), f->word);
			return -1;
		}
		r->k_width = ks.k_width;
	} else if (kg && s->func >= LKH_FUNC_COUNT) {
		r->k_width = f->word; /* K as GOLDEN_RATIO_PRIME, a word */
	}
	keys = distinct_keys(s, &n);
	if (!keys) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	r->distinct = n;
	r->at = kb_census_judge_bits(n, r->bits);
	if (r->at == 0) {
		free(keys);
		return 0;
	}
	/* the buckets of the keys, sorted into loads: a table of up to 2^32
	 * buckets costs its n keys, not its size */
	counts = malloc((n ? n : 1) * sizeof(*counts));
	if (s->func == KB_CENSUS_BTRFS_INODE_HASH && counts &&
	    ((sb = malloc(n * sizeof(*sb))) == NULL ||
	     (r->sb_found = btrfs_super_blocks(ir, f->word, keys, n,
					      kb_table_param(&kb_tables[r->table], f->word),
					      sb)) < 0)) {
		free(counts);
		counts = NULL;
	}
	if (!counts) {
		free(sb);
		free(keys);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (g = kb_census_gen_next(r->gens, 0); g < KB_GEN_COUNT;
	     g = kb_census_gen_next(r->gens, g + 1)) {
		size_t loads = 0, run;
		const struct kb_gen *gg = g == KB_GEN_K ? kg : KB_GEN_OF(g);

		if (g == KB_GEN_USER) {
			if (!r->user_na && user_skew(r, keys, n, counts, err, errlen) < 0) {
				free(sb);
				free(counts);
				free(keys);
				return -1;
			}
			continue;
		}

		for (i = 0; i < n; i++)
			if (bucket_of(r, f->word, gg, &keys[i], sb ? sb[i] : 0, &counts[i],
				      err, errlen) < 0) {
				free(sb);
				free(counts);
				free(keys);
				return -1;
			}
		qsort(counts, n, sizeof(*counts), u64_cmp);
		for (i = 0; i < n; i += run) {
			for (run = 1; i + run < n && counts[i + run] == counts[i]; run++)
				;
			counts[loads++] = run;
		}
		kb_skew_from_loads(counts, loads, UINT64_C(1) << r->at, &r->gen[g]);
	}
	free(sb);
	free(counts);
	free(keys);
	return 0;
}

static int cmp_double_desc(double x, double y)
{
	return x > y ? -1 : x < y;
}

/* Worst first (see census.h); rows of one file only. */
static int row_cmp(const void *x, const void *y)
{
	const struct kb_census_row *p = x, *q = y;
	int c;

	if ((p->at == 0) != (q->at == 0))
		return p->at == 0 ? 1 : -1;
	/* a site with no verdict (no bucket) after those with one */
	if (p->at && (p->kind.kind == KB_SITE_OTHER) != (q->kind.kind == KB_SITE_OTHER))
		return p->kind.kind == KB_SITE_OTHER ? 1 : -1;
	if (p->at) {
		enum kb_verdict_kind vp = kb_census_verdict(&p->gen[LKH_GEN_OLD]);
		enum kb_verdict_kind vq = kb_census_verdict(&q->gen[LKH_GEN_OLD]);

		if (vp != vq)
			return vp > vq ? -1 : 1;
		if ((c = cmp_double_desc(p->gen[LKH_GEN_OLD].chi2_per_df,
					 q->gen[LKH_GEN_OLD].chi2_per_df)))
			return c;
		if ((c = cmp_double_desc(p->gen[KB_GEN_TODAY].chi2_per_df,
					 q->gen[KB_GEN_TODAY].chi2_per_df)))
			return c;
	}
	/* the file's order: sites are stored as read */
	return p->site < q->site ? -1 : p->site > q->site;
}

int kb_census_run(const struct kb_census_file *files, size_t n,
		  const struct kb_gen *k, struct kb_census_row **rows, size_t *nrows,
		  char *err, size_t errlen)
{
	size_t total = 0, i, j, done = 0;

	for (i = 0; i < n; i++)
		total += files[i].nsites;
	*rows = calloc(total ? total : 1, sizeof(**rows));
	*nrows = 0;
	if (!*rows) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		size_t first = done;
		struct inode_records ir;
		int rc = 0;

		if (inode_records_of(&files[i], &ir) < 0) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
		for (j = 0; rc == 0 && j < files[i].nsites; j++)
			rc = judge_site(&files[i], i, &ir, &files[i].sites[j], k,
					&(*rows)[done++], err, errlen);
		free(ir.by_hashval);
		if (rc < 0) {
			free(*rows);
			*rows = NULL;
			return -1;
		}
		qsort(*rows + first, done - first, sizeof(**rows), row_cmp);
	}
	*nrows = total;
	return 0;
}

void kb_census_summarize(const struct kb_census_row *rows, size_t n,
			 size_t file, struct kb_census_summary *out)
{
	size_t i;
	int g;

	memset(out, 0, sizeof(*out));
	out->gens = n ? rows[0].gens : (1u << LKH_GEN_COUNT) - 1;
	for (i = 0; i < n; i++) {
		if (rows[i].file != file)
			continue;
		out->sites++;
		if (!rows[i].at) {
			out->too_few++;
			continue;
		}
		out->judged++;
		out->gens = rows[i].gens;
		if (rows[i].kind.kind == KB_SITE_OTHER) {
			out->no_bucket++;
			out->feeds += rows[i].kind.feeds != NULL;
			continue;
		}
		for (g = kb_census_gen_next(rows[i].gens, 0); g < KB_GEN_COUNT;
		     g = kb_census_gen_next(rows[i].gens, g + 1))
			if (kb_census_row_verdict(&rows[i], g) == KB_CENSUS_NA)
				out->na[g]++;
			else
				out->verdicts[g][kb_census_verdict(&rows[i].gen[g])]++;
	}
}
