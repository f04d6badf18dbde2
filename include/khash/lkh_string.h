/* SPDX-License-Identifier: MIT */
/**
 * @file lkh_string.h
 * @brief libkhash: the kernel's string hashes, every generation, bit-exact:
 *        fs/namei.c's `full_name_hash()`, `hashlen_string()` and the hash of
 *        `hash_name()`, `<linux/stringhash.h>`'s `partial_name_hash()` and
 *        `end_name_hash()`, and sunrpc's `hash_str()` and `hash_mem()`.
 *
 * A kernel computes these one of three ways, its *path*: a byte at a time
 * (no `CONFIG_DCACHE_WORD_ACCESS`), or a word at a time, where the words
 * are loaded little- or big-endian, so the byte order changes the value.
 * Here every word is assembled from bytes explicitly, so the result never
 * depends on the host.  The generations, in release order, and what each
 * changed, are the rows of LKH_STRING_GENERATIONS() below (written once;
 * kernel/string-hashes.md holds the sources and what is still open).
 *
 * Explicit names (all exported from the library):
 * - `lkh_<gen>_full_name_hash_<w32|w64>_<byte|le|be>(salt, name, len)`
 * - `lkh_<gen>_hash_name_<w>_<path>(salt, name)`: hashlen of the component
 *   up to the first NUL or '/'; name[0] must be neither (the kernel's rule)
 * - `lkh_<gen>_hashlen_string_<w>_<path>(salt, name)`: v4.7 on only
 * - `lkh_<gen>_hash_str_<w>_<path>(name, bits)`,
 *   `lkh_<gen>_hash_mem_<w>_<path>(buf, len, bits)`
 * Generations before v4.8 had no salt: their names take none.  A path a
 * generation lacks here (LKH_STRING_CELLS() lists the ones it has) has no
 * names, and lkh_string_hash() answers LKH_ERR_PATH for it.
 */
#ifndef LKH_STRING_H
#define LKH_STRING_H

#include <stddef.h>
#include <stdint.h>

#include "lkh.h"

#ifdef __cplusplus
extern "C" {
#endif

/** String-hash generations, in release order (see LKH_STRING_GENERATIONS()). */
typedef enum lkh_sgen {
	LKH_SGEN_SUM = 0,     /**< to v3.16: words summed, (h + a) * 9 */
	LKH_SGEN_FOLD = 1,    /**< v3.17 .. v4.5: 64-bit fold by the old hash_64 */
	LKH_SGEN_MINIMAL = 2, /**< v4.6: 64-bit fold and sunrpc by the golden ratio */
	LKH_SGEN_MIX = 3,     /**< v4.7: two-word mix and fold, no salt */
	LKH_SGEN_SALTED = 4,  /**< v4.8 ..: salted; byte path ends by __hash_32 */
	LKH_SGEN_NEW = 5      /**< .. today: byte path ends by hash_long(h, 32) */
} lkh_sgen;

/** How the kernel reads the string. */
typedef enum lkh_spath {
	LKH_SPATH_BYTE = 0, /**< a byte at a time (no DCACHE_WORD_ACCESS) */
	LKH_SPATH_LE = 1,   /**< a word at a time, little-endian loads */
	LKH_SPATH_BE = 2    /**< a word at a time, big-endian loads */
} lkh_spath;

/** String functions. */
typedef enum lkh_sfunc {
	LKH_SFUNC_FULL_NAME_HASH = 0, /**< `full_name_hash(salt, name, len)`, u32 */
	LKH_SFUNC_HASHLEN_STRING = 1, /**< `hashlen_string(salt, name)`, hashlen */
	LKH_SFUNC_HASH_NAME = 2,      /**< `hash_name()`'s hash and length, hashlen */
	LKH_SFUNC_HASH_STR = 3,       /**< sunrpc `hash_str(name, bits)` */
	LKH_SFUNC_HASH_MEM = 4        /**< sunrpc `hash_mem(buf, len, bits)` */
} lkh_sfunc;

/** Number of lkh_sgen values. */
#define LKH_SGEN_COUNT 6
/** Number of lkh_spath values. */
#define LKH_SPATH_COUNT 3
/** Number of lkh_sfunc values. */
#define LKH_SFUNC_COUNT 5

/** @name What each generation computes (the cells of its row) */
/**@{*/
/** Word path: (h + a) * 9 per word, 64-bit fold adds the halves. */
#define LKH_SWORD_SUM_HALVES 0
/** Word path: (h + a) * 9 per word, 64-bit fold = old hash_64(h, 32). */
#define LKH_SWORD_SUM_OLD64 1
/** Word path: (h + a) * 9 per word, 64-bit fold = top 32 of h * GOLDEN_RATIO_64. */
#define LKH_SWORD_SUM_GR64 2
/** Word path: two-word HASH_MIX, fold through the golden ratio (v4.7 on). */
#define LKH_SWORD_MIX 3
/** Byte path not recovered for this generation. */
#define LKH_SEND_NONE 0
/** Byte path ends by truncating the long to 32 bits. */
#define LKH_SEND_TRUNC 1
/** Byte path ends by __hash_32((u32)h). */
#define LKH_SEND_HASH32 2
/** Byte path ends by hash_long(h, 32). */
#define LKH_SEND_HASHLONG 3
/** sunrpc packs bytes into a long, hash_long(hash ^ l, BITS_PER_LONG) per word. */
#define LKH_SRPC_PACK 0
/** sunrpc takes the top bits of hashlen_string()/full_name_hash() (NULL salt). */
#define LKH_SRPC_STRINGHASH 1
/**@}*/

/**
 * The generation table, one row a generation, in lkh_sgen order:
 * X(name, NAME, kernels, word path, byte path's end, sunrpc, hash.h
 * generation of sunrpc's hash_long, salted, what changed).
 */
#define LKH_STRING_GENERATIONS(X)                                                  \
	X(sum, SUM, "to v3.16", LKH_SWORD_SUM_HALVES, LKH_SEND_TRUNC, LKH_SRPC_PACK,     \
	  LKH_GEN_OLD, 0, "word path (h + a) * 9, 64-bit fold adds the halves")         \
	X(fold, FOLD, "v3.17..v4.5", LKH_SWORD_SUM_OLD64, LKH_SEND_TRUNC, LKH_SRPC_PACK,  \
	  LKH_GEN_OLD, 0, "64-bit word fold = hash_64(h, 32), old multiplier")          \
	X(minimal, MINIMAL, "v4.6", LKH_SWORD_SUM_GR64, LKH_SEND_TRUNC, LKH_SRPC_PACK,    \
	  LKH_GEN_MINIMAL, 0, "hash_64 by the golden ratio: 64-bit fold and sunrpc")    \
	X(mix, MIX, "v4.7", LKH_SWORD_MIX, LKH_SEND_NONE, LKH_SRPC_STRINGHASH,            \
	  LKH_GEN_NEW, 0, "two-word mix and fold; sunrpc on the name hash")             \
	X(salted, SALTED, "v4.8..v4.14 or later", LKH_SWORD_MIX, LKH_SEND_HASH32,         \
	  LKH_SRPC_STRINGHASH, LKH_GEN_NEW, 1, "salt; byte path ends by __hash_32")     \
	X(new, NEW, "v4.19 or earlier..today", LKH_SWORD_MIX, LKH_SEND_HASHLONG,             \
	  LKH_SRPC_STRINGHASH, LKH_GEN_NEW, 1, "byte path ends by hash_long(h, 32)")

/**
 * The paths each generation has here, word by word: X(gen, word, path)
 * for generations without salt and hashlen_string() (before v4.7), Y for
 * v4.7 (hashlen_string(), no salt), Z for the salted ones.  Before v4.7
 * only little-endian word loads are confirmed (v3.6 requires them); v4.7's
 * byte path's end is not established (kernel/string-hashes.md, section 9).
 */
#define LKH_STRING_CELLS(X, Y, Z)                                              \
	X(sum, w32, byte) X(sum, w64, byte) X(sum, w32, le) X(sum, w64, le)         \
	X(fold, w32, byte) X(fold, w64, byte) X(fold, w32, le) X(fold, w64, le)     \
	X(minimal, w32, byte) X(minimal, w64, byte)                                \
	X(minimal, w32, le) X(minimal, w64, le)                                    \
	Y(mix, w32, le) Y(mix, w64, le) Y(mix, w32, be) Y(mix, w64, be)             \
	Z(salted, w32, byte) Z(salted, w64, byte) Z(salted, w32, le)               \
	Z(salted, w64, le) Z(salted, w32, be) Z(salted, w64, be)                   \
	Z(new, w32, byte) Z(new, w64, byte) Z(new, w32, le) Z(new, w64, le)         \
	Z(new, w32, be) Z(new, w64, be)

/** @cond LKH_INTERNAL */
#define LKH_SWORD_T_w32 uint32_t
#define LKH_SWORD_T_w64 uint64_t
#define LKH_SNAME_(gen, fn, w, p) lkh_##gen##_##fn##_##w##_##p
/* The names of one cell; the salted forms take the salt as the kernel's
 * unsigned long (the pointer's value). */
#define LKH_SDECL_COMMON_(gen, w, p)                                           \
	LKH_API uint64_t LKH_SNAME_(gen, hash_str, w, p)(const char *name,         \
							  unsigned bits);  \
	LKH_API uint64_t LKH_SNAME_(gen, hash_mem, w, p)(const void *buf,          \
							  size_t len,      \
							  unsigned bits);
#define LKH_SDECL_UNSALTED_(gen, w, p)                                         \
	LKH_API uint32_t LKH_SNAME_(gen, full_name_hash, w, p)(const void *name,   \
								size_t len);   \
	LKH_API uint64_t LKH_SNAME_(gen, hash_name, w, p)(const char *name);       \
	LKH_SDECL_COMMON_(gen, w, p)
#define LKH_SDECL_MIX_(gen, w, p)                                              \
	LKH_SDECL_UNSALTED_(gen, w, p)                                             \
	LKH_API uint64_t LKH_SNAME_(gen, hashlen_string, w, p)(const char *name);
#define LKH_SDECL_SALTED_(gen, w, p)                                           \
	LKH_API uint32_t LKH_SNAME_(gen, full_name_hash, w, p)(                    \
		LKH_SWORD_T_##w salt, const void *name, size_t len);               \
	LKH_API uint64_t LKH_SNAME_(gen, hash_name, w, p)(LKH_SWORD_T_##w salt,    \
							   const char *name);  \
	LKH_API uint64_t LKH_SNAME_(gen, hashlen_string, w, p)(                    \
		LKH_SWORD_T_##w salt, const char *name);                           \
	LKH_SDECL_COMMON_(gen, w, p)
/** @endcond */

/**
 * @brief Every explicit name listed at the top of this file: one group of
 *        functions for each cell of LKH_STRING_CELLS(), each computing
 *        what the lkh_string_hash() of its function, generation, word and
 *        path computes (hash_str and hash_mem take @p bits 1..32, or
 *        1..BITS_PER_LONG for the packing sunrpc before v4.7).
 */
LKH_STRING_CELLS(LKH_SDECL_UNSALTED_, LKH_SDECL_MIX_, LKH_SDECL_SALTED_)

/** @brief `partial_name_hash(c, prev)` of a 32-bit kernel (every generation). */
LKH_API uint32_t lkh_partial_name_hash_w32(uint32_t c, uint32_t prev);
/** @brief `partial_name_hash(c, prev)` of a 64-bit kernel (every generation). */
LKH_API uint64_t lkh_partial_name_hash_w64(uint64_t c, uint64_t prev);

/**
 * @brief `end_name_hash(h)` of a generation and word size: the 32-bit hash
 *        a byte-path running value @p h (unsigned long; on 32-bit it must
 *        fit 32 bits) ends in.
 * @return LKH_OK; LKH_ERR_GEN, LKH_ERR_WORD, LKH_ERR_RANGE, LKH_ERR_NULL,
 *         or LKH_ERR_PATH for a generation whose end is not established.
 */
LKH_API int lkh_end_name_hash(lkh_sgen gen, unsigned word, uint64_t h, uint32_t *out);

/**
 * @brief Any string function of any generation, word size and path,
 *        checking every argument first.
 * @param func  which function
 * @param gen   which generation
 * @param word  kernel word size, 32 or 64
 * @param path  byte path, or word path with little- or big-endian loads
 * @param salt  the salt pointer's value (unsigned long): must be 0 before
 *              v4.8 and for hash_str/hash_mem (which pass NULL), and fit
 *              @p word bits
 * @param data  the bytes (may be NULL when @p len is 0)
 * @param len   full_name_hash, hash_mem: the length; hashlen_string and
 *              hash_name read up to their terminator (NUL; NUL or '/'), and
 *              the end of @p len bytes counts as a NUL
 * @param bits  hash_str, hash_mem: 1..32 (1..@p word for the packing
 *              sunrpc before v4.7); 0 for the others
 * @param out   full_name_hash: the u32; hashlen_string, hash_name: the
 *              hashlen (length << 32 | hash); hash_str, hash_mem: the
 *              unsigned long.  Untouched on error.
 * @return LKH_OK, or a negative lkh_status naming the first bad argument
 *         (LKH_ERR_PATH: the generation has no such path here;
 *         LKH_ERR_SALT: salt given where the kernel had none;
 *         LKH_ERR_NAME: hash_name of an empty component).
 */
LKH_API int lkh_string_hash(lkh_sfunc func, lkh_sgen gen, unsigned word, lkh_spath path,
			    uint64_t salt, const void *data, size_t len, unsigned bits,
			    uint64_t *out);

/** @brief Name of a string function as the kernel spells it, or NULL. */
LKH_API const char *lkh_sfunc_name(lkh_sfunc func);
/** @brief Name of a string generation (`sum` .. `new`), or NULL. */
LKH_API const char *lkh_sgen_name(lkh_sgen gen);
/** @brief The kernels a string generation covers, or NULL. */
LKH_API const char *lkh_sgen_kernels(lkh_sgen gen);
/** @brief Name of a path (`byte`, `le`, `be`), or NULL. */
LKH_API const char *lkh_spath_name(lkh_spath path);
/** @brief Parse a string function name; @return LKH_OK or LKH_ERR_FUNC. */
LKH_API int lkh_sfunc_from_name(const char *name, lkh_sfunc *func);
/** @brief Parse a string generation name; @return LKH_OK or LKH_ERR_GEN. */
LKH_API int lkh_sgen_from_name(const char *name, lkh_sgen *gen);
/** @brief Parse a path name; @return LKH_OK or LKH_ERR_PATH. */
LKH_API int lkh_spath_from_name(const char *name, lkh_spath *path);
/** @brief Whether @p gen has @p path for @p word here (1) or not (0). */
LKH_API int lkh_string_has_path(lkh_sgen gen, unsigned word, lkh_spath path);

#ifdef __cplusplus
}
#endif

#endif /* LKH_STRING_H */
