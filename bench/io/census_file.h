/* SPDX-License-Identifier: MIT */
/*
 * Census files (khash-census 1, agreed with the kernel side): read
 * strictly, since a census that reads wrong judges the wrong keys.  Any
 * malformed line is one message naming file:line and the problem.
 */
#ifndef KB_CENSUS_FILE_H
#define KB_CENSUS_FILE_H

#include <stddef.h>

#include "census.h"

/* The first line every census file starts with: version 1, or 2 whose
 * site lines (and "not called" comments) may end in a module's name. */
#define KB_CENSUS_MAGIC "khash-census "
#define KB_CENSUS_VERSION_MAX 2
/* The longest line, LF excluded: a keys line of 16 two-input keys is 560
 * bytes; endless input without an LF stops here. */
#define KB_CENSUS_LINE_MAX 4096

/*
 * Read path ("-": standard input) into *f: 0, or -1 with a one-line
 * reason in err (f left empty).  Rejected: a missing or wrong first line;
 * a NUL byte (named by its byte offset); a line longer than
 * KB_CENSUS_LINE_MAX; a line that is empty, ends in CR, or separates fields by anything but
 * one space; an unknown record; a meta without text, given twice, or a
 * word or arch other than 32|64 and x86_64|i386 (or not matching each
 * other); a site before `meta word`; a site id given twice, an unknown
 * function, bits out of the function's range, a file:line without a line;
 * keys of an undeclared site, more than 16 on a line, not lower-case hex,
 * wider than the function's argument on that word size, or with the wrong
 * number of inputs; more keys than the site's calls; and at the end, a
 * missing `meta word`, `meta arch` or `meta kernel`.  Comments are
 * skipped, but the FILE:LINE of each "# site ID not called: FUNC
 * FILE:LINE" goes to f->uncalled (the atlas needs compiled-but-not-run).
 */
int kb_census_read(const char *path, struct kb_census_file *f, char *err,
		   size_t errlen);

#endif
