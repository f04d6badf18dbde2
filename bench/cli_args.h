/* SPDX-License-Identifier: MIT */
/*
 * khash-bench's command line: options into a struct args, with a one-line
 * message on stderr and the exit status (2, usage) for anything invalid.
 * Kept apart from main so the parser can be fuzzed on its own.
 */
#ifndef KB_CLI_ARGS_H
#define KB_CLI_ARGS_H

#include <stdint.h>
#include <stdio.h>

#include <khash/lkh.h>

#include "keysets.h"
#include "plot.h"
#include "report.h"

#define EXIT_USAGE 2
#define EXIT_RUNTIME 1
/* Refuse tables whose counters alone need more than this (override with
 * --max-memory): an honest message beats an allocation failure later. */
#define DEFAULT_MAX_MEMORY (UINT64_C(4) << 30)
#define MAX_HIST 16

enum kb_action { KB_RUN, KB_HELP, KB_VERSION };

struct args {
	enum kb_action action;
	const char *cmd;
	int func_set, gen_set, bits_set, keyset, binary;
	lkh_func func;
	lkh_gen gen;
	unsigned word, bits;
	const char *keys, *format, *plot, *output, *input;
	struct kb_keyset_params kp;
	int count_set;
	struct kb_report_opts ro;
	unsigned step;
	struct kb_hist_req hist[MAX_HIST];
	size_t nhist;
	int hist_set;
	uint64_t max_memory;
	unsigned threads;
	uint64_t multiplier;
	int multiplier_set, compare;
	const char *preset;
	unsigned width;
};

/* Print "khash-bench: MESSAGE" on stderr; returns status. */
int kb_fail(int status, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

void kb_usage(FILE *to);

/* Parse options (argv[0] is the command); 0 or an exit status.  Leaves
 * optind at the first operand. */
int kb_parse_args(int argc, char **argv, struct args *a);

/* Whole unsigned number, decimal or 0x hex, nothing else. */
int kb_parse_u64(const char *s, uint64_t *v);

#endif
