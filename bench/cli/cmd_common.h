/* SPDX-License-Identifier: MIT */
/*
 * What the commands (<command>_cmd.c) share, defined in cmd_common.c and
 * cell_keys.c: the checks every command makes before work starts, the
 * cell or named table a command line names, where its keys come from, a
 * key file's bad key and repeated keys, and writing the output and
 * figures.  Every function that
 * fails has said why on stderr and returns the exit status.
 */
#ifndef KB_CMD_COMMON_H
#define KB_CMD_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "cli_args.h"
#include "advise.h"
#include "format.h"
#include "hashspec.h"
#include "key_source.h"
#include "keysets.h"
#include "names.h"
#include "plot.h"
#include "progress.h"
#include "tables.h"

/* Keys a command reads, counts or writes at a time. */
#define KB_BLOCK 4096

struct kb_progress_view *kb_watch(const struct kb_args *a, struct kb_progress *p,
				  const char *unit);
int kb_check_memory(const struct kb_args *a, unsigned bits, unsigned tables);
int kb_affordable(const struct kb_args *a, double seconds, const char *what);
const char *kb_count_what(const struct kb_args *a, char *out, size_t len);
int kb_exact_count(const struct kb_args *a, uint64_t count, unsigned bits);
int kb_check_heap_memory(const struct kb_args *a, unsigned keyset_mask);
int kb_keyset_takes_options(const struct kb_args *a);

void kb_cell_gen(const struct kb_args *a, struct kb_hashspec *s, int g);
int kb_target_cell(const struct kb_args *a, struct kb_keyset_params *kp, lkh_func f, int dflt);
int kb_need_table_args(struct kb_args *a, const struct kb_table **t);
int kb_need_cell_args(const struct kb_args *a, struct kb_hashspec *s);
int kb_key_source_of(const struct kb_args *a, unsigned per_key, struct kb_key_source *src);
int kb_read_keys(const struct kb_key_source *src, struct kb_keys *k);
int kb_cell_keys(struct kb_args *a, struct kb_advise_opts *o, struct kb_keys *k);

const char *kb_key_place(const char *path, int binary, const char *name, uint64_t index,
			 char *out, size_t len);
int kb_check_fit(const struct kb_hashspec *s, const uint64_t *keys, size_t n, uint64_t done,
		 const char *path, int binary, const char *name);
void kb_repeats_note(const char *name, uint64_t read, uint64_t distinct, int dropped);

/* A string table's arguments (--table's, a->stable): its bits and
 * parameter, no --gen, --keyset or --keys; 0 or a usage failure. */
int kb_need_string_table_args(struct kb_args *a, const struct kb_string_table **t);
/* The names of --names or --name-set for table t, each once, into *l, and
 * their source's name (*source): 0, or a failure already said. */
int kb_read_names(const struct kb_args *a, const struct kb_string_table *t,
		  struct kb_names *l, const char **source);
int kb_emit(const struct kb_args *a, struct kb_buf *b);
int kb_plot_then_emit(const struct kb_args *a, struct kb_buf *b, struct kb_figure *figs,
		      size_t n);

#endif
