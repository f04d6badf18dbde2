/* SPDX-License-Identifier: MIT */
/*
 * Golden vectors: every function x generation x word size against values
 * computed independently (tests/golden/gen_golden_vectors.py, Python big
 * integers).  Each vector is checked through all three ways in: the inline
 * header, the exported symbols (link-only mode) and the checked lkh_hash().
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
#include "named_table.h"

struct vector {
	lkh_func func;
	lkh_gen gen;
	unsigned word, bits;
	uint64_t input, expected;
};

static const char *vectors_path;
static struct vector *vectors;
static size_t n_vectors;

static int parse_vector(char *line, void *row)
{
	char fname[32], gname[16];
	struct vector *v = row;

	return sscanf(line, "%31s %15s %u %u %" SCNx64 " %" SCNx64, fname, gname,
		      &v->word, &v->bits, &v->input, &v->expected) == 6 &&
			       lkh_func_from_name(fname, &v->func) == LKH_OK &&
			       lkh_gen_from_name(gname, &v->gen) == LKH_OK
		       ? 0
		       : -1;
}

CSV_VECTOR_FIXTURES

static void report(const struct vector *v, const char *how, uint64_t got)
{
	print_error("%s %s w%u bits=%u input=%#" PRIx64 " via %s: got %#" PRIx64
		    ", want %#" PRIx64 "\n",
		    lkh_func_name(v->func), lkh_gen_name(v->gen), v->word,
		    v->bits, v->input, how, got, v->expected);
}

static void vectors_cover_every_combination(void **state)
{
	int seen[LKH_FUNC_COUNT][LKH_GEN_COUNT][2] = { { { 0 } } };
	int f, g, w;
	size_t i;

	(void)state;
	assert_true(n_vectors >= 3000);
	for (i = 0; i < n_vectors; i++)
		seen[vectors[i].func][vectors[i].gen][vectors[i].word == 64]++;
	for (f = 0; f < LKH_FUNC_COUNT; f++)
		for (g = 0; g < LKH_GEN_COUNT; g++)
			for (w = 0; w < 2; w++)
				assert_true(seen[f][g][w] > 0);
}

static void vectors_cover_every_bits_value(void **state)
{
	/* input 1 is swept over every valid bits value of every combination */
	static unsigned char seen[LKH_FUNC_COUNT][LKH_GEN_COUNT][2][65];
	int f, g, w;
	unsigned b;
	size_t i;

	(void)state;
	for (i = 0; i < n_vectors; i++)
		if (vectors[i].input == 1 && vectors[i].bits <= 64)
			seen[vectors[i].func][vectors[i].gen]
			    [vectors[i].word == 64][vectors[i].bits] = 1;
	for (f = 0; f < LKH_FUNC_COUNT; f++)
		for (g = 0; g < LKH_GEN_COUNT; g++)
			for (w = 0; w < 2; w++) {
				unsigned max = lkh_bits_max((lkh_func)f,
							    (lkh_gen)g,
							    w ? 64 : 32);

				for (b = max ? 1 : 0; b <= max; b++)
					assert_true(seen[f][g][w][b]);
			}
}

static void check_table(const struct named_entry *table, size_t len,
			const char *how)
{
	size_t i, failures = 0;

	for (i = 0; i < n_vectors; i++) {
		const struct vector *v = &vectors[i];
		const struct named_entry *e =
			named_find(table, len, v->func, v->gen, v->word);
		uint64_t got;

		assert_non_null(e);
		got = named_call(e, v->input, v->bits);
		if (got != v->expected && failures++ < 10)
			report(v, how, got);
	}
	assert_int_equal(failures, 0);
}

static void inline_functions_match_vectors(void **state)
{
	size_t len;
	const struct named_entry *t = named_table_inline(&len);

	(void)state;
	check_table(t, len, "inline");
}

static void exported_functions_match_vectors(void **state)
{
	size_t len;
	const struct named_entry *t = named_table_link(&len);

	(void)state;
	check_table(t, len, "exported");
}

static void checked_entry_point_matches_vectors(void **state)
{
	size_t i, failures = 0;

	(void)state;
	for (i = 0; i < n_vectors; i++) {
		const struct vector *v = &vectors[i];
		uint64_t got = ~(uint64_t)0;
		int rc = lkh_hash(v->func, v->gen, v->word, v->input, v->bits,
				  &got);

		if ((rc != LKH_OK || got != v->expected) && failures++ < 10)
			report(v, lkh_strerror(rc), got);
	}
	assert_int_equal(failures, 0);
}

static void full_word_gives_every_bits_value(void **state)
{
	size_t i, failures = 0;

	(void)state;
	for (i = 0; i < n_vectors; i++) {
		const struct vector *v = &vectors[i];
		uint64_t full, got;
		unsigned width;

		assert_int_equal(lkh_hash_full(v->func, v->gen, v->word,
					       v->input, &full, &width),
				 LKH_OK);
		got = v->bits ? full >> (width - v->bits) : full;
		if (got != v->expected && failures++ < 10)
			report(v, "lkh_hash_full", got);
	}
	assert_int_equal(failures, 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vectors_cover_every_combination),
		cmocka_unit_test(vectors_cover_every_bits_value),
		cmocka_unit_test(inline_functions_match_vectors),
		cmocka_unit_test(exported_functions_match_vectors),
		cmocka_unit_test(checked_entry_point_matches_vectors),
		cmocka_unit_test(full_word_gives_every_bits_value),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s VECTORS.csv\n", argv[0]);
		return 2;
	}
	vectors_path = argv[1];
	return cmocka_run_group_tests_name("golden_vectors", tests,
					   load_vectors, free_vectors);
}
