/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for scan's matcher: the input is a file's text, fed a
 * line at a time (as io/scan_tree.c feeds it, long lines and NUL bytes
 * too) through one state; every finding is described and given its
 * judging command.  A finding must start on its line and the findings
 * must come in column order; any crash or sanitizer report fails.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kb_scan_finding f[8];
	struct kb_scan_state s;
	const char *text = (const char *)data;
	char what[512], judge[1400];
	size_t at = 0;

	kb_scan_start(&s);
	while (at < size) {
		const char *nl = memchr(text + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (text + at)) : size - at, n, i;
		/* a copy of its own, so that reading past the line is caught */
		char *line = malloc(len ? len : 1);

		if (!line)
			return 0;
		memcpy(line, text + at, len);
		n = kb_scan_line(&s, line, len, f, sizeof(f) / sizeof(f[0]));
		if (n > sizeof(f) / sizeof(f[0]))
			abort();
		for (i = 0; i < n; i++) {
			if (f[i].column < 1 || f[i].column > len || f[i].kind >= KB_SCAN_KIND_COUNT ||
			    (i && f[i].column < f[i - 1].column))
				abort();
			kb_scan_describe(&f[i], what, sizeof(what));
			kb_scan_judge_command(&f[i], "dir/it's a file.c", s.func, judge, sizeof(judge));
		}
		free(line);
		at += len + 1;
	}
	return 0;
}
