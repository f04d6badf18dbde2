/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "cli_args.h"

#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh_table.h>

#include "advise.h"
#include "census.h"
#include "explain.h"
#include "number.h"
#include "tables.h"

static const char *prog = "khash-bench";

int kb_fail(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

int kb_plot_outcome(int rc, const char *err)
{
	if (rc < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	if (rc > 0)
		fprintf(stderr, "%s: warning: %s\n", prog, err);
	return 0;
}

const struct kb_option_info kb_options[KB_OPT_COUNT_] = {
#define KB_OPTION_INFO(id, name, short_name, arg, help) \
	[KB_OPT_##id] = { name, short_name, arg, help },
	KB_OPTION_TABLE(KB_OPTION_INFO)
#undef KB_OPTION_INFO
};

#define KEYSET_OPTIONS (KB_OPT(COUNT) | KB_OPT(BASE) | KB_OPT(STRIDE) | KB_OPT(SEED) | KB_OPT(SIZE))
/* advise's and explain's keys: what cell_keys() in khash_bench.c takes */
#define CELL_KEYS_SYNOPSIS \
	"((--keyset NAME [--count N] [--base N] [--stride N] [--seed N] [--size BYTES] | --keys FILE [--binary]) --bits N | --census FILE --site FILE:LINE|ID [--bits N] | --table NAME [--count N] [--seed N] [--bits N])"
#define CELL_KEYS_OPTIONS                                                                   \
	(KEYSET_OPTIONS | KB_OPT(KEYSET) | KB_OPT(KEYS) | KB_OPT(BINARY) | KB_OPT(CENSUS) |   \
	 KB_OPT(SITE) | KB_OPT(TABLE) | KB_OPT(FUNC) | KB_OPT(GEN) | KB_OPT(WORD) | KB_OPT(BITS) | \
	 KB_OPT(FORMAT) | KB_OPT(OUTPUT) | KB_OPT(MAX_MEMORY))
/* generation K: a multiplier of the user's, where a generation is taken */
#define GEN_OR_K "(--gen G | --multiplier K [--width 32|64])"
#define GEN_K_OPTIONS (KB_OPT(MULTIPLIER) | KB_OPT(WIDTH))
#define TEXT_CSV_JSON (KB_FORMAT_BIT(KB_FORMAT_TEXT) | KB_FORMAT_BIT(KB_FORMAT_CSV) | KB_FORMAT_BIT(KB_FORMAT_JSON))

const struct kb_command kb_commands[KB_CMD_COUNT_] = {
	[KB_CMD_REPORT] = {
		"report",
		"[--hist KEYSET:FUNC:WORD:BITS]...",
		"the main job: every key set x function x generation x word size x bits, old beside new",
		"Counts every chosen key set through every chosen function, generation and word size into 2^bits-min .. 2^bits-max buckets (counted once at the largest table and folded down) and prints X^2/df per table size: 1 for a random function, far above 1 for a skewed hash. Marks: # broken (X^2/df >= " KB_STRINGIFY(KB_BROKEN) "), ! skewed (upper tail p < " KB_STRINGIFY(KB_ALPHA) "), ~ more even than random (lower tail p < " KB_STRINGIFY(KB_ALPHA) "), ? too few keys for a verdict (a random function would put fewer than " KB_STRINGIFY(KB_MIN_PAIRS) " pairs of them in a shared bucket). With --keys FILE the sweep is over the distinct keys of a key file instead of the key sets. Ends with a summary per generation.",
		KEYSET_OPTIONS | KB_OPT(FORMAT) | KB_OPT(PLOT) | KB_OPT(BITS_MIN) | KB_OPT(BITS_MAX) |
			KB_OPT(KEYSETS) | KB_OPT(FUNCS) | KB_OPT(GENS) | KB_OPT(WORDS) | KB_OPT(STEP) |
			KB_OPT(HIST) | KB_OPT(OUTPUT) | KB_OPT(MAX_MEMORY) | KB_OPT(THREADS) |
			KB_OPT(QUIET) | KB_OPT(ENUMERATE) | KB_OPT(KEYS) | KB_OPT(BINARY) |
			GEN_K_OPTIONS,
		TEXT_CSV_JSON, 0, NULL, "keys per key set", 65536, NULL, 0, 0 },
	[KB_CMD_SKEW] = {
		"skew",
		"(--func F --bits N | --table NAME [--param [NAME=]N] [--bits N]) " GEN_OR_K " (--keyset NAME [--count N] [--base N] [--stride N] [--seed N] [--size BYTES] [--enumerate] | --keys FILE [--binary] [--distinct])",
		"one cell: how evenly one function spreads a key set or a key file",
		"Counts a built-in key set or the keys of a file through one function, generation and word size into 2^bits buckets, or through a named kernel table (its key transform, function and bits), and prints Pearson's X^2, both tail probabilities, buckets used, the maximum load and what a random function would give, and a verdict (broken, skewed, ok, even, or too few keys where a random function would put fewer than " KB_STRINGIFY(KB_MIN_PAIRS) " pairs of them in a shared bucket, with the keys the table would need). --gen takes all or a list: a cell each. --plot draws the bucket loads, a panel a generation.",
		KEYSET_OPTIONS | KB_OPT(FUNC) | KB_OPT(GEN) | KB_OPT(WORD) | KB_OPT(BITS) |
			KB_OPT(KEYSET) | KB_OPT(KEYS) | KB_OPT(BINARY) | KB_OPT(DISTINCT) | KB_OPT(FORMAT) |
			KB_OPT(OUTPUT) | KB_OPT(MAX_MEMORY) | KB_OPT(THREADS) | KB_OPT(TABLE) |
			KB_OPT(PARAM) | KB_OPT(QUIET) | KB_OPT(ENUMERATE) | KB_OPT(PLOT) |
			GEN_K_OPTIONS,
		TEXT_CSV_JSON, 0, NULL, "keys in the key set", 4096, NULL, 0, 0 },
	[KB_CMD_HASH] = {
		"hash",
		"(--func F --bits N | --table NAME [--param [NAME=]N] [--bits N]) " GEN_OR_K,
		"print each key's hash, 0x-prefixed lowercase hex, in input order",
		"Reads a key file (standard input when FILE is - or missing) and prints the hash of every key, one a line, in input order, exactly as the chosen kernel computed it; with --table, the bucket that kernel table puts it in.",
		KB_OPT(FUNC) | KB_OPT(GEN) | KB_OPT(WORD) | KB_OPT(BITS) | KB_OPT(BINARY) |
			KB_OPT(FORMAT) | KB_OPT(OUTPUT) | KB_OPT(TABLE) | KB_OPT(PARAM) |
			GEN_K_OPTIONS,
		KB_FORMAT_BIT(KB_FORMAT_TEXT), 1, "one key file, or - for standard input", NULL, 0,
		"[FILE|-]", 0, 0 },
	[KB_CMD_INFLUENCE] = {
		"influence",
		"--func F " GEN_OR_K " --bits N",
		"P(flipping input bit j flips output bit k), as a map and a summary",
		"Measures, for every input bit j and output bit k, the probability that flipping bit j of the key flips bit k of the hash, over seeded random keys or every key of a 32-bit argument. An ideal hash gives 1/2 everywhere; a multiplicative hash can never reach output bits below the input bit.",
		KB_OPT(FUNC) | KB_OPT(GEN) | KB_OPT(WORD) | KB_OPT(BITS) | KB_OPT(COUNT) |
			KB_OPT(SEED) | KB_OPT(FORMAT) | KB_OPT(PLOT) | KB_OPT(OUTPUT) |
			KB_OPT(THREADS) | KB_OPT(QUIET) | KB_OPT(ENUMERATE) | GEN_K_OPTIONS,
		TEXT_CSV_JSON, 0, NULL,
		"random keys sampled; 4294967296 or more: every key of a 32-bit argument", 65536, NULL, 0, 0 },
	[KB_CMD_AUDIT] = {
		"audit",
		"(--multiplier K [--width 32|64] | --preset NAME | --compare)",
		"what to know about a multiplier before using it",
		"Reports a multiplier's parity, popcount and longest run of equal bits, the cost of a shift-and-add chain (non-adjacent form), the continued fraction of K/2^w, the worst stride among s, 3s, 5s, 7s (s a power of two) for 2^6..2^16 buckets, and its skew over the built-in key sets; --compare does it for every preset.",
		KB_OPT(MULTIPLIER) | KB_OPT(WIDTH) | KB_OPT(PRESET) | KB_OPT(COMPARE) |
			KB_OPT(FORMAT) | KB_OPT(PLOT) | KB_OPT(OUTPUT),
		TEXT_CSV_JSON, 0, NULL, NULL, 0, NULL, 0, 0 },
	[KB_CMD_WAITTABLE] = {
		"waittable",
		"",
		"the 2002 page wait tables: waiters woken for nothing, old vs new vs random",
		"Simulates the hashed page wait tables of 2002: each zone hashes struct page pointers into pages/256 queues (a power of two, at most 4096), and unlocking a page wakes every waiter in its queue. Prints the mean number of waiters woken for nothing per unlock, old multiplier against new against a random function, for pages anywhere in the zone and for a run of consecutive pages.",
		KB_OPT(COUNT) | KB_OPT(WORD) | KB_OPT(SEED) | KB_OPT(FORMAT) | KB_OPT(PLOT) |
			KB_OPT(OUTPUT),
		TEXT_CSV_JSON, 0, NULL,
		"pages waited on, " KB_STRINGIFY(KB_WAITERS_MIN) ".." KB_STRINGIFY(KB_WAITERS_MAX), 100,
		NULL, KB_WAITERS_MIN, KB_WAITERS_MAX },
	[KB_CMD_SPEED] = {
		"speed",
		"",
		"benchmarks: every hash beside the bare arithmetic, the engine beside the naive loop",
		"Times every hash inline and through the library's exported symbol, each beside a hand-written reference loop in the same binary, and the counting engine beside the naive loop; prints figures, never verdicts: the fastest, median and mean of each one's rounds, their spread ((slowest - fastest) / median) and how many there were. The engine's part says which cache sizes its choice of path rests on and where each was read (the kernel's tables, else the C library's CPUID figure, which a virtual machine may take from its host); --part grid times the engine's choice against the naive loop at every count 2^12..2^28 and table size 2^6..2^24.",
		KB_OPT(BITS) | KB_OPT(COUNT) | KB_OPT(THREADS) | KB_OPT(FORMAT) | KB_OPT(OUTPUT) |
			KB_OPT(QUIET) | KB_OPT(PART),
		TEXT_CSV_JSON, 0, NULL,
		"keys the counting engine counts at each table size", UINT64_C(1) << 27, NULL, 0, 0 },
	[KB_CMD_KEYS] = {
		"keys",
		"--keyset NAME",
		"write a key set as a key file (0x hex lines, or little-endian u64)",
		"Writes a built-in key set as a key file that any machine reads back the same: 0x hex, one key a line, or little-endian u64 with --binary. The adversarial set needs the cell it is built against: --func, --gen and --bits.",
		KEYSET_OPTIONS | KB_OPT(KEYSET) | KB_OPT(WORD) | KB_OPT(BINARY) | KB_OPT(OUTPUT) |
			KB_OPT(FUNC) | KB_OPT(GEN) | KB_OPT(BITS) | KB_OPT(MAX_MEMORY) |
			KB_OPT(FORMAT) | GEN_K_OPTIONS,
		KB_FORMAT_BIT(KB_FORMAT_TEXT), 0, NULL, "keys to write", 4096, NULL, 0, 0 },
	[KB_CMD_TABLES] = {
		"tables",
		"",
		"named kernel tables: real 6.1 call sites under every generation",
		"Lists the named tables (the key transform, function and bits of a real Linux 6.1 call site, with its file:line) and counts each one's natural key model through every generation and word size, and, with --kernel-keys, the real kernel keys that fit it.",
		KB_OPT(COUNT) | KB_OPT(SEED) | KB_OPT(WORDS) | KB_OPT(KERNEL_KEYS) | KB_OPT(FORMAT) |
			KB_OPT(PLOT) | KB_OPT(OUTPUT) | KB_OPT(QUIET) | GEN_K_OPTIONS,
		TEXT_CSV_JSON, 0, NULL, "keys of each table's key model", 4096, NULL, 0, 0 },
	[KB_CMD_LIST] = {
		"list", "", "key sets (with formulas), functions and generations",
		"Lists the built-in key sets with their formulas, the functions that index a table, the generations with their kernels and multipliers, and the word sizes.",
		0, KB_FORMAT_BIT(KB_FORMAT_TEXT), 0, NULL, NULL, 0, NULL, 0, 0 },
	[KB_CMD_CENSUS] = {
		"census",
		"",
		"the hash call sites a kernel reached, judged under every generation",
		"Reads census files (khash-census 1: the call sites of hash_32, hash_64, hash_long, hash_ptr, hash32_ptr, __hash_32, fs/inode.c hash() and btrfs_inode_hash() a running kernel reached, with a sample of their keys), and hashes each site's distinct keys again with every generation on the file's word size: through the named table at the site's file:line where there is one, and for inode_hash and btrfs_inode_hash through fs/inode.c hash() as the inode-hash table computes it; a btrfs_inode_hash key, whose record holds no super block, takes the super block and i_hash_shift of the file's hash() record that holds its value under 6.1 (else the super block most of its site's keys found, else the table's). A site's table has 2^bits buckets: its bits, else its named table's, else the 32 bits the function returns. It is judged at 2^at buckets, the largest at <= bits where a random function would put " KB_STRINGIFY(KB_MIN_PAIRS) " pairs of its n distinct keys in a shared bucket (n(n-1)/2^(at+1) >= " KB_STRINGIFY(KB_MIN_PAIRS) "), which keeps the chi-squared tail within a factor of 3 of the false-alarm rate it claims; a smaller table than the site's sums adjacent buckets (their top bits), and a site that cannot reach it with 2 buckets has 'too few keys'. Prints per site and generation X^2/df, buckets used, the maximum load and the verdict (broken, skewed, ok, even, as skew gives them), each file's sites apart, labelled by its meta arch, worst first: judged sites before those with too few keys, then by the verdict under old (broken, skewed, ok, even), then by X^2/df under old, then under new, both largest first, then in the file's order. Under each site, what its hash picks: chained, tree or locks (its named table's kind, else its file:line's entry in the table of Linux 6.1's census sites), other (no bucket, so no cost) or unknown; and per generation the cost that kind pays, beside a random function's (CSV and JSON: kind, kind_from, indexes, cost, cost_random, cost_vs_random; a site of unknown kind has only the six cost figures). A malformed line is an error naming file:line. With --atlas (kernel/atlas/README.md), each file's summary is followed by how many of the atlas's sites Debian builds (y and m) the census reached at their file:line or where their macro is used, and every built site it never reached, by class: not in the census kernel (no site and no 'not called' comment of the census there) or compiled but not called, each with a hint from its path (hardware: drivers/, sound/, arch/; kvm: virt/, arch/x86/kvm/, arch/x86/kernel/kvm*; else workload); JSON adds an atlas object per file, CSV nothing.",
		KB_OPT(FORMAT) | KB_OPT(PLOT) | KB_OPT(OUTPUT) | KB_OPT(ATLAS) | GEN_K_OPTIONS,
		TEXT_CSV_JSON, UINT_MAX, "census files, - for standard input",
		NULL, 0, "FILE...", 0, 0 },
	[KB_CMD_ADVISE] = {
		"advise",
		CELL_KEYS_SYNOPSIS,
		"what a table should hash its keys with: every candidate ranked by what it costs",
		"Hashes the distinct keys of a key set, a key file, a census site or a named table's key model (a table whose key is hashed as it is or shifted) into 2^bits buckets (1..32; a site's or table's own bits by default) with the table's own function (--func, default hash_ptr, or the site's or table's; --gen, default new; a site's word is its file's) and every candidate: today's hash.h, the key shifted right by the low zero bits its differences share (as btrfs did), hash_32 where the keys fit 32 bits (what hash_min() does with a u32), the key itself, jhash_1word or jhash_2words, hsiphash_1u32 or hsiphash_2u32 and siphash_1u64 (keyed, from --seed), and --multiplier K's own product. Ranks them by what their skew costs the table (--kind, else a census site's or named table's own: compares per lookup in chained buckets, keys searched in trees, others met on locks) over what a random function costs at the same load, says which are keyed, times each one's hash as 'speed' does, and ends with one line of advice.",
		CELL_KEYS_OPTIONS | KB_OPT(MULTIPLIER) | KB_OPT(WIDTH) | KB_OPT(KIND) |
			KB_OPT(CANDIDATES),
		TEXT_CSV_JSON, 0, NULL, "keys in the key set or table's key model", 4096, NULL, 0, 0 },
	[KB_CMD_EXPLAIN] = {
		"explain",
		CELL_KEYS_SYNOPSIS,
		"why one cell's keys collide: the key differences behind the excess",
		"Takes the keys as advise does and one cell (--func, default hash_ptr; --gen, default new, or --multiplier's generation K; --word; --bits) and groups the key pairs that share a bucket by their difference d: how many pairs differ by d, how many of them share a bucket, where d*K mod 2^w falls against a bucket's width (2^(w-bits)) and the chance max(0, 1 - |d*K|/width) that such a pair shares one, and the pairs each d has over a random function's, biggest first. Sums that chance over every pair for the colliding pairs the differences predict, beside those observed and a random function's; and reports the keys' alignment, the gcd of their differences, the commonest gaps between consecutive keys, their 4 KiB pages and the gcd within a page (a slab's object size), and the multiplier's longest run of equal bits. At most " KB_STRINGIFY(KB_EXPLAIN_MAX_KEYS) " distinct keys (every pair is visited).",
		CELL_KEYS_OPTIONS | GEN_K_OPTIONS,
		TEXT_CSV_JSON, 0, NULL, "keys in the key set or table's key model", 4096, NULL, 0, 0 },
};

/* Functions that index a table: those that take bits in some cell. */
static int takes_bits(lkh_func f)
{
	return lkh_bits_max(f, LKH_GEN_NEW, 64) > 0 ||
	       lkh_bits_max(f, LKH_GEN_NEW, 32) > 0;
}

/* The bucket functions (funcs) or the generations, joined by sep. */
static const char *name_list(char *out, size_t len, const char *sep, int funcs)
{
	size_t used = 0;
	unsigned i, n = funcs ? LKH_FUNC_COUNT : KB_GEN_COUNT;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		const char *name = funcs ? lkh_func_name((lkh_func)i) : kb_gen_name((int)i);

		if (funcs && !takes_bits((lkh_func)i))
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
		return kb_fail(KB_EXIT_USAGE, "invalid %s: '%s'", opt, s);
	*v = (unsigned)x;
	return 0;
}

/* An error for kb_parse_count's or kb_parse_bytes's status, or 0. */
static int parse_sized(const char *opt, const char *s, int status)
{
	if (status == KB_NUMBER_FRACTION)
		return kb_fail(KB_EXIT_USAGE, "invalid %s: '%s' (not a whole number)", opt, s);
	if (status == KB_NUMBER_OVERFLOW)
		return kb_fail(KB_EXIT_USAGE, "invalid %s: '%s' (more than 64 bits)", opt, s);
	if (status != KB_NUMBER_OK)
		return kb_fail(KB_EXIT_USAGE, "invalid %s: '%s'", opt, s);
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

/* Comma-separated names into a bit mask, each parsed by one (-1 = bad). */
static int parse_list(const char *opt, const char *s, unsigned *mask,
		      int (*one)(const char *, int *))
{
	char *copy = strdup(s), *tok, *save = NULL;
	int rc = 0;

	*mask = 0;
	if (!copy)
		return kb_fail(KB_EXIT_RUNTIME, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		int v;

		rc = one(tok, &v);
		if (!rc)
			*mask |= 1u << v;
	}
	free(copy);
	if (!rc && *mask == 0)
		rc = kb_fail(KB_EXIT_USAGE, "empty %s list", opt);
	return rc;
}

static int one_keyset(const char *s, int *v)
{
	return parse_keyset(s, v);
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

static int one_gen(const char *s, int *v)
{
	return parse_gen(s, v);
}

static int one_word(const char *s, int *v)
{
	unsigned w = 0;
	int rc = parse_word(s, &w);

	*v = w == 32 ? 0 : 1;
	return rc;
}

static int parse_hist(const char *s, struct kb_hist_req *h)
{
	char ks[64], fn[32];
	unsigned word, bits;
	char tail;

	if (sscanf(s, "%63[^:]:%31[^:]:%u:%u%c", ks, fn, &word, &bits, &tail) != 4)
		return kb_fail(KB_EXIT_USAGE, "invalid --hist '%s' (KEYSET:FUNC:WORD:BITS)", s);
	if (parse_keyset(ks, &h->keyset) || parse_func(fn, &h->func))
		return KB_EXIT_USAGE;
	if (word != 32 && word != 64)
		return kb_fail(KB_EXIT_USAGE, "invalid --hist word %u (32 or 64)", word);
	if (bits < 1 || bits > 20)
		return kb_fail(KB_EXIT_USAGE, "invalid --hist bits %u (1..20)", bits);
	h->word = word;
	h->bits = bits;
	return 0;
}


/* Does the synopsis text name option o ("--bits", not "--bits-min")? */
static int names_option(const char *text, const struct kb_option_info *o)
{
	size_t n = strlen(o->name);
	const char *p;

	for (p = strstr(text, "--"); p; p = strstr(p + 2, "--"))
		if (!strncmp(p + 2, o->name, n) &&
		    !(p[2 + n] == '-' || (p[2 + n] >= 'a' && p[2 + n] <= 'z')))
			return 1;
	return 0;
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

void kb_synopsis(char *out, size_t len, const struct kb_command *c)
{
	size_t used = (size_t)snprintf(out, len, "%s", c->synopsis);
	char formats[64];
	unsigned i;

	for (i = 0; i < KB_OPT_COUNT_; i++) {
		const struct kb_option_info *o = &kb_options[i];
		const char *arg = o->arg;

		if (!(c->options & (UINT64_C(1) << i)) || names_option(c->synopsis, o))
			continue;
		if (i == KB_OPT_FORMAT)
			arg = format_list(formats, sizeof(formats), c, "|");
		if (o->short_name && arg) /* -o FILE, as people type it */
			used += (size_t)snprintf(out + used, used < len ? len - used : 0,
						 "%s[-%c %s]", used ? " " : "", o->short_name, arg);
		else
			used += (size_t)snprintf(out + used, used < len ? len - used : 0,
						 "%s[--%s%s%s]", used ? " " : "", o->name,
						 arg ? " " : "", arg ? arg : "");
	}
	if (c->operand_syntax)
		snprintf(out + used, used < len ? len - used : 0, "%s%s", used ? " " : "",
			 c->operand_syntax);
}

/* What kb_parse_count takes, said once for every --count. */
static const char count_forms[] =
	"; also 1k 1M 1G 1T (10^3 .. 10^12), 1Ki 1Mi 1Gi 1Ti (2^10 .. 2^40) or 1e6, whole numbers only";

/* An option's help as command c documents it: %F, %G, %M and %C filled in,
 * --count's meaning and default and --format's choices from c. */
static void option_help(char *out, size_t len, const struct kb_option_info *o,
			const struct kb_command *c)
{
	const char *h = o->help;
	char list[128];
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
		if (h[0] == '%' && h[1] == 'M') {
			kb_bytes_text(KB_DEFAULT_MAX_MEMORY, list, sizeof(list));
			sub = list;
		}
		if (h[0] == '%' && h[1] == 'C')
			sub = family_list(list, sizeof(list));
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
	for (i = 0; i < KB_CMD_COUNT_; i++)
		fprintf(to, "  %-10s %s\n", kb_commands[i].name, kb_commands[i].summary);
	fprintf(to, "\nSynopsis:\n");
	for (i = 0; i < KB_CMD_COUNT_; i++) {
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
	unsigned i;

	kb_synopsis(syn, sizeof(syn), c);
	fprintf(to, "Usage: khash-bench %s%s%s\n\n", c->name, syn[0] ? " " : "", syn);
	wrap(to, c->description, 0, 0);
	if (c->max_operands)
		fprintf(to, "\nOperand: %s.\n", c->operands_are);
	fprintf(to, "\nOptions:\n");
	for (i = 0; i < KB_OPT_COUNT_; i++) {
		const struct kb_option_info *o = &kb_options[i];

		if (!(c->options & (UINT64_C(1) << i)) && i != KB_OPT_HELP &&
		    i != KB_OPT_VERSION)
			continue;
		option_label(label, sizeof(label), o);
		option_help(help, sizeof(help), o, c);
		if (strlen(label) <= 22)
			fprintf(to, "  %-22s ", label);
		else
			fprintf(to, "  %s\n%25s", label, "");
		wrap(to, help, 25, 25);
	}
	if (c->options & KB_OPT(WORD))
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
	for (i = 0; i < KB_CMD_COUNT_; i++) {
		if (i)
			fprintf(to, ".br\n");
		fprintf(to, ".B khash\\-bench %s\n", kb_commands[i].name);
		kb_synopsis(syn, sizeof(syn), &kb_commands[i]);
		if (syn[0]) {
			roff(to, syn);
			fputc('\n', to);
		}
	}
	fprintf(to, ".SH DESCRIPTION\n");
	roff(to, intro);
	fprintf(to, "\n.PP\nFunctions: ");
	roff(to, name_list(funcs, sizeof(funcs), ", ", 1));
	fprintf(to, ".\nGenerations: ");
	roff(to, name_list(gens, sizeof(gens), ", ", 0));
	fprintf(to, ".\n.SH COMMANDS\n");
	for (i = 0; i < KB_CMD_COUNT_; i++) {
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

			if (!(c->options & (UINT64_C(1) << j)))
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
	fprintf(to, ".SH FILES\nKey files hold one integer per line, decimal or hexadecimal after 0x; a '#' starts a comment, blank lines and CRLF line ends are allowed.  With\n.B \\-\\-binary\nthey are little\\-endian u64.\n");
	fprintf(to, ".SH EXIT STATUS\n0 on success, 1 for a runtime error (a file, memory), 2 for a usage error.  Every error is one line on standard error, and no partial output file is left.\n");
	fprintf(to, ".SH SEE ALSO\nThe README of libkhash, and <khash/lkh.h>.\n");
}

static int parse_option(int id, const char *arg, struct kb_args *a);

/* The defaults every command starts from; --count's is the command's. */
static void set_defaults(struct kb_args *a, const struct kb_command *c)
{
	memset(a, 0, sizeof(*a));
	a->cmd = c;
	a->cmd_id = (enum kb_command_id)(c - kb_commands);
	a->keyset = -1;
	a->table = -1;
	a->word = lkh_bits_per_long();
	a->format = KB_FORMAT_TEXT;
	a->kp.count = c->count_default;
	a->kp.seed = 1;
	a->gen_mask = 1u << a->gen;
	a->ro.bits_min = 6;
	a->ro.bits_max = 20;
	/* every built-in set but the per-cell adversarial one */
	a->ro.keysets = ((1u << KB_KS_COUNT) - 1) & ~(1u << KB_KS_ADVERSARIAL);
	a->ro.funcs = 1u << LKH_FUNC_HASH_32 | 1u << LKH_FUNC_HASH_64 |
		      1u << LKH_FUNC_HASH_PTR;
	a->ro.gens = (1u << LKH_GEN_COUNT) - 1; /* and K, given --multiplier */
	a->ro.words = 3;
	a->step = 2;
	a->max_memory = KB_DEFAULT_MAX_MEMORY;
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

/* After the options: operands and format against the command. */
/*
 * Generation K is --multiplier's: --gen K (or a --gens list with K) needs
 * it; given alone it is the generation, and --gen all takes it too; given
 * beside generations that leave K out it would be ignored, so it is an
 * error.  audit and advise take --multiplier for their own ends.
 */
static int resolve_generations(struct kb_args *a)
{
	const unsigned k = 1u << KB_GEN_K;
	int takes_k = (a->cmd->options & KB_OPT(MULTIPLIER)) &&
		      a->cmd_id != KB_CMD_AUDIT && a->cmd_id != KB_CMD_ADVISE;
	int report = a->cmd_id == KB_CMD_REPORT;
	unsigned *mask = report ? &a->ro.gens : &a->gen_mask;
	int listed = report ? KB_GIVEN(a, GENS) : KB_GIVEN(a, GEN);
	const char *opt = report ? "--gens" : "--gen";

	if (KB_GIVEN(a, WIDTH) && !KB_GIVEN(a, MULTIPLIER))
		return kb_fail(KB_EXIT_USAGE, "--width applies to --multiplier");
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

int kb_parse_args(int argc, char **argv, struct kb_args *a)
{
	struct option longs[KB_OPT_COUNT_ + 1];
	char shorts[2 * KB_OPT_COUNT_ + 1];
	const struct kb_command *c = NULL;
	unsigned i;
	int ch, rc;

	for (i = 0; argc > 0 && i < KB_CMD_COUNT_; i++)
		if (!strcmp(argv[0], kb_commands[i].name))
			c = &kb_commands[i];
	if (!c)
		return kb_fail(KB_EXIT_USAGE, "unknown command '%s' (try --help)",
			       argc > 0 ? argv[0] : "");
	set_defaults(a, c);
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
			if (optopt && optopt < 256)
				return kb_fail(KB_EXIT_USAGE, "unknown option '-%c' (try --help)", optopt);
			return kb_fail(KB_EXIT_USAGE, "unknown or incomplete option '%s' (try --help)",
				       argv[optind - 1]);
		}
		if (!(c->options & (UINT64_C(1) << id)))
			return kb_fail(KB_EXIT_USAGE, "option '--%s' is not used by '%s' (see 'khash-bench %s --help')",
				       kb_options[id].name, c->name, c->name);
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
	if ((rc = resolve_generations(a)))
		return rc;
	return check_command_line(a);
}

static int parse_option(int id, const char *arg, struct kb_args *a)
{
	uint64_t v;
	int rc = 0;

	switch (id) {
	case KB_OPT_FUNC:
		return parse_func(arg, &a->func);
	case KB_OPT_GEN: {
		int rc;

		a->gen_all = !strcmp(arg, "all");
		rc = a->gen_all ? (a->gen_mask = (1u << LKH_GEN_COUNT) - 1, 0)
				: parse_list("--gen", arg, &a->gen_mask, one_gen);
		if (!rc && a->cmd_id != KB_CMD_SKEW && (a->gen_mask & (a->gen_mask - 1)))
			rc = kb_fail(KB_EXIT_USAGE, "--gen %s: %s takes one generation (skew takes all or a list)",
				     arg, a->cmd->name);
		return rc;
	}
	case KB_OPT_WORD:
		return parse_word(arg, &a->word);
	case KB_OPT_BITS:
		return parse_uint("--bits", arg, &a->bits);
	case KB_OPT_KEYSET:
		return parse_keyset(arg, &a->keyset);
	case KB_OPT_KEYS:
		a->keys = arg;
		return 0;
	case KB_OPT_BINARY:
		a->binary = 1;
		return 0;
	case KB_OPT_COUNT:
		if ((rc = parse_sized("--count", arg, kb_parse_count(arg, &a->kp.count))))
			return rc;
		if (a->kp.count == 0)
			return kb_fail(KB_EXIT_USAGE, "--count must be at least 1");
		return 0;
	case KB_OPT_BASE:
		a->kp.has_base = 1;
		if (!kb_parse_u64(arg, &a->kp.base))
			return kb_fail(KB_EXIT_USAGE, "invalid --base: '%s'", arg);
		return 0;
	case KB_OPT_STRIDE:
		a->kp.has_stride = 1;
		if (!kb_parse_u64(arg, &a->kp.stride))
			return kb_fail(KB_EXIT_USAGE, "invalid --stride: '%s'", arg);
		return 0;
	case KB_OPT_SEED:
		if (!kb_parse_u64(arg, &a->kp.seed))
			return kb_fail(KB_EXIT_USAGE, "invalid --seed: '%s'", arg);
		return 0;
	case KB_OPT_SIZE:
		if ((rc = parse_sized("--size", arg, kb_parse_bytes(arg, &v))))
			return rc;
		if (v == 0 || v > KB_MAX_SIZE)
			return kb_fail(KB_EXIT_USAGE, "invalid --size: '%s' (1.." KB_STRINGIFY(KB_MAX_SIZE) " bytes)", arg);
		a->kp.size = (unsigned)v;
		return 0;
	case KB_OPT_FORMAT:
		if (kb_format_from_name(arg, &a->format) < 0)
			return kb_fail(KB_EXIT_USAGE, "unknown format '%s' (text, csv, json)", arg);
		return 0;
	case KB_OPT_PLOT:
		a->plot = arg;
		return 0;
	case KB_OPT_BITS_MIN:
		return parse_uint("--bits-min", arg, &a->ro.bits_min);
	case KB_OPT_BITS_MAX:
		return parse_uint("--bits-max", arg, &a->ro.bits_max);
	case KB_OPT_KEYSETS:
		return parse_list("--keysets", arg, &a->ro.keysets, one_keyset);
	case KB_OPT_FUNCS:
		return parse_list("--funcs", arg, &a->ro.funcs, one_func);
	case KB_OPT_GENS:
		return parse_list("--gens", arg, &a->ro.gens, one_gen);
	case KB_OPT_WORDS:
		return parse_list("--words", arg, &a->ro.words, one_word);
	case KB_OPT_STEP:
		rc = parse_uint("--step", arg, &a->step);
		if (!rc && a->step == 0)
			rc = kb_fail(KB_EXIT_USAGE, "--step must be at least 1");
		return rc;
	case KB_OPT_HIST:
		if (a->nhist == KB_MAX_HIST)
			return kb_fail(KB_EXIT_USAGE, "at most %d --hist", KB_MAX_HIST);
		return parse_hist(arg, &a->hist[a->nhist++]);
	case KB_OPT_MAX_MEMORY:
		return parse_sized("--max-memory", arg, kb_parse_bytes(arg, &a->max_memory));
	case KB_OPT_THREADS:
		rc = parse_uint("--threads", arg, &a->threads);
		if (!rc && (a->threads < 1 || a->threads > 64))
			rc = kb_fail(KB_EXIT_USAGE, "--threads %u out of range: 1..64", a->threads);
		return rc;
	case KB_OPT_QUIET:
	case KB_OPT_ENUMERATE:
	case KB_OPT_DISTINCT:
		return 0;
	case KB_OPT_PART:
		a->part = !strcmp(arg, "hashes") ? 1 : !strcmp(arg, "engine") ? 2 :
			  !strcmp(arg, "grid") ? 3 : 0;
		if (!a->part)
			return kb_fail(KB_EXIT_USAGE, "invalid --part: '%s' (hashes, engine or grid)", arg);
		return 0;
	case KB_OPT_MULTIPLIER:
		if (!kb_parse_u64(arg, &a->multiplier))
			return kb_fail(KB_EXIT_USAGE, "invalid --multiplier: '%s'", arg);
		return 0;
	case KB_OPT_CANDIDATES:
		return parse_list("--candidates", arg, &a->families, one_family);
	case KB_OPT_CENSUS:
		a->census = arg;
		return 0;
	case KB_OPT_ATLAS:
		a->atlas = arg;
		return 0;
	case KB_OPT_SITE:
		a->site = arg;
		return 0;
	case KB_OPT_KIND: {
		int k;

		for (k = 0; k < KB_KIND_COUNT_; k++)
			if (!strcmp(arg, kb_table_kind_name((enum kb_table_kind)k))) {
				a->kind = k;
				return 0;
			}
		return kb_fail(KB_EXIT_USAGE, "invalid --kind: '%s' (chained, tree or locks)", arg);
	}
	case KB_OPT_PRESET:
		a->preset = arg;
		return 0;
	case KB_OPT_WIDTH:
		if (strcmp(arg, "32") && strcmp(arg, "64"))
			return kb_fail(KB_EXIT_USAGE, "invalid --width: '%s' (32 or 64)", arg);
		a->width = (unsigned)atoi(arg);
		return 0;
	case KB_OPT_COMPARE:
		return 0;
	case KB_OPT_TABLE:
		a->table = kb_table_find(arg);
		if (a->table < 0)
			return kb_fail(KB_EXIT_USAGE, "unknown table '%s' (see 'khash-bench tables')", arg);
		return 0;
	case KB_OPT_PARAM: {
		/* NAME=VALUE, or the value alone */
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
	case KB_OPT_KERNEL_KEYS:
		a->kernel_keys = arg;
		return 0;
	case KB_OPT_OUTPUT:
		a->output = arg;
		return 0;
	default:
		return kb_fail(KB_EXIT_USAGE, "option '--%s' is not handled", kb_options[id].name);
	}
}
