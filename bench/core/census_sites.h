/* SPDX-License-Identifier: MIT */
/*
 * What the hash of each census call site picks, so its skew can be priced
 * in that table's terms (stats.h, enum kb_table_kind): a bucket of a
 * chained table, a tree, a lock or wait queue, or nothing a key is stored
 * in.  One entry a site of the committed census files (tests/data/census),
 * read at its file:line in the tree of its kernel (6.1 or 6.12): line
 * numbers move between releases, so an entry holds only for its kernel.
 * A site that is one of the named tables (census.c's kb_census_table_of)
 * takes that table's kind from tables.c and has no entry here.
 */
#ifndef KB_CENSUS_SITES_H
#define KB_CENSUS_SITES_H

#include "stats.h"

/* A site's kind: an enum kb_table_kind, or one of these. */
enum {
	KB_SITE_OTHER = KB_KIND_COUNT_, /* no bucket: an id, a filter's counter,
					 * a value hashed again; no cost */
	KB_SITE_UNKNOWN,                /* no entry says */
	KB_SITE_NAMED                   /* (entries only) the named table `what`'s */
};

/* "chained", "tree", "locks", "other", "unknown" */
const char *kb_site_kind_name(int kind);

struct kb_census_site_use {
	const char *kernel; /* the major.minor whose tree its line is of: "6.1" */
	const char *where; /* file:line as the census records it */
	const char *func;  /* the census function it holds for; NULL: any */
	int kind;          /* enum kb_table_kind, KB_SITE_OTHER or KB_SITE_NAMED */
	const char *what;  /* the table it picks in, or what the value is;
			    * a kb_tables name for KB_SITE_NAMED */
	const char *feeds; /* KB_SITE_OTHER whose value is one input of
			    * another hash: that hash, and what picks the
			    * bucket; NULL otherwise */
};

/* An entry's feeds where the other function's call on the same line
 * picks the bucket (a census site of its own, kb_census_bucket_row()). */
#define KB_SITE_FEEDS_SAME_LINE "the call of the other function on this line"

extern const struct kb_census_site_use kb_census_site_uses[];
extern const unsigned kb_census_site_uses_count;

/*
 * The entry of a site (its file:line and census function name) in the
 * census of `kernel` (a dotted version, kb_census_kernel(); its major.minor
 * picks the entries; NULL, a file naming none: 6.1's), or NULL.
 */
const struct kb_census_site_use *kb_census_site_use_find(const char *kernel,
							  const char *where,
							  const char *func);

#endif
