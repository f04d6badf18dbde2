/* SPDX-License-Identifier: MIT */
/*
 * The one number parser (core/number.c) that options and key files share:
 * every form it accepts, every one it refuses, and the 64-bit edge, each
 * expected value written out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "number.h"

static int parse(const char *s, uint64_t *v)
{
	return kb_parse_number(s, strlen(s), v);
}

static void accepts_decimal_and_hex(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(parse("0", &v), KB_NUMBER_OK);
	assert_true(v == 0);
	assert_int_equal(parse("4096", &v), KB_NUMBER_OK);
	assert_true(v == 4096);
	assert_int_equal(parse("0x1000", &v), KB_NUMBER_OK);
	assert_true(v == 4096);
	assert_int_equal(parse("0XfFfF", &v), KB_NUMBER_OK);
	assert_true(v == 65535);
	assert_int_equal(parse("007", &v), KB_NUMBER_OK); /* not octal */
	assert_true(v == 7);
	assert_int_equal(parse("18446744073709551615", &v), KB_NUMBER_OK);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse("0xffffffffffffffff", &v), KB_NUMBER_OK);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse("0x0000000000000000000001", &v), KB_NUMBER_OK);
	assert_true(v == 1);
}

static void refuses_what_is_not_a_whole_number(void **state)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "0x", "0x ", "x1", "1x", "0x1g",
		"12a", "1.5", "1e3", "0b101", "\xd9\xa1", "0x-1",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 99;

		assert_int_equal(parse(bad[i], &v), KB_NUMBER_INVALID);
		assert_true(v == 99); /* untouched */
		assert_int_equal(kb_parse_u64(bad[i], &v), 0);
	}
}

static void refuses_more_than_64_bits(void **state)
{
	uint64_t v = 99;

	(void)state;
	assert_int_equal(parse("18446744073709551616", &v), KB_NUMBER_OVERFLOW);
	assert_int_equal(parse("0x10000000000000000", &v), KB_NUMBER_OVERFLOW);
	assert_int_equal(parse("99999999999999999999999x", &v), KB_NUMBER_OVERFLOW);
	assert_true(v == 99);
}

static void reads_only_the_span_it_is_given(void **state)
{
	uint64_t v = 0;

	(void)state;
	/* the key-file reader hands over part of a line */
	assert_int_equal(kb_parse_number("123456", 3, &v), KB_NUMBER_OK);
	assert_true(v == 123);
	assert_int_equal(kb_parse_u64("42", &v), 1);
	assert_true(v == 42);
}

/* Command-line counts: SI (10^3k) and binary (2^10k) suffixes, exact
 * exponents; every expected value worked out by hand. */
static void counts_with_units(void **state)
{
	static const struct { const char *s; uint64_t v; } ok[] = {
		{ "1k", 1000 }, { "1M", 1000000 }, { "1G", 1000000000 },
		{ "1T", UINT64_C(1000000000000) }, { "1Ki", 1024 }, { "1Mi", 1048576 },
		{ "1Gi", UINT64_C(1073741824) }, { "4Gi", UINT64_C(4294967296) },
		{ "1Ti", UINT64_C(1099511627776) }, { "1.5k", 1500 }, { "1.5Ki", 1536 },
		{ "1e6", 1000000 }, { "2.5e3", 2500 }, { "1E0", 1 }, { "0e99", 0 },
		{ "1.0", 1 }, { "42", 42 }, { "0x10", 16 },
		{ "18446744073709551615", UINT64_MAX }, { "1.8446744073709551615e19", UINT64_MAX },
		{ "", 0 } /* end */,
	};
	static const struct { const char *s; int status; } bad[] = {
		{ "1.5e0", KB_NUMBER_FRACTION }, { "1.3Ki", KB_NUMBER_FRACTION },
		{ "0.5", KB_NUMBER_FRACTION }, { "1.0001k", KB_NUMBER_FRACTION },
		{ "1e20", KB_NUMBER_OVERFLOW }, { "18446744073709551616", KB_NUMBER_OVERFLOW },
		{ "18446744073709552k", KB_NUMBER_OVERFLOW }, { "16777216Ti", KB_NUMBER_OVERFLOW },
		{ "1K", KB_NUMBER_INVALID }, { "1m", KB_NUMBER_INVALID }, { "1KiB", KB_NUMBER_INVALID },
		{ "k", KB_NUMBER_INVALID }, { ".5k", KB_NUMBER_INVALID }, { "1.k", KB_NUMBER_INVALID },
		{ "1e", KB_NUMBER_INVALID }, { "1e-3", KB_NUMBER_INVALID }, { "e6", KB_NUMBER_INVALID },
		{ "0x10k", KB_NUMBER_INVALID }, { "-1k", KB_NUMBER_INVALID }, { "", KB_NUMBER_INVALID },
		{ "1 k", KB_NUMBER_INVALID },
	};
	size_t i;

	(void)state;
	for (i = 0; i + 1 < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t v = 99;

		assert_int_equal(kb_parse_count(ok[i].s, &v), KB_NUMBER_OK);
		if (v != ok[i].v)
			fail_msg("%s: %llu", ok[i].s, (unsigned long long)v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 99;

		if (kb_parse_count(bad[i].s, &v) != bad[i].status)
			fail_msg("%s: status %d, want %d", bad[i].s, kb_parse_count(bad[i].s, &v),
				 bad[i].status);
		assert_true(v == 99);
	}
}

/* Byte sizes: every unit 1024-based, and the default's text reads back. */
static void bytes_with_units(void **state)
{
	static const struct { const char *s; uint64_t v; } ok[] = {
		{ "1K", 1024 }, { "1KiB", 1024 }, { "4M", 4194304 }, { "4MiB", 4194304 },
		{ "4G", UINT64_C(4294967296) }, { "4GiB", UINT64_C(4294967296) },
		{ "1T", UINT64_C(1099511627776) }, { "1TiB", UINT64_C(1099511627776) },
		{ "1.5K", 1536 }, { "100", 100 }, { "0x100", 256 },
	};
	static const uint64_t round[] = { 0, 1, 1023, 1024, 1536, UINT64_C(4) << 30,
					  (UINT64_C(4) << 30) + 1, UINT64_C(3) << 40, UINT64_MAX };
	static const char *const bad[] = { "1k", "1KB", "1Ki", "1e3", "1.1K", "4 GiB", "GiB" };
	char text[32];
	uint64_t v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(kb_parse_bytes(ok[i].s, &v), KB_NUMBER_OK);
		if (v != ok[i].v)
			fail_msg("%s: %llu", ok[i].s, (unsigned long long)v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (kb_parse_bytes(bad[i], &v) == KB_NUMBER_OK)
			fail_msg("%s accepted", bad[i]);
	kb_bytes_text(UINT64_C(4) << 30, text, sizeof(text));
	assert_string_equal(text, "4GiB");
	kb_bytes_text(1536, text, sizeof(text)); /* not a whole KiB multiple of 1024? it is: 1.5 KiB */
	assert_string_equal(text, "1536");
	kb_bytes_text(3072, text, sizeof(text));
	assert_string_equal(text, "3KiB");
	kb_bytes_text(0, text, sizeof(text));
	assert_string_equal(text, "0");
	for (i = 0; i < sizeof(round) / sizeof(round[0]); i++) {
		kb_bytes_text(round[i], text, sizeof(text));
		assert_int_equal(kb_parse_bytes(text, &v), KB_NUMBER_OK);
		assert_true(v == round[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepts_decimal_and_hex),
		cmocka_unit_test(refuses_what_is_not_a_whole_number),
		cmocka_unit_test(refuses_more_than_64_bits),
		cmocka_unit_test(reads_only_the_span_it_is_given),
		cmocka_unit_test(counts_with_units),
		cmocka_unit_test(bytes_with_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
