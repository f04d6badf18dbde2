/* SPDX-License-Identifier: MIT */
/*
 * Timing loops for every hash, built twice from speed_loops.c: once with
 * the header's inline bodies and once against the library's exported
 * symbols (LKH_LINK_ONLY), so both are measured in one binary.
 */
#ifndef KB_SPEED_LOOPS_H
#define KB_SPEED_LOOPS_H

#include <stddef.h>
#include <stdint.h>

#include <khash/lkh.h>
#include <khash/lkh_table.h>

#include "candidates.h"

struct kb_speed_fn {
	const char *label; /* a reference or extra row; NULL for a cell */
	lkh_func func;     /* a cell's (function, generation, word) */
	lkh_gen gen;
	unsigned word;
	lkh_product product; /* the word the row computes */
	lkh_ret ret;
	int reference;  /* 1: a hand-written bare-arithmetic loop */
	unsigned ref;   /* index of the reference this row is compared with */
	/* rows beyond hash.h (the kernel's other hashes, the identity): what
	 * they are in candidates.h's terms, and their generation column */
	const char *origin;   /* NULL for the hash.h rows and references */
	enum kb_cand_kind kind;
	int wide;
	/* sum of f(in[i]) over n independent inputs (throughput) */
	uint64_t (*tput)(const uint64_t *in, size_t n, unsigned bits);
	/* n calls, each input the previous output (latency) */
	uint64_t (*lat)(uint64_t x, size_t n, unsigned bits);
};

const struct kb_speed_fn *kb_speed_inline(size_t *n);
const struct kb_speed_fn *kb_speed_exported(size_t *n);

#endif
