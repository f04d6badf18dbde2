/* SPDX-License-Identifier: MIT */
/*
 * speed --part strings: the dcache's name hash as today's 64-bit x86
 * kernel computes it (new full_name_hash, a word at a time, little-endian
 * loads, salted) against the same hash's byte path, the kernel's plain
 * byte loop (partial_name_hash a byte), in one binary, in bytes per ns.
 */
#include "speed.h"

#include <string.h>
#include <time.h>

#include <khash/lkh_string.h>

#include "schemas.h"

#define STRING_ROUNDS 5
#define NAMES 64                   /* distinct names a length, in turn */
#define BYTES_A_ROUND (1u << 24)   /* hashed a round, whatever the length */

/* the name lengths timed: a short component, one word and a tail, ..., a page */
static const unsigned lengths[] = { 4, 8, 12, 16, 24, 32, 64, 255, 4096 };
#define LENGTHS (sizeof(lengths) / sizeof(lengths[0]))

static volatile uint64_t sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One round of one path over the names of len bytes: seconds. */
static double round_of(int word, const unsigned char *names, unsigned len, unsigned long reps)
{
	uint64_t salt = UINT64_C(0xffff888012345600), acc = 0; /* a dentry's address */
	unsigned long r;
	double t0 = now();
	unsigned i;

	for (r = 0; r < reps; r++)
		for (i = 0; i < NAMES; i++)
			acc += word ? lkh_new_full_name_hash_w64_le(salt, names + i * len, len)
				    : lkh_new_full_name_hash_w64_byte(salt, names + i * len, len);
	sink += acc;
	return now() - t0;
}

struct string_row {
	unsigned len;
	struct kb_rounds word, byte; /* seconds a round */
	double bytes;                /* hashed a round */
};

static double per_ns(double bytes, double s)
{
	return s > 0 ? bytes / s / 1e9 : 0;
}

/* A row: CSV's says the rounds too, its ratios to 3 digits, JSON's to 4. */
static void string_fields(struct kb_buf *b, enum kb_fields_as as, const struct string_row *r)
{
	double best = r->byte.best > 0 ? r->byte.best / r->word.best : 0;
	double median = r->byte.median > 0 ? r->byte.median / r->word.median : 0;
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_SPEED_STRINGS].csv_version,
		  .in = KB_IN_CSV },
		{ .name = "bytes", .u = r->len },
		{ .name = "rounds", .u = STRING_ROUNDS, .in = KB_IN_CSV },
		{ .name = "word_best_bytes_per_ns", .form = KB_FIELD_FIX, .prec = 3,
		  .d = per_ns(r->bytes, r->word.best) },
		{ .name = "word_median_bytes_per_ns", .form = KB_FIELD_FIX, .prec = 3,
		  .d = per_ns(r->bytes, r->word.median) },
		{ .name = "byte_best_bytes_per_ns", .form = KB_FIELD_FIX, .prec = 3,
		  .d = per_ns(r->bytes, r->byte.best) },
		{ .name = "byte_median_bytes_per_ns", .form = KB_FIELD_FIX, .prec = 3,
		  .d = per_ns(r->bytes, r->byte.median) },
		{ .name = "speedup_best", .form = KB_FIELD_FIX, .prec = 3, .d = best },
		{ .name = "speedup_median", .form = KB_FIELD_FIX, .prec = 3, .d = median },
	};

	kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_speed_string_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct string_row none;

	string_fields(b, as, &none);
}

uint64_t kb_speed_string_steps(void)
{
	return LENGTHS * 2 * STRING_ROUNDS;
}

void kb_speed_strings(const struct kb_speed_opts *o, enum kb_format format, int after,
		      struct kb_buf *b)
{
	static unsigned char names[NAMES * 4096];
	size_t i, l;

	/* names of letters, digits and dots, different from one another */
	for (i = 0; i < sizeof(names); i++)
		names[i] = (unsigned char)("abcdefghijklmnopqrstuvwxyz0123456789._"[(i * 7 + i / 61) % 38]);
	if (format == KB_FORMAT_CSV)
		kb_speed_string_names(b, KB_FIELDS_CSV_HEAD);
	else if (format == KB_FORMAT_JSON)
		kb_buf_printf(b, "%s  \"strings\": {\"rounds\": %d, \"rows\": [", after ? ",\n" : "",
			      STRING_ROUNDS);
	else
		kb_buf_printf(b, "%sName hashes: new full_name_hash on a 64-bit little-endian kernel, salted,\n"
				 "a word at a time against its byte path (the kernel's byte loop, without\n"
				 "DCACHE_WORD_ACCESS), %d names a length in turn; bytes per ns, best / median of %d\n"
				 "%5s | %-15s | %-15s | %s\n",
			      after ? "\n" : "", NAMES, STRING_ROUNDS, "bytes", "word at a time",
			      "byte at a time", "word / byte");
	for (l = 0; l < LENGTHS; l++) {
		struct string_row r = { .len = lengths[l] };
		unsigned long reps = BYTES_A_ROUND / (NAMES * lengths[l]) + 1;
		double t[2][STRING_ROUNDS];
		int k, side;

		r.bytes = (double)reps * NAMES * lengths[l];
		for (k = 0; k < STRING_ROUNDS; k++)
			for (side = 0; side < 2; side++) {
				t[side][k] = round_of(side == 0, names, lengths[l], reps);
				kb_progress_add(o->progress, 1);
			}
		kb_rounds_of(t[0], STRING_ROUNDS, &r.word);
		kb_rounds_of(t[1], STRING_ROUNDS, &r.byte);
		if (format == KB_FORMAT_CSV) {
			string_fields(b, KB_FIELDS_CSV, &r);
		} else if (format == KB_FORMAT_JSON) {
			kb_buf_printf(b, "%s\n      ", l ? "," : "");
			string_fields(b, KB_FIELDS_JSON, &r);
		} else {
			kb_buf_printf(b, "%5u | %6.3f / %6.3f | %6.3f / %6.3f | %5.2fx / %5.2fx\n",
				      r.len, per_ns(r.bytes, r.word.best),
				      per_ns(r.bytes, r.word.median), per_ns(r.bytes, r.byte.best),
				      per_ns(r.bytes, r.byte.median), r.byte.best / r.word.best,
				      r.byte.median / r.word.median);
		}
	}
	if (format == KB_FORMAT_JSON)
		kb_buf_printf(b, "\n    ]}");
}
