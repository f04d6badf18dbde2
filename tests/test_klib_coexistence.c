/* SPDX-License-Identifier: MIT */
/*
 * klib's khash.h (here the copy Debian ships with htslib) and libkhash's
 * headers in one translation unit: no name clashes, and a klib table keyed
 * by libkhash's hash_ptr works.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#ifdef HAVE_HTSLIB_KHASH
#include <htslib/khash.h>
#include <khash/linux_hash.h>

KHASH_MAP_INIT_INT(bucket_of, int)

static void both_headers_work_together(void **state)
{
	static const char objects[64];
	khash_t(bucket_of) *h = kh_init(bucket_of);
	unsigned i;
	int ret;

	(void)state;
	assert_non_null(h);
	for (i = 0; i < 64; i++) {
		khint_t k = kh_put(bucket_of, h,
				   (khint32_t)hash_ptr(&objects[i], 20), &ret);
		kh_value(h, k) = (int)i;
	}
	assert_true(kh_size(h) >= 60); /* 64 pointers in 2^20 buckets */
	/* each pointer finds what it stored under its own hash */
	for (i = 0; i < 64; i++) {
		khint_t k = kh_get(bucket_of, h, (khint32_t)hash_ptr(&objects[i], 20));

		assert_true(k != kh_end(h));
	}
	/* the drop-in computes the kernel's values, not klib's: 1 * K is K,
	 * and 0x12345678 through a 64-bit hash_64 is the kernel test's value */
	assert_int_equal(hash_32(1, 32), 0x61c88647u);
#if LKH_BITS_PER_LONG == 64
	assert_int_equal(hash_64(0x12345678, 32), 0x6e79886eu);
#else
	assert_int_equal(hash_64(0x12345678, 32), 0x7786cb48u);
#endif
	kh_destroy(bucket_of, h);
}
#endif

int main(void)
{
#ifndef HAVE_HTSLIB_KHASH
	printf("SKIP: htslib/khash.h is not installed (Debian: libhts-dev)\n");
	return 77;
#else
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(both_headers_work_together),
	};

	return cmocka_run_group_tests_name("klib_coexistence", tests, NULL,
					   NULL);
#endif
}
