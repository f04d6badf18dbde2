/* SPDX-License-Identifier: MIT */
/*
 * Built-in key sets: models of the integers and pointers the kernel hashes,
 * produced as a stream in blocks so memory stays O(1) in the key count
 * (the heap sets excepted: their objects must stay allocated to be real).
 */
#ifndef KB_KEYSETS_H
#define KB_KEYSETS_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh.h>

/* x86_64: direct map (PAGE_OFFSET) and vmemmap bases; i386: 3G/1G split
 * (CONFIG_PAGE_OFFSET, CONFIG_VMSPLIT_3G), mem_map 16 MiB above it.  The
 * address key sets start here; the named tables' pointers sit above. */
#define KB_X86_64_DIRECT_MAP UINT64_C(0xffff888000000000)
#define KB_X86_64_VMEMMAP UINT64_C(0xffffea0000000000)
#define KB_I386_PAGE_OFFSET UINT64_C(0xc0000000)
#define KB_I386_MEM_MAP UINT64_C(0xc1000000)

enum kb_keyset_id {
	KB_KS_SEQ,
	KB_KS_RANDOM,
	KB_KS_PAGE4K,
	KB_KS_PAGE2M,
	KB_KS_STRUCT_PAGE,
	KB_KS_SLAB,
	KB_KS_HEAP_GLIBC,
	KB_KS_HEAP_JEMALLOC,
	KB_KS_BTRFS_STRIPE,
	KB_KS_FILE_OFFSET,
	KB_KS_SECTOR,
	KB_KS_ADVERSARIAL,
	/* futex words as glibc lays them out (kb_futex_layouts) */
	KB_KS_FUTEX_MUTEX,
	KB_KS_FUTEX_COND,
	KB_KS_FUTEX_BARRIER,
	KB_KS_FUTEX_THREAD,
	KB_KS_COUNT
};

/* The futex sets: user addresses, for the futex tables; report's and the
 * audit's sweeps over every set (kernel pointers and numbers) leave them
 * out unless named. */
#define KB_KS_FUTEX_SETS \
	(((1u << (KB_KS_FUTEX_THREAD + 1)) - 1) & ~((1u << KB_KS_FUTEX_MUTEX) - 1))

struct kb_keyset_info {
	const char *name;
	const char *formula;   /* documented in `khash-bench list` */
	uint64_t base64, base32; /* defaults for 64- and 32-bit kernels */
	uint64_t stride64, stride32;
	unsigned flags;
};

#define KB_KS_ARITHMETIC 1u /* base + i * stride */
#define KB_KS_RANDOMISED 2u /* depends on --seed */
#define KB_KS_HEAP 4u       /* real allocator pointers: vary run to run */
#define KB_KS_SIZED 8u      /* takes --size */
#define KB_KS_PER_CELL 16u  /* built for one function, generation, bits */

extern const struct kb_keyset_info kb_keysets[KB_KS_COUNT];

/*
 * The x86 facts the models take from a kernel's configuration, one row a
 * word size, as the resolved .config of every kernel whose keys are
 * committed has them (tests/data/census/6.1-<arch>.config,
 * tests/data/kernel-keys/6.1/<arch>.config; tests/test_tables.c re-reads
 * them).  page_offset is CONFIG_PAGE_OFFSET on i386; x86_64 has no such
 * symbol: its direct map starts at the 4-level paging default, unless
 * CONFIG_RANDOMIZE_MEMORY moves it (the kernel-keys kernels do).
 */
struct kb_x86_arch {
	const char *arch;         /* as ARCH= names it */
	unsigned word;            /* BITS_PER_LONG */
	unsigned l1_cache_shift;  /* CONFIG_X86_L1_CACHE_SHIFT */
	uint64_t page_offset;     /* start of the direct map */
	int page_offset_in_config; /* CONFIG_PAGE_OFFSET holds page_offset */
};

extern const struct kb_x86_arch kb_x86_arches[2];

/* The row of a word-bit kernel (32 or 64); NULL for any other word. */
const struct kb_x86_arch *kb_x86_arch_of(unsigned word);

/*
 * Where glibc (2.36, x86_64 and i386) keeps the futex words of an object
 * that threads wait on, one row a futex key set: the object's size and
 * the offsets of the words futex() is called on.  The key sets are arrays
 * of such objects from the first heap chunk of a process without ASLR,
 * or, descending, the threads' stacks, each thread's struct pthread at
 * the top of its own mapping.
 */
struct kb_futex_layout {
	int keyset;
	const char *type;
	unsigned size64, size32;   /* sizeof(type) on x86_64 and i386 */
	unsigned nwords;           /* futex words an object */
	unsigned off64[2], off32[2];
	int descending;            /* each object below the one before */
};

#define KB_FUTEX_LAYOUTS 4
extern const struct kb_futex_layout kb_futex_layouts[KB_FUTEX_LAYOUTS];

/* The layout of a futex key set; NULL for any other set. */
const struct kb_futex_layout *kb_futex_layout_of(int keyset);

/* Look a key set up by name; -1 when unknown. */
int kb_keyset_find(const char *name);

/* Is a key set available in this build (jemalloc, glibc)? */
int kb_keyset_available(int id);

struct kb_keyset_params {
	uint64_t count;
	uint64_t base, stride; /* used when has_base / has_stride */
	int has_base, has_stride;
	uint64_t seed;
	unsigned size;       /* object size for slab and heap sets; 0 = mix */
	unsigned word;       /* kernel word size: picks 32- or 64-bit bases */
	unsigned input_bits; /* 32 when the function takes a 32-bit argument */
	/* the cell a per-cell set (adversarial) is built against */
	lkh_func target_func;
	lkh_gen target_gen;
	uint64_t target_k;        /* generation K instead, when its width */
	unsigned target_k_width;  /* is not 0 */
	unsigned target_bits;
};

struct kb_keystream {
	int id;
	struct kb_keyset_params p;
	uint64_t base, stride, next, end;
	int adv_kind;        /* adversarial: which inversion */
	uint64_t adv_inv, adv_mul, adv_span;
	uint64_t *heap;      /* the live objects of a heap set */
	const struct kb_futex_layout *futex; /* a futex set's layout */
};

/*
 * Open a stream; on failure returns -1 with a one-line reason in err
 * (unknown set, keys that do not fit input_bits, allocation failure...).
 */
int kb_keystream_open(struct kb_keystream *ks, int id,
		      const struct kb_keyset_params *p, char *err,
		      size_t errlen);
/*
 * Restrict the stream to keys [first, end): every built-in set can start
 * anywhere (random keys are a function of their index), so threads can
 * split one set between them.
 */
void kb_keystream_seek(struct kb_keystream *ks, uint64_t first, uint64_t end);
/* 1 if the stream's keys are an arithmetic progression, with the next
 * key and the step; then kb_keystream_skip() consumes them unread. */
int kb_keystream_progression(const struct kb_keystream *ks, uint64_t *first,
			     uint64_t *stride);
size_t kb_keystream_skip(struct kb_keystream *ks, size_t max);
/* Up to max keys into buf; 0 at the end. */
size_t kb_keystream_next(struct kb_keystream *ks, uint64_t *buf, size_t max);
void kb_keystream_close(struct kb_keystream *ks);

/* The inverse of an odd number modulo 2^64. */
uint64_t kb_inverse_mod_2_64(uint64_t odd);

/* The greatest common divisor (gcd(0, b) = b). */
uint64_t kb_gcd64(uint64_t a, uint64_t b);

/* Every key of a key set in one malloc()ed array (*keys, *n; the caller
 * frees it): 0, or -1 with a reason. */
int kb_keyset_collect(int id, const struct kb_keyset_params *p, uint64_t **keys,
		      size_t *n, char *err, size_t errlen);

/* splitmix64: the seeded generator behind every random choice; the i-th
 * value from a seed, directly, for streams that start mid-way. */
uint64_t kb_splitmix64(uint64_t *state);
uint64_t kb_splitmix64_at(uint64_t seed, uint64_t i);

#endif
