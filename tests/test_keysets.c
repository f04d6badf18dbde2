/* SPDX-License-Identifier: MIT */
/*
 * The built-in key sets (bench/core/keysets.c): each set's size, first
 * key and step on each word, from the x86 facts they model (written out
 * here by hand, not read from keysets.c), slab packing, splitmix64 against
 * its published first outputs, and that a stream split by seeking gives
 * the keys of the whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "keysets.h"

static struct kb_keyset_params params(uint64_t count, unsigned word, unsigned input_bits)
{
	struct kb_keyset_params p;

	memset(&p, 0, sizeof(p));
	p.count = count;
	p.word = word;
	p.input_bits = input_bits;
	return p;
}

static uint64_t *collect(int id, const struct kb_keyset_params *p)
{
	uint64_t *keys = NULL;
	size_t n = 0;
	char err[256];

	if (kb_keyset_collect(id, p, &keys, &n, err, sizeof(err)) < 0)
		fail_msg("%s: %s", kb_keysets[id].name, err);
	assert_int_equal(n, p->count);
	return keys;
}

/*
 * x86_64: the direct map at 0xffff888000000000 (4-level paging), vmemmap
 * at 0xffffea0000000000 with a 64-byte struct page; i386 (3G/1G split):
 * PAGE_OFFSET 0xc0000000, mem_map at 0xc1000000 with a 32-byte one.
 */
static void arithmetic_sets_start_at_their_x86_base_and_step_by_their_stride(void **state)
{
	static const struct {
		const char *name;
		unsigned word;
		uint64_t first, stride;
	} sets[] = {
		{ "seq", 64, 0, 1 },
		{ "seq", 32, 0, 1 },
		{ "page4k", 64, UINT64_C(0xffff888000000000), 4096 },
		{ "page4k", 32, UINT64_C(0xc0000000), 4096 },
		{ "page2m", 64, UINT64_C(0xffff888000000000), 2 << 20 },
		{ "page2m", 32, 0, 2 << 20 },
		{ "struct-page", 64, UINT64_C(0xffffea0000000000), 64 },
		{ "struct-page", 32, UINT64_C(0xc1000000), 32 },
		/* chunk start 1 GiB, full stripes of 2 data disks x 64 KiB */
		{ "btrfs-stripe", 64, UINT64_C(1) << 30, 128 << 10 },
		{ "btrfs-stripe", 32, UINT64_C(1) << 30, 128 << 10 },
		{ "file-offset", 64, 0, 4096 },
		{ "sector", 32, 0, 512 },
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		int id = kb_keyset_find(sets[i].name);
		struct kb_keyset_params p = params(1000, sets[i].word, 64);
		struct kb_keystream ks;
		uint64_t *keys, first, stride;
		char err[256];

		assert_true(id >= 0);
		keys = collect(id, &p);
		for (j = 0; j < 1000; j++)
			if (keys[j] != sets[i].first + j * sets[i].stride)
				fail_msg("%s w%u key %zu: %#llx", sets[i].name, sets[i].word, j,
					 (unsigned long long)keys[j]);
		free(keys);
		/* and the stream says it is that progression */
		assert_int_equal(kb_keystream_open(&ks, id, &p, err, sizeof(err)), 0);
		assert_true(kb_keystream_progression(&ks, &first, &stride));
		assert_true(first == sets[i].first && stride == sets[i].stride);
		kb_keystream_close(&ks);
	}
}

/* floor(4096 / size) objects a page, pages one after another. */
static void slab_packs_whole_objects_into_consecutive_pages(void **state)
{
	struct kb_keyset_params p = params(40, 64, 64);
	struct kb_keystream ks;
	uint64_t *keys;
	char err[256];

	(void)state;
	keys = collect(KB_KS_SLAB, &p); /* 256 bytes: 16 a page */
	assert_true(keys[0] == UINT64_C(0xffff888000000000));
	assert_true(keys[15] == UINT64_C(0xffff888000000000) + 15 * 256);
	assert_true(keys[16] == UINT64_C(0xffff888000001000));
	assert_true(keys[39] == UINT64_C(0xffff888000002000) + 7 * 256);
	free(keys);
	p.size = 1360; /* 3 a page, 16 bytes left over */
	p.word = 32;
	keys = collect(KB_KS_SLAB, &p);
	assert_true(keys[2] == UINT64_C(0xc0000000) + 2720);
	assert_true(keys[3] == UINT64_C(0xc0001000));
	assert_true(keys[39] == UINT64_C(0xc0000000) + 13 * 4096);
	free(keys);
	p.size = 4097;
	assert_int_equal(kb_keystream_open(&ks, KB_KS_SLAB, &p, err, sizeof(err)), -1);
	assert_string_equal(err, "slab objects must be at most 4096 bytes");
}

/* splitmix64 from state 0: the first outputs of the published reference
 * (Vigna, splitmix64.c); the random set's key i is output i + 1 of the
 * seed's sequence, its top half for a 32-bit argument. */
static void random_keys_are_splitmix64_of_the_seed(void **state)
{
	struct kb_keyset_params p = params(3, 64, 64);
	uint64_t *keys, *again;

	(void)state;
	keys = collect(KB_KS_RANDOM, &p);
	assert_true(keys[0] == UINT64_C(0xe220a8397b1dcdaf));
	assert_true(keys[1] == UINT64_C(0x6e789e6aa1b965f4));
	assert_true(keys[2] == UINT64_C(0x06c45d188009454f));
	free(keys);
	p.input_bits = 32;
	keys = collect(KB_KS_RANDOM, &p);
	assert_true(keys[0] == UINT64_C(0xe220a839));
	assert_true(keys[2] == UINT64_C(0x06c45d18));
	free(keys);
	/* the seed alone decides */
	p = params(64, 64, 64);
	p.seed = 7;
	keys = collect(KB_KS_RANDOM, &p);
	again = collect(KB_KS_RANDOM, &p);
	assert_memory_equal(keys, again, 64 * sizeof(*keys));
	free(again);
	p.seed = 8;
	again = collect(KB_KS_RANDOM, &p);
	assert_true(memcmp(keys, again, 64 * sizeof(*keys)) != 0);
	free(again);
	free(keys);
}

/* Threads split a set by seeking: keys [100, 300) alone are the same. */
static void a_seeked_stream_gives_the_whole_streams_keys(void **state)
{
	static const int ids[] = { KB_KS_RANDOM, KB_KS_SLAB, KB_KS_PAGE4K, KB_KS_ADVERSARIAL };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct kb_keyset_params p = params(1000, 64, 64);
		struct kb_keystream ks;
		uint64_t *all, part[200];
		char err[256];

		p.seed = 11;
		p.target_func = LKH_FUNC_HASH_64;
		p.target_gen = LKH_GEN_OLD;
		p.target_bits = 10;
		all = collect(ids[i], &p);
		assert_int_equal(kb_keystream_open(&ks, ids[i], &p, err, sizeof(err)), 0);
		kb_keystream_seek(&ks, 100, 300);
		assert_int_equal(kb_keystream_next(&ks, part, 200), 200);
		assert_int_equal(kb_keystream_next(&ks, part, 200), 0);
		kb_keystream_close(&ks);
		assert_memory_equal(part, all + 100, sizeof(part));
		free(all);
	}
}

/* Real allocator pointers: all live at once, so all distinct, and
 * aligned to two words at least (malloc's guarantee on every target the
 * cross runs build for: 16 bytes on x86_64, 8 on 32-bit ARM). */
static void heap_objects_are_distinct_and_two_word_aligned(void **state)
{
	static const int ids[] = { KB_KS_HEAP_GLIBC, KB_KS_HEAP_JEMALLOC };
	size_t i, j, k;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct kb_keyset_params p = params(500, 64, 64);
		uint64_t *keys;

		if (!kb_keyset_available(ids[i]))
			continue; /* a build without it: the set refuses, tested by the CLI */
		p.size = 48;
		keys = collect(ids[i], &p);
		for (j = 0; j < 500; j++) {
			assert_int_equal(keys[j] % (2 * sizeof(size_t)), 0);
			for (k = 0; k < j; k++)
				assert_true(keys[k] != keys[j]);
		}
		free(keys);
	}
}

static void keys_past_the_argument_or_no_keys_are_refused(void **state)
{
	struct kb_keyset_params p = params(1, 64, 32);
	struct kb_keystream ks;
	char err[256];

	(void)state;
	assert_int_equal(kb_keystream_open(&ks, KB_KS_PAGE4K, &p, err, sizeof(err)), -1);
	assert_string_equal(err, "page4k: 1 keys from 0xffff888000000000 exceed the 32-bit argument");
	/* 2^32 sequential keys fit 32 bits, one more does not */
	p.count = UINT64_C(1) << 32;
	assert_int_equal(kb_keystream_open(&ks, KB_KS_SEQ, &p, err, sizeof(err)), 0);
	kb_keystream_close(&ks);
	p.count++;
	assert_int_equal(kb_keystream_open(&ks, KB_KS_SEQ, &p, err, sizeof(err)), -1);
	p.count = 0;
	assert_int_equal(kb_keystream_open(&ks, KB_KS_SEQ, &p, err, sizeof(err)), -1);
	assert_string_equal(err, "count must be at least 1");
}

/* One row a word; the direct-map bases the address sets start from. */
static void x86_rows_give_line_size_and_direct_map_by_word(void **state)
{
	const struct kb_x86_arch *a64 = kb_x86_arch_of(64), *a32 = kb_x86_arch_of(32);

	(void)state;
	assert_non_null(a64);
	assert_non_null(a32);
	assert_string_equal(a64->arch, "x86_64");
	assert_int_equal(a64->l1_cache_shift, 6);
	assert_true(a64->page_offset == UINT64_C(0xffff888000000000));
	assert_string_equal(a32->arch, "i386");
	assert_int_equal(a32->l1_cache_shift, 5);
	assert_true(a32->page_offset == UINT64_C(0xc0000000));
	assert_null(kb_x86_arch_of(48));
	assert_int_equal(kb_keyset_find("page4k"), KB_KS_PAGE4K);
	assert_int_equal(kb_keyset_find("page4K"), -1);
	assert_int_equal(KB_KS_COUNT, 16);
}

/*
 * Futex words as glibc 2.36 lays them out, from the first heap chunk
 * 0x5555555592a0 (i386 0x5655a1a0): pthread_mutex_t 40 bytes (24), its
 * lock first; pthread_cond_t 48, __g_signals at 40 and 44; the barrier 32
 * (20), current_round at 4.  Threads' tid words 8 MiB + 4 KiB apart
 * downwards, as strace showed clone3's child_tid (0x7ffff6dcd990 the
 * third thread's, 0xf6d89ba8 on i386).
 */
static void futex_words_sit_where_glibc_puts_them(void **state)
{
	struct kb_keyset_params p = { .count = 3, .word = 64, .input_bits = 64 };
	struct kb_keystream ks;
	uint64_t *k;
	char err[256];

	(void)state;
	k = collect(KB_KS_FUTEX_MUTEX, &p);
	assert_true(k[0] == UINT64_C(0x5555555592a0) && k[2] == UINT64_C(0x5555555592f0));
	free(k);
	k = collect(KB_KS_FUTEX_COND, &p);
	assert_true(k[0] == UINT64_C(0x5555555592c8) && k[1] == UINT64_C(0x5555555592cc) &&
		    k[2] == UINT64_C(0x5555555592f8));
	free(k);
	k = collect(KB_KS_FUTEX_BARRIER, &p);
	assert_true(k[1] == UINT64_C(0x5555555592c4));
	free(k);
	k = collect(KB_KS_FUTEX_THREAD, &p);
	assert_true(k[0] == UINT64_C(0x7ffff7dcf990) && k[2] == UINT64_C(0x7ffff6dcd990));
	free(k);
	p.word = 32;
	k = collect(KB_KS_FUTEX_MUTEX, &p);
	assert_true(k[0] == 0x5655a1a0 && k[2] == 0x5655a1d0);
	free(k);
	k = collect(KB_KS_FUTEX_COND, &p);
	assert_true(k[2] == 0x5655a1a0 + 48 + 40);
	free(k);
	k = collect(KB_KS_FUTEX_BARRIER, &p);
	assert_true(k[1] == 0x5655a1b8);
	free(k);
	k = collect(KB_KS_FUTEX_THREAD, &p);
	assert_true(k[2] == 0xf6d89ba8);
	free(k);
	/* 496 threads' stacks fit below 0xf7d8bba8, the 497th would not */
	p.count = 496;
	free(collect(KB_KS_FUTEX_THREAD, &p));
	p.count = 497;
	assert_int_equal(kb_keystream_open(&ks, KB_KS_FUTEX_THREAD, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "do not fit"));
	/* --base moves the array */
	p.count = 2;
	p.has_base = 1;
	p.base = 0x1000;
	k = collect(KB_KS_FUTEX_COND, &p);
	assert_true(k[0] == 0x1000 + 40 && k[1] == 0x1000 + 44);
	free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arithmetic_sets_start_at_their_x86_base_and_step_by_their_stride),
		cmocka_unit_test(slab_packs_whole_objects_into_consecutive_pages),
		cmocka_unit_test(random_keys_are_splitmix64_of_the_seed),
		cmocka_unit_test(a_seeked_stream_gives_the_whole_streams_keys),
		cmocka_unit_test(heap_objects_are_distinct_and_two_word_aligned),
		cmocka_unit_test(keys_past_the_argument_or_no_keys_are_refused),
		cmocka_unit_test(x86_rows_give_line_size_and_direct_map_by_word),
		cmocka_unit_test(futex_words_sit_where_glibc_puts_them),
	};

	return cmocka_run_group_tests_name("keysets", tests, NULL, NULL);
}
