/* SPDX-License-Identifier: MIT */
/*
 * speed --part strings: the dcache's name hash as today's 64-bit x86
 * kernel computes it (new full_name_hash, a word at a time, little-endian
 * loads, salted) against the same hash's byte path, the kernel's plain
 * byte loop (partial_name_hash a byte), and siphash of the same names (the
 * keyed choice advise ranks beside it), in one binary, in bytes per ns.
 */
#include "speed.h"

#include <string.h>
#include <time.h>

#include <khash/lkh_string.h>

#include "kernel_hashes.h"
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

/* What a round times: the word path, the byte path, siphash. */
enum { SIDE_WORD, SIDE_BYTE, SIDE_SIPHASH, SIDES };

/* One round of one side over the names of len bytes: seconds. */
static double round_of(int side, const unsigned char *names, unsigned len, unsigned long reps)
{
	uint64_t salt = UINT64_C(0xffff888012345600), acc = 0; /* a dentry's address */
	const struct kb_siphash_key key = { { salt, ~salt } };
	unsigned long r;
	double t0 = now();
	unsigned i;

	for (r = 0; r < reps; r++)
		for (i = 0; i < NAMES; i++)
			acc += side == SIDE_WORD
				       ? lkh_new_full_name_hash_w64_le(salt, names + i * len, len)
			       : side == SIDE_BYTE
				       ? lkh_new_full_name_hash_w64_byte(salt, names + i * len, len)
				       : kb_siphash(names + i * len, len, &key);
	sink += acc;
	return now() - t0;
}

struct string_row {
	unsigned len;
	struct kb_rounds side[SIDES]; /* seconds a round */
	double bytes;                 /* hashed a round */
};

static double per_ns(double bytes, double s)
{
	return s > 0 ? bytes / s / 1e9 : 0;
}

/* A row: CSV's says the rounds too, its ratios to 3 digits, JSON's to 4. */
static void string_fields(struct kb_buf *b, enum kb_fields_as as, const struct string_row *r)
{
	const struct kb_rounds *w = &r->side[SIDE_WORD], *by = &r->side[SIDE_BYTE];
	const struct kb_rounds *sip = &r->side[SIDE_SIPHASH];
	double best = by->best > 0 ? by->best / w->best : 0;
	double median = by->median > 0 ? by->median / w->median : 0;
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_SPEED_STRINGS].csv_version,
		  .in = KB_IN_CSV },
		{ .name = "bytes", .u = r->len },
		{ .name = "rounds", .u = STRING_ROUNDS, .in = KB_IN_CSV },
		{ .name = "word_best_bytes_per_ns", .form = KB_FIELD_FIX, .prec = 3,
		  .d = per_ns(r->bytes, w->best) },
		{ .name = "word_median_bytes_per_ns", .form = KB_FIELD_FIX, .prec = 3,
		  .d = per_ns(r->bytes, w->median) },
		{ .name = "byte_best_bytes_per_ns", .form = KB_FIELD_FIX, .prec = 3,
		  .d = per_ns(r->bytes, by->best) },
		{ .name = "byte_median_bytes_per_ns", .form = KB_FIELD_FIX, .prec = 3,
		  .d = per_ns(r->bytes, by->median) },
		{ .name = "siphash_best_bytes_per_ns", .form = KB_FIELD_FIX, .prec = 3,
		  .d = per_ns(r->bytes, sip->best) },
		{ .name = "siphash_median_bytes_per_ns", .form = KB_FIELD_FIX, .prec = 3,
		  .d = per_ns(r->bytes, sip->median) },
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
	return LENGTHS * SIDES * STRING_ROUNDS;
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
				 "DCACHE_WORD_ACCESS), and siphash of the same bytes, %d names a length in turn;\n"
				 "bytes per ns, best / median of %d\n"
				 "%5s | %-15s | %-15s | %-15s | %s\n",
			      after ? "\n" : "", NAMES, STRING_ROUNDS, "bytes", "word at a time",
			      "byte at a time", "siphash", "word / byte");
	for (l = 0; l < LENGTHS; l++) {
		struct string_row r = { .len = lengths[l] };
		unsigned long reps = BYTES_A_ROUND / (NAMES * lengths[l]) + 1;
		double t[SIDES][STRING_ROUNDS];
		int k, side;

		r.bytes = (double)reps * NAMES * lengths[l];
		for (k = 0; k < STRING_ROUNDS; k++)
			for (side = 0; side < SIDES; side++) {
				t[side][k] = round_of(side, names, lengths[l], reps);
				kb_progress_add(o->progress, 1);
			}
		for (side = 0; side < SIDES; side++)
			kb_rounds_of(t[side], STRING_ROUNDS, &r.side[side]);
		if (format == KB_FORMAT_CSV) {
			string_fields(b, KB_FIELDS_CSV, &r);
		} else if (format == KB_FORMAT_JSON) {
			kb_buf_printf(b, "%s\n      ", l ? "," : "");
			string_fields(b, KB_FIELDS_JSON, &r);
		} else {
			const struct kb_rounds *w = &r.side[SIDE_WORD], *by = &r.side[SIDE_BYTE];
			const struct kb_rounds *sip = &r.side[SIDE_SIPHASH];

			kb_buf_printf(b, "%5u | %6.3f / %6.3f | %6.3f / %6.3f | %6.3f / %6.3f | %5.2fx / %5.2fx\n",
				      r.len, per_ns(r.bytes, w->best), per_ns(r.bytes, w->median),
				      per_ns(r.bytes, by->best), per_ns(r.bytes, by->median),
				      per_ns(r.bytes, sip->best), per_ns(r.bytes, sip->median),
				      by->best / w->best, by->median / w->median);
		}
	}
	if (format == KB_FORMAT_JSON)
		kb_buf_printf(b, "\n    ]}");
}
