/* SPDX-License-Identifier: MIT */
/*
 * The other hashes a kernel developer picks from for an integer or
 * pointer key, bit-exact with Linux 6.1 and 6.12: include/linux/jhash.h
 * (Bob Jenkins' lookup3 final mix, JHASH_INITVAL 0xdeadbeef) and
 * lib/siphash.c (SipHash-2-4; hsiphash, which is SipHash-1-3 on a 64-bit
 * kernel and HalfSipHash-1-3 on a 32-bit one), of words and of bytes.
 * They are candidates in `khash-bench advise` (over names too) and rows of
 * `speed`; hash.h itself is libkhash.
 */
#ifndef KB_KERNEL_HASHES_H
#define KB_KERNEL_HASHES_H

#include <stddef.h>
#include <stdint.h>

/* jhash_1word(a, initval) .. jhash_3words(a, b, c, initval): inline, as
 * in the kernel, so that `speed` times what a call site pays. */
#define KB_JHASH_INITVAL UINT32_C(0xdeadbeef)

static inline uint32_t kb_jhash_rol32_(uint32_t x, unsigned r)
{
	return x << r | x >> (32 - r);
}

/* lookup3's final mix of (a, b, c); c is the hash. */
static inline uint32_t kb_jhash_final_(uint32_t a, uint32_t b, uint32_t c)
{
	c ^= b;
	c -= kb_jhash_rol32_(b, 14);
	a ^= c;
	a -= kb_jhash_rol32_(c, 11);
	b ^= a;
	b -= kb_jhash_rol32_(a, 25);
	c ^= b;
	c -= kb_jhash_rol32_(b, 16);
	a ^= c;
	a -= kb_jhash_rol32_(c, 4);
	b ^= a;
	b -= kb_jhash_rol32_(a, 14);
	c ^= b;
	c -= kb_jhash_rol32_(b, 24);
	return c;
}

/* Every jhash_Nwords adds one seed, 0xdeadbeef + 4N + initval, to all
 * three words, then mixes once. */
static inline uint32_t kb_jhash_nwords_(uint32_t a, uint32_t b, uint32_t c,
					unsigned n, uint32_t initval)
{
	uint32_t seed = initval + KB_JHASH_INITVAL + ((uint32_t)n << 2);

	return kb_jhash_final_(a + seed, b + seed, c + seed);
}

static inline uint32_t kb_jhash_1word(uint32_t a, uint32_t initval)
{
	return kb_jhash_nwords_(a, 0, 0, 1, initval);
}

static inline uint32_t kb_jhash_2words(uint32_t a, uint32_t b, uint32_t initval)
{
	return kb_jhash_nwords_(a, b, 0, 2, initval);
}

static inline uint32_t kb_jhash_3words(uint32_t a, uint32_t b, uint32_t c,
				       uint32_t initval)
{
	return kb_jhash_nwords_(a, b, c, 3, initval);
}

/*
 * jhash2(k, n, initval): lookup3's hash of n u32 words, as
 * include/linux/jhash.h computes it (three words a mixing round, the last
 * one to three through the final mix; n = 0 returns the seed).  The futex
 * tables hash their keys' words with it.
 */
uint32_t kb_jhash2(const uint32_t *k, unsigned n, uint32_t initval);

/* siphash_key_t: two u64 on every kernel. */
struct kb_siphash_key {
	uint64_t k[2];
};

/*
 * hsiphash_key_t is two unsigned longs: on a 32-bit kernel only the low
 * 32 bits of each word are the key.
 */
struct kb_hsiphash_key {
	uint64_t k[2];
};

/* siphash_1u64(first, key): SipHash-2-4 of the 8 bytes of first (LE). */
uint64_t kb_siphash_1u64(uint64_t first, const struct kb_siphash_key *key);

/*
 * siphash(data, len, key) and hsiphash(data, len, key) over bytes, as
 * lib/siphash.c computes them for a string: whole little-endian words,
 * then the length's low byte on top of the tail's bytes.  siphash is
 * SipHash-2-4; hsiphash on a word-bit kernel is SipHash-1-3 truncated to
 * u32 (word 64) or HalfSipHash-1-3 over u32 words (word 32), as the
 * commit that brought it chose (1ae2324f, v4.11: HalfSipHash is the slower
 * of the two on 64-bit machines).
 */
uint64_t kb_siphash(const void *data, size_t len, const struct kb_siphash_key *key);
uint32_t kb_hsiphash(const void *data, size_t len, const struct kb_hsiphash_key *key,
		     unsigned word);

/* hsiphash_1u32 and hsiphash_2u32 as a word-bit kernel computes them
 * (word 64: SipHash-1-3, truncated to u32; word 32: HalfSipHash-1-3). */
uint32_t kb_hsiphash_1u32(uint32_t first, const struct kb_hsiphash_key *key,
			  unsigned word);
uint32_t kb_hsiphash_2u32(uint32_t first, uint32_t second,
			  const struct kb_hsiphash_key *key, unsigned word);

#endif
