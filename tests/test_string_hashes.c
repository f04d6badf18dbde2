/* SPDX-License-Identifier: MIT */
/*
 * The string hashes (lkh_string.h): every vector of
 * tests/golden/string_vectors.csv (tests/golden/gen_string_vectors.py,
 * checked against the kernel's own 6.1 and 6.12 source for `new`) through
 * lkh_string_hash() and through the explicit name of its cell; then the
 * properties the kernel designed in, and the checked API's refusals.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "csv_rows.h"
#include "lkh_string.h"

struct vector {
	lkh_sfunc func;
	lkh_sgen gen;
	lkh_spath path;
	unsigned word, bits;
	uint64_t salt, expected;
	unsigned char data[64];
	size_t len;
};

static const char *vectors_path;
static struct vector *vectors;
static size_t n_vectors;

static int parse_hex(const char *hex, struct vector *v)
{
	v->len = 0;
	while (hex[0] && hex[1] && hex[0] != ' ') {
		unsigned byte;

		if (v->len == sizeof(v->data) || sscanf(hex, "%2x", &byte) != 1)
			return -1;
		v->data[v->len++] = (unsigned char)byte;
		hex += 2;
	}
	return 0;
}

static int parse_vector(char *line, void *row)
{
	char fname[32], gname[16], pname[8], *hex = strchr(line, '='), *end;
	struct vector *v = row;

	return hex &&
			       sscanf(line, "%31s %15s %u %7s %" SCNx64 " %u", fname, gname,
				      &v->word, pname, &v->salt, &v->bits) == 6 &&
			       !parse_hex(hex + 1, v) && (end = strchr(hex, ' ')) &&
			       sscanf(end, "%" SCNx64, &v->expected) == 1 &&
			       lkh_sfunc_from_name(fname, &v->func) == LKH_OK &&
			       lkh_sgen_from_name(gname, &v->gen) == LKH_OK &&
			       lkh_spath_from_name(pname, &v->path) == LKH_OK
		       ? 0
		       : -1;
}

CSV_VECTOR_FIXTURES

/* ---- the explicit names, one row a cell ---------------------------------- */

struct cell {
	lkh_sgen gen;
	unsigned word;
	lkh_spath path;
	uint32_t (*full32)(uint32_t, const void *, size_t);
	uint32_t (*full64)(uint64_t, const void *, size_t);
	uint32_t (*full_unsalted)(const void *, size_t);
	uint64_t (*name32)(uint32_t, const char *);
	uint64_t (*name64)(uint64_t, const char *);
	uint64_t (*name_unsalted)(const char *);
	uint64_t (*hashlen32)(uint32_t, const char *);
	uint64_t (*hashlen64)(uint64_t, const char *);
	uint64_t (*hashlen_unsalted)(const char *);
	uint64_t (*str)(const char *, unsigned);
	uint64_t (*mem)(const void *, size_t, unsigned);
};

#define W_w32 32
#define W_w64 64
#define P_byte LKH_SPATH_BYTE
#define P_le LKH_SPATH_LE
#define P_be LKH_SPATH_BE
#define N_(g, f, w, p) lkh_##g##_##f##_##w##_##p
#define OLD_CELL(g, w, p)                                                          \
	{(lkh_sgen)-1, W_##w, P_##p, NULL, NULL, N_(g, full_name_hash, w, p), NULL, \
	 NULL, N_(g, hash_name, w, p), NULL, NULL, NULL, N_(g, hash_str, w, p),      \
	 N_(g, hash_mem, w, p)},
#define MIX_CELL(g, w, p)                                                          \
	{(lkh_sgen)-1, W_##w, P_##p, NULL, NULL, N_(g, full_name_hash, w, p), NULL, \
	 NULL, N_(g, hash_name, w, p), NULL, NULL, N_(g, hashlen_string, w, p),      \
	 N_(g, hash_str, w, p), N_(g, hash_mem, w, p)},
#define SALT32_w32(x) x
#define SALT32_w64(x) NULL
#define SALT64_w32(x) NULL
#define SALT64_w64(x) x
#define SALTED_CELL(g, w, p)                                                       \
	{(lkh_sgen)-1, W_##w, P_##p, SALT32_##w(N_(g, full_name_hash, w, p)),        \
	 SALT64_##w(N_(g, full_name_hash, w, p)), NULL,                              \
	 SALT32_##w(N_(g, hash_name, w, p)), SALT64_##w(N_(g, hash_name, w, p)), NULL, \
	 SALT32_##w(N_(g, hashlen_string, w, p)),                                    \
	 SALT64_##w(N_(g, hashlen_string, w, p)), NULL, N_(g, hash_str, w, p),       \
	 N_(g, hash_mem, w, p)},
#define CELL_GEN(g, w, p) #g,
static struct cell cells[] = {LKH_STRING_CELLS(OLD_CELL, MIX_CELL, SALTED_CELL)};
static const char *const cell_gens[] = {LKH_STRING_CELLS(CELL_GEN, CELL_GEN, CELL_GEN)};
#define N_CELLS (sizeof(cells) / sizeof(cells[0]))

static int set_cell_gens(void **state)
{
	size_t i;

	for (i = 0; i < N_CELLS; i++)
		if (lkh_sgen_from_name(cell_gens[i], &cells[i].gen) != LKH_OK)
			return -1;
	return load_vectors(state);
}

static const struct cell *find_cell(lkh_sgen gen, unsigned word, lkh_spath path)
{
	size_t i;

	for (i = 0; i < N_CELLS; i++)
		if (cells[i].gen == gen && cells[i].word == word && cells[i].path == path)
			return &cells[i];
	return NULL;
}

static uint64_t call_explicit(const struct cell *c, const struct vector *v)
{
	char s[sizeof(v->data) + 1];

	memcpy(s, v->data, v->len);
	s[v->len] = 0; /* the C-string names read to a NUL */
	switch (v->func) {
	case LKH_SFUNC_FULL_NAME_HASH:
		return c->full_unsalted ? c->full_unsalted(v->data, v->len)
		       : c->full32	? c->full32((uint32_t)v->salt, v->data, v->len)
					: c->full64(v->salt, v->data, v->len);
	case LKH_SFUNC_HASH_NAME:
		return c->name_unsalted ? c->name_unsalted(s)
		       : c->name32	? c->name32((uint32_t)v->salt, s)
					: c->name64(v->salt, s);
	case LKH_SFUNC_HASHLEN_STRING:
		return c->hashlen_unsalted ? c->hashlen_unsalted(s)
		       : c->hashlen32	   ? c->hashlen32((uint32_t)v->salt, s)
					   : c->hashlen64(v->salt, s);
	case LKH_SFUNC_HASH_STR:
		return c->str(s, v->bits);
	default:
		return c->mem(v->data, v->len, v->bits);
	}
}

static void test_golden(void **state)
{
	size_t i, failures = 0;
	int seen[N_CELLS] = {0};
	size_t n_seen = 0;

	(void)state;
	for (i = 0; i < n_vectors; i++) {
		const struct vector *v = &vectors[i];
		const struct cell *c = find_cell(v->gen, v->word, v->path);
		uint64_t checked = ~v->expected, named;
		int err = lkh_string_hash(v->func, v->gen, v->word, v->path, v->salt, v->data,
					  v->len, v->bits, &checked);

		if (!c) {
			fail_msg("no explicit names for %s w%u %s", lkh_sgen_name(v->gen), v->word,
				 lkh_spath_name(v->path));
		}
		if (!seen[c - cells]++)
			n_seen++;
		named = call_explicit(c, v);
		if (err != LKH_OK || checked != v->expected || named != v->expected) {
			if (failures++ < 10)
				print_error("%s %s w%u %s salt %#" PRIx64 " bits %u len %zu: want %#" PRIx64
					    ", lkh_string_hash %d/%#" PRIx64 ", named %#" PRIx64 "\n",
					    lkh_sfunc_name(v->func), lkh_sgen_name(v->gen), v->word,
					    lkh_spath_name(v->path), v->salt, v->bits, v->len,
					    v->expected, err, checked, named);
		}
	}
	assert_int_equal(failures, 0);
	/* every cell with names has vectors, and lkh_string_has_path agrees */
	assert_int_equal(n_seen, N_CELLS);
	for (i = 0; i < LKH_SGEN_COUNT * 2 * LKH_SPATH_COUNT; i++) {
		lkh_sgen g = (lkh_sgen)(i / 6);
		unsigned w = i % 2 ? 64 : 32;
		lkh_spath p = (lkh_spath)(i / 2 % 3);

		assert_int_equal(lkh_string_has_path(g, w, p), find_cell(g, w, p) != NULL);
	}
}

/* ---- properties ------------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state % n);
}

static uint64_t hash_ok(lkh_sfunc f, lkh_sgen g, unsigned w, lkh_spath p, uint64_t salt,
			const void *data, size_t len, unsigned bits)
{
	uint64_t out = 0;

	assert_int_equal(lkh_string_hash(f, g, w, p, salt, data, len, bits, &out), LKH_OK);
	return out;
}

/* A component: bytes 1..255 but '/', 1..40 of them. */
static size_t random_component(unsigned char *s)
{
	size_t n = 1 + rnd(40), i;

	for (i = 0; i < n; i++) {
		s[i] = (unsigned char)(1 + rnd(255));
		if (s[i] == '/')
			s[i] = 'x';
	}
	s[n] = 0;
	return n;
}

static void test_same_component(void **state)
{
	unsigned char s[48], t[64];
	unsigned trial, g, w, p;

	(void)state;
	for (trial = 0; trial < 200; trial++) {
		size_t n = random_component(s);

		memcpy(t, s, n);
		memcpy(t + n, "/tail", 6); /* hash_name stops at the '/' */
		for (g = 0; g < LKH_SGEN_COUNT; g++)
			for (w = 32; w <= 64; w += 32)
				for (p = 0; p < LKH_SPATH_COUNT; p++) {
					uint64_t salt = 0, full, name, want;

					if (!lkh_string_has_path((lkh_sgen)g, w, (lkh_spath)p))
						continue;
					if (g >= LKH_SGEN_SALTED)
						salt = (rng_state >> 3) & (w == 64 ? UINT64_MAX : 0xffffffffu);
					full = hash_ok(LKH_SFUNC_FULL_NAME_HASH, g, w, p, salt, s, n, 0);
					want = (uint64_t)n << 32 | full;
					name = hash_ok(LKH_SFUNC_HASH_NAME, g, w, p, salt, t, n + 5, 0);
					assert_int_equal(name, want);
					if (g >= LKH_SGEN_MIX)
						assert_int_equal(hash_ok(LKH_SFUNC_HASHLEN_STRING, g, w,
									 p, salt, s, n + 1, 0),
								 want);
				}
	}
}

/*
 * Where the kernel's paths agree: the packing sunrpc (before v4.7) never
 * looked at the path; a byte path ending in a 32-bit truncation computes
 * the same on both words (+ and * 11 modulo 2^32 see only low bits), and
 * so do 32-bit kernels under the two later ends.  Where they do not: the
 * word and byte paths, the byte orders, and the 64-bit hash_long end.
 */
static void test_paths_agree_where_the_kernel_says(void **state)
{
	unsigned char s[48];
	unsigned trial, g;
	unsigned differ_path = 0, differ_order = 0, differ_end64 = 0;

	(void)state;
	for (trial = 0; trial < 200; trial++) {
		size_t n = random_component(s);
		uint32_t salt = (uint32_t)rng_state;

		for (g = LKH_SGEN_SUM; g <= LKH_SGEN_MINIMAL; g++) {
			assert_int_equal(hash_ok(LKH_SFUNC_HASH_MEM, g, 64, LKH_SPATH_BYTE, 0, s, n, 40),
					 hash_ok(LKH_SFUNC_HASH_MEM, g, 64, LKH_SPATH_LE, 0, s, n, 40));
			assert_int_equal(hash_ok(LKH_SFUNC_FULL_NAME_HASH, g, 32, LKH_SPATH_BYTE, 0, s, n, 0),
					 hash_ok(LKH_SFUNC_FULL_NAME_HASH, g, 64, LKH_SPATH_BYTE, 0, s, n, 0));
		}
		assert_int_equal(hash_ok(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_SALTED, 32, LKH_SPATH_BYTE, salt, s, n, 0),
				 hash_ok(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_SALTED, 64, LKH_SPATH_BYTE, salt, s, n, 0));
		assert_int_equal(hash_ok(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_SALTED, 32, LKH_SPATH_BYTE, salt, s, n, 0),
				 hash_ok(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 32, LKH_SPATH_BYTE, salt, s, n, 0));
		differ_end64 += hash_ok(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 32, LKH_SPATH_BYTE, salt, s, n, 0) !=
				hash_ok(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 64, LKH_SPATH_BYTE, salt, s, n, 0);
		differ_path += hash_ok(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 64, LKH_SPATH_BYTE, salt, s, n, 0) !=
			       hash_ok(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 64, LKH_SPATH_LE, salt, s, n, 0);
		differ_order += hash_ok(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 64, LKH_SPATH_BE, salt, s, n, 0) !=
				hash_ok(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 64, LKH_SPATH_LE, salt, s, n, 0);
	}
	assert_true(differ_path > 190 && differ_order > 190 && differ_end64 > 190);
}

/* The byte path is partial_name_hash over the bytes, then end_name_hash. */
static void test_partial_and_end(void **state)
{
	unsigned char s[48];
	unsigned trial, g;

	(void)state;
	for (trial = 0; trial < 100; trial++) {
		size_t n = random_component(s), i;
		uint32_t salt = (uint32_t)rng_state, end = 0;

		for (g = 0; g < LKH_SGEN_COUNT; g++) {
			uint32_t s_or_0 = g >= LKH_SGEN_SALTED ? salt : 0, h32 = s_or_0;
			uint64_t h64 = s_or_0;

			for (i = 0; i < n; i++) {
				h32 = lkh_partial_name_hash_w32(s[i], h32);
				h64 = lkh_partial_name_hash_w64(s[i], h64);
			}
			if (g == LKH_SGEN_MIX) {
				assert_int_equal(lkh_end_name_hash(g, 64, h64, &end), LKH_ERR_PATH);
				continue;
			}
			assert_int_equal(lkh_end_name_hash(g, 64, h64, &end), LKH_OK);
			assert_int_equal(end, hash_ok(LKH_SFUNC_FULL_NAME_HASH, g, 64, LKH_SPATH_BYTE,
						      s_or_0, s, n, 0));
			assert_int_equal(lkh_end_name_hash(g, 32, h32, &end), LKH_OK);
			assert_int_equal(end, hash_ok(LKH_SFUNC_FULL_NAME_HASH, g, 32, LKH_SPATH_BYTE,
						      s_or_0, s, n, 0));
		}
	}
}

static void test_refusals(void **state)
{
	uint64_t out = 7;
	uint32_t end = 7;

	(void)state;
	assert_int_equal(lkh_string_hash(LKH_SFUNC_COUNT, LKH_SGEN_NEW, 64, LKH_SPATH_LE, 0, "a", 1, 0, &out), LKH_ERR_FUNC);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_HASHLEN_STRING, LKH_SGEN_MINIMAL, 64, LKH_SPATH_LE, 0, "a", 1, 0, &out), LKH_ERR_FUNC);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_COUNT, 64, LKH_SPATH_LE, 0, "a", 1, 0, &out), LKH_ERR_GEN);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 16, LKH_SPATH_LE, 0, "a", 1, 0, &out), LKH_ERR_WORD);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 32, LKH_SPATH_LE, 1ull << 32, "a", 1, 0, &out), LKH_ERR_RANGE);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_SUM, 64, LKH_SPATH_BE, 0, "a", 1, 0, &out), LKH_ERR_PATH);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_MIX, 64, LKH_SPATH_BYTE, 0, "a", 1, 0, &out), LKH_ERR_PATH);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_MIX, 64, LKH_SPATH_LE, 8, "a", 1, 0, &out), LKH_ERR_SALT);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_HASH_STR, LKH_SGEN_NEW, 64, LKH_SPATH_LE, 8, "a", 1, 6, &out), LKH_ERR_SALT);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_HASH_STR, LKH_SGEN_NEW, 64, LKH_SPATH_LE, 0, "a", 1, 33, &out), LKH_ERR_BITS);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_HASH_STR, LKH_SGEN_SUM, 32, LKH_SPATH_LE, 0, "a", 1, 33, &out), LKH_ERR_BITS);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_HASH_MEM, LKH_SGEN_SUM, 64, LKH_SPATH_LE, 0, "a", 1, 0, &out), LKH_ERR_BITS);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 64, LKH_SPATH_LE, 0, "a", 1, 5, &out), LKH_ERR_BITS);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 64, LKH_SPATH_LE, 0, NULL, 1, 0, &out), LKH_ERR_NULL);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 64, LKH_SPATH_LE, 0, "a", 1, 0, NULL), LKH_ERR_NULL);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_HASH_NAME, LKH_SGEN_NEW, 64, LKH_SPATH_LE, 0, "/a", 2, 0, &out), LKH_ERR_NAME);
	assert_int_equal(lkh_string_hash(LKH_SFUNC_HASH_NAME, LKH_SGEN_NEW, 64, LKH_SPATH_LE, 0, "", 0, 0, &out), LKH_ERR_NAME);
	assert_int_equal(out, 7); /* untouched on error */
	assert_int_equal(lkh_end_name_hash(LKH_SGEN_NEW, 32, 1ull << 32, &end), LKH_ERR_RANGE);
	assert_int_equal(lkh_end_name_hash(LKH_SGEN_NEW, 64, 1, NULL), LKH_ERR_NULL);
	assert_int_equal(end, 7);
	/* the empty string is a value, not an error, where the kernel hashes it */
	assert_int_equal(lkh_string_hash(LKH_SFUNC_FULL_NAME_HASH, LKH_SGEN_NEW, 64, LKH_SPATH_LE, 0, NULL, 0, 0, &out), LKH_OK);
	/* each refusal has its own message */
	assert_string_not_equal(lkh_strerror(LKH_ERR_PATH), lkh_strerror(12345));
	assert_string_not_equal(lkh_strerror(LKH_ERR_SALT), lkh_strerror(12345));
	assert_string_not_equal(lkh_strerror(LKH_ERR_NAME), lkh_strerror(12345));
	assert_null(lkh_sgen_name(LKH_SGEN_COUNT));
	assert_string_equal(lkh_sgen_name(LKH_SGEN_NEW), "new");
	assert_non_null(lkh_sgen_kernels(LKH_SGEN_SUM));
	assert_string_equal(lkh_sfunc_name(LKH_SFUNC_HASH_MEM), "hash_mem");
	assert_string_equal(lkh_spath_name(LKH_SPATH_BE), "be");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_same_component),
		cmocka_unit_test(test_paths_agree_where_the_kernel_says),
		cmocka_unit_test(test_partial_and_end),
		cmocka_unit_test(test_refusals),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s string_vectors.csv\n", argv[0]);
		return 2;
	}
	vectors_path = argv[1];
	return cmocka_run_group_tests(tests, set_cell_gens, free_vectors);
}
