// SPDX-License-Identifier: MIT
int off(u64 v)
{
	return hash_64(v, 7);
}
