/* SPDX-License-Identifier: MIT */
/*
 * The atlas (kernel/atlas/README.md: every hash.h call site of a source
 * tree, and whether Debian's config builds it) beside a census: which of
 * the sites Debian builds the census kernel reached, and for each built
 * site it never reached, why as far as the census can tell; and both
 * counted by subsystem.  Read by io/atlas_file.c; nothing here does I/O.
 */
#ifndef KB_CENSUS_ATLAS_H
#define KB_CENSUS_ATLAS_H

#include <stddef.h>
#include <stdint.h>

#include "census.h"

/* The atlas's build column: y, m, n, h, ? */
enum kb_atlas_build {
	KB_ATLAS_BUILT_IN,
	KB_ATLAS_MODULE,
	KB_ATLAS_NOT_BUILT,
	KB_ATLAS_HEADER,    /* under include/: built wherever included */
	KB_ATLAS_UNDECIDED,
	KB_ATLAS_BUILD_COUNT
};

/* One row of the atlas, the columns the census needs. */
struct kb_atlas_row {
	char *file, *function, *called;
	uint64_t line;
	enum kb_atlas_build build;
	uint64_t *expanded;  /* lines where the macro holding the site is used */
	size_t nexpanded;
};

struct kb_atlas {
	char *name;          /* as given */
	char *kernel;        /* "# kernel 6.1.192": the tree's version, or NULL */
	struct kb_atlas_row *rows;
	size_t nrows;
};

void kb_atlas_free(struct kb_atlas *a);

/*
 * The kernel version a census file names: the dotted number that starts
 * its meta kernel ("6.1.192" of "6.1.192-3 (Debian ...)"), copied into buf;
 * 0 when it names none or buf is too small.
 */
int kb_census_kernel(const struct kb_census_file *f, char *buf, size_t len);

/*
 * Whether an atlas and a census file are of the same kernel, so that their
 * file:lines speak of the same code: 1 when both name a version and they
 * differ, else 0 (a file that names none is taken on trust).
 */
int kb_atlas_other_kernel(const struct kb_atlas *a, const struct kb_census_file *f);

/* What the census saw of a row, as the atlas's own census column says it. */
enum kb_atlas_seen {
	KB_ATLAS_REACHED,      /* a site record at its line or an expanded one */
	KB_ATLAS_COMPILED,     /* only a "# site N not called" comment there */
	KB_ATLAS_NOT_COMPILED, /* neither: the census kernel lacks it */
	KB_ATLAS_SEEN_COUNT
};

/* Why a built site went unseen, guessed from its path (kb_atlas_hint). */
enum kb_atlas_hint {
	KB_ATLAS_HARDWARE,  /* a driver, a sound card, a platform */
	KB_ATLAS_KVM,       /* needs a guest to run */
	KB_ATLAS_WORKLOAD,  /* anything else: the workload did not get there */
	KB_ATLAS_HINT_COUNT
};

const char *kb_atlas_seen_name(enum kb_atlas_seen s);
const char *kb_atlas_hint_name(enum kb_atlas_hint h);
/* The hint for a path of the tree (the first rule of a small table that
 * matches it). */
enum kb_atlas_hint kb_atlas_hint(const char *file);

/* A row Debian builds (y or m) that the census never reached. */
struct kb_atlas_miss {
	size_t row;          /* index into the atlas's rows */
	enum kb_atlas_seen seen;
	enum kb_atlas_hint hint;
};

/*
 * The subsystem of a path of the tree: its first directory, and under
 * arch/, drivers/, fs/ and net/ (kb_atlas_split) also the next one
 * (arch/x86, drivers/net, fs/btrfs, net/ipv4); a file directly in one of
 * those four (fs/namei.c) is of the first alone ("fs"), a path with no
 * directory is its own.  The subsystem is always a prefix of the path:
 * its length in bytes.  *top is the length of the first directory alone.
 */
size_t kb_atlas_subsystem(const char *file, size_t *top);

/* One subsystem's rows: the rows' counts by build, and of those the ones
 * the census reached (as kb_atlas_report's build and reached). */
struct kb_atlas_subsys {
	const char *name;    /* not terminated: name[0..len), into an atlas row's file */
	size_t len;
	size_t group;        /* index of the top-level entry it sums into */
	size_t build[KB_ATLAS_BUILD_COUNT];
	size_t reached[KB_ATLAS_BUILD_COUNT];
};

/* One census file against the atlas. */
struct kb_atlas_report {
	size_t rows;                      /* every row */
	size_t seen[KB_ATLAS_SEEN_COUNT]; /* every row, by what the census saw */
	size_t build[KB_ATLAS_BUILD_COUNT];
	/* reached, by build: built[KB_ATLAS_BUILT_IN] + [MODULE] are what
	 * "reached N of the sites Debian builds" counts */
	size_t reached[KB_ATLAS_BUILD_COUNT];
	/* the misses by seen (not compiled, compiled) and hint */
	size_t missed[KB_ATLAS_SEEN_COUNT][KB_ATLAS_HINT_COUNT];
	struct kb_atlas_miss *misses;     /* in the atlas's order */
	size_t nmisses;
	/*
	 * Per subsystem, in byte order of the name: subsys as
	 * kb_atlas_subsystem gives it (fs/btrfs; fs for fs/namei.c), tops by
	 * the first directory alone (fs: every fs/ row).  A sub's group is
	 * its top's index in tops, a top's its own.  Either array sums to
	 * build and reached above.  The names point into the atlas, which
	 * must outlive the report.
	 */
	struct kb_atlas_subsys *subsys, *tops;
	size_t nsubsys, ntops;
};

/*
 * Match f's sites and not-called comments to the atlas's rows by
 * file:line (a row's own line or one of its expanded lines): 0, or -1 out
 * of memory (*out then empty).
 */
int kb_atlas_match(const struct kb_atlas *a, const struct kb_census_file *f,
		   struct kb_atlas_report *out);
void kb_atlas_report_free(struct kb_atlas_report *r);

#endif
