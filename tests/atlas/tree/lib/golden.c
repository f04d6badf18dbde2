// SPDX-License-Identifier: MIT
static unsigned int fold(unsigned long x, unsigned int bits)
{
	return (x * GOLDEN_RATIO_64) >> (64 - bits);
}
