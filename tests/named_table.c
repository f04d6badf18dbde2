/* SPDX-License-Identifier: MIT */
/*
 * Compiled twice (see tests/meson.build): NAMED_TABLE_FN names the accessor,
 * and LKH_LINK_ONLY, when set, makes every entry the library's exported
 * symbol instead of the header's inline body.
 */
#include "named_table.h"

#define E(f, g, w, kind, member, fn) \
	{ LKH_FUNC_##f, LKH_GEN_##g, w, kind, #fn, { .member = fn } }
#define PER_GEN(G, g)                                                        \
	E(HASH_32, G, 32, K_U32_U32_BITS, u32_u32_bits, lkh_##g##_hash32),   \
	E(HASH_32, G, 64, K_U32_U32_BITS, u32_u32_bits, lkh_##g##_hash32),   \
	E(HASH_32_RAW, G, 32, K_U32_U32, u32_u32, lkh_##g##_hash32_raw),     \
	E(HASH_32_RAW, G, 64, K_U32_U32, u32_u32, lkh_##g##_hash32_raw),     \
	E(HASH_LONG, G, 32, K_U32_U32_BITS, u32_u32_bits,                    \
	  lkh_##g##_hashlong_w32),                                           \
	E(HASH_PTR, G, 32, K_U32_U32_BITS, u32_u32_bits,                     \
	  lkh_##g##_hashptr_w32),                                            \
	E(HASH32_PTR, G, 32, K_U32_U32, u32_u32, lkh_##g##_hash32ptr_w32),   \
	E(HASH32_PTR, G, 64, K_U32_U64, u32_u64, lkh_##g##_hash32ptr_w64)

static const struct named_entry table[] = {
	PER_GEN(OLD, old),
	E(HASH_64, OLD, 64, K_U64_U64_BITS, u64_u64_bits, lkh_old_hash64_w64),
	E(HASH_64, OLD, 32, K_U64_U64_BITS, u64_u64_bits, lkh_old_hash64_w32),
	E(HASH_LONG, OLD, 64, K_U64_U64_BITS, u64_u64_bits,
	  lkh_old_hashlong_w64),
	E(HASH_PTR, OLD, 64, K_U64_U64_BITS, u64_u64_bits, lkh_old_hashptr_w64),

	PER_GEN(MINIMAL, minimal),
	E(HASH_64, MINIMAL, 64, K_U64_U64_BITS, u64_u64_bits, lkh_minimal_hash64_w64),
	E(HASH_64, MINIMAL, 32, K_U64_U64_BITS, u64_u64_bits, lkh_minimal_hash64_w32),
	E(HASH_LONG, MINIMAL, 64, K_U64_U64_BITS, u64_u64_bits,
	  lkh_minimal_hashlong_w64),
	E(HASH_PTR, MINIMAL, 64, K_U64_U64_BITS, u64_u64_bits,
	  lkh_minimal_hashptr_w64),

	PER_GEN(POSTED, posted),
	E(HASH_64, POSTED, 64, K_U64_U64_BITS, u64_u64_bits,
	  lkh_posted_hash64_w64),
	E(HASH_64, POSTED, 32, K_U32_U64_BITS, u32_u64_bits,
	  lkh_posted_hash64_w32),
	E(HASH_LONG, POSTED, 64, K_U64_U64_BITS, u64_u64_bits,
	  lkh_posted_hashlong_w64),
	E(HASH_PTR, POSTED, 64, K_U32_U64_BITS, u32_u64_bits,
	  lkh_posted_hashptr_w64),

	PER_GEN(NEW, new),
	E(HASH_64, NEW, 64, K_U32_U64_BITS, u32_u64_bits, lkh_new_hash64_w64),
	E(HASH_64, NEW, 32, K_U32_U64_BITS, u32_u64_bits, lkh_new_hash64_w32),
	E(HASH_LONG, NEW, 64, K_U32_U64_BITS, u32_u64_bits,
	  lkh_new_hashlong_w64),
	E(HASH_PTR, NEW, 64, K_U32_U64_BITS, u32_u64_bits, lkh_new_hashptr_w64),
};

const struct named_entry *NAMED_TABLE_FN(size_t *len)
{
	*len = sizeof(table) / sizeof(table[0]);
	return table;
}

#ifndef LKH_LINK_ONLY
/* The mode-independent helpers live in the inline copy only. */
const struct named_entry *named_find(const struct named_entry *t, size_t len,
				     lkh_func func, lkh_gen gen, unsigned word)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (t[i].func == func && t[i].gen == gen && t[i].word == word)
			return &t[i];
	return NULL;
}

uint64_t named_call(const struct named_entry *e, uint64_t val, unsigned bits)
{
	switch (e->kind) {
	case K_U32_U32_BITS:
		return e->fn.u32_u32_bits((uint32_t)val, bits);
	case K_U32_U32:
		return e->fn.u32_u32((uint32_t)val);
	case K_U64_U64_BITS:
		return e->fn.u64_u64_bits(val, bits);
	case K_U32_U64_BITS:
		return e->fn.u32_u64_bits(val, bits);
	default:
		return e->fn.u32_u64(val);
	}
}
#endif
