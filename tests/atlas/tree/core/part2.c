// SPDX-License-Identifier: MIT
int part2(u32 v)
{
	return hash_32(v, 2);
}
