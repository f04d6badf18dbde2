/* SPDX-License-Identifier: MIT */
/*
 * Whole unsigned numbers as people write them: decimal, or hex after 0x.
 * One parser for option values and key-file lines alike.
 */
#ifndef KB_NUMBER_H
#define KB_NUMBER_H

#include <stddef.h>
#include <stdint.h>

enum kb_number_status {
	KB_NUMBER_OK = 0,
	KB_NUMBER_INVALID = -1,  /* empty, a sign, a stray character */
	KB_NUMBER_OVERFLOW = -2  /* more than 64 bits */
};

/* Parse all of s[0..len): KB_NUMBER_OK with *v set, or a negative status
 * (overflow is reported as soon as the digits exceed 64 bits). */
int kb_parse_number(const char *s, size_t len, uint64_t *v);

/* The same for a NUL-terminated string: 1 with *v set, 0 otherwise. */
int kb_parse_u64(const char *s, uint64_t *v);

#endif
