/* SPDX-License-Identifier: MIT */
/*
 * Compiled twice (bench/meson.build): SPEED_TABLE names the accessor, and
 * LKH_LINK_ONLY, when set, makes every call go to the exported symbol.
 * The reference loops are the bare arithmetic, written by hand.
 */
#define LKH_NO_ASSERT /* time the release fast path */
#include <khash/lkh.h>
#include <khash/lkh_table.h>

#include "kernel_hashes.h"
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

/*
 * The kernel's other hashes as a table indexes with them, `& (size - 1)`,
 * keyed by fixed keys (their speed does not depend on the key).
 */
static const struct kb_siphash_key sip_key = { { 1, 2 } };
static const struct kb_hsiphash_key hsip_key = { { 1, 2 } };
#define MASK(h, bits) ((h) & ((UINT64_C(1) << (bits)) - 1))
#define JHASH1(x, bits) MASK(kb_jhash_1word((uint32_t)(x), 7), bits)
#define JHASH2(x, bits) MASK(kb_jhash_2words((uint32_t)(x), (uint32_t)((x) >> 32), 7), bits)
#define JHASH3(x, bits) \
	MASK(kb_jhash_3words((uint32_t)(x), (uint32_t)((x) >> 32), (uint32_t)(x) ^ 1, 7), bits)
#define HSIP1_W64(x, bits) MASK(kb_hsiphash_1u32((uint32_t)(x), &hsip_key, 64), bits)
#define HSIP1_W32(x, bits) MASK(kb_hsiphash_1u32((uint32_t)(x), &hsip_key, 32), bits)
#define HSIP2_W64(x, bits) \
	MASK(kb_hsiphash_2u32((uint32_t)(x), (uint32_t)((x) >> 32), &hsip_key, 64), bits)
#define HSIP2_W32(x, bits) \
	MASK(kb_hsiphash_2u32((uint32_t)(x), (uint32_t)((x) >> 32), &hsip_key, 32), bits)
#define SIP64(x, bits) MASK(kb_siphash_1u64(x, &sip_key), bits)
#define IDENTITY(x, bits) MASK(x, bits)

/*
 * One pair of loops for every cell that takes bits, from lkh_table.h;
 * 32-bit-argument functions see the low half of each input.
 */
#define CELL_LOOPS_LKH_RET_U32(fn, w) LOOPS(fn##_##w, fn)
#define CELL_LOOPS_LKH_RET_U64(fn, w) LOOPS(fn##_##w, fn)
#define CELL_LOOPS_LKH_RET_WORD32(fn, w)
#define CELL_LOOPS(g, f, w, fn, ret, product) CELL_LOOPS_##ret(fn, w)
LKH_CELL_TABLE(CELL_LOOPS)

LOOPS(ref64, REF64)
LOOPS(ref64_u32, REF64_U32)
LOOPS(ref32, REF32)
LOOPS(old_ref64, OLD_REF64)
LOOPS(posted_ref_on32, POSTED_REF_ON32)
LOOPS(new_ref_on32, NEW_REF_ON32)
LOOPS(old_chain, OLD_CHAIN)
LOOPS(jhash1, JHASH1)
LOOPS(jhash2, JHASH2)
LOOPS(jhash3, JHASH3)
LOOPS(hsip1_w64, HSIP1_W64)
LOOPS(hsip1_w32, HSIP1_W32)
LOOPS(hsip2_w64, HSIP2_W64)
LOOPS(hsip2_w32, HSIP2_W32)
LOOPS(sip64, SIP64)
LOOPS(identity, IDENTITY)

/* The reference rows come first; every row names the one it is timed with. */
enum { R64, R64_U32, R32, R_POSTED_ON32, R_NEW_ON32, R_OLD_MUL };

/*
 * The fair reference for a product: the same number of multiplies, written
 * by hand; a 64-bit word kept as the u32 the function returns is compared
 * with the loop that keeps it as a u32 too.
 */
/*
 * The fair reference for a row: the same arithmetic, written by hand; a
 * 64-bit word kept as the u32 the function returns is compared with the
 * loop that keeps it as a u32 too.
 */
static unsigned ref_of(lkh_product product, lkh_ret ret)
{
	uint64_t k;

	switch (lkh_product_arith(product, &k)) {
	case LKH_ARITH_CHAIN64:
		return R_OLD_MUL;
	case LKH_ARITH_MUL32_ADD:
		return R_POSTED_ON32;
	case LKH_ARITH_MUL32_XOR:
		return R_NEW_ON32;
	case LKH_ARITH_MUL64:
		return ret == LKH_RET_U64 ? R64 : R64_U32;
	default:
		return R32;
	}
}

#define REF(label, w, name) \
	{ label, 0, 0, w, 0, 0, 1, 0, NULL, 0, 0, tput_##name, lat_##name }
#define CELL_ROW_LKH_RET_U32(g, f, w, fn, ret, product) \
	{ NULL, f, g, w, product, ret, 0, 0, NULL, KB_CAND_HASHH, 0, tput_##fn##_##w, \
	  lat_##fn##_##w },
/* a row beyond hash.h, timed beside the one-multiply reference ref */
#define OTHER(label, origin, w, kind, wide, ref, name) \
	{ label, 0, 0, w, 0, 0, 0, ref, origin, kind, wide, tput_##name, lat_##name }
#define CELL_ROW_LKH_RET_U64 CELL_ROW_LKH_RET_U32
#define CELL_ROW_LKH_RET_WORD32(g, f, w, fn, ret, product)
#define CELL_ROW(g, f, w, fn, ret, product) \
	CELL_ROW_##ret(g, f, w, fn, ret, product)

static struct kb_speed_fn table[] = {
	[R64] = REF("x*K>>(64-b)", 64, ref64),
	[R64_U32] = REF("(u32)(x*K>>(64-b))", 64, ref64_u32),
	[R32] = REF("x*K>>(32-b)", 32, ref32),
	[R_POSTED_ON32] = REF("((hi*K+lo)*K)>>(32-b)", 32, posted_ref_on32),
	[R_NEW_ON32] = REF("((lo^hi*K)*K)>>(32-b)", 32, new_ref_on32),
	[R_OLD_MUL] = REF("x*K_old (the old product)", 64, old_ref64),
	/* 2002's question: the sparse product by shifts and adds */
	{ "old product: shift-add chain", LKH_FUNC_HASH_64, LKH_GEN_OLD, 64,
	  LKH_PRODUCT_OLD64_CHAIN, LKH_RET_U64, 0, R_OLD_MUL, NULL, 0, 0, tput_old_chain,
	  lat_old_chain },
	OTHER("jhash_1word(k, iv) & mask", "jhash.h", 64, KB_CAND_JHASH, 0, R32, jhash1),
	OTHER("jhash_2words(lo, hi, iv) & mask", "jhash.h", 64, KB_CAND_JHASH, 1, R32, jhash2),
	OTHER("jhash_3words(a, b, c, iv) & mask", "jhash.h", 64, KB_CAND_JHASH, 2, R32, jhash3),
	OTHER("hsiphash_1u32(k, &key) & mask", "siphash.c", 64, KB_CAND_HSIPHASH, 0, R32, hsip1_w64),
	OTHER("hsiphash_1u32(k, &key) & mask", "siphash.c", 32, KB_CAND_HSIPHASH, 0, R32, hsip1_w32),
	OTHER("hsiphash_2u32(lo, hi, &key) & mask", "siphash.c", 64, KB_CAND_HSIPHASH, 1, R32, hsip2_w64),
	OTHER("hsiphash_2u32(lo, hi, &key) & mask", "siphash.c", 32, KB_CAND_HSIPHASH, 1, R32, hsip2_w32),
	OTHER("siphash_1u64(k, &key) & mask", "siphash.c", 64, KB_CAND_SIPHASH, 0, R64, sip64),
	OTHER("k & mask (the identity)", "-", 64, KB_CAND_IDENTITY, 0, R32, identity),
	LKH_CELL_TABLE(CELL_ROW)
};

const struct kb_speed_fn *SPEED_TABLE(size_t *n)
{
	size_t i;

	/* each cell's reference, from its product */
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (table[i].label)
			continue;
		table[i].ref = ref_of(table[i].product, table[i].ret);
	}
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}
