/* SPDX-License-Identifier: MIT */
/*
 * The renderers (io/render.c and the *_render.c beside it) on small fixed
 * inputs, in every format: CSV rows have the header's column count (quoted
 * commas not counted), JSON parses (a strict checker below: objects,
 * arrays, strings and their escapes, numbers, literals, nothing after),
 * and the text shows the input's figures where worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "advise_render.h"
#include "explain_render.h"
#include "render.h"

/* ---- a strict JSON checker: the end of a value, or NULL ---- */
static const char *json_value(const char *p);

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *json_number(const char *p)
{
	const char *start;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		start = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == start)
			return NULL;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		start = p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == start)
			return NULL;
	}
	return p;
}

/* the members of an object or the items of an array, up to close */
static const char *json_list(const char *p, char close, int members)
{
	p = skip_ws(p);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (members) {
			if (!(p = json_string(skip_ws(p))))
				return NULL;
			p = skip_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = json_value(p)))
			return NULL;
		p = skip_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p)
{
	p = skip_ws(p);
	switch (*p) {
	case '{':
		return json_list(p + 1, '}', 1);
	case '[':
		return json_list(p + 1, ']', 0);
	case '"':
		return json_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return json_number(p);
	}
}

static void assert_json(const struct kb_buf *b)
{
	const char *end;

	assert_non_null(b->data);
	end = json_value(b->data);
	if (!end || *skip_ws(end))
		fail_msg("not JSON at byte %ld:\n%s", end ? (long)(end - b->data) : -1L, b->data);
}

/* the fields of one CSV line, quotes respected */
static size_t csv_fields(const char *line, const char *end)
{
	size_t n = 1;
	int quoted = 0;

	for (; line < end; line++) {
		if (*line == '"')
			quoted = !quoted;
		else if (*line == ',' && !quoted)
			n++;
	}
	return n;
}

/* every row as wide as the header: the number of rows */
static size_t assert_csv(const struct kb_buf *b, size_t want_columns)
{
	const char *p = b->data, *nl;
	size_t header, rows = 0;

	assert_non_null(p);
	nl = strchr(p, '\n');
	assert_non_null(nl);
	header = csv_fields(p, nl);
	if (want_columns)
		assert_int_equal(header, want_columns);
	for (p = nl + 1; *p; p = nl + 1, rows++) {
		nl = strchr(p, '\n');
		assert_non_null(nl);
		if (csv_fields(p, nl) != header)
			fail_msg("row %zu has %zu fields, the header %zu:\n%.*s", rows + 1,
				 csv_fields(p, nl), header, (int)(nl - p), p);
	}
	return rows;
}

static void the_checkers_refuse_what_they_should(void **state)
{
	static const char *const bad[] = { "{\"a\": 1,}", "[1 2]", "{\"a\" 1}", "\"tab\there\"",
					   "01", "1.", "{\"a\": tru}", "[\"\\x\"]", "{} x" };
	struct kb_buf b = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *end = json_value(bad[i]);

		assert_true(!end || *skip_ws(end));
	}
	assert_non_null(json_value("{\"a\": [1, -2.5e+3, true, null, \"\\u00e9\\n\"], \"b\": {}}"));
	kb_buf_printf(&b, "a,b,c\n1,\"x,y\",3\n");
	assert_int_equal(assert_csv(&b, 3), 1);
	kb_buf_free(&b);
}

/* ---- the wait tables: two zones by hand ---- */
static const struct kb_wait_row wait_rows[2] = {
	/* 1 MiB: the 2002 tables sized 1 queue (shift 64); the fix's 4 simulated */
	{ .zone_bytes = UINT64_C(1) << 20, .pages = 256, .table = 4, .bits = 2,
	  .seed_table = 1, .seed_shift = 64, .shift_overflow = 1, .hw_index = 0x1234,
	  .fixed_table = 4, .old_random = 24.75, .new_random = 24.5, .baseline = 99.0 / 4 },
	/* 1 GiB: 262144 pages / 256 = 1024 queues */
	{ .zone_bytes = UINT64_C(1) << 30, .pages = 262144, .table = 1024, .bits = 10,
	  .seed_table = 1024, .seed_shift = 54, .fixed_table = 1024, .old_random = 3.5,
	  .new_random = 0.125, .baseline = 99.0 / 1024 },
};

static void waittable_in_every_format(void **state)
{
	const struct kb_wait_row *r = wait_rows;
	struct kb_buf b = { 0 };

	(void)state;
	kb_render_waittable(r, 2, 64, 100, 7, KB_FORMAT_TEXT, &b);
	assert_non_null(strstr(b.data, "64-bit kernel: 100 pages waited on"));
	assert_non_null(strstr(b.data, "(7 trials)"));
	/* %7llu %s %9llu %6llu (a '*' row: %5llu*) | %8.3f ... */
	assert_non_null(strstr(b.data, "\n      1 MiB       256     4* |   24.750   24.500 |    0.000    0.000 |   24.750\n"));
	assert_non_null(strstr(b.data, "\n      1 GiB    262144   1024 |    3.500    0.125 |    0.000    0.000 |    0.097\n"));
	assert_non_null(strstr(b.data, "queue 0x1234 of a 1-entry table"));
	kb_buf_free(&b);
	memset(&b, 0, sizeof(b));
	kb_render_waittable(r, 2, 64, 100, 7, KB_FORMAT_CSV, &b);
	assert_int_equal(assert_csv(&b, 16), 2);
	assert_non_null(strstr(b.data, "\n1,64,100,1024,262144,1024,3.5000,0.1250,0.0000,0.0000,0.0967,1024,54,0,0,1024\n"));
	kb_buf_free(&b);
	memset(&b, 0, sizeof(b));
	kb_render_waittable(r, 2, 64, 100, 7, KB_FORMAT_JSON, &b);
	assert_json(&b);
	assert_non_null(strstr(b.data, "\"shift_overflow\": true, \"hw_index\": \"0x1234\""));
	/* the whole zone: CSV's own columns (schema, word, waiters, pages) left out */
	assert_non_null(strstr(b.data, ",\n    {\"zone_mib\": 1024, \"table\": 1024, \"old_random\": 3.5000, \"new_random\": 0.1250, \"old_run\": 0.0000, \"new_run\": 0.0000, \"random_function\": 0.0967, \"seed_table\": 1024, \"seed_shift\": 54, \"shift_overflow\": false, \"hw_index\": \"0\", \"fixed_table\": 1024}\n  ]"));
	kb_buf_free(&b);
}

/* ---- the named tables and plain cells: hand counts ---- */
static void table_cells(struct kb_table_cell c[3])
{
	/* 8 keys in 4 of 256 buckets: 2 each */
	static uint64_t counts[256];
	int i;

	memset(c, 0, 3 * sizeof(*c));
	memset(counts, 0, sizeof(counts));
	counts[0] = counts[1] = counts[7] = counts[200] = 2;
	for (i = 0; i < 3; i++) {
		c[i].table = (unsigned)kb_table_find("folio-waitqueue");
		c[i].source = i ? "struct_page" : "model";
		c[i].cell.table = "folio-waitqueue";
		c[i].cell.keyset = i ? -1 : KB_KS_STRUCT_PAGE;
		kb_hashspec_make(&c[i].cell.spec, LKH_FUNC_HASH_PTR, 64,
				 KB_GEN_OF(i == 1 ? LKH_GEN_OLD : LKH_GEN_NEW));
		c[i].cell.bits = 8;
		c[i].cell.ok = i != 2;
		kb_skew_from_counts(counts, 256, &c[i].cell.skew);
	}
	/* a reason with the characters formats must quote */
	snprintf(c[2].cell.why, sizeof(c[2].cell.why), "key 0x1, \"too\" wide");
}

static void tables_in_every_format(void **state)
{
	struct kb_table_cell c[3];
	struct kb_buf b = { 0 };

	(void)state;
	table_cells(c);
	kb_render_tables(c, 3, 64, KB_FORMAT_TEXT, &b);
	assert_non_null(strstr(b.data, "folio-waitqueue"));
	assert_non_null(strstr(b.data, "mm/filemap.c:1058"));
	kb_buf_free(&b);
	memset(&b, 0, sizeof(b));
	kb_render_tables(c, 3, 64, KB_FORMAT_CSV, &b);
	assert_int_equal(assert_csv(&b, 21), 3); /* 19, then K's two */
	/* n 8, 256 buckets, used 4, max load 2 */
	assert_non_null(strstr(b.data, ",8,256,"));
	assert_non_null(strstr(b.data, ",4,2,"));
	kb_buf_free(&b);
	memset(&b, 0, sizeof(b));
	kb_render_tables(c, 3, 64, KB_FORMAT_JSON, &b);
	assert_json(&b);
	assert_non_null(strstr(b.data, "key 0x1, \\\"too\\\" wide"));
	kb_buf_free(&b);
}

static void cells_in_every_format(void **state)
{
	struct kb_table_cell t[3];
	struct kb_cell c[2];
	struct kb_buf b = { 0 };

	(void)state;
	table_cells(t);
	c[0] = t[0].cell;
	c[1] = t[1].cell;
	c[0].table = c[1].table = NULL;
	kb_render_cells(c, 2, "struct-page", KB_FORMAT_TEXT, &b);
	assert_non_null(b.data);
	assert_true(strlen(b.data) > 0);
	kb_buf_free(&b);
	memset(&b, 0, sizeof(b));
	kb_render_cells(c, 2, "struct-page", KB_FORMAT_CSV, &b);
	assert_int_equal(assert_csv(&b, 0), 2);
	kb_buf_free(&b);
	memset(&b, 0, sizeof(b));
	kb_render_cells(c, 2, "struct-page", KB_FORMAT_JSON, &b);
	assert_json(&b);
	kb_buf_free(&b);
}

/* ---- explain and advise: their core functions on a few keys ---- */
static void explain_and_advice_in_every_format(void **state)
{
	static struct kb_explain e;
	static struct kb_advice a;
	struct kb_hashspec s = { LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64, 0, 0, 0 };
	struct kb_advise_opts o;
	uint64_t keys[1000];
	double ns[KB_ADVISE_MAX];
	char err[200];
	int f;
	size_t i;

	(void)state;
	/* twelve stripes under old hash_64: far more shared pairs than a
	 * random function's noise, so rows to list (explain lists none when
	 * there is nothing to explain) */
	s.gen = LKH_GEN_OLD;
	s.func = LKH_FUNC_HASH_64;
	for (i = 0; i < 12; i++)
		keys[i] = (uint64_t)i << 17;
	assert_int_equal(kb_explain(&s, 2, keys, 12, &e, err, sizeof(err)), 0);
	assert_false(e.nothing);
	memset(&o, 0, sizeof(o));
	o.func = LKH_FUNC_HASH_PTR;
	o.gen = LKH_GEN_NEW;
	o.word = 64;
	o.bits = 8;
	o.kind = KB_KIND_CHAINED;
	o.seed = 1;
	for (i = 0; i < 1000; i++)
		keys[i] = 3 * i + 1;
	assert_int_equal(kb_advise(&o, keys, 1000, &a, err, sizeof(err)), 0);
	for (i = 0; i < KB_ADVISE_MAX; i++)
		ns[i] = -1; /* not timed */
	for (f = KB_FORMAT_TEXT; f <= KB_FORMAT_JSON; f++) {
		struct kb_buf b = { 0 };

		kb_render_explain(&e, &s, 2, "slab, \"168\"", (enum kb_format)f, &b);
		if (f == KB_FORMAT_CSV)
			assert_true(assert_csv(&b, 0) >= 1);
		else if (f == KB_FORMAT_JSON)
			assert_json(&b);
		else
			assert_true(b.data && strlen(b.data) > 0);
		kb_buf_free(&b);
		memset(&b, 0, sizeof(b));
		kb_render_advice(&a, ns, "3i+1, i < 1000", (enum kb_format)f, &b);
		if (f == KB_FORMAT_CSV)
			assert_int_equal(assert_csv(&b, 0), a.nrows);
		else if (f == KB_FORMAT_JSON)
			assert_json(&b);
		else
			assert_true(b.data && strlen(b.data) > 0);
		kb_buf_free(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_checkers_refuse_what_they_should),
		cmocka_unit_test(waittable_in_every_format),
		cmocka_unit_test(tables_in_every_format),
		cmocka_unit_test(cells_in_every_format),
		cmocka_unit_test(explain_and_advice_in_every_format),
	};

	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}
