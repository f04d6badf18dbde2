/* SPDX-License-Identifier: MIT */
/* Build-only check: the drop-in compiles alone, strict C99, no warnings. */
#include <khash/linux_hash.h>

unsigned long linux_hash_header_check(const void *p);
unsigned long linux_hash_header_check(const void *p)
{
	return (unsigned long)hash_ptr(p, 7) + hash_long(7ul, 3) +
	       hash32_ptr(p);
}
