/* SPDX-License-Identifier: MIT */
/*
 * Key files: every accepted form and every rejection, with the message a
 * user sees.  Files are written to a fresh temporary folder.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "keyfile.h"

static char dir[] = "/tmp/kb-keyfile-XXXXXX";

static const char *write_file(const char *name, const void *data, size_t len)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

/* Read a whole file: the key count, or -1 with err. */
static long read_all(const char *path, int binary, uint64_t *keys, size_t max,
		     char *err, size_t errlen)
{
	struct kb_keyfile *kf = malloc(sizeof(*kf));
	long n, total = 0;
	uint64_t sink[512];

	assert_non_null(kf);
	if (kb_keyfile_open(kf, path, binary, err, errlen) < 0) {
		free(kf);
		return -1;
	}
	for (;;) {
		n = kb_keyfile_next(kf, sink, 512, err, errlen);
		if (n <= 0)
			break;
		if (keys && (size_t)(total + n) <= max)
			memcpy(keys + total, sink, (size_t)n * sizeof(*sink));
		total += n;
	}
	kb_keyfile_close(kf);
	free(kf);
	return n < 0 ? -1 : total;
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void text_forms_are_read(void **state)
{
	static const char text[] =
		"# page addresses\r\n"
		"0xffff888000001000\r\n"
		"\n"
		"   42   # trailing comment\n"
		"0XABC\n"
		"\t18446744073709551615\n"
		"0x10# no blank before the comment\n"
		"0";
	uint64_t k[8];
	char err[256];

	(void)state;
	assert_int_equal(read_all(write_file("ok.txt", text, sizeof(text) - 1),
				  0, k, 8, err, sizeof(err)),
			 6);
	assert_true(k[0] == UINT64_C(0xffff888000001000));
	assert_true(k[1] == 42);
	assert_true(k[2] == 0xabc);
	assert_true(k[3] == UINT64_MAX);
	assert_true(k[4] == 16);
	assert_true(k[5] == 0);
}

static void binary_is_little_endian_everywhere(void **state)
{
	static const unsigned char bin[16] = { 0x01, 0x02, 0x03, 0x04,
					       0x05, 0x06, 0x07, 0x08,
					       0xff, 0, 0, 0, 0, 0, 0, 0x80 };
	uint64_t k[2];
	char err[256];

	(void)state;
	assert_int_equal(read_all(write_file("ok.bin", bin, 16), 1, k, 2, err,
				  sizeof(err)),
			 2);
	assert_true(k[0] == UINT64_C(0x0807060504030201));
	assert_true(k[1] == UINT64_C(0x80000000000000ff));
}

static void expect_error(const char *name, const void *data, size_t len,
			 int binary, const char *want_suffix)
{
	char err[512];
	const char *path = write_file(name, data, len);

	assert_int_equal(read_all(path, binary, NULL, 0, err, sizeof(err)), -1);
	/* every message starts with the file's name */
	assert_memory_equal(err, path, strlen(path));
	assert_string_equal(err + strlen(path), want_suffix);
}

static void rejections_name_file_and_line(void **state)
{
	(void)state;
	expect_error("empty.txt", "", 0, 0, ": no keys in the file");
	expect_error("comments.txt", "# a\n\n  # b\n", 11, 0,
		     ": no keys in the file");
	expect_error("garbage.txt", "1\n2\nthree\n", 10, 0,
		     ":3: not an integer: 'three'");
	expect_error("65bits.txt", "1\n18446744073709551616\n", 23, 0,
		     ":2: value exceeds 64 bits: '18446744073709551616'");
	expect_error("hex65.txt", "0x10000000000000000\n", 20, 0,
		     ":1: value exceeds 64 bits: '0x10000000000000000'");
	expect_error("negative.txt", "-5\n", 3, 0, ":1: not an integer: '-5'");
	expect_error("twokeys.txt", "5 6\n", 4, 0, ":1: not an integer: '5 6'");
	expect_error("bare0x.txt", "0x\n", 3, 0, ":1: not an integer: '0x'");
	/* byte offset 2: after "1\n" */
	expect_error("nul.txt", "1\n\0\n", 4, 0,
		     ":2: NUL byte at byte offset 2: not a text key file (binary? use --binary)");
	expect_error("short.bin", "\x01\x02\x03\x04\x05\x06\x07\x08\xff\x01\x02", 11, 1,
		     ": truncated binary key file: 11 bytes is not a multiple of 8");
	expect_error("empty.bin", "", 0, 1, ": no keys in the file");
}

static void garbage_deep_in_a_large_file(void **state)
{
	char path[256], err[512];
	FILE *f;
	unsigned i;

	(void)state;
	snprintf(path, sizeof(path), "%s/large.txt", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	for (i = 1; i < 1000000; i++)
		fprintf(f, "%u\n", i);
	fprintf(f, "12x34\n5\n");
	fclose(f);
	assert_int_equal(read_all(path, 0, NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "large.txt:1000000: not an integer: '12x34'"));
}

static void directories_and_missing_files(void **state)
{
	char err[512], want[512], missing[300];

	(void)state;
	assert_int_equal(read_all(dir, 0, NULL, 0, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: is a directory, not a key file", dir);
	assert_string_equal(err, want);
	snprintf(missing, sizeof(missing), "%s/none.txt", dir);
	assert_int_equal(read_all(missing, 0, NULL, 0, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: No such file or directory", missing);
	assert_string_equal(err, want);
}

static void long_lines_are_refused(void **state)
{
	static char line[KB_KEYFILE_BLOCK + 10];
	char err[512];

	(void)state;
	memset(line, ' ', sizeof(line));
	line[sizeof(line) - 2] = '7';
	line[sizeof(line) - 1] = '\n';
	assert_int_equal(read_all(write_file("long.txt", line, sizeof(line)), 0,
				  NULL, 0, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, ":1: line longer than 65535 bytes"));
}

/* --binary on a text file: refused, not read as garbage keys. */
static void text_given_binary_is_refused(void **state)
{
	/* 16 bytes: two "keys" if read blindly */
	static const char digits[] = "1234567\n7654321\n";
	/* one byte outside printable ASCII anywhere makes it binary */
	static const char almost[] = "1234567\n765432\x01\n";
	uint64_t k[2];
	char err[512];

	(void)state;
	expect_error("digits.bin", digits, 16, 1,
		     ": text, not little-endian u64 keys: its first block is all printable ASCII (drop --binary)");
	expect_error("crlf.bin", "0x1000\r\n", 8, 1,
		     ": text, not little-endian u64 keys: its first block is all printable ASCII (drop --binary)");
	assert_int_equal(read_all(write_file("almost.bin", almost, 16), 1, k, 2, err,
				  sizeof(err)),
			 2);
	/* "1234567\n" little-endian: 0x0a37363534333231 */
	assert_true(k[0] == UINT64_C(0x0a37363534333231));
}

/* A NUL is named with its byte offset, also past the first block, and
 * also when no newline ever comes (endless /dev/zero). */
static void nul_bytes_are_located(void **state)
{
	static char big[3 * KB_KEYFILE_BLOCK];
	char want[128];
	size_t i, at = 2 * KB_KEYFILE_BLOCK + 5;

	(void)state;
	/* lines "7\n" up to a NUL in the third block */
	for (i = 0; i < sizeof(big); i += 2) {
		big[i] = '7';
		big[i + 1] = '\n';
	}
	big[at] = '\0';
	snprintf(want, sizeof(want),
		 ":%zu: NUL byte at byte offset %zu: not a text key file (binary? use --binary)",
		 at / 2 + 1, at);
	expect_error("late-nul.txt", big, sizeof(big), 0, want);
	memset(big, 0, sizeof(big));
	expect_error("zeros.txt", big, sizeof(big), 0,
		     ":1: NUL byte at byte offset 0: not a text key file (binary? use --binary)");
	/* a long line with a NUL past its first byte: the NUL is named */
	memset(big, '1', sizeof(big));
	big[KB_KEYFILE_BLOCK - 1] = '\0';
	snprintf(want, sizeof(want),
		 ":1: NUL byte at byte offset %d: not a text key file (binary? use --binary)",
		 KB_KEYFILE_BLOCK - 1);
	expect_error("long-nul.txt", big, sizeof(big), 0, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_forms_are_read),
		cmocka_unit_test(binary_is_little_endian_everywhere),
		cmocka_unit_test(rejections_name_file_and_line),
		cmocka_unit_test(garbage_deep_in_a_large_file),
		cmocka_unit_test(directories_and_missing_files),
		cmocka_unit_test(long_lines_are_refused),
		cmocka_unit_test(text_given_binary_is_refused),
		cmocka_unit_test(nul_bytes_are_located),
	};

	return cmocka_run_group_tests_name("keyfile", tests, setup, teardown);
}
