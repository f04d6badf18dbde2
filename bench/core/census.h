/* SPDX-License-Identifier: MIT */
/*
 * The census: the hash call sites a running kernel reached, with a sample
 * of the keys each one hashed (format: khash-census 1, read by
 * io/census_file.c), judged under every generation.  A site's distinct
 * keys are hashed again by each generation, with the site's own table and
 * transform where it is one of the named tables (tables.c), and counted
 * into buckets; the statistics are stats.c's.
 */
#ifndef KB_CENSUS_H
#define KB_CENSUS_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh.h>

#include "engine.h"
#include "stats.h"

/* A site's function: one of libkhash's (lkh_func), or one of the two
 * GOLDEN_RATIO_PRIME hashes the census records beside them. */
enum {
	KB_CENSUS_INODE_HASH = LKH_FUNC_COUNT, /* fs/inode.c hash(sb, hashval) */
	KB_CENSUS_BTRFS_INODE_HASH,            /* btrfs_inode_hash(objectid, root) */
	KB_CENSUS_FUNC_COUNT
};

/* The name the format uses, or NULL; -1 for an unknown name. */
const char *kb_census_func_name(int func);
int kb_census_func_find(const char *name);
/* Does the function take two inputs (keys written <hex>:<hex>)? */
int kb_census_two_inputs(int func);
/* Width in bits of each input on a word-bit kernel. */
unsigned kb_census_input_bits(int func, unsigned word);
/* Largest bits argument a site may record: what the widest generation
 * accepted (0: the function takes none, as __hash_32). */
unsigned kb_census_bits_max(int func, unsigned word);

/* One recorded key; b is the second input of a two-input function. */
struct kb_census_key {
	uint64_t a, b;
};

struct kb_census_site {
	unsigned long id;
	int func;
	unsigned bits;       /* as recorded; 0 where the function takes none */
	uint64_t calls;
	char *where;         /* file:line in the kernel tree */
	char *module;        /* the module it was compiled into; NULL: the kernel */
	uint64_t line;       /* of its site record, for messages */
	struct kb_census_key *keys; /* in recording order, repeats kept */
	size_t nkeys, cap;
};

struct kb_census_meta {
	char *name, *value;
};

struct kb_census_file {
	char *name;          /* as given; "-" is standard input */
	unsigned word;       /* meta word */
	const char *arch;    /* meta arch (points into meta) */
	struct kb_census_meta *meta;
	size_t nmeta;
	unsigned version;    /* of the format: 1, or 2 (module names) */
	struct kb_census_site *sites;
	size_t nsites;
	/* file:line of each "# site N not called: FUNC FILE:LINE" comment:
	 * compiled in, never run (what the atlas's census column reads) */
	char **uncalled;
	size_t nuncalled;
};

/* Append a key to a site: 0, or -1 out of memory. */
int kb_census_add_key(struct kb_census_site *s, uint64_t a, uint64_t b);
void kb_census_file_free(struct kb_census_file *f);

/*
 * A site is judged at 2^at buckets: the largest at <= its table's bits
 * with enough keys for a verdict (kb_enough_keys, stats.h), a smaller
 * table than the site's being its buckets' top bits (adjacent buckets
 * summed, as kb_fold does).  A site whose keys are too few even for 2
 * buckets (fewer than 21) has KB_TOO_FEW.
 */

/* The table a census of n distinct keys can judge, 2^at buckets, at most
 * 2^max: at, or 0 when n is too few. */
unsigned kb_census_judge_bits(uint64_t n, unsigned max);
/* The fewest distinct keys that can be judged at all. */
uint64_t kb_census_min_keys(void);

/* Where a site's table size came from. */
enum kb_census_bits_from {
	KB_CENSUS_BITS_SITE,  /* the bits the site passed */
	KB_CENSUS_BITS_TABLE, /* the named table's (the site passed none) */
	KB_CENSUS_BITS_WORD,  /* none anywhere: the 32-bit word it returns */
	KB_CENSUS_BITS_INODE  /* btrfs_inode_hash: the i_hash_shift of the
			       * file's fs/inode.c hash() records */
};

/*
 * The named table a site computes with: the one at its file:line, or for
 * fs/inode.c hash() and btrfs_inode_hash() the table of hash(); a
 * kb_tables index, or -1.
 */
int kb_census_table_of(const char *where, int func);

/* Where a site's kind came from. */
enum kb_census_kind_from {
	KB_CENSUS_KIND_NONE,  /* nowhere: unknown */
	KB_CENSUS_KIND_TABLE, /* a named table's (tables.c) */
	KB_CENSUS_KIND_SITE   /* the site's row (tests/data/atlas/census-sites.tsv) */
};

struct kb_census_kind {
	int kind;             /* enum kb_table_kind, KB_SITE_OTHER or
			       * KB_SITE_UNKNOWN (census_sites.h) */
	const char *what;     /* the table it picks in, or what its value is;
			       * NULL when unknown */
	const char *feeds;    /* kind other: the hash its value feeds
			       * (census_sites.h), or NULL */
	enum kb_census_kind_from from;
};

/* What a site's hash picks: its named table's kind, else its entry's in
 * the census of `kernel` (kb_census_site_use_find()). */
void kb_census_kind_of(const char *kernel, const char *where, int func,
		       struct kb_census_kind *k);

struct kb_census_row {
	size_t file;          /* index into the files given */
	const struct kb_census_site *site;
	int table;            /* kb_tables index of a named table, or -1 */
	struct kb_census_kind kind;
	unsigned bits;        /* the table's size, 2^bits */
	enum kb_census_bits_from bits_from;
	unsigned at;          /* judged at 2^at buckets; 0: too few keys */
	uint64_t distinct;
	/* btrfs_inode_hash: distinct keys whose super block a hash() record
	 * of the same file gave (the rest take the one most of them found,
	 * or the inode-hash table's when none did) */
	long sb_found;
	unsigned gens;        /* the generations judged, bit g for gen[g]:
			       * hash.h's four, K with a multiplier, U with a
			       * user's function (kb_census_gen_next walks it) */
	const char *user_na;  /* U's reason for no figures here (its bucket
			       * is no hash.h call of the key), else NULL */
	struct kb_gen k;      /* K's, then */
	unsigned k_width;     /* the width K had at this site (the given one,
			       * else its function's argument's; the inode
			       * hashes' word); 0: K multiplies nothing here
			       * (hash32_ptr) */
	struct kb_skew gen[KB_GEN_COUNT];
};

struct kb_census_summary {
	size_t sites, judged, too_few;
	/* judged sites whose hash picks no bucket (no verdict), and of them
	 * those whose value feeds another hash */
	size_t no_bucket, feeds;
	unsigned gens;        /* as the rows' */
	/* per file and generation: verdicts of the judged sites that pick a
	 * bucket */
	size_t verdicts[KB_GEN_COUNT][KB_VERDICT_JUDGED];
	/* per generation: judged sites where it cannot run (KB_CENSUS_NA) */
	size_t na[KB_GEN_COUNT];
};

/* A judged site's verdict: kb_verdict_of's, "ok" where that judges
 * nothing. */
enum kb_verdict_kind kb_census_verdict(const struct kb_skew *s);

/*
 * A site whose hash picks no bucket (kind other: an id, a filter's
 * counter, an input of another hash) gets no verdict: its keys' X^2 is no
 * table's.  Its class instead of one, beside enum kb_verdict_kind.
 */
#define KB_CENSUS_NO_BUCKET KB_VERDICT_KINDS
/* A generation that cannot run at a site (U at the inode hashes): n/a,
 * with the row's reason. */
#define KB_CENSUS_NA (KB_VERDICT_KINDS + 1)
/* Row r's class under generation g: KB_VERDICT_TOO_FEW, KB_CENSUS_NA,
 * KB_CENSUS_NO_BUCKET or kb_census_verdict()'s. */
int kb_census_row_verdict(const struct kb_census_row *r, int g);
/* The first generation of gens at or after g, or KB_GEN_COUNT: walk a
 * row's with for (g = kb_census_gen_next(gens, 0); g < KB_GEN_COUNT;
 * g = kb_census_gen_next(gens, g + 1)). */
int kb_census_gen_next(unsigned gens, int g);
/* How many generations of gens come before g: g's column. */
int kb_census_gen_column(unsigned gens, int g);

/* Its word: "n/a" for KB_CENSUS_NA, kb_verdict_word()'s, and for no bucket "feeds another hash"
 * (the site's entry names the hash) or "no bucket". */
const char *kb_census_row_verdict_word(const struct kb_census_row *r, int g);
/* The row of n (r's file) that picks the bucket r's value feeds, when r's
 * entry says the line's other call does; else NULL. */
const struct kb_census_row *kb_census_bucket_row(const struct kb_census_row *rows, size_t n,
						 const struct kb_census_row *r);

/*
 * Judge every site of n files: *rows (malloc'ed, one a site) in file
 * order, and within a file worst first: judged sites before those with
 * too few keys, those that pick a bucket before those that pick none,
 * then by the verdict under old (broken, skewed, ok, even),
 * then by X^2/df under old, then under new, both largest first, then in
 * the file's order.  Generation U (kb_user_gen_get()) is judged beside
 * the others where one is set: the site's keys through the user's
 * function at 2^at buckets, in place of the site's hash.h function; n/a
 * at the inode hashes, whose bucket is no such call.  0, or -1 with a
 * reason (memory, a key a generation cannot hash, U's failure).
 */
int kb_census_run(const struct kb_census_file *files, size_t n,
		  const struct kb_gen *k, struct kb_census_row **rows, size_t *nrows,
		  char *err, size_t errlen);

/* The summary of file's rows. */
void kb_census_summarize(const struct kb_census_row *rows, size_t n,
			 size_t file, struct kb_census_summary *out);

#endif
