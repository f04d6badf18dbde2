/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#define KB_CLI_TABLES /* the commands, weakly */
#include "cli_args.h"

#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh_table.h>

#include "advise.h"
#include "candidates.h"
#include "census.h"
#include "explain.h"
#include "number.h"
#include "tables.h"

static const char *prog = "khash-bench";

/* An error is one line whatever the user's words hold: a control
 * character in a name (--keyset $'se\nq') is written escaped, as C would. */
int kb_fail(int status, const char *fmt, ...)
{
	char msg[2048];
	const unsigned char *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: ", prog);
	for (p = (const unsigned char *)msg; *p; p++)
		if (*p == '\n')
			fputs("\\n", stderr);
		else if (*p == '\t')
			fputs("\\t", stderr);
		else if (*p == '\r')
			fputs("\\r", stderr);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	fputc('\n', stderr);
	return status;
}

int kb_plot_outcome(int rc, const char *err)
{
	if (rc < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	if (rc > 0)
		kb_fail(0, "warning: %s", err);
	return 0;
}

#define KEYSET_OPTIONS (KB_OPT(COUNT) | KB_OPT(BASE) | KB_OPT(STRIDE) | KB_OPT(SEED) | KB_OPT(SIZE))
/* a function and bits, or a named table whose they are (skew, hash) */
#define FUNC_OR_TABLE \
	{ KB_ONE_OF, { { KB_OPT(FUNC), KB_OPT(BITS), 0 }, \
		       { KB_OPT(TABLE), 0, KB_OPT(PARAM) | KB_OPT(BITS) } } }
/* generation K: a multiplier of the user's, where a generation is taken */
#define K_ALT { KB_OPT(MULTIPLIER), 0, KB_OPT(WIDTH) }
#define GEN_OR_K { KB_SOME_OF, { { KB_OPT(GEN), 0, 0 }, K_ALT } }
#define MAYBE_K { KB_ANY_OF, { K_ALT } }
/* advise's and explain's keys: what cell_keys() in khash_bench.c takes
 * (advise's --seed keys its candidates and draws its re-layouts, whatever
 * the keys) */
#define CELL_KEYS(seeded)                                                              \
	{ KB_ONE_OF, { { KB_OPT(KEYSET), KB_OPT(BITS), KEYSET_OPTIONS },                   \
		       { KB_OPT(KEYS), KB_OPT(BITS), KB_OPT(BINARY) | (seeded) },           \
		       { KB_OPT(CENSUS), KB_OPT(SITE), KB_OPT(BITS) | (seeded) },           \
		       { KB_OPT(TABLE), 0, KB_OPT(COUNT) | KB_OPT(SEED) | KB_OPT(BITS) } } }
#define CELL_KEYS_OPTIONS \
	(KB_OPT(FUNC) | KB_OPT(WORD) | KB_OPT(FORMAT) | KB_OPT(OUTPUT) | KB_OPT(MAX_MEMORY))
#define ONE(id) { KB_ONE_OF, { { KB_OPT(id), 0, 0 } } }
#define TEXT_CSV_JSON (KB_FORMAT_BIT(KB_FORMAT_TEXT) | KB_FORMAT_BIT(KB_FORMAT_CSV) | KB_FORMAT_BIT(KB_FORMAT_JSON))

const struct kb_command kb_commands[] = {
	{
		"report", kb_cmd_report,
		{ { KB_ANY_OF, { { KB_OPT(KEYS), 0, KB_OPT(BINARY) }, K_ALT } } },
		"the main job: every key set x function x generation x word size x bits, old beside new",
		"Counts every chosen key set through every chosen function, generation and word size into 2^bits-min .. 2^bits-max buckets (counted once at the largest table and folded down) and prints X^2/df per table size: 1 for a random function, far above 1 for a skewed hash. Marks: # broken (X^2/df >= " KB_STRINGIFY(KB_BROKEN) "), ! skewed (upper tail p < " KB_STRINGIFY(KB_ALPHA) "), ~ more even than random (lower tail p < " KB_STRINGIFY(KB_ALPHA) "), ? too few keys for a verdict (a random function would put fewer than " KB_STRINGIFY(KB_MIN_PAIRS) " pairs of them in a shared bucket). With --keys FILE the sweep is over the distinct keys of a key file instead of the key sets. Ends with a summary per generation.",
		KEYSET_OPTIONS | KB_OPT(FORMAT) | KB_OPT(PLOT) | KB_OPT(BITS_MIN) | KB_OPT(BITS_MAX) |
			KB_OPT(KEYSETS) | KB_OPT(FUNCS) | KB_OPT(GENS) | KB_OPT(WORDS) | KB_OPT(STEP) |
			KB_OPT(HIST) | KB_OPT(OUTPUT) | KB_OPT(MAX_MEMORY) | KB_OPT(THREADS) |
			KB_OPT(QUIET) | KB_OPT(ENUMERATE) | KB_OPT(YES),
		TEXT_CSV_JSON, 0, NULL, "keys per key set", 65536, NULL, 0, 0, 0 },
	{
		"skew", kb_cmd_skew,
		{ FUNC_OR_TABLE, GEN_OR_K,
		  { KB_ONE_OF, { { KB_OPT(KEYSET), 0, KEYSET_OPTIONS | KB_OPT(ENUMERATE) },
				 { KB_OPT(KEYS), 0, KB_OPT(BINARY) | KB_OPT(KEEP_DUPLICATES) } } } },
		"one cell: how evenly one function spreads a key set or a key file",
		"Counts a built-in key set or the keys of a file through one function, generation and word size into 2^bits buckets, or through a named kernel table (its key transform, function and bits), and prints Pearson's X^2, both tail probabilities, buckets used, the maximum load and what a random function would give, and a verdict (broken, skewed, ok, even, or too few keys where a random function would put fewer than " KB_STRINGIFY(KB_MIN_PAIRS) " pairs of them in a shared bucket, with the keys the table would need). --gen takes all or a list: a cell each. --plot draws the bucket loads, a panel a generation.",
		KB_OPT(WORD) | KB_OPT(FORMAT) | KB_OPT(OUTPUT) | KB_OPT(MAX_MEMORY) |
			KB_OPT(THREADS) | KB_OPT(QUIET) | KB_OPT(PLOT) | KB_OPT(YES),
		TEXT_CSV_JSON, 0, NULL, "keys in the key set", 4096, NULL, 0, 0, KB_GEN_LIST },
	{
		"hash", kb_cmd_hash,
		/* a hash.h function needs a generation; a candidate has none */
		{ FUNC_OR_TABLE, { KB_ANY_OF, { { KB_OPT(GEN), 0, 0 }, K_ALT } } },
		"print each key's hash, 0x-prefixed lowercase hex, in input order",
		"Reads a key file (standard input when FILE is - or missing) and prints the hash of every key, one a line, in input order, exactly as the chosen kernel computed it; with --table, the bucket that kernel table puts it in. A hash.h function needs --gen or --multiplier. --func also takes every other candidate advise ranks, whose bucket it prints (the hash's low bits): jhash and the keyed hsiphash and siphash from --seed as advise keys them, and identity, the key itself; --shift N shifts the key right first.",
		KB_OPT(WORD) | KB_OPT(BINARY) | KB_OPT(FORMAT) | KB_OPT(OUTPUT) | KB_OPT(SEED) |
			KB_OPT(SHIFT),
		KB_FORMAT_BIT(KB_FORMAT_TEXT), 1, "one key file, or - for standard input", NULL, 0,
		"[FILE|-]", 0, 0, 0 },
	{
		"influence", kb_cmd_influence,
		{ ONE(FUNC), GEN_OR_K, ONE(BITS) },
		"P(flipping input bit j flips output bit k), as a map and a summary",
		"Measures, for every input bit j and output bit k, the probability that flipping bit j of the key flips bit k of the hash, over seeded random keys or every key of a 32-bit argument. An ideal hash gives 1/2 everywhere; a multiplicative hash can never reach output bits below the input bit.",
		KB_OPT(WORD) | KB_OPT(COUNT) | KB_OPT(SEED) | KB_OPT(FORMAT) | KB_OPT(PLOT) |
			KB_OPT(OUTPUT) | KB_OPT(THREADS) | KB_OPT(QUIET) | KB_OPT(ENUMERATE) |
			KB_OPT(YES),
		TEXT_CSV_JSON, 0, NULL,
		"random keys sampled; 4294967296 or more: every key of a 32-bit argument", 65536, NULL, 0, 0, 0 },
	{
		"audit", kb_cmd_audit,
		{ { KB_ONE_OF, { K_ALT, { KB_OPT(PRESET), 0, 0 }, { KB_OPT(COMPARE), 0, 0 } } } },
		"what to know about a multiplier before using it",
		"Reports a multiplier's parity, popcount and longest run of equal bits, the cost of a shift-and-add chain (non-adjacent form), the continued fraction of K/2^w, the worst stride among s, 3s, 5s, 7s (s a power of two) for 2^6..2^16 buckets, and its skew over the built-in key sets; --compare does it for every preset.",
		KB_OPT(FORMAT) | KB_OPT(PLOT) | KB_OPT(OUTPUT),
		TEXT_CSV_JSON, 0, NULL, NULL, 0, NULL, 0, 0, KB_OWN_MULTIPLIER },
	{
		"waittable", kb_cmd_waittable,
		{ { 0 } },
		"the 2002 page wait tables: waiters woken for nothing, old vs new vs random",
		"Simulates the hashed page wait tables of 2002: each zone hashes struct page pointers into pages/256 queues (a power of two, at most 4096), and unlocking a page wakes every waiter in its queue. Prints the mean number of waiters woken for nothing per unlock, old multiplier against new against a random function, for pages anywhere in the zone and for a run of consecutive pages.",
		KB_OPT(COUNT) | KB_OPT(WORD) | KB_OPT(SEED) | KB_OPT(FORMAT) | KB_OPT(PLOT) |
			KB_OPT(OUTPUT),
		TEXT_CSV_JSON, 0, NULL,
		"pages waited on, " KB_STRINGIFY(KB_WAITERS_MIN) ".." KB_STRINGIFY(KB_WAITERS_MAX), 100,
		NULL, KB_WAITERS_MIN, KB_WAITERS_MAX, 0 },
	{
		"speed", kb_cmd_speed,
		{ { 0 } },
		"benchmarks: every hash beside the bare arithmetic, the engine beside the naive loop",
		"Times every hash inline and through the library's exported symbol, each beside a hand-written reference loop in the same binary, and the counting engine beside the naive loop; prints figures, never verdicts: the fastest, median and mean of each one's rounds, their spread ((slowest - fastest) / median) and how many there were. The engine's part says which cache sizes its choice of path rests on and where each was read (the kernel's tables, else the C library's CPUID figure, which a virtual machine may take from its host); --part grid times the engine's choice against the naive loop at every count 2^12..2^28 and table size 2^6..2^24.",
		KB_OPT(BITS) | KB_OPT(COUNT) | KB_OPT(THREADS) | KB_OPT(FORMAT) | KB_OPT(OUTPUT) |
			KB_OPT(QUIET) | KB_OPT(PART) | KB_OPT(MIN_TIME) | KB_OPT(YES),
		TEXT_CSV_JSON, 0, NULL,
		"keys the counting engine counts at each table size", UINT64_C(1) << 27, NULL, 0, 0, 0 },
	{
		"keys", kb_cmd_keys,
		{ { KB_ONE_OF, { { KB_OPT(KEYSET), 0, KEYSET_OPTIONS } } }, MAYBE_K },
		"write a key set as a key file (0x hex lines, or little-endian u64)",
		"Writes a built-in key set as a key file that any machine reads back the same: 0x hex, one key a line, or little-endian u64 with --binary. The adversarial set needs the cell it is built against: --func, --gen and --bits.",
		KB_OPT(WORD) | KB_OPT(BINARY) | KB_OPT(OUTPUT) | KB_OPT(FUNC) | KB_OPT(GEN) |
			KB_OPT(BITS) | KB_OPT(MAX_MEMORY) | KB_OPT(FORMAT) | KB_OPT(YES),
		KB_FORMAT_BIT(KB_FORMAT_TEXT), 0, NULL, "keys to write", 4096, NULL, 0, 0, 0 },
	{
		"tables", kb_cmd_tables,
		{ MAYBE_K },
		"named kernel tables: real 6.1 call sites under every generation",
		"Lists the named tables (the key transform, function and bits of a real Linux 6.1 call site, with its file:line) and counts each one's natural key model through every generation and word size, and, with --kernel-keys, the real kernel keys that fit it.",
		KB_OPT(COUNT) | KB_OPT(SEED) | KB_OPT(WORDS) | KB_OPT(KERNEL_KEYS) | KB_OPT(FORMAT) |
			KB_OPT(PLOT) | KB_OPT(OUTPUT) | KB_OPT(QUIET) | KB_OPT(YES),
		TEXT_CSV_JSON, 0, NULL, "keys of each table's key model", 4096, NULL, 0, 0, 0 },
	{
		"list", kb_cmd_list, { { 0 } },
		"key sets (with formulas), functions and generations",
		"Lists the built-in key sets with their formulas, the functions that index a table, the generations with their kernels and multipliers, and the word sizes.",
		0, KB_FORMAT_BIT(KB_FORMAT_TEXT), 0, NULL, NULL, 0, NULL, 0, 0, 0 },
	{
		"census", kb_cmd_census,
		{ MAYBE_K },
		"the hash call sites a kernel reached, judged under every generation",
		"Reads census files (the call sites of hash_32, hash_64, hash_long, hash_ptr, hash32_ptr, __hash_32, fs/inode.c hash() and btrfs_inode_hash() a running kernel reached, with a sample of their keys; format khash-census 1, or 2, whose site lines may end in the name of the module the site was compiled into, as 'site ID FUNC BITS CALLS FILE:LINE MODULE', judged like the kernel's own and named with their module in the text and figure), and hashes each site's distinct keys again with every generation on the file's word size: through the named table at the site's file:line where there is one, and for inode_hash and btrfs_inode_hash through fs/inode.c hash() as the inode-hash table computes it; a btrfs_inode_hash key, whose record holds no super block, takes the super block and i_hash_shift of the file's hash() record that holds its value under 6.1 (else the super block most of its site's keys found, else the table's). A site's table has 2^bits buckets: its bits, else its named table's, else the 32 bits the function returns. It is judged at 2^at buckets, the largest at <= bits where a random function would put " KB_STRINGIFY(KB_MIN_PAIRS) " pairs of its n distinct keys in a shared bucket (n(n-1)/2^(at+1) >= " KB_STRINGIFY(KB_MIN_PAIRS) "), which keeps the chi-squared tail within a factor of 3 of the false-alarm rate it claims; a smaller table than the site's sums adjacent buckets (their top bits), and a site that cannot reach it with 2 buckets has 'too few keys'. Prints per site and generation X^2/df and the verdict (broken, skewed, ok, even, as skew gives them; the text marks them #, !, ~ before X^2/df and puts the site last; CSV and JSON add calls, buckets used and the maximum load), each file's sites apart, labelled by its meta arch, worst first: judged sites before those with too few keys, those that pick a bucket before those that pick none, then by the verdict under old (broken, skewed, ok, even), then by X^2/df under old, then under new, both largest first, then in the file's order. Under each site, what its hash picks: chained, tree or locks (its named table's kind, else its file:line's entry in the table of census sites of its kernel, 6.1 or 6.12), other or unknown. A site of kind other picks no bucket, so it has no cost and no verdict: 'feeds another hash' where its entry names the hash its value goes on into (and the call on its line that picks the bucket, with that call's verdict), else 'no bucket'; the summary counts them apart from the verdicts, and the figure paints them grey. Per generation the cost that kind pays, beside a random function's (CSV and JSON: kind, kind_from, indexes, cost, cost_random, cost_vs_random; a site of unknown kind has only the six cost figures). A malformed line is an error naming file:line. With --atlas (kernel/atlas/README.md), each file's summary is followed by how many of the atlas's sites Debian builds (y and m) the census reached at their file:line or where their macro is used, and every built site it never reached, by class: not in the census kernel (no site and no 'not called' comment of the census there) or compiled but not called, each with a hint from its path (hardware: drivers/, sound/, arch/; kvm: virt/, arch/x86/kvm/, arch/x86/kernel/kvm*; else workload); and a table by subsystem of the rows in the tree, built (y or m), modules, reached of the built (and % of them) and reached of the rest (h, n, ?), whose columns sum to those figures. A site's subsystem is the first directory of its path, and under arch/, drivers/, fs/ and net/ the next one too (arch/x86, drivers/net, fs/btrfs, net/ipv4; fs/namei.c is fs): the text gives each first directory and under it the deeper subsystems the census reached, then all. JSON adds an atlas object per file (with every subsystem, deeper ones included), CSV nothing.",
		KB_OPT(FORMAT) | KB_OPT(PLOT) | KB_OPT(OUTPUT) | KB_OPT(ATLAS),
		TEXT_CSV_JSON, UINT_MAX, "census files, - for standard input",
		NULL, 0, "FILE...", 0, 0, 0 },
	{
		"advise", kb_cmd_advise,
		{ CELL_KEYS(KB_OPT(SEED)), MAYBE_K },
		"what a table should hash its keys with: every candidate ranked by what it costs",
		"Hashes the distinct keys of a key set, a key file, a census site or a named table's key model (a table whose key is hashed as it is or shifted) into 2^bits buckets (1..32; a site's or table's own bits by default) with the table's own function (--func, default hash_ptr, or the site's or table's; --gen, default new; a site's word is its file's) and every candidate: today's hash.h, the key shifted right by the low zero bits its differences share (as btrfs did), hash_32 where the keys fit 32 bits (what hash_min() does with a u32), the key itself, jhash_1word or jhash_2words, hsiphash_1u32 or hsiphash_2u32 and siphash_1u64 (keyed, from --seed), and --multiplier K's own product. Ranks them by what their skew costs the table (--kind, else a census site's or named table's own: compares per lookup in chained buckets, keys searched in trees, others met on locks) over what a random function costs at the same load, says which are keyed, times each one's hash as 'speed' does, and ends with one line of advice. It advises a change only where the keys favour it beyond a random function's noise and it costs less in at least 3 in 4 of " KB_STRINGIFY(KB_ADVISE_RELAYOUTS) " re-layouts of the keys (fewer beyond 2^17 keys), drawn from --seed: the keys' runs (keys at most a unit apart: 4 KiB, or the power of two their differences share if larger) moved whole to random units of their span, each key's offset in its unit kept; else it says there is no clear winner: keep it.",
		CELL_KEYS_OPTIONS | KB_OPT(GEN) | KB_OPT(KIND) | KB_OPT(CANDIDATES) | KB_OPT(YES),
		TEXT_CSV_JSON, 0, NULL, "keys in the key set or table's key model", 4096, NULL, 0, 0, KB_OWN_MULTIPLIER },
	{
		"explain", kb_cmd_explain,
		{ CELL_KEYS(0), { KB_ANY_OF, { { KB_OPT(GEN), 0, 0 }, K_ALT } } },
		"why one cell's keys collide: the key differences behind the excess",
		"Takes the keys as advise does and one cell (--func, default hash_ptr; --gen, default new, or --multiplier's generation K; --word; --bits) and groups the key pairs that share a bucket by their difference d: how many pairs differ by d, how many of them share a bucket, where d*K mod 2^w falls against a bucket's width (2^(w-bits)) and the chance max(0, 1 - |d*K|/width) that such a pair shares one, and the pairs each d has over a random function's, biggest first (none, and one line saying there is nothing to explain, where the shared pairs exceed a random function's by no more than " KB_STRINGIFY(KB_NOISE_SDS) " of its standard deviations). Sums that chance over every pair for the colliding pairs the differences predict, beside those observed and a random function's; and reports the keys' alignment, the gcd of their differences, the commonest gaps between consecutive keys, their 4 KiB pages and the gcd within a page (a slab's object size), and the multiplier's longest run of equal bits. At most " KB_STRINGIFY(KB_EXPLAIN_MAX_KEYS) " distinct keys (every pair is visited).",
		CELL_KEYS_OPTIONS,
		TEXT_CSV_JSON, 0, NULL, "keys in the key set or table's key model", 4096, NULL, 0, 0, 0 },
};

const unsigned kb_command_count = sizeof(kb_commands) / sizeof(kb_commands[0]);

const struct kb_example kb_examples[] = {
	{ "report --keysets page4k,btrfs-stripe --funcs hash_64 --words 64",
	  "the 2016 story: page and stripe addresses through hash_64, old beside new, at every table size" },
	{ "skew --keyset page4k --func hash_64 --gen all --word 64 --bits 11",
	  "one table of 2^11 buckets of page addresses, a verdict for each generation" },
	{ "hash --func hash_ptr --gen new --bits 10 keys.txt",
	  "the bucket of every key of keys.txt, in order" },
	{ "influence --func hash_32 --gen old --bits 10",
	  "which input bits the old hash_32 never lets reach an output bit" },
	{ "audit --compare", "every known multiplier, side by side" },
	{ "waittable --word 32", "the 2002 page wait tables on a 32-bit kernel" },
	{ "speed --part hashes", "how fast each hash is, beside the bare arithmetic" },
	{ "keys --keyset slab --size 192 --count 1000 -o slab.txt",
	  "1000 addresses of 192-byte slab objects as a key file" },
	{ "tables --words 64", "every named kernel table on a 64-bit kernel, under every generation" },
	{ "list", "the key sets with their formulas, the functions and the generations" },
	{ "census census.txt", "the call sites a census file recorded, judged under every generation" },
	{ "advise --keys slab.txt --bits 10",
	  "which hash a table of 2^10 buckets should give those keys" },
	{ "explain --keys slab.txt --bits 10 --func hash_ptr --gen new",
	  "which key differences make those keys collide under hash_ptr" },
};

const unsigned kb_example_count = sizeof(kb_examples) / sizeof(kb_examples[0]);

const struct kb_command *kb_command_find(const char *name)
{
	unsigned i;

	for (i = 0; i < kb_command_count; i++)
		if (!strcmp(name, kb_commands[i].name))
			return &kb_commands[i];
	return NULL;
}

/* Functions that index a table: those that take bits in some cell. */
static int takes_bits(lkh_func f)
{
	return lkh_bits_max(f, LKH_GEN_NEW, 64) > 0 ||
	       lkh_bits_max(f, LKH_GEN_NEW, 32) > 0;
}

/* The bucket functions (funcs 1) or the generations (0; -1: hash.h's,
 * K aside), joined by sep. */
static const char *name_list(char *out, size_t len, const char *sep, int funcs)
{
	size_t used = 0;
	unsigned i, n = funcs > 0 ? LKH_FUNC_COUNT : funcs ? LKH_GEN_COUNT : KB_GEN_COUNT;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		const char *name = funcs > 0 ? lkh_func_name((lkh_func)i) : kb_gen_name((int)i);

		if (funcs > 0 && !takes_bits((lkh_func)i))
			continue;
		used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s",
					 used ? sep : "", name);
	}
	return out;
}

static int parse_uint(const char *opt, const char *s, unsigned *v)
{
	uint64_t x;

	if (!kb_parse_u64(s, &x) || x > 1u << 30)
		return kb_fail(KB_EXIT_USAGE, "invalid --%s: '%s'", opt, s);
	*v = (unsigned)x;
	return 0;
}

/* An error for kb_parse_count's or kb_parse_bytes's status, or 0. */
static int parse_sized(const char *opt, const char *s, int status)
{
	if (status == KB_NUMBER_FRACTION)
		return kb_fail(KB_EXIT_USAGE, "invalid --%s: '%s' (not a whole number)", opt, s);
	if (status == KB_NUMBER_OVERFLOW)
		return kb_fail(KB_EXIT_USAGE, "invalid --%s: '%s' (more than 64 bits)", opt, s);
	if (status != KB_NUMBER_OK)
		return kb_fail(KB_EXIT_USAGE, "invalid --%s: '%s'", opt, s);
	return 0;
}

static int parse_word(const char *s, unsigned *w)
{
	if (strcmp(s, "32") && strcmp(s, "64"))
		return kb_fail(KB_EXIT_USAGE, "invalid --word: '%s' (32 or 64)", s);
	*w = (unsigned)atoi(s);
	return 0;
}

static int parse_func(const char *s, lkh_func *f)
{
	/* Bucket-index functions only: __hash_32 and hash32_ptr take no bits. */
	char list[128];

	if (lkh_func_from_name(s, f) != LKH_OK || !takes_bits(*f))
		return kb_fail(KB_EXIT_USAGE, "unknown function '%s' (%s)", s,
			       name_list(list, sizeof(list), ", ", 1));
	return 0;
}

static int parse_gen(const char *s, int *g)
{
	char list[128];

	if (kb_gen_from_name(s, g) < 0)
		return kb_fail(KB_EXIT_USAGE, "unknown generation '%s' (%s)", s,
			       name_list(list, sizeof(list), ", ", 0));
	return 0;
}

static int parse_keyset(const char *s, int *id)
{
	*id = kb_keyset_find(s);
	if (*id < 0)
		return kb_fail(KB_EXIT_USAGE, "unknown key set '%s' (see 'khash-bench list')", s);
	return 0;
}

/* Comma-separated names into a bit mask, each parsed by one (-1 = bad);
 * order (when not NULL) gets each name's bit once, in the order given. */
static int parse_list_ordered(const char *opt, const char *s, unsigned *mask,
			      int (*one)(const char *, int *), int *order, unsigned *norder)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int rc = 0;

	*mask = 0;
	if (norder)
		*norder = 0;
	if (!copy)
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	/* strsep, not strtok: an empty name (",a", "a,,b", "a,") is an
	 * error, not skipped */
	for (save = copy; (tok = strsep(&save, ",")) != NULL && !rc;) {
		int v;

		if (!*tok) {
			rc = kb_fail(KB_EXIT_USAGE, "invalid %s: '%s' (an empty name)", opt, s);
			break;
		}
		rc = one(tok, &v);
		if (!rc && order && !(*mask & (1u << v)))
			order[(*norder)++] = v;
		if (!rc)
			*mask |= 1u << v;
	}
	free(copy);
	return rc;
}

static int parse_list(const char *opt, const char *s, unsigned *mask,
		      int (*one)(const char *, int *))
{
	return parse_list_ordered(opt, s, mask, one, NULL, NULL);
}

/* advise's candidate families, joined by ", " */
static const char *family_list(char *out, size_t len)
{
	size_t at = 0;
	int f;

	out[0] = '\0';
	for (f = 0; f < KB_FAMILY_COUNT_ && at < len; f++)
		at += (size_t)snprintf(out + at, len - at, "%s%s", f ? ", " : "",
				       kb_advise_family_name(f));
	return out;
}

static int one_family(const char *s, int *v)
{
	char list[128];

	if ((*v = kb_advise_family_find(s)) >= 0)
		return 0;
	return kb_fail(KB_EXIT_USAGE, "unknown candidate '%s' (%s)", s,
		       family_list(list, sizeof(list)));
}

static int one_func(const char *s, int *v)
{
	lkh_func f;
	int rc = parse_func(s, &f);

	*v = (int)f;
	return rc;
}

static int one_word(const char *s, int *v)
{
	unsigned w = 0;
	int rc = parse_word(s, &w);

	*v = w == 32 ? 0 : 1;
	return rc;
}

/* The names of list bits, for a LIST's default in its help (%L). */
static const char *keyset_name(int id)
{
	return kb_keysets[id].name;
}

static const char *func_name(int f)
{
	return lkh_func_name((lkh_func)f);
}

static const char *word_name(int bit)
{
	return bit ? "64" : "32"; /* one_word's bits */
}

/* KEYSET:FUNC:WORD:BITS, exactly four fields, each read strictly (no
 * sign, space or trailing text: sscanf's %u took all three). */
static int parse_hist(const char *s, struct kb_hist_req *h)
{
	char copy[128], *field[4], *p = copy;
	uint64_t bits;
	unsigned i, word;

	if (strlen(s) >= sizeof(copy))
		return kb_fail(KB_EXIT_USAGE, "invalid --hist '%s' (KEYSET:FUNC:WORD:BITS)", s);
	strcpy(copy, s);
	for (i = 0; i < 4; i++) {
		field[i] = p;
		p = strchr(p, ':');
		if ((i < 3) != (p != NULL))
			return kb_fail(KB_EXIT_USAGE, "invalid --hist '%s' (KEYSET:FUNC:WORD:BITS)", s);
		if (p)
			*p++ = '\0';
	}
	if (parse_keyset(field[0], &h->keyset) || parse_func(field[1], &h->func))
		return KB_EXIT_USAGE;
	if (strcmp(field[2], "32") && strcmp(field[2], "64"))
		return kb_fail(KB_EXIT_USAGE, "invalid --hist word '%s' (32 or 64)", field[2]);
	word = (unsigned)atoi(field[2]);
	if (!kb_parse_u64(field[3], &bits) || bits < 1 || bits > 20)
		return kb_fail(KB_EXIT_USAGE, "invalid --hist bits '%s' (1..20)", field[3]);
	h->word = word;
	h->bits = (unsigned)bits;
	return 0;
}


/* The rows' own parsers (KB_ARG_CUSTOM). */
static int opt_func(const char *arg, struct kb_args *a)
{
	char list[256];
	size_t i, used = 0;

	/* hash also computes advise's other candidates, key by key */
	if (strcmp(a->cmd->name, "hash") || lkh_func_from_name(arg, &a->func) == LKH_OK)
		return parse_func(arg, &a->func);
	a->cand = 1 + kb_candidate_find(arg);
	if (a->cand)
		return 0;
	name_list(list, sizeof(list), ", ", 1);
	for (i = 0; i < kb_candidate_names_count; i++)
		used = strlen(list), snprintf(list + used, sizeof(list) - used, ", %s",
					      kb_candidate_names[i].name);
	return kb_fail(KB_EXIT_USAGE, "unknown function '%s' (%s)", arg, list);
}

static int opt_gen(const char *arg, struct kb_args *a)
{
	int rc;

	a->gen_all = !strcmp(arg, "all");
	rc = a->gen_all ? (a->gen_mask = (1u << LKH_GEN_COUNT) - 1, 0)
			: parse_list("--gen", arg, &a->gen_mask, parse_gen);
	if (!rc && !(a->cmd->flags & KB_GEN_LIST) && (a->gen_mask & (a->gen_mask - 1)))
		rc = kb_fail(KB_EXIT_USAGE, "--gen %s: %s takes one generation (skew takes all or a list)",
			     arg, a->cmd->name);
	return rc;
}

static int opt_word(const char *arg, struct kb_args *a)
{
	return parse_word(arg, &a->word);
}

static int opt_keyset(const char *arg, struct kb_args *a)
{
	return parse_keyset(arg, &a->keyset);
}

static int opt_format(const char *arg, struct kb_args *a)
{
	if (kb_format_from_name(arg, &a->format) < 0)
		return kb_fail(KB_EXIT_USAGE, "unknown format '%s' (text, csv, json)", arg);
	return 0;
}

static int opt_hist(const char *arg, struct kb_args *a)
{
	if (a->nhist == KB_MAX_HIST)
		return kb_fail(KB_EXIT_USAGE, "at most %d --hist", KB_MAX_HIST);
	return parse_hist(arg, &a->hist[a->nhist++]);
}

static int opt_table(const char *arg, struct kb_args *a)
{
	a->table = kb_table_find(arg);
	if (a->table < 0)
		return kb_fail(KB_EXIT_USAGE, "unknown table '%s' (see 'khash-bench tables')", arg);
	return 0;
}

/* NAME=VALUE, or the value alone */
static int opt_param(const char *arg, struct kb_args *a)
{
	const char *eq = strchr(arg, '=');

	a->param_name = NULL;
	if (eq) {
		size_t len = (size_t)(eq - arg);

		if (len == 0 || len >= sizeof(a->param_name_buf))
			return kb_fail(KB_EXIT_USAGE, "invalid --param: '%s'", arg);
		memcpy(a->param_name_buf, arg, len);
		a->param_name_buf[len] = '\0';
		a->param_name = a->param_name_buf;
	}
	if (!kb_parse_u64(eq ? eq + 1 : arg, &a->param))
		return kb_fail(KB_EXIT_USAGE, "invalid --param: '%s'", arg);
	return 0;
}

#define CUSTOM(fn) KB_ARG_CUSTOM, fn, NULL, NULL
#define LIST(fn, name) KB_ARG_LIST, NULL, fn, name
#define FLAG KB_ARG_FLAG, NULL, NULL, NULL
#define STRING KB_ARG_STRING, NULL, NULL, NULL
#define UINT KB_ARG_UINT, NULL, NULL, NULL
#define U64 KB_ARG_U64, NULL, NULL, NULL
#define COUNT KB_ARG_COUNT, NULL, NULL, NULL
#define BYTES KB_ARG_BYTES, NULL, NULL, NULL
#define CHOICE KB_ARG_CHOICE, NULL, NULL, NULL
#define FIELD(m) offsetof(struct kb_args, m), sizeof(((struct kb_args *)0)->m)
#define NO_FIELD 0, 0
const struct kb_option_info kb_options[KB_OPT_COUNT_] = {
#define KB_OPTION_INFO(id, name, short_name, arg, kind, field, lo, hi, dflt, help) \
	[KB_OPT_##id] = { name, short_name, arg, kind, field, lo, hi, (uint64_t)(dflt), help },
	KB_OPTION_TABLE(KB_OPTION_INFO)
#undef KB_OPTION_INFO
};
#undef CUSTOM
#undef LIST
#undef FLAG
#undef STRING
#undef UINT
#undef U64
#undef COUNT
#undef BYTES
#undef CHOICE
#undef FIELD
#undef NO_FIELD

/* --hist may be given again: the synopsis says so */
#define KB_REPEATABLE KB_OPT(HIST)
/* outputs: given twice, one would be silently dropped */
#define KB_ONCE (KB_OPT(OUTPUT) | KB_OPT(PLOT))

uint64_t kb_command_takes(const struct kb_command *c)
{
	uint64_t takes = c->options;
	unsigned g, i;

	for (g = 0; g < KB_MAX_GROUPS; g++)
		for (i = 0; i < KB_MAX_ALTS; i++)
			takes |= c->groups[g].alt[i].key | c->groups[g].alt[i].needs |
				 c->groups[g].alt[i].takes;
	return takes;
}

/* The formats c writes, joined by sep. */
static const char *format_list(char *out, size_t len, const struct kb_command *c,
			       const char *sep)
{
	size_t used = 0;
	unsigned f;

	out[0] = '\0';
	for (f = 0; f < KB_FORMAT_COUNT; f++)
		if (c->formats & KB_FORMAT_BIT(f))
			used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s",
						 used ? sep : "", kb_format_name((enum kb_format)f));
	return out;
}

/* Append to out[len] at *used, as snprintf would, never past its end. */
static void append(char *out, size_t len, size_t *used, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
static void append(char *out, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*used += (size_t)vsnprintf(out + *used, *used < len ? len - *used : 0, fmt, ap);
	va_end(ap);
}

/* A space between words, none at the start or after an opening bracket. */
static void space(char *out, size_t len, size_t *used)
{
	if (*used && *used < len && out[*used - 1] != '(' && out[*used - 1] != '[')
		append(out, len, used, " ");
}

/* The options of mask, in the table's order: "--a ARG" each, or "[--a
 * ARG]" when optional; "-o FILE" as people type it. */
static void synopsis_options(char *out, size_t len, size_t *used, const struct kb_command *c,
			     uint64_t mask, int optional)
{
	char formats[64];
	unsigned i;

	for (i = 0; i < KB_OPT_COUNT_; i++) {
		const struct kb_option_info *o = &kb_options[i];
		const char *arg = i == KB_OPT_FORMAT ? format_list(formats, sizeof(formats), c, "|")
						     : o->arg;

		if (!(mask & (UINT64_C(1) << i)))
			continue;
		space(out, len, used);
		if (o->short_name && arg)
			append(out, len, used, "%s-%c %s", optional ? "[" : "", o->short_name, arg);
		else
			append(out, len, used, "%s--%s%s%s", optional ? "[" : "", o->name,
			       arg ? " " : "", arg ? arg : "");
		append(out, len, used, "%s%s", optional ? "]" : "",
		       KB_REPEATABLE & (UINT64_C(1) << i) ? "..." : "");
	}
}

/* A group: "(A | B)" of exclusive alternatives or one of which is
 * needed, "[A] [B]" of optional ones; an alternative is its key, what it
 * needs, then [what it takes]. */
static uint64_t synopsis_group(char *out, size_t len, size_t *used, const struct kb_command *c,
			       const struct kb_group *g)
{
	int several = g->alt[1].key != 0, optional = g->kind == KB_ANY_OF;
	uint64_t members = 0;
	unsigned i;

	for (i = 0; i < KB_MAX_ALTS && g->alt[i].key; i++) {
		const struct kb_alt *alt = &g->alt[i];

		if (i && !optional)
			append(out, len, used, " |");
		if (optional || (several && !i)) {
			space(out, len, used);
			append(out, len, used, optional ? "[" : "(");
		}
		synopsis_options(out, len, used, c, alt->key, 0);
		synopsis_options(out, len, used, c, alt->needs, 0);
		synopsis_options(out, len, used, c, alt->takes, 1);
		if (optional)
			append(out, len, used, "]");
		members |= alt->key | alt->needs | alt->takes;
	}
	if (several && !optional)
		append(out, len, used, ")");
	return members;
}

void kb_synopsis(char *out, size_t len, const struct kb_command *c)
{
	uint64_t grouped = 0;
	size_t used = 0;
	unsigned g;

	out[0] = '\0';
	for (g = 0; g < KB_MAX_GROUPS && c->groups[g].kind; g++)
		grouped |= synopsis_group(out, len, &used, c, &c->groups[g]);
	synopsis_options(out, len, &used, c, c->options & ~grouped, 1);
	if (c->operand_syntax) {
		space(out, len, &used);
		append(out, len, &used, "%s", c->operand_syntax);
	}
}

/* What kb_parse_count takes, said once for every --count. */
static const char count_forms[] =
	"; also 1k 1M 1G 1T (10^3 .. 10^12), 1Ki 1Mi 1Gi 1Ti (2^10 .. 2^40) or 1e6, whole numbers only";

/* A LIST's default as the names its parser reads back: "a, b, c" (the
 * spaces let help wrap a long one). */
static const char *default_names(char *out, size_t len, const struct kb_option_info *o)
{
	size_t used = 0;
	unsigned bit;

	out[0] = '\0';
	for (bit = 0; bit < 32; bit++)
		if (o->dflt & (UINT64_C(1) << bit))
			append(out, len, &used, "%s%s", used ? ", " : "", o->name_of((int)bit));
	return out;
}

/* An option's help where a command means other than its row says. */
static const struct {
	const char *command;
	enum kb_option_id option;
	const char *help;
} command_help[] = {
	{ "skew", KB_OPT_GEN, "generation: %G (K: --multiplier's), all, or a list G,H: a cell each" },
	{ "advise", KB_OPT_GEN, "the generation of the table's own hash: %g (default new)" },
	{ "audit", KB_OPT_MULTIPLIER, "the odd multiplier to audit" },
	{ "advise", KB_OPT_MULTIPLIER, "an odd multiplier to rank beside the kernel's hashes: the key times K mod 2^width, its top bits" },
	{ "audit", KB_OPT_WIDTH, "the multiplier's word (default: 32 if K fits)" },
	{ "advise", KB_OPT_WIDTH, "the multiplier's word (default: 32 if K fits)" },
	{ "influence", KB_OPT_ENUMERATE, "hash every input of a 32-bit argument even where floor sums count them in closed form: slower, to check them" },
};

/* The help text command c gives option o. */
static const char *help_text(const struct kb_option_info *o, const struct kb_command *c)
{
	size_t i;

	for (i = 0; c && i < sizeof(command_help) / sizeof(command_help[0]); i++)
		if (&kb_options[command_help[i].option] == o && !strcmp(command_help[i].command, c->name))
			return command_help[i].help;
	return o->help;
}

/* An option's help as command c documents it: %F, %G, %g, %C, %D and %R
 * filled in, --count's meaning and default and --format's choices from c. */
static void option_help(char *out, size_t len, const struct kb_option_info *o,
			const struct kb_command *c)
{
	const char *h = help_text(o, c);
	char list[256];
	size_t used = 0;

	if (o == &kb_options[KB_OPT_COUNT]) {
		if (c && c->count_default)
			snprintf(out, len, "%s (default %llu)%s", c->count_means,
				 (unsigned long long)c->count_default, count_forms);
		else
			snprintf(out, len, "%s%s", c ? c->count_means : "what the command counts",
				 count_forms);
		return;
	}
	if (o == &kb_options[KB_OPT_FORMAT] && c) {
		unsigned f;

		used = (size_t)snprintf(out, len, "output format:");
		for (f = 0; f < KB_FORMAT_COUNT; f++)
			if (c->formats & KB_FORMAT_BIT(f))
				used += (size_t)snprintf(out + used, used < len ? len - used : 0,
							 " %s", kb_format_name((enum kb_format)f));
		snprintf(out + used, used < len ? len - used : 0, " (default text)");
		return;
	}
	out[0] = '\0';
	for (; *h && used + 1 < len; h++) {
		const char *sub = NULL;

		if (h[0] == '%' && (h[1] == 'F' || h[1] == 'G'))
			sub = name_list(list, sizeof(list), ", ", h[1] == 'F');
		if (h[0] == '%' && h[1] == 'g')
			sub = name_list(list, sizeof(list), ", ", -1);
		if (h[0] == '%' && h[1] == 'D') {
			if (o->kind == KB_ARG_BYTES)
				kb_bytes_text(o->dflt, list, sizeof(list));
			else
				snprintf(list, sizeof(list), "%llu", (unsigned long long)o->dflt);
			sub = list;
		}
		if (h[0] == '%' && h[1] == 'R') {
			snprintf(list, sizeof(list), "%llu..%llu", (unsigned long long)o->lo,
				 (unsigned long long)o->hi);
			sub = list;
		}
		if (h[0] == '%' && h[1] == 'C')
			sub = family_list(list, sizeof(list));
		if (h[0] == '%' && h[1] == 'L')
			sub = default_names(list, sizeof(list), o);
		if (!sub) {
			out[used++] = *h;
			out[used] = '\0';
			continue;
		}
		used += (size_t)snprintf(out + used, len - used, "%s", sub);
		if (used >= len)
			break;
		h++;
	}
	if (o == &kb_options[KB_OPT_FUNC] && c && !strcmp(c->name, "hash")) {
		size_t i;

		for (i = 0; i < kb_candidate_names_count && used < len; i++)
			used += (size_t)snprintf(out + used, len - used, "%s%s", i ? ", " : "; or ",
						 kb_candidate_names[i].name);
	}
}

/* "--name ARG" or "-o, --output FILE" as a reader sees it. */
static void option_label(char *out, size_t len, const struct kb_option_info *o)
{
	if (o->short_name)
		snprintf(out, len, "-%c, --%s%s%s", o->short_name, o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(out, len, "--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
}

/* Print text from column col, wrapped before column 80, continuation
 * lines indented to column indent. */
static void wrap(FILE *to, const char *text, unsigned col, unsigned indent)
{
	const char *p = text;

	while (*p) {
		size_t word = strcspn(p, " ");

		if (col > indent && col + 1 + word > 79) {
			fprintf(to, "\n%*s", (int)indent, "");
			col = indent;
		} else if (p != text) {
			fputc(' ', to);
			col++;
		}
		fwrite(p, 1, word, to);
		col += (unsigned)word;
		p += word;
		while (*p == ' ')
			p++;
	}
	fputc('\n', to);
}

static const char intro[] =
	"Feed structured keys through every generation of Linux's hash_32/hash_64/hash_long/hash_ptr "
	"and report how evenly they fill a table of 2^bits buckets.";

void kb_usage(FILE *to)
{
	char funcs[128], gens[128], syn[1024];
	unsigned i;

	fprintf(to, "Usage: khash-bench COMMAND [OPTIONS]\n");
	wrap(to, intro, 0, 0);
	fprintf(to, "\nCommands:\n");
	for (i = 0; i < kb_command_count; i++)
		fprintf(to, "  %-10s %s\n", kb_commands[i].name, kb_commands[i].summary);
	fprintf(to, "\nSynopsis:\n");
	for (i = 0; i < kb_command_count; i++) {
		kb_synopsis(syn, sizeof(syn), &kb_commands[i]);
		fprintf(to, "  khash-bench %s%s%s\n", kb_commands[i].name, syn[0] ? " " : "", syn);
	}
	fprintf(to, "\n'khash-bench COMMAND --help' lists a command's options and what --count counts there.\n"
		    "Functions: %s   Generations: %s\n"
		    "--word is the kernel's BITS_PER_LONG (default: this build's, %u).\n"
		    "Key files: one integer per line (decimal or 0x hex, '#' comments), or\n"
		    "--binary little-endian u64.  Exit status: 0 ok, 1 runtime error, 2 usage.\n"
		    "\n  -h, --help     this text      -V, --version  version\n",
		name_list(funcs, sizeof(funcs), " ", 1),
		name_list(gens, sizeof(gens), " ", 0), lkh_bits_per_long());
}

void kb_command_usage(FILE *to, const struct kb_command *c)
{
	char label[64], help[512], syn[1024];
	uint64_t takes = kb_command_takes(c);
	unsigned i;

	kb_synopsis(syn, sizeof(syn), c);
	fprintf(to, "Usage: khash-bench %s%s%s\n\n", c->name, syn[0] ? " " : "", syn);
	wrap(to, c->description, 0, 0);
	if (c->max_operands)
		fprintf(to, "\nOperand: %s.\n", c->operands_are);
	fprintf(to, "\nOptions:\n");
	for (i = 0; i < KB_OPT_COUNT_; i++) {
		const struct kb_option_info *o = &kb_options[i];

		if (!(takes & (UINT64_C(1) << i)) && i != KB_OPT_HELP && i != KB_OPT_VERSION)
			continue;
		option_label(label, sizeof(label), o);
		option_help(help, sizeof(help), o, c);
		if (strlen(label) <= 22)
			fprintf(to, "  %-22s ", label);
		else
			fprintf(to, "  %s\n%25s", label, "");
		wrap(to, help, 25, 25);
	}
	if (takes & KB_OPT(WORD))
		fprintf(to, "\nThis build's word size is %u.\n", lkh_bits_per_long());
}

/* roff: a backslash, hyphens as minus signs, and no control character at
 * the start of a line. */
static void roff(FILE *to, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", to);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", to);
		else if (*s == '-')
			fputs("\\-", to);
		else
			fputc(*s, to);
	}
}

void kb_manpage(FILE *to, const char *date)
{
	char label[64], help[512], funcs[128], gens[128], syn[1024];
	unsigned i, j;

	fprintf(to, ".\\\" Generated from khash-bench's command table (bench/cli/cli_args.c).\n");
	fprintf(to, ".TH KHASH\\-BENCH 1 \"%s\" \"libkhash %s\" \"User Commands\"\n",
		date, lkh_version_string());
	fprintf(to, ".SH NAME\nkhash\\-bench \\- how evenly every generation of Linux's integer hashes fills a hash table\n");
	fprintf(to, ".SH SYNOPSIS\n");
	/* .SY/.YS: each command a hanging paragraph, its options never
	 * hyphenated */
	for (i = 0; i < kb_command_count; i++) {
		fprintf(to, ".SY \"khash\\-bench %s\"\n", kb_commands[i].name);
		kb_synopsis(syn, sizeof(syn), &kb_commands[i]);
		if (syn[0]) {
			roff(to, syn);
			fputc('\n', to);
		}
		fprintf(to, ".YS\n");
	}
	fprintf(to, ".SH DESCRIPTION\n");
	roff(to, intro);
	fprintf(to, "\n.PP\nFunctions: ");
	roff(to, name_list(funcs, sizeof(funcs), ", ", 1));
	fprintf(to, ".\nGenerations: ");
	roff(to, name_list(gens, sizeof(gens), ", ", 0));
	fprintf(to, ".\n.SH COMMANDS\n");
	for (i = 0; i < kb_command_count; i++) {
		const struct kb_command *c = &kb_commands[i];

		fprintf(to, ".SS %s\n", c->name);
		roff(to, c->description);
		fputc('\n', to);
		if (c->max_operands) {
			fprintf(to, ".PP\nOperand: ");
			roff(to, c->operands_are);
			fprintf(to, ".\n");
		}
		for (j = 0; j < KB_OPT_COUNT_; j++) {
			const struct kb_option_info *o = &kb_options[j];

			if (!(kb_command_takes(c) & (UINT64_C(1) << j)))
				continue;
			option_label(label, sizeof(label), o);
			option_help(help, sizeof(help), o, c);
			fprintf(to, ".TP\n.B ");
			roff(to, label);
			fputc('\n', to);
			roff(to, help);
			fputc('\n', to);
		}
	}
	fprintf(to, ".SH OPTIONS\n.TP\n.B \\-h, \\-\\-help\nThe usage of khash\\-bench, or of one command after its name, on standard output.\n"
		    ".TP\n.B \\-V, \\-\\-version\nThe version, on standard output.\n");
	fprintf(to, ".SH EXAMPLES\n");
	for (i = 0; i < kb_example_count; i++) {
		fprintf(to, ".TP\n.B khash\\-bench ");
		roff(to, kb_examples[i].args);
		fputc('\n', to);
		roff(to, kb_examples[i].what);
		fprintf(to, ".\n");
	}
	fprintf(to, ".SH FILES\nKey files hold one integer per line, decimal or hexadecimal after 0x; a '#' starts a comment, blank lines and CRLF line ends are allowed.  With\n.B \\-\\-binary\nthey are little\\-endian u64.\n");
	fprintf(to, ".SH EXIT STATUS\n0 on success, 1 for a runtime error (a file, memory), 2 for a usage error.  Every error is one line on standard error, and no partial output file is left.\n");
	fprintf(to, ".SH SEE ALSO\nThe README of libkhash, and <khash/lkh.h>.\n");
}

static int parse_option(int id, const char *arg, struct kb_args *a);

/* Store v in option o's field of a. */
static void store(struct kb_args *a, const struct kb_option_info *o, uint64_t v)
{
	char *field = (char *)a + o->offset;

	if (o->size == sizeof(uint64_t)) {
		memcpy(field, &v, sizeof(v));
	} else {
		uint32_t v32 = (uint32_t)v; /* int, unsigned and enum fields */

		memcpy(field, &v32, sizeof(v32));
	}
}

/* The defaults every command starts from: each option's row's, --count's
 * the command's, --word this build's. */
static void set_defaults(struct kb_args *a, const struct kb_command *c)
{
	unsigned i;

	memset(a, 0, sizeof(*a));
	a->cmd = c;
	for (i = 0; i < KB_OPT_COUNT_; i++)
		if (kb_options[i].size && kb_options[i].kind != KB_ARG_STRING)
			store(a, &kb_options[i], kb_options[i].dflt);
	a->word = lkh_bits_per_long();
	a->format = KB_FORMAT_TEXT;
	a->kp.count = c->count_default;
	a->gen_mask = 1u << a->gen;
}

/* getopt's tables, from the option table; ids are offset by 256. */
static void getopt_tables(struct option *longs, char *shorts)
{
	unsigned i, ns = 0;

	for (i = 0; i < KB_OPT_COUNT_; i++) {
		longs[i].name = kb_options[i].name;
		longs[i].has_arg = kb_options[i].arg ? required_argument : no_argument;
		longs[i].flag = NULL;
		longs[i].val = 256 + (int)i;
		if (kb_options[i].short_name) {
			shorts[ns++] = kb_options[i].short_name;
			if (kb_options[i].arg)
				shorts[ns++] = ':';
		}
	}
	memset(&longs[KB_OPT_COUNT_], 0, sizeof(longs[0]));
	shorts[ns] = '\0';
}

/*
 * Generation K is --multiplier's: --gen K (or a --gens list with K) needs
 * it; given alone it is the generation, and --gen all takes it too; given
 * beside generations that leave K out it would be ignored, so it is an
 * error.  audit and advise take --multiplier for their own ends.
 */
static int resolve_generations(struct kb_args *a)
{
	const unsigned k = 1u << KB_GEN_K;
	int takes_k = (kb_command_takes(a->cmd) & KB_OPT(MULTIPLIER)) &&
		      !(a->cmd->flags & KB_OWN_MULTIPLIER);
	/* report's generations are a list of its own */
	int report = (kb_command_takes(a->cmd) & KB_OPT(GENS)) != 0;
	unsigned *mask = report ? &a->ro.gens : &a->gen_mask;
	int listed = report ? KB_GIVEN(a, GENS) : KB_GIVEN(a, GEN);
	const char *opt = report ? "--gens" : "--gen";

	if ((*mask & k) && !KB_GIVEN(a, MULTIPLIER))
		return kb_fail(KB_EXIT_USAGE, "%s K needs --multiplier K", opt);
	if ((a->gen_mask & k) && !takes_k)
		return kb_fail(KB_EXIT_USAGE, "%s takes hash.h's generations, not K", a->cmd->name);
	if (takes_k && KB_GIVEN(a, MULTIPLIER)) {
		char err[256];

		/* odd and within its width, wherever it goes (inode hashes too) */
		if (kb_multiplier_check(a->multiplier,
					a->width ? a->width : kb_multiplier_width(a->multiplier, 32),
					err, sizeof(err)) < 0)
			return kb_fail(KB_EXIT_USAGE, "%s", err);
		if (!listed || a->gen_all)
			*mask = (listed || report ? *mask : 0) | k;
		else if (!(*mask & k))
			return kb_fail(KB_EXIT_USAGE, "--multiplier is generation K: name K in %s too (or leave %s out)",
				       opt, opt);
	}
	for (a->gen = 0; a->gen < KB_GEN_COUNT && !(a->gen_mask & 1u << a->gen); a->gen++)
		;
	return 0;
}

/* After the options: operands and format against the command. */
static int check_command_line(const struct kb_args *a)
{
	const struct kb_command *c = a->cmd;
	char list[64] = "";
	size_t used = 0;
	unsigned f;

	if ((unsigned)a->n_operands > c->max_operands) {
		const char *stray = a->operands[c->max_operands];

		if (c->max_operands)
			return kb_fail(KB_EXIT_USAGE, "unexpected argument '%s' (%s takes %s)",
				       stray, c->name, c->operands_are);
		return kb_fail(KB_EXIT_USAGE, "unexpected argument '%s' (%s takes no operands)",
			       stray, c->name);
	}
	if (c->formats & KB_FORMAT_BIT(a->format))
		return 0;
	for (f = 0; f < KB_FORMAT_COUNT; f++)
		if (c->formats & KB_FORMAT_BIT(f))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 used ? " or " : "",
						 kb_format_name((enum kb_format)f));
	return kb_fail(KB_EXIT_USAGE, "%s writes %s, not %s", c->name, list,
		       kb_format_name(a->format));
}

/* The options of mask as prose: "--a", "--a and --b", "--a, --b or --c". */
static const char *option_names(char *out, size_t len, uint64_t mask, const char *last)
{
	size_t used = 0;
	unsigned i, n = 0, total = (unsigned)__builtin_popcountll(mask);

	out[0] = '\0';
	for (i = 0; i < KB_OPT_COUNT_; i++)
		if (mask & (UINT64_C(1) << i))
			append(out, len, &used, "%s--%s", !n++ ? "" : n == total ? last : ", ",
			       kb_options[i].name);
	return out;
}

/* The first option of mask. */
static unsigned first_option(uint64_t mask)
{
	return (unsigned)__builtin_ctzll(mask);
}

/*
 * The command's groups against what was given: the alternatives needed,
 * what each chosen one needs, and no option of an alternative not chosen.
 */
static int check_group(const struct kb_args *a, const struct kb_group *g)
{
	uint64_t keys = 0, chosen = 0, members = 0, stray, owners = 0;
	char list[160], not_to[64] = "";
	unsigned i, n = 0;

	for (i = 0; i < KB_MAX_ALTS && g->alt[i].key; i++) {
		const struct kb_alt *alt = &g->alt[i];

		keys |= alt->key;
		members |= alt->needs | alt->takes;
		if (!(a->given & alt->key))
			continue;
		n++;
		chosen |= alt->needs | alt->takes;
	}
	if (g->kind == KB_ONE_OF && n != 1)
		return kb_fail(KB_EXIT_USAGE, "%s needs %s%s", a->cmd->name,
			       g->alt[1].key ? "exactly one of " : "",
			       option_names(list, sizeof(list), keys, " and "));
	if (g->kind == KB_SOME_OF && n == 0)
		return kb_fail(KB_EXIT_USAGE, "%s needs %s", a->cmd->name,
			       option_names(list, sizeof(list), keys, " or "));
	for (i = 0; i < KB_MAX_ALTS && g->alt[i].key; i++)
		if ((a->given & g->alt[i].key) && (g->alt[i].needs & ~a->given))
			return kb_fail(KB_EXIT_USAGE, "--%s needs --%s",
				       kb_options[first_option(g->alt[i].key)].name,
				       kb_options[first_option(g->alt[i].needs & ~a->given)].name);
	stray = a->given & members & ~chosen & ~keys;
	if (!stray)
		return 0;
	for (i = 0; i < KB_MAX_ALTS && g->alt[i].key; i++)
		if ((g->alt[i].needs | g->alt[i].takes) & (UINT64_C(1) << first_option(stray)))
			owners |= g->alt[i].key;
	if (g->kind == KB_ONE_OF)
		snprintf(not_to, sizeof(not_to), ", not to --%s",
			 kb_options[first_option(a->given & keys)].name);
	return kb_fail(KB_EXIT_USAGE, "--%s applies to %s%s", kb_options[first_option(stray)].name,
		       option_names(list, sizeof(list), owners, " or "), not_to);
}

static int check_groups(const struct kb_args *a)
{
	unsigned g;
	int rc;

	for (g = 0; g < KB_MAX_GROUPS && a->cmd->groups[g].kind; g++)
		if ((rc = check_group(a, &a->cmd->groups[g])))
			return rc;
	return 0;
}

/*
 * What getopt refused in word w ("--name" or "--name=value"), said as GNU
 * says it: unknown, ambiguous (a prefix of several), a value missing, or
 * a value given to a flag.
 */
static int bad_long_option(const char *w)
{
	const char *name = w + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name), used = 0;
	unsigned i, n = 0, match = 0;
	char list[256] = "";

	if (strncmp(w, "--", 2))
		return kb_fail(KB_EXIT_USAGE, "unknown option '%s' (try --help)", w);
	for (i = 0; i < KB_OPT_COUNT_; i++)
		if (!strncmp(kb_options[i].name, name, len)) {
			if (strlen(kb_options[i].name) == len) { /* exact: the only one */
				n = 1;
				match = i;
				break;
			}
			append(list, sizeof(list), &used, "%s--%s", n ? ", " : "", kb_options[i].name);
			n++;
			match = i;
		}
	if (n > 1)
		return kb_fail(KB_EXIT_USAGE, "option '--%.*s' is ambiguous (%s)", (int)len, name, list);
	if (n == 0)
		return kb_fail(KB_EXIT_USAGE, "unknown option '--%.*s' (try --help)", (int)len, name);
	if (!kb_options[match].arg)
		return kb_fail(KB_EXIT_USAGE, "option '--%s' takes no value", kb_options[match].name);
	return kb_fail(KB_EXIT_USAGE, "option '--%s' needs a value (%s)", kb_options[match].name,
		       kb_options[match].arg);
}

int kb_parse_args(int argc, char **argv, struct kb_args *a)
{
	struct option longs[KB_OPT_COUNT_ + 1];
	char shorts[2 * KB_OPT_COUNT_ + 1];
	const struct kb_command *c = NULL;
	uint64_t takes;
	unsigned i;
	int ch, rc;

	if (argc > 0)
		c = kb_command_find(argv[0]);
	if (!c)
		return kb_fail(KB_EXIT_USAGE, "unknown command '%s' (try --help)",
			       argc > 0 ? argv[0] : "");
	set_defaults(a, c);
	takes = kb_command_takes(c);
	getopt_tables(longs, shorts);
	opterr = 0;
	/* GNU: --help and --version win over anything wrong beside them, so
	 * look for them first (getopt knows which words are option values) */
	optind = 0; /* GNU: a full reset, so the parser can run more than once */
	while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1)
		if (ch == 256 + KB_OPT_HELP || ch == 'h')
			a->action = KB_HELP;
		else if ((ch == 256 + KB_OPT_VERSION || ch == 'V') && a->action != KB_HELP)
			a->action = KB_VERSION;
	if (a->action != KB_RUN)
		return 0;
	optind = 0;
	while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		int id = ch >= 256 ? ch - 256 : -1;

		for (i = 0; id < 0 && i < KB_OPT_COUNT_; i++)
			if (ch == kb_options[i].short_name)
				id = (int)i;
		if (id < 0) {
			for (i = 0; optopt && optopt < 256 && i < KB_OPT_COUNT_; i++)
				if (kb_options[i].short_name == optopt) /* known: its value missing */
					return kb_fail(KB_EXIT_USAGE, "option '-%c' needs a value (%s)",
						       optopt, kb_options[i].arg);
			if (optopt && optopt < 256)
				return kb_fail(KB_EXIT_USAGE, "unknown option '-%c' (try --help)", optopt);
			return bad_long_option(argv[optind - 1]);
		}
		if (!(takes & (UINT64_C(1) << id)))
			return kb_fail(KB_EXIT_USAGE, "option '--%s' is not used by '%s' (see 'khash-bench %s --help')",
				       kb_options[id].name, c->name, c->name);
		/* the last value wins, as in getopt tools (a script's base
		 * command line, then an override), but an output named twice is
		 * refused, as GNU sort's -o: one of them would never be written */
		if ((a->given & KB_ONCE) & (UINT64_C(1) << id))
			return kb_fail(KB_EXIT_USAGE, "--%s given twice", kb_options[id].name);
		a->given |= UINT64_C(1) << id;
		if ((rc = parse_option(id, optarg, a)))
			return rc;
	}
	a->operands = argv + optind;
	a->n_operands = argc - optind;
	if (c->count_max && (a->kp.count < c->count_min || a->kp.count > c->count_max))
		return kb_fail(KB_EXIT_USAGE, "--count %llu out of range for %s: %llu..%llu",
			       (unsigned long long)a->kp.count, c->name,
			       (unsigned long long)c->count_min,
			       (unsigned long long)c->count_max);
	a->kp.has_base = KB_GIVEN(a, BASE);
	a->kp.has_stride = KB_GIVEN(a, STRIDE);
	if ((rc = check_groups(a)) || (rc = resolve_generations(a)))
		return rc;
	return check_command_line(a);
}

/* A CHOICE: which of o's '|'-separated names arg is, or -1. */
static int choice(const struct kb_option_info *o, const char *arg)
{
	const char *p = o->arg;
	size_t n = strlen(arg);
	int i;

	for (i = 0; *p; i++) {
		size_t len = strcspn(p, "|");

		if (len == n && !strncmp(p, arg, n))
			return i;
		p += len + (p[len] == '|');
	}
	return -1;
}

/* o's choices as prose: "a, b or c". */
static const char *choices(char *out, size_t len, const struct kb_option_info *o)
{
	const char *p = o->arg;
	size_t used = 0;

	out[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, "|");

		append(out, len, &used, "%s%.*s", !used ? "" : p[n] ? ", " : " or ", (int)n, p);
		p += n + (p[n] == '|');
	}
	return out;
}

/* Option id's argument into its field, as its row says. */
static int parse_option(int id, const char *arg, struct kb_args *a)
{
	const struct kb_option_info *o = &kb_options[id];
	char list[128];
	uint64_t v = 1;
	unsigned u = 0;
	int rc = 0, i;

	switch (o->kind) {
	case KB_ARG_CUSTOM:
		return o->parse(arg, a);
	case KB_ARG_FLAG:
		break;
	case KB_ARG_STRING:
		if (!*arg) /* a file, folder or name: never empty */
			return kb_fail(KB_EXIT_USAGE, "empty --%s", o->name);
		memcpy((char *)a + o->offset, &arg, sizeof(arg));
		return 0;
	case KB_ARG_UINT:
		if ((rc = parse_uint(o->name, arg, &u)))
			return rc;
		v = u;
		break;
	case KB_ARG_U64:
		if (!kb_parse_u64(arg, &v))
			return kb_fail(KB_EXIT_USAGE, "invalid --%s: '%s'", o->name, arg);
		break;
	case KB_ARG_COUNT:
		rc = parse_sized(o->name, arg, kb_parse_count(arg, &v));
		break;
	case KB_ARG_BYTES:
		if ((rc = parse_sized(o->name, arg, kb_parse_bytes(arg, &v))))
			return rc;
		if (o->hi && (v < o->lo || v > o->hi))
			return kb_fail(KB_EXIT_USAGE, "invalid --%s: '%s' (%llu..%llu bytes)", o->name,
				       arg, (unsigned long long)o->lo, (unsigned long long)o->hi);
		break;
	case KB_ARG_LIST:
		snprintf(list, sizeof(list), "--%s", o->name);
		/* report's key sets come in the order named */
		if ((rc = id == KB_OPT_KEYSETS
				  ? parse_list_ordered(list, arg, &u, o->one, a->ro.keyset_order,
						       &a->ro.n_order)
				  : parse_list(list, arg, &u, o->one)))
			return rc;
		v = u;
		break;
	case KB_ARG_CHOICE:
		if ((i = choice(o, arg)) < 0)
			return kb_fail(KB_EXIT_USAGE, "invalid --%s: '%s' (%s)", o->name, arg,
				       choices(list, sizeof(list), o));
		v = arg[0] >= '0' && arg[0] <= '9' ? strtoull(arg, NULL, 10) : o->lo + (unsigned)i;
		break;
	}
	if (rc)
		return rc;
	if ((o->kind == KB_ARG_UINT || o->kind == KB_ARG_COUNT) && v < o->lo && !o->hi)
		return kb_fail(KB_EXIT_USAGE, "--%s must be at least %llu", o->name,
			       (unsigned long long)o->lo);
	if (o->kind == KB_ARG_UINT && o->hi && (v < o->lo || v > o->hi))
		return kb_fail(KB_EXIT_USAGE, "--%s %llu out of range: %llu..%llu", o->name,
			       (unsigned long long)v, (unsigned long long)o->lo,
			       (unsigned long long)o->hi);
	if (o->size)
		store(a, o, v);
	return 0;
}
