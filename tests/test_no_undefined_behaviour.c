/* SPDX-License-Identifier: MIT */
/*
 * The inline fast path with asserts compiled out (LKH_NO_ASSERT) stays free
 * of undefined behaviour for any bits, even 0 and past the word width,
 * which the kernel's own shift by (32 - bits) is not: out of range the
 * result is the word shifted by the masked count.  The table under test is
 * built with shift sanitizing that traps (tests/meson.build), so a shift by
 * the width aborts here in every build, not only the ASan+UBSan one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "named_table.h"

static void every_bits_value_is_defined(void **state)
{
	static const uint64_t inputs[] = { 0, 1, 0x12345678,
					   UINT64_C(0xffff888000001000),
					   ~UINT64_C(0) };
	size_t len, i, j;
	const struct named_entry *t = named_table_noassert(&len);
	unsigned bits;

	(void)state;
	for (i = 0; i < len; i++) {
		unsigned max = lkh_bits_max(t[i].func, t[i].gen, t[i].word);

		for (j = 0; j < sizeof(inputs) / sizeof(inputs[0]); j++) {
			uint64_t prev = 0;

			uint64_t full = 0;
			unsigned width = 0;
			uint64_t in = lkh_input_bits(t[i].func, t[i].word) == 32
					      ? (uint32_t)inputs[j] : inputs[j];

			assert_int_equal(lkh_hash_full(t[i].func, t[i].gen, t[i].word,
						       in, &full, &width), LKH_OK);
			for (bits = 0; bits <= 70; bits++) {
				uint64_t v = named_call(&t[i], in, bits);
				/* the documented result out of range: the shift
				 * count masked to the word, as x86 and arm64 do */
				uint64_t want = full >> ((width - bits) & (width - 1));

				if (max == 32)
					want = (uint32_t)want;
				if (max > 0 && v != want)
					fail_msg("%s bits %u: %#llx, want %#llx", t[i].name, bits,
						 (unsigned long long)v, (unsigned long long)want);
				/* in range, each extra bit appends one below */
				if (bits >= 2 && bits <= max)
					assert_true(v >> 1 == prev);
				prev = v;
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_bits_value_is_defined),
	};

	return cmocka_run_group_tests_name("no_undefined_behaviour", tests,
					   NULL, NULL);
}
