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
#define REF32(x, bits) \
	((uint32_t)((uint32_t)(x) * UINT32_C(0x61C88647)) >> (32 - (bits)))
#define OLD_REF64(x, bits) ((x) * UINT64_C(0x9e37fffffffc0001) >> (64 - (bits)))
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
LOOPS(ref32, REF32)
LOOPS(old_ref64, OLD_REF64)
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

#define ROW(f, g, w, ref, name) { f, g, w, ref, tput_##name, lat_##name }

static const struct kb_speed_fn table[] = {
	ROW("x*K>>(64-b)", "ref", 64, 1, ref64),
	ROW("x*K>>(32-b)", "ref", 32, 1, ref32),
	ROW("hash_32", "old", 32, 0, old_hash32),
	ROW("hash_32", "posted", 32, 0, posted_hash32),
	ROW("hash_32", "new", 32, 0, new_hash32),
	ROW("hash_64", "old", 64, 0, old_hash64_w64),
	ROW("hash_64", "posted", 64, 0, posted_hash64_w64),
	ROW("hash_64", "new", 64, 0, new_hash64_w64),
	ROW("hash_64", "old", 32, 0, old_hash64_w32),
	ROW("hash_64", "posted", 32, 0, posted_hash64_w32),
	ROW("hash_64", "new", 32, 0, new_hash64_w32),
	ROW("hash_ptr", "old", 64, 0, old_hashptr_w64),
	ROW("hash_ptr", "posted", 64, 0, posted_hashptr_w64),
	ROW("hash_ptr", "new", 64, 0, new_hashptr_w64),
	ROW("hash_ptr", "old", 32, 0, old_hashptr_w32),
	ROW("hash_ptr", "posted", 32, 0, posted_hashptr_w32),
	ROW("hash_ptr", "new", 32, 0, new_hashptr_w32),
	/* 2002's question: the sparse multiplier by multiply or by chain */
	ROW("old product: multiply", "old", 64, 1, old_ref64),
	ROW("old product: shift-add chain", "old", 64, 0, old_chain),
};

const struct kb_speed_fn *SPEED_TABLE(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
