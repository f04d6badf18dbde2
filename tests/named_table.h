/* SPDX-License-Identifier: MIT */
/*
 * A table of every named entry point, built once with the header in inline
 * mode and once in link-only mode, so the tests can call either copy by
 * (function, generation, word size).
 */
#ifndef LKH_TEST_NAMED_TABLE_H
#define LKH_TEST_NAMED_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh.h>

/* The five signatures the kernel's functions come in. */
enum named_kind {
	K_U32_U32_BITS, /* u32 f(u32, bits) */
	K_U32_U32,      /* u32 f(u32) */
	K_U64_U64_BITS, /* u64 f(u64, bits) */
	K_U32_U64_BITS, /* u32 f(u64, bits) */
	K_U32_U64       /* u32 f(u64) */
};

struct named_entry {
	lkh_func func;
	lkh_gen gen;
	unsigned word;
	enum named_kind kind;
	const char *name;
	union {
		uint32_t (*u32_u32_bits)(uint32_t, unsigned);
		uint32_t (*u32_u32)(uint32_t);
		uint64_t (*u64_u64_bits)(uint64_t, unsigned);
		uint32_t (*u32_u64_bits)(uint64_t, unsigned);
		uint32_t (*u32_u64)(uint64_t);
	} fn;
};

/* The table of one mode and its length. */
const struct named_entry *named_table_inline(size_t *len);
const struct named_entry *named_table_link(size_t *len);
/* Inline mode with the debug asserts compiled out (LKH_NO_ASSERT). */
const struct named_entry *named_table_noassert(size_t *len);

/* Find (func, gen, word) in a table; NULL when absent. */
const struct named_entry *named_find(const struct named_entry *table,
				     size_t len, lkh_func func, lkh_gen gen,
				     unsigned word);

/* Call an entry; bits is ignored by the kinds that take none. */
uint64_t named_call(const struct named_entry *e, uint64_t val, unsigned bits);

#endif
