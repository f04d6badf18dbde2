/* SPDX-License-Identifier: MIT */
/* Build-only check: the table header compiles alone, strict C99, and its
 * X-macros expand into valid code for a user's own row macro. */
#include <khash/lkh_table.h>

#define COUNT_ROW(g, f, w, fn, ret, product) +1
enum { lkh_table_check_cells = 0 LKH_CELL_TABLE(COUNT_ROW) };
#undef COUNT_ROW

int lkh_table_check(void);
int lkh_table_check(void)
{
	return lkh_cell_product(LKH_FUNC_HASH_64, LKH_GEN_NEW, 64) +
	       (int)lkh_product_width(LKH_PRODUCT_OLD32) + lkh_table_check_cells;
}
