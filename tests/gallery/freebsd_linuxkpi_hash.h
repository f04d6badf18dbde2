/* SPDX-License-Identifier: MIT */
/*
 * FreeBSD's LinuxKPI hash_32() and hash_64(), as
 * sys/compat/linuxkpi/common/include/linux/hash.h computes them at
 * freebsd-src commit f9e90c24 (header dated 2022), re-implemented here
 * from the formula: the state starts at `bits`, takes one step of
 * sys/sys/hash.h's HASHSTEP (state * 33 + byte, djb2) for each byte of
 * the key (4 for hash_32, 8 for hash_64, in memory order on a
 * little-endian machine), and the result is the state's top bits of the
 * word: state >> (32 - bits) or state >> (64 - bits).  The state never
 * reaches the top bits, so small tables get bucket 0.
 */
#ifndef GALLERY_FREEBSD_LINUXKPI_HASH_H
#define GALLERY_FREEBSD_LINUXKPI_HASH_H

#include <stdint.h>

static inline uint64_t freebsd_djb2_bytes(uint64_t state, uint64_t val, unsigned nbytes)
{
	unsigned i;

	for (i = 0; i < nbytes; i++)
		state = state * 33 + ((val >> (8 * i)) & 0xff);
	return state;
}

static inline uint32_t hash_32(uint32_t val, unsigned int bits)
{
	uint32_t state = (uint32_t)freebsd_djb2_bytes(bits, val, 4);

	return state >> (32 - bits);
}

static inline uint64_t hash_64(uint64_t val, unsigned int bits)
{
	return freebsd_djb2_bytes(bits, val, 8) >> (64 - bits);
}

#endif
