/* SPDX-License-Identifier: MIT */
/**
 * @file linux_stringhash.h
 * @brief Drop-in for kernel code ported to userspace: the kernel's own
 *        string-hash names (`full_name_hash`, `hashlen_string`,
 *        `partial_name_hash`, `init_name_hash`, `end_name_hash`,
 *        `hashlen_*`, sunrpc's `hash_str`, `hash_mem`) with the values of
 *        one chosen kernel.
 *
 * Choose before including:
 * - `LKH_LINUX_STRING_GENERATION`: `LKH_LINUX_STRING_SUM`, `_FOLD`,
 *   `_MINIMAL`, `_MIX`, `_SALTED` or `_NEW` (default), the generations of
 *   lkh_string.h.
 * - `LKH_LINUX_STRING_PATH`: `LKH_LINUX_STRING_LE` (default: word at a
 *   time, little-endian, as x86 and arm64 compute), `_BE` or `_BYTE`.
 * - `LKH_BITS_PER_LONG`: 32 or 64 (default: the build's `bits_per_long`).
 *
 * As in the chosen kernel, generations before v4.8 take no salt
 * (`full_name_hash(name, len)`, `init_name_hash()`), and `hashlen_string`
 * exists from v4.7.  A salt pointer counts as the chosen kernel's unsigned
 * long: a 32-bit kernel sees its low 32 bits.  A combination the library
 * leaves out (big-endian words before v4.7, v4.7's byte path) stops the
 * build.
 */
#ifndef LKH_LINUX_STRINGHASH_H
#define LKH_LINUX_STRINGHASH_H

#include <stddef.h>
#include <stdint.h>

#include "lkh_string.h"

/** @name Values for LKH_LINUX_STRING_GENERATION (the lkh_sgen values) */
/**@{*/
#define LKH_LINUX_STRING_SUM 0
#define LKH_LINUX_STRING_FOLD 1
#define LKH_LINUX_STRING_MINIMAL 2
#define LKH_LINUX_STRING_MIX 3
#define LKH_LINUX_STRING_SALTED 4
#define LKH_LINUX_STRING_NEW 5
/**@}*/
/** @name Values for LKH_LINUX_STRING_PATH (the lkh_spath values) */
/**@{*/
#define LKH_LINUX_STRING_BYTE 0
#define LKH_LINUX_STRING_LE 1
#define LKH_LINUX_STRING_BE 2
/**@}*/

#ifndef LKH_LINUX_STRING_GENERATION
#define LKH_LINUX_STRING_GENERATION LKH_LINUX_STRING_NEW
#endif
#ifndef LKH_LINUX_STRING_PATH
#define LKH_LINUX_STRING_PATH LKH_LINUX_STRING_LE
#endif

/* @cond LKH_INTERNAL */
#if LKH_LINUX_STRING_GENERATION == LKH_LINUX_STRING_SUM
#define LKH_LSG_(fn) lkh_sum_##fn
#elif LKH_LINUX_STRING_GENERATION == LKH_LINUX_STRING_FOLD
#define LKH_LSG_(fn) lkh_fold_##fn
#elif LKH_LINUX_STRING_GENERATION == LKH_LINUX_STRING_MINIMAL
#define LKH_LSG_(fn) lkh_minimal_##fn
#elif LKH_LINUX_STRING_GENERATION == LKH_LINUX_STRING_MIX
#define LKH_LSG_(fn) lkh_mix_##fn
#elif LKH_LINUX_STRING_GENERATION == LKH_LINUX_STRING_SALTED
#define LKH_LSG_(fn) lkh_salted_##fn
#elif LKH_LINUX_STRING_GENERATION == LKH_LINUX_STRING_NEW
#define LKH_LSG_(fn) lkh_new_##fn
#else
#error "LKH_LINUX_STRING_GENERATION must be one of LKH_LINUX_STRING_SUM .. _NEW"
#endif

#if LKH_LINUX_STRING_PATH == LKH_LINUX_STRING_BE && LKH_LINUX_STRING_GENERATION < LKH_LINUX_STRING_MIX
#error "big-endian word loads before v4.7 are not established (kernel/string-hashes.md)"
#endif
#if LKH_LINUX_STRING_PATH == LKH_LINUX_STRING_BYTE && LKH_LINUX_STRING_GENERATION == LKH_LINUX_STRING_MIX
#error "v4.7's byte path is not established (kernel/string-hashes.md)"
#endif

#if LKH_BITS_PER_LONG == 64
typedef uint64_t lkh_linux_ulong_t;
#define LKH_LSW_(fn) LKH_LSW2_(fn##_w64)
#define lkh_linux_partial_ lkh_partial_name_hash_w64
#else
typedef uint32_t lkh_linux_ulong_t;
#define LKH_LSW_(fn) LKH_LSW2_(fn##_w32)
#define lkh_linux_partial_ lkh_partial_name_hash_w32
#endif
#if LKH_LINUX_STRING_PATH == LKH_LINUX_STRING_BYTE
#define LKH_LSW2_(fn) LKH_LSG_(fn##_byte)
#elif LKH_LINUX_STRING_PATH == LKH_LINUX_STRING_LE
#define LKH_LSW2_(fn) LKH_LSG_(fn##_le)
#elif LKH_LINUX_STRING_PATH == LKH_LINUX_STRING_BE
#define LKH_LSW2_(fn) LKH_LSG_(fn##_be)
#else
#error "LKH_LINUX_STRING_PATH must be LKH_LINUX_STRING_BYTE, _LE or _BE"
#endif
#define LKH_LSALT_(salt) ((lkh_linux_ulong_t)(uintptr_t)(salt))
/* @endcond */

#ifdef __cplusplus
extern "C" {
#endif

/** `hashlen_hash()`, `hashlen_len()`, `hashlen_create()`: the u64 hash_len. */
#define hashlen_hash(hashlen) ((uint32_t)(hashlen))
/** @copydoc hashlen_hash */
#define hashlen_len(hashlen) ((uint32_t)((hashlen) >> 32))
/** @copydoc hashlen_hash */
#define hashlen_create(hash, len) ((uint64_t)(len) << 32 | (uint32_t)(hash))

/** @brief `partial_name_hash(c, prev)`: one byte into the running value. */
static inline lkh_linux_ulong_t partial_name_hash(lkh_linux_ulong_t c, lkh_linux_ulong_t prev)
{
	return lkh_linux_partial_(c, prev);
}

/** @brief `end_name_hash(h)`: the chosen generation's 32-bit end of the byte path. */
static inline uint32_t end_name_hash(lkh_linux_ulong_t hash)
{
	uint32_t out = 0;

	lkh_end_name_hash((lkh_sgen)LKH_LINUX_STRING_GENERATION, LKH_BITS_PER_LONG, hash, &out);
	return out;
}

/** @brief sunrpc `hash_str(name, bits)`. */
static inline lkh_linux_ulong_t hash_str(const char *name, int bits)
{
	return (lkh_linux_ulong_t)LKH_LSW_(hash_str)(name, (unsigned)bits);
}

/** @brief sunrpc `hash_mem(buf, length, bits)`. */
static inline lkh_linux_ulong_t hash_mem(const char *buf, int length, int bits)
{
	return (lkh_linux_ulong_t)LKH_LSW_(hash_mem)(buf, (size_t)length, (unsigned)bits);
}

#if LKH_LINUX_STRING_GENERATION >= LKH_LINUX_STRING_SALTED
/** `init_name_hash(salt)`: the salt pointer's value. */
#define init_name_hash(salt) LKH_LSALT_(salt)

/** @brief `full_name_hash(salt, name, len)`. */
static inline uint32_t full_name_hash(const void *salt, const char *name, unsigned int len)
{
	return LKH_LSW_(full_name_hash)(LKH_LSALT_(salt), name, len);
}

/** @brief `hashlen_string(salt, name)`: hash and length of a C string. */
static inline uint64_t hashlen_string(const void *salt, const char *name)
{
	return LKH_LSW_(hashlen_string)(LKH_LSALT_(salt), name);
}
#else
/** `init_name_hash()`: 0, before the salt. */
#define init_name_hash() ((lkh_linux_ulong_t)0)

/** @brief `full_name_hash(name, len)`, before the salt. */
static inline uint32_t full_name_hash(const char *name, unsigned int len)
{
	return LKH_LSW_(full_name_hash)(name, len);
}

#if LKH_LINUX_STRING_GENERATION == LKH_LINUX_STRING_MIX
/** @brief `hashlen_string(name)` of v4.7, before the salt. */
static inline uint64_t hashlen_string(const char *name)
{
	return LKH_LSW_(hashlen_string)(name);
}
#endif
#endif

#ifdef __cplusplus
}
#endif

#endif /* LKH_LINUX_STRINGHASH_H */
