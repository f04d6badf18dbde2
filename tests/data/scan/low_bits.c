/* SPDX-License-Identifier: MIT */
/* scan fixture: a product's low bits kept, by a mask, a modulo and a name. */
#include <stdint.h>

#define GOLDEN_RATIO_32 0x61C88647

static unsigned by_mask(uint32_t key, unsigned size)
{
	return (key * 0x9e3779b1u) & (size - 1);
}

static unsigned by_modulo(uint32_t key, unsigned size)
{
	return (key * 2654435761u) % size;
}

static unsigned by_name(uint32_t key, unsigned mask)
{
	return key * GOLDEN_RATIO_32 & mask;
}
