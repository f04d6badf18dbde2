/* SPDX-License-Identifier: MIT */
/*
 * The plain loop (plain_loop.h) built once for every table size, so that
 * each has its shift as a constant, as a user's loop for one table would.
 */
#include "plain_loop.h"

#define SIZES(X)                                                                 \
	X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) \
	X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26)   \
	X(27) X(28) X(29) X(30) X(31) X(32)

#define BUILD(b)                                 \
	KB_PLAIN_LOOPS(u32_##b, uint32_t, b)     \
	KB_PLAIN_LOOPS(u64_##b, uint64_t, b)     \
	static void plain_##b(const uint64_t *keys, uint64_t first, uint64_t stride, \
			      uint64_t n, void *c)                                    \
	{                                                                            \
		if (n >> 32 && keys)                                                 \
			kb_plain_array_u64_##b(keys, n, c);                          \
		else if (n >> 32)                                                    \
			kb_plain_step_u64_##b(first, stride, n, c);                  \
		else if (keys)                                                       \
			kb_plain_array_u32_##b(keys, n, c);                          \
		else                                                                 \
			kb_plain_step_u32_##b(first, stride, n, c);                  \
	}
SIZES(BUILD)
#undef BUILD

typedef void plain_fn(const uint64_t *, uint64_t, uint64_t, uint64_t, void *);

static plain_fn *const plain[KB_PLAIN_BITS_MAX + 1] = {
#define ROW(b) [b] = plain_##b,
	SIZES(ROW)
#undef ROW
};

int kb_plain_count(const uint64_t *keys, uint64_t first, uint64_t stride,
		   uint64_t n, unsigned bits, void *counts)
{
	if (bits < 1 || bits > KB_PLAIN_BITS_MAX)
		return -1;
	plain[bits](keys, first, stride, n, counts);
	return 0;
}
