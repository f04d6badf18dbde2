/* SPDX-License-Identifier: MIT */
/* A seeded, reproducible stream of well-mixed 64-bit test inputs
 * (splitmix64), shared by the test programs. */
#ifndef LKH_TEST_RNG_H
#define LKH_TEST_RNG_H

#include <stdint.h>

static inline uint64_t test_next_random(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

#endif
