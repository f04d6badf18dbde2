/* SPDX-License-Identifier: MIT */
/*
 * khash-bench's command line, declared once: the table of options, the
 * table of commands (which options each takes, what --count counts there,
 * its default, its formats, its operands), the parser that enforces them,
 * and the usage text and man page generated from the same tables.  Every
 * invalid command line gets one line on stderr and exit status 2.
 */
#ifndef KB_CLI_ARGS_H
#define KB_CLI_ARGS_H

#include <stdint.h>
#include <stdio.h>

#include <khash/lkh.h>

#include "format.h"
#include "keysets.h"
#include "names.h"
#include "report.h"
#include "user_hash.h"

/* A number macro as a string, for the tables' texts. */
#define KB_STRINGIFY(x) KB_STRINGIFY_(x)
#define KB_STRINGIFY_(x) #x

#define KB_EXIT_RUNTIME 1
#define KB_EXIT_USAGE 2
/* Refuse tables whose counters alone need more than this (override with
 * --max-memory): an honest message beats an allocation failure later. */
#define KB_DEFAULT_MAX_MEMORY (UINT64_C(4) << 30)
/* waittable's waiters: two to share a queue, at most a 4096-queue table's worth */
#define KB_WAITERS_MIN 2
#define KB_WAITERS_MAX 4096
/* Work estimated past this asks for --yes; past KB_NEVER_DAYS it is
 * refused outright: it would not finish. */
#define KB_ASK_MINUTES 5
#define KB_NEVER_DAYS 30
/* The largest --size (bytes of a slab or heap object). */
#define KB_MAX_SIZE 16777216

/*
 * Every option, one row each: X(id, long name, short name or 0, argument
 * name or NULL, how its argument is parsed, the kb_args field it sets,
 * its range lo..hi (hi 0: at least lo), its default, help).  A CHOICE's
 * argument name is its choices.  In help, %F stands for the bucket
 * functions and %G for the generations, both read from lkh_table.h, %C
 * for advise's candidates, %D for the row's default, %L for a LIST's default
 * as its names and %R for the row's range, %g for hash.h's generations
 * (K aside).  A command that means something else by an option has its
 * own help for it (help.c: command_help), so that no command's help
 * speaks of another's.
 */
#define KB_OPTION_TABLE(X)                                                              \
	X(FUNC, "func", 0, "F", CUSTOM(opt_func), NO_FIELD, 0, 0, 0, "kernel function: %F") \
	X(GEN, "gen", 0, "G", CUSTOM(opt_gen), NO_FIELD, 0, 0, 0, "generation: %G (K: --multiplier's)") \
	X(WORD, "word", 0, "W", CUSTOM(opt_word), NO_FIELD, 0, 0, 0, "the kernel's BITS_PER_LONG, 32 or 64 (default: this build's)") \
	X(BITS, "bits", 0, "N", UINT, FIELD(bits), 1, 64, 0, "output bits: a table of 2^N buckets, %R (at most the function's)") \
	X(KEYSET, "keyset", 0, "NAME", CUSTOM(opt_keyset), FIELD(keyset), 0, 0, -1, "a built-in key set (see 'khash-bench list')") \
	X(KEYS, "keys", 0, "FILE", STRING, FIELD(keys), 0, 0, 0, "a key file, or - for standard input; a key that repeats an earlier one is dropped, as a table holds an object once (a note says how many)") \
	X(BINARY, "binary", 0, NULL, FLAG, FIELD(binary), 0, 0, 0, "key files are little-endian u64, not text") \
	X(KEEP_DUPLICATES, "keep-duplicates", 0, NULL, FLAG, NO_FIELD, 0, 0, 0, "count a repeated key of the key file each time it appears, not once (repeats are reported either way)") \
	X(COUNT, "count", 0, "N", COUNT, FIELD(kp.count), 1, 0, 0, NULL /* per command: what it counts */) \
	X(BASE, "base", 0, "N", U64, FIELD(kp.base), 0, 0, 0, "first key of an arithmetic key set") \
	X(STRIDE, "stride", 0, "N", U64, FIELD(kp.stride), 0, 0, 0, "step of an arithmetic key set") \
	X(SEED, "seed", 0, "N", U64, FIELD(kp.seed), 0, 0, 1, "seed of every random choice (default %D)") \
	X(SHIFT, "shift", 0, "N", UINT, FIELD(shift), 0, 63, 0, "the key shifted right by N bits first, as the shift candidates do, %R") \
	X(SIZE, "size", 0, "BYTES", BYTES, FIELD(kp.size), 1, KB_MAX_SIZE, 0, "object size of the slab and heap sets, %R (default: a mix; units as for --max-memory)") \
	X(FORMAT, "format", 0, "FMT", CUSTOM(opt_format), NO_FIELD, 0, 0, 0, "output format") \
	X(PLOT, "plot", 0, "DIR", STRING, FIELD(plot), 0, 0, 0, "also write figures (data, gnuplot script, PNG, SVG) into DIR") \
	X(BITS_MIN, "bits-min", 0, "N", UINT, FIELD(ro.bits_min), 0, 0, 6, "smallest table, 2^N buckets (default %D)") \
	X(BITS_MAX, "bits-max", 0, "N", UINT, FIELD(ro.bits_max), 0, 0, 20, "largest table, 2^N buckets, at most 32 (default %D)") \
	X(KEYSETS, "keysets", 0, "A,B", LIST(parse_keyset, keyset_name), FIELD(ro.keysets), 0, 0, KB_DEFAULT_KEYSETS, "key sets (default: %L)") \
	X(FUNCS, "funcs", 0, "F,G", LIST(one_func, func_name), FIELD(ro.funcs), 0, 0, KB_DEFAULT_FUNCS, "functions (default: %L)") \
	X(GENS, "gens", 0, "G,H", LIST(parse_gen, kb_gen_name), FIELD(ro.gens), 0, 0, (1u << LKH_GEN_COUNT) - 1, "generations (default: %L; K too with --multiplier)") \
	X(WORDS, "words", 0, "32,64", LIST(one_word, word_name), FIELD(ro.words), 0, 0, 3, "word sizes (default: %L)") \
	X(STEP, "step", 0, "N", UINT, FIELD(step), 1, 0, 2, "text: show every N-th table size (default %D)") \
	X(HIST, "hist", 0, "KEYSET:FUNC:WORD:BITS", CUSTOM(opt_hist), NO_FIELD, 0, 0, 0, "with --plot: a bucket-load histogram of that cell, every generation, K too with --multiplier (repeatable; default page4k and btrfs-stripe, hash_64, 64, 11)") \
	X(MAX_MEMORY, "max-memory", 0, "BYTES", BYTES, FIELD(max_memory), 0, 0, KB_DEFAULT_MAX_MEMORY, "refuse tables whose counters need more (default %D; K, M, G, T and KiB .. TiB are all 1024-based)") \
	X(THREADS, "threads", 0, "N", UINT, FIELD(threads), 1, 64, 0, "threads doing the work, %R (default: one per CPU)") \
	X(QUIET, "quiet", 'q', NULL, FLAG, NO_FIELD, 0, 0, 0, "no progress on standard error (shown only on a terminal, for work past a second)") \
	X(VERBOSE, "verbose", 'v', NULL, FLAG, NO_FIELD, 0, 0, 0, "say on standard error how each table was counted: the engine's path and threads, the price its plan put on them and the time they took (JSON says the path in every cell)") \
	X(PART, "part", 0, "hashes|engine|grid|strings", CHOICE, FIELD(part), 1, 0, 0, "only this benchmark (default: hashes and engine; grid: AUTO against the naive loop and every path at every count 2^12..2^28 and size 2^6..2^24, minutes; strings: full_name_hash a word at a time against its byte path, and siphash of the same names)") \
	X(YES, "yes", 0, NULL, FLAG, NO_FIELD, 0, 0, 0, "start work estimated at more than " KB_STRINGIFY(KB_ASK_MINUTES) " minutes of one CPU: without it such work (a mistyped --count, most of the time) is refused before it starts") \
	X(ENUMERATE, "enumerate", 0, NULL, FLAG, NO_FIELD, 0, 0, 0, "hash every key even where floor sums count them in closed form (arithmetic key sets through one multiply): slower, to check them") \
	X(MULTIPLIER, "multiplier", 0, "K", U64, FIELD(multiplier), 0, 0, 0, "generation K: an odd multiplier, the key times K mod 2^width, its top bits (--gen K; alone, it is the generation)") \
	X(CENSUS, "census", 0, "FILE", STRING, FIELD(census), 0, 0, 0, "a census file (see 'khash-bench census')") \
	X(ATLAS, "atlas", 0, "FILE", STRING, FIELD(atlas), 0, 0, 0, "an atlas of the census kernel's tree (khash-atlas 1): which of the sites Debian builds each census reached, and why not the others") \
	X(SITE, "site", 0, "FILE:LINE|ID", STRING, FIELD(site), 0, 0, 0, "the census site whose distinct keys to take: its file:line or its id") \
	X(CANDIDATES, "candidates", 0, "A,B", LIST(one_family, kb_advise_family_name), FIELD(families), 0, 0, 0, "the candidates to rank beside the table's own hash (default: all): %C") \
	X(KIND, "kind", 0, "chained|tree|locks", CHOICE, FIELD(kind), 0, 0, 0, "what a bucket is, which fixes what skew costs: hlist chains (default), rb-trees, or locks and wait queues") \
	X(PRESET, "preset", 0, "NAME", STRING, FIELD(preset), 0, 0, 0, "a known multiplier (names: audit --compare)") \
	X(WIDTH, "width", 0, "32|64", CHOICE, FIELD(width), 0, 0, 0, "the multiplier's word (default: 32 if K and the key fit 32 bits)") \
	X(COMPARE, "compare", 0, NULL, FLAG, NO_FIELD, 0, 0, 0, "audit every preset, as one table") \
	X(TABLE, "table", 0, "NAME", CUSTOM(opt_table), FIELD(table), 0, 0, -1, "a named kernel table (see 'khash-bench tables'): its key transform, function and bits") \
	X(PARAM, "param", 0, "[NAME=]N", CUSTOM(opt_param), NO_FIELD, 0, 0, 0, "the named table's second argument (bit, sb, parent, key_bytes; default: the table's)") \
	X(NAMES, "names", 0, "FILE", STRING, FIELD(names), 0, 0, 0, "a key file of names for a table that reads a string hash, one a line, its bytes as given (a CR before the LF is the line end's), 1.." KB_STRINGIFY(KB_NAME_MAX) " bytes (NAME_MAX), no NUL byte, no '/' for the dcache; - for standard input; a name that repeats an earlier one is dropped (a note says how many)") \
	X(NAME_SET, "name-set", 0, "NAME", CUSTOM(opt_name_set), FIELD(name_set), 0, 0, -1, "a built-in set of names for a table that reads a string hash (see 'khash-bench list')") \
	X(SGEN, "sgen", 0, "G,H", LIST(one_sgen, sgen_name), FIELD(sgens), 0, 0, 0, "the string hash's generations, for a table that reads one: a cell each (see 'khash-bench list')") \
	X(KERNEL_KEYS, "kernel-keys", 0, "DIR", STRING, FIELD(kernel_keys), 0, 0, 0, "also the real kernel keys of DIR (tests/data/kernel-keys/6.1) where a table fits them; a key that repeats an earlier one is dropped, as a table holds an object once (a note says how many)") \
	X(MIN_TIME, "min-time", 0, "MS", UINT, FIELD(min_time_ms), 1, 60000, 100, "time each hash for at least MS milliseconds over its rounds, %R (default %D): longer is steadier, shorter is quicker") \
	X(SOURCE, "source", 0, "FILE", STRING, FIELD(user.file), 0, 0, 0, "C source or a header that defines your hash: compiled with $CC (default cc) into a shared object and loaded; the compile runs FILE's code with your rights, as building it would") \
	X(CALL, "call", 0, "EXPR", STRING, FIELD(user.expr), 0, 0, 0, "a C expression of x (the key, uint64_t) and bits that gives the bucket, e.g. 'hash_64(x, bits)' or 'my_hash(x) & ((1u << bits) - 1)'") \
	X(INCLUDE, "include", 'I', "DIR", CUSTOM(opt_include), NO_FIELD, 0, 0, 0, "passed to the compiler as -IDIR (repeatable)") \
	X(DEFINE, "define", 'D', "NAME[=V]", CUSTOM(opt_define), NO_FIELD, 0, 0, 0, "passed to the compiler as -DNAME[=V] (repeatable)") \
	X(UBSAN, "ubsan", 0, NULL, FLAG, FIELD(user.ubsan), 0, 0, 0, "compile with -fsanitize=undefined -fno-sanitize-recover: undefined behaviour stops the function with a message naming your file:line (clang: a trap, no message); also tries bits 0") \
	X(TIMEOUT, "timeout", 0, "S", UINT, FIELD(timeout), 1, 3600, 5, "stop your function (--source) after S seconds of each run, %R (default %D): a function that loops is reported, not waited for") \
	X(OUTPUT, "output", 'o', "FILE", STRING, FIELD(output), 0, 0, 0, "write to FILE (atomically) instead of standard output") \
	X(HELP, "help", 'h', NULL, FLAG, NO_FIELD, 0, 0, 0, "this text")                 \
	X(VERSION, "version", 'V', NULL, FLAG, NO_FIELD, 0, 0, 0, "the version")

/* report's defaults: every built-in set but the per-cell adversarial one
 * and the futex words, and the functions that take bits on both words */
#define KB_DEFAULT_KEYSETS \
	(((1u << KB_KS_COUNT) - 1) & ~(1u << KB_KS_ADVERSARIAL) & ~KB_KS_FUTEX_SETS)
#define KB_DEFAULT_FUNCS (1u << LKH_FUNC_HASH_32 | 1u << LKH_FUNC_HASH_64 | 1u << LKH_FUNC_HASH_PTR)

enum kb_option_id {
#define KB_OPTION_ENUM(id, name, short_name, arg, kind, field, lo, hi, dflt, help) KB_OPT_##id,
	KB_OPTION_TABLE(KB_OPTION_ENUM)
#undef KB_OPTION_ENUM
	KB_OPT_COUNT_
};

#define KB_OPT(id) (UINT64_C(1) << KB_OPT_##id)

struct kb_args;

/* How an option's argument is read (kb_parse_args, from its row). */
enum kb_option_kind {
	KB_ARG_FLAG,   /* none: given, and its field (if any) set to 1 */
	KB_ARG_STRING, /* kept as given */
	KB_ARG_UINT,   /* a number up to 2^30, within lo..hi */
	KB_ARG_U64,    /* any 64-bit number */
	KB_ARG_COUNT,  /* a count: 1k, 1Mi, 1e6 ... (kb_parse_count), at least lo */
	KB_ARG_BYTES,  /* a size: 4K, 1GiB ... (kb_parse_bytes), within lo..hi */
	KB_ARG_CHOICE, /* one of arg's '|'-separated names: the number it is, else lo + its index */
	KB_ARG_LIST,   /* names, comma-separated, into a bit mask: the row's one() reads each */
	KB_ARG_CUSTOM, /* the row's own parser */
};

struct kb_option_info {
	const char *name;
	char short_name;
	const char *arg;   /* NULL: a flag */
	enum kb_option_kind kind;
	int (*parse)(const char *arg, struct kb_args *a); /* KB_ARG_CUSTOM */
	int (*one)(const char *name, int *bit);           /* KB_ARG_LIST */
	const char *(*name_of)(int bit);                  /* KB_ARG_LIST: one's inverse */
	size_t offset, size; /* the field in struct kb_args; size 0: none */
	uint64_t lo, hi, dflt;
	const char *help;
};

extern const struct kb_option_info kb_options[KB_OPT_COUNT_];

/*
 * Options that go together: an alternative is its key option, the options
 * it needs and those it takes besides.  A group's alternatives are
 * exclusive (ONE_OF: exactly one key), or at least one is given (SOME_OF),
 * or each is optional (ANY_OF).  The parser enforces them and the
 * synopsis is written from them: "(--func F --bits N | --table NAME
 * [--param [NAME=]N])"; an option an alternative takes that was given
 * without its key is an error, not ignored.
 */
enum kb_group_kind { KB_NO_GROUP, KB_ONE_OF, KB_SOME_OF, KB_ANY_OF };
#define KB_MAX_GROUPS 3
#define KB_MAX_ALTS 4

struct kb_alt {
	uint64_t key, needs, takes; /* KB_OPT() bits; key 0 ends the list */
};

struct kb_group {
	enum kb_group_kind kind;
	struct kb_alt alt[KB_MAX_ALTS];
};

struct kb_command {
	const char *name;
	int (*run)(struct kb_args *a);
	struct kb_group groups[KB_MAX_GROUPS]; /* shown first, in order */
	const char *summary;     /* one line */
	const char *description; /* a paragraph for --help and the man page */
	uint64_t options;        /* KB_OPT() bits of the options outside its groups;
				  * --help and --version always */
	unsigned formats;        /* KB_FORMAT_BIT() of the formats it writes */
	unsigned max_operands;
	const char *operands_are; /* what its operands are, if it takes any */
	const char *count_means; /* what --count counts here, if taken */
	uint64_t count_default;
	const char *operand_syntax; /* its operands in the synopsis, or NULL */
	uint64_t count_min, count_max; /* --count's range, when count_max */
	unsigned flags;          /* KB_GEN_LIST, KB_OWN_MULTIPLIER, KB_OWN_SOURCE,
				  * KB_SOURCE_CANDIDATE */
	const char *no_source;   /* why it refuses --source, where one would
				  * look for it (keys'), or NULL */
};

/* --gen takes all or a list G,H: a cell each */
#define KB_GEN_LIST 1u
/* --multiplier is the command's own (audit's to audit, advise's to rank),
 * not generation K */
#define KB_OWN_MULTIPLIER 2u
/* --source is the command's own (conform's to judge), not generation U */
#define KB_OWN_SOURCE 4u
/* --source is a candidate beside the table's own hash (advise's), not its
 * generation */
#define KB_SOURCE_CANDIDATE 8u

extern const struct kb_command kb_commands[];
extern const unsigned kb_command_count;

/* One example a command, for the man page's EXAMPLES: its arguments after
 * "khash-bench" (words split at spaces) and what it shows.  The parser's
 * tests parse every one and want one for each command. */
struct kb_example {
	const char *args, *what;
};

extern const struct kb_example kb_examples[];
extern const unsigned kb_example_count;

/* The command called name, or NULL. */
const struct kb_command *kb_command_find(const char *name);

enum kb_action { KB_RUN, KB_HELP, KB_VERSION };

struct kb_args {
	enum kb_action action;
	const struct kb_command *cmd;
	uint64_t given;          /* KB_OPT() bits of the options given */
	lkh_func func;
	int cand;                /* hash --func: 1 + a row of kb_candidate_names
				  * (advise's other candidates); 0: none */
	unsigned shift;          /* hash --shift */
	int gen;                 /* --gen, the first of a list: an lkh_gen or
				  * KB_GEN_K (--multiplier) */
	unsigned gen_mask;       /* --gen's generations (skew takes several) */
	int gen_all;             /* --gen all: K too when --multiplier is given */
	unsigned word, bits;
	int keyset, binary, table;
	int stable;              /* --table's index in kb_string_tables, or -1 */
	int name_set;            /* --name-set, or -1 */
	unsigned sgens;          /* --sgen: 1 << lkh_sgen */
	const char *names;       /* --names FILE */
	uint64_t param;
	const char *param_name;  /* from --param NAME=N, checked by the table */
	char param_name_buf[32];
	const char *keys, *plot, *output, *kernel_keys;
	const char *census, *site, *atlas;
	enum kb_format format;
	struct kb_keyset_params kp;  /* kp.count: the command's default */
	struct kb_report_opts ro;
	unsigned step;
	struct kb_hist_req hist[KB_MAX_HIST];
	size_t nhist;
	uint64_t max_memory;
	unsigned threads;
	int part;                /* speed: 0 both, 1 hashes, 2 engine, 3 grid */
	unsigned min_time_ms;    /* speed: each hash's round, at least */
	uint64_t multiplier;
	int kind;                /* enum kb_table_kind */
	unsigned families;       /* advise --candidates: 1 << kb_advise_family */
	const char *preset;
	unsigned width;
	struct kb_user_source user; /* --source, --call, -I, -D, --ubsan */
	unsigned timeout;        /* seconds a run of the user's function may take */
	char **operands;
	int n_operands;
};

/* Every option command c takes: its own and its groups'. */
uint64_t kb_command_takes(const struct kb_command *c);

/*
 * The commands, each defined in its <command>_cmd.c.  The tables refer
 * to them weakly: gen_manpage and the parser's tests link the tables
 * without them, and see a NULL run.
 */
#ifdef KB_CLI_TABLES
#define KB_COMMAND_LINKAGE __attribute__((weak))
#else
#define KB_COMMAND_LINKAGE
#endif
#define KB_COMMAND_FN(name) int kb_cmd_##name(struct kb_args *a) KB_COMMAND_LINKAGE;
KB_COMMAND_FN(report) KB_COMMAND_FN(skew) KB_COMMAND_FN(hash) KB_COMMAND_FN(influence)
KB_COMMAND_FN(audit) KB_COMMAND_FN(waittable) KB_COMMAND_FN(speed) KB_COMMAND_FN(keys)
KB_COMMAND_FN(tables) KB_COMMAND_FN(list) KB_COMMAND_FN(census) KB_COMMAND_FN(advise)
KB_COMMAND_FN(explain) KB_COMMAND_FN(conform) KB_COMMAND_FN(scan)
#undef KB_COMMAND_FN

/* Was an option given? */
#define KB_GIVEN(a, id) (((a)->given & KB_OPT(id)) != 0)

/* Print "khash-bench: MESSAGE" on stderr; returns status. */
int kb_fail(int status, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* What a plot call's result means for the command: -1 fails it (err on
 * stderr, KB_EXIT_RUNTIME), 1 (no gnuplot: data and scripts written) is
 * one warning line on stderr and success, 0 is success. */
int kb_plot_outcome(int rc, const char *err);

/* Command c's arguments, as its usage line shows them: its synopsis, then
 * every other option it takes, then its operands. */
void kb_synopsis(char *out, size_t len, const struct kb_command *c);

/* The whole program's usage, or one command's. */
void kb_usage(FILE *to);
void kb_command_usage(FILE *to, const struct kb_command *c);
/* The man page, khash-bench(1), in roff, dated date (YYYY-MM-DD). */
void kb_manpage(FILE *to, const char *date);

/* Parse a command line whose argv[0] is the command's name: 0, or an exit
 * status after one line on stderr. */
int kb_parse_args(int argc, char **argv, struct kb_args *a);

#endif
