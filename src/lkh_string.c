/* SPDX-License-Identifier: MIT */
/*
 * The kernel's string hashes (include/khash/lkh_string.h), written from
 * what each generation computes (kernel/string-hashes.md).  One engine per
 * path: every explicit name and lkh_string_hash() end up in string_eval().
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "khash/lkh_string.h"

/* ---- the generation table, as data ------------------------------------- */

struct sgen_row {
	const char *name, *kernels;
	int word, end, rpc;
	lkh_gen rpc_gen; /* hash.h generation of the packing sunrpc's hash_long */
	int salted;
};

#define SGEN_ROW(n, N, kernels, word, end, rpc, rpc_gen, salted, what) \
	{#n, kernels, word, end, rpc, rpc_gen, salted},
static const struct sgen_row sgen_rows[LKH_SGEN_COUNT] = {
	LKH_STRING_GENERATIONS(SGEN_ROW)};
#undef SGEN_ROW

/* The names of the cells' tokens, for the wrappers below. */
#define SGEN_ENUM(n, N, ...) sgen_##n = LKH_SGEN_##N,
enum { LKH_STRING_GENERATIONS(SGEN_ENUM) sgen_end_ };
#undef SGEN_ENUM
enum { word_w32 = 32, word_w64 = 64 };
enum { path_byte = LKH_SPATH_BYTE, path_le = LKH_SPATH_LE, path_be = LKH_SPATH_BE };

static uint64_t word_mask(unsigned w)
{
	return w == 64 ? UINT64_MAX : UINT64_C(0xffffffff);
}

/* Each explicit name below is one cell: its generation, word and path
 * are constants, and the engine inlined into it folds them away (the
 * 4-byte name's word path ran 3x slower through the generic calls). */
#if defined(__GNUC__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static inline
#endif

/* ---- reading the string: blocks of one word ----------------------------- */

enum stop { STOP_LEN, STOP_NUL, STOP_NUL_SLASH };

struct scan {
	const unsigned char *p;
	size_t left; /* bytes that may still be read */
	enum stop stop;
	int ended;   /* a terminator (or the end of left) was met */
};

/*
 * Take up to @max payload bytes: fewer only when the terminator (or the
 * end of the bytes allowed) comes first.  A block of @max bytes is a full
 * word; the kernel's masked last word is the shorter block after them
 * (0..max-1 bytes, so a name of whole words ends with an empty block).
 */
static unsigned take(struct scan *s, unsigned max, unsigned char *out)
{
	unsigned n = 0;

	while (n < max && !s->ended) {
		unsigned char c;

		if (s->left == 0) {
			s->ended = 1;
			break;
		}
		c = *s->p;
		if ((s->stop != STOP_LEN && c == 0) || (s->stop == STOP_NUL_SLASH && c == '/')) {
			s->ended = 1;
			break;
		}
		out[n++] = c;
		s->p++;
		s->left--;
	}
	return n;
}

/* The word a block of @n bytes loads as, the bytes after it zero. */
static uint64_t load(const unsigned char *b, unsigned n, unsigned w, int big_endian)
{
	uint64_t a = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		a |= (uint64_t)b[i] << (big_endian ? w - 8 - 8 * i : 8 * i);
	return a;
}

/*
 * A whole word of @w bits as a kernel of that byte order loads it: one
 * load where the host's order is known, then a swap if it is the other
 * (full_name_hash's words run at the speed of the kernel's this way).
 */
INLINE uint64_t load_word(const unsigned char *p, unsigned w, int big_endian)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && defined(__GNUC__)
	const int host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

	if (w == 64) {
		uint64_t v;

		memcpy(&v, p, sizeof(v));
		return host_big == big_endian ? v : __builtin_bswap64(v);
	} else {
		uint32_t v;

		memcpy(&v, p, sizeof(v));
		return host_big == big_endian ? v : __builtin_bswap32(v);
	}
#else
	return load(p, w / 8, w, big_endian);
#endif
}

/* ---- word path ---------------------------------------------------------- */

static uint64_t rotl(uint64_t v, unsigned r, unsigned w)
{
	return ((v << r) | (v >> (w - r))) & word_mask(w);
}

/* v4.7's two-word mix: the rotations are 12, 45 on 64-bit, 7, 20 on 32. */
INLINE void hash_mix(uint64_t *x, uint64_t *y, uint64_t a, unsigned w)
{
	*x ^= a;
	*y ^= *x;
	*x = rotl(*x, w == 64 ? 12 : 7, w);
	*x = (*x + *y) & word_mask(w);
	*y = rotl(*y, w == 64 ? 45 : 20, w);
	*y = (*y * 9) & word_mask(w);
}

INLINE uint32_t fold_mix(uint64_t x, uint64_t y, unsigned w)
{
	if (w == 32)
		return lkh_new_hash32_raw((uint32_t)y ^ lkh_new_hash32_raw((uint32_t)x));
	y ^= x * LKH_GOLDEN_RATIO_64;
	y *= LKH_GOLDEN_RATIO_64;
	return (uint32_t)(y >> 32);
}

/* Before v4.7 one sum; a 32-bit kernel's fold was the sum itself. */
static uint32_t fold_sum(uint64_t h, unsigned w, int kind)
{
	if (w == 32)
		return (uint32_t)h;
	switch (kind) {
	case LKH_SWORD_SUM_HALVES:
		return (uint32_t)(h + (h >> 32));
	case LKH_SWORD_SUM_OLD64:
		return (uint32_t)lkh_old_hash64_w64(h, 32);
	default:
		return (uint32_t)lkh_minimal_hash64_w64(h, 32);
	}
}

/* One whole word into the state: v4.7's mix, or before it a sum times 9. */
INLINE void word_step(uint64_t *x, uint64_t *y, uint64_t a, unsigned w, int kind)
{
	if (kind == LKH_SWORD_MIX) {
		hash_mix(x, y, a, w);
	} else {
		*x = (*x + a) & word_mask(w);
		*x = (*x * 9) & word_mask(w);
	}
}

/* The word path's hash of what @s yields; *len gets its length. */
INLINE uint32_t word_hash(struct scan *s, unsigned w, int big_endian, int kind,
			  uint64_t salt, size_t *len)
{
	unsigned char b[8];
	unsigned B = w / 8, n;
	uint64_t x = 0, y = salt & word_mask(w), a;

	*len = 0;
	/* a length-bounded name: its whole words straight from memory */
	while (s->stop == STOP_LEN && s->left >= B) {
		word_step(&x, &y, load_word(s->p, w, big_endian), w, kind);
		s->p += B;
		s->left -= B;
		*len += B;
	}
	if (s->stop == STOP_LEN) {
		/* its tail, shorter than a word (maybe empty), the bytes
		 * after it zero, as the kernel masks its last load: the
		 * name's last word shifted, where it had one (bytes stored
		 * and loaded again as a word would stall), else byte by byte */
		n = (unsigned)s->left;
		if (n == 0) {
			a = 0;
		} else if (*len >= B) {
			uint64_t last = load_word(s->p + n - B, w, big_endian);
			unsigned drop = 8 * (B - n);

			a = big_endian ? (last << drop) & word_mask(w) : last >> drop;
		} else {
			a = load(s->p, n, w, big_endian);
		}
	} else {
		/* the rest a block at a time, up to the last, shorter one */
		while ((n = take(s, B, b)) == B) {
			word_step(&x, &y, load(b, n, w, big_endian), w, kind);
			*len += n;
		}
		a = load(b, n, w, big_endian);
	}
	*len += n;
	if (kind == LKH_SWORD_MIX)
		return fold_mix(x ^ a, y, w);
	return fold_sum((x + a) & word_mask(w), w, kind);
}

/* ---- byte path ---------------------------------------------------------- */

LKH_API uint32_t lkh_partial_name_hash_w32(uint32_t c, uint32_t prev)
{
	return (uint32_t)((prev + (c << 4) + (c >> 4)) * 11u);
}

LKH_API uint64_t lkh_partial_name_hash_w64(uint64_t c, uint64_t prev)
{
	return (prev + (c << 4) + (c >> 4)) * 11u;
}

INLINE uint32_t end_name(int end, unsigned w, uint64_t h)
{
	switch (end) {
	case LKH_SEND_TRUNC:
		return (uint32_t)h;
	case LKH_SEND_HASH32:
		return lkh_new_hash32_raw((uint32_t)h);
	default: /* hash_long(h, 32) */
		return w == 64 ? lkh_new_hash64_w64(h, 32) : lkh_new_hash32((uint32_t)h, 32);
	}
}

INLINE uint32_t byte_hash(struct scan *s, unsigned w, int end, uint64_t salt, size_t *len)
{
	unsigned char c;
	uint64_t h = salt & word_mask(w);

	*len = 0;
	if (s->stop == STOP_LEN && w == 64) {
		/* a length-bounded name: the kernel's byte loop, as it is */
		const unsigned char *p = s->p;
		size_t i;

		for (i = 0; i < s->left; i++)
			h = lkh_partial_name_hash_w64(p[i], h);
		*len = s->left;
		return end_name(end, w, h);
	}
	while (take(s, 1, &c)) {
		h = w == 64 ? lkh_partial_name_hash_w64(c, h)
			    : lkh_partial_name_hash_w32(c, (uint32_t)h);
		++*len;
	}
	return end_name(end, w, h);
}

/* ---- sunrpc before v4.7: bytes packed into a long ------------------------ */

static uint64_t rpc_hash_long(lkh_gen gen, unsigned w, uint64_t v)
{
	if (w == 32)
		return gen == LKH_GEN_OLD ? lkh_old_hashlong_w32((uint32_t)v, 32)
					  : lkh_minimal_hashlong_w32((uint32_t)v, 32);
	return gen == LKH_GEN_OLD ? lkh_old_hashlong_w64(v, 64) : lkh_minimal_hashlong_w64(v, 64);
}

/*
 * A long @l collects the bytes, first byte highest, never cleared (older
 * bytes drop off its top); after every word's worth hash = hash_long(hash
 * ^ l).  At the end the length's low byte goes in as one more byte, and
 * the step after it always hashes.
 */
static uint64_t rpc_pack(struct scan *s, lkh_gen gen, unsigned w)
{
	unsigned B = w / 8;
	uint64_t hash = 0, l = 0, count = 0;
	unsigned char c;
	int last = 0;

	while (!last) {
		if (!take(s, 1, &c)) {
			c = (unsigned char)count;
			last = 1;
		}
		l = ((l << 8) | c) & word_mask(w);
		count++;
		if (last || count % B == 0)
			hash = rpc_hash_long(gen, w, hash ^ l);
	}
	return hash;
}

/* ---- one engine for every name ------------------------------------------ */

static uint64_t hashlen(uint32_t hash, size_t len)
{
	return (uint64_t)(uint32_t)len << 32 | hash;
}

INLINE uint32_t name_hash(const struct sgen_row *g, unsigned w, lkh_spath path,
			  uint64_t salt, struct scan *s, size_t *len)
{
	if (path == LKH_SPATH_BYTE)
		return byte_hash(s, w, g->end, salt, len);
	return word_hash(s, w, path == LKH_SPATH_BE, g->word, salt, len);
}

/* Top @bits of a @width-bit value, the shift kept in range. */
static uint64_t top_bits(uint64_t v, unsigned width, unsigned bits)
{
	return v >> ((width - bits) & (width - 1));
}

INLINE uint64_t string_eval(lkh_sfunc func, lkh_sgen gen, unsigned w, lkh_spath path,
			    uint64_t salt, const void *data, size_t len, unsigned bits)
{
	const struct sgen_row *g = &sgen_rows[gen];
	struct scan s;
	size_t n;
	uint32_t h;

	s.p = data;
	s.left = len;
	s.ended = 0;
	s.stop = func == LKH_SFUNC_HASH_NAME ? STOP_NUL_SLASH
		 : func == LKH_SFUNC_HASHLEN_STRING || func == LKH_SFUNC_HASH_STR ? STOP_NUL
										  : STOP_LEN;
	if ((func == LKH_SFUNC_HASH_STR || func == LKH_SFUNC_HASH_MEM) &&
	    g->rpc == LKH_SRPC_PACK)
		return top_bits(rpc_pack(&s, g->rpc_gen, w), w, bits);
	h = name_hash(g, w, path, salt, &s, &n);
	switch (func) {
	case LKH_SFUNC_FULL_NAME_HASH:
		return h;
	case LKH_SFUNC_HASHLEN_STRING:
	case LKH_SFUNC_HASH_NAME:
		return hashlen(h, n);
	default: /* sunrpc on the name hash: its top bits, no further hash */
		return top_bits(h, 32, bits);
	}
}

/* ---- the explicit names --------------------------------------------------- */

#define CELL_(gen, w, p) (lkh_sgen)sgen_##gen, word_##w, (lkh_spath)path_##p
#define DEF_COMMON(gen, w, p)                                                        \
	LKH_API uint64_t LKH_SNAME_(gen, hash_str, w, p)(const char *name, unsigned bits) \
	{                                                                                \
		return string_eval(LKH_SFUNC_HASH_STR, CELL_(gen, w, p), 0, name, SIZE_MAX,  \
				   bits);                                                    \
	}                                                                                \
	LKH_API uint64_t LKH_SNAME_(gen, hash_mem, w, p)(const void *buf, size_t len,      \
							  unsigned bits)                   \
	{                                                                                \
		return string_eval(LKH_SFUNC_HASH_MEM, CELL_(gen, w, p), 0, buf, len, bits); \
	}
#define DEF_UNSALTED(gen, w, p)                                                       \
	LKH_API uint32_t LKH_SNAME_(gen, full_name_hash, w, p)(const void *name, size_t len) \
	{                                                                                 \
		return (uint32_t)string_eval(LKH_SFUNC_FULL_NAME_HASH, CELL_(gen, w, p), 0,   \
					     name, len, 0);                                   \
	}                                                                                 \
	LKH_API uint64_t LKH_SNAME_(gen, hash_name, w, p)(const char *name)                 \
	{                                                                                 \
		return string_eval(LKH_SFUNC_HASH_NAME, CELL_(gen, w, p), 0, name, SIZE_MAX,  \
				   0);                                                        \
	}                                                                                 \
	DEF_COMMON(gen, w, p)
#define DEF_MIX(gen, w, p)                                                            \
	DEF_UNSALTED(gen, w, p)                                                           \
	LKH_API uint64_t LKH_SNAME_(gen, hashlen_string, w, p)(const char *name)            \
	{                                                                                 \
		return string_eval(LKH_SFUNC_HASHLEN_STRING, CELL_(gen, w, p), 0, name,       \
				   SIZE_MAX, 0);                                              \
	}
#define DEF_SALTED_NAME(gen, w, p, fn, FUNC)                                         \
	LKH_API uint64_t LKH_SNAME_(gen, fn, w, p)(LKH_SWORD_T_##w salt, const char *name) \
	{                                                                                \
		return string_eval(FUNC, CELL_(gen, w, p), salt, name, SIZE_MAX, 0);         \
	}
#define DEF_SALTED(gen, w, p)                                                         \
	LKH_API uint32_t LKH_SNAME_(gen, full_name_hash, w, p)(LKH_SWORD_T_##w salt,        \
								const void *name, size_t len) \
	{                                                                                 \
		return (uint32_t)string_eval(LKH_SFUNC_FULL_NAME_HASH, CELL_(gen, w, p),      \
					     salt, name, len, 0);                             \
	}                                                                                 \
	DEF_SALTED_NAME(gen, w, p, hash_name, LKH_SFUNC_HASH_NAME)                        \
	DEF_SALTED_NAME(gen, w, p, hashlen_string, LKH_SFUNC_HASHLEN_STRING)              \
	DEF_COMMON(gen, w, p)

LKH_STRING_CELLS(DEF_UNSALTED, DEF_MIX, DEF_SALTED)

/* ---- the checked entry points ---------------------------------------------- */

static const char *const sfunc_names[LKH_SFUNC_COUNT] = {
	"full_name_hash", "hashlen_string", "hash_name", "hash_str", "hash_mem"};
static const char *const spath_names[LKH_SPATH_COUNT] = {"byte", "le", "be"};

LKH_API int lkh_string_has_path(lkh_sgen gen, unsigned word, lkh_spath path)
{
#define HAS_CELL(g, w, p) || ((int)gen == sgen_##g && word == word_##w && (int)path == path_##p)
	return (unsigned)gen < LKH_SGEN_COUNT &&
	       (0 LKH_STRING_CELLS(HAS_CELL, HAS_CELL, HAS_CELL));
#undef HAS_CELL
}

static int check_common(lkh_sgen gen, unsigned word, uint64_t h)
{
	if ((unsigned)gen >= LKH_SGEN_COUNT)
		return LKH_ERR_GEN;
	if (word != 32 && word != 64)
		return LKH_ERR_WORD;
	if (h & ~word_mask(word))
		return LKH_ERR_RANGE;
	return LKH_OK;
}

LKH_API int lkh_end_name_hash(lkh_sgen gen, unsigned word, uint64_t h, uint32_t *out)
{
	int err = check_common(gen, word, h);

	if (err)
		return err;
	if (sgen_rows[gen].end == LKH_SEND_NONE)
		return LKH_ERR_PATH;
	if (!out)
		return LKH_ERR_NULL;
	*out = end_name(sgen_rows[gen].end, word, h);
	return LKH_OK;
}

LKH_API int lkh_string_hash(lkh_sfunc func, lkh_sgen gen, unsigned word, lkh_spath path,
			    uint64_t salt, const void *data, size_t len, unsigned bits,
			    uint64_t *out)
{
	int rpc = func == LKH_SFUNC_HASH_STR || func == LKH_SFUNC_HASH_MEM;
	int err;
	unsigned bits_max;

	if ((unsigned)func >= LKH_SFUNC_COUNT)
		return LKH_ERR_FUNC;
	err = check_common(gen, word, salt);
	if (err)
		return err;
	/* hashlen_string() came with v4.7 */
	if (func == LKH_SFUNC_HASHLEN_STRING && sgen_rows[gen].word != LKH_SWORD_MIX)
		return LKH_ERR_FUNC;
	if (!lkh_string_has_path(gen, word, path))
		return LKH_ERR_PATH;
	if (salt && (rpc || !sgen_rows[gen].salted))
		return LKH_ERR_SALT;
	bits_max = !rpc ? 0 : sgen_rows[gen].rpc == LKH_SRPC_PACK ? word : 32;
	if (rpc ? bits < 1 || bits > bits_max : bits != 0)
		return LKH_ERR_BITS;
	if (!out || (!data && len))
		return LKH_ERR_NULL;
	if (func == LKH_SFUNC_HASH_NAME &&
	    (!len || ((const char *)data)[0] == 0 || ((const char *)data)[0] == '/'))
		return LKH_ERR_NAME;
	*out = string_eval(func, gen, word, path, salt, data ? data : "", len, bits);
	return LKH_OK;
}

/* ---- names ------------------------------------------------------------------ */

LKH_API const char *lkh_sfunc_name(lkh_sfunc func)
{
	return (unsigned)func < LKH_SFUNC_COUNT ? sfunc_names[func] : NULL;
}

LKH_API const char *lkh_sgen_name(lkh_sgen gen)
{
	return (unsigned)gen < LKH_SGEN_COUNT ? sgen_rows[gen].name : NULL;
}

LKH_API const char *lkh_sgen_kernels(lkh_sgen gen)
{
	return (unsigned)gen < LKH_SGEN_COUNT ? sgen_rows[gen].kernels : NULL;
}

LKH_API const char *lkh_spath_name(lkh_spath path)
{
	return (unsigned)path < LKH_SPATH_COUNT ? spath_names[path] : NULL;
}

static int find_name(const char *const *names, unsigned count, const char *name)
{
	unsigned i;

	for (i = 0; name && i < count; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

LKH_API int lkh_sfunc_from_name(const char *name, lkh_sfunc *func)
{
	int i = find_name(sfunc_names, LKH_SFUNC_COUNT, name);

	if (i < 0 || !func)
		return i < 0 ? LKH_ERR_FUNC : LKH_ERR_NULL;
	*func = (lkh_sfunc)i;
	return LKH_OK;
}

LKH_API int lkh_sgen_from_name(const char *name, lkh_sgen *gen)
{
	unsigned i;

	for (i = 0; name && i < LKH_SGEN_COUNT; i++)
		if (strcmp(sgen_rows[i].name, name) == 0) {
			if (!gen)
				return LKH_ERR_NULL;
			*gen = (lkh_sgen)i;
			return LKH_OK;
		}
	return LKH_ERR_GEN;
}

LKH_API int lkh_spath_from_name(const char *name, lkh_spath *path)
{
	int i = find_name(spath_names, LKH_SPATH_COUNT, name);

	if (i < 0 || !path)
		return i < 0 ? LKH_ERR_PATH : LKH_ERR_NULL;
	*path = (lkh_spath)i;
	return LKH_OK;
}
