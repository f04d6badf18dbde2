/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for khash-bench's option parser: the input, split at
 * NUL bytes, is the argument list after the command.  Run it with
 * -close_fd_mask=2 to silence the parser's messages (libFuzzer keeps its
 * own copy of stderr for reports); any crash, leak or sanitizer report fails.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[34];
	struct kb_args a;
	int argc = 0;
	size_t i, start = 0;

	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = (char *)"report";
	for (i = 0; i <= size && argc < 33; i++) {
		if (buf[i] == '\0') {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	kb_parse_args(argc, argv, &a);
	free(buf);
	return 0;
}
