/* SPDX-License-Identifier: MIT */
/*
 * The kernel-named drop-in (<khash/linux_hash.h>) agrees with the explicit
 * API for the generation and word size it was compiled for.  meson builds
 * this file once per setting, chosen by the header's own names
 * (LKH_LINUX_OLD, ...); DROPIN_GEN_NAME and DROPIN_WORD say which setting
 * the test expects, and known answers worked out by hand check it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_rng.h"

#include <khash/linux_hash.h>

static uint64_t rng_state = 12345;

static uint64_t next_random(void)
{
	return test_next_random(&rng_state);
}

static uint64_t checked(lkh_func f, uint64_t val, unsigned bits)
{
	uint64_t out = 0;

	assert_int_equal(lkh_hash(f, (lkh_gen)DROPIN_GEN, DROPIN_WORD, val,
				  bits, &out),
			 LKH_OK);
	return out;
}

static void setting_is_the_expected_one(void **state)
{
	(void)state;
	assert_int_equal(LKH_BITS_PER_LONG, DROPIN_WORD);
	assert_string_equal(lkh_gen_name((lkh_gen)DROPIN_GEN), DROPIN_GEN_NAME);
}

/*
 * Values worked out by hand from the kernel's constants (1 * K is K; the
 * top bits of a product), and the two values the kernel's own
 * lib/test_hash.c comment quotes for 0x12345678: independent of libkhash.
 */
static void hash_of_1_is_the_multiplier_and_test_hash_c_values_match(void **state)
{
	static const struct {
		const char *gen;
		unsigned word;
		uint32_t hash32_of_1;   /* hash_32(1, 32) */
		uint64_t hash64_of_1;   /* hash_64(1, its largest bits) */
		unsigned hash64_bits;
	} answers[] = {
		{ "old", 64, 0x9e370001u, UINT64_C(0x9e37fffffffc0001), 64 },
		{ "old", 32, 0x9e370001u, UINT64_C(0x9e37fffffffc0001), 64 },
		{ "minimal", 64, 0x9e370001u, UINT64_C(0x61c8864680b583eb), 64 },
		{ "minimal", 32, 0x9e370001u, UINT64_C(0x9e37fffffffc0001), 64 },
		{ "posted", 64, 0x9e370001u, UINT64_C(0x61c8864680b583eb), 64 },
		{ "posted", 32, 0x9e370001u, 0x61c88647u, 32 },
		{ "new", 64, 0x61c88647u, 0x61c88646u, 32 },
		{ "new", 32, 0x61c88647u, 0x61c88647u, 32 },
	};
	size_t i;
	int found = 0;

	(void)state;
	for (i = 0; i < sizeof(answers) / sizeof(answers[0]); i++) {
		if (strcmp(answers[i].gen, DROPIN_GEN_NAME) || answers[i].word != DROPIN_WORD)
			continue;
		found = 1;
		assert_int_equal(hash_32(1, 32), answers[i].hash32_of_1);
		assert_int_equal(hash_32_raw(1), answers[i].hash32_of_1);
		assert_true(hash_64(1, answers[i].hash64_bits) == answers[i].hash64_of_1);
		assert_int_equal(hash_32(0x80000000u, 1), 1); /* top bit of an odd K */
	}
	assert_true(found);
	if (!strcmp(DROPIN_GEN_NAME, "new"))
		assert_int_equal(hash_64(0x12345678, 32),
				 DROPIN_WORD == 64 ? 0x6e79886eu : 0x7786cb48u);
}

static void return_types_are_the_kernels(void **state)
{
	int wide64 = DROPIN_GEN == LKH_GEN_OLD || DROPIN_GEN == LKH_GEN_MINIMAL ||
		     (DROPIN_GEN == LKH_GEN_POSTED && DROPIN_WORD == 64);
	int wideptr = (DROPIN_GEN == LKH_GEN_OLD || DROPIN_GEN == LKH_GEN_MINIMAL) &&
		      DROPIN_WORD == 64;

	(void)state;
	assert_int_equal(sizeof(hash_32(1, 1)), 4);
	assert_int_equal(sizeof(hash_64(1, 1)), wide64 ? 8 : 4);
	assert_int_equal(sizeof(hash_ptr(NULL, 1)), wideptr ? 8 : 4);
	assert_int_equal(sizeof(hash32_ptr(NULL)), 4);
}

/* Which constants each release defined (from the headers as released):
 * the primes until v4.6, the golden ratio from v4.6 (and the posted fix),
 * GOLDEN_RATIO_PRIME the old prime until v4.6 and the golden ratio after. */
static void constants_are_the_generations(void **state)
{
	(void)state;
#if DROPIN_GEN == 0 || DROPIN_GEN == 1 /* old, minimal */
	assert_int_equal(GOLDEN_RATIO_PRIME_32, 0x9e370001u);
	assert_int_equal(GOLDEN_RATIO_PRIME_64, UINT64_C(0x9e37fffffffc0001));
	assert_int_equal(GOLDEN_RATIO_PRIME, DROPIN_WORD == 64
			 ? UINT64_C(0x9e37fffffffc0001) : 0x9e370001u);
#else
	assert_int_equal(GOLDEN_RATIO_PRIME, DROPIN_WORD == 64
			 ? UINT64_C(0x61C8864680B583EB) : 0x61C88647u);
#endif
#if DROPIN_GEN != 0
	assert_int_equal(GOLDEN_RATIO_32, 0x61C88647u);
	assert_int_equal(GOLDEN_RATIO_64, UINT64_C(0x61C8864680B583EB));
#elif defined(GOLDEN_RATIO_32) || defined(GOLDEN_RATIO_64)
	fail_msg("the old generation had no GOLDEN_RATIO_32/64");
#endif
#if DROPIN_GEN == 2 /* posted */
	assert_int_equal(GOLDEN_RATIO_PRIME_32, 0x9e370001u);
#endif
#if DROPIN_GEN >= 2 && defined(GOLDEN_RATIO_PRIME_64)
	fail_msg("the fix removed GOLDEN_RATIO_PRIME_64");
#endif
#if DROPIN_GEN == 3 && defined(GOLDEN_RATIO_PRIME_32)
	fail_msg("the new generation has no GOLDEN_RATIO_PRIME_32");
#endif
}

static void functions_agree_with_explicit_api(void **state)
{
	unsigned i, bits;
	unsigned max64 = lkh_bits_max(LKH_FUNC_HASH_64, (lkh_gen)DROPIN_GEN,
				      DROPIN_WORD);
	unsigned maxptr = lkh_bits_max(LKH_FUNC_HASH_PTR, (lkh_gen)DROPIN_GEN,
				       DROPIN_WORD);

	(void)state;
	for (i = 0; i < 2000; i++) {
		uint64_t v = next_random();
		uint32_t v32 = (uint32_t)v;
		/* a pointer value both the host and the emulated kernel hold */
		uint64_t addr = DROPIN_WORD == 64 && sizeof(void *) >= 8 ? v
									: v32;
		const void *p = (const void *)(uintptr_t)addr;

		assert_int_equal(hash_32_raw(v32),
				 checked(LKH_FUNC_HASH_32_RAW, v32, 0));
		assert_int_equal(hash32_ptr(p),
				 checked(LKH_FUNC_HASH32_PTR, addr, 0));
		for (bits = 1; bits <= 64; bits++) {
			if (bits <= 32)
				assert_int_equal(hash_32(v32, bits),
						 checked(LKH_FUNC_HASH_32, v32,
							 bits));
			if (bits <= max64)
				assert_int_equal(hash_64(v, bits),
						 checked(LKH_FUNC_HASH_64, v,
							 bits));
			if (bits <= maxptr)
				assert_int_equal(hash_ptr(p, bits),
						 checked(LKH_FUNC_HASH_PTR,
							 addr, bits));
			if (bits <= lkh_bits_max(LKH_FUNC_HASH_LONG,
						 (lkh_gen)DROPIN_GEN,
						 DROPIN_WORD))
				assert_int_equal(hash_long(addr, bits),
						 checked(LKH_FUNC_HASH_LONG,
							 addr, bits));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(setting_is_the_expected_one),
		cmocka_unit_test(hash_of_1_is_the_multiplier_and_test_hash_c_values_match),
		cmocka_unit_test(return_types_are_the_kernels),
		cmocka_unit_test(constants_are_the_generations),
		cmocka_unit_test(functions_agree_with_explicit_api),
	};
	char name[64];

	snprintf(name, sizeof(name), "dropin_gen%d_w%d", DROPIN_GEN,
		 DROPIN_WORD);
	return cmocka_run_group_tests_name(name, tests, NULL, NULL);
}
