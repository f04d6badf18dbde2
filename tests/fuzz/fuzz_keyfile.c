/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the key-file reader: the first byte picks text or
 * binary, the rest is the file, served through a memfd so the real
 * open/read path runs.  Any crash, leak or sanitizer report fails.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "keyfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kb_keyfile kf;
	uint64_t keys[300], key;
	char path[64], err[512];
	int fd, binary;
	long n;

	if (size < 1)
		return 0;
	binary = data[0] & 1;
	/* the line parser alone, on the whole input */
	kb_parse_key_line((const char *)data + 1, size - 1, &key, err,
			  sizeof(err));
	fd = memfd_create("keys", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (kb_keyfile_open(&kf, path, binary, err, sizeof(err)) == 0) {
		/* small, odd block sizes exercise the buffer edges */
		while ((n = kb_keyfile_next(&kf, keys, 1 + size % 299, err,
					    sizeof(err))) > 0)
			;
		kb_keyfile_close(&kf);
	}
	close(fd);
	return 0;
}
