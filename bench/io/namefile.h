/* SPDX-License-Identifier: MIT */
/*
 * Key files of names: one name per line, its bytes as given (a CR before
 * the LF is the line end's, as in integer key files; nothing else is
 * trimmed), at most KB_NAME_MAX bytes; no empty name, no NUL byte, and,
 * for a table of path components, no '/'.  xz and gzip as for key files.
 */
#ifndef KB_NAMEFILE_H
#define KB_NAMEFILE_H

#include <stddef.h>
#include <stdint.h>

#include "names.h"

/*
 * Every name of a file (path, "-" for standard input) into l (emptied
 * first), refusing more than max_bytes of names (their bytes and 16 for
 * each): 0, or -1 with a one-line reason naming file:line (l then
 * empty).  *shown: the file's name in messages ("<stdin>" for -).
 */
int kb_namefile_read(const char *path, int component, uint64_t max_bytes,
		     struct kb_names *l, const char **shown, char *err, size_t errlen);

#endif
