/* SPDX-License-Identifier: MIT */
/*
 * OpenBSD's drm compatibility header linux/hash.h (sys/dev/pci/drm/include/
 * linux/hash.h; the copy read carries no commit, so none is named), re-
 * implemented from its formula: hash_32 keeps the top bits of the key
 * times 0x9e3779b9 mod 2^32, hash_64 the top bits of the key times
 * 0x9e3779b97f4a7c16 mod 2^64 (returned as a u32).  0x9e3779b9 is
 * 2^32 - 0x61C88647, the kernel's multiplier negated; the 64-bit constant
 * is the kernel's negated plus one, and even.
 */
#ifndef GALLERY_OPENBSD_DRM_HASH_H
#define GALLERY_OPENBSD_DRM_HASH_H

#include <stdint.h>

#define OPENBSD_GOLDEN_RATIO_32 UINT32_C(0x9e3779b9)
#define OPENBSD_GOLDEN_RATIO_64 UINT64_C(0x9e3779b97f4a7c16)

static inline uint32_t hash_32(uint32_t val, unsigned int bits)
{
	return (uint32_t)(val * OPENBSD_GOLDEN_RATIO_32) >> (32 - bits);
}

static inline uint32_t hash_64(uint64_t val, unsigned int bits)
{
	return (uint32_t)((val * OPENBSD_GOLDEN_RATIO_64) >> (64 - bits));
}

#endif
