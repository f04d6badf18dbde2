// SPDX-License-Identifier: MIT
/* Uses under #ifs, in macros, and names that are no uses. */
#include "local.h"

#define TBL_BITS 6
static DEFINE_HASHTABLE(tbl, TBL_BITS);
static struct hlist_head slots[1 << 3];

/* hash_32(x, 3) in a comment is no use */
static const char *s = "hash_64(y, 8)";
u32 hash_ptr(const void *p, unsigned int bits);

#define SLOT_OF(k) hash_32(k, 3)

void table_add(struct item *n, u32 key)
{
#ifdef CONFIG_ON
	hash_add(tbl, &n->node, key);
#else
	if (key) {
#endif
	if (n->other) {
		hlist_add_head(&n->x, &slots[SLOT_OF(key)]);
	}
}

int table_find(u32 key)
{
#if IS_ENABLED(CONFIG_MOD) && !defined(CONFIG_EXTRA)
	unsigned int h = hash_32(key, CONFIG_SHIFT);

	return slots[h] != NULL;
#elif defined(CONFIG_ON)
	return SLOT_OF(key);
#endif
#if SOME_MACRO_FROM_ELSEWHERE(2)
	return n->ops->hash_64(key, 2);
#endif
#if SOME_MACRO_FROM_ELSEWHERE(2) || defined(CONFIG_EXTRA)
	return hash_64(key, 2);
#endif
}

int table_local(unsigned long v)
{
	return LOCAL_OF(v);
}
