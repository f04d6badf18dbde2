/* SPDX-License-Identifier: MIT */
#define LOCAL_BITS 4
static inline unsigned int local_slot(unsigned long v)
{
	return hash_long(v, LOCAL_BITS);
}

/* used by table.c only: the census sees it there, expanded is empty */
#define LOCAL_OF(v) hash_long(v, LOCAL_BITS)
