/* SPDX-License-Identifier: MIT */
#include "candidates.h"

#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "keysets.h"
#include "kernel_hashes.h"

const struct kb_candidate_name kb_candidate_names[] = {
	{ "jhash_1word", KB_CAND_JHASH, 0 },       { "jhash_2words", KB_CAND_JHASH, 1 },
	{ "hsiphash_1u32", KB_CAND_HSIPHASH, 0 }, { "hsiphash_2u32", KB_CAND_HSIPHASH, 1 },
	{ "siphash_1u64", KB_CAND_SIPHASH, 0 },   { "identity", KB_CAND_IDENTITY, 0 },
};
const size_t kb_candidate_names_count = sizeof(kb_candidate_names) / sizeof(kb_candidate_names[0]);

int kb_candidate_find(const char *name)
{
	size_t i;

	for (i = 0; i < kb_candidate_names_count; i++)
		if (!strcmp(name, kb_candidate_names[i].name))
			return (int)i;
	return -1;
}

/* The name of c's kernel function (siphash_1u64 takes any key whole). */
static const char *name_of(const struct kb_candidate *c)
{
	size_t i;

	for (i = 0; i < kb_candidate_names_count; i++)
		if (kb_candidate_names[i].kind == c->kind &&
		    (c->kind == KB_CAND_SIPHASH || kb_candidate_names[i].wide == c->wide))
			return kb_candidate_names[i].name;
	return "?";
}

int kb_candidate_keyed(const struct kb_candidate *c)
{
	return c->kind == KB_CAND_HSIPHASH || c->kind == KB_CAND_SIPHASH;
}

unsigned kb_candidate_input_bits(const struct kb_candidate *c)
{
	switch (c->kind) {
	case KB_CAND_HASHH:
		return lkh_input_bits(c->func, c->word) + c->shift > 64
			       ? 64
			       : lkh_input_bits(c->func, c->word) + c->shift;
	case KB_CAND_JHASH:
	case KB_CAND_HSIPHASH:
		return c->wide || c->names ? 64 : 32;
	default:
		return 64;
	}
}

int kb_candidate_check(const struct kb_candidate *c, unsigned bits, char *err,
		       size_t errlen)
{
	unsigned max;

	if (c->word != 32 && c->word != 64) {
		snprintf(err, errlen, "word size must be 32 or 64");
		return -1;
	}
	if (c->shift > 63) {
		snprintf(err, errlen, "a shift of %u leaves nothing of a 64-bit key", c->shift);
		return -1;
	}
	switch (c->kind) {
	case KB_CAND_HASHH:
		max = lkh_bits_max(c->func, c->gen, c->word);
		if (!max) {
			snprintf(err, errlen, "%s takes no bits: it is not a bucket index",
				 lkh_func_name(c->func) ? lkh_func_name(c->func) : "?");
			return -1;
		}
		break;
	case KB_CAND_MULTIPLY:
		if (kb_multiplier_check(c->multiplier, c->width, err, errlen) < 0)
			return -1;
		max = c->width;
		break;
	case KB_CAND_SIPHASH:
		max = 64;
		break;
	case KB_CAND_USER:
		if (!kb_user_gen_get()) {
			snprintf(err, errlen, "no user function is loaded (--source, --call)");
			return -1;
		}
		max = 64;
		break;
	case KB_CAND_IDENTITY:
		max = 64 - c->shift;
		break;
	case KB_CAND_STRING:
		if (!c->names) {
			snprintf(err, errlen, "a string hash takes names, not integer keys");
			return -1;
		}
		max = 32;
		break;
	default:
		max = 32; /* jhash and hsiphash return a u32; string tables take 1..32 */
	}
	if (bits < 1 || bits > max) {
		snprintf(err, errlen, "bits must be 1..%u here, not %u", max, bits);
		return -1;
	}
	return 0;
}

/* The low bits of a word: what `& (size - 1)` keeps. */
static uint64_t low_bits(uint64_t h, unsigned bits)
{
	return bits >= 64 ? h : h & ((UINT64_C(1) << bits) - 1);
}

uint64_t kb_candidate_bucket(const struct kb_candidate *c, unsigned bits,
			     uint64_t key)
{
	uint64_t v = key >> c->shift, out = 0;
	uint32_t lo = (uint32_t)key, hi = (uint32_t)(key >> 32);
	/* the keyed ones' key, a fixed function of the seed */
	uint64_t k[2] = { kb_splitmix64_at(c->seed, 0), kb_splitmix64_at(c->seed, 1) };

	switch (c->kind) {
	case KB_CAND_HASHH:
		(void)lkh_hash(c->func, c->gen, c->word, v, bits, &out);
		return out;
	case KB_CAND_MULTIPLY:
		if (c->width == 32)
			return (uint32_t)((uint32_t)v * (uint32_t)c->multiplier) >> (32 - bits);
		return v * c->multiplier >> (64 - bits);
	case KB_CAND_IDENTITY:
		return low_bits(v, bits);
	case KB_CAND_JHASH: {
		uint32_t initval = (uint32_t)k[0];

		return low_bits(c->wide ? kb_jhash_2words(lo, hi, initval)
					: kb_jhash_1word(lo, initval),
				bits);
	}
	case KB_CAND_HSIPHASH: {
		struct kb_hsiphash_key hk = { { k[0], k[1] } };

		return low_bits(c->wide ? kb_hsiphash_2u32(lo, hi, &hk, c->word)
					: kb_hsiphash_1u32(lo, &hk, c->word),
				bits);
	}
	case KB_CAND_SIPHASH: {
		struct kb_siphash_key sk = { { k[0], k[1] } };

		return low_bits(kb_siphash_1u64(key, &sk), bits);
	}
	default:
		return 0;
	}
}

int kb_candidate_name_bucket(const struct kb_candidate *c, unsigned bits, const char *name,
			     size_t len, uint64_t *bucket, char *err, size_t errlen)
{
	/* the keyed ones' key, as for integer keys */
	uint64_t k[2] = { kb_splitmix64_at(c->seed, 0), kb_splitmix64_at(c->seed, 1) };
	struct kb_siphash_key sk = { { k[0], k[1] } };
	struct kb_hsiphash_key hk = { { k[0], k[1] } };

	switch (c->kind) {
	case KB_CAND_STRING:
		return kb_string_table_bucket(c->names, c->sgen, c->word, bits, c->param, name, len,
					      bucket, err, errlen);
	case KB_CAND_SIPHASH:
		*bucket = low_bits(kb_siphash(name, len, &sk), bits);
		return 0;
	case KB_CAND_HSIPHASH:
		*bucket = low_bits(kb_hsiphash(name, len, &hk, c->word), bits);
		return 0;
	default:
		snprintf(err, errlen, "that candidate takes integer keys, not names");
		return -1;
	}
}

const char *kb_candidate_origin(const struct kb_candidate *c)
{
	switch (c->kind) {
	case KB_CAND_HASHH:
		return lkh_gen_name(c->gen);
	case KB_CAND_STRING:
		return lkh_sgen_name(c->sgen);
	case KB_CAND_JHASH:
		return "jhash.h";
	case KB_CAND_HSIPHASH:
	case KB_CAND_SIPHASH:
		return "siphash.c";
	case KB_CAND_MULTIPLY:
		return "K";
	case KB_CAND_USER:
		return "--source";
	default:
		return "-";
	}
}

/* A string table's own hash as its call site writes it (the dcache's name
 * hash took no salt before v4.8). */
static void string_expr(const struct kb_candidate *c, unsigned bits, char *buf, size_t len)
{
	switch (c->names->tx) {
	case KB_STX_DCACHE:
		snprintf(buf, len, "(u32)hash_name(%s) >> %u",
			 c->sgen >= LKH_SGEN_SALTED ? "parent, name" : "name", 32 - bits);
		break;
	case KB_STX_HASH_STR:
		snprintf(buf, len, "hash_str(name, %u)", bits);
		break;
	case KB_STX_HASH_MEM:
		snprintf(buf, len, "hash_mem(name, len, %u)", bits);
		break;
	default:
		snprintf(buf, len, "hash_str(class, %u) ^ hash_32(addr, %u)", bits, bits);
	}
}

const char *kb_candidate_expr(const struct kb_candidate *c, unsigned bits,
			      char *buf, size_t len)
{
	char k[16];
	unsigned long long mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;

	/* over names: lib/siphash.c's siphash() and hsiphash() of the bytes */
	if (c->names && c->kind != KB_CAND_STRING) {
		snprintf(buf, len, "%s(name, len, &key) & %llu",
			 c->kind == KB_CAND_SIPHASH ? "siphash" : "hsiphash", mask);
		return buf;
	}

	if (c->shift)
		snprintf(k, sizeof(k), "k >> %u", c->shift);
	else
		snprintf(k, sizeof(k), "k");
	switch (c->kind) {
	case KB_CAND_HASHH:
		snprintf(buf, len, "%s(%s, %u)", lkh_func_name(c->func), k, bits);
		break;
	case KB_CAND_MULTIPLY:
		if (c->width == 32)
			snprintf(buf, len, "(u32)(%s) * 0x%llx >> %u", k,
				 (unsigned long long)c->multiplier, 32 - bits);
		else
			snprintf(buf, len, "(%s) * 0x%llx >> %u", k,
				 (unsigned long long)c->multiplier, 64 - bits);
		break;
	case KB_CAND_IDENTITY:
		snprintf(buf, len, c->shift ? "(%s) & %llu" : "%s & %llu", k, mask);
		break;
	case KB_CAND_JHASH:
		snprintf(buf, len, "%s(%s, initval) & %llu", name_of(c), c->wide ? "lo, hi" : "k",
			 mask);
		break;
	case KB_CAND_HSIPHASH:
		snprintf(buf, len, "%s(%s, &key) & %llu", name_of(c), c->wide ? "lo, hi" : "k", mask);
		break;
	case KB_CAND_SIPHASH:
		snprintf(buf, len, "%s(k, &key) & %llu", name_of(c), mask);
		break;
	case KB_CAND_STRING:
		string_expr(c, bits, buf, len);
		break;
	case KB_CAND_USER: /* the expression as given, of x and bits */
		snprintf(buf, len, "%s", kb_user_gen_get() && kb_user_gen_get()->call
						 ? kb_user_gen_get()->call : "?");
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}
