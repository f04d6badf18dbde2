/* SPDX-License-Identifier: MIT */
/*
 * khash-bench list: the key sets, functions, generations and word sizes.
 */
#include "cli_args.h"

#include <stdio.h>

#include <khash/lkh.h>
#include <khash/lkh_table.h>

#include "hashspec.h"
#include "keysets.h"
#include "names.h"

int kb_cmd_list(struct kb_args *a)
{
	int i;

	(void)a;
	printf("key sets:\n");
	for (i = 0; i < KB_KS_COUNT; i++)
		printf("  %-14s %s%s\n", kb_keysets[i].name, kb_keysets[i].formula,
		       kb_keyset_available(i) ? "" : " [not in this build]");
	printf("functions:");
	for (i = 0; i < LKH_FUNC_COUNT; i++)
		if (lkh_bits_max((lkh_func)i, KB_GEN_TODAY, 64))
			printf(" %s", lkh_func_name((lkh_func)i));
	printf("\ngenerations:\n");
#define GEN_LINE(id, name, what, ...) printf("  %-7s %s\n", #name, what);
	LKH_GENERATION_TABLE(GEN_LINE)
#undef GEN_LINE
	printf("  %-7s --multiplier K: the key times K mod 2^w, its top bits (not a kernel's)\n",
	       kb_gen_name(KB_GEN_K));
	printf("word sizes: 32 64 (default %u)\n", lkh_bits_per_long());
	/* string keys: what skew takes with a table that reads a string hash */
	printf("name sets:\n");
	for (i = 0; i < KB_NS_COUNT_; i++)
		printf("  %-14s %s\n", kb_name_sets[i].name, kb_name_sets[i].formula);
	printf("tables that read a string hash (skew --table NAME --names FILE | --name-set NAME --sgen G):\n");
	for (i = 0; i < (int)kb_string_tables_count; i++)
		printf("  %-14s %s (%s), %s; 2^%u buckets, names: %s\n", kb_string_tables[i].name,
		       kb_string_tables[i].formula, kb_string_tables[i].site,
		       kb_string_tables[i].keys_are, kb_string_tables[i].bits,
		       kb_name_sets[kb_string_tables[i].name_set].name);
	/* the dcache's size on machines of every size: --bits for yours */
	printf("dcache buckets (log2, --bits) by memory, 64-bit:");
	for (i = 0; i <= 10; i++)
		printf("%s%u GiB %u", i ? ", " : " ", 1u << i, kb_dcache_bits(UINT64_C(1) << (30 + i), 64));
	printf("\n");
	printf("string-hash generations:\n");
	for (i = 0; i < LKH_SGEN_COUNT; i++)
		printf("  %-7s %s\n", lkh_sgen_name((lkh_sgen)i), lkh_sgen_kernels((lkh_sgen)i));
	return 0;
}
