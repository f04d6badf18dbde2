/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the atlas reader and its match with a census: the
 * input is the atlas, served through a memfd so the real open/read path
 * runs; an atlas the reader takes is matched against a small census of
 * its own (a site record, an expanded line, not-called comments, a
 * version) and the report freed.  Any crash, leak or sanitizer report
 * fails.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "atlas_file.h"
#include "census_atlas.h"
#include "census_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes in a memfd and its /proc path in path: the fd, or -1. */
static int memfd_of(const void *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

static const char census_text[] =
	"khash-census 1\n"
	"meta word 64\n"
	"meta arch x86_64\n"
	"meta kernel 6.1.192-3 (fuzz)\n"
	"site 1 hash_32 8 3 kernel/a.c:10\n"
	"keys 1 1 2 3\n"
	"site 2 hash_long 6 2 fs/b.c:31\n"
	"# site 3 not called: hash_32 kernel/e.c:40\n"
	"# site 4 not called: hash_32 kernel/a.c:10\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kb_census_file census;
	static int have_census;
	struct kb_atlas atlas;
	struct kb_atlas_report report;
	char path[64], err[512];
	int fd;

	if (!have_census) {
		fd = memfd_of(census_text, strlen(census_text), path, sizeof(path));
		if (fd < 0 || kb_census_read(path, &census, err, sizeof(err)) < 0)
			__builtin_trap(); /* the harness's own census must read */
		close(fd);
		have_census = 1;
	}
	fd = memfd_of(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	if (kb_atlas_read(path, &atlas, err, sizeof(err)) == 0) {
		if (!kb_atlas_other_kernel(&atlas, &census) &&
		    kb_atlas_match(&atlas, &census, &report) == 0)
			kb_atlas_report_free(&report);
		kb_atlas_free(&atlas);
	}
	close(fd);
	return 0;
}
