/* SPDX-License-Identifier: MIT */
/* `khash-bench explain` as text, CSV or JSON. */
#ifndef KB_EXPLAIN_RENDER_H
#define KB_EXPLAIN_RENDER_H

#include "explain.h"
#include "format.h"
#include "output.h"

/* keys names where the keys came from. */
void kb_render_explain(const struct kb_explain *e, const struct kb_hashspec *s,
		       unsigned bits, const char *keys, enum kb_format format,
		       struct kb_buf *b);

#endif
