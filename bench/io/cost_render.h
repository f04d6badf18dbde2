/* SPDX-License-Identifier: MIT */
/*
 * What a table's skew costs (kb_cost_of, stats.h), written the same way
 * by every renderer: six fields of a record, two lines of text.
 */
#ifndef KB_COST_RENDER_H
#define KB_COST_RENDER_H

#include "format.h"
#include "output.h"
#include "stats.h"

/* The six figures as rows of a record's table (format.h), for a group:
 * CSV %.6g, JSON at full precision; none: what a record with no figures
 * says of them (0: it has them). */
void kb_cost_fields(const struct kb_skew *s, unsigned none, struct kb_field f[6]);
/* Every kind's figure, each line starting with indent. */
void kb_cost_text(const struct kb_skew *s, const char *indent, struct kb_buf *b);
/* What one unit of a kind's cost is (advise's and census's words). */
const char *kb_cost_unit(enum kb_table_kind kind);

#endif
