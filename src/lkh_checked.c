/* SPDX-License-Identifier: MIT */
/*
 * Checked, table-driven entry points: every function, generation and word
 * size behind one call that validates its arguments, plus names and version.
 * The arithmetic is the header's; this file only chooses and checks.
 */
#include <string.h>

#include "khash/lkh.h"

static const char *const func_names[LKH_FUNC_COUNT] = {
	[LKH_FUNC_HASH_32] = "hash_32",
	[LKH_FUNC_HASH_32_RAW] = "__hash_32",
	[LKH_FUNC_HASH_64] = "hash_64",
	[LKH_FUNC_HASH_LONG] = "hash_long",
	[LKH_FUNC_HASH_PTR] = "hash_ptr",
	[LKH_FUNC_HASH32_PTR] = "hash32_ptr",
};

static const char *const gen_names[LKH_GEN_COUNT] = {
	[LKH_GEN_OLD] = "old",
	[LKH_GEN_POSTED] = "posted",
	[LKH_GEN_NEW] = "new",
};

static int func_ok(lkh_func func)
{
	return (unsigned)func < LKH_FUNC_COUNT;
}

static int gen_ok(lkh_gen gen)
{
	return (unsigned)gen < LKH_GEN_COUNT;
}

static int word_ok(unsigned word)
{
	return word == 32 || word == 64;
}

/* First bad argument of a (func, gen, word) triple, or LKH_OK. */
static int check_triple(lkh_func func, lkh_gen gen, unsigned word)
{
	if (!func_ok(func))
		return LKH_ERR_FUNC;
	if (!gen_ok(gen))
		return LKH_ERR_GEN;
	if (!word_ok(word))
		return LKH_ERR_WORD;
	return LKH_OK;
}

/* On a 32-bit kernel hash_long and hash_ptr are hash_32 of the value. */
static lkh_func effective_func(lkh_func func, unsigned word)
{
	if (func == LKH_FUNC_HASH_LONG || func == LKH_FUNC_HASH_PTR)
		return word == 32 ? LKH_FUNC_HASH_32 : LKH_FUNC_HASH_64;
	return func;
}

LKH_API unsigned lkh_input_bits(lkh_func func, unsigned word)
{
	if (!func_ok(func) || !word_ok(word))
		return 0;
	switch (func) {
	case LKH_FUNC_HASH_32:
	case LKH_FUNC_HASH_32_RAW:
		return 32;
	case LKH_FUNC_HASH_64:
		return 64;
	default:
		return word;
	}
}

LKH_API unsigned lkh_bits_max(lkh_func func, lkh_gen gen, unsigned word)
{
	if (check_triple(func, gen, word) != LKH_OK)
		return 0;
	switch (func) {
	case LKH_FUNC_HASH_32_RAW:
	case LKH_FUNC_HASH32_PTR:
		return 0;
	case LKH_FUNC_HASH_32:
		return 32;
	case LKH_FUNC_HASH_PTR:
		/* Only the old hash_ptr returned unsigned long. */
		if (word == 64 && gen != LKH_GEN_OLD)
			return 32;
		break;
	default:
		break;
	}
	if (effective_func(func, word) == LKH_FUNC_HASH_32)
		return 32;
	/* hash_64: u64 until the fix; the posted fix kept u64 on 64-bit. */
	if (gen == LKH_GEN_OLD || (gen == LKH_GEN_POSTED && word == 64))
		return 64;
	return 32;
}

static uint32_t raw32(lkh_gen gen, uint32_t val)
{
	switch (gen) {
	case LKH_GEN_OLD:
		return lkh_old_hash32_raw(val);
	case LKH_GEN_POSTED:
		return lkh_posted_hash32_raw(val);
	default:
		return lkh_new_hash32_raw(val);
	}
}

/* hash_64 before its shift, with the width of the word it shifts. */
static uint64_t raw64(lkh_gen gen, unsigned word, uint64_t val,
		      unsigned *width)
{
	*width = 64;
	switch (gen) {
	case LKH_GEN_OLD:
		return word == 64 ? lkh_old_hash64_raw(val)
				  : lkh_old_hash64_raw_chain(val);
	case LKH_GEN_POSTED:
		if (word == 64)
			return lkh_posted_hash64_raw_w64(val);
		*width = 32;
		return lkh_posted_hash64_raw_w32(val);
	default:
		if (word == 64)
			return lkh_new_hash64_raw_w64(val);
		*width = 32;
		return lkh_new_hash64_raw_w32(val);
	}
}

LKH_API int lkh_hash_full(lkh_func func, lkh_gen gen, unsigned word,
			  uint64_t val, uint64_t *full, unsigned *width)
{
	int status = check_triple(func, gen, word);

	if (status != LKH_OK)
		return status;
	if (!full || !width)
		return LKH_ERR_NULL;
	if (lkh_input_bits(func, word) == 32 && val > UINT32_MAX)
		return LKH_ERR_RANGE;

	switch (effective_func(func, word)) {
	case LKH_FUNC_HASH_32:
	case LKH_FUNC_HASH_32_RAW:
		*full = raw32(gen, (uint32_t)val);
		*width = 32;
		break;
	case LKH_FUNC_HASH_64:
		*full = raw64(gen, word, val, width);
		break;
	default: /* hash32_ptr: a fold, the same in every generation */
		*full = word == 64 ? lkh_new_hash32ptr_w64(val) : val;
		*width = 32;
		break;
	}
	return LKH_OK;
}

/* The named entry points themselves, so lkh_hash() is exactly them. */
static uint64_t call_named(lkh_func func, lkh_gen gen, unsigned word,
			   uint64_t val, unsigned bits)
{
	uint32_t v32 = (uint32_t)val;
	int w64 = word == 64;

	switch (gen) {
	case LKH_GEN_OLD:
		switch (func) {
		case LKH_FUNC_HASH_32:
			return lkh_old_hash32(v32, bits);
		case LKH_FUNC_HASH_32_RAW:
			return lkh_old_hash32_raw(v32);
		case LKH_FUNC_HASH_64:
			return w64 ? lkh_old_hash64_w64(val, bits)
				   : lkh_old_hash64_w32(val, bits);
		case LKH_FUNC_HASH_LONG:
			return w64 ? lkh_old_hashlong_w64(val, bits)
				   : lkh_old_hashlong_w32(v32, bits);
		case LKH_FUNC_HASH_PTR:
			return w64 ? lkh_old_hashptr_w64(val, bits)
				   : lkh_old_hashptr_w32(v32, bits);
		default:
			return w64 ? lkh_old_hash32ptr_w64(val)
				   : lkh_old_hash32ptr_w32(v32);
		}
	case LKH_GEN_POSTED:
		switch (func) {
		case LKH_FUNC_HASH_32:
			return lkh_posted_hash32(v32, bits);
		case LKH_FUNC_HASH_32_RAW:
			return lkh_posted_hash32_raw(v32);
		case LKH_FUNC_HASH_64:
			return w64 ? lkh_posted_hash64_w64(val, bits)
				   : lkh_posted_hash64_w32(val, bits);
		case LKH_FUNC_HASH_LONG:
			return w64 ? lkh_posted_hashlong_w64(val, bits)
				   : lkh_posted_hashlong_w32(v32, bits);
		case LKH_FUNC_HASH_PTR:
			return w64 ? lkh_posted_hashptr_w64(val, bits)
				   : lkh_posted_hashptr_w32(v32, bits);
		default:
			return w64 ? lkh_posted_hash32ptr_w64(val)
				   : lkh_posted_hash32ptr_w32(v32);
		}
	default:
		switch (func) {
		case LKH_FUNC_HASH_32:
			return lkh_new_hash32(v32, bits);
		case LKH_FUNC_HASH_32_RAW:
			return lkh_new_hash32_raw(v32);
		case LKH_FUNC_HASH_64:
			return w64 ? lkh_new_hash64_w64(val, bits)
				   : lkh_new_hash64_w32(val, bits);
		case LKH_FUNC_HASH_LONG:
			return w64 ? lkh_new_hashlong_w64(val, bits)
				   : lkh_new_hashlong_w32(v32, bits);
		case LKH_FUNC_HASH_PTR:
			return w64 ? lkh_new_hashptr_w64(val, bits)
				   : lkh_new_hashptr_w32(v32, bits);
		default:
			return w64 ? lkh_new_hash32ptr_w64(val)
				   : lkh_new_hash32ptr_w32(v32);
		}
	}
}

LKH_API int lkh_hash(lkh_func func, lkh_gen gen, unsigned word, uint64_t val,
		     unsigned bits, uint64_t *out)
{
	int status = check_triple(func, gen, word);
	unsigned max;

	if (status != LKH_OK)
		return status;
	if (!out)
		return LKH_ERR_NULL;
	if (lkh_input_bits(func, word) == 32 && val > UINT32_MAX)
		return LKH_ERR_RANGE;
	max = lkh_bits_max(func, gen, word);
	if (max == 0 ? bits != 0 : bits < 1 || bits > max)
		return LKH_ERR_BITS;
	*out = call_named(func, gen, word, val, bits);
	return LKH_OK;
}

LKH_API const char *lkh_func_name(lkh_func func)
{
	return func_ok(func) ? func_names[func] : NULL;
}

LKH_API const char *lkh_gen_name(lkh_gen gen)
{
	return gen_ok(gen) ? gen_names[gen] : NULL;
}

LKH_API int lkh_func_from_name(const char *name, lkh_func *func)
{
	unsigned i;

	for (i = 0; name && func && i < LKH_FUNC_COUNT; i++) {
		if (strcmp(name, func_names[i]) == 0) {
			*func = (lkh_func)i;
			return LKH_OK;
		}
	}
	return LKH_ERR_FUNC;
}

LKH_API int lkh_gen_from_name(const char *name, lkh_gen *gen)
{
	unsigned i;

	for (i = 0; name && gen && i < LKH_GEN_COUNT; i++) {
		if (strcmp(name, gen_names[i]) == 0) {
			*gen = (lkh_gen)i;
			return LKH_OK;
		}
	}
	return LKH_ERR_GEN;
}

LKH_API const char *lkh_strerror(int status)
{
	switch (status) {
	case LKH_OK:
		return "success";
	case LKH_ERR_FUNC:
		return "unknown hash function";
	case LKH_ERR_GEN:
		return "unknown generation";
	case LKH_ERR_WORD:
		return "word size must be 32 or 64";
	case LKH_ERR_BITS:
		return "bits out of range for this function";
	case LKH_ERR_RANGE:
		return "value does not fit the function's argument";
	case LKH_ERR_NULL:
		return "output pointer is NULL";
	default:
		return "unknown status";
	}
}

LKH_API unsigned lkh_bits_per_long(void)
{
	return LKH_BITS_PER_LONG;
}

#define LKH_STR_(x) #x
#define LKH_STR(x) LKH_STR_(x)

LKH_API unsigned lkh_version_number(void)
{
	return LKH_VERSION_NUMBER;
}

LKH_API const char *lkh_version_string(void)
{
	return LKH_STR(LKH_VERSION_MAJOR) "." LKH_STR(LKH_VERSION_MINOR) "."
	       LKH_STR(LKH_VERSION_PATCH);
}
