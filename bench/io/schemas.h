/* SPDX-License-Identifier: MIT */
/*
 * The machine-readable outputs, one row each: every JSON document's schema
 * name and version, and every CSV record's version and fields.  The
 * renderers write their versions from these rows, and the man page lists
 * the outputs from them (each record's fields from its own table of
 * fields), so a schema is stated once.
 */
#ifndef KB_SCHEMAS_H
#define KB_SCHEMAS_H

#include "format.h"

/* A JSON document: "schema": "khash-bench/NAME", "schema_version". */
enum kb_doc {
	KB_DOC_REPORT,
	KB_DOC_SKEW,
	KB_DOC_INFLUENCE,
	KB_DOC_AUDIT,
	KB_DOC_WAITTABLE,
	KB_DOC_TABLES,
	KB_DOC_CENSUS,
	KB_DOC_EXPLAIN,
	KB_DOC_ADVISE,
	KB_DOC_SPEED,
	KB_DOC_CONFORM,
	KB_DOC_SCAN,
	KB_DOC_COUNT_
};
struct kb_doc_row {
	const char *name;      /* the command that writes it, and the schema's name */
	unsigned version;
	const char *holds;     /* what the document holds beyond its records */
};
extern const struct kb_doc_row kb_docs[KB_DOC_COUNT_];

/* A record: a CSV row (with its "schema" column) and a JSON object of one
 * of the documents above. */
enum kb_record {
	KB_REC_CELL,
	KB_REC_INFLUENCE,
	KB_REC_AUDIT,
	KB_REC_WAIT,
	KB_REC_TABLE,
	KB_REC_CENSUS,
	KB_REC_EXPLAIN,
	KB_REC_ADVISE,
	KB_REC_SPEED_HASH,
	KB_REC_SPEED_ENGINE,
	KB_REC_SPEED_GRID,
	KB_REC_SPEED_STRINGS,
	KB_REC_CONFORM,
	KB_REC_CONFORM_COST,
	KB_REC_SCAN,
	KB_REC_COUNT_
};
struct kb_record_row {
	const char *writers; /* the commands (and parts) that write it */
	const char *row;     /* what one row is */
	unsigned csv_version;
	int json_object; /* the JSON document has an object a record (else
			  * only CSV writes the record, as one row) */
	/* the record's field names: CSV's header, or (KB_FIELDS_JSON_NAMES)
	 * its JSON object's member names */
	void (*names)(struct kb_buf *b, enum kb_fields_as as);
};
extern const struct kb_record_row kb_records[KB_REC_COUNT_];

/* "{", then the document's "schema" and "schema_version" members, each
 * on its own line (what every JSON document starts with). */
void kb_json_doc_head(struct kb_buf *b, enum kb_doc d);

/* Each record's names, from the record's own table of fields (the
 * renderers that write it define these). */
void kb_cell_names(struct kb_buf *b, enum kb_fields_as as);
void kb_influence_names(struct kb_buf *b, enum kb_fields_as as);
void kb_audit_names(struct kb_buf *b, enum kb_fields_as as);
void kb_wait_names(struct kb_buf *b, enum kb_fields_as as);
void kb_table_names(struct kb_buf *b, enum kb_fields_as as);
void kb_census_names(struct kb_buf *b, enum kb_fields_as as);
void kb_explain_names(struct kb_buf *b, enum kb_fields_as as);
void kb_advise_names(struct kb_buf *b, enum kb_fields_as as);
void kb_speed_hash_names(struct kb_buf *b, enum kb_fields_as as);
void kb_speed_engine_names(struct kb_buf *b, enum kb_fields_as as);
void kb_speed_grid_names(struct kb_buf *b, enum kb_fields_as as);
void kb_speed_string_names(struct kb_buf *b, enum kb_fields_as as);
void kb_conform_names(struct kb_buf *b, enum kb_fields_as as);
void kb_conform_cost_names(struct kb_buf *b, enum kb_fields_as as);
void kb_scan_names(struct kb_buf *b, enum kb_fields_as as);

#endif
