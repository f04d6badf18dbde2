/* SPDX-License-Identifier: MIT */
/*
 * json-c's lh_ptr_hash() (linkhash.c, as json-c 0.17 has it): the pointer
 * times LH_PRIME 0x9e370001 in unsigned long arithmetic, shifted right by
 * 4.  0x9e370001 is 1 mod 2^16, so the low 16 bits of the product are the
 * pointer's own, and a table that keeps the low bits (json-c takes the
 * hash modulo its power-of-two size) indexes by the pointer's bits 4 up.
 * Re-implemented here for a 64-bit unsigned long.
 */
#ifndef GALLERY_JSONC_LINKHASH_H
#define GALLERY_JSONC_LINKHASH_H

#include <stdint.h>

static inline uint64_t lh_ptr_hash(uint64_t ptr)
{
	return (ptr * UINT64_C(0x9e370001)) >> 4;
}

#endif
