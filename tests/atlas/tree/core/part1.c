// SPDX-License-Identifier: MIT
SYSCALL_DEFINE1(part, unsigned long, v)
{
	return __hash_32(v);
}
