/* SPDX-License-Identifier: MIT */
/*
 * The atlas's subsystems (bench/core/census_atlas.c): the rule that names
 * a path's subsystem, and the counts by subsystem of a tiny atlas against
 * a tiny census, worked out by hand below.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "census_atlas.h"

/* the subsystem's length and the top directory's, by hand */
static void test_subsystem_rule(void **state)
{
	static const struct {
		const char *file;
		size_t len, top;
	} cases[] = {
		{ "fs/btrfs/inode.c", 8, 2 },          /* fs/btrfs */
		{ "fs/namei.c", 2, 2 },                /* directly in fs/: fs */
		{ "drivers/net/ethernet/x/y.c", 11, 7 }, /* drivers/net */
		{ "net/ipv4/tcp.c", 8, 3 },            /* net/ipv4 */
		{ "arch/x86/kvm/mmu.c", 8, 4 },        /* arch/x86 */
		{ "kernel/sched/wait_bit.c", 6, 6 },   /* kernel: not split */
		{ "include/linux/hash.h", 7, 7 },      /* include */
		{ "netfilter/a/b.c", 9, 9 },           /* not net: no split */
		{ "fsx/a/b.c", 3, 3 },                 /* not fs either */
		{ "Makefile", 8, 8 },                  /* no directory: itself */
	};
	size_t i, top;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(kb_atlas_subsystem(cases[i].file, &top), cases[i].len);
		assert_int_equal(top, cases[i].top);
	}
}

static void add_row(struct kb_atlas *a, const char *file, uint64_t line,
		    enum kb_atlas_build build, uint64_t expanded)
{
	struct kb_atlas_row *r;

	a->rows = realloc(a->rows, (a->nrows + 1) * sizeof(*a->rows));
	assert_non_null(a->rows);
	r = &a->rows[a->nrows++];
	memset(r, 0, sizeof(*r));
	r->file = strdup(file);
	r->function = strdup("f");
	r->called = strdup("hash_32");
	r->line = line;
	r->build = build;
	if (expanded) {
		r->expanded = malloc(sizeof(*r->expanded));
		assert_non_null(r->expanded);
		r->expanded[0] = expanded;
		r->nexpanded = 1;
	}
}

static void add_site(struct kb_census_file *f, const char *where)
{
	f->sites = realloc(f->sites, (f->nsites + 1) * sizeof(*f->sites));
	assert_non_null(f->sites);
	memset(&f->sites[f->nsites], 0, sizeof(*f->sites));
	f->sites[f->nsites++].where = strdup(where);
}

static void add_uncalled(struct kb_census_file *f, const char *where)
{
	f->uncalled = realloc(f->uncalled, (f->nuncalled + 1) * sizeof(*f->uncalled));
	assert_non_null(f->uncalled);
	f->uncalled[f->nuncalled++] = strdup(where);
}

struct want {
	const char *name;
	size_t group;
	size_t build[KB_ATLAS_BUILD_COUNT];   /* y m n h ? */
	size_t reached[KB_ATLAS_BUILD_COUNT];
};

static void check(const struct kb_atlas_subsys *got, size_t n, const struct want *want,
		  size_t nwant)
{
	size_t i;
	int k;

	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++) {
		assert_int_equal(got[i].len, strlen(want[i].name));
		assert_memory_equal(got[i].name, want[i].name, got[i].len);
		assert_int_equal(got[i].group, want[i].group);
		for (k = 0; k < KB_ATLAS_BUILD_COUNT; k++) {
			assert_int_equal(got[i].build[k], want[i].build[k]);
			assert_int_equal(got[i].reached[k], want[i].reached[k]);
		}
	}
}

/*
 * 12 rows, in no order of subsystem:
 *   fs/namei.c:10         y  site               -> fs        reached
 *   fs/btrfs/inode.c:20   m  site               -> fs/btrfs  reached
 *   kernel/sched/wait_bit.c:17 y site           -> kernel    reached
 *   fs/btrfs/ctree.c:5    m  not-called comment -> fs/btrfs  not reached
 *   drivers/net/tun.c:9   m  site at its expanded line 30 -> drivers/net reached
 *   fs/nfsd/state.c:7     m  nothing            -> fs/nfsd   not reached
 *   kernel/fork.c:3       n  site               -> kernel    reached
 *   include/linux/hash.h:1 h nothing            -> include   not reached
 *   drivers/gpu/drm/x.c:4 m  nothing            -> drivers/gpu not reached
 *   Makefile:1            ?  nothing            -> Makefile  not reached
 *   fs-extra/a.c:2        y  site               -> fs-extra  reached
 *   net/ipv4/tcp.c:50     y  site               -> net/ipv4  reached
 * Sorted by top, then name: "fs-extra" after every fs (byte order alone
 * would put it between fs and fs/btrfs, '-' being below '/'), "Makefile"
 * first ('M' below 'd').  Totals: y 4, m 5, n 1, h 1, ? 1; reached y 4
 * (namei, wait_bit, fs-extra, tcp), m 2 (btrfs inode, tun), n 1 (fork).
 */
static void test_subsystem_counts(void **state)
{
	static const struct want subsys[] = {
		{ "Makefile", 0, { 0, 0, 0, 0, 1 }, { 0 } },
		{ "drivers/gpu", 1, { 0, 1, 0, 0, 0 }, { 0 } },
		{ "drivers/net", 1, { 0, 1, 0, 0, 0 }, { 0, 1, 0, 0, 0 } },
		{ "fs", 2, { 1, 0, 0, 0, 0 }, { 1, 0, 0, 0, 0 } },
		{ "fs/btrfs", 2, { 0, 2, 0, 0, 0 }, { 0, 1, 0, 0, 0 } },
		{ "fs/nfsd", 2, { 0, 1, 0, 0, 0 }, { 0 } },
		{ "fs-extra", 3, { 1, 0, 0, 0, 0 }, { 1, 0, 0, 0, 0 } },
		{ "include", 4, { 0, 0, 0, 1, 0 }, { 0 } },
		{ "kernel", 5, { 1, 0, 1, 0, 0 }, { 1, 0, 1, 0, 0 } },
		{ "net/ipv4", 6, { 1, 0, 0, 0, 0 }, { 1, 0, 0, 0, 0 } },
	};
	static const struct want tops[] = {
		{ "Makefile", 0, { 0, 0, 0, 0, 1 }, { 0 } },
		{ "drivers", 1, { 0, 2, 0, 0, 0 }, { 0, 1, 0, 0, 0 } },
		{ "fs", 2, { 1, 3, 0, 0, 0 }, { 1, 1, 0, 0, 0 } },
		{ "fs-extra", 3, { 1, 0, 0, 0, 0 }, { 1, 0, 0, 0, 0 } },
		{ "include", 4, { 0, 0, 0, 1, 0 }, { 0 } },
		{ "kernel", 5, { 1, 0, 1, 0, 0 }, { 1, 0, 1, 0, 0 } },
		{ "net", 6, { 1, 0, 0, 0, 0 }, { 1, 0, 0, 0, 0 } },
	};
	static const size_t build[] = { 4, 5, 1, 1, 1 }, reached[] = { 4, 2, 1, 0, 0 };
	struct kb_atlas a = { 0 };
	struct kb_census_file f = { 0 };
	struct kb_atlas_report r;
	int k;

	(void)state;
	add_row(&a, "fs/namei.c", 10, KB_ATLAS_BUILT_IN, 0);
	add_row(&a, "fs/btrfs/inode.c", 20, KB_ATLAS_MODULE, 0);
	add_row(&a, "kernel/sched/wait_bit.c", 17, KB_ATLAS_BUILT_IN, 0);
	add_row(&a, "fs/btrfs/ctree.c", 5, KB_ATLAS_MODULE, 0);
	add_row(&a, "drivers/net/tun.c", 9, KB_ATLAS_MODULE, 30);
	add_row(&a, "fs/nfsd/state.c", 7, KB_ATLAS_MODULE, 0);
	add_row(&a, "kernel/fork.c", 3, KB_ATLAS_NOT_BUILT, 0);
	add_row(&a, "include/linux/hash.h", 1, KB_ATLAS_HEADER, 0);
	add_row(&a, "drivers/gpu/drm/x.c", 4, KB_ATLAS_MODULE, 0);
	add_row(&a, "Makefile", 1, KB_ATLAS_UNDECIDED, 0);
	add_row(&a, "fs-extra/a.c", 2, KB_ATLAS_BUILT_IN, 0);
	add_row(&a, "net/ipv4/tcp.c", 50, KB_ATLAS_BUILT_IN, 0);
	add_site(&f, "fs/namei.c:10");
	add_site(&f, "fs/btrfs/inode.c:20");
	add_site(&f, "kernel/sched/wait_bit.c:17");
	add_site(&f, "drivers/net/tun.c:30");
	add_site(&f, "kernel/fork.c:3");
	add_site(&f, "fs-extra/a.c:2");
	add_site(&f, "net/ipv4/tcp.c:50");
	add_uncalled(&f, "fs/btrfs/ctree.c:5");

	assert_int_equal(kb_atlas_match(&a, &f, &r), 0);
	for (k = 0; k < KB_ATLAS_BUILD_COUNT; k++) {
		assert_int_equal(r.build[k], build[k]);
		assert_int_equal(r.reached[k], reached[k]);
	}
	check(r.subsys, r.nsubsys, subsys, sizeof(subsys) / sizeof(subsys[0]));
	check(r.tops, r.ntops, tops, sizeof(tops) / sizeof(tops[0]));
	kb_atlas_report_free(&r);
	kb_census_file_free(&f);
	kb_atlas_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subsystem_rule),
		cmocka_unit_test(test_subsystem_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
