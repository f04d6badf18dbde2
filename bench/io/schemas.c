/* SPDX-License-Identifier: MIT */
#include "schemas.h"

/* A version grows when a field joins (always at the end of a CSV row) or
 * changes meaning; the comments say what each earlier version lacked. */
const struct kb_doc_row kb_docs[KB_DOC_COUNT_] = {
	/* 1: cells had no counted_by, path, threads, ranges and price_s */
	[KB_DOC_REPORT] = { .name = "report", .version = 2,
			    .holds = "the run's count, seed and table sizes, the cells, and "
				     "\"summary\": each generation's broken, skewed, fine and "
				     "too_few cells" },
	/* 1: cells had no counted_by, path, threads, ranges and price_s */
	[KB_DOC_SKEW] = { .name = "skew", .version = 2, .holds = "the cells, a generation each" },
	/* 1 had no K */
	[KB_DOC_INFLUENCE] = { .name = "influence", .version = 2,
			       .holds = "the function, generation, word and bits, and \"p_flip\": "
					"a row an input bit, a column an output bit" },
	[KB_DOC_AUDIT] = { .name = "audit", .version = 1,
			   .holds = "\"multipliers\": a record each, with its spectral test" },
	[KB_DOC_WAITTABLE] = { .name = "waittable", .version = 1,
			       .holds = "the word, waiters and trials, and \"zones\"" },
	/* 1 had no K */
	[KB_DOC_TABLES] = { .name = "tables", .version = 2,
			    .holds = "the key count and \"tables\": each named table's facts "
				     "and cells" },
	/* 4 had no subsystems in its atlas; 3 no feeds and no_bucket verdicts */
	[KB_DOC_CENSUS] = { .name = "census", .version = 5,
			    .holds = "min_pairs, \"files\" (each file's word, kernel and summary, "
				     "and its atlas), and the sites, a record a generation" },
	/* 1 had no shared_sd and nothing_to_explain */
	[KB_DOC_EXPLAIN] = { .name = "explain", .version = 2,
			     .holds = "the cell, its pairs against a random function's and the "
				      "model's, and \"differences\", most excess first" },
	/* 3 took no names (no input, same_buckets_as); 2 had no re-layouts */
	[KB_DOC_ADVISE] = { .name = "advise", .version = 4,
			    .holds = "the keys or names (input), their kind and spacing (names: "
				     "name_bytes_min and _max instead of min, max, align and gcd), "
				     "the noise and tie, the re-layouts, the advice, and the "
				     "candidates (same_buckets_as: the string generations folded "
				     "into one)" },
	[KB_DOC_SPEED] = { .name = "speed", .version = 1,
			   .holds = "the caches and where each size was read, and each part's "
				    "records (timings: best, median, mean and spread of their "
				    "rounds)" },
	[KB_DOC_CONFORM] = { .name = "conform", .version = 1,
			     .holds = "the function's name, source and call, whether it conforms, "
				      "the bits judged, what it is (degenerate bits, results past "
				      "the table, input bits that never count, a multiplier), "
				      "\"buckets_used\" at each bits, \"cells\" and \"costs\"" },
	[KB_DOC_SCAN] = { .name = "scan", .version = 1,
			  .holds = "the files scanned, skipped as binary and unreadable, and "
				   "\"findings\", in file and line order" },
};

const struct kb_record_row kb_records[KB_REC_COUNT_] = {
	/* 1 had no K columns */
	[KB_REC_CELL] = { .writers = "report, skew", .csv_version = 2, .json_object = 1,
			  .row = "a cell: keys, function, generation, word, table size "
				 "(keys_read, repeated and distinct: a key file's cells only)",
			  .names = kb_cell_names },
	/* 1 had no K columns */
	[KB_REC_INFLUENCE] = { .writers = "influence", .csv_version = 2,
			       .row = "an input bit and an output bit",
			       .names = kb_influence_names },
	[KB_REC_AUDIT] = { .writers = "audit", .csv_version = 1, .json_object = 1,
			   .row = "a multiplier", .names = kb_audit_names },
	[KB_REC_WAIT] = { .writers = "waittable", .csv_version = 1, .json_object = 1,
			  .row = "a zone", .names = kb_wait_names },
	/* 1 had no K columns */
	[KB_REC_TABLE] = { .writers = "tables", .csv_version = 2, .json_object = 1,
			   .row = "a named table under one generation and word",
			   .names = kb_table_names },
	/* 1 had no kind, kind_from, indexes and cost columns; 3 no feeds and
	 * no_bucket verdicts */
	[KB_REC_CENSUS] = { .writers = "census", .csv_version = 4, .json_object = 1,
			    .row = "a site under one generation", .names = kb_census_names },
	/* 1 had no K columns */
	[KB_REC_EXPLAIN] = { .writers = "explain", .csv_version = 2, .json_object = 1,
			     .row = "a key difference", .names = kb_explain_names },
	/* 1 had no noise and tie columns; 2 no re-layouts */
	[KB_REC_ADVISE] = { .writers = "advise", .csv_version = 3, .json_object = 1,
			    .row = "a candidate", .names = kb_advise_names },
	/* 1 had no median, mean and spread */
	[KB_REC_SPEED_HASH] = { .writers = "speed --part hashes", .csv_version = 2,
				.json_object = 1, .row = "a hash: inline, exported and latency",
				.names = kb_speed_hash_names },
	/* 2 had no median, mean and spread */
	[KB_REC_SPEED_ENGINE] = { .writers = "speed --part engine", .csv_version = 3,
				  .json_object = 1, .row = "a path at one table size",
				  .names = kb_speed_engine_names },
	[KB_REC_SPEED_GRID] = { .writers = "speed --part grid", .csv_version = 6,
				.json_object = 1, .row = "a table size and key count",
				.names = kb_speed_grid_names },
	/* 1 had no siphash */
	[KB_REC_SPEED_STRINGS] = { .writers = "speed --part strings", .csv_version = 2,
				   .json_object = 1, .row = "a name length: word and byte paths, siphash",
				   .names = kb_speed_string_names },
	[KB_REC_CONFORM] = { .writers = "conform", .csv_version = 1, .json_object = 1,
			     .row = "a cell of hash.h beside the user's function",
			     .names = kb_conform_names },
	[KB_REC_CONFORM_COST] = { .writers = "conform (costs)", .csv_version = 1, .json_object = 1,
				  .row = "a built-in key set through the user's function (CSV: after "
					 "the cells and a blank line)",
				  .names = kb_conform_cost_names },
	[KB_REC_SCAN] = { .writers = "scan", .csv_version = 1, .json_object = 1,
			  .row = "a finding: a constant or idiom at a file's line, and the "
				 "command that judges it",
			  .names = kb_scan_names },
};

void kb_json_doc_head(struct kb_buf *b, enum kb_doc d)
{
	kb_buf_printf(b, "{\n  \"schema\": \"khash-bench/%s\",\n  \"schema_version\": %u,\n",
		      kb_docs[d].name, kb_docs[d].version);
}
