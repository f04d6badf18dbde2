/* SPDX-License-Identifier: MIT */
/*
 * Facts of the machine the engine counts on: its online CPUs, its data
 * caches and where each figure came from, and tables on huge pages.
 */
#ifndef KB_MACHINE_H
#define KB_MACHINE_H

#include <stdint.h>

/* A zeroed table for free(): past 2 MiB on huge pages where the system
 * grants them (a counter a key at random otherwise misses the TLB). */
void *kb_table_alloc(uint64_t bytes);

/* The same; own_region: on a 2 MiB boundary of its own whatever its size
 * (threads' private tables: neighbours in one 2 MiB stretch run slower). */
void *kb_table_alloc_region(uint64_t bytes, int own_region);

/* The online CPUs, at least 1. */
unsigned kb_cpu_count(void);

/* The data caches, in bytes: level 1, 2 or 3 (the last level a core
 * shares): as set by kb_set_cache_bytes, else the C library's figure,
 * else typical sizes. */
uint64_t kb_cache_bytes(unsigned level);

/* Where kb_cache_bytes took a level's figure from. */
enum kb_cache_source {
	KB_CACHE_SET,    /* kb_set_cache_bytes (the kernel's tables) */
	KB_CACHE_LIBC,   /* the C library (sysconf, from CPUID) */
	KB_CACHE_TYPICAL /* neither had one: a common size */
};
uint64_t kb_cache_bytes_from(unsigned level, enum kb_cache_source *src);
/* The C library's own figure for a level, 0 where it has none. */
uint64_t kb_libc_cache_bytes(unsigned level);

/*
 * Tell the engine the machine's caches (bytes[0..2]: L1d, L2, L3; 0 keeps
 * the C library's figure).  Once, before counting: glibc reads them from
 * CPUID, which a virtual machine may fill with its host's (256 MiB of L3
 * here, where the guest's own tables say 32 MiB); the command line reads
 * the kernel's tables (bench/io/caches.c) and sets them.
 */
void kb_set_cache_bytes(const uint64_t bytes[3]);

#endif
