/* SPDX-License-Identifier: MIT */
#include "skew.h"

#include <stdio.h>

#define BLOCK 1024

/* The distinct words behind the 24 (function, generation, word) cells. */
enum word_kernel {
	W_OLD32,
	W_POSTED32,
	W_NEW32,
	W_OLD64_MUL,
	W_OLD64_CHAIN,
	W_GR64,
	W_POSTED64_ON32,
	W_NEW64_ON32
};

static enum word_kernel kernel_of(const struct kb_hashspec *s)
{
	lkh_func f = s->func;

	if (f == LKH_FUNC_HASH_LONG || f == LKH_FUNC_HASH_PTR)
		f = s->word == 32 ? LKH_FUNC_HASH_32 : LKH_FUNC_HASH_64;
	if (f == LKH_FUNC_HASH_32)
		return s->gen == LKH_GEN_OLD      ? W_OLD32
		       : s->gen == LKH_GEN_POSTED ? W_POSTED32
						  : W_NEW32;
	if (s->gen == LKH_GEN_OLD)
		return s->word == 64 ? W_OLD64_MUL : W_OLD64_CHAIN;
	if (s->word == 64)
		return W_GR64;
	return s->gen == LKH_GEN_POSTED ? W_POSTED64_ON32 : W_NEW64_ON32;
}

unsigned kb_hashspec_input_bits(const struct kb_hashspec *s)
{
	return lkh_input_bits(s->func, s->word);
}

int kb_hashspec_check(const struct kb_hashspec *s, unsigned bits, char *err,
		      size_t errlen)
{
	unsigned max = lkh_bits_max(s->func, s->gen, s->word);

	if (s->word != 32 && s->word != 64) {
		snprintf(err, errlen, "word size must be 32 or 64");
		return -1;
	}
	if (max == 0) {
		snprintf(err, errlen, "%s takes no bits: it is not a bucket index",
			 lkh_func_name(s->func) ? lkh_func_name(s->func) : "?");
		return -1;
	}
	if (bits < 1 || bits > max) {
		snprintf(err, errlen, "bits %u out of range for %s %s on %u-bit: 1..%u",
			 bits, lkh_gen_name(s->gen), lkh_func_name(s->func),
			 s->word, max);
		return -1;
	}
	return 0;
}

size_t kb_first_misfit(const uint64_t *keys, size_t n, unsigned input_bits)
{
	size_t i;

	if (input_bits >= 64)
		return n;
	for (i = 0; i < n; i++)
		if (keys[i] > UINT32_MAX)
			return i;
	return n;
}

/* One loop per kernel, so the choice is made once per block, not per key. */
#define WORD_LOOP(expr)                                  \
	do {                                             \
		for (i = 0; i < n; i++) {                \
			uint64_t k = keys[i];            \
			out[i] = (expr);                 \
		}                                        \
	} while (0)

void kb_full_words(const struct kb_hashspec *s, const uint64_t *keys,
		   size_t n, uint64_t *out)
{
	size_t i;

	switch (kernel_of(s)) {
	case W_OLD32:
		WORD_LOOP((uint64_t)lkh_old_hash32_raw((uint32_t)k) << 32);
		break;
	case W_POSTED32:
		WORD_LOOP((uint64_t)lkh_posted_hash32_raw((uint32_t)k) << 32);
		break;
	case W_NEW32:
		WORD_LOOP((uint64_t)lkh_new_hash32_raw((uint32_t)k) << 32);
		break;
	case W_OLD64_MUL:
		WORD_LOOP(lkh_old_hash64_raw(k));
		break;
	case W_OLD64_CHAIN:
		WORD_LOOP(lkh_old_hash64_raw_chain(k));
		break;
	case W_GR64:
		WORD_LOOP(lkh_new_hash64_raw_w64(k));
		break;
	case W_POSTED64_ON32:
		WORD_LOOP((uint64_t)lkh_posted_hash64_raw_w32(k) << 32);
		break;
	case W_NEW64_ON32:
		WORD_LOOP((uint64_t)lkh_new_hash64_raw_w32(k) << 32);
		break;
	}
}

void kb_count_block(const struct kb_hashspec *s, unsigned bits,
		    const uint64_t *keys, size_t n, uint64_t *counts)
{
	uint64_t words[BLOCK];
	unsigned shift = 64 - bits;

	while (n > 0) {
		size_t m = n < BLOCK ? n : BLOCK, i;

		kb_full_words(s, keys, m, words);
		for (i = 0; i < m; i++)
			counts[words[i] >> shift]++;
		keys += m;
		n -= m;
	}
}

void kb_fold(uint64_t *counts, unsigned bits)
{
	uint64_t i, half = UINT64_C(1) << (bits - 1);

	for (i = 0; i < half; i++)
		counts[i] = counts[2 * i] + counts[2 * i + 1];
}
