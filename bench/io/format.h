/* SPDX-License-Identifier: MIT */
/*
 * The output formats, parsed once into an enum, and the pieces every
 * writer shares: JSON strings escaped and CSV fields quoted in one place,
 * numbers that stay valid (inf in CSV, null in JSON).
 */
#ifndef KB_FORMAT_H
#define KB_FORMAT_H

#include "output.h"

/* The schema version of every CSV (`schema` column) and JSON document. */
#define KB_SCHEMA_VERSION 1

enum kb_format {
	KB_FORMAT_TEXT,
	KB_FORMAT_CSV,
	KB_FORMAT_JSON,
	KB_FORMAT_COUNT
};

/* Bit of a format in a mask of accepted formats. */
#define KB_FORMAT_BIT(f) (1u << (f))

/* "text", "csv", "json"; NULL for anything else. */
const char *kb_format_name(enum kb_format f);
/* 0 with *f set, or -1 for an unknown name. */
int kb_format_from_name(const char *name, enum kb_format *f);

/* s as a JSON string, quotes included, with every character JSON
 * requires escaped (quote, backslash, control characters). */
void kb_json_string(struct kb_buf *b, const char *s);
/* "key": number, or "key": null for infinities and NaN. */
void kb_json_number(struct kb_buf *b, const char *key, double v);
/* s as one CSV field: as it is, or quoted (quotes doubled) when it holds
 * a comma, a quote or a line break. */
void kb_csv_field(struct kb_buf *b, const char *s);
/* A double for CSV: %.10g, inf and -inf spelled out, -0 as 0. */
void kb_csv_number(struct kb_buf *b, double v);

#endif
