/* SPDX-License-Identifier: MIT */
/*
 * Progress of long work on standard error, for people watching a
 * terminal: "done / total unit, rate, time left", rewritten in place at
 * most four times a second from a thread of its own, and only once the
 * work has run for a second (short commands print nothing).  Silent when
 * standard error is not a terminal or when not enabled (--quiet).
 */
#ifndef KB_PROGRESS_VIEW_H
#define KB_PROGRESS_VIEW_H

#include <stddef.h>

#include "progress.h"

struct kb_progress_view;

/* Start watching p (counts in `unit`, e.g. "hashes"); NULL when nothing
 * will be shown, which kb_progress_view_stop accepts. */
struct kb_progress_view *kb_progress_view_start(struct kb_progress *p,
						const char *unit, int enabled);

/* Stop, and wipe the line if one was drawn. */
void kb_progress_view_stop(struct kb_progress_view *v);

/* "1.23 G", "456 k", "12": n with an SI prefix, into buf. */
void kb_progress_si(double n, char *buf, size_t len);

/* "1:02:03", "2:03", "0:05": whole seconds as h:mm:ss or m:ss. */
void kb_progress_clock(double seconds, char *buf, size_t len);

#endif
