/* SPDX-License-Identifier: MIT */
/*
 * The seed's claim, measured: with the old hash_32 multiplier and b < 16
 * output bits, input bits 16..31-b barely affect the output (they almost
 * never flip it: |P - 1/2| near 1/2); the new multiplier reaches them.
 * And the measurement itself: a flip of the top input bit of a 32-bit
 * multiplicative hash flips exactly the top output bit, always.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "influence.h"

static struct kb_influence r;

static double band(lkh_gen gen, unsigned bits)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_32, gen, 32 };

	assert_int_equal(kb_influence_measure(&s, bits, 20000, 1, &r), 0);
	return kb_influence_band(&r, 16, 31 - bits);
}

static void old_hash_32_has_the_blind_spot(void **state)
{
	unsigned bits;

	(void)state;
	for (bits = 6; bits <= 12; bits += 2) {
		double old = band(LKH_GEN_OLD, bits), new = band(LKH_GEN_NEW, bits);

		assert_true(old > 0.45);
		assert_true(new < 0.30);
		assert_true(old - new > 0.15);
	}
}

static void top_bit_flips_only_the_top_output_bit(void **state)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_32, LKH_GEN_NEW, 32 };
	unsigned k;

	(void)state;
	assert_int_equal(kb_influence_measure(&s, 8, 5000, 9, &r), 0);
	assert_true(r.p[31][7] == 1.0);
	for (k = 0; k < 7; k++)
		assert_true(r.p[31][k] == 0.0);
	assert_int_equal(r.samples, 5000);
	assert_int_equal(r.in_bits, 32);
}

static void bad_arguments_are_refused(void **state)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_32, LKH_GEN_NEW, 32 };

	(void)state;
	assert_int_equal(kb_influence_measure(&s, 0, 100, 1, &r), -1);
	assert_int_equal(kb_influence_measure(&s, 33, 100, 1, &r), -1);
	assert_int_equal(kb_influence_measure(&s, 8, 0, 1, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(old_hash_32_has_the_blind_spot),
		cmocka_unit_test(top_bit_flips_only_the_top_output_bit),
		cmocka_unit_test(bad_arguments_are_refused),
	};

	return cmocka_run_group_tests_name("influence", tests, NULL, NULL);
}
