/* SPDX-License-Identifier: MIT */
/*
 * khash-bench scan's walk: every regular file under a folder, in name
 * order, binary files (a NUL byte in the first block) skipped, the build
 * and .git folders skipped, no symbolic link followed; each text file's
 * lines through core/scan.c's matcher.
 */
#ifndef KB_SCAN_TREE_H
#define KB_SCAN_TREE_H

#include <stddef.h>

#include "scan.h"

/* A file with a NUL byte in its first KB_SCAN_SNIFF bytes is binary (as
 * grep and git decide). */
#define KB_SCAN_SNIFF 8192

struct kb_scan_hit {
	char *path;  /* as the user named it: the root joined with the file's relative path */
	unsigned long line;
	char func[64]; /* the function the line was in, or "" */
	struct kb_scan_finding f;
};

struct kb_scan_result {
	struct kb_scan_hit *hits;
	size_t n, cap;
	unsigned long files, binary, unreadable;
	char **warnings; /* a line each: what could not be read, and why */
	size_t nwarnings;
};

/* Scan root (a folder, or one file) into r, appending.  0, or -1 with err
 * set when root itself cannot be read (or memory runs out). */
int kb_scan_tree(const char *root, struct kb_scan_result *r, char *err, size_t errlen);
void kb_scan_result_free(struct kb_scan_result *r);

#endif
