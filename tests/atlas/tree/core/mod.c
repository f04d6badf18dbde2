// SPDX-License-Identifier: MIT
#define BUCKET_BITS 5
static struct hlist_head buckets[1 << BUCKET_BITS];

static struct hlist_head *bucket(const void *p)
{
	return &buckets[hash_ptr(p, BUCKET_BITS)];
}

#ifdef MODULE
static unsigned int mod_only(u64 k) { return hash_64(k, 10); }
#endif
