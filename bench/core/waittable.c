/* SPDX-License-Identifier: MIT */
#include "waittable.h"

#include <stdlib.h>
#include <string.h>

#include <khash/lkh.h>

#include "keysets.h"

#define PAGES_PER_WAITQUEUE 256
#define MAX_TABLE 4096

uint64_t kb_wait_table_size(uint64_t pages)
{
	uint64_t size = 1;

	pages /= PAGES_PER_WAITQUEUE;
	while (size < pages)
		size <<= 1;
	return size < MAX_TABLE ? size : MAX_TABLE;
}

uint64_t kb_wait_table_size_fixed(uint64_t pages)
{
	uint64_t size = kb_wait_table_size(pages);

	return size > 4 ? size : 4;
}

/* Queue of a struct page pointer: the top bits of hash_long's product. */
static unsigned queue_of(uint64_t page, lkh_gen gen, unsigned word,
			 unsigned bits)
{
	uint64_t out = 0;

	if (bits == 0)
		return 0;
	lkh_hash(LKH_FUNC_HASH_LONG, gen, word, page, bits, &out);
	return (unsigned)out;
}

/* Spurious wake-ups per unlock for one set of waited pages. */
static double spurious(const uint64_t *pages, unsigned n, lkh_gen gen,
		       unsigned word, unsigned bits, unsigned *counts)
{
	uint64_t pairs = 0;
	unsigned i, table = 1u << bits;

	memset(counts, 0, table * sizeof(*counts));
	for (i = 0; i < n; i++)
		counts[queue_of(pages[i], gen, word, bits)]++;
	for (i = 0; i < table; i++)
		pairs += (uint64_t)counts[i] * (counts[i] ? counts[i] - 1 : 0);
	return (double)pairs / n;
}

int kb_wait_simulate(uint64_t zone_bytes, unsigned word, unsigned waiters,
		     unsigned trials, uint64_t seed, struct kb_wait_row *row)
{
	/* mem_map: the struct-page key set's (x86_64's vmemmap with 64-byte
	 * pages, i386 lowmem with 32-byte ones) */
	const struct kb_keyset_info *sp = &kb_keysets[KB_KS_STRUCT_PAGE];
	uint64_t base = word == 64 ? sp->base64 : sp->base32;
	uint64_t stride = word == 64 ? sp->stride64 : sp->stride32, rng = seed, *pages;
	unsigned *counts, t, i;
	int pattern;

	if ((word != 32 && word != 64) || waiters < 1 || trials < 1 ||
	    zone_bytes < 4096 || waiters > zone_bytes / 4096)
		return -1;
	memset(row, 0, sizeof(*row));
	row->zone_bytes = zone_bytes;
	row->pages = zone_bytes / 4096;
	row->seed_table = kb_wait_table_size(row->pages);
	row->fixed_table = kb_wait_table_size_fixed(row->pages);
	while ((UINT64_C(1) << row->bits) < row->seed_table)
		row->bits++;
	row->seed_shift = word - row->bits;
	row->shift_overflow = row->bits == 0;
	if (row->shift_overflow) {
		uint64_t full = 0;
		unsigned width = 0;

		/* hash >>= BITS_PER_LONG executes as a shift by 0 on x86: the
		 * whole product is the index */
		lkh_hash_full(LKH_FUNC_HASH_LONG, LKH_GEN_OLD, word, base, &full, &width);
		row->hw_index = full >> (row->seed_shift & (width - 1));
		/* what can be simulated is the fix's table */
		while ((UINT64_C(1) << row->bits) < row->fixed_table)
			row->bits++;
	}
	row->table = UINT64_C(1) << row->bits;
	if (word == 32 && row->pages * stride > UINT64_C(0xffffffff) - base)
		return -1;
	row->baseline = (double)(waiters - 1) / (double)row->table;
	pages = malloc(waiters * sizeof(*pages));
	counts = malloc(MAX_TABLE * sizeof(*counts));
	if (!pages || !counts) {
		free(pages);
		free(counts);
		return -1;
	}
	for (pattern = KB_WAIT_RANDOM; pattern <= KB_WAIT_RUN; pattern++) {
		double old_sum = 0, new_sum = 0;

		for (t = 0; t < trials; t++) {
			uint64_t start = kb_splitmix64(&rng) %
					 (row->pages - waiters + 1);

			for (i = 0; i < waiters; i++) {
				uint64_t pfn;

				if (pattern == KB_WAIT_RUN) {
					pfn = start + i; /* readahead: a run */
				} else {
					/* distinct: redraw on a repeat */
					unsigned j;

					do {
						pfn = kb_splitmix64(&rng) % row->pages;
						for (j = 0; j < i && pages[j] != base + pfn * stride; j++)
							;
					} while (j < i);
				}
				pages[i] = base + pfn * stride;
			}
			old_sum += spurious(pages, waiters, LKH_GEN_OLD, word,
					    row->bits, counts);
			/* the columns old and new: the two multipliers, by name */
			new_sum += spurious(pages, waiters, LKH_GEN_NEW, word,
					    row->bits, counts);
		}
		if (pattern == KB_WAIT_RANDOM) {
			row->old_random = old_sum / trials;
			row->new_random = new_sum / trials;
		} else {
			row->old_run = old_sum / trials;
			row->new_run = new_sum / trials;
		}
	}
	free(pages);
	free(counts);
	return 0;
}

int kb_wait_sweep(unsigned word, unsigned waiters, unsigned trials, uint64_t seed,
		  struct kb_wait_row *rows, uint64_t *bad_zone)
{
	uint64_t zone;
	int n = 0;

	for (zone = KB_WAIT_ZONE_MIN; zone <= KB_WAIT_ZONE_MAX; zone <<= 1) {
		if (waiters > zone / 4096)
			continue;
		if (kb_wait_simulate(zone, word, waiters, trials, seed, &rows[n]) < 0) {
			*bad_zone = zone;
			return -1;
		}
		n++;
	}
	return n;
}
