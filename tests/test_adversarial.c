/* SPDX-License-Identifier: MIT */
/*
 * Hostile keys: for every function, generation, word size and several table
 * sizes, the adversarial key set puts every key into one bucket.  These
 * hashes are not meant for keys an attacker chooses; this is the proof.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "report.h"

static void every_cell_collapses_to_one_bucket(void **state)
{
	static const unsigned bits_list[] = { 1, 6, 11, 16, 20 };
	static const lkh_func funcs[] = { LKH_FUNC_HASH_32, LKH_FUNC_HASH_64,
					  LKH_FUNC_HASH_LONG, LKH_FUNC_HASH_PTR };
	unsigned f, g, w, b, cells = 0;

	(void)state;
	for (f = 0; f < 4; f++)
		for (g = 0; g < LKH_GEN_COUNT; g++)
			for (w = 32; w <= 64; w += 32)
				for (b = 0; b < 5; b++) {
					struct kb_hashspec s = { funcs[f], (lkh_gen)g, w, 0, 0, 0 };
					struct kb_keyset_params p = { 0 };
					unsigned bits = bits_list[b];
					uint64_t *counts = NULL, i, used = 0;
					char err[256];

					p.count = 3000;
					if (kb_count_keyset(&s, bits, KB_KS_ADVERSARIAL,
							    &p, 0, &counts, err, sizeof(err)) < 0)
						fail_msg("%s", err);
					for (i = 0; i < (UINT64_C(1) << bits); i++)
						used += counts[i] != 0;
					assert_int_equal(used, 1);
					assert_int_equal(counts[0], p.count);
					free(counts);
					cells++;
				}
	assert_int_equal(cells, 4 * LKH_GEN_COUNT * 2 * 5);
}

static void keys_are_distinct_and_checked_against_the_library(void **state)
{
	struct kb_keyset_params p = { 0 };
	struct kb_keystream ks;
	uint64_t keys[512], out;
	char err[256];
	size_t n, i, j;

	(void)state;
	p.count = 512;
	p.word = 32;
	p.input_bits = 64;
	p.target_func = LKH_FUNC_HASH_64;
	p.target_gen = LKH_GEN_NEW;
	p.target_bits = 16;
	assert_int_equal(kb_keystream_open(&ks, KB_KS_ADVERSARIAL, &p, err,
					   sizeof(err)),
			 0);
	n = kb_keystream_next(&ks, keys, 512);
	kb_keystream_close(&ks);
	assert_int_equal(n, 512);
	for (i = 0; i < n; i++) {
		assert_int_equal(lkh_hash(LKH_FUNC_HASH_64, LKH_GEN_NEW, 32,
					  keys[i], 16, &out),
				 LKH_OK);
		assert_int_equal(out, 0);
		for (j = 0; j < i; j++)
			assert_true(keys[i] != keys[j]);
	}
}

static void too_many_keys_for_one_bucket_are_refused(void **state)
{
	struct kb_keyset_params p = { 0 };
	struct kb_keystream ks;
	char err[256];

	(void)state;
	p.count = 3;
	p.word = 64;
	p.input_bits = 32;
	p.target_func = LKH_FUNC_HASH_32;
	p.target_gen = LKH_GEN_OLD;
	p.target_bits = 31; /* only 2 words below 2^(32-31) */
	assert_int_equal(kb_keystream_open(&ks, KB_KS_ADVERSARIAL, &p, err,
					   sizeof(err)),
			 -1);
	assert_string_equal(err, "adversarial: only 2 distinct keys share one bucket at 31 bits");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_cell_collapses_to_one_bucket),
		cmocka_unit_test(keys_are_distinct_and_checked_against_the_library),
		cmocka_unit_test(too_many_keys_for_one_bucket_are_refused),
	};

	return cmocka_run_group_tests_name("adversarial", tests, NULL, NULL);
}
