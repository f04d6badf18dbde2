/* SPDX-License-Identifier: MIT */
/*
 * The output layer (io/format.c, io/render.c): format names, JSON string
 * escaping, CSV quoting and the numbers both write, compared with
 * expected bytes written out by hand; and a rendered cell whose strings
 * need escaping stays valid JSON and CSV.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "format.h"
#include "render.h"

/* The buffer's text, NUL-terminated (kb_buf keeps a NUL after len). */
static const char *text(const struct kb_buf *b)
{
	return b->data ? b->data : "";
}

static void names_round_trip(void **state)
{
	enum kb_format f;
	unsigned i;

	(void)state;
	for (i = 0; i < KB_FORMAT_COUNT; i++) {
		assert_int_equal(kb_format_from_name(kb_format_name((enum kb_format)i), &f), 0);
		assert_int_equal(f, i);
	}
	assert_string_equal(kb_format_name(KB_FORMAT_CSV), "csv");
	assert_int_equal(kb_format_from_name("JSON", &f), -1);
	assert_int_equal(kb_format_from_name("xml", &f), -1);
	assert_int_equal(kb_format_from_name("", &f), -1);
	assert_null(kb_format_name(KB_FORMAT_COUNT));
}

static void json_strings_are_escaped(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "page4k", "\"page4k\"" },
		{ "", "\"\"" },
		{ "a\"b", "\"a\\\"b\"" },
		{ "C:\\keys", "\"C:\\\\keys\"" },
		{ "line\nbreak\r\ttab", "\"line\\nbreak\\r\\ttab\"" },
		{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" }, /* UTF-8 passes */
		{ "/tmp/keys \"x\".txt", "\"/tmp/keys \\\"x\\\".txt\"" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kb_buf b = { 0 };

		kb_json_string(&b, cases[i].in);
		assert_string_equal(text(&b), cases[i].out);
		kb_buf_free(&b);
	}
}

static void csv_fields_are_quoted_when_needed(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "page4k", "page4k" },
		{ "", "" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "two\nlines", "\"two\nlines\"" },
		{ "cr\r", "\"cr\r\"" },
		{ "semi;colon", "semi;colon" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kb_buf b = { 0 };

		kb_csv_field(&b, cases[i].in);
		assert_string_equal(text(&b), cases[i].out);
		kb_buf_free(&b);
	}
}

static void numbers_stay_valid(void **state)
{
	struct kb_buf b = { 0 };

	(void)state;
	kb_csv_number(&b, 1.5);
	kb_buf_printf(&b, " ");
	kb_csv_number(&b, -0.0);
	kb_buf_printf(&b, " ");
	kb_csv_number(&b, INFINITY);
	kb_buf_printf(&b, " ");
	kb_csv_number(&b, -INFINITY);
	kb_buf_printf(&b, " ");
	kb_csv_number(&b, 123456789012.0);
	assert_string_equal(text(&b), "1.5 0 inf -inf 1.23456789e+11");
	kb_buf_free(&b);

	kb_json_number(&b, "x", -0.0);
	kb_buf_printf(&b, ", ");
	kb_json_number(&b, "lo", -INFINITY);
	kb_buf_printf(&b, ", ");
	kb_json_number(&b, "n", NAN);
	kb_buf_printf(&b, ", ");
	kb_json_number(&b, "q\"", 0.25);
	assert_string_equal(text(&b), "\"x\": 0, \"lo\": null, \"n\": null, \"q\\\"\": 0.25");
	kb_buf_free(&b);
}

/* A cell that does not apply carries its reason into JSON and CSV. */
static void a_cell_reason_is_escaped(void **state)
{
	struct kb_cell c;
	struct kb_buf b = { 0 };

	(void)state;
	memset(&c, 0, sizeof(c));
	c.keyset = KB_KS_PAGE4K;
	c.spec.func = LKH_FUNC_HASH_32;
	c.spec.gen = LKH_GEN_NEW;
	c.spec.word = 64;
	c.bits = 8;
	snprintf(c.why, sizeof(c.why), "keys \"too\" wide\\");
	kb_render_cells(&c, 1, "page4k", KB_FORMAT_JSON, &b);
	assert_non_null(strstr(text(&b), "\"verdict\": \"n/a\", \"why\": \"keys \\\"too\\\" wide\\\\\"}"));
	assert_non_null(strstr(text(&b), "\"schema_version\": 2,"));
	kb_buf_free(&b);
	kb_render_cells(&c, 1, "page4k", KB_FORMAT_CSV, &b);
	assert_string_equal(text(&b),
			    "schema,keys,func,gen,word,bits,n,buckets,chi2,df,chi2_per_df,log10_p_upper,log10_p_lower,p_upper,p_lower,used,max_load,expected_max_load,"
			    "hit_compares,hit_vs_random,miss_compares,miss_vs_random,others_met,met_vs_random,verdict,multiplier,multiplier_width\n"
			    "2,page4k,hash_32,new,64,8,,,,,,,,,,,,,,,,,,,n/a,,\n");
	kb_buf_free(&b);
}

/* A K cell says which K in every format: the CSV's last two columns, the
 * JSON's "multiplier" and "multiplier_width"; hash.h's cells leave them
 * empty, the ones K's helpers write for any row. */
static void a_k_cell_names_its_multiplier(void **state)
{
	const struct kb_gen k = { KB_GEN_K, 0x61c88647, 32 }, auto_k = { KB_GEN_K, 0x9e37, 0 };
	const struct kb_gen old = { LKH_GEN_OLD, 0, 0 };
	struct kb_field kf[2];
	struct kb_cell c;
	struct kb_buf b = { 0 };

	(void)state;
	memset(&c, 0, sizeof(c));
	c.keyset = KB_KS_SEQ;
	kb_hashspec_make(&c.spec, LKH_FUNC_HASH_32, 64, &k);
	c.bits = 8;
	snprintf(c.why, sizeof(c.why), "n/a here");
	kb_render_cells(&c, 1, "seq", KB_FORMAT_CSV, &b);
	assert_non_null(strstr(text(&b), ",verdict,multiplier,multiplier_width\n"));
	assert_non_null(strstr(text(&b), "\n2,seq,hash_32,K,64,8,"));
	assert_non_null(strstr(text(&b), ",n/a,0x61c88647,32\n"));
	kb_buf_free(&b);
	kb_render_cells(&c, 1, "seq", KB_FORMAT_JSON, &b);
	assert_non_null(strstr(text(&b), "\"gen\": \"K\", \"word\": 64, \"bits\": 8, \"multiplier\": \"0x61c88647\", \"multiplier_width\": 32, "));
	kb_buf_free(&b);
	kb_k_fields(&old, kf);
	kb_fields(&b, KB_FIELDS_CSV, kf, 2);
	kb_fields(&b, KB_FIELDS_JSON_MEMBERS, kf, 2);
	kb_k_fields(&auto_k, kf);
	kb_fields(&b, KB_FIELDS_CSV, kf, 2);
	kb_fields(&b, KB_FIELDS_JSON_MEMBERS, kf, 2);
	assert_string_equal(text(&b), ",\n0x9e37,\n\"multiplier\": \"0x9e37\", \"multiplier_width\": null, ");
	kb_buf_free(&b);
}

static void nested_json(struct kb_buf *b, const void *arg)
{
	kb_buf_printf(b, "[%s]", (const char *)arg);
}

/* Every form of a record's field, in the CSV header, the CSV row and the
 * JSON object, and what .in, .none and a group do to each. */
static void every_field_form_is_written(void **state)
{
	const struct kb_field group[] = {
		{ .name = "g1", .u = 1 },
		{ .name = "g2", .u = 2, .in = KB_IN_JSON },
	};
	const struct kb_field f[] = {
		{ .name = "u", .u = 18446744073709551615ull },
		{ .name = "i", .form = KB_FIELD_INT, .i = -42 },
		{ .name = "fix", .form = KB_FIELD_FIX, .prec = 2, .d = 3.14159 },
		{ .name = "fix_inf", .form = KB_FIELD_FIX, .prec = 2, .d = INFINITY },
		{ .name = "g", .form = KB_FIELD_G, .prec = 3, .d = 1234567 },
		{ .name = "zero", .form = KB_FIELD_G, .prec = 3, .d = -0.0 },
		{ .name = "num", .form = KB_FIELD_NUM, .d = 1.0 / 3 },
		{ .name = "num_nan", .form = KB_FIELD_NUM, .d = NAN },
		{ .name = "num_fix", .form = KB_FIELD_NUM_FIX, .prec = 1, .d = 2.25 },
		{ .name = "num_g", .form = KB_FIELD_NUM_G, .prec = 2, .d = 0.123456 },
		{ .name = "bool", .form = KB_FIELD_BOOL, .u = 7 },
		{ .name = "yesno", .form = KB_FIELD_YESNO, .u = 0 },
		{ .name = "hex", .form = KB_FIELD_HEX, .u = 0 },
		{ .name = "hex_0x", .form = KB_FIELD_HEX_0X, .u = 0 },
		{ .name = "str", .form = KB_FIELD_STR, .s = "a,\"b\"" },
		{ .name = "nested", .form = KB_FIELD_JSON, .json = nested_json, .arg = "1, 2" },
		{ .form = KB_FIELD_GROUP, .sub = group, .n = 2 },
		{ .name = "csv_only", .u = 3, .in = KB_IN_CSV },
		{ .name = "lacked", .u = 4, .in = KB_IN_NEITHER },
		{ .name = "null", .u = 5, .none = KB_NONE_NULL },
		{ .name = "omit", .u = 6, .none = KB_NONE_OMIT },
	};
	struct kb_buf b = { 0 };

	(void)state;
	kb_fields(&b, KB_FIELDS_CSV_HEAD, f, KB_FIELDS_N(f));
	assert_string_equal(text(&b), "u,i,fix,fix_inf,g,zero,num,num_nan,num_fix,num_g,bool,yesno,hex,hex_0x,str,g1,csv_only,null,omit\n");
	kb_buf_free(&b);
	kb_fields(&b, KB_FIELDS_CSV, f, KB_FIELDS_N(f));
	assert_string_equal(text(&b), "18446744073709551615,-42,3.14,inf,1.23e+06,0,0.3333333333,nan,2.2,0.12,1,no,0,0x0,\"a,\"\"b\"\"\",1,3,,\n");
	kb_buf_free(&b);
	kb_fields(&b, KB_FIELDS_JSON, f, KB_FIELDS_N(f));
	assert_string_equal(text(&b), "{\"u\": 18446744073709551615, \"i\": -42, \"fix\": 3.14, \"fix_inf\": null, "
				      "\"g\": 1.23e+06, \"zero\": 0, \"num\": 0.3333333333, \"num_nan\": null, "
				      "\"num_fix\": 2.25, \"num_g\": 0.123456, \"bool\": true, \"yesno\": false, "
				      "\"hex\": \"0\", \"hex_0x\": \"0x0\", \"str\": \"a,\\\"b\\\"\", \"nested\": [1, 2], "
				      "\"g1\": 1, \"g2\": 2, \"null\": null}");
	kb_buf_free(&b);
	/* every member the object can have: the one left out here too */
	kb_fields(&b, KB_FIELDS_JSON_NAMES, f, KB_FIELDS_N(f));
	assert_string_equal(text(&b), "u, i, fix, fix_inf, g, zero, num, num_nan, num_fix, num_g, bool, "
				      "yesno, hex, hex_0x, str, nested, g1, g2, null, omit\n");
	kb_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_round_trip),
		cmocka_unit_test(json_strings_are_escaped),
		cmocka_unit_test(csv_fields_are_quoted_when_needed),
		cmocka_unit_test(numbers_stay_valid),
		cmocka_unit_test(a_cell_reason_is_escaped),
		cmocka_unit_test(a_k_cell_names_its_multiplier),
		cmocka_unit_test(every_field_form_is_written),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
