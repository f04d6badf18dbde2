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
	assert_non_null(strstr(text(&b), "\"schema_version\": 1,"));
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
	kb_k_csv(&b, &old);
	kb_k_csv(&b, &auto_k);
	kb_k_json(&b, &old);
	kb_k_json(&b, &auto_k);
	assert_string_equal(text(&b), ",,,0x9e37,\"multiplier\": \"0x9e37\", \"multiplier_width\": null, ");
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
