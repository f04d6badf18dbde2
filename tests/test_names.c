/* SPDX-License-Identifier: MIT */
/*
 * bench/core/names.c: the bucket of every name of
 * tests/golden/string_tables.csv (tests/golden/gen_string_tables.py, a
 * Python model on gen_string_vectors.py's string hashes) through each
 * table that reads a string hash; the name sets, their first names worked
 * by hand; the name list and its repeats; d_hash_shift's size from memory,
 * worked by hand from alloc_large_system_hash() and dmesg's "Dentry cache
 * hash table entries: 262144" for 2 GiB.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "csv_rows.h"
#include "names.h"

struct vector {
	char table[24], sgen[16];
	unsigned word, bits;
	uint64_t param, bucket;
	char name[64];
	size_t len;
};

static const char *vectors_path;
static struct vector *vectors;
static size_t n_vectors;

static int parse_vector(char *line, void *row)
{
	struct vector *v = row;
	char *hex = strchr(line, '='), *end;

	if (!hex || sscanf(line, "%23s %15s %u %u %" SCNx64, v->table, v->sgen, &v->word,
			   &v->bits, &v->param) != 5)
		return -1;
	for (v->len = 0, hex++; hex[0] && hex[0] != ' '; hex += 2) {
		unsigned byte;

		if (v->len == sizeof(v->name) || sscanf(hex, "%2x", &byte) != 1)
			return -1;
		v->name[v->len++] = (char)byte;
	}
	end = hex;
	return sscanf(end, "%" SCNx64, &v->bucket) == 1 ? 0 : -1;
}

CSV_VECTOR_FIXTURES

static void every_vector(void **state)
{
	unsigned seen[8] = { 0 };
	size_t i;

	(void)state;
	assert_true(n_vectors > 300);
	for (i = 0; i < n_vectors; i++) {
		const struct vector *v = &vectors[i];
		int t = kb_string_table_find(v->table);
		const struct kb_string_table *tb;
		uint64_t param, b = ~UINT64_C(0);
		char err[256];
		lkh_sgen g;

		assert_true(t >= 0);
		assert_int_equal(lkh_sgen_from_name(v->sgen, &g), LKH_OK);
		tb = &kb_string_tables[t];
		param = kb_string_table_param(tb, v->word);
		/* the model's salt is the table's parameter, where there is one */
		if (v->param)
			assert_int_equal(param, v->param);
		if (kb_string_table_bucket(tb, g, v->word, v->bits, param, v->name, v->len, &b, err,
					   sizeof(err)) < 0)
			fail_msg("%s", err);
		if (b != v->bucket)
			fail_msg("line %zu: %s %s w%u bits %u: %#" PRIx64 ", want %#" PRIx64, i + 2,
				 v->table, v->sgen, v->word, v->bits, b, v->bucket);
		seen[t]++;
	}
	/* every table is in the file */
	for (i = 0; i < kb_string_tables_count; i++)
		assert_true(seen[i] > 0);
}

static void want_names(int set, const char *const *want, size_t n, uint64_t at)
{
	struct kb_names l = { 0 };
	size_t i;

	assert_int_equal(kb_name_set_make(set, at + n, &l), 0);
	assert_int_equal(l.n, at + n);
	for (i = 0; i < n; i++) {
		size_t len = strlen(want[i]);

		assert_int_equal(l.v[at + i].len, len);
		assert_memory_equal(kb_names_at(&l, at + i), want[i], len);
	}
	kb_names_free(&l);
}

static void name_sets(void **state)
{
	static const char *const numbered[] = { "file000001", "file000002" };
	static const char *const numbered_late[] = { "file999999", "file1000000" };
	static const char *const ipv4[] = { "10.0.0.1", "10.0.0.2" };
	static const char *const ipv4_late[] = { "10.0.0.255", "10.0.1.0" };
	static const char *const ipv6[] = { "2001:db8::1", "2001:db8::2" };
	static const char *const ipv6_late[] = { "2001:db8::ffff", "2001:db8::1:0" };
	static const char *const users[] = { "asmith", "bsmith" };
	static const char *const users_late[] = { "zsmith", "ajones" };
	static const char *const users_again[] = { "zalexander", "asmith2" };
	static const char *const hosts[] = { "node0001.example.org" };
	struct kb_names l = { 0 };

	(void)state;
	want_names(KB_NS_NUMBERED, numbered, 2, 0);
	want_names(KB_NS_NUMBERED, numbered_late, 2, 999998);
	want_names(KB_NS_IPV4, ipv4, 2, 0);
	want_names(KB_NS_IPV4, ipv4_late, 2, 254);
	want_names(KB_NS_IPV6, ipv6, 2, 0);
	want_names(KB_NS_IPV6, ipv6_late, 2, 65534);
	want_names(KB_NS_USERS, users, 2, 0);
	want_names(KB_NS_USERS, users_late, 2, 25);
	want_names(KB_NS_USERS, users_again, 2, 26 * 32 - 1);
	want_names(KB_NS_HOSTS, hosts, 1, 0);
	/* gssproxy's handles: the counter's 8 bytes, lowest first */
	assert_int_equal(kb_name_set_make(KB_NS_GSS_HANDLES, 258, &l), 0);
	assert_int_equal(l.v[257].len, 8);
	assert_memory_equal(kb_names_at(&l, 257), "\x02\x01\0\0\0\0\0\0", 8);
	kb_names_free(&l);
	assert_int_equal(kb_name_set_find("ipv6"), KB_NS_IPV6);
	assert_int_equal(kb_name_set_find("ipv7"), -1);
}

static void names_once(void **state)
{
	struct kb_names l = { 0 };

	(void)state;
	assert_int_equal(kb_names_add(&l, "b", 1), 0);
	assert_int_equal(kb_names_add(&l, "ab", 2), 0);
	assert_int_equal(kb_names_add(&l, "b", 1), 0);
	assert_int_equal(kb_names_add(&l, "a", 1), 0);
	assert_int_equal(kb_names_add(&l, "ab", 2), 0);
	assert_int_equal(kb_names_distinct(&l), 3);
	assert_int_equal(l.v[0].len, 1);
	assert_memory_equal(kb_names_at(&l, 0), "a", 1);
	assert_memory_equal(kb_names_at(&l, 1), "ab", 2);
	assert_memory_equal(kb_names_at(&l, 2), "b", 1);
	kb_names_free(&l);
}

static void dcache_bits(void **state)
{
	(void)state;
	/* dmesg: 2 GiB, 262144 entries */
	assert_int_equal(kb_dcache_bits(UINT64_C(2) << 30, 64), 18);
	/* 64 MiB: 16384 pages >> 1 */
	assert_int_equal(kb_dcache_bits(UINT64_C(64) << 20, 64), 13);
	/* 128 GiB: past 64 GiB, one more scale step: 2^25 pages >> 2 */
	assert_int_equal(kb_dcache_bits(UINT64_C(128) << 30, 64), 23);
	/* 64 GiB: not past it */
	assert_int_equal(kb_dcache_bits(UINT64_C(64) << 30, 64), 23);
	/* a MiB and a page more rounds up to the next power of two */
	assert_int_equal(kb_dcache_bits((UINT64_C(2) << 30) + (1u << 20), 64), 19);
	/* i386: 512 MiB, 2^17 pages >> 1; 4 GiB counts its 896 MiB of low memory */
	assert_int_equal(kb_dcache_bits(UINT64_C(512) << 20, 32), 16);
	assert_int_equal(kb_dcache_bits(UINT64_C(4) << 30, 32), 17);
	/* the row's default is the 2 GiB machine's */
	assert_int_equal(kb_string_tables[kb_string_table_find("dcache")].bits,
			 kb_dcache_bits(UINT64_C(2) << 30, 64));
}

static void refusals(void **state)
{
	const struct kb_string_table *ip = &kb_string_tables[kb_string_table_find("sunrpc-ip_map")];
	char err[256];
	uint64_t b;

	(void)state;
	assert_int_equal(kb_string_table_bucket(ip, LKH_SGEN_NEW, 64, 8, 0, "10.0.0", 6, &b, err,
						sizeof(err)),
			 -1);
	assert_string_equal(err, "sunrpc-ip_map: '10.0.0' is not an IPv4 or IPv6 address");
	assert_int_equal(kb_string_table_bucket(ip, LKH_SGEN_NEW, 64, 33, 0, "10.0.0.1", 8, &b,
						err, sizeof(err)),
			 -1);
	assert_string_equal(err, "sunrpc-ip_map: bits 33 out of range: 1..32");
	assert_int_equal(kb_string_table_find("dcache2"), -1);
}

static void want_class(const char *a, const char *b, unsigned len, unsigned prefix,
		       unsigned suffix)
{
	struct kb_name_class c;

	kb_name_class_of(a, strlen(a), b, strlen(b), &c);
	assert_int_equal(c.len, len);
	assert_int_equal(c.prefix, prefix);
	assert_int_equal(c.suffix, suffix);
}

/* explain over names: classes worked by hand, the shared pairs from the
 * model's buckets */
static void explain_classes(void **state)
{
	const struct kb_string_table *dc = &kb_string_tables[kb_string_table_find("dcache")];
	struct kb_names l = { 0 };
	struct kb_name_explain e;
	uint64_t want_shared = 0;
	char err[256];
	size_t i, j, k;

	(void)state;
	want_class("file01", "file02", 6, 5, 0);
	want_class("xab", "yab", 3, 0, 2);
	want_class("aXa", "aYa", 3, 1, 1);
	want_class("abc", "abcd", 0, 3, 0);
	want_class("aa", "aaa", 0, 2, 0);    /* the end's bytes are the start's */
	want_class("ba", "cba", 0, 0, 2);
	/* the model's dcache names under sum, 64-bit, 2^10 */
	for (i = 0; i < n_vectors; i++) {
		const struct vector *v = &vectors[i];

		if (strcmp(v->table, "dcache") || strcmp(v->sgen, "sum") || v->word != 64 ||
		    v->bits != 10)
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(vectors[j].table, "dcache") && !strcmp(vectors[j].sgen, "sum") &&
			    vectors[j].word == 64 && vectors[j].bits == 10 &&
			    vectors[j].bucket == v->bucket)
				want_shared++;
		assert_int_equal(kb_names_add(&l, v->name, v->len), 0);
	}
	assert_true(l.n >= 4);
	assert_int_equal(kb_names_explain(dc, LKH_SGEN_SUM, 64, 10, kb_string_table_param(dc, 64),
					  &l, &e, err, sizeof(err)),
			 0);
	assert_int_equal(e.pairs, l.n * (l.n - 1) / 2);
	assert_int_equal(e.shared, want_shared);
	for (i = 0, k = 0; i < e.nrows; i++)
		k += e.rows[i].shared;
	assert_int_equal(k, want_shared);
	kb_names_free(&l);
	/* every pair classed: file01 and file02 (6, 5, 0), file10 with each
	 * (6, 4, 0), x with each (-, 0, 0); in 2 buckets, some share */
	assert_int_equal(kb_names_add(&l, "file01", 6), 0);
	assert_int_equal(kb_names_add(&l, "file02", 6), 0);
	assert_int_equal(kb_names_add(&l, "file10", 6), 0);
	assert_int_equal(kb_names_add(&l, "x", 1), 0);
	assert_int_equal(kb_names_explain(dc, LKH_SGEN_NEW, 64, 1, 0, &l, &e, err, sizeof(err)), 0);
	for (i = 0, k = 0; i < e.nrows; i++) {
		const struct kb_name_class *r = &e.rows[i];

		k += r->shared;
		assert_int_equal(r->pairs, r->len == 0 ? 3 : r->prefix == 5 ? 1 : 2);
		assert_true(r->shared <= r->pairs);
	}
	assert_int_equal(k, e.shared);
	for (i = 1; i < e.nrows; i++)
		assert_true((double)e.rows[i - 1].shared - (double)e.rows[i - 1].pairs / 2 >=
			    (double)e.rows[i].shared - (double)e.rows[i].pairs / 2);
	kb_names_free(&l);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(every_vector, load_vectors, free_vectors),
		cmocka_unit_test(name_sets),
		cmocka_unit_test(names_once),
		cmocka_unit_test(dcache_bits),
		cmocka_unit_test(refusals),
		cmocka_unit_test_setup_teardown(explain_classes, load_vectors, free_vectors),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s string_tables.csv\n", argv[0]);
		return 2;
	}
	vectors_path = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
