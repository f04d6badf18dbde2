/* SPDX-License-Identifier: MIT */
#include "tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh_table.h>

#include "engine.h"
#include "kernel_hashes.h"
#include "keysets.h"
#include "progress.h"

	/* x86's L1_CACHE_BYTES, 1 << CONFIG_X86_L1_CACHE_SHIFT: fs/inode.c and
 * fs/dcache.c divide a pointer by it.  64 on x86_64, 32 on the i386
 * kernels here (M686): the row of keysets.c, checked against their
 * .config. */
static uint64_t l1_cache_bytes(unsigned word)
{
	return UINT64_C(1) << kb_x86_arch_of(word)->l1_cache_shift;
}

/*
 * Read in the tree that Debian's linux-source-6.1 (6.1.192-3) installs.
 * Where a size is chosen at run time the default is the one named.
 */
const struct kb_table kb_tables[] = {
	{
		.name = "btrfs-raid56", .site = "fs/btrfs/raid56.c:178",
		.formula = "hash_64(logical >> 16, 11)",
		.func = LKH_FUNC_HASH_64, .bits = 11, .tx = KB_TX_SHR16,
		.keyset = KB_KS_BTRFS_STRIPE,
		.keys_are = "full-stripe logical addresses (RAID5, 2 data disks, 64 KiB)",
		.kind = KB_KIND_CHAINED,
	},
	{
		.name = "btrfs-raid56-raw", .site = "fs/btrfs/raid56.c:178 (without its >> 16)",
		.formula = "hash_64(logical, 11)",
		.func = LKH_FUNC_HASH_64, .bits = 11, .tx = KB_TX_NONE,
		.keyset = KB_KS_BTRFS_STRIPE,
		.keys_are = "full-stripe logical addresses, as the comment says not to",
		.kind = KB_KIND_CHAINED,
	},
	{
		.name = "folio-waitqueue", .site = "mm/filemap.c:1058",
		.formula = "hash_ptr(folio, 8)",
		.func = LKH_FUNC_HASH_PTR, .bits = 8, .tx = KB_TX_NONE,
		.keyset = KB_KS_STRUCT_PAGE,
		.keys_are = "folio (struct page) pointers",
		.kernel_keys = "struct_page", .kind = KB_KIND_LOCKS,
	},
	/* In 6.1 the bit waits that run are inodes' (the census: __I_NEW from
	 * fs/inode.c unlock_new_inode() and friends, __I_SYNC from
	 * fs/fs-writeback.c, half the keys each); page locks wait on
	 * folio-waitqueue.  The words are i_state inside inode slab objects,
	 * 1360 bytes apart on x86_64 and 800 on i386 in the census kernels
	 * (i_state's offset adds one constant to every word). */
	{
		.name = "bit-waitqueue", .site = "kernel/sched/wait_bit.c:17",
		.formula = "hash_long(word << (BITS_PER_LONG == 32 ? 5 : 6) | bit, 8)",
		.func = LKH_FUNC_HASH_LONG, .bits = 8, .tx = KB_TX_BITWAIT,
		.param = "bit", .param32 = 3, .param64 = 3,
		.keyset = KB_KS_SLAB,
		.size = 1360, .size32 = 800,
		.keys_are = "inode i_state words (inode slab objects, 1360 bytes; 800 on i386), bit __I_NEW = 3",
		.kind = KB_KIND_LOCKS,
	},
	/* The same table as page_waitqueue() used it from commit 9dcb8b685fc3
	 * (per-zone tables gone) until commit 62906027091f gave pages their
	 * own table, both late 2016: bit_waitqueue(page, 0). */
	{
		.name = "bit-wait-page", .site = "kernel/sched/wait_bit.c:17 (page locks in late 2016)",
		.formula = "hash_long(word << (BITS_PER_LONG == 32 ? 5 : 6) | bit, 8)",
		.func = LKH_FUNC_HASH_LONG, .bits = 8, .tx = KB_TX_BITWAIT,
		.param = "bit",
		.keyset = KB_KS_STRUCT_PAGE,
		.keys_are = "page flag words (struct page pointers), bit 0, as page_waitqueue() between 9dcb8b685fc3 and 62906027091f",
		.kernel_keys = "struct_page", .kind = KB_KIND_LOCKS,
	},
	{
		.name = "hash-min", .site = "include/linux/hashtable.h:32",
		.formula = "sizeof(key) <= 4 ? hash_32(key, bits) : hash_long(key, bits)",
		.func = LKH_FUNC_HASH_LONG, .bits = 10, .tx = KB_TX_HASH_MIN,
		.param = "key_bytes", .param32 = 4, .param64 = 8,
		.keyset = KB_KS_SEQ,
		.keys_are = "sequential ids in a DEFINE_HASHTABLE(name, 10) of unsigned long keys",
		.kind = KB_KIND_CHAINED,
	},
	/* sb and parent: a super block and a dentry in the direct map, at the
	 * same offset on both words */
	{
		.name = "inode-hash", .site = "fs/inode.c:548",
		.formula = "((ino * sb) ^ (GOLDEN_RATIO_PRIME + ino) / L1_CACHE_BYTES), folded by i_hash_shift",
		.func = LKH_FUNC_HASH_LONG, .bits = 17, .tx = KB_TX_INODE,
		.param = "sb",
		.param32 = KB_I386_PAGE_OFFSET + 0x3c2a000, .param64 = KB_X86_64_DIRECT_MAP + 0x3c2a000,
		.keyset = KB_KS_SEQ,
		.keys_are = "sequential inode numbers of one super block (i_hash_shift 17: 2 GiB of RAM)",
		.kind = KB_KIND_CHAINED,
	},
	/* ksmbd's inode table (issue 38), read in linux-source-6.12
	 * (6.12.118) fs/smb/server/vfs_cache.c, 6.1 the same at :58: a copy
	 * of fs/inode.c's hash() whose "hashval" is the dentry pointer
	 * (__ksmbd_inode_lookup(), ksmbd_inode_hash()), never a name hash;
	 * 16384 buckets, fixed.  sb: a super block of the 6.1 census (the
	 * busiest of inode_hash's on each arch), as page-aligned as every
	 * one there.  The dentry slab's objects: 192 bytes, 128 on i386 (the
	 * strides of tests/data/kernel-keys' dentry files). */
	{
		.name = "ksmbd-inode", .site = "fs/smb/server/vfs_cache.c:68 (6.12; 6.1 :58)",
		.formula = "inode_hash(sb, dentry): fs/inode.c's hash() of the dentry pointer, folded by inode_hash_shift 14",
		.func = LKH_FUNC_HASH_LONG, .bits = 14, .tx = KB_TX_INODE,
		.param = "sb", .param32 = 0xc025f000, .param64 = UINT64_C(0xffff888005808000),
		.keyset = KB_KS_SLAB, .size = 192, .size32 = 128,
		.keys_are = "dentry pointers: files a client holds open (dentry slab, 192 bytes; 128 on i386)",
		.kernel_keys = "dentry", .kind = KB_KIND_CHAINED,
	},
	/* The fix proposed in 2025 ("ksmbd: vfs_cache: avoid integer overflow
	 * in inode_hash()", v1 2025-11-13, v2 2025-11-15; its & mask is a
	 * no-op after hash_long's 14 bits), and hash_long of the key alone,
	 * the alternative explain and advise can take (their key is hashed
	 * as it is). */
	{
		.name = "ksmbd-inode-2025", .site = "fs/smb/server/vfs_cache.c:68 (the 2025 patch; unmerged)",
		.formula = "hash_long(dentry ^ sb, 14)",
		.func = LKH_FUNC_HASH_LONG, .bits = 14, .tx = KB_TX_XOR,
		.param = "sb", .param32 = 0xc025f000, .param64 = UINT64_C(0xffff888005808000),
		.keyset = KB_KS_SLAB, .size = 192, .size32 = 128,
		.keys_are = "dentry pointers, as ksmbd-inode",
		.kernel_keys = "dentry", .kind = KB_KIND_CHAINED,
	},
	{
		.name = "ksmbd-inode-key", .site = "fs/smb/server/vfs_cache.c:68 (an alternative: no sb)",
		.formula = "hash_long(dentry, 14)",
		.func = LKH_FUNC_HASH_LONG, .bits = 14, .tx = KB_TX_NONE,
		.keyset = KB_KS_SLAB, .size = 192, .size32 = 128,
		.keys_are = "dentry pointers, as ksmbd-inode",
		.kernel_keys = "dentry", .kind = KB_KIND_CHAINED,
	},
	{
		.name = "in-lookup-hash", .site = "fs/dcache.c:115",
		.formula = "hash_32(name_hash + parent / L1_CACHE_BYTES, 10)",
		.func = LKH_FUNC_HASH_32, .bits = 10, .tx = KB_TX_DCACHE,
		.param = "parent",
		.param32 = KB_DCACHE_PARENT32, .param64 = KB_DCACHE_PARENT64,
		.keyset = KB_KS_RANDOM,
		.keys_are = "name hashes of one directory (random 32-bit)",
		.kind = KB_KIND_CHAINED,
	},
	{
		.name = "kvm-mmu-gfn", .site = "arch/x86/kvm/mmu/mmu.c:1701",
		.formula = "hash_64(gfn, 12)",
		.func = LKH_FUNC_HASH_64, .bits = 12, .tx = KB_TX_NONE,
		.keyset = KB_KS_SEQ,
		.keys_are = "consecutive guest frame numbers",
		.kind = KB_KIND_CHAINED,
	},
	{
		.name = "jbd2-revoke", .site = "fs/jbd2/revoke.c:133",
		.formula = "hash_64(block, 8)",
		.func = LKH_FUNC_HASH_64, .bits = 8, .tx = KB_TX_NONE,
		.keyset = KB_KS_SEQ,
		.keys_are = "consecutive journal block numbers (256 entries, the default)",
		.kind = KB_KIND_CHAINED,
	},
	{
		.name = "sch-fq", .site = "net/sched/sch_fq.c:302",
		.formula = "hash_ptr(sk, 10)",
		.func = LKH_FUNC_HASH_PTR, .bits = 10, .tx = KB_TX_NONE,
		.keyset = KB_KS_SLAB,
		.size = 2048,
		.keys_are = "socket pointers: 2 KiB slab objects (fq_trees_log 10, the default)",
		.kind = KB_KIND_TREE,
	},
	{
		.name = "ftrace-hash", .site = "kernel/trace/ftrace.c:1113",
		.formula = "hash_long(ip, 10)",
		.func = LKH_FUNC_HASH_LONG, .bits = 10, .tx = KB_TX_NONE,
		.keyset = KB_KS_SEQ,
		.base32 = UINT64_C(0xc1000000), .base64 = UINT64_C(0xffffffff81000000), .stride = 64,
		.keys_are = "function entries 64 bytes apart in kernel text (FTRACE_HASH_DEFAULT_BITS)",
		.kind = KB_KIND_CHAINED,
	},
	/* Futexes (issue 38): a bucket is a spinlock and its waiters.  The
	 * 2016 private hash of "futex: Add support for process private
	 * hashing" V2 (tglx, 2016-05-05), never merged: its cover letter says
	 * it hashes with hash_long(); that the key is the futex's user address
	 * and the size (2^8 here) are not confirmed, the patch bodies were not
	 * found. */
	{
		.name = "futex-2016-private",
		.site = "kernel/futex.c (the 2016 private-hash series V2; unmerged)",
		.formula = "hash_long(uaddr, bits), bits per process (unconfirmed; 8 here)",
		.func = LKH_FUNC_HASH_LONG, .bits = 8, .tx = KB_TX_NONE,
		.keyset = KB_KS_FUTEX_MUTEX,
		.keys_are = "pthread_mutex_t lock words in an array (40 bytes; 24 on i386)",
		.kind = KB_KIND_LOCKS,
	},
	/* 6.1 and 6.12: one global table, read in linux-source-6.12
	 * (6.12.118) kernel/futex/core.c and include/linux/futex.h; the mm
	 * is an mm_struct in the direct map, any one. */
	{
		.name = "futex-global", .site = "kernel/futex/core.c:119 (6.12; 6.1 the same)",
		.formula = "jhash2({mm, uaddr & PAGE_MASK}, 4 words (i386 3), uaddr % PAGE_SIZE) & (futex_hashsize - 1)",
		.own_hash = "jhash2", .bits = 11, .tx = KB_TX_FUTEX_GLOBAL,
		.param = "mm",
		.param32 = KB_I386_PAGE_OFFSET + 0x35e8c40, .param64 = KB_X86_64_DIRECT_MAP + 0x35e8c40,
		.keyset = KB_KS_FUTEX_MUTEX,
		.keys_are = "pthread_mutex_t lock words in an array; futex_hashsize 2048: roundup_pow_of_two(256 * 8 possible CPUs)",
		.kind = KB_KIND_LOCKS,
	},
	/* 6.16's process-private table (80367ad01d93, Siewior and Zijlstra,
	 * 2025): the mm left out; 16 slots from the first thread, grown to
	 * roundup_pow_of_two(4 * threads) as threads come (facts from the
	 * commit message and the PR_FUTEX_HASH man page; the bucket formula
	 * read in a later tree, not in a 6.16.0 one). */
	{
		.name = "futex-6.16-private", .site = "kernel/futex/core.c __futex_hash() (6.16; private futexes)",
		.formula = "jhash2({uaddr & PAGE_MASK}, 2 words (i386 1), uaddr % PAGE_SIZE) & hash_mask",
		.own_hash = "jhash2", .bits = 4, .tx = KB_TX_FUTEX_PRIVATE,
		.keyset = KB_KS_FUTEX_MUTEX,
		.keys_are = "pthread_mutex_t lock words in an array; 16 slots, the default for up to 4 threads",
		.kind = KB_KIND_LOCKS,
	},
};

const unsigned kb_tables_count = sizeof(kb_tables) / sizeof(kb_tables[0]);

int kb_table_find(const char *name)
{
	unsigned i;

	for (i = 0; name && i < kb_tables_count; i++)
		if (!strcmp(name, kb_tables[i].name))
			return (int)i;
	return -1;
}

uint64_t kb_table_param(const struct kb_table *t, unsigned word)
{
	return word == 32 ? t->param32 : t->param64;
}

static uint64_t word_mask(unsigned word)
{
	return word == 64 ? UINT64_MAX : (UINT64_C(1) << word) - 1;
}

	/* fs/inode.c hash(): unsigned long arithmetic on a word-bit kernel. */
static uint64_t inode_hash(const struct kb_gen *g, unsigned word, unsigned bits,
			   uint64_t ino, uint64_t sb)
{
	uint64_t m = word_mask(word), grp = kb_gen_golden_ratio_prime(g, word);
	uint64_t tmp = ((ino * sb) & m) ^ (((grp + ino) & m) / l1_cache_bytes(word));

	tmp ^= (tmp ^ grp) >> bits;
	return tmp & ((UINT64_C(1) << bits) - 1);
}

/*
 * The futex tables: the key's u32 words as the kernel lays union
 * futex_key out in memory (little-endian x86), an unsigned long a word on
 * i386 and two on x86_64; the mm fills a u64 (zero-extended on i386).
 */
static int futex_bucket(const struct kb_table *t, unsigned word, unsigned bits,
			uint64_t uaddr, uint64_t mm, uint64_t *bucket, char *err,
			size_t errlen)
{
	uint64_t page = uaddr & ~UINT64_C(4095);
	uint32_t k[4];
	unsigned n = 0;

	if (uaddr > word_mask(word)) {
		snprintf(err, errlen, "%s: futex address %#llx does not fit a %u-bit kernel's word",
			 t->name, (unsigned long long)uaddr, word);
		return -1;
	}
	if (uaddr % 4) {
		snprintf(err, errlen, "%s: futex address %#llx is not 4-byte aligned (the kernel refuses it)",
			 t->name, (unsigned long long)uaddr);
		return -1;
	}
	if (bits < 1 || bits > 32) {
		snprintf(err, errlen, "%s: bits %u out of range: 1..32", t->name, bits);
		return -1;
	}
	if (t->tx == KB_TX_FUTEX_GLOBAL) {
		k[n++] = (uint32_t)mm;
		k[n++] = (uint32_t)(mm >> 32);
	}
	k[n++] = (uint32_t)page;
	if (word == 64)
		k[n++] = (uint32_t)(page >> 32);
	*bucket = kb_jhash2(k, n, (uint32_t)(uaddr & 4095)) & (uint32_t)((UINT64_C(1) << bits) - 1);
	return 0;
}

/* Generation U has no place in a table that computes its own bucket. */
static int no_place(const struct kb_table *t, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s computes its bucket itself (%s): your function has no place in it",
		 t->name, t->tx == KB_TX_INODE ? "fs/inode.c hash()" : "jhash2");
	return -1;
}

/*
 * What table t hashes for key: *v, the argument of its function *f, and
 * 0; or 1 with *bucket, where the table computes the bucket itself (the
 * inode hash, the futex tables' jhash2); or -1 with a reason.
 */
static int table_arg(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		     unsigned bits, uint64_t key, uint64_t param, uint64_t *v_out,
		     lkh_func *f_out, uint64_t *bucket, char *err, size_t errlen)
{
	lkh_func f = t->func;
	uint64_t v = key, m = word_mask(word);

	if (word != 32 && word != 64) {
		snprintf(err, errlen, "word size must be 32 or 64");
		return -1;
	}
	if (t->param && param > m) {
		snprintf(err, errlen, "%s: --param %s=%#llx does not fit a %u-bit kernel's word",
			 t->name, t->param, (unsigned long long)param, word);
		return -1;
	}
	switch (t->tx) {
	case KB_TX_SHR16:
		v = key >> 16;
		break;
	case KB_TX_BITWAIT:
	case KB_TX_XOR:
		if (key > m) {
			snprintf(err, errlen, "%s: key %#llx does not fit a %u-bit kernel's word",
				 t->name, (unsigned long long)key, word);
			return -1;
		}
		/* unsigned long arithmetic: bits shifted past the word are lost */
		v = t->tx == KB_TX_XOR ? key ^ param : ((key << (word == 32 ? 5 : 6)) | param) & m;
		break;
	case KB_TX_HASH_MIN:
		if (param != 4 && param != 8) {
			snprintf(err, errlen, "%s: key_bytes must be 4 or 8", t->name);
			return -1;
		}
		f = param <= 4 ? LKH_FUNC_HASH_32 : LKH_FUNC_HASH_LONG;
		break;
	case KB_TX_INODE:
		if (key > m) {
			snprintf(err, errlen, "%s: key %#llx does not fit a %u-bit kernel's word",
				 t->name, (unsigned long long)key, word);
			return -1;
		}
		if (bits < 1 || bits >= word) {
			snprintf(err, errlen, "%s: bits %u out of range: 1..%u", t->name, bits,
				 word - 1);
			return -1;
		}
		if (g->gen == KB_GEN_USER)
			return no_place(t, err, errlen);
		*bucket = inode_hash(g, word, bits, key, param);
		return 1;
	case KB_TX_DCACHE:
		if (key > UINT32_MAX) {
			snprintf(err, errlen, "%s: name hash %#llx is wider than 32 bits",
				 t->name, (unsigned long long)key);
			return -1;
		}
		v = (uint32_t)(key + param / l1_cache_bytes(word));
		break;
	case KB_TX_FUTEX_GLOBAL:
	case KB_TX_FUTEX_PRIVATE:
		if (g->gen == KB_GEN_USER)
			return no_place(t, err, errlen);
		return futex_bucket(t, word, bits, key, param, bucket, err, errlen) < 0 ? -1 : 1;
	default:
		break;
	}
	*v_out = v;
	*f_out = f;
	return 0;
}

int kb_table_arg_check(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		       unsigned bits, uint64_t key, uint64_t param, char *err, size_t errlen)
{
	uint64_t v, b;
	lkh_func f;

	return table_arg(t, g, word, bits, key, param, &v, &f, &b, err, errlen) < 0 ? -1 : 0;
}

int kb_table_bucket(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		    unsigned bits, uint64_t key, uint64_t param,
		    uint64_t *bucket, char *err, size_t errlen)
{
	lkh_func f;
	uint64_t v;
	int rc = table_arg(t, g, word, bits, key, param, &v, &f, bucket, err, errlen);

	if (rc != 0) /* an error, or the table's own bucket */
		return rc < 0 ? -1 : 0;
	if (g->gen == KB_GEN_USER) /* one key: one run of the function elsewhere */
		return kb_user_buckets(bits, &v, 1, bucket, err, errlen);
	if (g->gen == KB_GEN_K) {
		struct kb_hashspec s;

		kb_hashspec_make(&s, f, word, g);
		if (v > UINT32_MAX && kb_hashspec_input_bits(&s) == 32) {
			rc = LKH_ERR_RANGE;
		} else if (kb_hashspec_check(&s, bits, err, errlen) < 0) {
			return -1;
		} else {
			kb_full_words(&s, &v, 1, bucket);
			*bucket >>= 64 - bits;
			rc = LKH_OK;
		}
	} else {
		rc = lkh_hash(f, (lkh_gen)g->gen, word, v, bits, bucket);
	}
	if (rc == LKH_ERR_RANGE)
		snprintf(err, errlen, "%s: key %#llx does not fit the %u-bit argument of %s on %u-bit",
			 t->name, (unsigned long long)v, lkh_input_bits(f, word),
			 lkh_func_name(f), word);
	else if (rc != LKH_OK)
		snprintf(err, errlen, "%s: %s (bits %u)", t->name, lkh_strerror(rc), bits);
	return rc == LKH_OK ? 0 : -1;
}

/* Generation U through table t: every key's argument into v[n], for one
 * run of the user's function over all of them; 0, or -1 with a reason
 * and *at the key's index. */
static int user_args(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		     unsigned bits, uint64_t param, const uint64_t *keys, size_t n,
		     uint64_t *v, size_t *at, char *err, size_t errlen)
{
	uint64_t b;
	lkh_func f;
	size_t i;

	/* U's table_arg is 0 or -1: no table computes its bucket for it */
	for (i = 0; i < n; i++)
		if (table_arg(t, g, word, bits, keys[i], param, &v[i], &f, &b, err, errlen) < 0) {
			*at = i;
			return -1;
		}
	return 0;
}

static int user_count(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		      unsigned bits, uint64_t param, const uint64_t *keys, size_t n,
		      uint64_t *counts, char *err, size_t errlen)
{
	uint64_t *v = malloc((n ? n : 1) * sizeof(*v));
	size_t at;
	int rc;

	if (!v) {
		snprintf(err, errlen, "out of memory for %zu keys", n);
		return -1;
	}
	rc = user_args(t, g, word, bits, param, keys, n, v, &at, err, errlen);
	if (rc == 0)
		rc = kb_user_count(bits, bits, v, n, &counts, err, errlen);
	free(v);
	return rc;
}

int kb_table_buckets(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		     unsigned bits, uint64_t param, const uint64_t *keys, size_t n,
		     uint64_t *out, size_t *at, char *err, size_t errlen)
{
	uint64_t *v;
	size_t i;
	int rc;

	*at = n;
	if (g->gen != KB_GEN_USER) {
		for (i = 0; i < n; i++)
			if (kb_table_bucket(t, g, word, bits, keys[i], param, &out[i], err,
					    errlen) < 0) {
				*at = i;
				return -1;
			}
		return 0;
	}
	if (!(v = malloc((n ? n : 1) * sizeof(*v)))) {
		snprintf(err, errlen, "out of memory for %zu keys", n);
		return -1;
	}
	/* the arguments kept apart from out: a failure names the argument */
	rc = user_args(t, g, word, bits, param, keys, n, v, at, err, errlen);
	if (rc == 0)
		rc = kb_user_buckets(bits, v, n, out, err, errlen);
	free(v);
	return rc;
}

int kb_table_count(const struct kb_table *t, const struct kb_gen *g, unsigned word,
		   unsigned bits, uint64_t param, const uint64_t *keys,
		   size_t n, uint64_t *counts, char *err, size_t errlen)
{
	size_t i;

	if (g->gen == KB_GEN_USER)
		return user_count(t, g, word, bits, param, keys, n, counts, err, errlen);
	for (i = 0; i < n; i++) {
		uint64_t b;

		if (kb_table_bucket(t, g, word, bits, keys[i], param, &b, err, errlen) < 0)
			return -1;
		counts[b]++;
	}
	return 0;
}

int kb_table_count_keyset(const struct kb_table *t, const struct kb_gen *g, unsigned word,
			  unsigned bits, uint64_t param, int keyset,
			  const struct kb_keyset_params *p,
			  struct kb_progress *progress, uint64_t **counts,
			  char *err, size_t errlen)
{
	struct kb_keyset_params kp = *p;
	struct kb_keystream ks;
	uint64_t keys[1024];
	size_t n;
	int rc = 0;

	kp.word = word;
	/* the keys a table sees fit its key's type: 32 bits for a name hash */
	kp.input_bits = t->tx == KB_TX_DCACHE ? 32 : 64;
	if (bits < 1 || bits > 32) {
		snprintf(err, errlen, "%s: bits %u out of range: 1..32", t->name, bits);
		return -1;
	}
	if (kb_open_counted(&ks, keyset, &kp, bits, counts, err, errlen) < 0)
		return -1;
	while (rc == 0 && (n = kb_keystream_next(&ks, keys, 1024)) > 0) {
		rc = kb_table_count(t, g, word, bits, param, keys, n, *counts, err, errlen);
		kb_progress_add(progress, n);
	}
	kb_keystream_close(&ks);
	if (rc < 0) {
		free(*counts);
		*counts = NULL;
	}
	return rc;
}

void kb_table_model(const struct kb_table *t, unsigned word, uint64_t count,
		    uint64_t seed, struct kb_keyset_params *kp)
{
	memset(kp, 0, sizeof(*kp));
	kp->count = count;
	kp->seed = seed;
	kp->word = word;
	kp->input_bits = t->tx == KB_TX_DCACHE ? 32 : 64;
	kp->size = word == 32 && t->size32 ? t->size32 : t->size;
	if (t->stride) {
		kp->has_base = kp->has_stride = 1;
		kp->base = word == 32 ? t->base32 : t->base64;
		kp->stride = t->stride;
	}
}

int kb_table_count_model(const struct kb_table *t, const struct kb_gen *g, unsigned word,
			 unsigned bits, uint64_t param, uint64_t count,
			 uint64_t seed, uint64_t **counts, char *err,
			 size_t errlen)
{
	struct kb_keyset_params kp;

	kb_table_model(t, word, count, seed, &kp);
	return kb_table_count_keyset(t, g, word, bits, param, t->keyset, &kp, NULL,
				     counts, err, errlen);
}
