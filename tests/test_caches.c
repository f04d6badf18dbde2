/* SPDX-License-Identifier: MIT */
/*
 * The cache sizes the engine sizes its tables by come from the kernel's
 * description of cpu0's caches: data and unified levels in bytes, the
 * instruction cache ignored, whatever order the indices are in; a machine
 * without the tables gives zeros (the engine then asks the C library).
 */
#define _GNU_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "caches.h"

static void put(const char *dir, const char *name, const char *value)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", value);
	fclose(f);
}

static void index_dir(const char *root, unsigned i, const char *level,
		      const char *type, const char *size)
{
	char dir[512], cmd[600];

	snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu/cpu0/cache/index%u", root, i);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	assert_int_equal(system(cmd), 0);
	put(dir, "level", level);
	put(dir, "type", type);
	put(dir, "size", size);
}

static void sizes_from_the_kernels_tables(void **state)
{
	char root[] = "/tmp/kb-caches-XXXXXX", cmd[128];
	uint64_t b[3];

	(void)state;
	assert_non_null(mkdtemp(root));
	/* this machine's: a 48 KiB L1d beside a 32 KiB L1i */
	index_dir(root, 0, "1", "Data", "48K");
	index_dir(root, 1, "1", "Instruction", "32K");
	index_dir(root, 2, "2", "Unified", "1024K");
	index_dir(root, 3, "3", "Unified", "32768K");
	kb_read_cache_bytes(root, b);
	assert_true(b[0] == 48 * 1024);
	assert_true(b[1] == 1024 * 1024);
	assert_true(b[2] == UINT64_C(32) << 20);
	/* the instruction cache listed last must not replace the data one */
	index_dir(root, 0, "1", "Instruction", "64K");
	index_dir(root, 1, "1", "Data", "32K");
	kb_read_cache_bytes(root, b);
	assert_true(b[0] == 32 * 1024);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	/* no tables at all */
	kb_read_cache_bytes(root, b);
	assert_true(b[0] == 0 && b[1] == 0 && b[2] == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes_from_the_kernels_tables),
	};

	return cmocka_run_group_tests_name("caches", tests, NULL, NULL);
}
