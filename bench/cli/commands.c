/* SPDX-License-Identifier: MIT */
#define KB_CLI_TABLES /* the commands, weakly */
/*
 * The table of commands, one row each (what it takes, counts and writes:
 * cli_args.h's struct kb_command), their examples, and lookups in it.
 * --help, the man page and the parser are written from these rows.
 */
#include "cli_args.h"

#include <limits.h>
#include <string.h>

#include "advise.h"
#include "explain.h"
#include "format.h"
#include "keysets.h"
#include "report.h"
#include "stats.h"
#include "conform.h"
#include "scan_tree.h"

#define KEYSET_OPTIONS (KB_OPT(COUNT) | KB_OPT(BASE) | KB_OPT(STRIDE) | KB_OPT(SEED) | KB_OPT(SIZE))
/* a function and bits, or a named table whose they are (skew, hash) */
#define FUNC_OR_TABLE \
	{ KB_ONE_OF, { { KB_OPT(FUNC), KB_OPT(BITS), 0 }, \
		       { KB_OPT(TABLE), 0, KB_OPT(PARAM) | KB_OPT(BITS) } } }
/* generation K: a multiplier of the user's, where a generation is taken */
#define K_ALT { KB_OPT(MULTIPLIER), 0, KB_OPT(WIDTH) }
/* generation U: a user's function, compiled; conform's with --ubsan too */
#define USER_FN(more) { KB_OPT(SOURCE), KB_OPT(CALL), KB_OPT(INCLUDE) | KB_OPT(DEFINE) | (more) }
#define USER_ALT USER_FN(KB_OPT(TIMEOUT))
#define GEN_K_OR_USER { KB_SOME_OF, { { KB_OPT(GEN), 0, 0 }, K_ALT, USER_ALT } }
#define MAYBE_K { KB_ANY_OF, { K_ALT } }
/* a table that reads a string hash: its names, and its generations */
#define NAME_KEYS { KB_OPT(NAMES), 0, 0 }, { KB_OPT(NAME_SET), 0, KB_OPT(COUNT) }
#define GEN_OR_K_OR_SGEN \
	{ KB_SOME_OF, { { KB_OPT(GEN), 0, 0 }, K_ALT, { KB_OPT(SGEN), 0, 0 }, USER_ALT } }
/* advise's and explain's keys: what kb_cell_keys() (cell_keys.c) takes
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
		.name = "report",
		.run = kb_cmd_report,
		.groups = { { KB_ANY_OF, { { KB_OPT(KEYS), 0, KB_OPT(BINARY) }, K_ALT, USER_ALT } },
			    { KB_ANY_OF, { { KB_OPT(TABLE), 0, KB_OPT(PARAM) | KB_OPT(SGEN) | KB_OPT(NAMES) |
							    KB_OPT(NAME_SET) } } } },
		.summary = "the main job: every key set x function x generation x word size x bits, old beside new",
		.description = "Counts every chosen key set through every chosen function, generation and word size into 2^bits-min .. 2^bits-max buckets (counted once at the largest table and folded down) and prints X^2/df per table size: 1 for a random function, far above 1 for a skewed hash. Marks: # broken (X^2/df >= " KB_STRINGIFY(KB_BROKEN) "), ! skewed (upper tail p < " KB_STRINGIFY(KB_ALPHA) "), ~ more even than random (lower tail p < " KB_STRINGIFY(KB_ALPHA) "), ? too few keys for a verdict (a random function would put fewer than " KB_STRINGIFY(KB_MIN_PAIRS) " pairs of them in a shared bucket). With --keys FILE the sweep is over the distinct keys of a key file instead of the key sets. With --source FILE --call EXPR your own function is one more generation (alone, it is the generation; --gens puts hash.h's beside it), named after the function EXPR calls (compiled as conform compiles it, run only in child processes, --timeout seconds a run): its buckets are taken at each table size on its own, none folded, and a crash, an endless loop or a bucket past the table is a one-line error naming the key and bits, with no output. Ends with a summary per generation. With --table, a table that reads a string hash ('khash-bench list'), it sweeps names instead (--names FILE or --name-set NAME) through that table, every word size and string-hash generation (--sgen, default all) and table size, as text or CSV.",
		.options = KEYSET_OPTIONS | KB_OPT(FORMAT) | KB_OPT(PLOT) | KB_OPT(BITS_MIN) | KB_OPT(BITS_MAX) |
			KB_OPT(KEYSETS) | KB_OPT(FUNCS) | KB_OPT(GENS) | KB_OPT(WORDS) | KB_OPT(STEP) |
			KB_OPT(HIST) | KB_OPT(OUTPUT) | KB_OPT(MAX_MEMORY) | KB_OPT(THREADS) |
			KB_OPT(QUIET) | KB_OPT(VERBOSE) | KB_OPT(ENUMERATE) | KB_OPT(YES),
		.formats = TEXT_CSV_JSON,
		.count_means = "keys per key set", .count_default = 65536,
	},
	{
		.name = "skew",
		.run = kb_cmd_skew,
		.groups = { FUNC_OR_TABLE, GEN_OR_K_OR_SGEN,
			    { KB_ONE_OF, { { KB_OPT(KEYSET), 0, KEYSET_OPTIONS | KB_OPT(ENUMERATE) },
					   { KB_OPT(KEYS), 0, KB_OPT(BINARY) | KB_OPT(KEEP_DUPLICATES) },
					   NAME_KEYS } } },
		.summary = "one cell: how evenly one function spreads a key set or a key file",
		.description = "Counts a built-in key set or the keys of a file through one function, generation and word size into 2^bits buckets, or through a named kernel table (its key transform, function and bits), and prints Pearson's X^2, both tail probabilities, buckets used, the maximum load and what a random function would give, and a verdict (broken, skewed, ok, even, or too few keys where a random function would put fewer than " KB_STRINGIFY(KB_MIN_PAIRS) " pairs of them in a shared bucket, with the keys the table would need). --gen takes all or a list: a cell each. --source FILE --call EXPR adds your own function as one more generation (alone, it is the generation), named after the function EXPR calls, as report takes it. --plot draws the bucket loads, a panel a generation. A table that reads a string hash ('khash-bench list') takes names instead of keys (--names FILE or --name-set NAME) and string-hash generations (--sgen, a cell each) instead of --gen, hashed as x86 does, a word at a time and little-endian; under a generation before v4.8 the dcache's name hash has no salt, so its parent is not used, and the bucket is today's d_hash of it.",
		.options = KB_OPT(WORD) | KB_OPT(FORMAT) | KB_OPT(OUTPUT) | KB_OPT(MAX_MEMORY) |
			KB_OPT(THREADS) | KB_OPT(QUIET) | KB_OPT(VERBOSE) | KB_OPT(PLOT) | KB_OPT(YES),
		.formats = TEXT_CSV_JSON,
		.count_means = "keys in the key set", .count_default = 4096,
		.flags = KB_GEN_LIST,
	},
	{
		.name = "hash",
		.run = kb_cmd_hash,
		/* a hash.h function needs a generation; a candidate has none */
		.groups = { FUNC_OR_TABLE, { KB_ANY_OF, { { KB_OPT(GEN), 0, 0 }, K_ALT, USER_ALT } } },
		.summary = "print each key's hash, 0x-prefixed lowercase hex, in input order",
		.description = "Reads a key file (standard input when FILE is - or missing) and prints the hash of every key, one a line, in input order, exactly as the chosen kernel computed it; with --table, the bucket that kernel table puts it in. A hash.h function needs --gen or --multiplier, or --source FILE --call EXPR: your own function's bucket (compiled as conform compiles it, run only in child processes, --timeout seconds a run), in the hash.h function's place, after a table's key transform with --table (a table that computes its bucket itself has no place for it); a table that hashes with jhash2 (the futex tables) takes none of them. --func also takes every other candidate advise ranks, whose bucket it prints (the hash's low bits): jhash and the keyed hsiphash and siphash from --seed as advise keys them, and identity, the key itself; --shift N shifts the key right first.",
		.options = KB_OPT(WORD) | KB_OPT(BINARY) | KB_OPT(FORMAT) | KB_OPT(OUTPUT) | KB_OPT(SEED) |
			KB_OPT(SHIFT),
		.formats = KB_FORMAT_BIT(KB_FORMAT_TEXT),
		.max_operands = 1,
		.operands_are = "one key file, or - for standard input",
		.operand_syntax = "[FILE|-]",
	},
	{
		.name = "influence",
		.run = kb_cmd_influence,
		.groups = { ONE(FUNC), GEN_K_OR_USER, ONE(BITS) },
		.summary = "P(flipping input bit j flips output bit k), as a map and a summary",
		.description = "Measures, for every input bit j and output bit k, the probability that flipping bit j of the key flips bit k of the hash, over seeded random keys or every key of a 32-bit argument. An ideal hash gives 1/2 everywhere; a multiplicative hash can never reach output bits below the input bit. With --source FILE --call EXPR (instead of --gen), your own function's bucket of 2^bits, whose bits are the output bits, over the same seeded keys (--func's argument width), hashed in child processes as report runs it (--timeout seconds a run); a crash or a loop is a one-line error naming the key and bits, with no output.",
		.options = KB_OPT(WORD) | KB_OPT(COUNT) | KB_OPT(SEED) | KB_OPT(FORMAT) | KB_OPT(PLOT) |
			KB_OPT(OUTPUT) | KB_OPT(THREADS) | KB_OPT(QUIET) | KB_OPT(ENUMERATE) |
			KB_OPT(YES),
		.formats = TEXT_CSV_JSON,
		.count_means = "random keys sampled; 4294967296 or more: every key of a 32-bit argument",
		.count_default = 65536,
	},
	{
		.name = "audit",
		.run = kb_cmd_audit,
		.groups = { { KB_ONE_OF, { K_ALT, { KB_OPT(PRESET), 0, 0 }, { KB_OPT(COMPARE), 0, 0 } } } },
		.summary = "what to know about a multiplier before using it",
		.description = "Reports a multiplier's parity, popcount and longest run of equal bits, the cost of a shift-and-add chain (non-adjacent form), the continued fraction of K/2^w, the worst stride among s, 3s, 5s, 7s (s a power of two) for 2^6..2^16 buckets, and its skew over the built-in key sets; --compare does it for every preset.",
		.options = KB_OPT(FORMAT) | KB_OPT(PLOT) | KB_OPT(OUTPUT),
		.formats = TEXT_CSV_JSON,
		.flags = KB_OWN_MULTIPLIER,
	},
	{
		.name = "waittable",
		.run = kb_cmd_waittable,
		.summary = "the 2002 page wait tables: waiters woken for nothing, old vs new vs random",
		.description = "Simulates the hashed page wait tables of 2002: each zone hashes struct page pointers into pages/256 queues (a power of two, at most 4096), and unlocking a page wakes every waiter in its queue. Prints the mean number of waiters woken for nothing per unlock, old multiplier against new against a random function, for pages anywhere in the zone and for a run of consecutive pages.",
		.options = KB_OPT(COUNT) | KB_OPT(WORD) | KB_OPT(SEED) | KB_OPT(FORMAT) | KB_OPT(PLOT) |
			KB_OPT(OUTPUT),
		.formats = TEXT_CSV_JSON,
		.count_means = "pages waited on, " KB_STRINGIFY(KB_WAITERS_MIN) ".." KB_STRINGIFY(KB_WAITERS_MAX),
		.count_default = 100,
		.count_min = KB_WAITERS_MIN, .count_max = KB_WAITERS_MAX,
	},
	{
		.name = "speed",
		.run = kb_cmd_speed,
		.groups = { { KB_ANY_OF, { USER_ALT } } },
		.summary = "benchmarks: every hash beside the bare arithmetic, the engine beside the naive loop",
		.description = "Times every hash inline and through the library's exported symbol, each beside a hand-written reference loop in the same binary, and the counting engine beside the naive loop; prints figures, never verdicts: the fastest, median and mean of each one's rounds, their spread ((slowest - fastest) / median) and how many there were. With --source FILE --call EXPR, a last row times your function as report calls it, a call a key through the compiled object in a child process, beside the 64-bit reference loop (its exported and latency columns are empty: not timed). The engine's part says which cache sizes its choice of path rests on and where each was read (the kernel's tables, else the C library's CPUID figure, which a virtual machine may take from its host); --part grid times the engine's choice against the naive loop at every count 2^12..2^28 and table size 2^6..2^24.",
		.options = KB_OPT(BITS) | KB_OPT(COUNT) | KB_OPT(THREADS) | KB_OPT(FORMAT) | KB_OPT(OUTPUT) |
			KB_OPT(QUIET) | KB_OPT(PART) | KB_OPT(MIN_TIME) | KB_OPT(YES),
		.formats = TEXT_CSV_JSON,
		.count_means = "keys the counting engine counts at each table size",
		.count_default = UINT64_C(1) << 27,
	},
	{
		.name = "keys",
		.run = kb_cmd_keys,
		.groups = { { KB_ONE_OF, { { KB_OPT(KEYSET), 0, KEYSET_OPTIONS } } }, MAYBE_K },
		.summary = "write a key set as a key file (0x hex lines, or little-endian u64)",
		.description = "Writes a built-in key set as a key file that any machine reads back the same: 0x hex, one key a line, or little-endian u64 with --binary. The adversarial set needs the cell it is built against: --func, --gen and --bits.",
		.options = KB_OPT(WORD) | KB_OPT(BINARY) | KB_OPT(OUTPUT) | KB_OPT(FUNC) | KB_OPT(GEN) |
			KB_OPT(BITS) | KB_OPT(MAX_MEMORY) | KB_OPT(FORMAT) | KB_OPT(YES),
		.formats = KB_FORMAT_BIT(KB_FORMAT_TEXT),
		.count_means = "keys to write", .count_default = 4096,
		/* the only key set built against a cell, and it needs the cell's
		 * multiplier; the other sets need no cell at all */
		.no_source = "its adversarial set solves hash.h's multiply for the keys of bucket 0, and your function is no multiply it can invert (its other key sets take no function)",
	},
	{
		.name = "tables",
		.run = kb_cmd_tables,
		.groups = { { KB_ANY_OF, { K_ALT, USER_ALT } } },
		.summary = "named kernel tables: real call sites under every generation",
		.description = "Lists the named tables (the key transform, function and bits of a real Linux 6.1 call site, with its file:line; the futex tables: the 2016 private hash, 6.12's global table and 6.16's private one, jhash2 where they use it) and counts each one's natural key model through every generation and word size (with --source FILE --call EXPR, your function too, in place of the table's hash.h function, where the table has one), and, with --kernel-keys, the real kernel keys that fit it. Its text then lists the tables that read a string hash (Linux 6.12) and counts each one's name set through every string-hash generation and word size (--count names; CSV and JSON keep the named tables only).",
		.options = KB_OPT(COUNT) | KB_OPT(SEED) | KB_OPT(WORDS) | KB_OPT(KERNEL_KEYS) | KB_OPT(FORMAT) |
			KB_OPT(PLOT) | KB_OPT(OUTPUT) | KB_OPT(QUIET) | KB_OPT(YES),
		.formats = TEXT_CSV_JSON,
		.count_means = "keys of each table's key model", .count_default = 4096,
	},
	{
		.name = "list",
		.run = kb_cmd_list,
		.summary = "key sets (with formulas), functions and generations",
		.description = "Lists the built-in key sets with their formulas, the functions that index a table, the generations with their kernels and multipliers, and the word sizes.",
		.formats = KB_FORMAT_BIT(KB_FORMAT_TEXT),
	},
	{
		.name = "census",
		.run = kb_cmd_census,
		.groups = { { KB_ANY_OF, { K_ALT, USER_ALT } } },
		.summary = "the hash call sites a kernel reached, judged under every generation",
		.description = "Reads census files (the call sites of hash_32, hash_64, hash_long, hash_ptr, hash32_ptr, __hash_32, fs/inode.c hash() and btrfs_inode_hash() a running kernel reached, with a sample of their keys; format khash-census 1, or 2, whose site lines may end in the name of the module the site was compiled into, as 'site ID FUNC BITS CALLS FILE:LINE MODULE', judged like the kernel's own and named with their module in the text and figure), and hashes each site's distinct keys again with every generation on the file's word size: through the named table at the site's file:line where there is one, and for inode_hash and btrfs_inode_hash through fs/inode.c hash() as the inode-hash table computes it; a btrfs_inode_hash key, whose record holds no super block, takes the super block and i_hash_shift of the file's hash() record that holds its value under 6.1 (else the super block most of its site's keys found, else the table's). A site's table has 2^bits buckets: its bits, else its named table's, else the 32 bits the function returns. It is judged at 2^at buckets, the largest at <= bits where a random function would put " KB_STRINGIFY(KB_MIN_PAIRS) " pairs of its n distinct keys in a shared bucket (n(n-1)/2^(at+1) >= " KB_STRINGIFY(KB_MIN_PAIRS) "), which keeps the chi-squared tail within a factor of 3 of the false-alarm rate it claims; a smaller table than the site's sums adjacent buckets (their top bits), and a site that cannot reach it with 2 buckets has 'too few keys'. Prints per site and generation X^2/df and the verdict (broken, skewed, ok, even, as skew gives them; the text marks them #, !, ~ before X^2/df and puts the site last; CSV and JSON add calls, buckets used and the maximum load), each file's sites apart, labelled by its meta arch, worst first: judged sites before those with too few keys, those that pick a bucket before those that pick none, then by the verdict under old (broken, skewed, ok, even), then by X^2/df under old, then under new, both largest first, then in the file's order. Under each site, what its hash picks: chained, tree or locks (its named table's kind, else its file:line's entry in the table of census sites of its kernel, 6.1 or 6.12), other or unknown. A site of kind other picks no bucket, so it has no cost and no verdict: 'feeds another hash' where its entry names the hash its value goes on into (and the call on its line that picks the bucket, with that call's verdict), else 'no bucket'; the summary counts them apart from the verdicts, and the figure paints them grey. Per generation the cost that kind pays, beside a random function's (CSV and JSON: kind, kind_from, indexes, cost, cost_random, cost_vs_random; a site of unknown kind has only the six cost figures). A malformed line is an error naming file:line. With --source FILE --call EXPR your own function is one more generation column, named after the function EXPR calls (run only in child processes, as report runs it): each site's distinct keys go through it at 2^at buckets in place of the site's hash.h function, and at the inode hashes, whose bucket is fs/inode.c hash()'s and no hash.h call of the key, it is n/a with the reason; a crash, an endless loop or a bucket past the table is a one-line error naming the site, key and bits, with no output. With --atlas (kernel/atlas/README.md), each file's summary is followed by how many of the atlas's sites Debian builds (y and m) the census reached at their file:line or where their macro is used, and every built site it never reached, by class: not in the census kernel (no site and no 'not called' comment of the census there) or compiled but not called, each with a hint from its path (hardware: drivers/, sound/, arch/; kvm: virt/, arch/x86/kvm/, arch/x86/kernel/kvm*; else workload); and a table by subsystem of the rows in the tree, built (y or m), modules, reached of the built (and % of them) and reached of the rest (h, n, ?), whose columns sum to those figures. A site's subsystem is the first directory of its path, and under arch/, drivers/, fs/ and net/ the next one too (arch/x86, drivers/net, fs/btrfs, net/ipv4; fs/namei.c is fs): the text gives each first directory and under it the deeper subsystems the census reached, then all. JSON adds an atlas object per file (with every subsystem, deeper ones included), CSV nothing.",
		.options = KB_OPT(FORMAT) | KB_OPT(PLOT) | KB_OPT(OUTPUT) | KB_OPT(ATLAS),
		.formats = TEXT_CSV_JSON,
		.max_operands = UINT_MAX,
		.operands_are = "census files, - for standard input",
		.operand_syntax = "FILE...",
	},
	{
		.name = "advise",
		.run = kb_cmd_advise,
		.groups = { CELL_KEYS(KB_OPT(SEED)), { KB_ANY_OF, { K_ALT, USER_ALT, { KB_OPT(SGEN), 0, 0 } } } },
		.summary = "what a table should hash its keys with: every candidate ranked by what it costs",
		.description = "Hashes the distinct keys of a key set, a key file, a census site or a named table's key model (a table whose key is hashed as it is or shifted) into 2^bits buckets (1..32; a site's or table's own bits by default) with the table's own function (--func, default hash_ptr, or the site's or table's; --gen, default new; a site's word is its file's) and every candidate: today's hash.h, the key shifted right by the low zero bits its differences share (as btrfs did), hash_32 where the keys fit 32 bits (what hash_min() does with a u32), the key itself, jhash_1word or jhash_2words, hsiphash_1u32 or hsiphash_2u32 and siphash_1u64 (keyed, from --seed), --multiplier K's own product, and your own function (--source FILE --call EXPR, run in child processes as report runs it; its time is not measured). Ranks them by what their skew costs the table (--kind, else a census site's or named table's own: compares per lookup in chained buckets, keys searched in trees, others met on locks) over what a random function costs at the same load, says which are keyed, times each one's hash as 'speed' does, and ends with one line of advice. It advises a change only where the keys favour it beyond a random function's noise and it costs less in at least 3 in 4 of " KB_STRINGIFY(KB_ADVISE_RELAYOUTS) " re-layouts of the keys (fewer beyond 2^17 keys), drawn from --seed: the keys' runs (keys at most a unit apart: 4 KiB, or the power of two their differences share if larger) moved whole to random units of their span, each key's offset in its unit kept; else it says there is no clear winner: keep it. With a table that reads a string hash ('khash-bench list'), --names FILE or --name-set NAME and at most one --sgen (the table's string hash now, default new), it ranks names instead, hashed as x86 does: that hash, its other generations (--candidates new; those that put every name in the same bucket as one before them are folded into its row and named), and hsiphash and siphash of the name's bytes as lib/siphash.c computes them (keyed, from --seed). Names have no layout to redraw: a change is advised where it wins beyond a random function's noise, never to a past generation, and the advice names the cheapest keyed row, the one choice when a client picks the names. The string hashes are not timed here ('speed --part strings' times today's).",
		.options = CELL_KEYS_OPTIONS | KB_OPT(GEN) | KB_OPT(KIND) | KB_OPT(CANDIDATES) | KB_OPT(YES) |
			KB_OPT(NAMES) | KB_OPT(NAME_SET),
		.formats = TEXT_CSV_JSON,
		.count_means = "keys in the key set or table's key model", .count_default = 4096,
		.flags = KB_OWN_MULTIPLIER | KB_SOURCE_CANDIDATE,
	},
	{
		.name = "explain",
		.run = kb_cmd_explain,
		.groups = { CELL_KEYS(0),
			    { KB_ANY_OF, { { KB_OPT(GEN), 0, 0 }, K_ALT, { KB_OPT(SGEN), 0, 0 }, USER_ALT } } },
		.summary = "why one cell's keys collide: the key differences behind the excess",
		.description = "Takes the keys as advise does and one cell (--func, default hash_ptr; --gen, default new, or --multiplier's generation K, or your own function, --source FILE --call EXPR, with no model: it is no multiply seen from here; --word; --bits) and groups the key pairs that share a bucket by their difference d: how many pairs differ by d, how many of them share a bucket, where d*K mod 2^w falls against a bucket's width (2^(w-bits)) and the chance max(0, 1 - |d*K|/width) that such a pair shares one, and the pairs each d has over a random function's, biggest first (none, and one line saying there is nothing to explain, where the shared pairs exceed a random function's by no more than " KB_STRINGIFY(KB_NOISE_SDS) " of its standard deviations). Sums that chance over every pair for the colliding pairs the differences predict, beside those observed and a random function's; and reports the keys' alignment, the gcd of their differences, the commonest gaps between consecutive keys, their 4 KiB pages and the gcd within a page (a slab's object size), and the multiplier's longest run of equal bits. At most " KB_STRINGIFY(KB_EXPLAIN_MAX_KEYS) " distinct keys (every pair is visited). With a table that reads a string hash ('khash-bench list'), --names FILE or --name-set NAME and one --sgen, it classes the pairs of names that share a bucket by their length and the bytes they share at the start and then at the end, the worst first (text only).",
		.options = CELL_KEYS_OPTIONS | KB_OPT(NAMES) | KB_OPT(NAME_SET),
		.formats = TEXT_CSV_JSON,
		.count_means = "keys in the key set or table's key model", .count_default = 4096,
	},
	{
		.name = "conform",
		.run = kb_cmd_conform,
		.groups = { { KB_ONE_OF, { USER_FN(KB_OPT(UBSAN)) } } },
		.summary = "does your own hash (or another project's copy of hash.h) reproduce the kernel's, and what does it do to a table",
		.description = "Compiles --call's expression over --source's file with $CC (default cc) into a shared object in a private folder, removed as soon as the object is open (on errors and signals too); a file that does not compile, or calls a function it never defines, shows the compiler's messages and exits 2. The compile runs the file's code with your rights, as building it would. The function is loaded and run only in child processes, each stopped after --timeout seconds: a crash or an endless loop (a constructor's too) is a one-line report naming the key and bits, and exit 1. It is compared, at every bits the kernel allows (1..32, and 33..64 where hash_64 returned 64 bits), with every generation of hash_32, hash_64, hash_long and hash_ptr on 32- and 64-bit kernels over the golden vectors' inputs, powers of two, runs of page, slab and small keys and seeded random keys; for each generation it says which cells it reproduces bit for bit, or the closest cell's share of differing keys and the first key and bits that differ, or that the kernel's buckets come out mirrored (a negated multiplier). It reports how many buckets the keys fill at each table size beside a random function (a degenerate hash says so in its first line), results that are no bucket (at or past 2^bits), input bits whose flip never moves a bucket, a plain multiply's multiplier (and whether it is even, or the kernel's negated), and with --ubsan undefined behaviour, bits 0 included. Last, what its skew costs on the built-in key sets (" KB_STRINGIFY(KB_CONFORM_COST_KEYS) " keys each, no heap sets) at the worst of 2^" KB_STRINGIFY(KB_CONFORM_COST_BITS_LO) "..2^" KB_STRINGIFY(KB_CONFORM_COST_BITS_HI) " buckets: compares per lookup in chained buckets over a random function's, beside today's hash_long. Exit 0 when it reproduces a cell of --gen (any generation without it), 1 when not, 2 for a usage error.",
		.options = KB_OPT(GEN) | KB_OPT(FUNC) | KB_OPT(WORD) | KB_OPT(TIMEOUT) | KB_OPT(SEED) |
			KB_OPT(FORMAT) | KB_OPT(OUTPUT),
		.formats = TEXT_CSV_JSON,
		.flags = KB_OWN_SOURCE,
	},
	{
		.name = "scan",
		.run = kb_cmd_scan,
		.summary = "find the hash constants and idioms known to be dangerous in a source tree, each with the command that judges it",
		.description = "Reads every text file under each folder (a file named is read too), in name order, and prints each finding as FILE:LINE: KIND: what it is; judge: the command that judges it. The kinds: old-prime (the pre-4.7 multipliers 0x9e370001 and 0x9e37fffffffc0001), golden-ratio (today's 0x61c88647 and 0x61c8864680b583eb), negated-golden (a kernel multiplier negated, as 0x9e3779b9 and 0x9e3779b97f4a7c15, whose buckets come out mirrored), even-constant (one negated plus one, as 0x9e3779b97f4a7c16), each as a hex or decimal literal with any U or L suffix; a multiply below counts only by a constant of " KB_STRINGIFY(KB_SCAN_HASHLIKE_POPCOUNT) " set bits or more, as a hash's has; even-multiplier (a multiply by an even constant of 2^" KB_STRINGIFY(KB_SCAN_EVEN_BITS) " or more, then >> on the line); low-bits-kept (a multiply by a constant of 2^" KB_STRINGIFY(KB_SCAN_HASHLIKE_BITS) " or more, or a GOLDEN_RATIO name, then & or % and no >> on the line); shift-by-width (a shift by 64, 32 or BITS_PER_LONG minus a count, undefined in C when the count is 0, unless that count is tested against 0 on the line or the " KB_STRINGIFY(KB_SCAN_MEMORY) " before it, or is a name in capitals, taken for a constant); hash64-in-32-bits (hash_64()'s result assigned to or cast to a 32-bit or narrower type). The judge is audit --multiplier for an odd constant, else conform over the file with a call of the function the line is in (its arguments guessed as (x, bits): adjust them), with --ubsan for a shift. This is a text scan, line by line, not a parse: it misses what macros or other lines hide and can match what is not a hash; a match in a comment is reported and marked so. Binary files (a NUL byte in the first " KB_STRINGIFY(KB_SCAN_SNIFF) " bytes), folders named build or .git, and symbolic links below a folder named are skipped. A file or folder that cannot be read is a warning on standard error; a folder named that cannot be read is an error (exit 1). Exit 0 when it ran, findings or not.",
		.options = KB_OPT(FORMAT) | KB_OPT(OUTPUT),
		.formats = TEXT_CSV_JSON,
		.max_operands = UINT_MAX,
		.operands_are = "folders (or files) to scan",
		.operand_syntax = "DIR...",
	},
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
	{ "conform --source hash.h --call 'hash_64(x,bits)' --gen new",
	  "whether a copy of hash.h computes today's hash_64, and what it does to a table otherwise" },
	{ "scan /usr/src/linux/tools", "the kernel's tools: its copies of hash.h and their constants, each with the command that judges it" },
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
