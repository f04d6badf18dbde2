/* SPDX-License-Identifier: MIT */
/* The machine the engine counts on: its CPUs, its caches, its pages. */
#include "machine.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t cache_set[3]; /* written once at start-up, then only read */

void kb_set_cache_bytes(const uint64_t bytes[3])
{
	memcpy(cache_set, bytes, sizeof(cache_set));
}

uint64_t kb_libc_cache_bytes(unsigned level)
{
	long v = -1;

#ifdef _SC_LEVEL1_DCACHE_SIZE
	if (level == 1)
		v = sysconf(_SC_LEVEL1_DCACHE_SIZE);
	else if (level == 2)
		v = sysconf(_SC_LEVEL2_CACHE_SIZE);
	else if (level == 3)
		v = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
	return v > 0 ? (uint64_t)v : 0;
}

uint64_t kb_cache_bytes_from(unsigned level, enum kb_cache_source *src)
{
	uint64_t v;
	enum kb_cache_source dummy;

	if (!src)
		src = &dummy;
	if (level >= 1 && level <= 3 && cache_set[level - 1]) {
		*src = KB_CACHE_SET;
		return cache_set[level - 1];
	}
	/* the C library's answer, read once: glibc asks CPUID each time, and
	 * the plan asks for every path it prices */
	static uint64_t libc[3];
	static int libc_read[3];

	if (level >= 1 && level <= 3 && !libc_read[level - 1]) {
		libc[level - 1] = kb_libc_cache_bytes(level);
		libc_read[level - 1] = 1;
	}
	if (level >= 1 && level <= 3 && (v = libc[level - 1]) > 0) {
		*src = KB_CACHE_LIBC;
		return v;
	}
	/* virtual machines and some libcs say 0: assume a common size */
	*src = KB_CACHE_TYPICAL;
	return level == 1 ? 32768 : level == 2 ? 1 << 20 : 8 << 20;
}

uint64_t kb_cache_bytes(unsigned level)
{
	return kb_cache_bytes_from(level, NULL);
}

unsigned kb_cpu_count(void)
{
	/* read once: glibc reads /sys for it, some 10 us, more than the
	 * counting of a few thousand keys that asks (a race writes the
	 * same value) */
	static unsigned cpus;

	if (!cpus) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		cpus = n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
	}
	return cpus;
}

/*
 * A zeroed table of bytes; own_region: on a 2 MiB boundary of its own
 * whatever its size.  Past 2 MiB tables ask for huge pages, since a
 * counter a key at random in megabytes of table otherwise misses the TLB
 * on most keys.  Threads' private tables each get a region of their own:
 * measured on this VM (bench/RESULTS.md), two threads counting into
 * tables of 64 KiB to 1 MiB that share a 2 MiB stretch of addresses ran
 * at 0.2-0.5x of the same tables 2 MiB apart, though no cache line is
 * shared.
 */
void *kb_table_alloc_region(uint64_t bytes, int own_region)
{
	const size_t huge = (size_t)2 << 20;
	uint64_t span = (bytes + huge - 1) & ~(uint64_t)(huge - 1);
	void *p;

	if (bytes < huge && !own_region)
		return calloc(1, (size_t)bytes);
	if (span != (size_t)span || posix_memalign(&p, huge, (size_t)span) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	if (bytes >= huge)
		madvise(p, (size_t)span, MADV_HUGEPAGE); /* advice: fine if refused */
#endif
	memset(p, 0, (size_t)bytes);
	return p;
}

void *kb_table_alloc(uint64_t bytes)
{
	return kb_table_alloc_region(bytes, 0);
}
