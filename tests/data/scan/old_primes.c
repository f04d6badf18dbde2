/* SPDX-License-Identifier: MIT */
/* scan fixture: the pre-4.7 multipliers, in hex of either case and in decimal. */
#include <stdint.h>

#define MY_PRIME_32 0x9e370001UL
#define MY_PRIME_64 0x9E37FFFFFFFC0001ULL

static uint32_t bucket32(uint32_t x, unsigned bits)
{
	uint32_t h = x * 2654404609u;

	return h >> (32 - bits);
}
