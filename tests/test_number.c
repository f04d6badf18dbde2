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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepts_decimal_and_hex),
		cmocka_unit_test(refuses_what_is_not_a_whole_number),
		cmocka_unit_test(refuses_more_than_64_bits),
		cmocka_unit_test(reads_only_the_span_it_is_given),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
