/* SPDX-License-Identifier: MIT */
/*
 * The output formats, parsed once into an enum, and the pieces every
 * writer shares: JSON strings escaped and CSV fields quoted in one place,
 * numbers that stay valid (inf in CSV, null in JSON).
 */
#ifndef KB_FORMAT_H
#define KB_FORMAT_H

#include "hashspec.h"
#include "output.h"

/* The schema version of every CSV (`schema` column) and JSON document but
 * those that grew: 2 where generation K's multiplier and width were added
 * (CSV: two last columns; JSON: two members), census's in its renderer.
 * bench/REFERENCE.md ("Output: formats, schemas, files") lists them. */
#define KB_SCHEMA_VERSION 1
#define KB_CELLS_CSV_SCHEMA 2 /* report and skew */
#define KB_TABLES_SCHEMA 2
#define KB_INFLUENCE_SCHEMA 2

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
/* The same of the first len bytes of s, which need not end there. */
void kb_json_string_n(struct kb_buf *b, const char *s, size_t len);
/* "key": number, or "key": null for infinities and NaN. */
void kb_json_number(struct kb_buf *b, const char *key, double v);
/* s as one CSV field: as it is, or quoted (quotes doubled) when it holds
 * a comma, a quote or a line break. */
void kb_csv_field(struct kb_buf *b, const char *s);
/* A double for CSV: %.10g, inf and -inf spelled out, -0 as 0. */
void kb_csv_number(struct kb_buf *b, double v);

/*
 * A record's fields, each written once: a row of the record's table says
 * a field's name, how it is written and its value, and whether only CSV
 * or only JSON carries it.  The CSV header, the CSV row and the JSON
 * object are all written from the same rows (kb_fields), so a field added
 * to the table is in every format, in the same place, with no comma to
 * count.
 */
enum kb_field_form {
	KB_FIELD_UINT, /* u, in decimal */
	KB_FIELD_FIX4, /* d, %.4f */
	KB_FIELD_BOOL, /* u: CSV 0 or 1, JSON false or true */
	KB_FIELD_HEX,  /* u, %#llx: CSV bare, JSON a string */
};
#define KB_IN_CSV 1u
#define KB_IN_JSON 2u
struct kb_field {
	const char *name;
	enum kb_field_form form;
	uint64_t u;
	double d;
	unsigned in; /* KB_IN_CSV or KB_IN_JSON; 0: both */
};
enum kb_fields_as {
	KB_FIELDS_CSV_HEAD, /* the names, comma-separated, and a newline */
	KB_FIELDS_CSV,      /* the values, comma-separated, and a newline */
	KB_FIELDS_JSON,     /* {"name": value, ...}, nothing after */
};
void kb_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_field *f, size_t n);

/* Which K a generation-K row hashes with, wherever a row names its
 * generation.  CSV: the last two columns (KB_K_CSV_HEAD), ",0xK,W", empty
 * for hash.h's generations (and W for a K unused, width 0).  JSON:
 * "multiplier": "0xK", "multiplier_width": W, with the comma and space
 * after, or nothing. */
#define KB_K_CSV_HEAD ",multiplier,multiplier_width"
void kb_k_csv(struct kb_buf *b, const struct kb_gen *g);
void kb_k_json(struct kb_buf *b, const struct kb_gen *g);

#endif
