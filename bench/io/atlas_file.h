/* SPDX-License-Identifier: MIT */
/*
 * Atlas files (khash-atlas 1, kernel/atlas/README.md): every hash.h call
 * site of a source tree, one TAB-separated row each.  Read as strictly as
 * census files: an atlas that reads wrong counts the wrong sites.
 */
#ifndef KB_ATLAS_FILE_H
#define KB_ATLAS_FILE_H

#include <stddef.h>

#include "census_atlas.h"

/* The first line of every atlas file, and the column header after the
 * "# " lines that say what was scanned. */
#define KB_ATLAS_MAGIC "# khash-atlas 1"
#define KB_ATLAS_HEADER "file\tline\tfunction\tcalled\tkey\tbits\ttable\tsize\tbuild\treason\tsubsystem\texpanded\tcensus"
#define KB_ATLAS_COLUMNS 13
/* The longest line, LF excluded: the committed atlases' longest is 297
 * bytes; endless input without an LF stops here. */
#define KB_ATLAS_LINE_MAX 4096

/*
 * Read path into *a: 0, or -1 with a one-line reason naming file:line in
 * err (a left empty).  Rejected: a first line other than KB_ATLAS_MAGIC
 * (another version named as such); a "# kernel" line that is not numbers
 * joined by dots (6.12.118), or a second one; a NUL byte; a line longer than
 * KB_ATLAS_LINE_MAX, empty, ending in CR or without its LF; a line
 * before the column header that is neither it nor a "# " line, and a "#"
 * line after it; a row of other than 13 fields; an empty file or called
 * column; a line that is not a decimal number from 1; a build other than
 * y, m, n, h or ?; an n without a reason; an expanded that is not a
 * comma-separated list of line numbers; a census other than reached,
 * compiled, not-compiled or empty; and no column header at all.
 */
int kb_atlas_read(const char *path, struct kb_atlas *a, char *err, size_t errlen);

#endif
