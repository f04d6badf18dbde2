/* SPDX-License-Identifier: MIT */
/**
 * @file linux_hash.h
 * @brief Drop-in for kernel code ported to userspace: the kernel's own names
 *        (`hash_32`, `hash_64`, `hash_long`, `hash_ptr`, `hash32_ptr`,
 *        `GOLDEN_RATIO_*`) with the semantics of one chosen kernel.
 *
 * Choose before including:
 * - `LKH_LINUX_GENERATION`: `LKH_LINUX_OLD` (to v4.5), `LKH_LINUX_MINIMAL`
 *   (v4.6), `LKH_LINUX_POSTED` (the fix as posted, never released) or
 *   `LKH_LINUX_NEW` (default: v4.7 to today).
 * - `LKH_BITS_PER_LONG`: 32 or 64 (default: the meson option
 *   `bits_per_long` of the installed build; `auto` is the compiler's own
 *   `unsigned long`).
 * - `LKH_LINUX_RESERVED_NAMES`: also define `__hash_32()`.  Off by default
 *   because names starting with two underscores belong to the C
 *   implementation; the same function is always there as `hash_32_raw()`.
 *
 * Return types are the chosen kernel's: the old and v4.6 `hash_64()` return
 * 64 bits, the new one 32.  On a 64-bit host reproducing a 32-bit kernel,
 * `hash_ptr()` and `hash32_ptr()` see only the low 32 bits of the pointer,
 * as a 32-bit kernel would have stored it.
 *
 * Nothing here clashes with klib's `khash.h` (`kh_*`, `khash_t`,
 * `KHASH_*`): both headers can be included in one file.
 */
#ifndef LKH_LINUX_HASH_H
#define LKH_LINUX_HASH_H

#include <stdint.h>

#include "lkh.h"

/** @name Values for LKH_LINUX_GENERATION */
/**@{*/
#define LKH_LINUX_OLD 0
#define LKH_LINUX_MINIMAL 1
#define LKH_LINUX_POSTED 2
#define LKH_LINUX_NEW 3
/**@}*/

#ifndef LKH_LINUX_GENERATION
#define LKH_LINUX_GENERATION LKH_LINUX_NEW
#endif

#if LKH_LINUX_GENERATION == LKH_LINUX_OLD
#define LKH_LX_(name) lkh_old_##name
#elif LKH_LINUX_GENERATION == LKH_LINUX_MINIMAL
#define LKH_LX_(name) lkh_minimal_##name
#elif LKH_LINUX_GENERATION == LKH_LINUX_POSTED
#define LKH_LX_(name) lkh_posted_##name
#elif LKH_LINUX_GENERATION == LKH_LINUX_NEW
#define LKH_LX_(name) lkh_new_##name
#else
#error "LKH_LINUX_GENERATION must be LKH_LINUX_OLD, _MINIMAL, _POSTED or _NEW"
#endif

#if LKH_BITS_PER_LONG == 64
#define LKH_LXW_(name) LKH_LX_(name##_w64)
#else
#define LKH_LXW_(name) LKH_LX_(name##_w32)
#endif

/* The constants each generation defined, and only those: v4.6 added the
 * golden ratio beside the old primes, v4.7 dropped the primes' names. */
#if LKH_LINUX_GENERATION != LKH_LINUX_NEW
#define GOLDEN_RATIO_PRIME_32 LKH_GOLDEN_RATIO_PRIME_32
#endif
#if LKH_LINUX_GENERATION == LKH_LINUX_OLD || LKH_LINUX_GENERATION == LKH_LINUX_MINIMAL
#define GOLDEN_RATIO_PRIME_64 LKH_GOLDEN_RATIO_PRIME_64
#endif
#if LKH_LINUX_GENERATION != LKH_LINUX_OLD
#define GOLDEN_RATIO_32 LKH_GOLDEN_RATIO_32
#define GOLDEN_RATIO_64 LKH_GOLDEN_RATIO_64
#endif
#if LKH_LINUX_GENERATION == LKH_LINUX_OLD && LKH_BITS_PER_LONG == 64
#define GOLDEN_RATIO_PRIME LKH_OLD_GOLDEN_RATIO_PRIME_W64
#elif LKH_LINUX_GENERATION == LKH_LINUX_OLD
#define GOLDEN_RATIO_PRIME LKH_OLD_GOLDEN_RATIO_PRIME_W32
#elif LKH_LINUX_GENERATION == LKH_LINUX_MINIMAL && LKH_BITS_PER_LONG == 64
#define GOLDEN_RATIO_PRIME LKH_MINIMAL_GOLDEN_RATIO_PRIME_W64
#elif LKH_LINUX_GENERATION == LKH_LINUX_MINIMAL
#define GOLDEN_RATIO_PRIME LKH_MINIMAL_GOLDEN_RATIO_PRIME_W32
#elif LKH_BITS_PER_LONG == 64
#define GOLDEN_RATIO_PRIME LKH_GOLDEN_RATIO_64
#else
#define GOLDEN_RATIO_PRIME LKH_GOLDEN_RATIO_32
#endif

/*
 * Kernel return types of hash_64() and hash_ptr(): 64 bits where the chosen
 * kernel returned u64 or a 64-bit unsigned long, 32 otherwise.
 */
#if LKH_LINUX_GENERATION == LKH_LINUX_OLD || LKH_LINUX_GENERATION == LKH_LINUX_MINIMAL || \
	(LKH_LINUX_GENERATION == LKH_LINUX_POSTED && LKH_BITS_PER_LONG == 64)
typedef uint64_t lkh_linux_hash64_t;
#else
typedef uint32_t lkh_linux_hash64_t;
#endif
#if (LKH_LINUX_GENERATION == LKH_LINUX_OLD || LKH_LINUX_GENERATION == LKH_LINUX_MINIMAL) && \
	LKH_BITS_PER_LONG == 64
typedef uint64_t lkh_linux_hashptr_t;
#else
typedef uint32_t lkh_linux_hashptr_t;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** @brief `__hash_32()` of the chosen generation, under a legal name. */
static inline uint32_t hash_32_raw(uint32_t val)
{
	return LKH_LX_(hash32_raw)(val);
}

/** @brief `hash_32()`: top @p bits (1..32) of the 32-bit product. */
static inline uint32_t hash_32(uint32_t val, unsigned int bits)
{
	return LKH_LX_(hash32)(val, bits);
}

/** @brief `hash_64()` as the chosen kernel computes it for its word size. */
static inline lkh_linux_hash64_t hash_64(uint64_t val, unsigned int bits)
{
	return LKH_LXW_(hash64)(val, bits);
}

/** @brief `hash_ptr()`: hash_long() of the pointer's address. */
static inline lkh_linux_hashptr_t hash_ptr(const void *ptr, unsigned int bits)
{
#if LKH_BITS_PER_LONG == 64
	return LKH_LX_(hashptr_w64)((uint64_t)(uintptr_t)ptr, bits);
#else
	return LKH_LX_(hashptr_w32)((uint32_t)(uintptr_t)ptr, bits);
#endif
}

/** @brief `hash32_ptr()`: the pointer folded to 32 bits (barely a hash). */
static inline uint32_t hash32_ptr(const void *ptr)
{
#if LKH_BITS_PER_LONG == 64
	return LKH_LX_(hash32ptr_w64)((uint64_t)(uintptr_t)ptr);
#else
	return LKH_LX_(hash32ptr_w32)((uint32_t)(uintptr_t)ptr);
#endif
}

#ifdef __cplusplus
}
#endif

/** `hash_long()`: hash_64() or hash_32() by word size, as in the kernel. */
#if LKH_BITS_PER_LONG == 64
#define hash_long(val, bits) hash_64(val, bits)
#else
#define hash_long(val, bits) hash_32(val, bits)
#endif

#ifdef LKH_LINUX_RESERVED_NAMES
#define __hash_32(val) hash_32_raw(val)
#endif

#endif /* LKH_LINUX_HASH_H */
