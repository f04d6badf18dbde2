/* SPDX-License-Identifier: MIT */
/* scan fixture: the kernel's multipliers negated, 2^32/phi and 2^64/phi. */
#include <stdint.h>

static uint32_t mirrored32(uint32_t x)
{
	return x * 0x9e3779b9U;
}

static uint64_t mirrored64(uint64_t x)
{
	return x * 11400714819323198485llu;
}
