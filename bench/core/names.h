/* SPDX-License-Identifier: MIT */
/*
 * String keys: a list of names (bytes with a length, as the kernel's
 * string hashes take them), the built-in name sets that model what the
 * string-hashed tables hold, and the named tables that read a string hash
 * (the dcache, sunrpc's and nfsd's caches), each with the bucket it puts a
 * name in under any string-hash generation (lkh_string.h).
 * Computation only: key files of names are read in io/namefile.c.
 */
#ifndef KB_NAMES_H
#define KB_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh_string.h>

#include "stats.h"

/* The longest name taken: NAME_MAX, the longest path component Linux
 * allows (include/uapi/linux/limits.h), so that a file name of any real
 * tree fits, and no name is longer than one the dcache holds. */
#define KB_NAME_MAX 255

/* Names: bytes (never NUL-terminated by need; a NUL inside is refused by
 * the readers, a handle of sunrpc-rsc may hold one) in one buffer. */
struct kb_name {
	size_t off, len;
};

struct kb_names {
	char *bytes;
	size_t used, room;
	struct kb_name *v;
	size_t n, cap;
};

/* Append one name of len bytes: 0, or -1 when out of memory. */
int kb_names_add(struct kb_names *l, const void *s, size_t len);
/* The i-th name's bytes. */
const char *kb_names_at(const struct kb_names *l, size_t i);
/* Sort the names and drop each that repeats an earlier one, as a table
 * holds a name once: returns how many are left (l->n). */
size_t kb_names_distinct(struct kb_names *l);
void kb_names_free(struct kb_names *l);

/* The built-in name sets, one row each: X(id, name, formula). */
#define KB_NAME_SETS(X)                                                                    \
	X(NUMBERED, "numbered", "file000001, file000002, ... (six digits, more past 999999)") \
	X(IPV4, "ipv4", "10.0.0.1, 10.0.0.2, ...: consecutive IPv4 addresses as text")       \
	X(IPV6, "ipv6", "2001:db8::1, 2001:db8::2, ...: consecutive IPv6 addresses, RFC 5952 text") \
	X(USERS, "users", "initial and surname, lower case (asmith .. zwilson), then again with 2, 3, ...") \
	X(HOSTS, "hosts", "node0001.example.org, node0002.example.org, ...")                \
	X(GSS_HANDLES, "gss-handles", "1, 2, 3, ... as 8 little-endian bytes: gssproxy's context handles")

enum kb_name_set_id {
#define KB_NS_ENUM(id, name, formula) KB_NS_##id,
	KB_NAME_SETS(KB_NS_ENUM)
#undef KB_NS_ENUM
	KB_NS_COUNT_
};

struct kb_name_set_info {
	const char *name, *formula;
};

extern const struct kb_name_set_info kb_name_sets[KB_NS_COUNT_];

/* Look a name set up by name; -1 when unknown. */
int kb_name_set_find(const char *name);

/* The first count names of a set into l (emptied first): 0, or -1 when out
 * of memory (then l is empty). */
int kb_name_set_make(int id, uint64_t count, struct kb_names *l);

/* What a string table does with a name. */
enum kb_stx {
	KB_STX_DCACHE,   /* top bits of hash_name(parent, name) */
	KB_STX_HASH_STR, /* sunrpc hash_str(name, bits) */
	KB_STX_HASH_MEM, /* sunrpc hash_mem(buf, len, bits) */
	KB_STX_IP_MAP    /* hash_str(class, bits) ^ hash_32(ipv6_addr_hash(addr), bits) */
};

struct kb_string_table {
	const char *name;
	const char *site;      /* file:line in Linux 6.12 */
	const char *formula;   /* what the call site computes */
	enum kb_stx tx;
	unsigned bits;         /* 2^bits buckets (dcache: 2 GiB of RAM, 64-bit) */
	const char *param;     /* the second argument's name, or NULL */
	uint64_t param32, param64; /* its default on 32- and 64-bit kernels */
	int name_set;          /* the natural key model */
	const char *keys_are;
	int component;         /* names are path components: no '/' */
	enum kb_table_kind kind;
};

extern const struct kb_string_table kb_string_tables[];
extern const unsigned kb_string_tables_count;

/* Look a string table up by name; -1 when unknown. */
int kb_string_table_find(const char *name);

/* The default of a string table's parameter on a word-bit kernel. */
uint64_t kb_string_table_param(const struct kb_string_table *t, unsigned word);

/*
 * d_hash_shift's table size as dcache_init() gets it from
 * alloc_large_system_hash("Dentry cache", 8 or 4 bytes, 0, 13, ...) on a
 * kernel of word bits with mem bytes of memory (every page counted as
 * the kernel's own: nr_kernel_pages and nr_all_pages alike): log2 of the
 * buckets, 1..31.
 */
unsigned kb_dcache_bits(uint64_t mem, unsigned word);

/*
 * The bucket t puts a name of len bytes in, under string generation gen
 * on a word-bit kernel reading a word at a time, little-endian (x86),
 * with 2^bits buckets and the table's parameter param (dcache: the
 * parent dentry, the salt from v4.8; before it the name hash has no salt
 * and the parent is not used): 0, or -1 with a reason.
 */
int kb_string_table_bucket(const struct kb_string_table *t, lkh_sgen gen, unsigned word,
			   unsigned bits, uint64_t param, const char *name, size_t len,
			   uint64_t *bucket, char *err, size_t errlen);

/* Add every name of l to counts[2^bits]: 0, or -1 with a reason naming
 * the name's index. */
int kb_string_table_count(const struct kb_string_table *t, lkh_sgen gen, unsigned word,
			  unsigned bits, uint64_t param, const struct kb_names *l,
			  uint64_t *counts, char *err, size_t errlen);

/* explain over names: how the names of each pair that shares a bucket
 * differ, as their class: their length (0: the lengths differ) and the
 * bytes they share at the start and, of the rest, at the end. */
#define KB_NAME_EXPLAIN_ROWS 12
/* Up to this many names every pair is classed too, so a class's share of
 * its pairs can be set beside a random function's 1/2^bits. */
#define KB_NAME_EXPLAIN_ALL 8192
/* At most this many pairs sharing a bucket are classed. */
#define KB_NAME_EXPLAIN_SHARED (UINT64_C(1) << 27)

struct kb_name_class {
	unsigned len, prefix, suffix;
	uint64_t pairs;  /* all pairs of the class (when all_classed) */
	uint64_t shared; /* those sharing a bucket */
};

struct kb_name_explain {
	uint64_t n, buckets;
	uint64_t pairs, shared; /* every pair; those sharing a bucket */
	double random;          /* pairs a random function puts in a shared bucket */
	int all_classed;        /* n <= KB_NAME_EXPLAIN_ALL: classes' pairs counted */
	size_t nrows;           /* the classes of most excess (or shared) first */
	struct kb_name_class rows[KB_NAME_EXPLAIN_ROWS];
};

/* The class of a pair of names (len 0: their lengths differ). */
void kb_name_class_of(const char *a, size_t la, const char *b, size_t lb,
		      struct kb_name_class *c);

/*
 * The names of l through t under gen on a word-bit kernel at 2^bits, their
 * pairs sharing a bucket by class: 0, or -1 with a reason (a name the
 * table refuses, more than KB_NAME_EXPLAIN_SHARED such pairs, no memory).
 */
int kb_names_explain(const struct kb_string_table *t, lkh_sgen gen, unsigned word,
		     unsigned bits, uint64_t param, const struct kb_names *l,
		     struct kb_name_explain *e, char *err, size_t errlen);

struct kb_cell;

/*
 * One table, string generation and word at every table size from
 * 2^bits_max down to 2^bits_min (1 <= bits_min <= bits_max <= 32): the
 * names counted once at the largest and folded down (every table here
 * takes its hash's top bits), into cells[0 .. bits_max - bits_min],
 * smallest first, each named by source.  0, or -1 with a reason.
 */
int kb_string_table_sizes(const struct kb_string_table *t, lkh_sgen gen, unsigned word,
			  unsigned bits_min, unsigned bits_max, uint64_t param,
			  const struct kb_names *l, const char *source, struct kb_cell *cells,
			  char *err, size_t errlen);

/* The most cells kb_string_tables_sweep() makes. */
#define KB_STRING_SWEEP_MAX ((size_t)kb_string_tables_count * 2 * LKH_SGEN_COUNT)

/*
 * `tables`'s sweep of the tables that read a string hash: each table, word
 * (words: bit 0 32, bit 1 64; 64 first) and string generation, count
 * names of the table's name set at its own bits and parameter, into cells
 * (room for KB_STRING_SWEEP_MAX); returns how many.  A cell that cannot
 * be computed has ok 0 and says why.
 */
size_t kb_string_tables_sweep(unsigned words, uint64_t count, struct kb_cell *cells);

#endif
