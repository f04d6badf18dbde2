/* SPDX-License-Identifier: MIT */
/* Build-only check: the string-hash header compiles alone, strict C99. */
#include <khash/lkh_string.h>

uint32_t lkh_string_header_check(const char *s);
uint32_t lkh_string_header_check(const char *s)
{
	return lkh_new_full_name_hash_w64_le(0, s, 1) ^ (uint32_t)lkh_sum_hash_str_w32_byte(s, 6);
}
