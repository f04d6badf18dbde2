/* SPDX-License-Identifier: MIT */
/*
 * The named tables' sweep (bench/core/tables_sweep.c): which cells it
 * makes, in what order, and that the kernel keys it is handed land in
 * their own table and word.  The loads were worked out in Python from the
 * multiplications alone (never with libkhash):
 *
 *   from collections import Counter
 *   M = 2**64
 *   def loads(keys, K, shift=0):   # hash_64(key << shift, 8) on 64-bit
 *       c = Counter((((k << shift) % M) * K % M) >> 56 for k in keys)
 *       return len(c), max(c.values())     # buckets used, fullest
 *   pages = [0xffffea0000000000 + 64 * i for i in range(256)]
 *   old, new = 0x9e37fffffffc0001, 0x61C8864680B583EB
 *   loads(pages, old), loads(pages, new)        -> (128, 2), (228, 2)
 *   loads(pages, old, 6), loads(pages, new, 6)  -> (2, 128), (142, 3)
 *   loads(range(256), old), loads(range(256), new) -> (200, 2), (221, 2)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tables_sweep.h"

/* bench/core/tables.c lists twelve tables; hash.h has four generations */
#define TABLES 18
#define GENS 4

static struct kb_table_cell cells[KB_TABLES_SWEEP_MAX(TABLES)];

static int index_of(const char *name)
{
	int i = kb_table_find(name);

	if (i < 0)
		fail_msg("no table %s", name);
	return i;
}

static void every_table_word_and_generation_once_in_order(void **state)
{
	struct kb_tables_sweep s = { 3, 0, 0, 0, 64, 1, NULL, NULL };
	size_t n, i;

	(void)state;
	assert_int_equal(kb_tables_count, TABLES);
	n = kb_tables_sweep(&s, cells);
	assert_int_equal(n, TABLES * 2 * GENS);
	for (i = 0; i < n; i++) {
		assert_int_equal(cells[i].table, i / (2 * GENS));
		assert_string_equal(cells[i].source, "model");
		assert_string_equal(cells[i].cell.table, kb_tables[i / (2 * GENS)].name);
		assert_int_equal(cells[i].cell.spec.word, i / GENS % 2 ? 32 : 64);
		assert_int_equal(kb_hashspec_gen(&cells[i].cell.spec), i % GENS);
		assert_int_equal(cells[i].cell.bits, kb_tables[cells[i].table].bits);
	}
}

static void one_word_and_generation_k_when_asked(void **state)
{
	struct kb_progress p = { 0, 0 };
	struct kb_tables_sweep s = { 1, 1, UINT64_C(0x61C88647), 0, 100, 1, NULL, &p };
	size_t n, i;

	(void)state;
	n = kb_tables_sweep(&s, cells);
	assert_int_equal(n, TABLES * (GENS + 1));
	for (i = 0; i < n; i++) {
		assert_int_equal(cells[i].cell.spec.word, 32);
		assert_int_equal(kb_hashspec_gen(&cells[i].cell.spec), i % (GENS + 1));
	}
	/* every model cell counted its 100 keys, and said so */
	assert_int_equal(p.total, TABLES * (GENS + 1) * 100);
	assert_int_equal(p.done, p.total);
}

static void model_keys_load_the_table_as_worked_by_hand(void **state)
{
	struct kb_tables_sweep s = { 2, 0, 0, 0, 256, 1, NULL, NULL };
	unsigned t = (unsigned)index_of("jbd2-revoke");
	const struct kb_table_cell *c;

	(void)state;
	assert_int_equal(kb_tables_sweep(&s, cells), TABLES * GENS);
	/* 64-bit only: jbd2-revoke's four cells, sequential blocks 0..255 */
	c = &cells[t * GENS];
	assert_true(c[LKH_GEN_OLD].cell.ok && c[LKH_GEN_NEW].cell.ok);
	assert_int_equal(c[LKH_GEN_OLD].cell.skew.n, 256);
	assert_int_equal(c[LKH_GEN_OLD].cell.skew.used, 200);
	assert_int_equal(c[LKH_GEN_OLD].cell.skew.max_load, 2);
	assert_int_equal(c[LKH_GEN_NEW].cell.skew.used, 221);
	assert_int_equal(c[LKH_GEN_NEW].cell.skew.max_load, 2);
}

static void kernel_keys_go_to_their_table_and_word(void **state)
{
	static uint64_t pages[256];
	struct kb_table_keys kernel[2 * TABLES];
	struct kb_tables_sweep s = { 2, 0, 0, 0, 64, 1, kernel, NULL };
	unsigned folio = (unsigned)index_of("folio-waitqueue");
	unsigned bitwait = (unsigned)index_of("bit-wait-page");
	unsigned kvm = (unsigned)index_of("kvm-mmu-gfn");
	const struct kb_table_cell *c;
	size_t i;

	(void)state;
	for (i = 0; i < 256; i++)
		pages[i] = UINT64_C(0xffffea0000000000) + 64 * i;
	memset(kernel, 0, sizeof(kernel));
	/* 64-bit keys for both struct_page tables; for a table with no
	 * kernel keys of its own and for the 32-bit word (not swept), none
	 * may be counted */
	kernel[2 * folio] = (struct kb_table_keys){ pages, 256 };
	kernel[2 * bitwait] = (struct kb_table_keys){ pages, 256 };
	kernel[2 * kvm] = (struct kb_table_keys){ pages, 256 };
	kernel[2 * folio + 1] = (struct kb_table_keys){ pages, 256 };
	assert_int_equal(kb_tables_sweep(&s, cells), (TABLES + 2) * GENS);
	assert_true(folio < bitwait);
	c = &cells[(folio + 1) * GENS];  /* after its model's cells */
	for (i = 0; i < GENS; i++) {
		assert_int_equal(c[i].table, folio);
		assert_string_equal(c[i].source, "struct_page");
		assert_int_equal(c[i].cell.keyset, -1);
	}
	assert_int_equal(c[LKH_GEN_OLD].cell.skew.used, 128);
	assert_int_equal(c[LKH_GEN_OLD].cell.skew.max_load, 2);
	assert_int_equal(c[LKH_GEN_NEW].cell.skew.used, 228);
	assert_int_equal(c[LKH_GEN_NEW].cell.skew.max_load, 2);
	c = &cells[(bitwait + 2) * GENS]; /* one kernel-key block before it */
	assert_int_equal(c[0].table, bitwait);
	assert_string_equal(c[0].source, "struct_page");
	assert_int_equal(c[LKH_GEN_OLD].cell.skew.used, 2);
	assert_int_equal(c[LKH_GEN_OLD].cell.skew.max_load, 128);
	assert_int_equal(c[LKH_GEN_NEW].cell.skew.used, 142);
	assert_int_equal(c[LKH_GEN_NEW].cell.skew.max_load, 3);
}

static void keys_too_wide_for_the_word_make_a_cell_that_says_why(void **state)
{
	static uint64_t pages[4] = { UINT64_C(0xffffea0000000000) };
	struct kb_table_keys kernel[2 * TABLES];
	struct kb_tables_sweep s = { 1, 0, 0, 0, 64, 1, kernel, NULL };
	unsigned folio = (unsigned)index_of("folio-waitqueue");
	const struct kb_table_cell *c;
	size_t i;

	(void)state;
	memset(kernel, 0, sizeof(kernel));
	kernel[2 * folio + 1] = (struct kb_table_keys){ pages, 4 };
	assert_int_equal(kb_tables_sweep(&s, cells), (TABLES + 1) * GENS);
	c = &cells[(folio + 1) * GENS];
	for (i = 0; i < GENS; i++) {
		assert_string_equal(c[i].source, "struct_page");
		assert_false(c[i].cell.ok);
		assert_non_null(strstr(c[i].cell.why, "does not fit the 32-bit argument"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_table_word_and_generation_once_in_order),
		cmocka_unit_test(one_word_and_generation_k_when_asked),
		cmocka_unit_test(model_keys_load_the_table_as_worked_by_hand),
		cmocka_unit_test(kernel_keys_go_to_their_table_and_word),
		cmocka_unit_test(keys_too_wide_for_the_word_make_a_cell_that_says_why),
	};

	return cmocka_run_group_tests_name("tables_sweep", tests, NULL, NULL);
}
