/* SPDX-License-Identifier: MIT */
/*
 * libbpf's hash_bits() (tools/lib/bpf/hashmap.h, Linux v6.12), for LP64:
 * the top `bits` bits of the key times 11400714819323198485
 * (0x9e3779b97f4a7c15 = 2^64 - 0x61C8864680B583EB, the kernel's 64-bit
 * multiplier negated), and 0 for bits == 0, which a shift by 64 would
 * leave undefined.  Re-implemented here from that formula.
 */
#ifndef GALLERY_LIBBPF_HASHMAP_H
#define GALLERY_LIBBPF_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

static inline size_t hash_bits(size_t h, int bits)
{
	if (bits == 0)
		return 0;
	return (size_t)(((uint64_t)h * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - bits));
}

#endif
