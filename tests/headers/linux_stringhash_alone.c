/* SPDX-License-Identifier: MIT */
/* Build-only check: the string-hash drop-in compiles alone, strict C99. */
#include <khash/linux_stringhash.h>

unsigned linux_stringhash_header_check(const void *parent, const char *s);
unsigned linux_stringhash_header_check(const void *parent, const char *s)
{
	return full_name_hash(parent, s, 1) + hashlen_hash(hashlen_string(parent, s)) +
	       (unsigned)hash_str(s, 6) + end_name_hash(partial_name_hash(1, init_name_hash(parent)));
}
