/* SPDX-License-Identifier: MIT */
/*
 * Every source of keys read whole (io/key_source.c): a key file and a
 * census written here, whose keys, repeats and sites are known by hand; a
 * key set given its base and stride; a named table's model through its
 * shift; and the refusals, each with whose mistake it is.
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

#include "key_source.h"
#include "stats.h"
#include "tables.h"

/* The files the tests write, in a folder of their own, removed after. */
static char dir[] = "/tmp/kb-key-source-XXXXXX";
static const char *const names[] = { "five.txt", "census.txt" };

static const char *write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	return path;
}

static int made_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int removed_dir(void **state)
{
	char path[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		remove(path);
	}
	return rmdir(dir);
}

/* five keys, two of them repeats: 3, 5 and 9 once each */
static const char five_keys[] = "9\n0x3\n# a comment\n9\n5\n3\n";

static void file_keys_sorted_and_distinct(void **state)
{
	const char *path = write_file("five.txt", five_keys);
	struct kb_key_source src = { .from = KB_KEYS_FILE, .path = path, .max_keys = 100,
				     .distinct = 1 };
	struct kb_keys k;
	char err[512];

	(void)state;
	assert_int_equal(kb_keys_open(&src, &k, err, sizeof(err)), KB_KEYS_OK);
	assert_int_equal(k.read, 5);
	assert_int_equal(k.n, 3);
	assert_int_equal(k.keys[0], 3);
	assert_int_equal(k.keys[1], 5);
	assert_int_equal(k.keys[2], 9);
	/* a file says nothing of what hashes its keys */
	assert_false(k.has_func);
	assert_int_equal(k.bits, 0);
	assert_int_equal(k.word, 0);
	assert_int_equal(k.kind, -1);
	assert_ptr_equal(k.name, path);
	kb_keys_free(&k);
	assert_null(k.keys);
}

static void file_keys_as_read(void **state)
{
	static const uint64_t want[] = { 9, 3, 9, 5, 3 };
	const char *path = write_file("five.txt", five_keys);
	struct kb_key_source src = { .from = KB_KEYS_FILE, .path = path, .max_keys = 5 };
	struct kb_keys k;
	char err[512];
	size_t i;

	(void)state;
	assert_int_equal(kb_keys_open(&src, &k, err, sizeof(err)), KB_KEYS_OK);
	assert_int_equal(k.read, 5);
	assert_int_equal(k.n, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(k.keys[i], want[i]);
	kb_keys_free(&k);
}

/* The limit counts keys read, repeats too; a missing file is the run's
 * failure, not the command line's. */
static void file_refusals(void **state)
{
	const char *path = write_file("five.txt", five_keys);
	struct kb_key_source src = { .from = KB_KEYS_FILE, .path = path, .max_keys = 4,
				     .distinct = 1 };
	struct kb_keys k;
	char err[512], want[600];

	(void)state;
	assert_int_equal(kb_keys_open(&src, &k, err, sizeof(err)), KB_KEYS_FAILED);
	assert_null(k.keys);
	snprintf(want, sizeof(want), "%s: over 4 keys, the --max-memory limit", path);
	assert_string_equal(err, want);
	src.path = "/nonexistent/keys.txt";
	assert_int_equal(kb_keys_open(&src, &k, err, sizeof(err)), KB_KEYS_FAILED);
	assert_string_equal(err, "/nonexistent/keys.txt: No such file or directory");
}

static void keyset_by_base_and_stride(void **state)
{
	struct kb_key_source src = { .from = KB_KEYS_KEYSET, .keyset = KB_KS_SEQ,
				     .max_keys = 10, .max_memory = 3 << 20, .distinct = 1 };
	struct kb_keys k;
	char err[512];
	size_t i;

	(void)state;
	src.kp.count = 10;
	src.kp.has_base = src.kp.has_stride = 1;
	src.kp.base = 100;
	src.kp.stride = 3;
	src.kp.word = 64;
	src.kp.input_bits = 64;
	assert_int_equal(kb_keys_open(&src, &k, err, sizeof(err)), KB_KEYS_OK);
	assert_int_equal(k.read, 10);
	assert_int_equal(k.n, 10);
	for (i = 0; i < 10; i++)
		assert_int_equal(k.keys[i], 100 + 3 * i);
	assert_string_equal(k.name, "seq");
	kb_keys_free(&k);
	/* weighed before a key is made */
	src.max_keys = 9;
	assert_int_equal(kb_keys_open(&src, &k, err, sizeof(err)), KB_KEYS_FAILED);
	assert_string_equal(err, "--count 10: the keys need more than the --max-memory limit of 3 MiB");
}

/* A census of four sites: two at one file:line, one of two inputs, one
 * without a table size, and kernfs's open-file lock hash of 6.1. */
static const char census[] =
	"khash-census 1\n"
	"meta word 64\n"
	"meta arch x86_64\n"
	"meta kernel 6.1.192-3 (Debian linux-source-6.1)\n"
	"site 1 hash_32 3 6 kernel/a.c:10\n"
	"keys 1 30 10 20 10 30 40\n"
	"site 2 hash_32 5 1 kernel/a.c:10\n"
	"keys 2 7\n"
	"site 3 inode_hash 0 1 fs/inode.c:1\n"
	"keys 3 ff:1\n"
	"site 4 __hash_32 0 1 fs/namei.c:1\n"
	"keys 4 1\n"
	"site 5 hash_ptr 10 2 fs/kernfs/file.c:45\n"
	"keys 5 1000 2000\n";

static enum kb_keys_fault site(const char *path, const char *which, int need_bits,
			       struct kb_keys *k, char *err, size_t errlen)
{
	struct kb_key_source src = { .from = KB_KEYS_SITE, .census = path, .site = which,
				     .max_keys = 100, .distinct = 1, .need_bits = need_bits };

	return kb_keys_open(&src, k, err, errlen);
}

static void census_sites(void **state)
{
	const char *p = write_file("census.txt", census);
	char path[256], err[512], want[1024];
	struct kb_keys k;

	(void)state;
	snprintf(path, sizeof(path), "%s", p);
	assert_int_equal(site(path, "1", 1, &k, err, sizeof(err)), KB_KEYS_OK);
	assert_int_equal(k.read, 6);
	assert_int_equal(k.n, 4);
	assert_int_equal(k.keys[0], 0x10);
	assert_int_equal(k.keys[3], 0x40);
	assert_true(k.has_func);
	assert_int_equal(k.func, LKH_FUNC_HASH_32);
	assert_int_equal(k.bits, 3);
	assert_int_equal(k.word, 64);
	assert_int_equal(k.kind, -1); /* no entry knows kernel/a.c */
	assert_string_equal(k.name, "site 1 kernel/a.c:10");
	kb_keys_free(&k);
	/* kernfs hashes a file to one of its open-file mutexes */
	assert_int_equal(site(path, "fs/kernfs/file.c:45", 1, &k, err, sizeof(err)), KB_KEYS_OK);
	assert_int_equal(k.func, LKH_FUNC_HASH_PTR);
	assert_int_equal(k.kind, KB_KIND_LOCKS);
	assert_string_equal(k.name, "site 5 fs/kernfs/file.c:45");
	kb_keys_free(&k);
	/* without --bits a site must record its table's size; with, not */
	assert_int_equal(site(path, "4", 1, &k, err, sizeof(err)), KB_KEYS_MISUSED);
	assert_string_equal(err, "site 4 (fs/namei.c:1) records no table size: give --bits");
	assert_int_equal(site(path, "4", 0, &k, err, sizeof(err)), KB_KEYS_OK);
	assert_int_equal(k.n, 1);
	kb_keys_free(&k);
	/* the command line's mistakes */
	assert_int_equal(site(path, "kernel/a.c:10", 1, &k, err, sizeof(err)), KB_KEYS_MISUSED);
	snprintf(want, sizeof(want), "%s: sites 1 and 2 are both at kernel/a.c:10: give an id",
		 path);
	assert_string_equal(err, want);
	assert_int_equal(site(path, "3", 0, &k, err, sizeof(err)), KB_KEYS_MISUSED);
	assert_string_equal(err, "site 3 (fs/inode.c:1) hashes two inputs with inode_hash: advise takes a site of one key");
	assert_int_equal(site(path, "+1", 1, &k, err, sizeof(err)), KB_KEYS_MISUSED);
	snprintf(want, sizeof(want), "%s: no site +1 (see 'khash-bench census %s')", path, path);
	assert_string_equal(err, want);
	assert_null(k.keys);
	/* a census that cannot be read is the run's failure */
	assert_int_equal(site("/nonexistent/census.txt", "1", 1, &k, err, sizeof(err)),
			 KB_KEYS_FAILED);
	assert_string_equal(err, "/nonexistent/census.txt: No such file or directory");
}

/* btrfs-raid56 hashes its model's addresses shifted right by 16; -raw
 * hashes the same addresses unshifted. */
static void table_model_through_its_shift(void **state)
{
	struct kb_key_source src = { .from = KB_KEYS_TABLE, .word = 64, .count = 500,
				     .seed = 1, .max_keys = 1000, .distinct = 1, .who = "advise" };
	static const char name[] = "table btrfs-raid56 (hash_64(logical >> 16, 11), ";
	struct kb_keys raw, shifted;
	char err[512];
	size_t i, n;

	(void)state;
	src.table = kb_table_find("btrfs-raid56-raw");
	assert_true(src.table >= 0);
	assert_int_equal(kb_keys_open(&src, &raw, err, sizeof(err)), KB_KEYS_OK);
	src.table = kb_table_find("btrfs-raid56");
	assert_true(src.table >= 0);
	assert_int_equal(kb_keys_open(&src, &shifted, err, sizeof(err)), KB_KEYS_OK);
	assert_int_equal(raw.read, 500);
	assert_int_equal(shifted.read, 500);
	/* raw's keys, sorted, shifted: their distinct values are the other's */
	for (i = 0, n = 0; i < raw.n; i++)
		if (!n || raw.keys[i] >> 16 != raw.keys[n - 1])
			raw.keys[n++] = raw.keys[i] >> 16;
	assert_int_equal(shifted.n, n);
	assert_memory_equal(shifted.keys, raw.keys, n * sizeof(*raw.keys));
	assert_true(shifted.has_func);
	assert_int_equal(shifted.func, LKH_FUNC_HASH_64);
	assert_int_equal(shifted.bits, 11);
	assert_int_equal(shifted.word, 0);
	assert_int_equal(shifted.kind, KB_KIND_CHAINED);
	assert_int_equal(strncmp(shifted.name, name, strlen(name)), 0);
	kb_keys_free(&raw);
	kb_keys_free(&shifted);
	/* a key that goes through more than a shift is refused, by name */
	src.table = kb_table_find("bit-waitqueue");
	src.who = "explain";
	assert_int_equal(kb_keys_open(&src, &raw, err, sizeof(err)), KB_KEYS_MISUSED);
	assert_non_null(strstr(err, "; explain takes tables that hash the key as it is or shifted"));
	assert_null(raw.keys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(file_keys_sorted_and_distinct),
		cmocka_unit_test(file_keys_as_read),
		cmocka_unit_test(file_refusals),
		cmocka_unit_test(keyset_by_base_and_stride),
		cmocka_unit_test(census_sites),
		cmocka_unit_test(table_model_through_its_shift),
	};

	return cmocka_run_group_tests_name("key_source", tests, made_dir, removed_dir);
}
