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

#include <cmocka.h>

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
	assert_int_equal(hash_32(1, 32), lkh_new_hash32(1, 32));
	kh_destroy(bucket_of, h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(both_headers_work_together),
	};

	return cmocka_run_group_tests_name("klib_coexistence", tests, NULL,
					   NULL);
}
