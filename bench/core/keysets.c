/* SPDX-License-Identifier: MIT */
#include "keysets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh_table.h>

#ifdef KB_HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#if defined(__GLIBC__)
/* glibc's own allocator, reachable even when jemalloc replaces malloc. */
extern void *__libc_malloc(size_t size);
extern void __libc_free(void *ptr);
#define KB_HAVE_GLIBC_MALLOC 1
#endif

#define KIB UINT64_C(1024)
#define MIB (KIB * KIB)

/* malloc()'s first chunk in a process under setarch -R (glibc 2.36,
 * Debian 12: measured with a PIE printing malloc(), gcc and gcc -m32) */
#define HEAP_START64 UINT64_C(0x5555555592a0)
#define HEAP_START32 UINT64_C(0x5655a1a0)

/* The first thread's tid word (struct pthread's, which pthread_join()
 * waits on: clone3's child_tid) under setarch -R; each next thread's
 * stack is mapped 8 MiB (ulimit -s) + a 4 KiB guard page below it. */
#define THREAD_TID64 UINT64_C(0x7ffff7dcf990)
#define THREAD_TID32 UINT64_C(0xf7d8bba8)
#define THREAD_STACK (8 * MIB + 4 * KIB)

#define BTRFS_CHUNK_START (1024 * MIB)
#define BTRFS_STRIPE_LEN (64 * KIB)

/*
 * x86_64 takes its CPU from tinyconfig's default, GENERIC_CPU (64-byte
 * lines); i386 takes M686, whose line is 32 bytes (X86_L1_CACHE_SHIFT 5).
 */
const struct kb_x86_arch kb_x86_arches[2] = {
	{ "x86_64", 64, 6, KB_X86_64_DIRECT_MAP, 0 },
	{ "i386", 32, 5, KB_I386_PAGE_OFFSET, 1 },
};

const struct kb_x86_arch *kb_x86_arch_of(unsigned word)
{
	unsigned i;

	for (i = 0; i < sizeof(kb_x86_arches) / sizeof(kb_x86_arches[0]); i++)
		if (kb_x86_arches[i].word == word)
			return &kb_x86_arches[i];
	return NULL;
}

const struct kb_keyset_info kb_keysets[KB_KS_COUNT] = {
	[KB_KS_SEQ] = { "seq", "base + i (base 0)", 0, 0, 1, 1,
			KB_KS_ARITHMETIC },
	[KB_KS_RANDOM] = { "random",
			   "uniform over the argument's width (splitmix64, --seed)",
			   0, 0, 0, 0, KB_KS_RANDOMISED },
	[KB_KS_PAGE4K] = { "page4k",
			   "direct-map base + i * 4 KiB (x86_64 0xffff888000000000, i386 0xc0000000)",
			   KB_X86_64_DIRECT_MAP, KB_I386_PAGE_OFFSET, 4 * KIB, 4 * KIB,
			   KB_KS_ARITHMETIC },
	[KB_KS_PAGE2M] = { "page2m",
			   "direct-map base + i * 2 MiB (i386 base 0: 2048 fit in 4 GiB)",
			   KB_X86_64_DIRECT_MAP, 0, 2 * MIB, 2 * MIB,
			   KB_KS_ARITHMETIC },
	[KB_KS_STRUCT_PAGE] = { "struct-page",
				"vmemmap + i * sizeof(struct page) (x86_64 0xffffea0000000000 + 64 i, i386 0xc1000000 + 32 i)",
				KB_X86_64_VMEMMAP, KB_I386_MEM_MAP, 64, 32,
				KB_KS_ARITHMETIC },
	[KB_KS_SLAB] = { "slab",
			 "objects of --size bytes (default 256) packed into consecutive 4 KiB slab pages from the direct map",
			 KB_X86_64_DIRECT_MAP, KB_I386_PAGE_OFFSET, 0, 0,
			 KB_KS_SIZED },
	[KB_KS_HEAP_GLIBC] = { "heap-glibc",
			       "live objects from glibc malloc, --size bytes or a seeded mix of 16..4096",
			       0, 0, 0, 0,
			       KB_KS_HEAP | KB_KS_SIZED | KB_KS_RANDOMISED },
	[KB_KS_HEAP_JEMALLOC] = { "heap-jemalloc",
				  "live objects from jemalloc (mallocx), --size bytes or a seeded mix of 16..4096",
				  0, 0, 0, 0,
				  KB_KS_HEAP | KB_KS_SIZED | KB_KS_RANDOMISED },
	[KB_KS_BTRFS_STRIPE] = { "btrfs-stripe",
				 "btrfs RAID5/6 full stripes: chunk start 1 GiB + i * nr_data (2) * 64 KiB",
				 BTRFS_CHUNK_START, BTRFS_CHUNK_START,
				 2 * BTRFS_STRIPE_LEN, 2 * BTRFS_STRIPE_LEN,
				 KB_KS_ARITHMETIC },
	[KB_KS_FILE_OFFSET] = { "file-offset", "i * 4096 (page-cache indices as byte offsets)",
				0, 0, 4 * KIB, 4 * KIB, KB_KS_ARITHMETIC },
	[KB_KS_SECTOR] = { "sector", "i * 512 (sector byte addresses)", 0, 0,
			   512, 512, KB_KS_ARITHMETIC },
	[KB_KS_ADVERSARIAL] = { "adversarial",
				"keys built for one function, generation and bits to share bucket 0: t * K^-1 mod 2^w (one cell: skew, keys, advise and explain take it, report and tables do not)",
				0, 0, 0, 0, KB_KS_PER_CELL },
	[KB_KS_FUTEX_MUTEX] = { "futex-mutex",
				"an array of pthread_mutex_t (40 bytes, i386 24) from the first heap chunk (0x5555555592a0, i386 0x5655a1a0): each one's lock word",
				HEAP_START64, HEAP_START32, 0, 0, 0 },
	[KB_KS_FUTEX_COND] = { "futex-cond",
			       "an array of pthread_cond_t (48 bytes) from the first heap chunk: each one's two __g_signals words (offsets 40, 44), the words waiters sleep on",
			       HEAP_START64, HEAP_START32, 0, 0, 0 },
	[KB_KS_FUTEX_BARRIER] = { "futex-barrier",
				  "an array of pthread_barrier_t (32 bytes, i386 20) from the first heap chunk: each one's current_round word (offset 4)",
				  HEAP_START64, HEAP_START32, 0, 0, 0 },
	[KB_KS_FUTEX_THREAD] = { "futex-thread",
				 "threads' tid words (what pthread_join waits on), one a thread stack: 0x7ffff7dcf990 (i386 0xf7d8bba8) - i * (8 MiB + 4 KiB)",
				 THREAD_TID64, THREAD_TID32, 0, 0, 0 },
};

/* glibc's bits/thread-shared-types.h and pthreadtypes-arch.h give the
 * sizes and the condition variable's fields; the mutex's lock is its
 * first word; the barrier (nptl's struct pthread_barrier: in,
 * current_round, ...) waits on its second. */
const struct kb_futex_layout kb_futex_layouts[KB_FUTEX_LAYOUTS] = {
	{ KB_KS_FUTEX_MUTEX, "pthread_mutex_t", 40, 24, 1, { 0 }, { 0 }, 0 },
	{ KB_KS_FUTEX_COND, "pthread_cond_t", 48, 48, 2, { 40, 44 }, { 40, 44 }, 0 },
	{ KB_KS_FUTEX_BARRIER, "pthread_barrier_t", 32, 20, 1, { 4 }, { 4 }, 0 },
	{ KB_KS_FUTEX_THREAD, "thread stack", THREAD_STACK, THREAD_STACK, 1, { 0 }, { 0 }, 1 },
};

const struct kb_futex_layout *kb_futex_layout_of(int keyset)
{
	unsigned i;

	for (i = 0; i < KB_FUTEX_LAYOUTS; i++)
		if (kb_futex_layouts[i].keyset == keyset)
			return &kb_futex_layouts[i];
	return NULL;
}

int kb_keyset_find(const char *name)
{
	int i;

	for (i = 0; i < KB_KS_COUNT; i++)
		if (strcmp(name, kb_keysets[i].name) == 0)
			return i;
	return -1;
}

int kb_keyset_available(int id)
{
	switch (id) {
	case KB_KS_HEAP_GLIBC:
#ifdef KB_HAVE_GLIBC_MALLOC
		return 1;
#else
		return 0;
#endif
	case KB_KS_HEAP_JEMALLOC:
#ifdef KB_HAVE_JEMALLOC
		return 1;
#else
		return 0;
#endif
	default:
		return id >= 0 && id < KB_KS_COUNT;
	}
}

uint64_t kb_gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int kb_keyset_collect(int id, const struct kb_keyset_params *p, uint64_t **keys,
		      size_t *n, char *err, size_t errlen)
{
	struct kb_keystream ks;
	size_t got;

	*n = 0;
	*keys = malloc((size_t)(p->count ? p->count : 1) * sizeof(**keys));
	if (!*keys) {
		snprintf(err, errlen, "out of memory for %llu keys", (unsigned long long)p->count);
		return -1;
	}
	if (kb_keystream_open(&ks, id, p, err, errlen) < 0) {
		free(*keys);
		*keys = NULL;
		return -1;
	}
	for (; *n < p->count; *n += got)
		if (!(got = kb_keystream_next(&ks, *keys + *n, (size_t)p->count - *n)))
			break;
	kb_keystream_close(&ks);
	return 0;
}

uint64_t kb_inverse_mod_2_64(uint64_t odd)
{
	/* Newton's iteration doubles the correct low bits each step:
	 * x = odd is right to 3 bits (odd * odd = 1 mod 8), 5 steps give 96. */
	uint64_t x = odd;
	int i;

	for (i = 0; i < 5; i++)
		x *= 2 - odd * x;
	return x;
}

/*
 * Adversarial keys.  Every function takes the top bits of a word that is a
 * product by a public odd constant K (of 32 or 64 bits), so any word t
 * below 2^(w - bits) has the preimage t * K^-1: all such keys share bucket
 * 0.  The 32-bit hash_64 of posted and new first combine the halves; the
 * high half is then free (a counter) and the low half is solved for.
 */
enum { ADV_MUL32, ADV_MUL64, ADV_POSTED_W32, ADV_NEW_W32 };

static int open_adversarial(struct kb_keystream *ks, char *err, size_t errlen)
{
	const struct kb_keyset_params *p = &ks->p;
	lkh_func f = p->target_func;
	unsigned width, bits = p->target_bits;
	uint64_t k, capacity;

	if (lkh_bits_max(f, p->target_gen, p->word) == 0 || bits < 1 ||
	    bits > (p->target_k_width ? p->target_k_width
				      : lkh_bits_max(f, p->target_gen, p->word))) {
		snprintf(err, errlen, "adversarial: needs a function, generation and bits to attack");
		return -1;
	}
	if (p->target_k_width > lkh_input_bits(f, p->word)) {
		snprintf(err, errlen, "adversarial: K's 64-bit product of %s's 32-bit argument has no inverse to build keys with (give --width 32)",
			 lkh_func_name(f));
		return -1;
	}
	/* the cell's arithmetic and multiplier, from lkh_table.h, or K */
	switch (p->target_k_width == 64 ? (k = p->target_k, LKH_ARITH_MUL64)
		: p->target_k_width ? (k = p->target_k, LKH_ARITH_MUL32)
				    : lkh_product_arith(lkh_cell_product(f, p->target_gen, p->word), &k)) {
	case LKH_ARITH_MUL32:
		ks->adv_kind = ADV_MUL32;
		width = 32;
		break;
	case LKH_ARITH_MUL64:
	case LKH_ARITH_CHAIN64: /* the chain computes the same product */
		ks->adv_kind = ADV_MUL64;
		width = 64;
		break;
	case LKH_ARITH_MUL32_ADD:
	case LKH_ARITH_MUL32_XOR:
		ks->adv_kind = lkh_product_arith(lkh_cell_product(f, p->target_gen, p->word),
						 &k) == LKH_ARITH_MUL32_ADD
				       ? ADV_POSTED_W32
				       : ADV_NEW_W32;
		ks->adv_mul = k;
		width = 32;
		break;
	default:
		snprintf(err, errlen, "adversarial: %s has no multiplier to invert",
			 lkh_func_name(f));
		return -1;
	}
	ks->adv_inv = kb_inverse_mod_2_64(k);
	if (width == 32)
		ks->adv_inv = (uint32_t)ks->adv_inv;
	ks->adv_span = bits >= width ? 1 : UINT64_C(1) << (width - bits);
	/* the 32-bit hash_64 forms also vary the free high half */
	capacity = ks->adv_kind >= ADV_POSTED_W32 ? UINT64_C(1) << 32
						  : ks->adv_span;
	if (p->count > capacity) {
		snprintf(err, errlen, "adversarial: only %llu distinct keys share one bucket at %u bits",
			 (unsigned long long)capacity, bits);
		return -1;
	}
	return 0;
}

static uint64_t adversarial_key(const struct kb_keystream *ks, uint64_t i)
{
	uint64_t t = i % ks->adv_span, x;
	uint32_t hi, inner;

	switch (ks->adv_kind) {
	case ADV_MUL32:
		return (uint32_t)(t * ks->adv_inv);
	case ADV_MUL64:
		return t * ks->adv_inv;
	default:
		/* inner 32-bit value whose product by GR32 is t */
		inner = (uint32_t)(t * ks->adv_inv);
		hi = (uint32_t)i;
		x = (uint32_t)(hi * ks->adv_mul);
		if (ks->adv_kind == ADV_POSTED_W32)
			return (uint64_t)hi << 32 | (uint32_t)(inner - x);
		return (uint64_t)hi << 32 | (uint32_t)(inner ^ x);
	}
}

#define SPLITMIX_GAMMA UINT64_C(0x9e3779b97f4a7c15)

static uint64_t splitmix_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t kb_splitmix64(uint64_t *state)
{
	return splitmix_mix(*state += SPLITMIX_GAMMA);
}

uint64_t kb_splitmix64_at(uint64_t seed, uint64_t i)
{
	return splitmix_mix(seed + (i + 1) * SPLITMIX_GAMMA);
}

static const unsigned mix_sizes[] = { 16, 32, 48, 64, 96, 128, 192, 256,
				      512, 1024, 2048, 4096 };

static void *heap_alloc(int id, size_t size)
{
#ifdef KB_HAVE_JEMALLOC
	if (id == KB_KS_HEAP_JEMALLOC)
		return mallocx(size, 0);
#endif
#ifdef KB_HAVE_GLIBC_MALLOC
	if (id == KB_KS_HEAP_GLIBC)
		return __libc_malloc(size);
#endif
	(void)id;
	(void)size;
	return NULL;
}

static void heap_free(int id, void *p)
{
#ifdef KB_HAVE_JEMALLOC
	if (id == KB_KS_HEAP_JEMALLOC) {
		dallocx(p, 0);
		return;
	}
#endif
#ifdef KB_HAVE_GLIBC_MALLOC
	if (id == KB_KS_HEAP_GLIBC)
		__libc_free(p);
#endif
	(void)id;
	(void)p;
}

static void release_heap(struct kb_keystream *ks, uint64_t live)
{
	uint64_t i;

	for (i = 0; i < live; i++)
		heap_free(ks->id, (void *)(uintptr_t)ks->heap[i]);
	free(ks->heap);
	ks->heap = NULL;
}

static int open_heap(struct kb_keystream *ks, char *err, size_t errlen)
{
	uint64_t i, rng = ks->p.seed;

	if (ks->p.count > SIZE_MAX / sizeof(uint64_t) ||
	    !(ks->heap = malloc((size_t)ks->p.count * sizeof(uint64_t)))) {
		snprintf(err, errlen, "cannot hold %llu heap objects",
			 (unsigned long long)ks->p.count);
		return -1;
	}
	/* All objects stay live until the stream closes, as in a table. */
	for (i = 0; i < ks->p.count; i++) {
		size_t size = ks->p.size ? ks->p.size
					 : mix_sizes[kb_splitmix64(&rng) %
						     (sizeof(mix_sizes) /
						      sizeof(mix_sizes[0]))];
		void *obj = heap_alloc(ks->id, size);

		if (!obj) {
			release_heap(ks, i);
			snprintf(err, errlen, "%s: allocation %llu of %zu bytes failed",
				 kb_keysets[ks->id].name,
				 (unsigned long long)i, size);
			return -1;
		}
		ks->heap[i] = (uintptr_t)obj;
		if (ks->p.input_bits == 32 && ks->heap[i] > UINT32_MAX) {
			release_heap(ks, i + 1);
			snprintf(err, errlen,
				 "%s: pointers on this host exceed the 32-bit argument",
				 kb_keysets[ks->id].name);
			return -1;
		}
	}
	return 0;
}

/* The i-th futex word's offset from the array's start: object i / nwords,
 * its word i % nwords (UINT64_MAX past 2^64). */
static uint64_t futex_offset(const struct kb_keystream *ks, uint64_t i)
{
	const struct kb_futex_layout *l = ks->futex;
	int w32 = ks->p.word == 32;
	uint64_t size = w32 ? l->size32 : l->size64, obj = i / l->nwords;

	if (obj > (UINT64_MAX - 64) / size)
		return UINT64_MAX;
	return obj * size + (w32 ? l->off32 : l->off64)[i % l->nwords];
}

int kb_keystream_open(struct kb_keystream *ks, int id,
		      const struct kb_keyset_params *p, char *err,
		      size_t errlen)
{
	const struct kb_keyset_info *info;
	uint64_t limit;

	memset(ks, 0, sizeof(*ks));
	if (id < 0 || id >= KB_KS_COUNT) {
		snprintf(err, errlen, "unknown key set");
		return -1;
	}
	if (!kb_keyset_available(id)) {
		snprintf(err, errlen, "key set %s is not available in this build",
			 kb_keysets[id].name);
		return -1;
	}
	if (p->count == 0) {
		snprintf(err, errlen, "count must be at least 1");
		return -1;
	}
	info = &kb_keysets[id];
	ks->id = id;
	ks->p = *p;
	ks->base = p->has_base ? p->base
			       : (p->word == 32 ? info->base32 : info->base64);
	ks->stride = p->has_stride ? p->stride
				   : (p->word == 32 ? info->stride32
						    : info->stride64);
	if (id == KB_KS_SLAB) {
		unsigned size = p->size ? p->size : 256;

		if (size > 4096) {
			snprintf(err, errlen, "slab objects must be at most 4096 bytes");
			return -1;
		}
		ks->p.size = size;
	}
	if (info->flags & KB_KS_HEAP)
		return open_heap(ks, err, errlen);
	if (info->flags & KB_KS_PER_CELL)
		return open_adversarial(ks, err, errlen);

	limit = p->input_bits == 32 ? UINT32_MAX : UINT64_MAX;
	ks->futex = kb_futex_layout_of(id);
	if (info->flags & KB_KS_ARITHMETIC || id == KB_KS_SLAB || ks->futex) {
		/* The largest key, checked without overflowing. */
		uint64_t per = id == KB_KS_SLAB ? 4096 / ks->p.size : 0;
		uint64_t last_off, n1 = p->count - 1;

		if (ks->futex && ks->futex->descending)
			/* below the base, down to 0 at most */
			last_off = futex_offset(ks, n1) > ks->base ? UINT64_MAX : 0;
		else if (ks->futex)
			last_off = futex_offset(ks, n1);
		else if (id == KB_KS_SLAB)
			last_off = n1 / per > (UINT64_MAX - 4096) / 4096
					   ? UINT64_MAX
					   : (n1 / per) * 4096 +
						     (n1 % per) * ks->p.size;
		else
			last_off = ks->stride && n1 > UINT64_MAX / ks->stride
					   ? UINT64_MAX
					   : n1 * ks->stride;
		if (ks->futex && ks->futex->descending && last_off == UINT64_MAX) {
			snprintf(err, errlen, "%s: %llu threads' stacks below %#llx do not fit above address 0",
				 info->name, (unsigned long long)p->count,
				 (unsigned long long)ks->base);
			return -1;
		}
		if (ks->base > limit || last_off == UINT64_MAX ||
		    last_off > limit - ks->base) {
			snprintf(err, errlen,
				 "%s: %llu keys from %#llx exceed the %u-bit argument",
				 info->name, (unsigned long long)p->count,
				 (unsigned long long)ks->base,
				 p->input_bits == 32 ? 32 : 64);
			return -1;
		}
	}
	return 0;
}

int kb_keystream_progression(const struct kb_keystream *ks, uint64_t *first,
			     uint64_t *stride)
{
	if (!(kb_keysets[ks->id].flags & KB_KS_ARITHMETIC))
		return 0;
	*first = ks->base + ks->next * ks->stride;
	*stride = ks->stride;
	return 1;
}

size_t kb_keystream_skip(struct kb_keystream *ks, size_t max)
{
	uint64_t end = ks->end ? ks->end : ks->p.count;
	uint64_t left = end > ks->next ? end - ks->next : 0;
	size_t n = left < max ? (size_t)left : max;

	ks->next += n;
	return n;
}

void kb_keystream_seek(struct kb_keystream *ks, uint64_t first, uint64_t end)
{
	ks->next = first < ks->p.count ? first : ks->p.count;
	ks->end = end < ks->p.count ? end : ks->p.count;
}

size_t kb_keystream_next(struct kb_keystream *ks, uint64_t *buf, size_t max)
{
	size_t i, n;
	uint64_t end = ks->end ? ks->end : ks->p.count;
	uint64_t left = end > ks->next ? end - ks->next : 0;
	/* locals, so stores to buf cannot force reloads of the stream */
	uint64_t first = ks->next, stride = ks->stride, k;

	n = left < max ? (size_t)left : max;
	switch (ks->id) {
	case KB_KS_RANDOM: {
		uint64_t seed = ks->p.seed;
		unsigned drop = ks->p.input_bits == 32 ? 32 : 0;

		for (i = 0; i < n; i++)
			buf[i] = kb_splitmix64_at(seed, first + i) >> drop;
		break;
	}
	case KB_KS_SLAB: {
		uint64_t per = 4096 / ks->p.size, size = ks->p.size;
		uint64_t base = ks->base;

		for (i = 0; i < n; i++) {
			uint64_t j = first + i;

			buf[i] = base + (j / per) * 4096 + (j % per) * size;
		}
		break;
	}
	case KB_KS_HEAP_GLIBC:
	case KB_KS_HEAP_JEMALLOC:
		memcpy(buf, ks->heap + first, n * sizeof(*buf));
		break;
	case KB_KS_ADVERSARIAL:
		for (i = 0; i < n; i++)
			buf[i] = adversarial_key(ks, first + i);
		break;
	default:
		if (ks->futex) {
			for (i = 0; i < n; i++)
				buf[i] = ks->futex->descending ? ks->base - futex_offset(ks, first + i)
							       : ks->base + futex_offset(ks, first + i);
			break;
		}
		k = ks->base + first * stride;
		for (i = 0; i < n; i++, k += stride)
			buf[i] = k;
		break;
	}
	ks->next += n;
	return n;
}

void kb_keystream_close(struct kb_keystream *ks)
{
	if (ks->heap)
		release_heap(ks, ks->p.count);
}
