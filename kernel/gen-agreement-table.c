// SPDX-License-Identifier: GPL-2.0
/*
 * Print the agreement tables of lib/test_hash.c (patch 0002 of the
 * series in this folder): for every function of <linux/hash.h>, rows of
 * (key, bits, expected hash) computed by libkhash for a 64-bit kernel and
 * for a 32-bit one.  The KUnit cases check that a booted kernel computes
 * the same values.  kernel/check-agreement-table.py compares this output
 * with what the committed patch holds.
 *
 * With the argument "strings" it prints instead the string tables of
 * patch 0004: fixed names, salts and bits, and what libkhash's `new`
 * string generation expects full_name_hash(), hashlen_string(), the
 * init/partial/end_name_hash() byte loop, hash_str() and hash_mem() to
 * return on each word size and path (word at a time with little- or
 * big-endian loads, or a byte at a time without DCACHE_WORD_ACCESS).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh.h>
#include <khash/lkh_string.h>

/* Keys worth seeing in the table, then pseudo-random ones. */
static const uint64_t fixed_keys64[] = {
	0x0000000012345678ull,	/* hash_64 differs per word size here */
	0x0000000000000000ull,
	0x0000000000000001ull,
	0xffffffffffffffffull,
	0x00000000ffffffffull,
	0x8000000000000000ull,
	0xffff888000000000ull,	/* x86-64 direct map */
	0xffff888000001000ull,
	0xffff888000200000ull,
	0xffffea0000000040ull,	/* second struct page in vmemmap */
	0x0000000221520000ull,	/* btrfs full stripe */
	0x61c8864680b583ebull,
	0x9e37fffffffc0001ull,
};

static const uint64_t fixed_keys32[] = {
	0x12345678,
	0x00000000,
	0x00000001,
	0xffffffff,
	0x80000000,
	0xc0000000,	/* i386 PAGE_OFFSET */
	0xc0001000,
	0xc0200000,
	0xc2000020,	/* second struct page in lowmem */
	0x21520000,
	0x61c88647,
	0x9e370001,
};

/* Every row uses the next of these, in turn. */
static const unsigned int bits_cycle[] = {
	32, 1, 6, 8, 10, 11, 12, 16, 20, 24, 31, 2, 7, 14,
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define NROWS 24

/* Key i of a table: the fixed ones, then xorshift64 from a fixed seed. */
static uint64_t key_at(unsigned int i, int keys32, uint64_t *state)
{
	uint64_t x = *state;

	if (keys32 && i < ARRAY_LEN(fixed_keys32))
		return fixed_keys32[i];
	if (!keys32 && i < ARRAY_LEN(fixed_keys64))
		return fixed_keys64[i];
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return keys32 ? (uint32_t)x : x;
}

enum fn {
	HASH_32, HASH_32_RAW,
	HASH_64_W64, HASH_LONG_W64, HASH_PTR_W64, HASH32_PTR_W64,
	HASH_64_W32, HASH_LONG_W32, HASH_PTR_W32, HASH32_PTR_W32,
};

static uint32_t compute(enum fn fn, uint64_t key, unsigned int bits)
{
	uint32_t k32 = (uint32_t)key;

	switch (fn) {
	case HASH_32:		return lkh_new_hash32(k32, bits);
	case HASH_32_RAW:	return lkh_new_hash32_raw(k32);
	case HASH_64_W64:	return lkh_new_hash64_w64(key, bits);
	case HASH_LONG_W64:	return lkh_new_hashlong_w64(key, bits);
	case HASH_PTR_W64:	return lkh_new_hashptr_w64(key, bits);
	case HASH32_PTR_W64:	return lkh_new_hash32ptr_w64(key);
	case HASH_64_W32:	return lkh_new_hash64_w32(key, bits);
	case HASH_LONG_W32:	return lkh_new_hashlong_w32(k32, bits);
	case HASH_PTR_W32:	return lkh_new_hashptr_w32(k32, bits);
	case HASH32_PTR_W32:	return lkh_new_hash32ptr_w32(k32);
	}
	return 0;
}

/*
 * keys32: the function takes a 32-bit value, so print the low half only.
 * nobits: the function has no bits argument; print 0.
 */
static void table(const char *name, enum fn fn, int keys32, int nobits)
{
	uint64_t state = 0x2545f4914f6cdd1dull;
	unsigned int i;

	printf("static const struct hash_agree_row %s[] = {\n", name);
	for (i = 0; i < NROWS; i++) {
		uint64_t key = key_at(i, keys32, &state);
		unsigned int bits = nobits ? 0 : bits_cycle[i % ARRAY_LEN(bits_cycle)];

		printf("\t{ 0x%016" PRIx64 "ull, %2u, 0x%08" PRIx32 " },\n",
		       key, bits, compute(fn, key, bits));
	}
	printf("};\n");
}

/*
 * The names: every length from 0 to 17 (every tail length and both word
 * boundaries of a 64-bit kernel, four words of a 32-bit one), then 23-25
 * and 31-33 around the next ones.  Some hold a '/' (hash_name() would
 * stop there; these functions do not), some bytes >= 0x80 (UTF-8 and
 * edges), one pair at a word's last and next byte, followed by hex
 * digits (which the literal must escape too).
 */
static const char *const string_names[] = {
	"", ".", "..", "lib", "\xff\x80\x7f\x01", "caf\xc3\xa9", "a/b.c/",
	"vmlinuz", "Makefile", "README.md", "\xe6\x96\x87\xe4\xbb\xb6.txt",
	"net/sunrpc/", "test_hash.ko", "1234567\x80\xff\x61\x62/c", "file000001.txt",
	"libkhash.so.1.0", "0123456789abcdef", "include/linux/\xc3\xa9h",
	"usr/share/doc/libc6/cha", "usr/share/doc/libc6/chan",
	"usr/share/doc/libc6/chang",
	"\xc3\xa9t\xc3\xa9/\xc3\xa9t\xc3\xa9/0123456789abcdefghi",
	"abcdefghijklmnopqrstuvwxyz/01234", "abcdefghijklmnopqrstuvwxyz/012345",
};

/* Row i uses salt i % 3: NULL, then values a dentry pointer could have. */
static const uint64_t string_salts64[] = {
	0, 0xffff888003a1c2c0ull, 0xffff8880ffe00040ull,
};
static const uint64_t string_salts32[] = { 0, 0xc1a2b3c0, 0xf7ffe040 };

/*
 * A string literal of @s, hex escapes for bytes outside printable ASCII.
 * A hex digit right after \xNN would extend that escape, so it is escaped
 * too (checkpatch objects to splitting the literal instead).
 */
static void print_literal(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int escaped = 0;

	putchar('"');
	for (; *p; p++) {
		escaped = *p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\' ||
			  (escaped && strchr("0123456789abcdefABCDEF", *p));
		if (escaped)
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static uint32_t string_hash(lkh_sfunc fn, unsigned int word, lkh_spath path,
			    uint64_t salt, const char *name, unsigned int bits)
{
	uint64_t out;
	int st = lkh_string_hash(fn, LKH_SGEN_NEW, word, path, salt, name,
				 strlen(name), bits, &out);

	if (st != LKH_OK) {
		fprintf(stderr, "gen-agreement-table: %s of \"%s\": %s\n",
			lkh_sfunc_name(fn), name, lkh_strerror(st));
		exit(1);
	}
	/* hashlen_string(): the hash half; its length is strlen() */
	return (uint32_t)out;
}

static void string_keys(unsigned int word)
{
	const uint64_t *salts = word == 64 ? string_salts64 : string_salts32;
	unsigned int i;

	printf("static const struct string_agree_key string_agree_keys[] = {\n");
	for (i = 0; i < ARRAY_LEN(string_names); i++) {
		printf("\t{ ");
		print_literal(string_names[i]);
		printf(", 0x%" PRIx64 "ul, %u },\n", salts[i % 3],
		       bits_cycle[i % ARRAY_LEN(bits_cycle)]);
	}
	printf("};\n");
}

static void string_rows(unsigned int word, lkh_spath path)
{
	const uint64_t *salts = word == 64 ? string_salts64 : string_salts32;
	unsigned int i;

	printf("static const struct string_agree_row string_agree[] = {\n");
	for (i = 0; i < ARRAY_LEN(string_names); i++) {
		const char *n = string_names[i];
		uint64_t salt = salts[i % 3];
		unsigned int bits = bits_cycle[i % ARRAY_LEN(bits_cycle)];

		printf("\t{ 0x%08" PRIx32 ", 0x%08" PRIx32 ", 0x%08" PRIx32
		       ", 0x%08" PRIx32 ", 0x%08" PRIx32 " },\n",
		       string_hash(LKH_SFUNC_FULL_NAME_HASH, word, path, salt, n, 0),
		       string_hash(LKH_SFUNC_HASHLEN_STRING, word, path, salt, n, 0),
		       string_hash(LKH_SFUNC_FULL_NAME_HASH, word, LKH_SPATH_BYTE,
				   salt, n, 0),
		       string_hash(LKH_SFUNC_HASH_STR, word, path, 0, n, bits),
		       string_hash(LKH_SFUNC_HASH_MEM, word, path, 0, n, bits));
	}
	printf("};\n");
}

/* The string tables of one word size: keys, then one table per path. */
static void string_word(unsigned int word)
{
	string_keys(word);
	printf("\n#if !defined(CONFIG_DCACHE_WORD_ACCESS)\n");
	string_rows(word, LKH_SPATH_BYTE);
	printf("#elif defined(__BIG_ENDIAN)\n");
	string_rows(word, LKH_SPATH_BE);
	printf("#else\n");
	string_rows(word, LKH_SPATH_LE);
	printf("#endif\n");
}

static int strings(void)
{
	printf("/* Generated by libkhash kernel/gen-agreement-table.c strings; do not edit. */\n");
	printf("#if BITS_PER_LONG == 64\n");
	string_word(64);
	printf("#else\n");
	string_word(32);
	printf("#endif\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "strings"))
		return strings();
	if (argc != 1) {
		fprintf(stderr, "usage: gen-agreement-table [strings]\n");
		return 2;
	}
	printf("/* Generated by libkhash kernel/gen-agreement-table.c; do not edit. */\n");
	table("hash_agree_32", HASH_32, 1, 0);
	printf("\n");
	table("hash_agree_32_raw", HASH_32_RAW, 1, 1);
	printf("\n#if BITS_PER_LONG == 64\n");
	table("hash_agree_64", HASH_64_W64, 0, 0);
	printf("\n");
	table("hash_agree_long", HASH_LONG_W64, 0, 0);
	printf("\n");
	table("hash_agree_ptr", HASH_PTR_W64, 0, 0);
	printf("\n");
	table("hash_agree_32_ptr", HASH32_PTR_W64, 0, 1);
	printf("#else\n");
	table("hash_agree_64", HASH_64_W32, 0, 0);
	printf("\n");
	table("hash_agree_long", HASH_LONG_W32, 1, 0);
	printf("\n");
	table("hash_agree_ptr", HASH_PTR_W32, 1, 0);
	printf("\n");
	table("hash_agree_32_ptr", HASH32_PTR_W32, 1, 1);
	printf("#endif\n");
	return 0;
}
