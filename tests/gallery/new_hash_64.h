/* SPDX-License-Identifier: MIT */
/*
 * Today's hash_64() on a 64-bit kernel, as Linux's include/linux/hash.h
 * defines it from v4.7 to v6.12 (tag v6.12): the key times GOLDEN_RATIO_64
 * (0x61C8864680B583EB) mod 2^64, its top `bits` bits, returned as a u32.
 * Written here from that definition; `conform` must find it conforming.
 */
#ifndef GALLERY_NEW_HASH_64_H
#define GALLERY_NEW_HASH_64_H

#include <stdint.h>

static inline uint32_t hash_64(uint64_t val, unsigned int bits)
{
	uint64_t product = val * UINT64_C(0x61C8864680B583EB);

	return (uint32_t)(product >> (64 - bits));
}

#endif
