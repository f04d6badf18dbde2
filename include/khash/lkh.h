/* SPDX-License-Identifier: MIT */
/**
 * @file lkh.h
 * @brief libkhash: every generation of Linux's `<linux/hash.h>`, bit-exact,
 *        for both kernel word sizes, in userspace.
 *
 * The kernel's integer hashes multiply the key by a constant and keep the top
 * @p bits of the product.  Four generations, in release order:
 *
 * | generation | kernels          | `hash_32` multiplier | 64-bit multiplier     |
 * |------------|------------------|----------------------|-----------------------|
 * | `old`      | v2.6.25 .. v4.5 (hash_long, hash_ptr: since 2.6.11) | 0x9e370001 | 0x9e37fffffffc0001 |
 * | `minimal`  | v4.6 (and the stable kernels that took it) | 0x9e370001 | 0x61C8864680B583EB on 64-bit only |
 * | `posted`   | the 2016 fix as posted (never released) | 0x9e370001 | 0x61C8864680B583EB |
 * | `new`      | v4.7 .. today    | 0x61C88647           | 0x61C8864680B583EB    |
 *
 * Every entry point is named `lkh_<gen>_<function>[_w32|_w64]`: the `_w32`
 * and `_w64` suffixes say which kernel word size (`BITS_PER_LONG`) is being
 * reproduced, so any host can answer "what does a 32-bit kernel compute?".
 * `<khash/linux_hash.h>` maps the kernel's own names onto these.
 *
 * **Modes.**  By default the hash functions are `static inline` (one multiply
 * and one shift, no call).  Define `LKH_LINK_ONLY` before including this
 * header to get plain declarations of the same functions, resolved against
 * the exported symbols of the shared or static library (for FFI, dlopen, or
 * to keep code size down).  The library compiles the very same bodies once
 * more as exported definitions (src/lkh.c defines `LKH_EXPORT_HOT`), so
 * there is one source of truth for the arithmetic.
 *
 * **bits.**  Valid: 1..32 for functions returning 32 bits, 1..64 for those
 * returning 64 bits (see lkh_bits_max()).  The kernel leaves 0 undefined (a
 * shift by the word width).  Here the fast path asserts the range in debug
 * builds (unless `NDEBUG` or `LKH_NO_ASSERT`) and otherwise stays free of
 * undefined behaviour by masking the shift count; the checked entry point
 * lkh_hash() rejects bad input with an error code instead.
 *
 * **Security.**  These are multiplicative hashes for in-memory tables whose
 * keys nobody hostile chooses.  The multiplier is odd and public, so anyone
 * can construct any number of keys that share a bucket.  For keys an attacker
 * controls use a keyed hash (the kernel's siphash/hsiphash).
 */
#ifndef LKH_H
#define LKH_H

#include <stdint.h>

#include "lkh_config.h"

/** @name Version (the single source of the version; meson.build reads it) */
/**@{*/
#define LKH_VERSION_MAJOR 0
#define LKH_VERSION_MINOR 2
#define LKH_VERSION_PATCH 0
/** Version as one comparable number: major * 10000 + minor * 100 + patch. */
#define LKH_VERSION_NUMBER \
	(LKH_VERSION_MAJOR * 10000 + LKH_VERSION_MINOR * 100 + LKH_VERSION_PATCH)
/**
 * ABI version, apart from the release version: the shared library's
 * SONAME is libkhash.so.LKH_ABI_VERSION (meson.build reads it here).  Raised
 * whenever a program built against an older header would misbehave with
 * the new library: a symbol removed or changed, an enum value renumbered
 * (1: 0.2.0 renumbered lkh_gen, LKH_GEN_NEW 2 -> 3).  tests/abi/ holds
 * the exported symbols and enum values of this ABI.
 */
#define LKH_ABI_VERSION 1
/**@}*/

#if defined(__GNUC__) && defined(LKH_BUILDING_LIBRARY)
#define LKH_API __attribute__((visibility("default")))
#else
#define LKH_API
#endif

/* Only src/lkh.c defines LKH_EXPORT_HOT: it holds the exported copies. */
#if defined(LKH_EXPORT_HOT)
#define LKH_HOT LKH_API
#define LKH_HOT_BODIES 1
#elif defined(LKH_LINK_ONLY)
#define LKH_HOT LKH_API
#define LKH_HOT_BODIES 0
#else
#define LKH_HOT static inline
#define LKH_HOT_BODIES 1
#endif

#if LKH_HOT_BODIES && !defined(NDEBUG) && !defined(LKH_NO_ASSERT)
#include <assert.h>
#define LKH_ASSERT_BITS(bits, max) assert((bits) >= 1u && (bits) <= (max))
#else
#define LKH_ASSERT_BITS(bits, max) ((void)0)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** @name Multipliers, by the kernel's names (prefixed) */
/**@{*/
/** Old 32-bit multiplier: 2^31 + 2^29 - 2^25 + 2^22 - 2^19 - 2^16 + 1. */
#define LKH_GOLDEN_RATIO_PRIME_32 UINT32_C(0x9e370001)
/** Old 64-bit multiplier: 2^63 + 2^61 - 2^57 + 2^54 - 2^51 - 2^18 + 1. */
#define LKH_GOLDEN_RATIO_PRIME_64 UINT64_C(0x9e37fffffffc0001)
/** 2^32 * (1 - phi) rounded to odd, phi = (sqrt(5) - 1) / 2 (v4.7 on). */
#define LKH_GOLDEN_RATIO_32 UINT32_C(0x61C88647)
/** 2^64 * (1 - phi), odd (posted fix and v4.7 on). */
#define LKH_GOLDEN_RATIO_64 UINT64_C(0x61C8864680B583EB)
/**@}*/

/** @name GOLDEN_RATIO_PRIME as each generation defined it, per word size */
/**@{*/
#define LKH_OLD_GOLDEN_RATIO_PRIME_W32 LKH_GOLDEN_RATIO_PRIME_32
#define LKH_OLD_GOLDEN_RATIO_PRIME_W64 LKH_GOLDEN_RATIO_PRIME_64
#define LKH_MINIMAL_GOLDEN_RATIO_PRIME_W32 LKH_GOLDEN_RATIO_PRIME_32
#define LKH_MINIMAL_GOLDEN_RATIO_PRIME_W64 LKH_GOLDEN_RATIO_PRIME_64
#define LKH_POSTED_GOLDEN_RATIO_PRIME_W32 LKH_GOLDEN_RATIO_32
#define LKH_POSTED_GOLDEN_RATIO_PRIME_W64 LKH_GOLDEN_RATIO_64
#define LKH_NEW_GOLDEN_RATIO_PRIME_W32 LKH_GOLDEN_RATIO_32
#define LKH_NEW_GOLDEN_RATIO_PRIME_W64 LKH_GOLDEN_RATIO_64
/**@}*/

/* ------------------------------------------------------------------------ */
/* Generation "old": v2.6.25 .. v4.5                                         */
/* ------------------------------------------------------------------------ */

/** @brief Old `__hash_32()`: @p val * 0x9e370001 (mod 2^32), all 32 bits. */
LKH_HOT uint32_t lkh_old_hash32_raw(uint32_t val);
/** @brief Old `hash_32()`: top @p bits (1..32) of lkh_old_hash32_raw(). */
LKH_HOT uint32_t lkh_old_hash32(uint32_t val, unsigned bits);
/** @brief Old 64-bit product @p val * 0x9e37fffffffc0001 by a multiply. */
LKH_HOT uint64_t lkh_old_hash64_raw(uint64_t val);
/**
 * @brief The same product by the shift-and-add chain 32-bit kernels (and
 *        64-bit ones without a fast multiplier) ran: six shifts, six adds.
 */
LKH_HOT uint64_t lkh_old_hash64_raw_chain(uint64_t val);
/** @brief Old `hash_64()` on a 64-bit kernel: top @p bits (1..64). */
LKH_HOT uint64_t lkh_old_hash64_w64(uint64_t val, unsigned bits);
/** @brief Old `hash_64()` on a 32-bit kernel: the chain, top @p bits (1..64). */
LKH_HOT uint64_t lkh_old_hash64_w32(uint64_t val, unsigned bits);
/** @brief Old `hash_long()` on a 64-bit kernel (= hash_64), @p bits 1..64. */
LKH_HOT uint64_t lkh_old_hashlong_w64(uint64_t val, unsigned bits);
/** @brief Old `hash_long()` on a 32-bit kernel (= hash_32), @p bits 1..32. */
LKH_HOT uint32_t lkh_old_hashlong_w32(uint32_t val, unsigned bits);
/** @brief Old `hash_ptr()` of address @p addr on a 64-bit kernel, 1..64. */
LKH_HOT uint64_t lkh_old_hashptr_w64(uint64_t addr, unsigned bits);
/** @brief Old `hash_ptr()` of address @p addr on a 32-bit kernel, 1..32. */
LKH_HOT uint32_t lkh_old_hashptr_w32(uint32_t addr, unsigned bits);
/** @brief `hash32_ptr()` on a 64-bit kernel: the two halves XORed (a fold). */
LKH_HOT uint32_t lkh_old_hash32ptr_w64(uint64_t addr);
/** @brief `hash32_ptr()` on a 32-bit kernel: the address itself. */
LKH_HOT uint32_t lkh_old_hash32ptr_w32(uint32_t addr);

/* ------------------------------------------------------------------------ */
/* Generation "minimal": v4.6, "Minimal fix-up of bad hashing behavior of    */
/* hash_64()" (689de1d6ca95): the golden ratio for 64-bit hash_64 only      */
/* ------------------------------------------------------------------------ */

/** @brief Minimal `__hash_32()` (the multiply hash_32 shifts): old multiplier. */
LKH_HOT uint32_t lkh_minimal_hash32_raw(uint32_t val);
/** @brief Minimal `hash_32()`: unchanged, top @p bits (1..32) of val * 0x9e370001. */
LKH_HOT uint32_t lkh_minimal_hash32(uint32_t val, unsigned bits);
/** @brief Minimal 64-bit product on a 64-bit kernel: @p val * GR64. */
LKH_HOT uint64_t lkh_minimal_hash64_raw_w64(uint64_t val);
/** @brief Minimal 64-bit product on a 32-bit kernel: the old chain, unchanged. */
LKH_HOT uint64_t lkh_minimal_hash64_raw_w32(uint64_t val);
/** @brief Minimal `hash_64()`, 64-bit: top @p bits (1..64) of val * GR64, a u64. */
LKH_HOT uint64_t lkh_minimal_hash64_w64(uint64_t val, unsigned bits);
/** @brief Minimal `hash_64()`, 32-bit: the old chain's top @p bits (1..64). */
LKH_HOT uint64_t lkh_minimal_hash64_w32(uint64_t val, unsigned bits);
/** @brief Minimal `hash_long()`, 64-bit (= hash_64), @p bits 1..64. */
LKH_HOT uint64_t lkh_minimal_hashlong_w64(uint64_t val, unsigned bits);
/** @brief Minimal `hash_long()`, 32-bit (= the old hash_32), @p bits 1..32. */
LKH_HOT uint32_t lkh_minimal_hashlong_w32(uint32_t val, unsigned bits);
/** @brief Minimal `hash_ptr()`, 64-bit: unsigned long, @p bits 1..64. */
LKH_HOT uint64_t lkh_minimal_hashptr_w64(uint64_t addr, unsigned bits);
/** @brief Minimal `hash_ptr()`, 32-bit (= the old hash_32), @p bits 1..32. */
LKH_HOT uint32_t lkh_minimal_hashptr_w32(uint32_t addr, unsigned bits);
/** @brief `hash32_ptr()` on a 64-bit kernel (unchanged). */
LKH_HOT uint32_t lkh_minimal_hash32ptr_w64(uint64_t addr);
/** @brief `hash32_ptr()` on a 32-bit kernel (unchanged). */
LKH_HOT uint32_t lkh_minimal_hash32ptr_w32(uint32_t addr);

/* ------------------------------------------------------------------------ */
/* Generation "posted": the 2016 fix exactly as posted to the list           */
/* ------------------------------------------------------------------------ */

/** @brief Posted `__hash_32()`: unchanged, @p val * 0x9e370001. */
LKH_HOT uint32_t lkh_posted_hash32_raw(uint32_t val);
/** @brief Posted `hash_32()`: top @p bits (1..32), old multiplier kept. */
LKH_HOT uint32_t lkh_posted_hash32(uint32_t val, unsigned bits);
/** @brief Posted `__hash_64()`, 64-bit: @p val * GR64 (mod 2^64). */
LKH_HOT uint64_t lkh_posted_hash64_raw_w64(uint64_t val);
/** @brief Posted 32-bit `hash_64()` before its shift: the whole 32-bit word. */
LKH_HOT uint32_t lkh_posted_hash64_raw_w32(uint64_t val);
/** @brief Posted `hash_64()`, 64-bit: top @p bits (1..64) of val * GR64. */
LKH_HOT uint64_t lkh_posted_hash64_w64(uint64_t val, unsigned bits);
/**
 * @brief Posted `hash_64()`, 32-bit: `(hi * GR32 + lo) * GR32` in 32-bit
 *        arithmetic, top @p bits (1..32).
 */
LKH_HOT uint32_t lkh_posted_hash64_w32(uint64_t val, unsigned bits);
/** @brief Posted `hash_long()`, 64-bit (= hash_64), @p bits 1..64. */
LKH_HOT uint64_t lkh_posted_hashlong_w64(uint64_t val, unsigned bits);
/** @brief Posted `hash_long()`, 32-bit (= hash_32), @p bits 1..32. */
LKH_HOT uint32_t lkh_posted_hashlong_w32(uint32_t val, unsigned bits);
/** @brief Posted `hash_ptr()`, 64-bit: returns u32, so @p bits 1..32. */
LKH_HOT uint32_t lkh_posted_hashptr_w64(uint64_t addr, unsigned bits);
/** @brief Posted `hash_ptr()`, 32-bit (= hash_32 of the address), 1..32. */
LKH_HOT uint32_t lkh_posted_hashptr_w32(uint32_t addr, unsigned bits);
/** @brief `hash32_ptr()` on a 64-bit kernel (unchanged by the fix). */
LKH_HOT uint32_t lkh_posted_hash32ptr_w64(uint64_t addr);
/** @brief `hash32_ptr()` on a 32-bit kernel (unchanged by the fix). */
LKH_HOT uint32_t lkh_posted_hash32ptr_w32(uint32_t addr);

/* ------------------------------------------------------------------------ */
/* Generation "new": v4.7 .. today (Linux 6.1 included)                      */
/* ------------------------------------------------------------------------ */

/** @brief New `__hash_32()`: @p val * 0x61C88647 (mod 2^32). */
LKH_HOT uint32_t lkh_new_hash32_raw(uint32_t val);
/** @brief New `hash_32()`: top @p bits (1..32) of lkh_new_hash32_raw(). */
LKH_HOT uint32_t lkh_new_hash32(uint32_t val, unsigned bits);
/** @brief New 64-bit product @p val * GR64 that 64-bit `hash_64()` shifts. */
LKH_HOT uint64_t lkh_new_hash64_raw_w64(uint64_t val);
/** @brief New 32-bit `hash_64()` before its shift: `__hash_32(lo ^ __hash_32(hi))`. */
LKH_HOT uint32_t lkh_new_hash64_raw_w32(uint64_t val);
/** @brief New `hash_64()`, 64-bit: top @p bits (1..32) of val * GR64. */
LKH_HOT uint32_t lkh_new_hash64_w64(uint64_t val, unsigned bits);
/**
 * @brief New `hash_64()`, 32-bit: `hash_32(lo ^ __hash_32(hi), bits)`,
 *        @p bits 1..32.  Differs from the 64-bit result for the same input.
 */
LKH_HOT uint32_t lkh_new_hash64_w32(uint64_t val, unsigned bits);
/** @brief New `hash_long()`, 64-bit (= hash_64), @p bits 1..32. */
LKH_HOT uint32_t lkh_new_hashlong_w64(uint64_t val, unsigned bits);
/** @brief New `hash_long()`, 32-bit (= hash_32), @p bits 1..32. */
LKH_HOT uint32_t lkh_new_hashlong_w32(uint32_t val, unsigned bits);
/** @brief New `hash_ptr()`, 64-bit, @p bits 1..32. */
LKH_HOT uint32_t lkh_new_hashptr_w64(uint64_t addr, unsigned bits);
/** @brief New `hash_ptr()`, 32-bit, @p bits 1..32. */
LKH_HOT uint32_t lkh_new_hashptr_w32(uint32_t addr, unsigned bits);
/** @brief `hash32_ptr()` on a 64-bit kernel: `(u32)(addr ^ (addr >> 32))`. */
LKH_HOT uint32_t lkh_new_hash32ptr_w64(uint64_t addr);
/** @brief `hash32_ptr()` on a 32-bit kernel: the address itself. */
LKH_HOT uint32_t lkh_new_hash32ptr_w32(uint32_t addr);

/* ------------------------------------------------------------------------ */
/* Checked, table-driven entry points (always in the library)                */
/* ------------------------------------------------------------------------ */

/** Kernel generations, in release order (changed in 0.2.0: minimal is 1). */
typedef enum lkh_gen {
	LKH_GEN_OLD = 0,     /**< v2.6.25 .. v4.5 */
	LKH_GEN_MINIMAL = 1, /**< v4.6: the minimal fix of 64-bit hash_64 */
	LKH_GEN_POSTED = 2,  /**< the 2016 fix as posted, never released */
	LKH_GEN_NEW = 3      /**< v4.7 .. today */
} lkh_gen;

/** Kernel functions. */
typedef enum lkh_func {
	LKH_FUNC_HASH_32 = 0,     /**< `hash_32(u32, bits)` */
	LKH_FUNC_HASH_32_RAW = 1, /**< `__hash_32(u32)`, takes no bits */
	LKH_FUNC_HASH_64 = 2,     /**< `hash_64(u64, bits)` */
	LKH_FUNC_HASH_LONG = 3,   /**< `hash_long(unsigned long, bits)` */
	LKH_FUNC_HASH_PTR = 4,    /**< `hash_ptr(const void *, bits)` */
	LKH_FUNC_HASH32_PTR = 5   /**< `hash32_ptr(const void *)`, no bits */
} lkh_func;

/** Number of lkh_gen values. */
#define LKH_GEN_COUNT 4
/** Number of lkh_func values. */
#define LKH_FUNC_COUNT 6

/** Status codes of the checked entry points (0 is success). */
typedef enum lkh_status {
	LKH_OK = 0,
	LKH_ERR_FUNC = -1,  /**< unknown function */
	LKH_ERR_GEN = -2,   /**< unknown generation */
	LKH_ERR_WORD = -3,  /**< word size other than 32 or 64 */
	LKH_ERR_BITS = -4,  /**< bits outside the function's range */
	LKH_ERR_RANGE = -5, /**< input wider than the function's argument */
	LKH_ERR_NULL = -6,  /**< a required output pointer was NULL */
	LKH_ERR_PATH = -7,  /**< string hashes: no such path in that generation */
	LKH_ERR_SALT = -8,  /**< string hashes: a salt where the kernel had none */
	LKH_ERR_NAME = -9   /**< string hashes: hash_name of an empty component */
} lkh_status;

/**
 * @brief Hash @p val with any function, generation and word size, checking
 *        every argument first.
 * @param func  which kernel function
 * @param gen   which generation
 * @param word  kernel word size to reproduce, 32 or 64
 * @param val   the key; for 32-bit arguments (hash_32, and hash_long,
 *              hash_ptr, hash32_ptr when @p word is 32) it must fit 32 bits
 * @param bits  output bits: 1..lkh_bits_max(); must be 0 for functions that
 *              take none (`__hash_32`, `hash32_ptr`)
 * @param out   receives the result, zero-extended; untouched on error
 * @return LKH_OK, or a negative lkh_status naming the first bad argument.
 */
LKH_API int lkh_hash(lkh_func func, lkh_gen gen, unsigned word, uint64_t val,
		     unsigned bits, uint64_t *out);

/**
 * @brief Largest valid @p bits for a function: 32 or 64 by the width of
 *        what the kernel returned, 0 for functions without @p bits or for
 *        an invalid combination.
 */
LKH_API unsigned lkh_bits_max(lkh_func func, lkh_gen gen, unsigned word);

/**
 * @brief The whole word a function takes its top bits from, and its width.
 *
 * For every function with @p bits, the result for bits = b is
 * `full >> (width - b)`; a histogram for b bits is therefore the sum of
 * adjacent buckets of one for more bits.  (For new `hash_64` on a 64-bit
 * kernel width is 64, and b stays within 1..32.)
 * @return LKH_OK, or a negative lkh_status.
 */
LKH_API int lkh_hash_full(lkh_func func, lkh_gen gen, unsigned word,
			  uint64_t val, uint64_t *full, unsigned *width);

/** @brief Width in bits of @p func's argument for @p word (32 or 64), or 0. */
LKH_API unsigned lkh_input_bits(lkh_func func, unsigned word);

/** @brief Name of a function as the kernel spells it, or NULL. */
LKH_API const char *lkh_func_name(lkh_func func);
/** @brief Name of a generation (`old`, `minimal`, `posted`, `new`), or NULL. */
LKH_API const char *lkh_gen_name(lkh_gen gen);
/** @brief Parse a function name; @return LKH_OK or LKH_ERR_FUNC. */
LKH_API int lkh_func_from_name(const char *name, lkh_func *func);
/** @brief Parse a generation name; @return LKH_OK or LKH_ERR_GEN. */
LKH_API int lkh_gen_from_name(const char *name, lkh_gen *gen);
/** @brief A short English description of a lkh_status value. */
LKH_API const char *lkh_strerror(int status);

/** @brief `BITS_PER_LONG` the library was built for (32 or 64). */
LKH_API unsigned lkh_bits_per_long(void);
/** @brief Runtime version, as LKH_VERSION_NUMBER of the built library. */
LKH_API unsigned lkh_version_number(void);
/** @brief Runtime version as "major.minor.patch". */
LKH_API const char *lkh_version_string(void);
/** @brief ABI version of the built library, as LKH_ABI_VERSION: a program
 *  may compare the two at start-up. */
LKH_API unsigned lkh_abi_version(void);

/* ------------------------------------------------------------------------ */
/* Bodies: inline by default, exported when building the library             */
/* ------------------------------------------------------------------------ */
#if LKH_HOT_BODIES

/*
 * Keep the top bits.  For bits in range, (W - bits) & (W - 1) == W - bits;
 * the mask only matters for bits == 0 or > W, where it keeps the shift
 * defined.  It costs nothing: x86 and arm64 shifts mask the count anyway.
 */
static inline uint32_t lkh_top32_(uint32_t h, unsigned bits)
{
	LKH_ASSERT_BITS(bits, 32u);
	return h >> ((32u - bits) & 31u);
}

static inline uint64_t lkh_top64_(uint64_t h, unsigned bits)
{
	LKH_ASSERT_BITS(bits, 64u);
	return h >> ((64u - bits) & 63u);
}

/* A pointer folded to 32 bits; no generation changed it. */
static inline uint32_t lkh_fold32_(uint64_t addr)
{
	return (uint32_t)(addr ^ (addr >> 32));
}

/* old */

LKH_HOT uint32_t lkh_old_hash32_raw(uint32_t val)
{
	return (uint32_t)(val * LKH_GOLDEN_RATIO_PRIME_32);
}

LKH_HOT uint32_t lkh_old_hash32(uint32_t val, unsigned bits)
{
	return lkh_top32_(lkh_old_hash32_raw(val), bits);
}

LKH_HOT uint64_t lkh_old_hash64_raw(uint64_t val)
{
	return val * LKH_GOLDEN_RATIO_PRIME_64;
}

LKH_HOT uint64_t lkh_old_hash64_raw_chain(uint64_t val)
{
	/*
	 * The terms of 2^63 + 2^61 - 2^57 + 2^54 - 2^51 - 2^18 + 1, lowest
	 * first, with one running shifted copy of the key: the form that let
	 * machines without a multiplier compute the product.
	 */
	uint64_t sum = val;
	uint64_t term = val << 18;

	sum -= term;		/* - 2^18 */
	term <<= 51 - 18;
	sum -= term;		/* - 2^51 */
	term <<= 54 - 51;
	sum += term;		/* + 2^54 */
	term <<= 57 - 54;
	sum -= term;		/* - 2^57 */
	term <<= 61 - 57;
	sum += term;		/* + 2^61 */
	term <<= 63 - 61;
	sum += term;		/* + 2^63 */
	return sum;
}

LKH_HOT uint64_t lkh_old_hash64_w64(uint64_t val, unsigned bits)
{
	return lkh_top64_(lkh_old_hash64_raw(val), bits);
}

LKH_HOT uint64_t lkh_old_hash64_w32(uint64_t val, unsigned bits)
{
	return lkh_top64_(lkh_old_hash64_raw_chain(val), bits);
}

LKH_HOT uint64_t lkh_old_hashlong_w64(uint64_t val, unsigned bits)
{
	return lkh_old_hash64_w64(val, bits);
}

LKH_HOT uint32_t lkh_old_hashlong_w32(uint32_t val, unsigned bits)
{
	return lkh_old_hash32(val, bits);
}

LKH_HOT uint64_t lkh_old_hashptr_w64(uint64_t addr, unsigned bits)
{
	return lkh_old_hash64_w64(addr, bits);
}

LKH_HOT uint32_t lkh_old_hashptr_w32(uint32_t addr, unsigned bits)
{
	return lkh_old_hash32(addr, bits);
}

LKH_HOT uint32_t lkh_old_hash32ptr_w64(uint64_t addr)
{
	return lkh_fold32_(addr);
}

LKH_HOT uint32_t lkh_old_hash32ptr_w32(uint32_t addr)
{
	return addr;
}

/* minimal */

LKH_HOT uint32_t lkh_minimal_hash32_raw(uint32_t val)
{
	return (uint32_t)(val * LKH_GOLDEN_RATIO_PRIME_32);
}

LKH_HOT uint32_t lkh_minimal_hash32(uint32_t val, unsigned bits)
{
	return lkh_top32_(lkh_minimal_hash32_raw(val), bits);
}

LKH_HOT uint64_t lkh_minimal_hash64_raw_w64(uint64_t val)
{
	return val * LKH_GOLDEN_RATIO_64;
}

LKH_HOT uint64_t lkh_minimal_hash64_raw_w32(uint64_t val)
{
	/* 32-bit kernels kept the chain: the fix was for 64-bit ones */
	return lkh_old_hash64_raw_chain(val);
}

LKH_HOT uint64_t lkh_minimal_hash64_w64(uint64_t val, unsigned bits)
{
	return lkh_top64_(lkh_minimal_hash64_raw_w64(val), bits);
}

LKH_HOT uint64_t lkh_minimal_hash64_w32(uint64_t val, unsigned bits)
{
	return lkh_top64_(lkh_minimal_hash64_raw_w32(val), bits);
}

LKH_HOT uint64_t lkh_minimal_hashlong_w64(uint64_t val, unsigned bits)
{
	return lkh_minimal_hash64_w64(val, bits);
}

LKH_HOT uint32_t lkh_minimal_hashlong_w32(uint32_t val, unsigned bits)
{
	return lkh_minimal_hash32(val, bits);
}

LKH_HOT uint64_t lkh_minimal_hashptr_w64(uint64_t addr, unsigned bits)
{
	return lkh_minimal_hash64_w64(addr, bits);
}

LKH_HOT uint32_t lkh_minimal_hashptr_w32(uint32_t addr, unsigned bits)
{
	return lkh_minimal_hash32(addr, bits);
}

LKH_HOT uint32_t lkh_minimal_hash32ptr_w64(uint64_t addr)
{
	return lkh_fold32_(addr);
}

LKH_HOT uint32_t lkh_minimal_hash32ptr_w32(uint32_t addr)
{
	return addr;
}

/* posted */

LKH_HOT uint32_t lkh_posted_hash32_raw(uint32_t val)
{
	return (uint32_t)(val * LKH_GOLDEN_RATIO_PRIME_32);
}

LKH_HOT uint32_t lkh_posted_hash32(uint32_t val, unsigned bits)
{
	return lkh_top32_(lkh_posted_hash32_raw(val), bits);
}

LKH_HOT uint64_t lkh_posted_hash64_raw_w64(uint64_t val)
{
	return val * LKH_GOLDEN_RATIO_64;
}

LKH_HOT uint32_t lkh_posted_hash64_raw_w32(uint64_t val)
{
	/* Two 32-bit multiplies: what a 32-bit CPU does cheaply. */
	uint32_t h = (uint32_t)((uint32_t)(val >> 32) * LKH_GOLDEN_RATIO_32);

	h = (uint32_t)(h + (uint32_t)val);
	return (uint32_t)(h * LKH_GOLDEN_RATIO_32);
}

LKH_HOT uint64_t lkh_posted_hash64_w64(uint64_t val, unsigned bits)
{
	return lkh_top64_(lkh_posted_hash64_raw_w64(val), bits);
}

LKH_HOT uint32_t lkh_posted_hash64_w32(uint64_t val, unsigned bits)
{
	return lkh_top32_(lkh_posted_hash64_raw_w32(val), bits);
}

LKH_HOT uint64_t lkh_posted_hashlong_w64(uint64_t val, unsigned bits)
{
	return lkh_posted_hash64_w64(val, bits);
}

LKH_HOT uint32_t lkh_posted_hashlong_w32(uint32_t val, unsigned bits)
{
	return lkh_posted_hash32(val, bits);
}

LKH_HOT uint32_t lkh_posted_hashptr_w64(uint64_t addr, unsigned bits)
{
	LKH_ASSERT_BITS(bits, 32u);
	return (uint32_t)lkh_posted_hash64_w64(addr, bits);
}

LKH_HOT uint32_t lkh_posted_hashptr_w32(uint32_t addr, unsigned bits)
{
	return lkh_posted_hash32(addr, bits);
}

LKH_HOT uint32_t lkh_posted_hash32ptr_w64(uint64_t addr)
{
	return lkh_fold32_(addr);
}

LKH_HOT uint32_t lkh_posted_hash32ptr_w32(uint32_t addr)
{
	return addr;
}

/* new */

LKH_HOT uint32_t lkh_new_hash32_raw(uint32_t val)
{
	return (uint32_t)(val * LKH_GOLDEN_RATIO_32);
}

LKH_HOT uint32_t lkh_new_hash32(uint32_t val, unsigned bits)
{
	return lkh_top32_(lkh_new_hash32_raw(val), bits);
}

LKH_HOT uint64_t lkh_new_hash64_raw_w64(uint64_t val)
{
	return val * LKH_GOLDEN_RATIO_64;
}

LKH_HOT uint32_t lkh_new_hash64_raw_w32(uint64_t val)
{
	uint32_t hi = (uint32_t)(val >> 32);

	return lkh_new_hash32_raw((uint32_t)val ^ lkh_new_hash32_raw(hi));
}

LKH_HOT uint32_t lkh_new_hash64_w64(uint64_t val, unsigned bits)
{
	/* The kernel returns u32: bits above 32 would be cut off. */
	LKH_ASSERT_BITS(bits, 32u);
	return (uint32_t)lkh_top64_(lkh_new_hash64_raw_w64(val), bits);
}

LKH_HOT uint32_t lkh_new_hash64_w32(uint64_t val, unsigned bits)
{
	return lkh_top32_(lkh_new_hash64_raw_w32(val), bits);
}

LKH_HOT uint32_t lkh_new_hashlong_w64(uint64_t val, unsigned bits)
{
	return lkh_new_hash64_w64(val, bits);
}

LKH_HOT uint32_t lkh_new_hashlong_w32(uint32_t val, unsigned bits)
{
	return lkh_new_hash32(val, bits);
}

LKH_HOT uint32_t lkh_new_hashptr_w64(uint64_t addr, unsigned bits)
{
	return lkh_new_hash64_w64(addr, bits);
}

LKH_HOT uint32_t lkh_new_hashptr_w32(uint32_t addr, unsigned bits)
{
	return lkh_new_hash32(addr, bits);
}

LKH_HOT uint32_t lkh_new_hash32ptr_w64(uint64_t addr)
{
	return lkh_fold32_(addr);
}

LKH_HOT uint32_t lkh_new_hash32ptr_w32(uint32_t addr)
{
	return addr;
}

#endif /* LKH_HOT_BODIES */

#ifdef __cplusplus
}
#endif

#endif /* LKH_H */
