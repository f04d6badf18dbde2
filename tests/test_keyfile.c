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
#include <fcntl.h>
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

/* Read a whole file (kb_keyfile_read_all): the key count, or -1 with err;
 * the first max keys into keys. */
static long read_all(const char *path, int binary, uint64_t *keys, size_t max,
		     char *err, size_t errlen)
{
	uint64_t *all;
	size_t n;

	if (kb_keyfile_read_all(path, binary, UINT64_C(1) << 24, &all, &n, err, errlen) < 0)
		return -1;
	if (keys)
		memcpy(keys, all, (n < max ? n : max) * sizeof(*keys));
	free(all);
	return (long)n;
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

/* A whole file's bytes, NUL-terminated: its length. */
static size_t slurp(const char *path, char *buf, size_t max)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, max - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n;
}

static void write_keys(const char *path, int binary, const uint64_t *keys, size_t n)
{
	struct kb_keywriter *w = malloc(sizeof(*w));
	char err[512];

	assert_non_null(w);
	assert_int_equal(kb_keywriter_open(w, path, binary, err, sizeof(err)), 0);
	assert_int_equal(kb_keywriter_put(w, keys, n, err, sizeof(err)), 0);
	assert_int_equal(kb_keywriter_commit(w, err, sizeof(err)), 0);
	free(w);
}

/* The bytes, by hand: 0x hex without leading zeros, or 8 bytes low first. */
static void writer_bytes_are_the_readers_forms(void **state)
{
	static const uint64_t keys[] = { 0, 1, 0xabc, UINT64_C(0x0807060504030201),
					 UINT64_MAX };
	static const unsigned char bin[] = {
		0, 0, 0, 0, 0, 0, 0, 0,  1, 0, 0, 0, 0, 0, 0, 0,
		0xbc, 0x0a, 0, 0, 0, 0, 0, 0,  1, 2, 3, 4, 5, 6, 7, 8,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	char path[300], buf[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/w.txt", dir);
	write_keys(path, 0, keys, 5);
	assert_int_equal(slurp(path, buf, sizeof(buf)), 4 + 4 + 6 + 18 + 19);
	assert_string_equal(buf, "0x0\n0x1\n0xabc\n0x807060504030201\n0xffffffffffffffff\n");
	snprintf(path, sizeof(path), "%s/w.bin", dir);
	write_keys(path, 1, keys, 5);
	assert_int_equal(slurp(path, buf, sizeof(buf)), sizeof(bin));
	assert_memory_equal(buf, bin, sizeof(bin));
}

/* More keys than the writer's and the reader's blocks, both forms. */
static void written_keys_read_back_the_same(void **state)
{
	enum { N = 3 * KB_KEYFILE_EACH + 5 };
	uint64_t *keys = malloc(N * sizeof(*keys)), *back;
	uint64_t x = 1;
	char path[300], err[512];
	size_t i, n;
	int binary;

	(void)state;
	assert_non_null(keys);
	for (i = 0; i < N; i++) {
		x = x * UINT64_C(6364136223846793005) + 1442695040888963407u;
		keys[i] = i % 7 ? x >> (i % 64) : i;
	}
	for (binary = 0; binary <= 1; binary++) {
		snprintf(path, sizeof(path), "%s/round%d", dir, binary);
		write_keys(path, binary, keys, N);
		assert_int_equal(kb_keyfile_read_all(path, binary, N, &back, &n, err,
						     sizeof(err)), 0);
		assert_int_equal(n, N);
		assert_memory_equal(back, keys, N * sizeof(*keys));
		free(back);
	}
	free(keys);
}

/* An unwritable path names itself; an aborted file leaves nothing. */
static void writer_refusals_leave_no_file(void **state)
{
	struct kb_keywriter *w = malloc(sizeof(*w));
	static const uint64_t one = 1;
	char path[300], err[512], want[600], buf[16];
	FILE *ls;

	(void)state;
	assert_non_null(w);
	snprintf(path, sizeof(path), "%s/none/k.txt", dir);
	assert_int_equal(kb_keywriter_open(w, path, 0, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "cannot write %s: No such file or directory", path);
	assert_string_equal(err, want);
	snprintf(path, sizeof(path), "%s/gone/k.txt", dir);
	snprintf(want, sizeof(want), "mkdir '%s/gone'", dir);
	assert_int_equal(system(want), 0);
	assert_int_equal(kb_keywriter_open(w, path, 0, err, sizeof(err)), 0);
	assert_int_equal(kb_keywriter_put(w, &one, 1, err, sizeof(err)), 0);
	kb_keywriter_abort(w);
	snprintf(want, sizeof(want), "ls -A '%s/gone'", dir);
	ls = popen(want, "r");
	assert_non_null(ls);
	assert_int_equal(fread(buf, 1, sizeof(buf), ls), 0);
	pclose(ls);
	free(w);
}

/* Standard output on a full disk: put or commit says so. */
static void writer_on_a_full_disk_says_so(void **state)
{
	struct kb_keywriter *w = malloc(sizeof(*w));
	uint64_t keys[KB_KEYFILE_EACH] = { 0 };
	char err[512] = "";
	int saved, full, rc;

	(void)state;
	assert_non_null(w);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	full = open("/dev/full", O_WRONLY);
	assert_true(saved >= 0 && full >= 0);
	dup2(full, STDOUT_FILENO);
	close(full);
	rc = kb_keywriter_open(w, "-", 0, err, sizeof(err));
	if (!rc)
		rc = kb_keywriter_put(w, keys, KB_KEYFILE_EACH, err, sizeof(err));
	if (!rc)
		rc = kb_keywriter_commit(w, err, sizeof(err));
	dup2(saved, STDOUT_FILENO);
	close(saved);
	clearerr(stdout);
	free(w);
	assert_int_equal(rc, -1);
	assert_string_equal(err, "cannot write standard output: No space left on device");
}

/* kb_keyfile_each: blocks in order with the keys before each, and a
 * stop from fn comes back as fn gave it. */
struct seen {
	uint64_t sum, done_ok, blocks;
	int stop_at;
};

static int see(void *ctx, const char *name, const uint64_t *keys, size_t n, uint64_t done)
{
	struct seen *s = ctx;
	size_t i;

	(void)name;
	s->done_ok += done == s->blocks * KB_KEYFILE_EACH;
	assert_true(n <= KB_KEYFILE_EACH);
	for (i = 0; i < n; i++)
		s->sum += keys[i];
	return ++s->blocks == (uint64_t)s->stop_at ? 7 : 0;
}

static void each_block_in_order_until_fn_stops(void **state)
{
	enum { N = 2 * KB_KEYFILE_EACH + 1 };
	uint64_t keys[N];
	struct seen s = { 0, 0, 0, 0 };
	char path[300], err[512];
	size_t i;

	(void)state;
	for (i = 0; i < N; i++)
		keys[i] = i + 1;
	snprintf(path, sizeof(path), "%s/each.txt", dir);
	write_keys(path, 0, keys, N);
	assert_int_equal(kb_keyfile_each(path, 0, see, &s, err, sizeof(err)), 0);
	assert_int_equal(s.blocks, 3);
	assert_int_equal(s.done_ok, 3);
	assert_int_equal(s.sum, (uint64_t)N * (N + 1) / 2);
	memset(&s, 0, sizeof(s));
	s.stop_at = 2;
	assert_int_equal(kb_keyfile_each(path, 0, see, &s, err, sizeof(err)), 7);
	assert_int_equal(s.blocks, 2);
}

/* read_all keeps max keys, not one more. */
static void read_all_refuses_past_its_limit(void **state)
{
	uint64_t *keys = NULL;
	char err[512], want[600];
	const char *path = write_file("four.txt", "1\n2\n3\n4\n", 8);
	size_t n = 9;

	(void)state;
	assert_int_equal(kb_keyfile_read_all(path, 0, 4, &keys, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	free(keys);
	assert_int_equal(kb_keyfile_read_all(path, 0, 3, &keys, &n, err, sizeof(err)), -1);
	assert_null(keys);
	snprintf(want, sizeof(want), "%s: over 3 keys, the --max-memory limit", path);
	assert_string_equal(err, want);
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
		cmocka_unit_test(writer_bytes_are_the_readers_forms),
		cmocka_unit_test(written_keys_read_back_the_same),
		cmocka_unit_test(writer_refusals_leave_no_file),
		cmocka_unit_test(writer_on_a_full_disk_says_so),
		cmocka_unit_test(each_block_in_order_until_fn_stops),
		cmocka_unit_test(read_all_refuses_past_its_limit),
	};

	return cmocka_run_group_tests_name("keyfile", tests, setup, teardown);
}
