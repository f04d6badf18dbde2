/* SPDX-License-Identifier: MIT */
#include "tables_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashspec.h"
#include "stats.h"

/* The generations of a sweep: hash.h's, K when asked, U when loaded. */
static int takes(const struct kb_tables_sweep *s, int g)
{
	return g < (int)LKH_GEN_COUNT || (g == KB_GEN_K && s->with_k) ||
	       (g == KB_GEN_USER && kb_user_gen_get());
}

/* One table on one word size, every generation, on the given keys (NULL:
 * the key model); cells appended at *n. */
static void table_cells(const struct kb_tables_sweep *s, unsigned t, unsigned w,
			const struct kb_table_keys *keys, struct kb_table_cell *cells,
			size_t *n)
{
	const struct kb_table *tb = &kb_tables[t];
	uint64_t param = kb_table_param(tb, w);
	char err[512];
	int g;

	for (g = 0; g < KB_GEN_COUNT; g++) {
		struct kb_table_cell *c;
		const struct kb_gen kg = { g, s->k, s->width };
		uint64_t *counts = NULL;
		int rc;

		if (!takes(s, g))
			continue;
		c = &cells[(*n)++];
		memset(c, 0, sizeof(*c));
		c->table = t;
		c->source = keys ? tb->kernel_keys : "model";
		c->cell.table = tb->name;
		c->cell.keyset = keys ? -1 : tb->keyset;
		kb_hashspec_make(&c->cell.spec, tb->func, w, &kg);
		c->cell.bits = tb->bits;
		if (keys) {
			counts = calloc((size_t)1 << tb->bits, sizeof(*counts));
			rc = !counts ? (snprintf(err, sizeof(err), "out of memory"), -1)
				     : kb_table_count(tb, &kg, w, tb->bits, param, keys->keys,
						      keys->n, counts, err, sizeof(err));
		} else {
			rc = kb_table_count_model(tb, &kg, w, tb->bits, param, s->count,
						  s->seed, &counts, err, sizeof(err));
		}
		if (rc < 0) {
			/* a table that cannot take these keys says why */
			snprintf(c->cell.why, sizeof(c->cell.why), "%.95s", err);
			free(counts);
			continue;
		}
		kb_skew_from_counts(counts, UINT64_C(1) << tb->bits, &c->cell.skew);
		c->cell.ok = 1;
		free(counts);
		if (!keys)
			kb_progress_add(s->progress, s->count);
	}
}

size_t kb_tables_sweep(const struct kb_tables_sweep *s, struct kb_table_cell *cells)
{
	unsigned ngens = 0;
	int g;

	for (g = 0; g < KB_GEN_COUNT; g++)
		ngens += takes(s, g);
	unsigned t, w;
	size_t n = 0;

	kb_progress_expect(s->progress, (uint64_t)kb_tables_count * ngens * s->count *
					(unsigned)__builtin_popcount(s->words & 3u));
	for (t = 0; t < kb_tables_count; t++) {
		for (w = 64; w >= 32; w -= 32) {
			const struct kb_table_keys *k =
				s->kernel ? &s->kernel[2 * t + (w == 64 ? 0 : 1)] : NULL;

			if (!(s->words & (w == 64 ? 2u : 1u)))
				continue;
			table_cells(s, t, w, NULL, cells, &n);
			if (k && k->n && kb_tables[t].kernel_keys)
				table_cells(s, t, w, k, cells, &n);
		}
	}
	return n;
}
