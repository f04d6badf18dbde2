/* SPDX-License-Identifier: MIT */
/*
 * `khash-bench advise` as text, CSV or JSON: the keys' structure, every
 * candidate ranked by what it costs the table, with its measured speed,
 * and one line of advice a reviewer could paste into a patch.
 */
#ifndef KB_ADVISE_RENDER_H
#define KB_ADVISE_RENDER_H

#include "advise.h"
#include "format.h"
#include "output.h"

/* The advice: what the table's hash costs and what to use instead. */
void kb_advice_line(const struct kb_advice *a, struct kb_buf *b);

/* keys names the key set or file; ns[i] is row i's ns per hash (a
 * negative one is not known). */
void kb_render_advice(const struct kb_advice *a, const double *ns, const char *keys,
		      enum kb_format format, struct kb_buf *b);

#endif
