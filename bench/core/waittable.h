/* SPDX-License-Identifier: MIT */
/*
 * The 2002 hashed page wait tables (seed 003), simulated: each zone hashes
 * struct page pointers into wait_table_size(pages) queues (pages / 256,
 * rounded up to a power of two, at most 4096), and unlocking a page wakes
 * every waiter in its queue.  How many wake for nothing, old multiplier
 * against new, against a random function?
 */
#ifndef KB_WAITTABLE_H
#define KB_WAITTABLE_H

#include <stdint.h>

/* The kernel's sizing: pages / 256 rounded up to a power of 2, <= 4096. */
uint64_t kb_wait_table_size(uint64_t pages);

enum kb_wait_pattern { KB_WAIT_RANDOM, KB_WAIT_RUN };

struct kb_wait_row {
	uint64_t zone_bytes, pages, table;
	unsigned bits;
	double old_random, new_random, old_run, new_run;
	double baseline;  /* a random function: (waiters - 1) / table */
};

/*
 * Mean spurious wake-ups per unlock (waiters sharing the unlocked page's
 * queue) over `trials` seeded trials of `waiters` distinct pages, for a
 * `word`-bit kernel (struct page of 64 or 32 bytes).  0, or -1 on bad
 * arguments (waiters more than the zone's pages).
 */
int kb_wait_simulate(uint64_t zone_bytes, unsigned word, unsigned waiters,
		     unsigned trials, uint64_t seed, struct kb_wait_row *row);

#endif
