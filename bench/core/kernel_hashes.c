/* SPDX-License-Identifier: MIT */
#include "kernel_hashes.h"

#include <stddef.h>

static uint32_t rol32(uint32_t x, unsigned r)
{
	return x << r | x >> (32 - r);
}

static uint64_t rol64(uint64_t x, unsigned r)
{
	return x << r | x >> (64 - r);
}

/* lookup3's mixing round between blocks of three words: six
 * subtract-xor-rotate-add steps. */
#define JHASH_MIX(a, b, c)                                           \
	do {                                                         \
		a -= c; a ^= rol32(c, 4); c += b;                    \
		b -= a; b ^= rol32(a, 6); a += c;                    \
		c -= b; c ^= rol32(b, 8); b += a;                    \
		a -= c; a ^= rol32(c, 16); c += b;                   \
		b -= a; b ^= rol32(a, 19); a += c;                   \
		c -= b; c ^= rol32(b, 4); b += a;                    \
	} while (0)

uint32_t kb_jhash2(const uint32_t *k, unsigned n, uint32_t initval)
{
	uint32_t a, b, c;

	a = b = c = KB_JHASH_INITVAL + ((uint32_t)n << 2) + initval;
	for (; n > 3; n -= 3, k += 3) {
		a += k[0];
		b += k[1];
		c += k[2];
		JHASH_MIX(a, b, c);
	}
	if (n == 0)
		return c;
	/* one to three words left: added to a, b, c in that order */
	a += k[0];
	b += n > 1 ? k[1] : 0;
	c += n > 2 ? k[2] : 0;
	return kb_jhash_final_(a, b, c);
}

/*
 * The permutations, on four local words (a struct of them invites the
 * compiler to vectorize the round, which costs several times as much).
 */
#define SIP_ROUND(v0, v1, v2, v3)                     \
	do {                                          \
		v0 += v1;                             \
		v1 = rol64(v1, 13) ^ v0;              \
		v0 = rol64(v0, 32);                   \
		v2 += v3;                             \
		v3 = rol64(v3, 16) ^ v2;              \
		v0 += v3;                             \
		v3 = rol64(v3, 21) ^ v0;              \
		v2 += v1;                             \
		v1 = rol64(v1, 17) ^ v2;              \
		v2 = rol64(v2, 32);                   \
	} while (0)
#define HSIP_ROUND(v0, v1, v2, v3)                    \
	do {                                          \
		v0 += v1;                             \
		v1 = rol32(v1, 5) ^ v0;               \
		v0 = rol32(v0, 16);                   \
		v2 += v3;                             \
		v3 = rol32(v3, 8) ^ v2;               \
		v0 += v3;                             \
		v3 = rol32(v3, 7) ^ v0;               \
		v2 += v1;                             \
		v1 = rol32(v1, 13) ^ v2;              \
		v2 = rol32(v2, 16);                   \
	} while (0)

/* A little-endian word from bytes, whatever the host: the kernel's
 * le64_to_cpu / le32_to_cpu of an unaligned load. */
static inline uint64_t load_le64(const unsigned char *p)
{
	uint64_t w = 0;
	unsigned i;

	for (i = 8; i-- > 0;)
		w = w << 8 | p[i];
	return w;
}

static inline uint32_t load_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The last word of len bytes: the length's low byte on top, the tail
 * bytes (len mod size) below it, little-endian. */
static inline uint64_t last_word(const unsigned char *p, size_t len, unsigned size)
{
	uint64_t b = (uint64_t)(len & 0xff) << (8 * size - 8);
	size_t tail = len % size, i;

	for (i = 0; i < tail; i++)
		b |= (uint64_t)p[len - tail + i] << (8 * i);
	return b;
}

/*
 * SipHash-c-d of n whole 64-bit words, the words at w when it is given
 * (the fixed-size functions: no bytes stored and loaded again, a store
 * forward that doubled their time), else little-endian at m, and the last
 * word b (the length << 56 | the tail), as lib/siphash.c computes it: c
 * rounds a word, d to finish.  c and d are constants at every call,
 * which inlines.
 */
static inline uint64_t siphash_cd(const uint64_t *w, const unsigned char *m, size_t n,
				  uint64_t b, const uint64_t key[2], unsigned c, unsigned d)
{
	/* "somepseudorandomlygeneratedbytes" */
	uint64_t v0 = UINT64_C(0x736f6d6570736575) ^ key[0];
	uint64_t v1 = UINT64_C(0x646f72616e646f6d) ^ key[1];
	uint64_t v2 = UINT64_C(0x6c7967656e657261) ^ key[0];
	uint64_t v3 = UINT64_C(0x7465646279746573) ^ key[1];
	size_t i;
	unsigned r;

	for (i = 0; i <= n; i++) {
		uint64_t x = i < n ? (w ? w[i] : load_le64(m + 8 * i)) : b;

		v3 ^= x;
		for (r = 0; r < c; r++)
			SIP_ROUND(v0, v1, v2, v3);
		v0 ^= x;
	}
	v2 ^= 0xff;
	for (r = 0; r < d; r++)
		SIP_ROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t kb_siphash_1u64(uint64_t first, const struct kb_siphash_key *key)
{
	return siphash_cd(&first, NULL, 1, (uint64_t)8 << 56, key->k, 2, 4);
}

uint64_t kb_siphash(const void *data, size_t len, const struct kb_siphash_key *key)
{
	const unsigned char *p = data;

	return siphash_cd(NULL, p, len / 8, last_word(p, len, 8), key->k, 2, 4);
}

/* HalfSipHash-1-3 of n whole 32-bit words (at w when given, else
 * little-endian at m) and the last word b, as the kernel returns it: v1 ^
 * v3 (a 32-bit output, not the reference's 64-bit one). */
static inline uint32_t halfsiphash13(const uint32_t *w, const unsigned char *m, size_t n,
				     uint32_t b, const struct kb_hsiphash_key *key)
{
	uint32_t k0 = (uint32_t)key->k[0], k1 = (uint32_t)key->k[1];
	uint32_t v0 = k0, v1 = k1;
	uint32_t v2 = UINT32_C(0x6c796765) ^ k0, v3 = UINT32_C(0x74656462) ^ k1;
	size_t i;

	for (i = 0; i <= n; i++) {
		uint32_t x = i < n ? (w ? w[i] : load_le32(m + 4 * i)) : b;

		v3 ^= x;
		HSIP_ROUND(v0, v1, v2, v3);
		v0 ^= x;
	}
	v2 ^= 0xff;
	for (i = 0; i < 3; i++)
		HSIP_ROUND(v0, v1, v2, v3);
	return v1 ^ v3;
}

uint32_t kb_hsiphash(const void *data, size_t len, const struct kb_hsiphash_key *key,
		     unsigned word)
{
	const unsigned char *p = data;

	if (word == 32)
		return halfsiphash13(NULL, p, len / 4, (uint32_t)last_word(p, len, 4), key);
	return (uint32_t)siphash_cd(NULL, p, len / 8, last_word(p, len, 8), key->k, 1, 3);
}

uint32_t kb_hsiphash_1u32(uint32_t first, const struct kb_hsiphash_key *key,
			  unsigned word)
{
	/* kb_hsiphash of the four bytes, the length a constant; on a 64-bit
	 * kernel four bytes are no whole word: all in the tail */
	if (word == 32)
		return halfsiphash13(&first, NULL, 1, UINT32_C(4) << 24, key);
	return (uint32_t)siphash_cd(NULL, NULL, 0, (uint64_t)4 << 56 | first, key->k, 1, 3);
}

uint32_t kb_hsiphash_2u32(uint32_t first, uint32_t second,
			  const struct kb_hsiphash_key *key, unsigned word)
{
	const uint32_t m[2] = { first, second };
	const uint64_t combined = (uint64_t)second << 32 | first;

	if (word == 32)
		return halfsiphash13(m, NULL, 2, UINT32_C(8) << 24, key);
	return (uint32_t)siphash_cd(&combined, NULL, 1, (uint64_t)8 << 56, key->k, 1, 3);
}
