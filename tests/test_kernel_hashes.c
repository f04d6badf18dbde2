/* SPDX-License-Identifier: MIT */
/*
 * bench/core/kernel_hashes.c against the kernel: the vectors of
 * tests/golden/kernel_hashes.csv, which tests/golden/gen_kernel_hashes.sh
 * computes by compiling the kernel's own jhash.h and lib/siphash.c (the
 * kernel part of tests/run-all.sh recomputes them from every tree it
 * boots), and the values lib/test_siphash.c itself checks, quoted.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernel_hashes.h"

static const char *vectors_path, *bytes_path;

/* lib/test_siphash.c: the key 00 01 .. 0f, the input bytes 00 01 .. */
static const struct kb_siphash_key test_key = { { UINT64_C(0x0706050403020100),
						  UINT64_C(0x0f0e0d0c0b0a0908) } };

static void siphash_1u64_gives_the_kernel_self_test_value(void **state)
{
	(void)state;
	/* test_vectors_siphash[8], which siphash_1u64 must give */
	assert_int_equal(kb_siphash_1u64(UINT64_C(0x0706050403020100), &test_key),
			 UINT64_C(0x93f5f5799a932462));
}

static void hsiphash_gives_the_kernel_self_test_values_on_both_words(void **state)
{
	const struct kb_hsiphash_key k64 = { { test_key.k[0], test_key.k[1] } };
	const struct kb_hsiphash_key k32 = { { 0x03020100u, 0x07060504u } };

	(void)state;
	/* test_vectors_hsiphash[4] and [8], 64-bit (SipHash-1-3) */
	assert_int_equal(kb_hsiphash_1u32(0x03020100u, &k64, 64), 0x88d38328u);
	assert_int_equal(kb_hsiphash_2u32(0x03020100u, 0x07060504u, &k64, 64), 0x8d299a8eu);
	/* and 32-bit (HalfSipHash-1-3), with the 32-bit test key */
	assert_int_equal(kb_hsiphash_1u32(0x03020100u, &k32, 32), 0x7e059ea6u);
	assert_int_equal(kb_hsiphash_2u32(0x03020100u, 0x07060504u, &k32, 32), 0x577999b1u);
}

static void a_32_bit_hsiphash_key_is_the_low_half_of_each_word(void **state)
{
	const struct kb_hsiphash_key low = { { 0x03020100u, 0x07060504u } };
	const struct kb_hsiphash_key high = { { UINT64_C(0xffffffff03020100),
						UINT64_C(0x1234567807060504) } };

	(void)state;
	assert_int_equal(kb_hsiphash_1u32(7, &low, 32), kb_hsiphash_1u32(7, &high, 32));
	assert_int_not_equal(kb_hsiphash_1u32(7, &low, 64), kb_hsiphash_1u32(7, &high, 64));
}

static uint64_t field(const char *s)
{
	return *s ? strtoull(s, NULL, 16) : 0;
}

/*
 * jhash2 over 0..7 words (the bytes 00 01 .. 1b, little-endian), initval 0
 * and 0x12345678: lookup3's hashword as tests/golden/futex_model.py
 * computes it (its mix and final give lookup3's published values:
 * `futex_model.py selfcheck`).  Four words and more go through the mixing
 * round the jhash_Nwords vectors never reach.
 */
static void jhash2_is_lookup3_hashword(void **state)
{
	static const uint32_t want[2][8] = {
		{ 0xdeadbeef, 0xe4cf1d42, 0xd4ccb93c, 0x5e4aa593, 0x5e84eafc, 0x94b659b5,
		  0x9c0add53, 0x9255ed6e },
		{ 0xf0e21567, 0x16d1d0c0, 0x2595ee0c, 0x1011bbf2, 0x6d034488, 0xb131781e,
		  0x938e41ab, 0xde2292d2 },
	};
	static const uint32_t initval[2] = { 0, 0x12345678 };
	uint32_t k[7];
	unsigned i, n;

	(void)state;
	for (i = 0; i < 7; i++)
		k[i] = (uint32_t)(4 * i) | (uint32_t)(4 * i + 1) << 8 | (uint32_t)(4 * i + 2) << 16 |
		       (uint32_t)(4 * i + 3) << 24;
	for (i = 0; i < 2; i++)
		for (n = 0; n < 8; n++)
			if (kb_jhash2(k, n, initval[i]) != want[i][n])
				fail_msg("jhash2 of %u words, initval %#x: %#x, not %#x", n,
					 initval[i], kb_jhash2(k, n, initval[i]), want[i][n]);
	/* up to three words it is jhash_Nwords, which the kernel's vectors pin */
	assert_int_equal(kb_jhash2(k, 1, 7), kb_jhash_1word(k[0], 7));
	assert_int_equal(kb_jhash2(k, 2, 7), kb_jhash_2words(k[0], k[1], 7));
	assert_int_equal(kb_jhash2(k, 3, 7), kb_jhash_3words(k[0], k[1], k[2], 7));
}

static void every_vector_the_kernel_source_computed(void **state)
{
	char line[512];
	unsigned n = 0, per[6] = { 0 };
	FILE *f = fopen(vectors_path, "r");

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *col[7], *p = line;
		uint64_t a, b, c, d, want, got = 0;
		unsigned i, word;

		if (line[0] == '#' || !strncmp(line, "func,", 5))
			continue;
		line[strcspn(line, "\n")] = 0;
		for (i = 0; i < 7; i++) {
			col[i] = p;
			p += strcspn(p, ",");
			if (*p)
				*p++ = 0;
		}
		word = strcmp(col[1], "any") ? (unsigned)atoi(col[1]) : 64;
		a = field(col[2]);
		b = field(col[3]);
		c = field(col[4]);
		d = field(col[5]);
		want = field(col[6]);
		if (!strcmp(col[0], "jhash_1word")) {
			got = kb_jhash_1word((uint32_t)b, (uint32_t)a);
			per[0]++;
		} else if (!strcmp(col[0], "jhash_2words")) {
			got = kb_jhash_2words((uint32_t)b, (uint32_t)c, (uint32_t)a);
			per[1]++;
		} else if (!strcmp(col[0], "jhash_3words")) {
			got = kb_jhash_3words((uint32_t)b, (uint32_t)c, (uint32_t)d, (uint32_t)a);
			per[2]++;
		} else if (!strcmp(col[0], "siphash_1u64")) {
			struct kb_siphash_key k = { { a, b } };

			got = kb_siphash_1u64(c, &k);
			per[3]++;
		} else if (!strcmp(col[0], "hsiphash_1u32")) {
			struct kb_hsiphash_key k = { { a, b } };

			got = kb_hsiphash_1u32((uint32_t)c, &k, word);
			per[4]++;
		} else if (!strcmp(col[0], "hsiphash_2u32")) {
			struct kb_hsiphash_key k = { { a, b } };

			got = kb_hsiphash_2u32((uint32_t)c, (uint32_t)d, &k, word);
			per[5]++;
		} else {
			fail_msg("unknown function in %s: %s", vectors_path, col[0]);
		}
		if (got != want)
			fail_msg("%s word %u (%s,%s,%s,%s): 0x%" PRIx64 ", the kernel 0x%" PRIx64,
				 col[0], word, col[2], col[3], col[4], col[5], got, want);
		n++;
	}
	fclose(f);
	/* the whole file: 40 of each, hsiphash on both words */
	assert_int_equal(n, 320);
	assert_int_equal(per[0], 40);
	assert_int_equal(per[3], 40);
	assert_int_equal(per[4], 80);
	assert_int_equal(per[5], 80);
}

/*
 * siphash and hsiphash over bytes (advise's candidates over names): the
 * paper's SipHash-2-4 values, the kernel's self-test values where bytes and
 * words meet (4 and 8 bytes are hsiphash_1u32 and _2u32), then every row
 * of tests/golden/siphash_bytes.csv, from the independent Python model
 * golden/gen_siphash_bytes.py: lengths 0 .. 32, 63 .. 65 and 255 cross
 * every tail length of both word sizes and the length byte's wrap.
 */
static void siphash_over_bytes_gives_the_paper_values(void **state)
{
	unsigned char m[16];
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(m); i++)
		m[i] = (unsigned char)i;
	/* the paper's appendix: 15 bytes under key 00 .. 0f */
	assert_int_equal(kb_siphash(m, 15, &test_key), UINT64_C(0xa129ca6149be45e5));
	assert_int_equal(kb_siphash(m, 0, &test_key), UINT64_C(0x726fdb47dd0e0e31));
	assert_int_equal(kb_siphash(m, 8, &test_key), kb_siphash_1u64(UINT64_C(0x0706050403020100), &test_key));
}

static void every_byte_vector_of_the_python_model(void **state)
{
	const struct kb_hsiphash_key k32 = { { 0x03020100u, 0x07060504u } };
	const struct kb_hsiphash_key k64 = { { test_key.k[0], test_key.k[1] } };
	unsigned char m[256];
	char line[256], func[16], word[8];
	unsigned n = 0, len, i;
	FILE *f = fopen(bytes_path, "r");

	(void)state;
	for (i = 0; i < sizeof(m); i++)
		m[i] = (unsigned char)i;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long want, got;

		if (line[0] == '#' || !strncmp(line, "func,", 5))
			continue;
		if (sscanf(line, "%15[^,],%7[^,],%u,%llx", func, word, &len, &want) != 4 ||
		    len > sizeof(m))
			fail_msg("%s: bad line %s", bytes_path, line);
		if (!strcmp(func, "siphash"))
			got = kb_siphash(m, len, &test_key);
		else
			got = kb_hsiphash(m, len, strcmp(word, "32") ? &k64 : &k32,
					  (unsigned)atoi(word));
		if (got != want)
			fail_msg("%s word %s of %u bytes: %#llx, the model %#llx", func, word, len,
				 got, want);
		n++;
	}
	fclose(f);
	/* 37 lengths, siphash and hsiphash on both words */
	assert_int_equal(n, 3 * 37);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(siphash_1u64_gives_the_kernel_self_test_value),
		cmocka_unit_test(hsiphash_gives_the_kernel_self_test_values_on_both_words),
		cmocka_unit_test(a_32_bit_hsiphash_key_is_the_low_half_of_each_word),
		cmocka_unit_test(every_vector_the_kernel_source_computed),
		cmocka_unit_test(jhash2_is_lookup3_hashword),
		cmocka_unit_test(siphash_over_bytes_gives_the_paper_values),
		cmocka_unit_test(every_byte_vector_of_the_python_model),
	};

	if (argc != 3) {
		fprintf(stderr, "usage: %s KERNEL_HASHES.csv SIPHASH_BYTES.csv\n", argv[0]);
		return 2;
	}
	vectors_path = argv[1];
	bytes_path = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
