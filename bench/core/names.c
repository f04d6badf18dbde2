/* SPDX-License-Identifier: MIT */
#include "names.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashspec.h"
#include "report.h"
#include "tables.h"

int kb_names_add(struct kb_names *l, const void *s, size_t len)
{
	if (l->used + len > l->room) {
		size_t room = l->room ? 2 * l->room : 65536;
		char *p;

		while (room < l->used + len)
			room *= 2;
		if (!(p = realloc(l->bytes, room)))
			return -1;
		l->bytes = p;
		l->room = room;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 4096;
		struct kb_name *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	if (len)
		memcpy(l->bytes + l->used, s, len);
	l->v[l->n].off = l->used;
	l->v[l->n].len = len;
	l->n++;
	l->used += len;
	return 0;
}

const char *kb_names_at(const struct kb_names *l, size_t i)
{
	return l->bytes + l->v[i].off;
}

/* qsort has no context: the buffer the names point into, for one sort */
static const char *sort_bytes;

static int name_cmp(const void *x, const void *y)
{
	const struct kb_name *a = x, *b = y;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(sort_bytes + a->off, sort_bytes + b->off, n);

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

size_t kb_names_distinct(struct kb_names *l)
{
	size_t i, k = 0;

	if (!l->n)
		return 0;
	sort_bytes = l->bytes;
	qsort(l->v, l->n, sizeof(*l->v), name_cmp);
	for (i = 1; i < l->n; i++)
		if (name_cmp(&l->v[k], &l->v[i]))
			l->v[++k] = l->v[i];
	l->n = k + 1;
	return l->n;
}

void kb_names_free(struct kb_names *l)
{
	free(l->bytes);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const struct kb_name_set_info kb_name_sets[KB_NS_COUNT_] = {
#define KB_NS_ROW(id, name, formula) { name, formula },
	KB_NAME_SETS(KB_NS_ROW)
#undef KB_NS_ROW
};

int kb_name_set_find(const char *name)
{
	int i;

	for (i = 0; name && i < KB_NS_COUNT_; i++)
		if (!strcmp(name, kb_name_sets[i].name))
			return i;
	return -1;
}

/* users: common English surnames, the initials a..z before each */
static const char *const surnames[] = {
	"smith", "jones", "taylor", "brown", "williams", "wilson", "johnson", "davies",
	"robinson", "wright", "thompson", "evans", "walker", "white", "roberts", "green",
	"hall", "wood", "jackson", "clarke", "patel", "khan", "lewis", "james",
	"phillips", "mason", "mitchell", "rose", "davis", "rodriguez", "cox", "alexander",
};
#define SURNAMES (sizeof(surnames) / sizeof(surnames[0]))

/* The i-th name (from 0) of a set into buf: its length. */
static size_t name_of(int id, uint64_t i, char *buf, size_t room)
{
	unsigned long long n = (unsigned long long)i + 1;
	uint64_t lo;
	int len = 0, b;

	switch (id) {
	case KB_NS_NUMBERED:
		len = snprintf(buf, room, "file%06llu", n);
		break;
	case KB_NS_IPV4:
		/* 10.0.0.0/8 from its first host, as a 32-bit number */
		n += UINT32_C(0x0a000000);
		len = snprintf(buf, room, "%llu.%llu.%llu.%llu", n >> 24 & 255, n >> 16 & 255,
			       n >> 8 & 255, n & 255);
		break;
	case KB_NS_IPV6:
		/* 2001:db8::/96 and the number in the last two groups; RFC 5952
		 * writes the zeros before them as :: */
		len = n >> 16 ? snprintf(buf, room, "2001:db8::%llx:%llx", n >> 16 & 0xffff, n & 0xffff)
			      : snprintf(buf, room, "2001:db8::%llx", n);
		break;
	case KB_NS_USERS:
		len = snprintf(buf, room, "%c%s", 'a' + (int)(i % 26), surnames[i / 26 % SURNAMES]);
		if (i >= 26 * SURNAMES)
			len += snprintf(buf + len, room - (size_t)len, "%llu",
					(unsigned long long)(i / (26 * SURNAMES) + 1));
		break;
	case KB_NS_HOSTS:
		len = snprintf(buf, room, "node%04llu.example.org", n);
		break;
	case KB_NS_GSS_HANDLES:
		/* svcauth_gss.c's counter, copied as a u64 from memory (x86) */
		for (lo = n, b = 0; b < 8; b++, lo >>= 8)
			buf[b] = (char)(lo & 255);
		len = 8;
		break;
	default:
		break;
	}
	return (size_t)len;
}

int kb_name_set_make(int id, uint64_t count, struct kb_names *l)
{
	char buf[64];
	uint64_t i;

	kb_names_free(l);
	for (i = 0; i < count; i++)
		if (kb_names_add(l, buf, name_of(id, i, buf, sizeof(buf))) < 0) {
			kb_names_free(l);
			return -1;
		}
	return 0;
}

/* sunrpc's ip_map class of NFS exports (exportfs writes "nfsd") */
#define IP_MAP_CLASS "nfsd"

/*
 * Read in the tree that Debian's linux-source-6.12 (6.12.118) installs.
 * The dcache's parent is the one of in-lookup-hash (tables.c), a dentry
 * in the direct map.
 */
const struct kb_string_table kb_string_tables[] = {
	{
		.name = "dcache", .site = "fs/dcache.c:113",
		.formula = "(u32)hash_name(parent, name) >> (32 - d_hash_shift)",
		.tx = KB_STX_DCACHE, .bits = 18, .param = "parent",
		.param32 = KB_DCACHE_PARENT32, .param64 = KB_DCACHE_PARENT64,
		.name_set = KB_NS_NUMBERED, .component = 1,
		.keys_are = "names in one directory (d_hash_shift 18: 2 GiB of RAM)",
		.kind = KB_KIND_CHAINED,
	},
	{
		.name = "sunrpc-rsc", .site = "net/sunrpc/auth_gss/svcauth_gss.c:409",
		.formula = "hash_mem(handle, len, RSC_HASHBITS 10)",
		.tx = KB_STX_HASH_MEM, .bits = 10, .name_set = KB_NS_GSS_HANDLES,
		.keys_are = "RPCSEC_GSS context handles: gssproxy's counter, 8 bytes",
		.kind = KB_KIND_CHAINED,
	},
	{
		.name = "sunrpc-ip_map", .site = "net/sunrpc/svcauth_unix.c:299",
		.formula = "hash_str(\"" IP_MAP_CLASS "\", 8) ^ hash_32(ipv6_addr_hash(addr), 8)",
		.tx = KB_STX_IP_MAP, .bits = 8, .name_set = KB_NS_IPV4,
		.keys_are = "NFS client addresses as text (IPv4 v4-mapped, as ip_map_parse stores them)",
		.kind = KB_KIND_CHAINED,
	},
	{
		.name = "nfsd-idmap", .site = "fs/nfsd/nfs4idmap.c:305",
		.formula = "hash_str(name, ENT_HASHBITS 8)",
		.tx = KB_STX_HASH_STR, .bits = 8, .name_set = KB_NS_USERS,
		.keys_are = "user names, name to id",
		.kind = KB_KIND_CHAINED,
	},
	{
		.name = "nfs-dns", .site = "fs/nfs/dns_resolve.c:136",
		.formula = "hash_str(hostname, NFS_DNS_HASHBITS 4)",
		.tx = KB_STX_HASH_STR, .bits = 4, .name_set = KB_NS_HOSTS,
		.keys_are = "host names the NFS client resolves",
		.kind = KB_KIND_CHAINED,
	},
};

const unsigned kb_string_tables_count = sizeof(kb_string_tables) / sizeof(kb_string_tables[0]);

int kb_string_table_find(const char *name)
{
	unsigned i;

	for (i = 0; name && i < kb_string_tables_count; i++)
		if (!strcmp(name, kb_string_tables[i].name))
			return (int)i;
	return -1;
}

uint64_t kb_string_table_param(const struct kb_string_table *t, unsigned word)
{
	return word == 32 ? t->param32 : t->param64;
}

unsigned kb_dcache_bits(uint64_t mem, unsigned word)
{
	/* PAGE_SHIFT 12, a bucket an hlist_bl_head: one pointer */
	uint64_t pages = mem >> 12, bucket = word / 8, n, max, adapt;
	unsigned scale = 13, log2 = 0;

	/* i386 counts low memory only: 896 MiB with the 3G/1G split */
	if (word == 32 && pages > (UINT64_C(896) << 8))
		pages = UINT64_C(896) << 8;
	pages = (pages + 255) / 256 * 256; /* up to a whole MiB */
	/* 64-bit: a bucket per 4x more bytes for each 4x past 64 GiB */
	for (adapt = UINT64_C(64) << 18; word == 64 && adapt < pages; adapt <<= 2)
		scale++;
	n = pages >> (scale - 12);
	if (n * bucket < 4096)
		n = 4096 / bucket;
	while ((UINT64_C(1) << log2) < n)
		log2++;
	/* at most 1/16 of memory, at most 2^31 buckets */
	max = (mem >> 4) / bucket;
	if (max > UINT64_C(0x80000000))
		max = UINT64_C(0x80000000);
	while (log2 > 1 && (UINT64_C(1) << log2) > max)
		log2--;
	return log2;
}

static lkh_gen hash_gen_of(lkh_sgen gen)
{
	static const lkh_gen of[] = {
#define KB_SG_HASHGEN(name, NAME, kernels, wp, end, rpc, hg, salted, what) hg,
		LKH_STRING_GENERATIONS(KB_SG_HASHGEN)
#undef KB_SG_HASHGEN
	};

	return of[gen];
}

/* ipv6_addr_hash() of an address as text: the four 32-bit words XORed,
 * as x86 loads them (little-endian); IPv4 is v4-mapped. */
static int ip_hash(const char *name, size_t len, uint32_t *h)
{
	unsigned char a[16];
	char text[64];
	int i;

	if (len >= sizeof(text))
		return -1;
	memcpy(text, name, len);
	text[len] = '\0';
	memset(a, 0, sizeof(a));
	if (inet_pton(AF_INET, text, a + 12) == 1)
		a[10] = a[11] = 0xff;
	else if (inet_pton(AF_INET6, text, a) != 1)
		return -1;
	for (*h = 0, i = 0; i < 16; i++)
		*h ^= (uint32_t)a[i] << (8 * (i % 4));
	return 0;
}

int kb_string_table_bucket(const struct kb_string_table *t, lkh_sgen gen, unsigned word,
			   unsigned bits, uint64_t param, const char *name, size_t len,
			   uint64_t *bucket, char *err, size_t errlen)
{
	uint64_t v = 0, h2;
	uint32_t ip;
	int rc;

	if (bits < 1 || bits > 32) {
		snprintf(err, errlen, "%s: bits %u out of range: 1..32", t->name, bits);
		return -1;
	}
	switch (t->tx) {
	case KB_STX_DCACHE:
		/* no salt before v4.8: the parent is not in the name hash */
		rc = lkh_string_hash(LKH_SFUNC_HASH_NAME, gen, word, LKH_SPATH_LE,
				     gen >= LKH_SGEN_SALTED ? param : 0, name, len, 0, &v);
		v = (uint32_t)v >> (32 - bits);
		break;
	case KB_STX_HASH_STR:
	case KB_STX_HASH_MEM:
		rc = lkh_string_hash(t->tx == KB_STX_HASH_STR ? LKH_SFUNC_HASH_STR
							       : LKH_SFUNC_HASH_MEM,
				     gen, word, LKH_SPATH_LE, 0, name, len, bits, &v);
		break;
	case KB_STX_IP_MAP:
		if (ip_hash(name, len, &ip) < 0) {
			snprintf(err, errlen, "%s: '%.*s' is not an IPv4 or IPv6 address", t->name,
				 (int)(len > 64 ? 64 : len), name);
			return -1;
		}
		rc = lkh_string_hash(LKH_SFUNC_HASH_STR, gen, word, LKH_SPATH_LE, 0, IP_MAP_CLASS,
				     strlen(IP_MAP_CLASS), bits, &v);
		if (rc == LKH_OK && (rc = lkh_hash(LKH_FUNC_HASH_32, hash_gen_of(gen), word, ip,
						   bits, &h2)) == LKH_OK)
			v ^= h2;
		break;
	default:
		rc = LKH_ERR_FUNC;
		break;
	}
	if (rc != LKH_OK) {
		snprintf(err, errlen, "%s: %s under %s on %u-bit", t->name, lkh_strerror(rc),
			 lkh_sgen_name(gen), word);
		return -1;
	}
	*bucket = v;
	return 0;
}

int kb_string_table_count(const struct kb_string_table *t, lkh_sgen gen, unsigned word,
			  unsigned bits, uint64_t param, const struct kb_names *l,
			  uint64_t *counts, char *err, size_t errlen)
{
	/* Buckets a block at a time, then the increments: alone in a loop
	 * their cache misses overlap, behind each name's hash they did not
	 * (a million names into 2^20 buckets spent most of its time there). */
	enum { BLOCK = 1024 };
	uint32_t b[BLOCK];
	size_t i, j, n;

	for (i = 0; i < l->n; i += n) {
		n = l->n - i < BLOCK ? l->n - i : BLOCK;
		for (j = 0; j < n; j++) {
			uint64_t v;

			if (kb_string_table_bucket(t, gen, word, bits, param,
						   kb_names_at(l, i + j), l->v[i + j].len, &v,
						   err, errlen) < 0)
				return -1;
			b[j] = (uint32_t)v;
		}
		for (j = 0; j < n; j++)
			counts[b[j]]++;
	}
	return 0;
}

/* A cell of table t, generation gen, on a word-bit kernel, at 2^bits. */
static void string_cell(struct kb_cell *c, const struct kb_string_table *t, lkh_sgen gen,
			unsigned word, unsigned bits, const char *source)
{
	memset(c, 0, sizeof(*c));
	c->keyset = -1;
	c->source = source;
	c->table = t->name;
	c->sgen = lkh_sgen_name(gen);
	c->spec.word = word;
	c->bits = bits;
}

int kb_string_table_sizes(const struct kb_string_table *t, lkh_sgen gen, unsigned word,
			  unsigned bits_min, unsigned bits_max, uint64_t param,
			  const struct kb_names *l, const char *source, struct kb_cell *cells,
			  char *err, size_t errlen)
{
	uint64_t *counts = calloc((size_t)1 << bits_max, sizeof(*counts));
	unsigned b;
	int rc;

	if (!counts) {
		snprintf(err, errlen, "out of memory for 2^%u buckets", bits_max);
		return -1;
	}
	rc = kb_string_table_count(t, gen, word, bits_max, param, l, counts, err, errlen);
	for (b = bits_max; rc == 0 && b >= bits_min; b--) {
		struct kb_cell *c = &cells[b - bits_min];

		string_cell(c, t, gen, word, b, source);
		kb_skew_from_counts(counts, UINT64_C(1) << b, &c->skew);
		c->ok = 1;
		if (b > 1)
			kb_fold(counts, b);
	}
	free(counts);
	return rc;
}

size_t kb_string_tables_sweep(unsigned words, uint64_t count, struct kb_cell *cells)
{
	struct kb_names l = { 0 };
	size_t n = 0;
	unsigned t, w;
	int g;

	for (t = 0; t < kb_string_tables_count; t++) {
		const struct kb_string_table *tb = &kb_string_tables[t];
		int made = kb_name_set_make(tb->name_set, count, &l);
		uint64_t *counts = calloc((size_t)1 << tb->bits, sizeof(*counts));

		for (w = 64; w >= 32; w -= 32) {
			if (!(words & (w == 64 ? 2u : 1u)))
				continue;
			for (g = 0; g < LKH_SGEN_COUNT; g++) {
				struct kb_cell *c = &cells[n++];

				string_cell(c, tb, (lkh_sgen)g, w, tb->bits,
					    kb_name_sets[tb->name_set].name);
				if (made < 0 || !counts) {
					snprintf(c->why, sizeof(c->why), "out of memory");
					continue;
				}
				memset(counts, 0, sizeof(*counts) << tb->bits);
				if (kb_string_table_count(tb, (lkh_sgen)g, w, tb->bits,
							  kb_string_table_param(tb, w), &l, counts,
							  c->why, sizeof(c->why)) < 0)
					continue;
				kb_skew_from_counts(counts, UINT64_C(1) << tb->bits, &c->skew);
				c->ok = 1;
			}
		}
		free(counts);
	}
	kb_names_free(&l);
	return n;
}

void kb_name_class_of(const char *a, size_t la, const char *b, size_t lb,
		      struct kb_name_class *c)
{
	size_t m = la < lb ? la : lb, p = 0, q = 0;

	while (p < m && a[p] == b[p])
		p++;
	/* the end's shared bytes, of those the start did not take */
	while (q < m - p && a[la - 1 - q] == b[lb - 1 - q])
		q++;
	memset(c, 0, sizeof(*c));
	c->len = la == lb ? (unsigned)la : 0;
	c->prefix = (unsigned)p;
	c->suffix = (unsigned)q;
}

/* The classes seen, in an open-addressed table: few exist in practice. */
#define CLASS_SLOTS (1u << 16)

struct class_table {
	uint32_t *key; /* 0: empty, else 1 + len << 16 | prefix << 8 | suffix */
	struct kb_name_class *row;
	size_t used;
};

static struct kb_name_class *class_slot(struct class_table *ct, const struct kb_name_class *c)
{
	uint32_t key = 1 + ((uint32_t)c->len << 16 | c->prefix << 8 | c->suffix);
	uint32_t h = (uint32_t)(key * UINT32_C(0x61C88647)) >> 16;

	while (ct->key[h] && ct->key[h] != key)
		h = (h + 1) & (CLASS_SLOTS - 1);
	if (!ct->key[h]) {
		if (ct->used == CLASS_SLOTS - 1)
			return NULL;
		ct->key[h] = key;
		ct->row[h] = *c;
		ct->used++;
	}
	return &ct->row[h];
}

/* A name's bucket and index, sorted by bucket. */
struct placed {
	uint64_t bucket;
	size_t i;
};

static int by_bucket(const void *x, const void *y)
{
	const struct placed *a = x, *b = y;

	return (a->bucket > b->bucket) - (a->bucket < b->bucket);
}

static double class_excess(const struct kb_name_explain *e, const struct kb_name_class *c)
{
	return e->all_classed ? (double)c->shared - (double)c->pairs / (double)e->buckets
			      : (double)c->shared;
}

/* Keep c among e's rows if it is among the worst. */
static void keep_worst(struct kb_name_explain *e, const struct kb_name_class *c)
{
	size_t at = e->nrows;

	if (!c->shared)
		return;
	while (at > 0 && class_excess(e, &e->rows[at - 1]) < class_excess(e, c))
		at--;
	if (at >= KB_NAME_EXPLAIN_ROWS)
		return;
	if (e->nrows < KB_NAME_EXPLAIN_ROWS)
		e->nrows++;
	memmove(&e->rows[at + 1], &e->rows[at], (e->nrows - 1 - at) * sizeof(e->rows[0]));
	e->rows[at] = *c;
}

int kb_names_explain(const struct kb_string_table *t, lkh_sgen gen, unsigned word,
		     unsigned bits, uint64_t param, const struct kb_names *l,
		     struct kb_name_explain *e, char *err, size_t errlen)
{
	struct class_table ct = { calloc(CLASS_SLOTS, sizeof(uint32_t)),
				  calloc(CLASS_SLOTS, sizeof(struct kb_name_class)), 0 };
	struct placed *p = malloc((l->n ? l->n : 1) * sizeof(*p));
	size_t i, j, k, h;
	int rc = 0;

	memset(e, 0, sizeof(*e));
	e->n = l->n;
	e->buckets = UINT64_C(1) << bits;
	e->pairs = (uint64_t)l->n * (l->n ? l->n - 1 : 0) / 2;
	e->random = (double)e->pairs / (double)e->buckets;
	e->all_classed = l->n <= KB_NAME_EXPLAIN_ALL;
	if (!ct.key || !ct.row || !p) {
		snprintf(err, errlen, "out of memory for %zu names", l->n);
		rc = -1;
	}
	for (i = 0; rc == 0 && i < l->n; i++) {
		p[i].i = i;
		rc = kb_string_table_bucket(t, gen, word, bits, param, kb_names_at(l, i),
					    l->v[i].len, &p[i].bucket, err, errlen);
	}
	if (rc == 0) {
		qsort(p, l->n, sizeof(*p), by_bucket);
		for (i = 0; i < l->n; i = j) {
			for (j = i; j < l->n && p[j].bucket == p[i].bucket; j++)
				;
			e->shared += (uint64_t)(j - i) * (j - i - 1) / 2;
		}
		if (e->shared > KB_NAME_EXPLAIN_SHARED) {
			snprintf(err, errlen, "%llu pairs of names share a bucket: more than %llu to class; take fewer names",
				 (unsigned long long)e->shared,
				 (unsigned long long)KB_NAME_EXPLAIN_SHARED);
			rc = -1;
		}
	}
	/* the pairs that share a bucket, then (few names) every pair */
	for (i = 0; rc == 0 && i < l->n; i = j) {
		for (j = i; j < l->n && p[j].bucket == p[i].bucket; j++)
			;
		for (k = i; rc == 0 && k < j; k++)
			for (h = k + 1; rc == 0 && h < j; h++) {
				struct kb_name_class c, *s;

				kb_name_class_of(kb_names_at(l, p[k].i), l->v[p[k].i].len,
						 kb_names_at(l, p[h].i), l->v[p[h].i].len, &c);
				if ((s = class_slot(&ct, &c)) == NULL)
					rc = -1;
				else
					s->shared++;
			}
	}
	for (i = 0; rc == 0 && e->all_classed && i < l->n; i++)
		for (j = i + 1; rc == 0 && j < l->n; j++) {
			struct kb_name_class c, *s;

			kb_name_class_of(kb_names_at(l, i), l->v[i].len, kb_names_at(l, j),
					 l->v[j].len, &c);
			if ((s = class_slot(&ct, &c)) == NULL)
				rc = -1;
			else
				s->pairs++;
		}
	if (ct.used == CLASS_SLOTS - 1) {
		snprintf(err, errlen, "more than %u classes of pairs", CLASS_SLOTS - 2);
		rc = -1;
	}
	for (i = 0; rc == 0 && i < CLASS_SLOTS; i++)
		if (ct.key[i])
			keep_worst(e, &ct.row[i]);
	free(ct.key);
	free(ct.row);
	free(p);
	return rc;
}
