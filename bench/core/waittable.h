/* SPDX-License-Identifier: MIT */
/*
 * The 2002 hashed page wait tables (Rik van Riel's, 2002), simulated: each zone hashes
 * struct page pointers into wait_table_size(pages) queues (pages / 256,
 * rounded up to a power of two, at most 4096), and unlocking a page wakes
 * every waiter in its queue.  How many wake for nothing, old multiplier
 * against new, against a random function?
 */
#ifndef KB_WAITTABLE_H
#define KB_WAITTABLE_H

#include <stdint.h>

/* The 2002 sizing: pages / 256 rounded up to a power of 2, <= 4096; so
 * 1 queue for a zone of fewer than 512 pages. */
uint64_t kb_wait_table_size(uint64_t pages);
/* The fix of December 2002: the same, but at least 4 queues ("hash_long
 * can't handle tables of size 1"). */
uint64_t kb_wait_table_size_fixed(uint64_t pages);

enum kb_wait_pattern { KB_WAIT_RANDOM, KB_WAIT_RUN };

struct kb_wait_row {
	uint64_t zone_bytes, pages;
	uint64_t table;        /* the queues simulated: the 2002 size, or the
				* fix's where that could not work */
	unsigned bits;
	uint64_t seed_table;   /* what the 2002 tables sized */
	unsigned seed_shift;   /* its wait_table_shift, BITS_PER_LONG - bits */
	int shift_overflow;    /* a table of 1: a shift by the word width,
				* undefined in C */
	uint64_t hw_index;     /* the queue x86 then indexed for the zone's
				* first struct page (it shifts by the count
				* modulo the width, here by 0) */
	uint64_t fixed_table;  /* the December 2002 fix's size */
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

/* The trials `khash-bench waittable` runs a zone. */
#define KB_WAIT_TRIALS 1000

/* The sweep's zones: from 1 MiB, where the 2002 sizing breaks, to 64
 * GiB, doubling: at most KB_WAIT_ZONES. */
#define KB_WAIT_ZONE_MIN (UINT64_C(1) << 20)
#define KB_WAIT_ZONE_MAX (UINT64_C(64) << 30)
#define KB_WAIT_ZONES 17

/*
 * kb_wait_simulate() over every zone of the sweep with a page for each
 * waiter, smallest first, into rows[KB_WAIT_ZONES]: the number of rows,
 * or -1 with *bad_zone the zone that could not be simulated.
 */
int kb_wait_sweep(unsigned word, unsigned waiters, unsigned trials, uint64_t seed,
		  struct kb_wait_row *rows, uint64_t *bad_zone);

#endif
