// SPDX-License-Identifier: MIT
// Build-only check: the public headers compile as C++, in both modes the
// language allows in one file (inline here; link-only in the C checks).
#include <khash/linux_hash.h>
#include <khash/lkh.h>
#include <khash/lkh_table.h>
#include <khash/lkh_string.h>
#include <khash/linux_stringhash.h>

unsigned cxx_header_check(const void *p);
unsigned cxx_header_check(const void *p)
{
	return hash_32(1u, 5) + static_cast<unsigned>(hash_ptr(p, 9)) +
	       static_cast<unsigned>(lkh_cell_product(LKH_FUNC_HASH_32, LKH_GEN_OLD, 32)) +
	       static_cast<unsigned>(lkh_old_hash64_w32(3u, 11)) +
	       lkh_mix_full_name_hash_w32_be("a", 1) + full_name_hash(p, "a", 1);
}
