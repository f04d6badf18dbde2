/* SPDX-License-Identifier: MIT */
/*
 * What the files of the command line's tables share (cli_text.c,
 * options.c, help.c, parse_args.c); the commands see cli_args.h only.
 */
#ifndef KB_CLI_INTERNAL_H
#define KB_CLI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cli_args.h"

/* Append to out[len] at *used, as snprintf would, never past its end. */
void kb_append(char *out, size_t len, size_t *used, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* The bucket functions (funcs 1) or the generations (0; -1: hash.h's,
 * K aside), joined by sep. */
const char *kb_name_list(char *out, size_t len, const char *sep, int funcs);
/* advise's candidate families, joined by ", " */
const char *kb_family_list(char *out, size_t len);

/* Store v in option o's field of a. */
void kb_option_store(struct kb_args *a, const struct kb_option_info *o, uint64_t v);
/* Option id's argument into its field, as its row says: 0, or an exit
 * status after one line on stderr. */
int kb_option_parse(int id, const char *arg, struct kb_args *a);

#endif
