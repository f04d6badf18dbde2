/* SPDX-License-Identifier: MIT */
/* scan fixture: an even multiplier of no kernel's, before a fixed shift. */
#include <stdint.h>

static uint32_t top32(uint64_t key)
{
	return (uint32_t)((key * 0xc6a4a7935bd1e994ull) >> 32);
}
