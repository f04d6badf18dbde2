/* SPDX-License-Identifier: MIT */
/*
 * The fast counting engine (threads, sub-histograms, partitioning) gives
 * exactly the counts of the plain one-key-at-a-time loop, for table sizes
 * on every path and for several thread counts, and folding a table halves
 * it exactly as counting with one bit fewer would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "keysets.h"
#include "engine.h"
#include "floorsum.h"
#include "plain_loop.h"
#include "progress.h"

static uint64_t *plain_counts(const struct kb_hashspec *s, unsigned bits,
			      int keyset, const struct kb_keyset_params *p)
{
	struct kb_keystream ks;
	uint64_t keys[700], *counts = calloc((size_t)1 << bits, sizeof(uint64_t));
	char err[256];
	size_t n;

	assert_non_null(counts);
	assert_int_equal(kb_keystream_open(&ks, keyset, p, err, sizeof(err)), 0);
	while ((n = kb_keystream_next(&ks, keys, 700)) > 0)
		kb_count_block(s, bits, keys, n, counts);
	kb_keystream_close(&ks);
	return counts;
}

/*
 * Every path, forced, at table sizes around each one's edges, on an array
 * key set and a progression, on one thread and on an odd split: the
 * counts are the plain loop's.  The first cell is broken on these keys
 * (old hash_64 on a 32-bit kernel puts page addresses in 2 buckets), so
 * the 8- and 16-bit counters wrap thousands of times; the progress adds up
 * to every hash done, re-hashing of the ranges included.
 */
static void engine_matches_plain_loop(void **state)
{
	static const unsigned bits_list[] = { 1, 2, 12, 17, 21 };
	static const int sets[] = { KB_KS_RANDOM, KB_KS_PAGE4K };
	static const unsigned threads_list[] = { 1, 3 };
	struct kb_hashspec specs[2] = { { LKH_FUNC_HASH_64, LKH_GEN_OLD, 32, 0, 0, 0 },
					{ LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64, 0, 0, 0 } };
	struct kb_keyset_params p;
	size_t b, k, t, j, path;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.count = 2200001; /* three threads' worth, odd split */
	p.seed = 7;
	p.word = 64;
	p.input_bits = 64;
	for (b = 0; b < sizeof(bits_list) / sizeof(*bits_list); b++)
		for (k = 0; k < sizeof(sets) / sizeof(*sets); k++) {
			unsigned bits = bits_list[b];
			size_t m = (size_t)1 << bits;
			uint64_t *plain[2];

			for (j = 0; j < 2; j++)
				plain[j] = plain_counts(&specs[j], bits, sets[k], &p);
			for (path = 0; path < KB_PATH_COUNT_; path++)
				/* floor sums cost per bucket: small tables suffice */
				for (t = 0; (path != KB_PATH_FLOORSUM || bits <= 12) &&
					    t < sizeof(threads_list) / sizeof(*threads_list); t++) {
					struct kb_progress progress = { 0, 0 };
					struct kb_engine_opts o = {
						.threads = threads_list[t],
						.path = (enum kb_engine_path)path,
						.progress = &progress };
					uint64_t *fast = calloc(2 * m, sizeof(uint64_t));
					struct kb_keystream ks;
					char err[256];
					int rc;

					/* several ranges a thread (more than one pass)
					 * where the table is small, two past it */
					if (path == KB_PATH_RANGES && bits >= 2)
						o.ranges = bits >= 4 && bits <= 12 ? 8 : 2;
					assert_non_null(fast);
					assert_int_equal(kb_keystream_open(&ks, sets[k], &p,
									   err, sizeof(err)),
							 0);
					rc = kb_count_parallel(specs, 2, bits, &ks, &o, fast,
							       err, sizeof(err));
					kb_keystream_close(&ks);
					if (path == KB_PATH_FLOORSUM &&
					    (sets[k] != KB_KS_PAGE4K ||
					     !kb_progression_countable(&specs[0]))) {
						/* random keys are no progression: refused */
						assert_int_equal(rc, -1);
						assert_non_null(strstr(err, "arithmetic"));
						free(fast);
						continue;
					}
					if (rc != 0)
						fail_msg("%s", err);
					for (j = 0; j < 2; j++)
						if (memcmp(fast + j * m, plain[j],
							   m * sizeof(uint64_t)))
							fail_msg("%s, 2^%u buckets, %u threads, key set %d, cell %zu: counts differ",
								 kb_engine_path_name((enum kb_engine_path)path),
								 bits, threads_list[t], sets[k], j);
					/* the progress: 2 cells' hashes a pass, one pass
					 * a range (the caller expected none of them) */
					assert_true(progress.done % (2 * p.count) == 0);
					assert_true(progress.total == progress.done - 2 * p.count);
					if (path == KB_PATH_RANGES)
						assert_true(progress.done / (2 * p.count) ==
							    (bits >= 4 && bits <= 12 ? 8 : bits >= 2 ? 2 : 1));
					else if (path != KB_PATH_AUTO)
						assert_true(progress.done == 2 * p.count);
					free(fast);
				}
			for (j = 0; j < 2; j++)
				free(plain[j]);
		}
}

/*
 * The engine's arithmetic (a product and a shift, per lkh_table.h's product
 * column) is each cell's own function: the checked entry point, which calls
 * the named function and is pinned by the golden vectors, gives the same
 * bucket for every key, every cell and a spread of table sizes.  A cell
 * pointed at the wrong product (another generation's, the other word's)
 * fails here whatever the key set.
 */
static void engine_words_are_each_cells_function(void **state)
{
	static const uint64_t fixed[] = { 0, 1, 0x12345678, 0xffffffff,
					  UINT64_C(0xffff888000001000),
					  UINT64_C(0xffffea0000000040),
					  UINT64_C(0x100000000),
					  ~UINT64_C(0) };
	uint64_t keys[64], words[64], x = 0x9e3779b97f4a7c15u;
	unsigned f, g, w, i;

	(void)state;
	for (f = 0; f < LKH_FUNC_COUNT; f++)
		for (g = 0; g < LKH_GEN_COUNT; g++)
			for (w = 32; w <= 64; w += 32) {
				struct kb_hashspec s = { (lkh_func)f, (lkh_gen)g, w, 0, 0, 0 };
				unsigned max = lkh_bits_max(s.func, s.gen, w), bits;
				unsigned in = lkh_input_bits(s.func, w);

				if (max == 0)
					continue; /* no bucket index */
				for (i = 0; i < 64; i++) {
					x = x * 6364136223846793005u + 1442695040888963407u;
					keys[i] = i < 8 ? fixed[i] : x ^ (x >> 29);
					if (in == 32)
						keys[i] &= 0xffffffffu;
				}
				kb_full_words(&s, keys, 64, words);
				for (bits = 1; bits <= (max < 32 ? max : 32); bits += 5) {
					for (i = 0; i < 64; i++) {
						uint64_t want = 0;

						assert_int_equal(lkh_hash(s.func, s.gen, w, keys[i],
									  bits, &want),
								 LKH_OK);
						if ((words[i] >> (64 - bits)) != want)
							fail_msg("%s %s w%u bits %u key %#llx: engine %#llx, lkh_hash %#llx",
								 lkh_gen_name(s.gen), lkh_func_name(s.func), w,
								 bits, (unsigned long long)keys[i],
								 (unsigned long long)(words[i] >> (64 - bits)),
								 (unsigned long long)want);
					}
				}
			}
}

/* The threaded engine's histogram equals one made key by key through the
 * checked entry point, for a cell of each product width. */
static void engine_counts_what_lkh_hash_says(void **state)
{
	static const struct kb_hashspec cells[] = {
		{ LKH_FUNC_HASH_32, LKH_GEN_OLD, 64, 0, 0, 0 },
		{ LKH_FUNC_HASH_64, LKH_GEN_POSTED, 32, 0, 0, 0 },
		{ LKH_FUNC_HASH_PTR, LKH_GEN_NEW, 64, 0, 0, 0 },
		{ LKH_FUNC_HASH_LONG, LKH_GEN_OLD, 32, 0, 0, 0 },
	};
	const unsigned bits = 9;
	const struct kb_engine_opts two = { .threads = 2, .path = KB_PATH_AUTO };
	struct kb_keyset_params p;
	size_t c;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.count = 50000;
	p.seed = 11;
	for (c = 0; c < sizeof(cells) / sizeof(cells[0]); c++) {
		uint64_t fast[512] = { 0 }, slow[512] = { 0 }, keys[1000];
		struct kb_keystream ks;
		char err[256];
		size_t n, i;

		p.word = cells[c].word;
		p.input_bits = lkh_input_bits(cells[c].func, cells[c].word);
		assert_int_equal(kb_keystream_open(&ks, KB_KS_RANDOM, &p, err, sizeof(err)), 0);
		assert_int_equal(kb_count_parallel(&cells[c], 1, bits, &ks, &two, fast,
						   err, sizeof(err)), 0);
		kb_keystream_close(&ks);
		assert_int_equal(kb_keystream_open(&ks, KB_KS_RANDOM, &p, err, sizeof(err)), 0);
		while ((n = kb_keystream_next(&ks, keys, 1000)) > 0)
			for (i = 0; i < n; i++) {
				uint64_t h;

				assert_int_equal(lkh_hash(cells[c].func, cells[c].gen,
							  cells[c].word, keys[i], bits, &h),
						 LKH_OK);
				slow[h]++;
			}
		kb_keystream_close(&ks);
		assert_memory_equal(fast, slow, sizeof(fast));
	}
}

/*
 * Floor sums against enumeration, key by key through the checked entry
 * point: every cell whose word is one multiply, progressions that start
 * anywhere and step by anything (odd, even, page-sized, wrapping past
 * 2^64 many times), tables from 1 bucket pair to 2^10.  Where this
 * compiler has no 128-bit integers, such cells are not countable and the
 * path refuses.
 */
static void floor_sums_count_what_enumeration_counts(void **state)
{
	static const uint64_t strides[] = { 1, 4096, 0x9e3779b97f4a7c15u, 3u << 20,
					    UINT64_C(1) << 63, 0xffffffffffffffffu };
	uint64_t x = 12345;
	unsigned f, g, w, si;

	(void)state;
	for (f = 0; f < LKH_FUNC_COUNT; f++)
		for (g = 0; g < LKH_GEN_COUNT; g++)
			for (w = 32; w <= 64; w += 32)
				for (si = 0; si < sizeof(strides) / sizeof(*strides); si++) {
					struct kb_hashspec s = { (lkh_func)f, (lkh_gen)g, w, 0, 0, 0 };
					unsigned in = lkh_input_bits(s.func, w), bits;
					uint64_t first, stride = strides[si], n = 3001 + si * 777, i;
					uint64_t fast[1024], slow[1024];

					if (!lkh_bits_max(s.func, s.gen, w) || !kb_progression_countable(&s))
						continue;
					x = x * 6364136223846793005u + 1442695040888963407u;
					for (bits = 1; bits <= 10; bits += 3) {
						/* odd rounds start at the key whose word is the
						 * last of bucket 0: a bound off by one moves it */
						lkh_product pr = lkh_cell_product(s.func, s.gen, w);
						unsigned pw = lkh_product_width(pr);
						uint64_t K = 0, last;

						lkh_product_arith(pr, &K);
						last = (UINT64_C(1) << (pw - bits)) - 1;
						first = si % 2 ? last * kb_inverse_mod_2_64(K) : x;
						if (pw == 32)
							first &= 0xffffffffu;
						memset(fast, 0, sizeof(fast));
						memset(slow, 0, sizeof(slow));
						assert_int_equal(kb_count_progression(&s, bits, first, stride, n, 0,
										      UINT64_C(1) << bits, fast),
								 0);
						for (i = 0; i < n; i++) {
							uint64_t key = first + i * stride, h;

							if (in == 32)
								key &= 0xffffffffu;
							assert_int_equal(lkh_hash(s.func, s.gen, w, key, bits, &h),
									 LKH_OK);
							slow[h]++;
						}
						if (memcmp(fast, slow, sizeof(uint64_t) << bits))
							fail_msg("%s %s w%u bits %u stride %#llx: floor sums differ",
								 lkh_gen_name(s.gen), lkh_func_name(s.func), w, bits,
								 (unsigned long long)stride);
					}
				}
}

static void folding_equals_counting_with_fewer_bits(void **state)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_64, LKH_GEN_POSTED, 32, 0, 0, 0 };
	struct kb_keyset_params p;
	uint64_t *big, *small;
	unsigned bits;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.count = 100000;
	p.seed = 3;
	p.word = 32;
	p.input_bits = 64;
	big = plain_counts(&s, 14, KB_KS_RANDOM, &p);
	for (bits = 14; bits > 1; bits--) {
		kb_fold(big, bits);
		small = plain_counts(&s, bits - 1, KB_KS_RANDOM, &p);
		assert_memory_equal(big, small, sizeof(uint64_t) << (bits - 1));
		free(small);
	}
	free(big);
}

/*
 * Generation K is hash.h's one multiply with K in place of its constant:
 * given the kernel's own multipliers it computes the library's cells bit
 * for bit (new and old hash_32, hash_64 and hash_ptr on a 64-bit kernel),
 * and a few values of other multipliers, worked out in Python.
 */
static void generation_k_is_hash_h_with_k_in_place_of_its_constant(void **state)
{
	static const struct {
		lkh_func func;
		lkh_gen gen;
		unsigned word;
		uint64_t k;
		unsigned width;
	} same[] = {
		{ LKH_FUNC_HASH_32, LKH_GEN_NEW, 64, 0x61C88647u, 32 },
		{ LKH_FUNC_HASH_32, LKH_GEN_OLD, 32, 0x9e370001u, 32 },
		{ LKH_FUNC_HASH_64, LKH_GEN_NEW, 64, 0x61C8864680B583EBu, 64 },
		{ LKH_FUNC_HASH_64, LKH_GEN_OLD, 64, 0x9e37fffffffc0001u, 64 },
		{ LKH_FUNC_HASH_PTR, LKH_GEN_MINIMAL, 64, 0x61C8864680B583EBu, 64 },
		{ LKH_FUNC_HASH_LONG, LKH_GEN_NEW, 32, 0x61C88647u, 32 },
	};
	/* key, K, width, bits, (key * K mod 2^width) >> (width - bits) */
	static const uint64_t python[][5] = {
		{ 0xdeadbeefu, 0x12345679u, 32, 10, 0xd3 },
		{ 0xffff888012345678u, 0x5851f42d4c957f2du, 64, 13, 0x1dc5 },
		{ 0xffff888012345678u, 0x12345679u, 64, 13, 0x125d },
	};
	uint64_t keys[256], words[256], x = 77;
	unsigned c, i, bits;

	(void)state;
	for (c = 0; c < sizeof(same) / sizeof(same[0]); c++) {
		struct kb_hashspec s = { same[c].func, LKH_GEN_OLD, same[c].word, 0, 0, 0 };
		unsigned in = lkh_input_bits(s.func, s.word);

		kb_hashspec_set_gen(&s, KB_GEN_K, same[c].k, same[c].width);
		assert_int_equal(kb_hashspec_gen(&s), KB_GEN_K);
		assert_string_equal(kb_gen_name(kb_hashspec_gen(&s)), "K");
		for (i = 0; i < 256; i++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			keys[i] = in == 32 ? x >> 32 : x;
		}
		kb_full_words(&s, keys, 256, words);
		for (bits = 1; bits <= 32; bits += 7) {
			assert_int_equal(kb_hashspec_check(&s, bits, NULL, 0), 0);
			for (i = 0; i < 256; i++) {
				uint64_t want = 0;

				assert_int_equal(lkh_hash(same[c].func, same[c].gen, same[c].word,
							  keys[i], bits, &want),
						 LKH_OK);
				assert_int_equal(words[i] >> (64 - bits), want);
			}
		}
	}
	for (c = 0; c < sizeof(python) / sizeof(python[0]); c++) {
		struct kb_hashspec s = { python[c][2] == 32 ? LKH_FUNC_HASH_32 : LKH_FUNC_HASH_PTR,
					 LKH_GEN_NEW, 64, 0, 0, 0 };
		uint64_t k = python[c][1], w;

		kb_hashspec_set_gen(&s, KB_GEN_K, k, (unsigned)python[c][2]);
		kb_full_words(&s, &python[c][0], 1, &w);
		assert_int_equal(w >> (64 - python[c][3]), python[c][4]);
		/* one multiply: the floor sums count it, and see K */
		assert_int_equal(kb_hashspec_single_multiply(&s, &w), python[c][2]);
		assert_int_equal(w, k);
#ifdef __SIZEOF_INT128__
		{
			uint64_t fast[1024] = { 0 }, slow[1024] = { 0 }, key[1];

			assert_int_equal(kb_count_progression(&s, 10, python[c][0], 4096, 5000,
							      0, 1024, fast),
					 0);
			for (i = 0; i < 5000; i++) {
				key[0] = python[c][0] + (uint64_t)i * 4096;
				if (python[c][2] == 32)
					key[0] &= 0xffffffffu;
				kb_count_block(&s, 10, key, 1, slow);
			}
			assert_memory_equal(fast, slow, sizeof(fast));
		}
#endif
	}
}

/* K must be odd, fit its width, and a 32-bit one must not drop a 64-bit
 * argument's high half; bits run to the product's width. */
static void generation_k_refuses_what_cannot_hash(void **state)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_32, LKH_GEN_NEW, 64, 0, 0, 0 };
	char err[256];

	(void)state;
	kb_hashspec_set_gen(&s, KB_GEN_K, 0x61C88646u, 32);
	assert_int_equal(kb_hashspec_check(&s, 10, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is even"));
	kb_hashspec_set_gen(&s, KB_GEN_K, UINT64_C(0x161C88647), 32);
	assert_int_equal(kb_hashspec_check(&s, 10, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "does not fit 32 bits"));
	s.func = LKH_FUNC_HASH_PTR;
	kb_hashspec_set_gen(&s, KB_GEN_K, 0x61C88647u, 32);
	assert_int_equal(kb_hashspec_check(&s, 10, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--width 64"));
	s.word = 32; /* a 32-bit kernel's pointers fit */
	assert_int_equal(kb_hashspec_check(&s, 32, err, sizeof(err)), 0);
	assert_int_equal(kb_hashspec_check(&s, 33, err, sizeof(err)), -1);
	kb_hashspec_set_gen(&s, KB_GEN_K, 0x61C88647u, 64);
	assert_int_equal(kb_hashspec_check(&s, 33, err, sizeof(err)), 0);
	/* the width a bare --multiplier takes */
	assert_int_equal(kb_multiplier_width(0x61C88647u, 32), 32);
	assert_int_equal(kb_multiplier_width(0x61C88647u, 64), 64);
	assert_int_equal(kb_multiplier_width(UINT64_C(0x100000001), 32), 64);
	/* names both ways; hash.h's generations clear K */
	{
		int g = -1;

		assert_int_equal(kb_gen_from_name("K", &g), 0);
		assert_int_equal(g, KB_GEN_K);
		assert_int_equal(kb_gen_from_name("posted", &g), 0);
		assert_int_equal(g, LKH_GEN_POSTED);
		assert_int_equal(kb_gen_from_name("k", &g), -1);
		kb_hashspec_set_gen(&s, LKH_GEN_OLD, 99, 64);
		assert_int_equal(s.k_width, 0);
		assert_int_equal(kb_hashspec_gen(&s), LKH_GEN_OLD);
	}
}

/* The plan for `count` keys of a key set through new hash_64 (64-bit). */
static int plan_for(int keyset, uint64_t count, unsigned bits, const struct kb_engine_opts *o,
		    struct kb_engine_plan *plan)
{
	struct kb_hashspec s = { LKH_FUNC_HASH_64, LKH_GEN_NEW, 64, 0, 0, 0 };
	struct kb_keyset_params p;
	struct kb_keystream ks;
	char err[256];
	int rc;

	memset(&p, 0, sizeof(p));
	p.count = count;
	p.seed = 1;
	p.word = 64;
	p.input_bits = 64;
	assert_int_equal(kb_keystream_open(&ks, keyset, &p, err, sizeof(err)), 0);
	rc = kb_engine_plan(&s, 1, bits, &ks, o, plan, err, sizeof(err));
	kb_keystream_close(&ks);
	return rc;
}

/* kb_engine_price of a work given in place. */
static double price(unsigned path, unsigned threads, unsigned ranges, size_t nspecs,
		    unsigned bits, uint64_t keys, int progression)
{
	const struct kb_engine_work w = { keys, nspecs, bits, progression };

	return kb_engine_price((enum kb_engine_path)path, threads, ranges, &w);
}

/* Every path at every threads (1..2) and ranges: none priced below the plan. */
static void assert_cheapest(int keyset, uint64_t count, unsigned bits,
			    const struct kb_engine_opts *o)
{
	struct kb_engine_plan plan;
	unsigned path, t, r;

	assert_int_equal(plan_for(keyset, count, bits, o, &plan), 0);
	assert_true(plan.threads >= 1 && plan.threads <= 2);
	/* the same price (to rounding: i686's x87 keeps 80 bits in registers) */
	assert_float_equal(price(plan.path, plan.threads, plan.ranges, 1, bits, count,
				 keyset == KB_KS_PAGE4K),
			   plan.seconds, plan.seconds * 1e-12);
	for (path = KB_PATH_LANES; path < KB_PATH_FLOORSUM; path++)
		for (t = 1; t <= 2; t++)
			for (r = 0; r <= (1u << bits) / 2; r = r ? r * 2 : 1)
				assert_true(price(path, t, r, 1, bits, count,
						  keyset == KB_KS_PAGE4K) >= plan.seconds * (1 - 1e-12));
}

/*
 * The one policy kb_count_parallel and speed follow: AUTO takes the path,
 * threads and ranges the price model (engine_plan.h) puts lowest.  With
 * the caches pinned (32 KiB, 512 KiB, 32 MiB), each choice below follows
 * from the model's figures by hand, as its comment says.
 */
static void one_plan_for_every_count(void **state)
{
	const struct kb_engine_opts two = { .threads = 2, .path = KB_PATH_AUTO };
	const struct kb_engine_opts two_enum = { .threads = 2, .path = KB_PATH_AUTO, .enumerate = 1 };
	const struct kb_engine_opts forced = { .threads = 2, .path = KB_PATH_PRIVATE, .enumerate = 1 };
	const struct kb_engine_opts forced_any = { .path = KB_PATH_PRIVATE, .enumerate = 1 };
	const struct kb_engine_opts floorsum = { .threads = 2, .path = KB_PATH_FLOORSUM };
	const struct kb_engine_opts ranges3 = { .threads = 2, .path = KB_PATH_RANGES, .ranges = 3, .enumerate = 1 };
	const struct kb_engine_opts ranges2_of_3 = { .threads = 3, .path = KB_PATH_RANGES,
						     .ranges = 2, .enumerate = 1 };
	const struct kb_engine_opts ranges_64_threads = { .threads = 64, .path = KB_PATH_RANGES,
							  .enumerate = 1 };
	const struct kb_hashspec new64 = { LKH_FUNC_HASH_64, LKH_GEN_NEW, 64, 0, 0, 0 };
	const uint64_t caches[3] = { 32 << 10, 512 << 10, 32 << 20 }, none[3] = { 0 };
	struct kb_engine_plan plan;

	(void)state;
	kb_set_cache_bytes(caches);
	/* fewer keys than buckets: the plain loop, 1000 x 0.55 ns against
	 * clearing 4096 private counters */
	assert_int_equal(plan_for(KB_KS_RANDOM, 1000, 12, &two, &plan), 0);
	assert_int_equal(plan.path, KB_PATH_DIRECT);
	assert_int_equal(plan.threads, 1);
	/* little work: a second thread's start costs more than it saves;
	 * lanes (4 KiB, in L1) beat the plain loop by 0.1 ns a key, which
	 * pays for clearing 256 x 1.6 ns once there are 4096 keys */
	assert_int_equal(plan_for(KB_KS_RANDOM, 1 << 16, 8, &two, &plan), 0);
	assert_int_equal(plan.path, KB_PATH_LANES);
	assert_int_equal(plan.threads, 1);
	assert_int_equal(plan_for(KB_KS_RANDOM, 2048, 8, &two, &plan), 0);
	assert_int_equal(plan.path, KB_PATH_DIRECT);
	/* much work: both threads; lanes while they fit L1, then the 8-bit
	 * tables (64 KiB in L2 against 1 MiB of lanes past it) */
	assert_int_equal(plan_for(KB_KS_RANDOM, UINT64_C(1) << 24, 8, &two, &plan), 0);
	assert_int_equal(plan.path, KB_PATH_LANES);
	assert_int_equal(plan.threads, 2);
	assert_int_equal(plan_for(KB_KS_RANDOM, UINT64_C(1) << 24, 16, &two, &plan), 0);
	assert_int_equal(plan.path, KB_PATH_PRIVATE);
	assert_int_equal(plan.threads, 2);
	/* two 16 MiB tables spill past half the 32 MiB cache, 10.1 ns a key
	 * made and counted; two ranges of 8 MiB fit it: 1.5 + 1.1 ns a key
	 * made and selected, half of them counted at 0.3 + 3.3 ns */
	assert_int_equal(plan_for(KB_KS_RANDOM, UINT64_C(1) << 26, 24, &two, &plan), 0);
	assert_int_equal(plan.path, KB_PATH_RANGES);
	assert_int_equal(plan.threads, 2);
	assert_true(plan.ranges >= 2 && plan.ranges <= 8);
	/* a progression: floor sums (256 x 180 ns) where this compiler can
	 * do them, unless enumerating; not for fewer keys than they cost */
	assert_int_equal(plan_for(KB_KS_PAGE4K, UINT64_C(1) << 21, 8, &two, &plan), 0);
	if (kb_progression_countable(&new64))
		assert_int_equal(plan.path, KB_PATH_FLOORSUM);
	else
		assert_true(plan.path != KB_PATH_FLOORSUM);
	assert_int_equal(plan_for(KB_KS_PAGE4K, UINT64_C(1) << 21, 8, &two_enum, &plan), 0);
	assert_true(plan.path != KB_PATH_FLOORSUM);
	assert_int_equal(plan_for(KB_KS_PAGE4K, 4096, 8, &two, &plan), 0);
	assert_true(plan.path != KB_PATH_FLOORSUM);
	/* whatever AUTO takes, nothing is priced lower */
	assert_cheapest(KB_KS_RANDOM, 1000, 12, &two);
	assert_cheapest(KB_KS_RANDOM, UINT64_C(1) << 20, 10, &two_enum);
	assert_cheapest(KB_KS_RANDOM, UINT64_C(1) << 28, 20, &two_enum);
	assert_cheapest(KB_KS_RANDOM, UINT64_C(1) << 30, 24, &two_enum);
	/* a path given: taken, on the threads given, else its cheapest */
	assert_int_equal(plan_for(KB_KS_RANDOM, 1000, 12, &forced, &plan), 0);
	assert_int_equal(plan.path, KB_PATH_PRIVATE);
	assert_int_equal(plan.threads, 2);
	assert_int_equal(plan_for(KB_KS_RANDOM, 1000, 12, &forced_any, &plan), 0);
	assert_int_equal(plan.path, KB_PATH_PRIVATE);
	assert_int_equal(plan.threads, 1);
	/* ranges given or not, never more threads than ranges: 64 threads
	 * over 2^6 buckets take 32 ranges of 2 at most */
	assert_int_equal(plan_for(KB_KS_RANDOM, 1 << 20, 8, &ranges2_of_3, &plan), 0);
	assert_int_equal(plan.path, KB_PATH_RANGES);
	assert_int_equal(plan.ranges, 2);
	assert_int_equal(plan.threads, 2);
	assert_int_equal(plan_for(KB_KS_RANDOM, 1 << 20, 6, &ranges_64_threads, &plan), 0);
	assert_true(plan.threads <= plan.ranges && plan.ranges <= 32);
	/* private tables within the result's size or 64 MiB: no lanes for
	 * 2^28 buckets (4 GiB a thread), whatever their price */
	assert_int_equal(plan_for(KB_KS_RANDOM, UINT64_C(1) << 33, 28, &two_enum, &plan), 0);
	assert_true(plan.path != KB_PATH_LANES);
	assert_true(kb_engine_thread_bytes(plan.path, 1, 28, plan.ranges) * plan.threads <=
		    (UINT64_C(8) << 28));
	/* floor sums: a thread per 64 buckets at most (where this compiler
	 * can do them) */
	if (kb_progression_countable(&new64)) {
		assert_int_equal(plan_for(KB_KS_PAGE4K, UINT64_C(1) << 30, 5, &floorsum, &plan), 0);
		assert_int_equal(plan.threads, 1);
	}
	/* refused: floor sums of random keys, more than 2^32 buckets, ranges
	 * that are not a power of two */
	assert_int_equal(plan_for(KB_KS_RANDOM, 1 << 20, 8, &floorsum, &plan), -1);
	assert_int_equal(plan_for(KB_KS_RANDOM, 1000, 33, &two, &plan), -1);
	assert_int_equal(plan_for(KB_KS_RANDOM, 1 << 20, 8, &ranges3, &plan), -1);
	kb_set_cache_bytes(none);
}

/* The price model's rules, on figures computed by hand from its table. */
static void prices_follow_the_model(void **state)
{
	const uint64_t caches[3] = { 32 << 10, 512 << 10, 32 << 20 }, none[3] = { 0 };
	double thread = kb_price_ns(KB_PRICE_THREAD) / 1e9;

	(void)state;
	kb_set_cache_bytes(caches);
	/* direct: one writer only; 2^20 keys stepped in a register, 2^12 u64
	 * (32 KiB, in L1) */
	assert_true(price(KB_PATH_DIRECT, 2, 0, 1, 12, 1 << 20, 1) == HUGE_VAL);
	assert_float_equal(price(KB_PATH_DIRECT, 1, 0, 1, 12, 1 << 20, 1),
			   1048576 * 0.55e-9, 1e-12);
	/* 2^13 u64 = 64 KiB: in L2 at twice L1, 1.5 x 0.3 ns more a key;
	 * keys made, 1.5 more */
	assert_float_equal(price(KB_PATH_DIRECT, 1, 0, 1, 13, 1 << 20, 1),
			   1048576 * 1.0e-9, 1e-12);
	assert_float_equal(price(KB_PATH_DIRECT, 1, 0, 1, 13, 1 << 20, 0),
			   1048576 * 2.5e-9, 1e-12);
	/* private: two threads' 8-bit tables of 2^20 (1 MiB each, twice L2,
	 * in half the last-level cache: 1.5 times its miss), merged once */
	assert_float_equal(price(KB_PATH_PRIVATE, 2, 0, 1, 20, 1 << 24, 1),
			   (8388608 * (0.6 + 1.1 * 1.5) + 1048576 * 0.8) / 1e9 + thread, 1e-9);
	/* two specs double the hashes and the buckets, not the keys made */
	assert_float_equal(price(KB_PATH_LANES, 1, 0, 2, 6, 1 << 20, 0),
			   (1048576 * 1.5 + 2097152 * 0.45 + 128 * 1.6) / 1e9, 1e-12);
	/* ranges: 4 of 2^18 buckets (64 KiB each, in L2 at twice L1: 0.45 ns
	 * over L1) on two threads, each range a pass that makes every key again */
	assert_float_equal(price(KB_PATH_RANGES, 2, 4, 1, 18, 1 << 20, 1),
			   2 * (1048576 * 1.1 + 262144 * 0.75 + 65536 * 1.0) / 1e9 + thread,
			   1e-9);
	assert_float_equal(price(KB_PATH_RANGES, 2, 4, 1, 18, 1 << 20, 0),
			   2 * (1048576 * 2.6 + 262144 * 0.75 + 65536 * 1.0) / 1e9 + thread,
			   1e-9);
	/* three threads over four ranges: the slowest does two passes */
	assert_float_equal(price(KB_PATH_RANGES, 3, 4, 1, 18, 1 << 20, 1),
			   2 * (1048576 * 1.1 + 262144 * 0.75 + 65536 * 1.0) / 1e9 + 2 * thread,
			   1e-9);
	assert_true(price(KB_PATH_FLOORSUM, 2, 0, 1, 5, 1 << 20, 1) == HUGE_VAL);
	assert_true(price(KB_PATH_RANGES, 4, 2, 1, 18, 1 << 20, 1) == HUGE_VAL);
	assert_true(price(KB_PATH_RANGES, 1, 3, 1, 18, 1 << 20, 1) == HUGE_VAL);
	assert_true(price(KB_PATH_RANGES, 1, 1, 1, 1, 1 << 20, 1) == HUGE_VAL);
	assert_true(price(KB_PATH_PRIVATE, 1, 0, 1, 33, 1 << 20, 1) == HUGE_VAL);
	/* floor sums: the buckets, not the keys */
	assert_float_equal(price(KB_PATH_FLOORSUM, 1, 0, 1, 10, UINT64_C(1) << 40, 1),
			   1024 * 180e-9, 1e-12);
	kb_set_cache_bytes(none);
}

/*
 * The baseline every speed-up is quoted against counts what new hash_64
 * on a 64-bit kernel counts (kb_count_block, pinned by the golden vectors):
 * a progression and an array of random keys, at the smallest size it is
 * built for and two more, into 32-bit counters.
 */
static void plain_loop_counts_what_the_engine_counts(void **state)
{
	static const unsigned sizes[] = { 1, 13, 22 }; /* 2^32 u32 would be 16 GiB */
	const struct kb_hashspec s = { LKH_FUNC_HASH_64, LKH_GEN_NEW, 64, 0, 0, 0 };
	uint64_t keys[3000], i;
	size_t z;

	(void)state;
	for (i = 0; i < 3000; i++)
		keys[i] = i * UINT64_C(0x9e3779b97f4a7c15) ^ (i << 40);
	for (z = 0; z < sizeof(sizes) / sizeof(*sizes); z++) {
		unsigned bits = sizes[z];
		uint64_t step[3000];
		uint32_t *got = calloc((size_t)1 << bits, sizeof(uint32_t));
		uint64_t *want = calloc((size_t)1 << bits, sizeof(uint64_t));
		size_t form;

		assert_non_null(got);
		assert_non_null(want);
		for (form = 0; form < 2; form++) {
			const uint64_t *k = form ? keys : step;
			uint64_t j;

			for (i = 0; i < 3000; i++)
				step[i] = KB_X86_64_DIRECT_MAP + i * 4096;
			memset(got, 0, sizeof(uint32_t) << bits);
			memset(want, 0, sizeof(uint64_t) << bits);
			assert_int_equal(kb_plain_count(form ? keys : NULL, KB_X86_64_DIRECT_MAP, 4096,
							3000, bits, got), 0);
			kb_count_block(&s, bits, k, 3000, want);
			for (j = 0; j < (UINT64_C(1) << bits); j++)
				if (got[j] != want[j])
					fail_msg("2^%u buckets, %s: bucket %llu counts %u, not %llu",
						 bits, form ? "array" : "progression",
						 (unsigned long long)j, got[j],
						 (unsigned long long)want[j]);
		}
		free(got);
		free(want);
	}
	assert_int_equal(kb_plain_count(NULL, 0, 1, 10, 0, NULL), -1);
	assert_int_equal(kb_plain_count(NULL, 0, 1, 10, KB_PLAIN_BITS_MAX + 1, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(engine_matches_plain_loop),
		cmocka_unit_test(plain_loop_counts_what_the_engine_counts),
		cmocka_unit_test(engine_words_are_each_cells_function),
		cmocka_unit_test(engine_counts_what_lkh_hash_says),
		cmocka_unit_test(floor_sums_count_what_enumeration_counts),
		cmocka_unit_test(folding_equals_counting_with_fewer_bits),
		cmocka_unit_test(one_plan_for_every_count),
		cmocka_unit_test(prices_follow_the_model),
		cmocka_unit_test(generation_k_is_hash_h_with_k_in_place_of_its_constant),
		cmocka_unit_test(generation_k_refuses_what_cannot_hash),
	};

	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
