/* SPDX-License-Identifier: MIT */
/**
 * @file lkh_table.h
 * @brief The one table of libkhash: which arithmetic every (function,
 *        generation, word size) cell of `<linux/hash.h>` computes.
 *
 * Everything that enumerates generations, functions or cells derives from
 * the X-macros here: the checked entry points (lkh_hash(), lkh_bits_max(),
 * lkh_hash_full(), the names), khash-bench's counting engine, its speed
 * loops, its report columns and its option parsing.  Adding a generation is
 * one row in the generation table (its cells follow from the kernel's
 * rules, written once), its products in ::LKH_PRODUCT_TABLE, and the
 * named functions in lkh.h (see README, "Adding a generation").
 *
 * To use a table, define a macro taking the row's columns and pass its
 * name: `#define ROW(gen, func, word, fn, ret, product) ...` then
 * `LKH_CELL_TABLE(ROW)`.
 */
#ifndef LKH_TABLE_H
#define LKH_TABLE_H

#include "lkh.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Generations, in release order (posted was never released), one row
 * each: C(X, enum value, name, kernels and multipliers, GOLDEN_RATIO_PRIME
 * on a 32-bit kernel, on a 64-bit one, then the cells that vary between
 * generations: the 32-bit product (hash_32, __hash_32, and hash_long and
 * hash_ptr on 32-bit kernels), hash_64's return kind and product on a
 * 64-bit kernel, the same on a 32-bit kernel, and hash_ptr's return kind
 * on a 64-bit kernel).  Everything else about a generation's twelve cells
 * follows from the kernel's rules, written once in LKH_CELLS_OF_GEN_.
 */
#define LKH_GENERATIONS_(C, X)                                                          \
	C(X, LKH_GEN_OLD, old, "v2.6.25..v4.5: 0x9e370001, 0x9e37fffffffc0001",          \
	  LKH_OLD_GOLDEN_RATIO_PRIME_W32, LKH_OLD_GOLDEN_RATIO_PRIME_W64,                 \
	  LKH_PRODUCT_OLD32, LKH_RET_U64, LKH_PRODUCT_OLD64_MUL,                          \
	  LKH_RET_U64, LKH_PRODUCT_OLD64_CHAIN, LKH_RET_U64)                             \
	C(X, LKH_GEN_MINIMAL, minimal,                                                  \
	  "v4.6: as old, but 64-bit hash_64 multiplies by 0x61C8864680B583EB",          \
	  LKH_MINIMAL_GOLDEN_RATIO_PRIME_W32, LKH_MINIMAL_GOLDEN_RATIO_PRIME_W64,         \
	  LKH_PRODUCT_MINIMAL32, LKH_RET_U64, LKH_PRODUCT_MINIMAL64_W64,                  \
	  LKH_RET_U64, LKH_PRODUCT_MINIMAL64_W32, LKH_RET_U64)                           \
	C(X, LKH_GEN_POSTED, posted,                                                    \
	  "the 2016 fix as posted (never released): hash_32 kept 0x9e370001, hash_64 0x61C8864680B583EB", \
	  LKH_POSTED_GOLDEN_RATIO_PRIME_W32, LKH_POSTED_GOLDEN_RATIO_PRIME_W64,           \
	  LKH_PRODUCT_POSTED32, LKH_RET_U64, LKH_PRODUCT_POSTED64_W64,                    \
	  LKH_RET_U32, LKH_PRODUCT_POSTED64_W32, LKH_RET_U32)                            \
	C(X, LKH_GEN_NEW, new, "v4.7..today: 0x61C88647, 0x61C8864680B583EB",           \
	  LKH_NEW_GOLDEN_RATIO_PRIME_W32, LKH_NEW_GOLDEN_RATIO_PRIME_W64,                 \
	  LKH_PRODUCT_NEW32, LKH_RET_U32, LKH_PRODUCT_NEW64_W64,                          \
	  LKH_RET_U32, LKH_PRODUCT_NEW64_W32, LKH_RET_U32)

#define LKH_APPLY_GEN_(X, ...) X(__VA_ARGS__)

/**
 * @brief Generations, in release order: X(enum value, name token, kernels
 *        and multipliers, GOLDEN_RATIO_PRIME on 32-bit, on 64-bit, 32-bit
 *        product, hash_64 return and product on 64-bit, on 32-bit,
 *        hash_ptr return on 64-bit).  `#name` is the generation's name.
 */
#define LKH_GENERATION_TABLE(X) LKH_GENERATIONS_(LKH_APPLY_GEN_, X)

/** What a function's argument is. */
typedef enum lkh_arg {
	LKH_ARG_U32,  /**< u32 on every kernel */
	LKH_ARG_U64,  /**< u64 on every kernel */
	LKH_ARG_LONG  /**< unsigned long or a pointer: the kernel's word */
} lkh_arg;

/** @brief Functions: X(enum value, kernel name, ::lkh_arg of the key). */
#define LKH_FUNCTION_TABLE(X)                          \
	X(LKH_FUNC_HASH_32, "hash_32", LKH_ARG_U32)     \
	X(LKH_FUNC_HASH_32_RAW, "__hash_32", LKH_ARG_U32) \
	X(LKH_FUNC_HASH_64, "hash_64", LKH_ARG_U64)     \
	X(LKH_FUNC_HASH_LONG, "hash_long", LKH_ARG_LONG) \
	X(LKH_FUNC_HASH_PTR, "hash_ptr", LKH_ARG_LONG)  \
	X(LKH_FUNC_HASH32_PTR, "hash32_ptr", LKH_ARG_LONG)

/**
 * @brief Products: the whole words the functions take their top bits
 *        from, X(enum value, width in bits, function of the key, ::lkh_arith,
 *        the multiplier K it multiplies by, 0 for none).
 *
 * A cell's result for `bits` is `product(key) >> (width - bits)`.  Each
 * generation's product is computed by that generation's own function, so
 * a cell never borrows another generation's arithmetic.
 */
#define LKH_PRODUCT_TABLE(X)                                                                   \
	X(LKH_PRODUCT_OLD32, 32, lkh_old_hash32_raw, LKH_ARITH_MUL32, LKH_GOLDEN_RATIO_PRIME_32) \
	X(LKH_PRODUCT_MINIMAL32, 32, lkh_minimal_hash32_raw, LKH_ARITH_MUL32, LKH_GOLDEN_RATIO_PRIME_32) \
	X(LKH_PRODUCT_POSTED32, 32, lkh_posted_hash32_raw, LKH_ARITH_MUL32, LKH_GOLDEN_RATIO_PRIME_32) \
	X(LKH_PRODUCT_NEW32, 32, lkh_new_hash32_raw, LKH_ARITH_MUL32, LKH_GOLDEN_RATIO_32)       \
	X(LKH_PRODUCT_OLD64_MUL, 64, lkh_old_hash64_raw, LKH_ARITH_MUL64, LKH_GOLDEN_RATIO_PRIME_64) \
	X(LKH_PRODUCT_OLD64_CHAIN, 64, lkh_old_hash64_raw_chain, LKH_ARITH_CHAIN64, LKH_GOLDEN_RATIO_PRIME_64) \
	X(LKH_PRODUCT_MINIMAL64_W64, 64, lkh_minimal_hash64_raw_w64, LKH_ARITH_MUL64, LKH_GOLDEN_RATIO_64) \
	X(LKH_PRODUCT_MINIMAL64_W32, 64, lkh_minimal_hash64_raw_w32, LKH_ARITH_CHAIN64, LKH_GOLDEN_RATIO_PRIME_64) \
	X(LKH_PRODUCT_POSTED64_W64, 64, lkh_posted_hash64_raw_w64, LKH_ARITH_MUL64, LKH_GOLDEN_RATIO_64) \
	X(LKH_PRODUCT_POSTED64_W32, 32, lkh_posted_hash64_raw_w32, LKH_ARITH_MUL32_ADD, LKH_GOLDEN_RATIO_32) \
	X(LKH_PRODUCT_NEW64_W64, 64, lkh_new_hash64_raw_w64, LKH_ARITH_MUL64, LKH_GOLDEN_RATIO_64) \
	X(LKH_PRODUCT_NEW64_W32, 32, lkh_new_hash64_raw_w32, LKH_ARITH_MUL32_XOR, LKH_GOLDEN_RATIO_32) \
	X(LKH_PRODUCT_FOLD64, 32, lkh_new_hash32ptr_w64, LKH_ARITH_FOLD, 0)                     \
	X(LKH_PRODUCT_IDENTITY32, 32, lkh_new_hash32ptr_w32, LKH_ARITH_FOLD, 0)

/** How a product is computed: what a fair speed reference must also do. */
typedef enum lkh_arith {
	LKH_ARITH_MUL32,     /**< one 32-bit multiply */
	LKH_ARITH_MUL64,     /**< one 64-bit multiply */
	LKH_ARITH_CHAIN64,   /**< the old 64-bit shift-and-add chain */
	LKH_ARITH_MUL32_ADD, /**< (hi * K + lo) * K in 32 bits (posted) */
	LKH_ARITH_MUL32_XOR, /**< (lo ^ hi * K) * K in 32 bits (new) */
	LKH_ARITH_FOLD       /**< no multiply: a pointer folded to 32 bits */
} lkh_arith;

/** Every product (see ::LKH_PRODUCT_TABLE). */
typedef enum lkh_product {
#define LKH_PRODUCT_ENUM_(id, width, fn, arith, k) id,
	LKH_PRODUCT_TABLE(LKH_PRODUCT_ENUM_)
#undef LKH_PRODUCT_ENUM_
	LKH_PRODUCT_COUNT
} lkh_product;

/**
 * What a function returns, which also fixes its range of bits: u32 (bits
 * 1..32), u64 (bits 1..64), or a whole u32 word that takes no bits.
 */
typedef enum lkh_ret {
	LKH_RET_U32,   /**< `u32 f(key, bits)` */
	LKH_RET_U64,   /**< `u64 f(key, bits)` (unsigned long on 64-bit) */
	LKH_RET_WORD32 /**< `u32 f(key)`: `__hash_32`, `hash32_ptr` */
} lkh_ret;

/** @brief Largest bits for a return kind: 32, 64, or 0 (takes none). */
#define LKH_RET_BITS_MAX(ret) \
	((ret) == LKH_RET_U32 ? 32u : (ret) == LKH_RET_U64 ? 64u : 0u)

/**
 * @brief Call a cell's named function with the arguments its return kind
 *        takes: `LKH_CALL(ret, fn, key, bits)`, ret one of ::lkh_ret.
 */
#define LKH_CALL(ret, fn, key, bits) LKH_CALL_##ret(fn, key, bits)
#define LKH_CALL_LKH_RET_U32(fn, key, bits) fn(key, bits)
#define LKH_CALL_LKH_RET_U64(fn, key, bits) fn(key, bits)
#define LKH_CALL_LKH_RET_WORD32(fn, key, bits) ((void)(bits), fn(key))

/*
 * A generation's twelve cells, from its row: the kernel's rules, once.
 * hash_32 and __hash_32 take a u32 on either kernel; on a 32-bit kernel
 * hash_long and hash_ptr are hash_32 of the value; on a 64-bit kernel they
 * are hash_64, though hash_ptr has a return type of its own; hash32_ptr
 * folds a pointer and never changed.
 */
#define LKH_CELLS_OF_GEN_(X, g, p, what, prime32, prime64, prod32, ret64_w64,       \
			  prod64_w64, ret64_w32, prod64_w32, retptr_w64)           \
	X(g, LKH_FUNC_HASH_32, 32, lkh_##p##_hash32, LKH_RET_U32, prod32)           \
	X(g, LKH_FUNC_HASH_32, 64, lkh_##p##_hash32, LKH_RET_U32, prod32)           \
	X(g, LKH_FUNC_HASH_32_RAW, 32, lkh_##p##_hash32_raw, LKH_RET_WORD32, prod32) \
	X(g, LKH_FUNC_HASH_32_RAW, 64, lkh_##p##_hash32_raw, LKH_RET_WORD32, prod32) \
	X(g, LKH_FUNC_HASH_64, 32, lkh_##p##_hash64_w32, ret64_w32, prod64_w32)     \
	X(g, LKH_FUNC_HASH_64, 64, lkh_##p##_hash64_w64, ret64_w64, prod64_w64)     \
	X(g, LKH_FUNC_HASH_LONG, 32, lkh_##p##_hashlong_w32, LKH_RET_U32, prod32)   \
	X(g, LKH_FUNC_HASH_LONG, 64, lkh_##p##_hashlong_w64, ret64_w64, prod64_w64) \
	X(g, LKH_FUNC_HASH_PTR, 32, lkh_##p##_hashptr_w32, LKH_RET_U32, prod32)     \
	X(g, LKH_FUNC_HASH_PTR, 64, lkh_##p##_hashptr_w64, retptr_w64, prod64_w64)  \
	X(g, LKH_FUNC_HASH32_PTR, 32, lkh_##p##_hash32ptr_w32, LKH_RET_WORD32,      \
	  LKH_PRODUCT_IDENTITY32)                                                   \
	X(g, LKH_FUNC_HASH32_PTR, 64, lkh_##p##_hash32ptr_w64, LKH_RET_WORD32,      \
	  LKH_PRODUCT_FOLD64)

/**
 * @brief Every cell: X(generation, function, word size, the named
 *        function that computes it, ::lkh_ret, ::lkh_product), twelve a
 *        generation, derived from ::LKH_GENERATION_TABLE's rows.
 */
#define LKH_CELL_TABLE(X) LKH_GENERATIONS_(LKH_CELLS_OF_GEN_, X)

/**
 * @brief The product behind a cell, or -1 for an invalid triple.
 *
 * Inline, so that a counting loop can pick its arithmetic once per block.
 */
static inline int lkh_cell_product(lkh_func func, lkh_gen gen, unsigned word)
{
#define LKH_CELL_PRODUCT_(g, f, w, fn, ret, product) \
	if (gen == (g) && func == (f) && word == (w))  \
		return (int)(product);
	LKH_CELL_TABLE(LKH_CELL_PRODUCT_)
#undef LKH_CELL_PRODUCT_
	return -1;
}

/** @brief Width in bits of a product's word: 32 or 64 (0 if invalid). */
static inline unsigned lkh_product_width(int product)
{
#define LKH_PRODUCT_WIDTH_(id, width, fn, arith, k) \
	if (product == (int)(id))          \
		return width;
	LKH_PRODUCT_TABLE(LKH_PRODUCT_WIDTH_)
#undef LKH_PRODUCT_WIDTH_
	return 0;
}

/** @brief `GOLDEN_RATIO_PRIME` as a generation defined it for a word size
 *         (32 or 64), or 0 for an invalid pair. */
static inline uint64_t lkh_golden_ratio_prime(lkh_gen gen, unsigned word)
{
#define LKH_GRP_(id, name, what, prime32, prime64, ...) \
	if (gen == (id))                           \
		return word == 32 ? (uint64_t)(prime32) : word == 64 ? (uint64_t)(prime64) : 0;
	LKH_GENERATION_TABLE(LKH_GRP_)
#undef LKH_GRP_
	return 0;
}

/** @brief How a product is computed (::lkh_arith), and its multiplier. */
static inline lkh_arith lkh_product_arith(int product, uint64_t *multiplier)
{
#define LKH_PRODUCT_ARITH_(id, width, fn, arith, k) \
	if (product == (int)(id)) {                 \
		*multiplier = (k);                  \
		return arith;                       \
	}
	LKH_PRODUCT_TABLE(LKH_PRODUCT_ARITH_)
#undef LKH_PRODUCT_ARITH_
	*multiplier = 0;
	return LKH_ARITH_FOLD;
}

#ifdef __cplusplus
}
#endif

#endif /* LKH_TABLE_H */
