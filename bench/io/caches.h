/* SPDX-License-Identifier: MIT */
/*
 * The data caches as the running kernel describes them
 * (/sys/devices/system/cpu/cpu0/cache/index*): what the counting engine
 * sizes its tables by.
 */
#ifndef KB_CACHES_H
#define KB_CACHES_H

#include <stdint.h>

/* bytes[0..2]: level 1 data, level 2, level 3 (unified or data); 0 for a
 * level the kernel does not list.  root: the directory to read ("" for
 * the real one; tests point it at a copy). */
void kb_read_cache_bytes(const char *root, uint64_t bytes[3]);

#endif
