/* SPDX-License-Identifier: MIT */
/* scan fixture: shifts by the word minus a count that can be 0, and one guarded. */
#include <stdint.h>

struct table { unsigned shift; };

static uint64_t unguarded(uint64_t h, unsigned bits)
{
	return h >> (64 - bits);
}

static uint64_t guarded(uint64_t h, unsigned bits)
{
	if (!bits)
		return 0;
	return h >> (64 - bits);
}

static unsigned long member(unsigned long h, const struct table *t)
{
	return h >> (BITS_PER_LONG - t->shift);
}

static uint32_t left(uint32_t h, unsigned n)
{
	return h << (32 - n);
}

static uint32_t conditional(uint32_t h, unsigned bits)
{
	return bits ? h >> (32 - bits) : 0;
}
