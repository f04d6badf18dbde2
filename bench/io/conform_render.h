/* SPDX-License-Identifier: MIT */
/* `khash-bench conform` as text, CSV or JSON. */
#ifndef KB_CONFORM_RENDER_H
#define KB_CONFORM_RENDER_H

#include "conform.h"
#include "format.h"
#include "output.h"

/* What conform found, and what it was asked. */
struct kb_conform_view {
	const char *name, *file, *expr;
	const struct kb_conform *c;
	int gen;              /* --gen, or -1: any generation */
	unsigned word;        /* the key sets' word */
	const char *high;     /* why bits 33..64 were not judged, or NULL */
	int bits0;            /* --ubsan's bits 0: -1 not tried, 0 defined, 1 UB */
	uint64_t bits0_value; /* when defined: key 1's bucket at bits 0 */
};

void kb_render_conform(const struct kb_conform_view *v, enum kb_format format, struct kb_buf *b);

#endif
