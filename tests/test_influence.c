/* SPDX-License-Identifier: MIT */
/*
 * The seed's claim, measured: with the old hash_32 multiplier and b < 16
 * output bits, input bits 16..31-b barely affect the output (they almost
 * never flip it: |P - 1/2| near 1/2); the new multiplier reaches them.
 * And the measurement itself: a flip of the top input bit of a 32-bit
 * multiplicative hash flips exactly the top output bit, always.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <stdlib.h>

#include <cmocka.h>

#include "influence.h"

static struct kb_influence r;

static double band(lkh_gen gen, unsigned bits)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_32, gen, 32, 0, 0, 0 };

	assert_int_equal(kb_influence_measure(&s, bits, 20000, 1, NULL, &r), 0);
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

/*
 * The summary figures against Python, which draws the same seeded inputs
 * (splitmix64: x = mix(seed + (i + 1) * 0x9e3779b97f4a7c15), cut to the
 * argument) and counts the flips itself, from the kernel's formula:
 *   hx = x * K % 2**w >> (w - bits)
 *   d = hx ^ ((x ^ 1 << j) * K % 2**w >> (w - bits)); flips[j][k] += d >> k & 1
 *   b[j][k] = abs(flips[j][k] / samples - 0.5)
 * mean: sum of b / (w * bits); worst: the largest b, the first in j then
 * k order; band: the mean of b over j = 16..31-bits.  3000 samples, seed
 * 7, 8 output bits.
 */
static void summary_figures_match_python(void **state)
{
	static const struct {
		lkh_func func;
		lkh_gen gen;
		unsigned word;
		double mean, worst, band;
		unsigned worst_in, worst_out;
	} want[] = {
		{ LKH_FUNC_HASH_32, LKH_GEN_OLD, 32, 0.37002213541666668, 0.5,
		  0.47020312499999978, 8, 0 },
		{ LKH_FUNC_HASH_32, LKH_GEN_NEW, 32, 0.27791536458333332, 0.5,
		  0.23104687500000001, 24, 0 },
		{ LKH_FUNC_HASH_64, LKH_GEN_OLD, 64, 0.4326438802083335, 0.5, 0.5, 5, 0 },
	};
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(*want); i++) {
		struct kb_hashspec s = { want[i].func, want[i].gen, want[i].word, 0, 0, 0 };

		assert_int_equal(kb_influence_measure(&s, 8, 3000, 7, NULL, &r), 0);
		if (fabs(r.mean_bias - want[i].mean) > 1e-12 ||
		    fabs(kb_influence_band(&r, 16, 23) - want[i].band) > 1e-12)
			fail_msg("%s %s: mean %.17g band %.17g, want %.17g %.17g",
				 lkh_gen_name(want[i].gen), lkh_func_name(want[i].func),
				 r.mean_bias, kb_influence_band(&r, 16, 23), want[i].mean,
				 want[i].band);
		assert_true(r.worst_bias == want[i].worst);
		assert_int_equal(r.worst_in, want[i].worst_in);
		assert_int_equal(r.worst_out, want[i].worst_out);
	}
}

static void top_bit_flips_only_the_top_output_bit(void **state)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_32, LKH_GEN_NEW, 32, 0, 0, 0 };
	unsigned k;

	(void)state;
	assert_int_equal(kb_influence_measure(&s, 8, 5000, 9, NULL, &r), 0);
	assert_true(r.p[31][7] == 1.0);
	for (k = 0; k < 7; k++)
		assert_true(r.p[31][k] == 0.0);
	assert_int_equal(r.samples, 5000);
	assert_int_equal(r.in_bits, 32);
}

/*
 * The closed form of the exhaustive sweep against trying every input, on
 * products narrow enough to try (mod 2^w, w <= 13): for the kernel's
 * multipliers cut to w bits and for odd numbers of every shape (one bit
 * set, all set, alternating), every (input bit, output bit).
 */
static void closed_form_equals_every_input(void **state)
{
	static const uint32_t mults[] = { 0x61C88647, 0x9e370001, 1, 0xffffffff,
					  0x55555555, 0xaaaaaaab, 0x80000001 };
	static const unsigned widths[] = { 1, 2, 7, 11, 13 };
	unsigned wi, mi, j, k;

	(void)state;
	for (wi = 0; wi < sizeof(widths) / sizeof(*widths); wi++)
		for (mi = 0; mi < sizeof(mults) / sizeof(*mults); mi++) {
			unsigned w = widths[wi];
			uint32_t mask = (uint32_t)((UINT64_C(1) << w) - 1);
			uint32_t K = mults[mi] & mask;

			if (!(K & 1))
				continue;
			for (j = 0; j < w; j++)
				for (k = 0; k < w; k++) {
					uint64_t want = 0, x;

					for (x = 0; x <= mask; x++) {
						uint32_t h = (uint32_t)(x * K) & mask;
						uint32_t g = (uint32_t)((x ^ (1u << j)) * K) & mask;

						want += ((h ^ g) >> k) & 1;
					}
					if (kb_mul_flips(w, K, j, k) != want)
						fail_msg("w %u K %#x j %u k %u: closed form %llu, every input %llu",
							 w, K, j, k,
							 (unsigned long long)kb_mul_flips(w, K, j, k),
							 (unsigned long long)want);
				}
		}
}

/* The exhaustive sweep of a 32-bit product takes the closed form, and its
 * figures are those of the products' structure: the top input bit flips
 * the top output bit for every input, and bit 0 of the old multiplier
 * (0x9e370001: bits 0 and 16 set) flips the bucket's low bit exactly as
 * the carry count says, never as a constant. */
static void exhaustive_sweep_is_exact_and_reentrant(void **state)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_32, LKH_GEN_OLD, 64, 0, 0, 0 };
	struct kb_influence *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	unsigned j, k;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(kb_influence_measure(&s, 8, UINT64_C(1) << 32, 1, NULL, a), 0);
	assert_true(a->exhaustive);
	assert_true(a->samples == UINT64_C(1) << 32);
	assert_true(a->p[31][7] == 1.0);
	for (k = 0; k < 7; k++)
		assert_true(a->p[31][k] == 0.0);
	/* flips counted for one cell, then another: nothing carried over */
	s.gen = LKH_GEN_NEW;
	assert_int_equal(kb_influence_measure(&s, 8, UINT64_C(1) << 32, 1, NULL, b), 0);
	s.gen = LKH_GEN_OLD;
	assert_int_equal(kb_influence_measure(&s, 8, UINT64_C(1) << 32, 1, NULL, b), 0);
	for (j = 0; j < 32; j++)
		for (k = 0; k < 8; k++) {
			assert_true(a->p[j][k] == b->p[j][k]);
			assert_true(a->p[j][k] ==
				    (double)kb_mul_flips(32, 0x9e370001, j, 24 + k) /
					    4294967296.0);
		}
	free(a);
	free(b);
}

/* Sampled keys are a function of their index: split between threads, the
 * same samples give the same map, every one of them counted (the top bit
 * flips the top output bit for every sample: exactly 1). */
static void threads_share_the_samples_exactly(void **state)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_32, LKH_GEN_NEW, 32, 0, 0, 0 };
	const struct kb_influence_opts one = { 1, 0, NULL }, three = { 3, 0, NULL };
	struct kb_influence *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(kb_influence_measure(&s, 9, 200002, 5, &one, a), 0);
	assert_int_equal(kb_influence_measure(&s, 9, 200002, 5, &three, b), 0);
	assert_true(b->p[31][8] == 1.0);
	assert_memory_equal(a->p, b->p, sizeof(a->p));
	free(a);
	free(b);
}

static void bad_arguments_are_refused(void **state)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_32, LKH_GEN_NEW, 32, 0, 0, 0 };

	(void)state;
	assert_int_equal(kb_influence_measure(&s, 0, 100, 1, NULL, &r), -1);
	assert_int_equal(kb_influence_measure(&s, 33, 100, 1, NULL, &r), -1);
	assert_int_equal(kb_influence_measure(&s, 8, 0, 1, NULL, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(old_hash_32_has_the_blind_spot),
		cmocka_unit_test(top_bit_flips_only_the_top_output_bit),
		cmocka_unit_test(summary_figures_match_python),
		cmocka_unit_test(closed_form_equals_every_input),
		cmocka_unit_test(exhaustive_sweep_is_exact_and_reentrant),
		cmocka_unit_test(threads_share_the_samples_exactly),
		cmocka_unit_test(bad_arguments_are_refused),
	};

	return cmocka_run_group_tests_name("influence", tests, NULL, NULL);
}
