/* SPDX-License-Identifier: MIT */
/*
 * Named kernel tables (bench/core/tables.c): each transform pinned to its
 * call site's formula by values worked out in Python from the formulas as
 * the 6.1 tree writes them (never with libkhash), and the facts the
 * tables exist to show.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <khash/lkh_table.h>

#include "keysets.h"
#include "stats.h"
#include "tables.h"

/* The committed .config files, from the command line (tests/meson.build) */
static char **configs;
static int nconfigs;

static const struct kb_table *table(const char *name)
{
	int i = kb_table_find(name);

	if (i < 0)
		fail_msg("no table %s", name);
	return &kb_tables[i];
}

static uint64_t bucket(const char *name, lkh_gen g, unsigned word, unsigned bits,
		       uint64_t key, uint64_t param)
{
	uint64_t b = UINT64_MAX;
	char err[256];

	if (kb_table_bucket(table(name), KB_GEN_OF(g), word, bits, key, param, &b, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	return b;
}

static void transforms_follow_the_call_sites(void **state)
{
	(void)state;
	/* hash_64(logical >> 16, 11), and without the shift */
	assert_int_equal(bucket("btrfs-raid56", LKH_GEN_NEW, 64, 11, 0x40000000, 0), 0x10c);
	assert_int_equal(bucket("btrfs-raid56-raw", LKH_GEN_OLD, 64, 11, 0x40020000, 0), 0x7ff);
	/* hash_long(word << 6 | bit, 8) on 64-bit, << 5 on 32-bit */
	assert_int_equal(bucket("bit-waitqueue", LKH_GEN_OLD, 64, 8, UINT64_C(0xffffea0000000040), 0), 0x7f);
	assert_int_equal(bucket("bit-waitqueue", LKH_GEN_NEW, 64, 8, UINT64_C(0xffffea0000000040), 0), 0x32);
	assert_int_equal(bucket("bit-waitqueue", LKH_GEN_NEW, 32, 8, 0xc1000020, 3), 0x27);
	assert_int_equal(bucket("bit-waitqueue", LKH_GEN_OLD, 32, 8, 0xc1000020, 3), 0xd6);
	/* fs/inode.c hash() on GOLDEN_RATIO_PRIME: the generation's prime */
	assert_int_equal(bucket("inode-hash", LKH_GEN_NEW, 64, 17, 12345,
				UINT64_C(0xffff888003c2a000)), 0x11a1);
	/* (i386: L1_CACHE_BYTES 32; with 64 it would be 0x303b) */
	assert_int_equal(bucket("inode-hash", LKH_GEN_OLD, 32, 15, 7, 0xc3c2a000), 0x5929);
	/* hash_32(hash + parent / L1_CACHE_BYTES, 10), the sum a u32: 64-byte
	 * lines on x86_64, 32 on i386 (0x325 if it divided by 64) */
	assert_int_equal(bucket("in-lookup-hash", LKH_GEN_NEW, 64, 10, 0xdeadbeef,
				UINT64_C(0xffff888003a4e0c0)), 0x3d1);
	assert_int_equal(bucket("in-lookup-hash", LKH_GEN_NEW, 32, 10, 0xdeadbeef,
				0xc3a4e0c0), 0x94);
	/* hash_min: hash_32 for a 4-byte key, hash_long for an 8-byte one */
	assert_int_equal(bucket("hash-min", LKH_GEN_OLD, 64, 10, 77, 4), 0x25a);
	assert_int_equal(bucket("hash-min", LKH_GEN_NEW, 64, 10, 77, 8), 0x1a5);
	assert_int_equal(bucket("ftrace-hash", LKH_GEN_OLD, 32, 10, 0xc1000040, 0), 0x13b);
}

/* GOLDEN_RATIO_PRIME as each release's header defined it: the old primes
 * until v4.6 included, the golden ratio from the fix on. */
static void golden_ratio_prime_by_generation(void **state)
{
	(void)state;
	assert_true(lkh_golden_ratio_prime(LKH_GEN_OLD, 64) == UINT64_C(0x9e37fffffffc0001));
	assert_true(lkh_golden_ratio_prime(LKH_GEN_OLD, 32) == 0x9e370001u);
	assert_true(lkh_golden_ratio_prime(LKH_GEN_MINIMAL, 64) == UINT64_C(0x9e37fffffffc0001));
	assert_true(lkh_golden_ratio_prime(LKH_GEN_MINIMAL, 32) == 0x9e370001u);
	assert_true(lkh_golden_ratio_prime(LKH_GEN_POSTED, 64) == UINT64_C(0x61C8864680B583EB));
	assert_true(lkh_golden_ratio_prime(LKH_GEN_NEW, 32) == 0x61C88647u);
	assert_true(lkh_golden_ratio_prime(LKH_GEN_NEW, 48) == 0);
	/* so fs/inode.c hashed the same under v4.6 as before it */
	assert_int_equal(bucket("inode-hash", LKH_GEN_MINIMAL, 64, 17, 12345,
				UINT64_C(0xffff888003c2a000)),
			 bucket("inode-hash", LKH_GEN_OLD, 64, 17, 12345,
				UINT64_C(0xffff888003c2a000)));
}

/*
 * The futex tables: jhash2 over union futex_key's words as
 * tests/golden/futex_model.py computes them (lookup3's hashword, checked
 * against lookup3's published values), e.g.
 *   echo 0x5555555592a0 | python3 tests/golden/futex_model.py global 64 11 0xffff8880035e8c40
 * The 2016 table is hash_long of the address itself.
 */
static void futex_tables_hash_the_key_words(void **state)
{
	const uint64_t mm64 = UINT64_C(0xffff8880035e8c40), mm32 = 0xc35e8c40;

	(void)state;
	/* global: {mm lo, mm hi, page lo, page hi}; i386 {mm, 0, page} */
	assert_int_equal(bucket("futex-global", LKH_GEN_NEW, 64, 11, UINT64_C(0x5555555592a0), mm64), 64);
	assert_int_equal(bucket("futex-global", LKH_GEN_NEW, 64, 11, UINT64_C(0x7ffff7dcf990), mm64), 1398);
	assert_int_equal(bucket("futex-global", LKH_GEN_NEW, 64, 32, UINT64_C(0x7ffff7dcf990), mm64),
			 1936143734);
	assert_int_equal(bucket("futex-global", LKH_GEN_NEW, 32, 11, 0x5655a1a0, mm32), 953);
	assert_int_equal(bucket("futex-global", LKH_GEN_NEW, 32, 11, 0xf7d8bba8, mm32), 103);
	/* another mm, another bucket: the mm is hashed */
	assert_int_equal(bucket("futex-global", LKH_GEN_NEW, 64, 11, UINT64_C(0x5555555592a0),
				UINT64_C(0xffff888003000000)), 838);
	/* hash.h plays no part: every generation the same */
	assert_int_equal(bucket("futex-global", LKH_GEN_OLD, 32, 11, 0xf7d8bba8, mm32), 103);
	/* 6.16 private: the page's address alone, the offset as initval */
	assert_int_equal(bucket("futex-6.16-private", LKH_GEN_NEW, 64, 4, UINT64_C(0x5555555592a0), 0), 6);
	assert_int_equal(bucket("futex-6.16-private", LKH_GEN_NEW, 64, 4, UINT64_C(0x5555555592c8), 0), 9);
	assert_int_equal(bucket("futex-6.16-private", LKH_GEN_OLD, 64, 4, UINT64_C(0x7ffff7dcf990), 0), 13);
	assert_int_equal(bucket("futex-6.16-private", LKH_GEN_NEW, 32, 4, 0x5655a1a0, 0), 5);
	assert_int_equal(bucket("futex-6.16-private", LKH_GEN_NEW, 32, 4, 0xf7d8bba8, 0), 13);
	/* 2016: hash_long(uaddr, 8), hash.h's generations: the top 8 bits of
	 * k * 0x61C8864680B583EB mod 2^64, of k * 0x9e370001 mod 2^32 */
	assert_int_equal(bucket("futex-2016-private", LKH_GEN_NEW, 64, 8, UINT64_C(0x7ffff7dcf990), 0), 183);
	assert_int_equal(bucket("futex-2016-private", LKH_GEN_OLD, 32, 8, 0xf7d8bba8, 0), 248);
}

static void bad_keys_and_params_are_refused(void **state)
{
	uint64_t b;
	char err[256];

	(void)state;
	/* a 64-bit pointer on a 32-bit kernel, a key_bytes C has no type for,
	 * a parent that does not fit the word, a name hash wider than u32 */
	assert_int_equal(kb_table_bucket(table("folio-waitqueue"), KB_GEN_OF(LKH_GEN_NEW), 32, 8,
					 UINT64_C(0xffffea0000000000), 0, &b, err, sizeof(err)), -1);
	assert_int_equal(kb_table_bucket(table("hash-min"), KB_GEN_OF(LKH_GEN_NEW), 64, 10, 1, 3, &b,
					 err, sizeof(err)), -1);
	assert_int_equal(kb_table_bucket(table("in-lookup-hash"), KB_GEN_OF(LKH_GEN_NEW), 32, 10, 1,
					 UINT64_C(0x100000000), &b, err, sizeof(err)), -1);
	assert_int_equal(kb_table_bucket(table("in-lookup-hash"), KB_GEN_OF(LKH_GEN_NEW), 64, 10,
					 UINT64_C(0x100000000), 0, &b, err, sizeof(err)), -1);
	assert_int_equal(kb_table_find("no-such-table"), -1);
	/* a futex word is 4-byte aligned or the kernel says EINVAL; a user
	 * address and an mm fit the word */
	assert_int_equal(kb_table_bucket(table("futex-global"), KB_GEN_OF(LKH_GEN_NEW), 64, 11,
					 UINT64_C(0x5555555592a2), 0, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not 4-byte aligned"));
	assert_int_equal(kb_table_bucket(table("futex-6.16-private"), KB_GEN_OF(LKH_GEN_NEW), 32, 4,
					 UINT64_C(0x5555555592a0), 0, &b, err, sizeof(err)), -1);
	assert_int_equal(kb_table_bucket(table("futex-global"), KB_GEN_OF(LKH_GEN_NEW), 32, 11,
					 0x5655a1a0, UINT64_C(0xffff8880035e8c40), &b, err, sizeof(err)), -1);
	assert_int_equal(kb_table_bucket(table("futex-global"), KB_GEN_OF(LKH_GEN_NEW), 64, 33,
					 0x5655a1a0, 0, &b, err, sizeof(err)), -1);
}

static uint64_t used(const char *name, lkh_gen g, unsigned word)
{
	const struct kb_table *t = table(name);
	uint64_t *counts = NULL;
	struct kb_skew s;
	char err[256];

	if (kb_table_count_model(t, KB_GEN_OF(g), word, t->bits, kb_table_param(t, word), 4096, 1,
				 &counts, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	kb_skew_from_counts(counts, UINT64_C(1) << t->bits, &s);
	free(counts);
	assert_true(s.n == 4096);
	return s.used;
}

/*
 * The facts (4096 keys): raw btrfs stripes fill 1 of 2048 buckets under the
 * old hash_64 and all 2048 with the kernel's >> 16; v4.6 on a 32-bit
 * kernel still fills 1.  Page flag words through the bit wait table
 * (bit-wait-page) on 64-bit: old 2 of 256, every later generation 256; on
 * 32-bit only new fixes it (posted kept the old hash_32).  6.1's inode
 * i_state words, bit 3 (bit-waitqueue): 3 of 256 under old on 64-bit, 40
 * on 32-bit through posted, 256 under new; worked out in Python: keys
 * base + (j / per) * 4096 + (j % per) * size, base 0xffff888000000000 and
 * size 1360 (per 3), or 0xc0000000 and 800 (per 5); v = (key << 6 | 3)
 * mod 2^64, or << 5 mod 2^32; distinct top 8 bits of v * K.
 */
static void old_multipliers_crowd_btrfs_and_bit_wait_tables_new_fills_them(void **state)
{
	unsigned w;

	(void)state;
	for (w = 32; w <= 64; w += 32) {
		assert_int_equal(used("btrfs-raid56-raw", LKH_GEN_OLD, w), 1);
		assert_int_equal(used("btrfs-raid56", LKH_GEN_OLD, w), 2048);
	}
	assert_int_equal(used("btrfs-raid56-raw", LKH_GEN_MINIMAL, 32), 1);
	assert_true(used("btrfs-raid56-raw", LKH_GEN_MINIMAL, 64) > 2000);
	assert_int_equal(used("bit-wait-page", LKH_GEN_OLD, 64), 2);
	assert_int_equal(used("bit-wait-page", LKH_GEN_MINIMAL, 64), 256);
	assert_int_equal(used("bit-wait-page", LKH_GEN_POSTED, 64), 256);
	assert_int_equal(used("bit-wait-page", LKH_GEN_NEW, 64), 256);
	assert_true(used("bit-wait-page", LKH_GEN_OLD, 32) < 256);
	assert_true(used("bit-wait-page", LKH_GEN_MINIMAL, 32) < 256);
	assert_true(used("bit-wait-page", LKH_GEN_POSTED, 32) < 256);
	assert_int_equal(used("bit-wait-page", LKH_GEN_NEW, 32), 256);
	assert_int_equal(used("bit-waitqueue", LKH_GEN_OLD, 64), 3);
	assert_int_equal(used("bit-waitqueue", LKH_GEN_MINIMAL, 64), 256);
	assert_int_equal(used("bit-waitqueue", LKH_GEN_NEW, 64), 256);
	assert_int_equal(used("bit-waitqueue", LKH_GEN_OLD, 32), 40);
	assert_int_equal(used("bit-waitqueue", LKH_GEN_POSTED, 32), 40);
	assert_int_equal(used("bit-waitqueue", LKH_GEN_NEW, 32), 256);
	/* the default bit is __I_NEW's */
	assert_true(kb_table_param(table("bit-waitqueue"), 64) == 3);
}

/* The value of CONFIG_<name> in a .config, or NULL when it is not set. */
static const char *config_value(const char *path, const char *name, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = strlen(name);
	const char *v = NULL;

	if (!f)
		fail_msg("%s: cannot open", path);
	while (!v && fgets(buf, (int)len, f))
		if (!strncmp(buf, "CONFIG_", 7) && !strncmp(buf + 7, name, n) && buf[7 + n] == '=') {
			buf[strcspn(buf, "\n")] = 0;
			v = buf + 8 + n;
		}
	fclose(f);
	return v;
}

/*
 * Every committed .config of a kernel whose keys the data hold agrees
 * with keysets.c's row for its word: the line size fs/inode.c and
 * fs/dcache.c divide by, and i386's CONFIG_PAGE_OFFSET.
 */
static void x86_rows_match_the_kernels_configs(void **state)
{
	char buf[512];
	int i, seen[2] = { 0, 0 };

	(void)state;
	assert_true(nconfigs >= 2);
	for (i = 0; i < nconfigs; i++) {
		const struct kb_x86_arch *a;
		const char *v;
		unsigned word;

		word = config_value(configs[i], "X86_64", buf, sizeof(buf)) ? 64 : 32;
		if (word == 32 && !config_value(configs[i], "X86_32", buf, sizeof(buf)))
			fail_msg("%s: neither CONFIG_X86_64 nor CONFIG_X86_32", configs[i]);
		a = kb_x86_arch_of(word);
		assert_non_null(a);
		seen[word == 64]++;
		v = config_value(configs[i], "X86_L1_CACHE_SHIFT", buf, sizeof(buf));
		if (!v || strtoul(v, NULL, 10) != a->l1_cache_shift)
			fail_msg("%s: X86_L1_CACHE_SHIFT %s, the %s row says %u", configs[i],
				 v ? v : "unset", a->arch, a->l1_cache_shift);
		v = config_value(configs[i], "PAGE_OFFSET", buf, sizeof(buf));
		if (a->page_offset_in_config &&
		    (!v || strtoull(v, NULL, 16) != a->page_offset))
			fail_msg("%s: PAGE_OFFSET %s, the %s row says %#llx", configs[i],
				 v ? v : "unset", a->arch, (unsigned long long)a->page_offset);
		if (!a->page_offset_in_config && v)
			fail_msg("%s: sets PAGE_OFFSET, the %s row does not take it", configs[i],
				 a->arch);
	}
	/* a kernel of each word size */
	assert_true(seen[0] > 0 && seen[1] > 0);
	assert_null(kb_x86_arch_of(48));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(x86_rows_match_the_kernels_configs),
		cmocka_unit_test(transforms_follow_the_call_sites),
		cmocka_unit_test(golden_ratio_prime_by_generation),
		cmocka_unit_test(futex_tables_hash_the_key_words),
		cmocka_unit_test(bad_keys_and_params_are_refused),
		cmocka_unit_test(old_multipliers_crowd_btrfs_and_bit_wait_tables_new_fills_them),
	};

	configs = argv + 1;
	nconfigs = argc - 1;
	return cmocka_run_group_tests_name("tables", tests, NULL, NULL);
}
