/* SPDX-License-Identifier: MIT */
/*
 * The census computation (bench/core/census.c) on the fixture of
 * tests/census/gen_expected.py, built here site by site with the same
 * formulas; every expected figure is that script's output (the kernel's
 * formulas in Python integers, Pearson's X^2 over the bucket counts),
 * never the code under test.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <stdio.h>

#include "census.h"
#include "census_sites.h"
#include "tables.h"

#define SB64 UINT64_C(0xffff888003c2a000)
#define SB2 UINT64_C(0xffff888004d10000)

static struct kb_census_site *add_site(struct kb_census_file *f, unsigned long id,
				       const char *func, unsigned bits, uint64_t calls,
				       const char *where)
{
	struct kb_census_site *s;

	f->sites = realloc(f->sites, (f->nsites + 1) * sizeof(*f->sites));
	assert_non_null(f->sites);
	s = &f->sites[f->nsites++];
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->func = kb_census_func_find(func);
	assert_true(s->func >= 0);
	s->bits = bits;
	s->calls = calls;
	s->where = strdup(where);
	return s;
}

static void key(struct kb_census_site *s, uint64_t a, uint64_t b)
{
	assert_int_equal(kb_census_add_key(s, a, b), 0);
}

/* tests/census/fixture.txt, as gen_expected.py writes it */
static void build_fixture(struct kb_census_file *f)
{
	struct kb_census_site *s;
	uint64_t i;

	memset(f, 0, sizeof(*f));
	f->word = 64;
	f->arch = "x86_64";
	s = add_site(f, 1, "hash_32", 3, 40, "kernel/census_a.c:10");
	for (i = 0; i < 29; i++)
		key(s, i << 16, 0);
	key(s, 3 << 16, 0);
	key(s, 7 << 16, 0);
	s = add_site(f, 2, "hash_64", 11, 45, "fs/btrfs/raid56.c:178");
	for (i = 0; i < 45; i++)
		key(s, (i + 1) << 12, 0);
	s = add_site(f, 3, "__hash_32", 0, 70, "fs/namei.c:2109");
	for (i = 0; i < 70; i++)
		key(s, 0x1040 * (i + 1), 0);
	s = add_site(f, 4, "inode_hash", 0, 60, "fs/inode.c:1234");
	for (i = 0; i < 60; i++)
		key(s, SB64, 100 + 4096 * i);
	s = add_site(f, 5, "btrfs_inode_hash", 0, 60, "fs/btrfs/inode.c:5866");
	for (i = 0; i < 60; i++)
		key(s, 256 + i, 5 + i % 3);
	s = add_site(f, 6, "hash_32", 10, 5, "kernel/census_b.c:20");
	key(s, 1, 0);
	key(s, 2, 0);
	key(s, 3, 0);
	key(s, 1, 0);
	key(s, 2, 0);
	/* hash() records of the first 40 btrfs keys: their values under 6.1,
	 * objectid ^ root * GOLDEN_RATIO_64 */
	s = add_site(f, 7, "inode_hash", 15, 40, "fs/inode.c:1520");
	for (i = 0; i < 40; i++)
		key(s, SB2, (256 + i) ^ ((5 + i % 3) * UINT64_C(0x61C8864680B583EB)));
}

static void free_fixture(struct kb_census_file *f)
{
	size_t i;

	for (i = 0; i < f->nsites; i++) {
		free(f->sites[i].where);
		free(f->sites[i].keys);
	}
	free(f->sites);
}

/* gen_expected.py's output: id, at, distinct, then per generation X^2/df,
 * buckets used, max load */
static const struct expect {
	unsigned long id;
	unsigned at;
	uint64_t distinct;
	double chi2_per_df[LKH_GEN_COUNT];
	uint64_t used[LKH_GEN_COUNT], max[LKH_GEN_COUNT];
} expected[] = {
	{ 1, 2, 29, { 29, 29, 29, 0.954022988506 }, { 1, 1, 1, 4 }, { 29, 29, 29, 10 } },
	{ 2, 3, 45, { 19.2984126984, 0.047619047619, 0.047619047619, 0.047619047619 },
	  { 2, 8, 8, 8 }, { 23, 6, 6, 6 } },
	{ 5, 4, 60, { 0.942222222222, 0.942222222222, 0.622222222222, 0.622222222222 },
	  { 16, 16, 16, 16 }, { 7, 7, 6, 6 } },
	{ 7, 2, 40, { 0.866666666667, 0.866666666667, 0.6, 0.6 }, { 4, 4, 4, 4 }, { 13, 13, 13, 13 } },
	{ 4, 4, 60, { 0.195555555556, 0.195555555556, 0.266666666667, 0.266666666667 },
	  { 16, 16, 16, 16 }, { 5, 5, 5, 5 } },
	/* fs/namei.c:2109's name hash picks no bucket: after the verdicts */
	{ 3, 4, 70, { 2.83047619048, 2.83047619048, 2.83047619048, 0.575238095238 },
	  { 10, 10, 10, 16 }, { 8, 8, 8, 6 } },
	{ 6, 0, 3, { 0 }, { 0 }, { 0 } },
};

static void judged_size_follows_the_rule(void **state)
{
	(void)state;
	/* n(n-1)/2^(at+1) >= 100, by hand: 20*19 = 380 < 400 <= 21*20 */
	assert_int_equal(kb_census_judge_bits(20, 32), 0);
	assert_int_equal(kb_census_judge_bits(21, 32), 1);
	assert_int_equal(kb_census_min_keys(), 21);
	/* 40*39 = 1560 < 1600 <= 41*40 */
	assert_int_equal(kb_census_judge_bits(40, 32), 2);
	assert_int_equal(kb_census_judge_bits(41, 32), 3);
	/* never past the site's own table, nor 2^32 */
	assert_int_equal(kb_census_judge_bits(41, 2), 2);
	assert_int_equal(kb_census_judge_bits(UINT64_C(1) << 40, 64), 32);
	/* 4096 keys: 4096*4095 = 16773120 >= 200 * 2^16 = 13107200 */
	assert_int_equal(kb_census_judge_bits(4096, 17), 16);
}

static void census_function_names_and_their_input_widths(void **state)
{
	(void)state;
	assert_int_equal(kb_census_func_find("hash_64"), LKH_FUNC_HASH_64);
	assert_int_equal(kb_census_func_find("__hash_32"), LKH_FUNC_HASH_32_RAW);
	assert_int_equal(kb_census_func_find("inode_hash"), KB_CENSUS_INODE_HASH);
	assert_int_equal(kb_census_func_find("btrfs_inode_hash"), KB_CENSUS_BTRFS_INODE_HASH);
	assert_int_equal(kb_census_func_find("hash_65"), -1);
	assert_string_equal(kb_census_func_name(KB_CENSUS_BTRFS_INODE_HASH), "btrfs_inode_hash");
	/* widths on each kernel: a pointer is 32 bits on i386 */
	assert_int_equal(kb_census_input_bits(LKH_FUNC_HASH_PTR, 32), 32);
	assert_int_equal(kb_census_input_bits(LKH_FUNC_HASH_PTR, 64), 64);
	assert_int_equal(kb_census_input_bits(LKH_FUNC_HASH_64, 32), 64);
	assert_int_equal(kb_census_input_bits(KB_CENSUS_INODE_HASH, 32), 32);
	assert_int_equal(kb_census_input_bits(KB_CENSUS_BTRFS_INODE_HASH, 32), 64);
	/* bits: what the widest generation took (old hash_64 returned a u64) */
	assert_int_equal(kb_census_bits_max(LKH_FUNC_HASH_64, 32), 64);
	assert_int_equal(kb_census_bits_max(LKH_FUNC_HASH_LONG, 32), 32);
	assert_int_equal(kb_census_bits_max(LKH_FUNC_HASH_32_RAW, 64), 0);
	assert_int_equal(kb_census_bits_max(KB_CENSUS_INODE_HASH, 64), 63);
}

static void fixture_as_computed_in_python(void **state)
{
	struct kb_census_file f;
	struct kb_census_row *rows;
	size_t n, i;
	char err[256];
	int g;

	(void)state;
	build_fixture(&f);
	assert_int_equal(kb_census_run(&f, 1, NULL, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, sizeof(expected) / sizeof(expected[0]));
	/* worst first: broken under old by X^2/df, then the rest by old's
	 * X^2/df, then the site that picks no bucket, too few keys last */
	for (i = 0; i < n; i++) {
		const struct expect *e = &expected[i];
		const struct kb_census_row *r = &rows[i];

		assert_int_equal(r->site->id, e->id);
		assert_int_equal(r->at, e->at);
		assert_int_equal(r->distinct, e->distinct);
		if (!e->at)
			continue;
		for (g = 0; g < LKH_GEN_COUNT; g++) {
			assert_float_equal(r->gen[g].chi2_per_df, e->chi2_per_df[g], 1e-9);
			assert_int_equal(r->gen[g].used, e->used[g]);
			assert_int_equal(r->gen[g].max_load, e->max[g]);
			assert_int_equal(r->gen[g].n, e->distinct);
			assert_int_equal(r->gen[g].buckets, UINT64_C(1) << e->at);
		}
	}
	free(rows);
	free_fixture(&f);
}

static void tables_and_sizes(void **state)
{
	struct kb_census_file f;
	struct kb_census_row *rows;
	size_t n, i;
	char err[256];

	(void)state;
	build_fixture(&f);
	assert_int_equal(kb_census_run(&f, 1, NULL, &rows, &n, err, sizeof(err)), 0);
	for (i = 0; i < n; i++) {
		const struct kb_census_row *r = &rows[i];
		const char *t = r->table >= 0 ? kb_tables[r->table].name : "-";

		switch (r->site->id) {
		case 1: /* no table at that line: the site's bits */
			assert_string_equal(t, "-");
			assert_int_equal(r->bits, 3);
			assert_int_equal(r->bits_from, KB_CENSUS_BITS_SITE);
			break;
		case 2: /* the btrfs call site, matched by file:line */
			assert_string_equal(t, "btrfs-raid56");
			assert_int_equal(r->bits, 11);
			break;
		case 3: /* __hash_32: no bits, no table: the 32-bit word */
			assert_string_equal(t, "-");
			assert_int_equal(r->bits, 32);
			assert_int_equal(r->bits_from, KB_CENSUS_BITS_WORD);
			break;
		case 4: /* fs/inode.c hash() at any line: the inode-hash recipe */
			assert_string_equal(t, "inode-hash");
			assert_int_equal(r->bits, 17);
			assert_int_equal(r->bits_from, KB_CENSUS_BITS_TABLE);
			break;
		case 5: /* btrfs_inode_hash goes on into it, with the shift and
			 * super block of the hash() records (site 7) */
			assert_string_equal(t, "inode-hash");
			assert_int_equal(r->bits, 15);
			assert_int_equal(r->bits_from, KB_CENSUS_BITS_INODE);
			assert_int_equal(r->sb_found, 40);
			break;
		default:
			break;
		}
	}
	free(rows);
	free_fixture(&f);
}

static void summary_counts(void **state)
{
	struct kb_census_file f[2];
	struct kb_census_row *rows;
	struct kb_census_summary s;
	size_t n;
	char err[256];

	(void)state;
	build_fixture(&f[0]);
	build_fixture(&f[1]);
	assert_int_equal(kb_census_run(f, 2, NULL, &rows, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 14);
	/* each file's sites kept apart, in file order */
	assert_int_equal(rows[6].file, 0);
	assert_int_equal(rows[7].file, 1);
	assert_int_equal(rows[7].site->id, 1);
	kb_census_summarize(rows, n, 1, &s);
	assert_int_equal(s.sites, 7);
	assert_int_equal(s.judged, 6);
	assert_int_equal(s.too_few, 1);
	/* old: sites 1 and 2 broken; new: nothing broken or skewed; site 3
	 * (the name hash, kind other) has no verdict under any */
	assert_int_equal(s.no_bucket, 1);
	assert_int_equal(s.feeds, 0);
	assert_int_equal(s.verdicts[LKH_GEN_OLD][KB_VERDICT_BROKEN], 2);
	assert_int_equal(s.verdicts[LKH_GEN_OLD][KB_VERDICT_OK], 3);
	assert_int_equal(s.verdicts[LKH_GEN_MINIMAL][KB_VERDICT_BROKEN], 1);
	assert_int_equal(s.verdicts[LKH_GEN_NEW][KB_VERDICT_BROKEN], 0);
	assert_int_equal(s.verdicts[LKH_GEN_NEW][KB_VERDICT_SKEWED], 0);
	assert_int_equal(s.verdicts[LKH_GEN_NEW][KB_VERDICT_OK], 5);
	free(rows);
	free_fixture(&f[0]);
	free_fixture(&f[1]);
}

/* A 32-bit kernel: pointers and unsigned longs are 32 bits, and
 * btrfs_inode_hash folds its u64 to them. */
static void word32(void **state)
{
	struct kb_census_file f;
	struct kb_census_row *rows;
	struct kb_census_site *s;
	size_t n;
	uint64_t i;
	char err[256];

	(void)state;
	memset(&f, 0, sizeof(f));
	f.word = 32;
	f.arch = "i386";
	s = add_site(&f, 7, "hash_ptr", 8, 100, "kernel/census_c.c:30");
	/* 4 KiB page addresses on i386: old hash_32 of i << 12 keeps the
	 * bucket's low bits, as in gen_expected.py's site 1 */
	for (i = 0; i < 64; i++)
		key(s, 0xc1000000 + (i << 16), 0);
	assert_int_equal(kb_census_run(&f, 1, NULL, &rows, &n, err, sizeof(err)), 0);
	/* 64*63 = 4032 >= 200 * 2^4, < 200 * 2^5 */
	assert_int_equal(rows[0].at, 4);
	/* (0xc1000000 + i * 2^16) * 0x9e370001 mod 2^32 = 0xc1000000 + i * 2^16:
	 * top 4 bits 0xc, one bucket */
	assert_int_equal(rows[0].gen[LKH_GEN_OLD].used, 1);
	assert_float_equal(rows[0].gen[LKH_GEN_OLD].chi2_per_df, 64, 1e-9);
	free(rows);
	free_fixture(&f);
}

/* The committed census files (tests/data/census), from the command line. */
static char **census_paths;
static int ncensus_paths;

/*
 * Every site of the committed census files, called or not, has a kind (a
 * new census cannot lack one unnoticed), and every entry of the site table
 * is a site of them (none is stale or misspelt).
 */
/* A site whose hash picks no bucket has no verdict, however its keys
 * fall: the posix timer line of 6.1, whose hash32_ptr word feeds the
 * hash_32 beside it, and the NDISC device word, which feeds a random
 * multiplier.  64 pointers 64 bytes apart keep the top bits of
 * hash32_ptr's word: in one of 16 buckets, X^2/df (16/64 * 64^2 - 64)/15
 * = 64, broken by the rules of a table. */
static void no_bucket_sites_have_no_verdict(void **state)
{
	struct kb_census_file f;
	struct kb_census_site *s;
	struct kb_census_row *rows;
	struct kb_census_summary sum;
	size_t n, i;
	char err[256];
	int g;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.word = 64;
	f.arch = "x86_64";
	/* (add_site moves the sites: each takes its keys at once) */
	s = add_site(&f, 1, "hash32_ptr", 0, 64, "kernel/time/posix-timers.c:115");
	for (i = 0; i < 64; i++)
		key(s, UINT64_C(0xffff888004000000) + 64 * i, 0);
	s = add_site(&f, 2, "hash_32", 9, 64, "kernel/time/posix-timers.c:115");
	for (i = 0; i < 64; i++)
		key(s, 40503 * i + 7, 0);
	s = add_site(&f, 3, "hash32_ptr", 0, 64, "include/net/ndisc.h:375");
	for (i = 0; i < 64; i++)
		key(s, UINT64_C(0xffff888004000000) + 64 * i, 0);
	/* a site of another line, broken under old: it sorts first */
	s = add_site(&f, 4, "hash_32", 3, 29, "kernel/census_a.c:10");
	for (i = 0; i < 29; i++)
		key(s, i << 16, 0);
	assert_int_equal(kb_census_run(&f, 1, NULL, &rows, &n, err, sizeof(err)), 0);
	/* the bucket-picking sites first, then the two with no verdict */
	assert_int_equal(rows[0].site->id, 4);
	assert_int_equal(rows[1].site->id, 2);
	for (i = 2; i < 4; i++) {
		assert_int_equal(rows[i].at, 4);
		assert_float_equal(rows[i].gen[LKH_GEN_NEW].chi2_per_df, 64, 1e-9);
		assert_int_equal(kb_census_verdict(&rows[i].gen[LKH_GEN_NEW]), KB_VERDICT_BROKEN);
		for (g = 0; g < LKH_GEN_COUNT; g++) {
			assert_int_equal(kb_census_row_verdict(&rows[i], g), KB_CENSUS_NO_BUCKET);
			assert_string_equal(kb_census_row_verdict_word(&rows[i], g),
					    "feeds another hash");
		}
	}
	/* posix-timers.c:115's word: the hash_32 on its line picks the bucket,
	 * not census_a.c's, which comes first */
	assert_int_equal(rows[2].site->id, 1);
	assert_ptr_equal(kb_census_bucket_row(rows, n, &rows[2]), &rows[1]);
	assert_null(kb_census_bucket_row(rows, n, &rows[3]));
	assert_null(kb_census_bucket_row(rows, n, &rows[1]));
	assert_string_equal(kb_census_row_verdict_word(&rows[1], LKH_GEN_NEW),
			    kb_verdict(&rows[1].gen[LKH_GEN_NEW]));
	assert_string_equal(kb_census_row_verdict_word(&rows[0], LKH_GEN_OLD), "broken");
	kb_census_summarize(rows, n, 0, &sum);
	assert_int_equal(sum.judged, 4);
	assert_int_equal(sum.no_bucket, 2);
	assert_int_equal(sum.feeds, 2);
	/* census_a.c's alone broken, under old, minimal and posted */
	for (g = 0; g < LKH_GEN_COUNT; g++) {
		assert_int_equal(sum.verdicts[g][KB_VERDICT_BROKEN], g != LKH_GEN_NEW);
		assert_int_equal(sum.verdicts[g][KB_VERDICT_SKEWED], 0);
	}
	free(rows);
	free_fixture(&f);
}

/* An entry names what it feeds only where it picks no bucket, and one
 * whose bucket is the line's other call has that call's entry beside it. */
static void feeds_only_where_no_bucket(void **state)
{
	unsigned u, v, same = 0;

	(void)state;
	for (u = 0; u < kb_census_site_uses_count; u++) {
		const struct kb_census_site_use *e = &kb_census_site_uses[u];
		int found = 0;

		if (!e->feeds)
			continue;
		assert_int_equal(e->kind, KB_SITE_OTHER);
		if (strcmp(e->feeds, KB_SITE_FEEDS_SAME_LINE))
			continue;
		same++;
		for (v = 0; v < kb_census_site_uses_count; v++)
			found |= v != u && !strcmp(kb_census_site_uses[v].kernel, e->kernel) &&
				 !strcmp(kb_census_site_uses[v].where, e->where) &&
				 kb_census_site_uses[v].kind != KB_SITE_OTHER;
		assert_true(found);
	}
	assert_int_equal(same, 2); /* posix-timers.c of 6.1 and 6.12 */
}

static void every_census_site_has_a_kind(void **state)
{
	unsigned char used[512] = { 0 };
	unsigned u, sites = 0;
	int i;

	(void)state;
	assert_true(ncensus_paths >= 2);
	assert_true(kb_census_site_uses_count <= sizeof(used));
	for (i = 0; i < ncensus_paths; i++) {
		FILE *fp = fopen(census_paths[i], "r");
		char line[4096], func[64], where[256], kernel[64] = "";

		assert_non_null(fp);
		while (fgets(line, sizeof(line), fp)) {
			const struct kb_census_site_use *e;
			struct kb_census_kind k;

			/* (the meta lines come before the sites) */
			if (sscanf(line, "meta kernel %63s", kernel) == 1)
				continue;
			if (sscanf(line, "site %*u %63s %*u %*u %255s", func, where) != 2 &&
			    sscanf(line, "# site %*u not called: %63s %255s", func, where) != 2)
				continue;
			sites++;
			assert_true(kb_census_func_find(func) >= 0);
			assert_true(*kernel);
			kb_census_kind_of(kernel, where, kb_census_func_find(func), &k);
			if (k.kind == KB_SITE_UNKNOWN)
				fail_msg("%s: %s %s has no kind", census_paths[i], func, where);
			assert_non_null(k.what);
			if ((e = kb_census_site_use_find(kernel, where, func)))
				used[e - kb_census_site_uses] = 1;
		}
		fclose(fp);
	}
	/* called or not, as their "meta sites" lines count them: 82 + 85 of
	 * 6.1 (x86_64, i386), 158 + 161 of 6.12 */
	assert_int_equal(sites, 82 + 85 + 158 + 161);
	for (u = 0; u < kb_census_site_uses_count; u++)
		if (!used[u])
			fail_msg("site table: %s (%s) is in no census file",
				 kb_census_site_uses[u].where,
				 kb_census_site_uses[u].func ? kb_census_site_uses[u].func : "any");
}

/* A named table's site takes the table's kind; the others their entry's. */
static void kinds_come_from_the_named_table(void **state)
{
	static const struct {
		const char *where, *func, *table;
	} named[] = {
		{ "mm/filemap.c:1058", "hash_ptr", "folio-waitqueue" },
		{ "kernel/sched/wait_bit.c:17", "hash_long", "bit-waitqueue" },
		/* the same queues through wake_up_var(): an entry naming them */
		{ "kernel/sched/wait_bit.c:155", "hash_ptr", "bit-waitqueue" },
		{ "fs/btrfs/raid56.c:178", "hash_64", "btrfs-raid56" },
		{ "fs/inode.c:575", "inode_hash", "inode-hash" },
		{ "fs/btrfs/inode.c:5866", "btrfs_inode_hash", "inode-hash" },
	};
	struct kb_census_kind k;
	unsigned i, u;

	(void)state;
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		int t = kb_table_find(named[i].table);

		assert_true(t >= 0);
		kb_census_kind_of(NULL, named[i].where, kb_census_func_find(named[i].func), &k);
		assert_int_equal(k.kind, kb_tables[t].kind);
		assert_int_equal(k.from, KB_CENSUS_KIND_TABLE);
		assert_string_equal(k.what, named[i].table);
	}
	/* no entry says again what a named table says */
	for (u = 0; u < kb_census_site_uses_count; u++) {
		const struct kb_census_site_use *e = &kb_census_site_uses[u];

		if (e->kind == KB_SITE_NAMED)
			assert_true(kb_table_find(e->what) >= 0);
		else
			/* (a one-key function: the named table at its file:line) */
			assert_true(kb_census_table_of(e->where, LKH_FUNC_HASH_32) < 0);
	}
	kb_census_kind_of(NULL, "fs/kernfs/file.c:45", LKH_FUNC_HASH_PTR, &k);
	assert_int_equal(k.kind, KB_KIND_LOCKS);
	assert_int_equal(k.from, KB_CENSUS_KIND_SITE);
	kb_census_kind_of(NULL, "kernel/workqueue.c:2223", LKH_FUNC_HASH_LONG, &k);
	assert_int_equal(k.kind, KB_KIND_CHAINED);
	kb_census_kind_of(NULL, "kernel/time/posix-timers.c:115", LKH_FUNC_HASH32_PTR, &k);
	assert_int_equal(k.kind, KB_SITE_OTHER);
	kb_census_kind_of(NULL, "kernel/time/posix-timers.c:115", LKH_FUNC_HASH_32, &k);
	assert_int_equal(k.kind, KB_KIND_CHAINED);
	kb_census_kind_of(NULL, "kernel/census_a.c:10", LKH_FUNC_HASH_32, &k);
	assert_int_equal(k.kind, KB_SITE_UNKNOWN);
	assert_int_equal(k.from, KB_CENSUS_KIND_NONE);
	assert_null(k.what);
	/* an entry holds in its kernel's census only: 6.12 moved ndisc.h's
	 * device word from line 375 to 360 */
	kb_census_kind_of("6.12.118", "include/net/ndisc.h:360", LKH_FUNC_HASH32_PTR, &k);
	assert_int_equal(k.kind, KB_SITE_OTHER);
	assert_int_equal(k.from, KB_CENSUS_KIND_SITE);
	kb_census_kind_of("6.12", "include/net/ndisc.h:375", LKH_FUNC_HASH32_PTR, &k);
	assert_int_equal(k.kind, KB_SITE_UNKNOWN);
	kb_census_kind_of("6.1.192", "include/net/ndisc.h:360", LKH_FUNC_HASH32_PTR, &k);
	assert_int_equal(k.kind, KB_SITE_UNKNOWN);
	kb_census_kind_of("6.1.192", "include/net/ndisc.h:375", LKH_FUNC_HASH32_PTR, &k);
	assert_int_equal(k.kind, KB_SITE_OTHER);
	/* major.minor, not a prefix: 6.10 is neither 6.1 nor 6.12 */
	kb_census_kind_of("6.10.3", "include/net/ndisc.h:375", LKH_FUNC_HASH32_PTR, &k);
	assert_int_equal(k.kind, KB_SITE_UNKNOWN);
	/* a named table at its 6.12 line, through that kernel's entry */
	kb_census_kind_of("6.12.118", "mm/filemap.c:1060", LKH_FUNC_HASH_PTR, &k);
	assert_int_equal(k.kind, KB_KIND_LOCKS);
	assert_int_equal(k.from, KB_CENSUS_KIND_TABLE);
	assert_string_equal(k.what, "folio-waitqueue");
	kb_census_kind_of(NULL, "mm/filemap.c:1060", LKH_FUNC_HASH_PTR, &k);
	assert_int_equal(k.kind, KB_SITE_UNKNOWN);
	assert_string_equal(kb_site_kind_name(KB_SITE_OTHER), "other");
	assert_string_equal(kb_site_kind_name(KB_SITE_UNKNOWN), "unknown");
	assert_string_equal(kb_site_kind_name(KB_KIND_LOCKS), "locks");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(judged_size_follows_the_rule),
		cmocka_unit_test(census_function_names_and_their_input_widths),
		cmocka_unit_test(fixture_as_computed_in_python),
		cmocka_unit_test(tables_and_sizes),
		cmocka_unit_test(summary_counts),
		cmocka_unit_test(word32),
		cmocka_unit_test(no_bucket_sites_have_no_verdict),
		cmocka_unit_test(feeds_only_where_no_bucket),
		cmocka_unit_test(every_census_site_has_a_kind),
		cmocka_unit_test(kinds_come_from_the_named_table),
	};

	census_paths = argv + 1;
	ncensus_paths = argc - 1;

	return cmocka_run_group_tests(tests, NULL, NULL);
}
