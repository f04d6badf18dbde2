/* SPDX-License-Identifier: MIT */
/* Definitions, not uses: the scan leaves this file out. */
#define hash_long(val, bits) hash_64(val, bits)
static inline unsigned int hash_32(unsigned int val, unsigned int bits)
{
	return (val * GOLDEN_RATIO_32) >> (32 - bits);
}
