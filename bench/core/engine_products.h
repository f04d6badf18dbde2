/* SPDX-License-Identifier: MIT */
/*
 * Internal to the engine's files: the product a cell's words come from
 * and EACH_PRODUCT, one loop per product, so the choice is made once per
 * block, not per key (hash_words.c's reference loops and engine_paths.c's
 * fused ones both switch on it).
 */
#ifndef KB_ENGINE_PRODUCTS_H
#define KB_ENGINE_PRODUCTS_H

#include "hashspec.h"

/* Generation K's products, numbered after lkh_table.h's. */
enum { KB_PRODUCT_K32 = LKH_PRODUCT_COUNT, KB_PRODUCT_K64 };

/* The product a cell's words come from (lkh_table.h, or K's). */
static inline int kb_product_of(const struct kb_hashspec *s)
{
	if (s->k_width)
		return s->k_width == 32 ? KB_PRODUCT_K32 : KB_PRODUCT_K64;
	return lkh_cell_product(s->func, s->gen, s->word);
}

/*
 * Each function defines LOOP(expr) before EACH_PRODUCT: expr is the top-
 * aligned word for key k, and LOOP computes it for each key, from an array
 * or walking an arithmetic progression in a register (no key array at all).
 */
#define PRODUCT_CASE(id, width, fn, arith, multiplier)               \
	case id:                                                     \
		LOOP((uint64_t)fn(k) << (64 - (width)));             \
		break;
#define EACH_PRODUCT(s)                                              \
	switch (kb_product_of(s)) {                                  \
		LKH_PRODUCT_TABLE(PRODUCT_CASE)                      \
	case KB_PRODUCT_K32: {                                       \
		const uint32_t kmul_ = (uint32_t)(s)->k;             \
		LOOP((uint64_t)((uint32_t)k * kmul_) << 32);         \
		break;                                               \
	}                                                            \
	case KB_PRODUCT_K64: {                                       \
		const uint64_t kmul_ = (s)->k;                       \
		LOOP(k * kmul_);                                     \
		break;                                               \
	}                                                            \
	default:                                                     \
		break;                                               \
	}

#endif
