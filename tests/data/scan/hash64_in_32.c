/* SPDX-License-Identifier: MIT */
/* scan fixture: hash_64()'s result kept in 32 bits, and kept whole. */
#include <stdint.h>

typedef uint32_t u32;
typedef uint64_t u64;

u64 hash_64(u64 val, unsigned bits);

u32 narrow(u64 key, unsigned bits)
{
	u32 h = hash_64(key, 40);
	unsigned int idx = hash_64(key, bits);
	u64 whole = hash_64(key, bits);

	if (idx == hash_64(key, bits))
		return (u32)hash_64(key, 64);
	return h + (u32)whole;
}
