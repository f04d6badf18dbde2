/* SPDX-License-Identifier: MIT */
/*
 * The output formats, parsed once into an enum, and the pieces every
 * writer shares: JSON strings escaped and CSV fields quoted in one place,
 * numbers that stay valid (inf in CSV, null in JSON), and each record's
 * fields in one table that writes its CSV header, its CSV row and its
 * JSON object (kb_fields).
 */
#ifndef KB_FORMAT_H
#define KB_FORMAT_H

#include "hashspec.h"
#include "output.h"

/* Each output's schema name and version: schemas.h. */

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
 * count.  Where the formats differ (a field in one only, in another place,
 * under another name or with other digits), the table says so with .in:
 * a row for CSV and a row for JSON.
 */
enum kb_field_form {
	KB_FIELD_UINT,	  /* u, in decimal */
	KB_FIELD_INT,	  /* i, in decimal */
	KB_FIELD_FIX,	  /* d, %.*f of prec digits, -0 as 0 (JSON: null for inf, NaN) */
	KB_FIELD_G,	  /* d, %.*g of prec digits, -0 as 0 (JSON: null for inf, NaN) */
	KB_FIELD_NUM,	  /* d, %.10g: CSV kb_csv_number, JSON kb_json_number */
	KB_FIELD_NUM_FIX, /* d: CSV as FIX, JSON as NUM */
	KB_FIELD_NUM_G,	  /* d: CSV as G, JSON as NUM */
	KB_FIELD_BOOL,	  /* u: CSV 0 or 1, JSON false or true */
	KB_FIELD_YESNO,	  /* u: CSV no or yes, JSON false or true */
	KB_FIELD_HEX,	  /* u, %#llx: CSV bare, JSON a string */
	KB_FIELD_HEX_0X,  /* u, as HEX but 0 too with its 0x */
	KB_FIELD_STR,	  /* s: CSV kb_csv_field, JSON kb_json_string */
	KB_FIELD_JSON,	  /* JSON only: json(b, arg) writes the value (a
			   * nested object or array) */
	KB_FIELD_GROUP,	  /* the n rows at sub, in this row's place (no
			   * name of its own): rows several records share */
};
#define KB_IN_CSV 1u
#define KB_IN_JSON 2u
#define KB_IN_NEITHER 4u /* a field this record lacks: no column, no member */
/* A value the record has not: CSV an empty field, JSON null or no member. */
enum kb_field_none {
	KB_NONE_NULL = 1,
	KB_NONE_OMIT,
};
struct kb_field {
	const char *name;
	enum kb_field_form form;
	uint64_t u;
	int64_t i;
	double d;
	int prec;
	const char *s;
	unsigned in;   /* KB_IN_CSV, KB_IN_JSON or KB_IN_NEITHER; 0: both */
	unsigned none; /* 0, or enum kb_field_none */
	void (*json)(struct kb_buf *b, const void *arg);
	const void *arg;
	const struct kb_field *sub;
	size_t n;
};
enum kb_fields_as {
	KB_FIELDS_CSV_HEAD,    /* the names, comma-separated, and a newline */
	KB_FIELDS_CSV,	       /* the values, comma-separated, and a newline */
	KB_FIELDS_JSON,	       /* {"name": value, ...}, nothing after */
	KB_FIELDS_JSON_MEMBERS, /* "name": value, each with ", " after: members
				 * of an object written by hand */
	KB_FIELDS_JSON_NAMES,	/* the JSON object's member names, comma-separated,
				 * and a newline: every member it can have */
};
void kb_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_field *f, size_t n);
#define KB_FIELDS_N(f) (sizeof(f) / sizeof((f)[0]))

/* Which K a generation-K row hashes with, wherever a row names its
 * generation: its two rows, "multiplier" (0xK) and "multiplier_width"
 * (W; for a K unused, width 0: CSV empty, JSON null), for a group; neither
 * has a value for hash.h's generations (CSV empty, JSON no member).  CSV
 * puts them last (schema 2), JSON after the generation. */
void kb_k_fields(const struct kb_gen *g, struct kb_field f[2]);

#endif
