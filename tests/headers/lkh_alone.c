/* SPDX-License-Identifier: MIT */
/* Build-only check: the header compiles alone, strict C99, no warnings. */
#include <khash/lkh.h>

uint32_t lkh_header_check(uint32_t v);
uint32_t lkh_header_check(uint32_t v)
{
	return lkh_new_hash32(v, 7);
}
