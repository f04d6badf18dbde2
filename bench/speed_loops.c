/* SPDX-License-Identifier: MIT */
/*
 * Compiled twice (bench/meson.build): SPEED_TABLE names the accessor, and
 * LKH_LINK_ONLY, when set, makes every call go to the exported symbol.
 * The reference loops are the bare arithmetic, written by hand.
 */
#define LKH_NO_ASSERT /* time the release fast path */
#include <khash/lkh.h>

#include "speed_loops.h"

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

#define LOOPS(name, call)                                                    \
	static NOINLINE uint64_t tput_##name(const uint64_t *in, size_t n,   \
					     unsigned bits)                  \
	{                                                                    \
		uint64_t acc = 0;                                            \
		size_t i;                                                    \
		for (i = 0; i < n; i++)                                      \
			acc += (uint64_t)call(in[i], bits);                  \
		return acc;                                                  \
	}                                                                    \
	static NOINLINE uint64_t lat_##name(uint64_t x, size_t n,            \
					    unsigned bits)                   \
	{                                                                    \
		size_t i;                                                    \
		for (i = 0; i < n; i++)                                      \
			x = (uint64_t)call(x + i, bits);                     \
		return x;                                                    \
	}

/* The bare minimum each kind of hash needs, written out by hand. */
#define REF64(x, bits) ((x) * UINT64_C(0x61C8864680B583EB) >> (64 - (bits)))
/* the same, kept as the u32 the new kernels return (a bucket index) */
#define REF64_U32(x, bits) ((uint32_t)REF64(x, bits))
#define REF32(x, bits) \
	((uint32_t)((uint32_t)(x) * UINT32_C(0x61C88647)) >> (32 - (bits)))
#define OLD_REF64(x, bits) ((x) * UINT64_C(0x9e37fffffffc0001) >> (64 - (bits)))
/* what a 32-bit kernel's hash_64 must do at least: two 32-bit products */
#define POSTED_REF_ON32(x, bits)                                             \
	((uint32_t)(((uint32_t)((uint32_t)((x) >> 32) * UINT32_C(0x61C88647)) + \
		     (uint32_t)(x)) * UINT32_C(0x61C88647)) >> (32 - (bits)))
#define NEW_REF_ON32(x, bits)                                                \
	((uint32_t)(((uint32_t)(x) ^                                         \
		     (uint32_t)((uint32_t)((x) >> 32) * UINT32_C(0x61C88647))) * \
		    UINT32_C(0x61C88647)) >> (32 - (bits)))
#define OLD_CHAIN(x, bits) (lkh_old_hash64_raw_chain(x) >> (64 - (bits)))

/* 32-bit-argument functions see the low half of each input. */
#define LOOPS32(name, fn) LOOPS(name, fn##_lo)
#define LO(fn)                                                        \
	static inline uint64_t fn##_lo(uint64_t x, unsigned bits)     \
	{                                                             \
		return fn((uint32_t)x, bits);                         \
	}

LO(lkh_old_hash32)
LO(lkh_posted_hash32)
LO(lkh_new_hash32)
LO(lkh_old_hashptr_w32)
LO(lkh_posted_hashptr_w32)
LO(lkh_new_hashptr_w32)

LOOPS(ref64, REF64)
LOOPS(ref64_u32, REF64_U32)
LOOPS(ref32, REF32)
LOOPS(old_ref64, OLD_REF64)
LOOPS(posted_ref_on32, POSTED_REF_ON32)
LOOPS(new_ref_on32, NEW_REF_ON32)
LOOPS(old_chain, OLD_CHAIN)
LOOPS32(old_hash32, lkh_old_hash32)
LOOPS32(posted_hash32, lkh_posted_hash32)
LOOPS32(new_hash32, lkh_new_hash32)
LOOPS(old_hash64_w64, lkh_old_hash64_w64)
LOOPS(posted_hash64_w64, lkh_posted_hash64_w64)
LOOPS(new_hash64_w64, lkh_new_hash64_w64)
LOOPS(old_hash64_w32, lkh_old_hash64_w32)
LOOPS(posted_hash64_w32, lkh_posted_hash64_w32)
LOOPS(new_hash64_w32, lkh_new_hash64_w32)
LOOPS(old_hashptr_w64, lkh_old_hashptr_w64)
LOOPS(posted_hashptr_w64, lkh_posted_hashptr_w64)
LOOPS(new_hashptr_w64, lkh_new_hashptr_w64)
LOOPS32(old_hashptr_w32, lkh_old_hashptr_w32)
LOOPS32(posted_hashptr_w32, lkh_posted_hashptr_w32)
LOOPS32(new_hashptr_w32, lkh_new_hashptr_w32)

/* The reference rows come first; every row names the one it is timed with. */
enum { R64, R64_U32, R32, R_POSTED_ON32, R_NEW_ON32, R_OLD_MUL };
#define REF(f, w, name) { f, "ref", w, 1, 0, tput_##name, lat_##name }
#define ROW(f, g, w, r, name) { f, g, w, 0, r, tput_##name, lat_##name }

static const struct kb_speed_fn table[] = {
	[R64] = REF("x*K>>(64-b)", 64, ref64),
	[R64_U32] = REF("(u32)(x*K>>(64-b))", 64, ref64_u32),
	[R32] = REF("x*K>>(32-b)", 32, ref32),
	[R_POSTED_ON32] = REF("((hi*K+lo)*K)>>(32-b)", 32, posted_ref_on32),
	[R_NEW_ON32] = REF("((lo^hi*K)*K)>>(32-b)", 32, new_ref_on32),
	[R_OLD_MUL] = REF("x*K_old (the old product)", 64, old_ref64),
	ROW("hash_32", "old", 32, R32, old_hash32),
	ROW("hash_32", "posted", 32, R32, posted_hash32),
	ROW("hash_32", "new", 32, R32, new_hash32),
	ROW("hash_64", "old", 64, R64, old_hash64_w64),
	ROW("hash_64", "posted", 64, R64, posted_hash64_w64),
	ROW("hash_64", "new", 64, R64_U32, new_hash64_w64),
	ROW("hash_64", "old", 32, R_OLD_MUL, old_hash64_w32),
	ROW("hash_64", "posted", 32, R_POSTED_ON32, posted_hash64_w32),
	ROW("hash_64", "new", 32, R_NEW_ON32, new_hash64_w32),
	ROW("hash_ptr", "old", 64, R64, old_hashptr_w64),
	ROW("hash_ptr", "posted", 64, R64_U32, posted_hashptr_w64),
	ROW("hash_ptr", "new", 64, R64_U32, new_hashptr_w64),
	ROW("hash_ptr", "old", 32, R32, old_hashptr_w32),
	ROW("hash_ptr", "posted", 32, R32, posted_hashptr_w32),
	ROW("hash_ptr", "new", 32, R32, new_hashptr_w32),
	/* 2002's question: the sparse product by shifts and adds */
	ROW("old product: shift-add chain", "old", 64, R_OLD_MUL, old_chain),
};

const struct kb_speed_fn *SPEED_TABLE(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
