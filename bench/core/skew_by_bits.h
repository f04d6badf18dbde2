/* SPDX-License-Identifier: MIT */
/*
 * The skew of one hash at every table size from bits_max down to bits_min,
 * at the cost of its keys rather than its buckets.  A table of 2^b buckets
 * keeps the top b bits of the top-aligned hash word (engine.h), so once
 * the words are sorted by their top bits_max bits every bucket of every
 * size is one run of them, and the runs of size b - 1 are pairs of runs of
 * size b.  Where there are fewer keys than buckets (the report's 65,536
 * keys in up to 2^20 buckets) this touches only the occupied buckets; the
 * figures are those kb_skew_from_counts gives for the full tables.
 */
#ifndef KB_SKEW_BY_BITS_H
#define KB_SKEW_BY_BITS_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/*
 * words[n]: top-aligned hash words, reordered (sorted by their top bits)
 * and overwritten; scratch[n]: any memory of the same size.  out[b -
 * bits_min] receives the skew of the table of 2^b buckets, for
 * 1 <= bits_min <= bits_max <= 32 (the widest table any command judges).
 */
void kb_skew_by_bits(uint64_t *words, uint64_t *scratch, size_t n,
		     unsigned bits_min, unsigned bits_max, struct kb_skew *out);

#endif
