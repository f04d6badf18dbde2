/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the census reader and judge: the input is the
 * census file, served through a memfd so the real open/read path runs;
 * a file the reader takes is judged too.  Any crash, leak or sanitizer
 * report fails.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "census.h"
#include "census_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kb_census_file f;
	struct kb_census_row *rows = NULL;
	size_t nrows = 0;
	char path[64], err[512];
	int fd = memfd_create("census", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (kb_census_read(path, &f, err, sizeof(err)) == 0) {
		/* hash.h's generations, and a multiplier of the user's too */
		static const struct kb_gen k = { KB_GEN_K, 0x61C8864680B583EBu, 0 };

		if (kb_census_run(&f, 1, NULL, &rows, &nrows, err, sizeof(err)) == 0)
			free(rows);
		if (kb_census_run(&f, 1, &k, &rows, &nrows, err, sizeof(err)) == 0)
			free(rows);
		kb_census_file_free(&f);
	}
	close(fd);
	return 0;
}
