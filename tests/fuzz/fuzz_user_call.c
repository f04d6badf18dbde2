/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for conform's expression and source options: the
 * input, split at NUL bytes, is --call's EXPR, then --source's FILE, then
 * -I and -D arguments in turn.  The command line is parsed as conform's,
 * and EXPR's function name read as conform names it (never compiled: that
 * is the system compiler's input).  The name must be an identifier that
 * EXPR holds, or "user".  Run with -close_fd_mask=2.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "user_hash.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *piece[40], *argv[2 * 40 + 2], name[64];
	struct kb_args a;
	int argc = 0, n = 0, i;
	size_t k, start = 0;

	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (k = 0; k <= size && n < 40; k++)
		if (buf[k] == '\0') {
			piece[n++] = buf + start;
			start = k + 1;
		}
	argv[argc++] = (char *)"conform";
	argv[argc++] = (char *)"--call";
	argv[argc++] = piece[0];
	if (n > 1) {
		argv[argc++] = (char *)"--source";
		argv[argc++] = piece[1];
	}
	for (i = 2; i < n; i++) {
		argv[argc++] = (char *)(i % 2 ? "-D" : "-I");
		argv[argc++] = piece[i];
	}
	argv[argc] = NULL;
	kb_parse_args(argc, argv, &a);
	kb_user_name(piece[0], name, sizeof(name));
	if (strcmp(name, "user")) {
		if (!strstr(piece[0], name) || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
			abort();
		for (k = 0; name[k]; k++)
			if (!isalnum((unsigned char)name[k]) && name[k] != '_')
				abort();
	}
	free(buf);
	return 0;
}
