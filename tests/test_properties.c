/* SPDX-License-Identifier: MIT */
/*
 * Properties that hold for every input, checked over many inputs: results
 * fit in bits, every output bit is reachable (what the kernel's own
 * lib/test_hash.c checks), the old shift-and-add chain equals the multiply,
 * and the checked entry points refuse every bad argument.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_rng.h"

#include <khash/lkh.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
	return test_next_random(&rng_state);
}

static uint64_t fit_input(lkh_func f, unsigned word, uint64_t v)
{
	return lkh_input_bits(f, word) == 32 ? (uint32_t)v : v;
}

#define FOR_EACH_COMBINATION(f, g, w)                                      \
	for (f = 0; f < LKH_FUNC_COUNT; f++)                               \
		for (g = 0; g < LKH_GEN_COUNT; g++)                        \
			for (w = 32; w <= 64; w += 32)

static void results_fit_in_bits(void **state)
{
	int f, g;
	unsigned w, b, i;

	(void)state;
	FOR_EACH_COMBINATION(f, g, w) {
		unsigned max = lkh_bits_max((lkh_func)f, (lkh_gen)g, w);

		for (b = 1; b <= max; b++) {
			for (i = 0; i < 200; i++) {
				uint64_t out, v = fit_input((lkh_func)f, w,
							    next_random());

				assert_int_equal(lkh_hash((lkh_func)f,
							  (lkh_gen)g, w, v, b,
							  &out),
						 LKH_OK);
				if (b < 64)
					assert_true(out < (UINT64_C(1) << b));
			}
		}
	}
}

static void every_output_bit_is_reachable(void **state)
{
	int f, g;
	unsigned w, b, i;

	(void)state;
	FOR_EACH_COMBINATION(f, g, w) {
		unsigned max = lkh_bits_max((lkh_func)f, (lkh_gen)g, w);

		for (b = 1; b <= max; b++) {
			uint64_t all = b == 64 ? ~UINT64_C(0)
					       : (UINT64_C(1) << b) - 1;
			uint64_t seen = 0, out;

			for (i = 0; i < 1000 && seen != all; i++) {
				uint64_t v = fit_input((lkh_func)f, w,
						       next_random());

				assert_int_equal(lkh_hash((lkh_func)f,
							  (lkh_gen)g, w, v, b,
							  &out),
						 LKH_OK);
				seen |= out;
			}
			assert_int_equal(seen, all);
		}
	}
}

static void old_chain_equals_multiply(void **state)
{
	unsigned i;

	(void)state;
	assert_int_equal(lkh_old_hash64_raw_chain(1), LKH_GOLDEN_RATIO_PRIME_64);
	assert_int_equal(lkh_old_hash64_raw_chain(0), 0);
	assert_int_equal(lkh_old_hash64_raw_chain(~UINT64_C(0)),
			 (uint64_t)0 - LKH_GOLDEN_RATIO_PRIME_64);
	for (i = 0; i < 64; i++) {
		uint64_t v = UINT64_C(1) << i;

		assert_int_equal(lkh_old_hash64_raw_chain(v),
				 lkh_old_hash64_raw(v));
	}
	for (i = 0; i < 100000; i++) {
		uint64_t v = next_random();

		assert_int_equal(lkh_old_hash64_raw_chain(v),
				 lkh_old_hash64_raw(v));
	}
}

static void kernel_word_sizes_differ_as_documented(void **state)
{
	/* The same call on x86_64 and i386 kernels, 6.1 (issue 5). */
	(void)state;
	assert_int_equal(lkh_new_hash64_w64(0x12345678, 32), 0x6e79886e);
	assert_int_equal(lkh_new_hash64_w32(0x12345678, 32), 0x7786cb48);
}

static void bits_out_of_range_is_refused(void **state)
{
	int f, g;
	unsigned w;

	(void)state;
	FOR_EACH_COMBINATION(f, g, w) {
		unsigned max = lkh_bits_max((lkh_func)f, (lkh_gen)g, w);
		uint64_t out = 0xabcdef;

		if (max == 0) {
			/* functions without bits refuse any bits */
			assert_int_equal(lkh_hash((lkh_func)f, (lkh_gen)g, w,
						  5, 1, &out),
					 LKH_ERR_BITS);
			assert_int_equal(lkh_hash((lkh_func)f, (lkh_gen)g, w,
						  5, 0, &out),
					 LKH_OK);
			continue;
		}
		assert_true(max == 32 || max == 64);
		assert_int_equal(lkh_hash((lkh_func)f, (lkh_gen)g, w, 5, 0,
					  &out),
				 LKH_ERR_BITS);
		assert_int_equal(lkh_hash((lkh_func)f, (lkh_gen)g, w, 5,
					  max + 1, &out),
				 LKH_ERR_BITS);
		assert_int_equal(lkh_hash((lkh_func)f, (lkh_gen)g, w, 5,
					  ~0u, &out),
				 LKH_ERR_BITS);
		assert_int_equal(out, 0xabcdef); /* untouched on error */
		assert_int_equal(lkh_hash((lkh_func)f, (lkh_gen)g, w, 5, 1,
					  &out),
				 LKH_OK);
		assert_int_equal(lkh_hash((lkh_func)f, (lkh_gen)g, w, 5, max,
					  &out),
				 LKH_OK);
	}
}

static void documented_bits_ranges(void **state)
{
	(void)state;
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_32, LKH_GEN_NEW, 64), 32);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_64, LKH_GEN_OLD, 32), 64);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_64, LKH_GEN_OLD, 64), 64);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_64, LKH_GEN_POSTED, 64), 64);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_64, LKH_GEN_POSTED, 32), 32);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_64, LKH_GEN_NEW, 64), 32);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_LONG, LKH_GEN_OLD, 32), 32);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_PTR, LKH_GEN_OLD, 64), 64);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_PTR, LKH_GEN_POSTED, 64), 32);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH32_PTR, LKH_GEN_NEW, 64), 0);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_32_RAW, LKH_GEN_NEW, 32), 0);
	assert_int_equal(lkh_bits_max(LKH_FUNC_HASH_32, LKH_GEN_NEW, 48), 0);
}

static void bad_arguments_are_refused(void **state)
{
	uint64_t out = 7, full = 7;
	unsigned width = 7;

	(void)state;
	assert_int_equal(lkh_hash((lkh_func)LKH_FUNC_COUNT, LKH_GEN_NEW, 64, 1,
				  1, &out),
			 LKH_ERR_FUNC);
	assert_int_equal(lkh_hash((lkh_func)-1, LKH_GEN_NEW, 64, 1, 1, &out),
			 LKH_ERR_FUNC);
	assert_int_equal(lkh_hash(LKH_FUNC_HASH_64, (lkh_gen)LKH_GEN_COUNT, 64,
				  1, 1, &out),
			 LKH_ERR_GEN);
	assert_int_equal(lkh_hash(LKH_FUNC_HASH_64, LKH_GEN_NEW, 16, 1, 1,
				  &out),
			 LKH_ERR_WORD);
	assert_int_equal(lkh_hash(LKH_FUNC_HASH_64, LKH_GEN_NEW, 64, 1, 1,
				  NULL),
			 LKH_ERR_NULL);
	/* 32-bit arguments refuse wider values instead of truncating */
	assert_int_equal(lkh_hash(LKH_FUNC_HASH_32, LKH_GEN_NEW, 64,
				  UINT64_C(1) << 32, 1, &out),
			 LKH_ERR_RANGE);
	assert_int_equal(lkh_hash(LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 32,
				  UINT64_C(1) << 32, 1, &out),
			 LKH_ERR_RANGE);
	assert_int_equal(lkh_hash(LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64,
				  UINT64_C(1) << 32, 1, &out),
			 LKH_OK);
	assert_int_equal(lkh_hash_full(LKH_FUNC_HASH_64, LKH_GEN_NEW, 31, 1,
				       &full, &width),
			 LKH_ERR_WORD);
	assert_int_equal(lkh_hash_full(LKH_FUNC_HASH_64, LKH_GEN_NEW, 64, 1,
				       NULL, &width),
			 LKH_ERR_NULL);
	assert_int_equal(full, 7);
	assert_int_equal(width, 7);
}

static void names_round_trip(void **state)
{
	int i;
	lkh_func f;
	lkh_gen g;

	(void)state;
	for (i = 0; i < LKH_FUNC_COUNT; i++) {
		assert_int_equal(lkh_func_from_name(lkh_func_name((lkh_func)i),
						    &f),
				 LKH_OK);
		assert_int_equal(f, i);
	}
	for (i = 0; i < LKH_GEN_COUNT; i++) {
		assert_int_equal(lkh_gen_from_name(lkh_gen_name((lkh_gen)i),
						   &g),
				 LKH_OK);
		assert_int_equal(g, i);
	}
	assert_string_equal(lkh_func_name(LKH_FUNC_HASH_64), "hash_64");
	assert_string_equal(lkh_gen_name(LKH_GEN_POSTED), "posted");
	assert_int_equal(lkh_func_from_name("hash_65", &f), LKH_ERR_FUNC);
	assert_int_equal(lkh_func_from_name(NULL, &f), LKH_ERR_FUNC);
	assert_int_equal(lkh_gen_from_name("NEW", &g), LKH_ERR_GEN);
	assert_null(lkh_func_name((lkh_func)99));
	assert_null(lkh_gen_name((lkh_gen)99));
	assert_string_equal(lkh_strerror(LKH_ERR_BITS),
			    "bits out of range for this function");
	assert_string_equal(lkh_strerror(12345), "unknown status");
}

static void version_and_config_are_consistent(void **state)
{
	char want[32];

	(void)state;
	assert_int_equal(lkh_version_number(), LKH_VERSION_NUMBER);
	snprintf(want, sizeof(want), "%d.%d.%d", LKH_VERSION_MAJOR,
		 LKH_VERSION_MINOR, LKH_VERSION_PATCH);
	assert_string_equal(lkh_version_string(), want);
	assert_int_equal(lkh_bits_per_long(), EXPECTED_BITS_PER_LONG);
	assert_int_equal(LKH_BITS_PER_LONG, EXPECTED_BITS_PER_LONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(results_fit_in_bits),
		cmocka_unit_test(every_output_bit_is_reachable),
		cmocka_unit_test(old_chain_equals_multiply),
		cmocka_unit_test(kernel_word_sizes_differ_as_documented),
		cmocka_unit_test(bits_out_of_range_is_refused),
		cmocka_unit_test(documented_bits_ranges),
		cmocka_unit_test(bad_arguments_are_refused),
		cmocka_unit_test(names_round_trip),
		cmocka_unit_test(version_and_config_are_consistent),
	};

	return cmocka_run_group_tests_name("properties", tests, NULL, NULL);
}
