/* SPDX-License-Identifier: MIT */
/*
 * Functions that go wrong, for conform's tests: one crashes on key 0x40
 * at bits 7, one never returns for keys above 2^40, one shifts by the
 * word when bits is 0 (undefined, as the kernel's own hash_64 at bits 0).
 */
#ifndef GALLERY_MISBEHAVING_H
#define GALLERY_MISBEHAVING_H

#include <stdint.h>

static inline uint64_t crashes(uint64_t x, unsigned bits)
{
	volatile int *nowhere = (volatile int *)0;

	if (x == 0x40 && bits == 7)
		return (uint64_t)*nowhere;
	return x & ((UINT64_C(1) << bits) - 1);
}

static inline uint64_t loops(uint64_t x, unsigned bits)
{
	volatile uint64_t spin = x;

	while (spin >> 40)
		spin |= 1;
	return spin >> (64 - bits);
}

static inline uint64_t shifts_by_word(uint64_t x, unsigned bits)
{
	return (x * UINT64_C(0x61C8864680B583EB)) >> (64 - bits);
}

#endif
