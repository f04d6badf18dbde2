/* SPDX-License-Identifier: MIT */
/*
 * Checked, table-driven entry points: every function, generation and word
 * size behind one call that validates its arguments, plus names and version.
 * The arithmetic is the header's and the choice is lkh_table.h's; this file
 * only looks up and checks.
 */
#include <string.h>

#include "khash/lkh.h"
#include "khash/lkh_table.h"

/* Names, by enum value, from the tables. */
#define FUNC_NAME(id, name, arg) [id] = name,
static const char *const func_names[] = { LKH_FUNCTION_TABLE(FUNC_NAME) };
#undef FUNC_NAME
#define FUNC_ARG(id, name, arg) [id] = arg,
static const lkh_arg func_args[] = { LKH_FUNCTION_TABLE(FUNC_ARG) };
#undef FUNC_ARG
#define GEN_NAME(id, name, ...) [id] = #name,
static const char *const gen_names[] = { LKH_GENERATION_TABLE(GEN_NAME) };
#undef GEN_NAME

/* The public enums and the tables must list the same values. */
typedef char func_table_matches_enum[sizeof(func_names) / sizeof(func_names[0]) == LKH_FUNC_COUNT ? 1 : -1];
typedef char gen_table_matches_enum[sizeof(gen_names) / sizeof(gen_names[0]) == LKH_GEN_COUNT ? 1 : -1];

/*
 * Each cell's named function and its product's function, as calls of one
 * signature, so the checked API is a lookup and never a second copy of
 * the kernel's rules.
 */
typedef uint64_t (*call_fn)(uint64_t val, unsigned bits);
typedef uint64_t (*product_fn)(uint64_t val);

#define CALL_WRAPPER(g, f, w, fn, ret, product)                           \
	static uint64_t call_##fn##_##w(uint64_t val, unsigned bits)      \
	{                                                                 \
		return LKH_CALL(ret, fn, val, bits);                      \
	}
LKH_CELL_TABLE(CALL_WRAPPER)
#undef CALL_WRAPPER

#define PRODUCT_WRAPPER(id, width, fn, arith, k)    \
	static uint64_t product_##fn(uint64_t val)  \
	{                                           \
		return fn(val);                     \
	}
LKH_PRODUCT_TABLE(PRODUCT_WRAPPER)
#undef PRODUCT_WRAPPER

struct cell {
	call_fn call;     /* NULL: no such cell */
	unsigned bits_max;
	lkh_product product;
};

#define CELL(g, f, w, fn, ret, product) \
	[g][f][(w) == 64] = { call_##fn##_##w, LKH_RET_BITS_MAX(ret), product },
static const struct cell cells[LKH_GEN_COUNT][LKH_FUNC_COUNT][2] = {
	LKH_CELL_TABLE(CELL)
};
#undef CELL

static const struct {
	product_fn fn;
	unsigned width;
} products[] = {
#define PRODUCT(id, width, fn, arith, k) [id] = { product_##fn, width },
	LKH_PRODUCT_TABLE(PRODUCT)
#undef PRODUCT
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

/* The cell of a valid triple, or NULL with the first bad argument. */
static const struct cell *find_cell(lkh_func func, lkh_gen gen, unsigned word,
				    int *status)
{
	*status = !func_ok(func)  ? LKH_ERR_FUNC
		  : !gen_ok(gen)  ? LKH_ERR_GEN
		  : !word_ok(word) ? LKH_ERR_WORD
				   : LKH_OK;
	if (*status != LKH_OK)
		return NULL;
	if (!cells[gen][func][word == 64].call) {
		*status = LKH_ERR_FUNC; /* a hole in the table */
		return NULL;
	}
	return &cells[gen][func][word == 64];
}

LKH_API unsigned lkh_input_bits(lkh_func func, unsigned word)
{
	if (!func_ok(func) || !word_ok(word))
		return 0;
	switch (func_args[func]) {
	case LKH_ARG_U32:
		return 32;
	case LKH_ARG_U64:
		return 64;
	default:
		return word;
	}
}

LKH_API unsigned lkh_bits_max(lkh_func func, lkh_gen gen, unsigned word)
{
	int status;
	const struct cell *c = find_cell(func, gen, word, &status);

	return c ? c->bits_max : 0;
}

LKH_API int lkh_hash_full(lkh_func func, lkh_gen gen, unsigned word,
			  uint64_t val, uint64_t *full, unsigned *width)
{
	int status;
	const struct cell *c = find_cell(func, gen, word, &status);

	if (!c)
		return status;
	if (!full || !width)
		return LKH_ERR_NULL;
	if (lkh_input_bits(func, word) == 32 && val > UINT32_MAX)
		return LKH_ERR_RANGE;
	*full = products[c->product].fn(val);
	*width = products[c->product].width;
	return LKH_OK;
}

LKH_API int lkh_hash(lkh_func func, lkh_gen gen, unsigned word, uint64_t val,
		     unsigned bits, uint64_t *out)
{
	int status;
	const struct cell *c = find_cell(func, gen, word, &status);

	if (!c)
		return status;
	if (!out)
		return LKH_ERR_NULL;
	if (lkh_input_bits(func, word) == 32 && val > UINT32_MAX)
		return LKH_ERR_RANGE;
	if (c->bits_max == 0 ? bits != 0 : bits < 1 || bits > c->bits_max)
		return LKH_ERR_BITS;
	*out = c->call(val, bits);
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
	case LKH_ERR_PATH:
		return "no such path (byte, little- or big-endian words) in this generation";
	case LKH_ERR_SALT:
		return "a salt where the kernel had none";
	case LKH_ERR_NAME:
		return "a path component must not be empty or start with '/'";
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

LKH_API unsigned lkh_abi_version(void)
{
	return LKH_ABI_VERSION;
}

LKH_API const char *lkh_version_string(void)
{
	return LKH_STR(LKH_VERSION_MAJOR) "." LKH_STR(LKH_VERSION_MINOR) "."
	       LKH_STR(LKH_VERSION_PATCH);
}
