/* SPDX-License-Identifier: MIT */
/*
 * The fast counting engine (threads, sub-histograms, partitioning) gives
 * exactly the counts of the plain one-key-at-a-time loop, for table sizes
 * on every path and for several thread counts, and folding a table halves
 * it exactly as counting with one bit fewer would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "keysets.h"
#include "engine.h"

static uint64_t *plain_counts(const struct kb_hashspec *s, unsigned bits,
			      int keyset, const struct kb_keyset_params *p)
{
	struct kb_keystream ks;
	uint64_t keys[700], *counts = calloc((size_t)1 << bits, sizeof(uint64_t));
	char err[256];
	size_t n;

	assert_non_null(counts);
	assert_int_equal(kb_keystream_open(&ks, keyset, p, err, sizeof(err)), 0);
	while ((n = kb_keystream_next(&ks, keys, 700)) > 0)
		kb_count_block(s, bits, keys, n, counts);
	kb_keystream_close(&ks);
	return counts;
}

static void engine_matches_plain_loop(void **state)
{
	static const unsigned bits_list[] = { 1, 16, 17, 21 }; /* each path */
	static const int sets[] = { KB_KS_RANDOM, KB_KS_PAGE4K, KB_KS_SLAB };
	static const unsigned threads_list[] = { 1, 2, 3 };
	struct kb_hashspec specs[2] = { { LKH_FUNC_HASH_64, LKH_GEN_OLD, 32 },
					{ LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64 } };
	struct kb_keyset_params p;
	size_t b, k, t, j;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.count = 2200001; /* three threads' worth, odd split */
	p.seed = 7;
	p.word = 64;
	p.input_bits = 64;
	for (b = 0; b < sizeof(bits_list) / sizeof(*bits_list); b++)
		for (k = 0; k < 3; k++)
			for (t = 0; t < 3; t++) {
				unsigned bits = bits_list[b];
				size_t m = (size_t)1 << bits;
				uint64_t *fast = calloc(2 * m, sizeof(uint64_t));
				struct kb_keystream ks;
				char err[256];

				assert_non_null(fast);
				assert_int_equal(kb_keystream_open(&ks, sets[k], &p,
								   err, sizeof(err)),
						 0);
				assert_int_equal(kb_count_parallel(specs, 2, bits, &ks,
								   threads_list[t], fast,
								   err, sizeof(err)),
						 0);
				kb_keystream_close(&ks);
				for (j = 0; j < 2; j++) {
					uint64_t *plain = plain_counts(&specs[j], bits,
								       sets[k], &p);

					assert_memory_equal(fast + j * m, plain,
							    m * sizeof(uint64_t));
					free(plain);
				}
				free(fast);
			}
}

static void folding_equals_counting_with_fewer_bits(void **state)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_64, LKH_GEN_POSTED, 32 };
	struct kb_keyset_params p;
	uint64_t *big, *small;
	unsigned bits;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.count = 100000;
	p.seed = 3;
	p.word = 32;
	p.input_bits = 64;
	big = plain_counts(&s, 14, KB_KS_RANDOM, &p);
	for (bits = 14; bits > 1; bits--) {
		kb_fold(big, bits);
		small = plain_counts(&s, bits - 1, KB_KS_RANDOM, &p);
		assert_memory_equal(big, small, sizeof(uint64_t) << (bits - 1));
		free(small);
	}
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(engine_matches_plain_loop),
		cmocka_unit_test(folding_equals_counting_with_fewer_bits),
	};

	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
