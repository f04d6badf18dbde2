/* SPDX-License-Identifier: MIT */
/* `khash-bench scan` as text, CSV or JSON. */
#ifndef KB_SCAN_RENDER_H
#define KB_SCAN_RENDER_H

#include "format.h"
#include "output.h"
#include "scan_tree.h"

void kb_render_scan(const struct kb_scan_result *r, enum kb_format format, struct kb_buf *b);

#endif
