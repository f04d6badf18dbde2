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

/* Not a whole number, though a number: 1.5e0, 1.5k. */
#define KB_NUMBER_FRACTION (-3)

/*
 * Counts as people write them on a command line (key files stay strict):
 * what kb_parse_number takes, or a decimal with an SI suffix (k M G T:
 * 10^3 .. 10^12) or a binary one (Ki Mi Gi Ti: 2^10 .. 2^40), or an
 * exponent (1e6, 2.5e3); the value must be whole.  A status as above.
 */
int kb_parse_count(const char *s, uint64_t *v);

/*
 * Byte sizes: what kb_parse_number takes, or a decimal with K M G T or
 * KiB MiB GiB TiB, all binary (1K = 1KiB = 1024), as kb_format_bytes
 * prints them.  A status as above.
 */
int kb_parse_bytes(const char *s, uint64_t *v);

/* v as the largest whole binary unit it is a multiple of ("4GiB",
 * "1536KiB", "100"): what kb_parse_bytes reads back as v. */
void kb_bytes_text(uint64_t v, char *out, size_t len);

#endif
