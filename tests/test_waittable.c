/* SPDX-License-Identifier: MIT */
/*
 * Rik van Riel's 2002 hashed page wait tables: the sizing rule, and what the simulation finds.
 * On 64-bit, the old multiplier puts struct page pointers of pages anywhere
 * in a large zone into so few queues that an unlock wakes ~30x the waiters
 * a random function would; the new multiplier matches a random function.
 * The 32-bit kernel's old hash_32 was fine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>

#include <cmocka.h>

#include "waittable.h"

static void sizing_follows_the_kernel(void **state)
{
	(void)state;
	assert_int_equal(kb_wait_table_size(1), 1);
	assert_int_equal(kb_wait_table_size(256), 1);
	assert_int_equal(kb_wait_table_size(257 * 2), 2);
	assert_int_equal(kb_wait_table_size(4096), 16);      /* 16 MiB */
	assert_int_equal(kb_wait_table_size(4096 + 256), 32); /* rounds up */
	assert_int_equal(kb_wait_table_size(1u << 20), 4096); /* 4 GiB */
	assert_int_equal(kb_wait_table_size(UINT64_C(1) << 40), 4096);
}

static void old_64_bit_multiplier_crowds_the_queues(void **state)
{
	struct kb_wait_row r;

	(void)state;
	assert_int_equal(kb_wait_simulate(UINT64_C(4) << 30, 64, 100, 300, 1, &r), 0);
	assert_int_equal(r.table, 4096);
	assert_true(r.old_random > 10 * r.baseline);
	assert_true(r.new_random < 1.3 * r.baseline);
	assert_true(r.new_random > 0.7 * r.baseline);
	/* a run of consecutive pages spreads perfectly under both */
	assert_true(r.old_run < 0.01 && r.new_run < 0.01);
}

/* A random function's spurious wake-ups: the other waiters - 1 share the
 * unlocked page's queue with probability 1 / table each; bench/FINDINGS.md's
 * column (1.547, 0.387, 0.024 for 100 waiters) is these, to 3 places. */
static void random_function_baseline(void **state)
{
	static const struct {
		uint64_t zone;
		unsigned waiters;
		double want;
	} cases[] = {
		{ UINT64_C(64) << 20, 100, 99.0 / 64 },
		{ UINT64_C(256) << 20, 100, 99.0 / 256 },
		{ UINT64_C(4) << 30, 100, 99.0 / 4096 },
		{ UINT64_C(64) << 30, 100, 99.0 / 4096 },
		{ UINT64_C(16) << 20, 2, 1.0 / 16 },
	};
	struct kb_wait_row r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(kb_wait_simulate(cases[i].zone, 64, cases[i].waiters, 10, 1, &r), 0);
		assert_true(fabs(r.baseline - cases[i].want) < 1e-12);
	}
	assert_true(fabs(99.0 / 64 - 1.547) < 5e-4 && fabs(99.0 / 256 - 0.387) < 5e-4 &&
		    fabs(99.0 / 4096 - 0.024) < 5e-4);
}

/*
 * The 2002 tables gave a zone of fewer than 512 pages one queue: wait_table_shift
 * became BITS_PER_LONG, a shift by the word width, which x86 executes as a
 * shift by 0, so the whole product indexed a 1-entry table.  The products
 * below are worked out in Python (0xffffea0000000000 * 0x9e37fffffffc0001
 * mod 2^64; 0xc1000000 * 0x9e370001 mod 2^32).  The December 2002 fix
 * sized at least 4 queues.
 */
static void tiny_zones_as_the_2002_tables_sized_them(void **state)
{
	struct kb_wait_row r;

	(void)state;
	assert_int_equal(kb_wait_table_size_fixed(1), 4);
	assert_int_equal(kb_wait_table_size_fixed(511), 4);
	assert_int_equal(kb_wait_table_size_fixed(1024), 4);
	assert_int_equal(kb_wait_table_size_fixed(4096), 16);
	assert_int_equal(kb_wait_table_size_fixed(UINT64_C(1) << 40), 4096);

	assert_int_equal(kb_wait_simulate(UINT64_C(1) << 20, 64, 10, 10, 1, &r), 0);
	assert_int_equal(r.seed_table, 1);
	assert_true(r.shift_overflow);
	assert_int_equal(r.seed_shift, 64);
	assert_true(r.hw_index == UINT64_C(0x57ffea0000000000));
	assert_int_equal(r.fixed_table, 4);
	assert_int_equal(r.table, 4); /* what can be simulated */
	assert_true(fabs(r.baseline - 9.0 / 4) < 1e-12);

	assert_int_equal(kb_wait_simulate(UINT64_C(1) << 20, 32, 10, 10, 1, &r), 0);
	assert_true(r.shift_overflow);
	assert_int_equal(r.seed_shift, 32);
	assert_true(r.hw_index == UINT64_C(0xc1000000));

	assert_int_equal(kb_wait_simulate(UINT64_C(2) << 20, 64, 10, 10, 1, &r), 0);
	assert_false(r.shift_overflow);
	assert_int_equal(r.seed_table, 2);
	assert_int_equal(r.seed_shift, 63);
	assert_int_equal(r.table, 2);
	assert_int_equal(r.fixed_table, 4);
}

static void old_32_bit_multiplier_was_fine(void **state)
{
	struct kb_wait_row r;

	(void)state;
	assert_int_equal(kb_wait_simulate(UINT64_C(1) << 30, 32, 100, 300, 1, &r), 0);
	assert_true(r.old_random < 1.3 * r.baseline);
	assert_true(r.old_random > 0.7 * r.baseline);
}

static void bad_arguments_are_refused(void **state)
{
	struct kb_wait_row r;

	(void)state;
	assert_int_equal(kb_wait_simulate(UINT64_C(1) << 20, 48, 10, 10, 1, &r), -1);
	assert_int_equal(kb_wait_simulate(8192, 64, 3, 10, 1, &r), -1);
	assert_int_equal(kb_wait_simulate(UINT64_C(1) << 24, 64, 0, 10, 1, &r), -1);
}

/* The sweep's zones, by hand: 1 MiB (256 pages) to 64 GiB (2^24 pages),
 * doubling, those with fewer pages than waiters left out. */
static void sweep_doubles_from_1_mib_to_64_gib_skipping_small_zones(void **state)
{
	struct kb_wait_row rows[KB_WAIT_ZONES];
	uint64_t bad = 0;
	int i;

	(void)state;
	assert_int_equal(kb_wait_sweep(64, 100, 2, 1, rows, &bad), 17);
	for (i = 0; i < 17; i++) {
		assert_int_equal(rows[i].zone_bytes, UINT64_C(1) << (20 + i));
		assert_int_equal(rows[i].pages, UINT64_C(256) << i);
	}
	/* 1 MiB's 256 pages cannot hold 300 waiters */
	assert_int_equal(kb_wait_sweep(32, 300, 2, 1, rows, &bad), 16);
	assert_int_equal(rows[0].zone_bytes, UINT64_C(2) << 20);
	assert_int_equal(rows[15].zone_bytes, UINT64_C(64) << 30);
	/* no zone has more than 64 GiB's 2^24 pages */
	assert_int_equal(kb_wait_sweep(64, (1u << 24) + 1, 1, 1, rows, &bad), 0);
}

/* Each row is the zone's own simulation with the trials and seed given;
 * 1 trial and 1000 differ, so a sweep that ignored its count would show. */
static void sweep_runs_the_trials_it_is_given(void **state)
{
	struct kb_wait_row rows[KB_WAIT_ZONES], one, many;
	uint64_t bad = 0;

	(void)state;
	assert_int_equal(kb_wait_sweep(64, 100, 1, 7, rows, &bad), 17);
	assert_int_equal(kb_wait_simulate(UINT64_C(1) << 30, 64, 100, 1, 7, &one), 0);
	assert_int_equal(kb_wait_simulate(UINT64_C(1) << 30, 64, 100, 1000, 7, &many), 0);
	assert_true(one.old_random != many.old_random);
	assert_memory_equal(&rows[10], &one, sizeof(one));
}

static void sweep_names_the_zone_it_could_not_simulate(void **state)
{
	struct kb_wait_row rows[KB_WAIT_ZONES];
	uint64_t bad = 0;

	(void)state;
	assert_int_equal(kb_wait_sweep(48, 10, 1, 1, rows, &bad), -1);
	assert_int_equal(bad, UINT64_C(1) << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizing_follows_the_kernel),
		cmocka_unit_test(old_64_bit_multiplier_crowds_the_queues),
		cmocka_unit_test(random_function_baseline),
		cmocka_unit_test(tiny_zones_as_the_2002_tables_sized_them),
		cmocka_unit_test(old_32_bit_multiplier_was_fine),
		cmocka_unit_test(bad_arguments_are_refused),
		cmocka_unit_test(sweep_doubles_from_1_mib_to_64_gib_skipping_small_zones),
		cmocka_unit_test(sweep_runs_the_trials_it_is_given),
		cmocka_unit_test(sweep_names_the_zone_it_could_not_simulate),
	};

	return cmocka_run_group_tests_name("waittable", tests, NULL, NULL);
}
