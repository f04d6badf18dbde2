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
#include "report.h"

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
/* The largest --size (bytes of a slab or heap object). */
#define KB_MAX_SIZE 16777216

/*
 * Every option: X(id, long name, short name or 0, argument name or NULL,
 * help).  In help, %F stands for the bucket functions and %G for the
 * generations, both read from lkh_table.h, %M for KB_DEFAULT_MAX_MEMORY.
 */
#define KB_OPTION_TABLE(X)                                                              \
	X(FUNC, "func", 0, "F", "kernel function: %F")                                 \
	X(GEN, "gen", 0, "G", "generation: %G (K: --multiplier's); skew also takes all, or a list G,H") \
	X(WORD, "word", 0, "W", "the kernel's BITS_PER_LONG, 32 or 64 (default: this build's)") \
	X(BITS, "bits", 0, "N", "output bits: a table of 2^N buckets")                 \
	X(KEYSET, "keyset", 0, "NAME", "a built-in key set (see 'khash-bench list')")  \
	X(KEYS, "keys", 0, "FILE", "a key file, or - for standard input")              \
	X(BINARY, "binary", 0, NULL, "key files are little-endian u64, not text")      \
	X(DISTINCT, "distinct", 0, NULL, "count each key of the key file once, as a table holds an object once (repeats are reported either way)") \
	X(COUNT, "count", 0, "N", NULL /* per command: what it counts */)              \
	X(BASE, "base", 0, "N", "first key of an arithmetic key set")                  \
	X(STRIDE, "stride", 0, "N", "step of an arithmetic key set")                   \
	X(SEED, "seed", 0, "N", "seed of every random choice (default 1)")             \
	X(SIZE, "size", 0, "BYTES", "object size of the slab and heap sets, 1.." KB_STRINGIFY(KB_MAX_SIZE) " (default: a mix; units as for --max-memory)") \
	X(FORMAT, "format", 0, "FMT", "output format")                                 \
	X(PLOT, "plot", 0, "DIR", "also write figures (data, gnuplot script, PNG, SVG) into DIR") \
	X(BITS_MIN, "bits-min", 0, "N", "smallest table, 2^N buckets (default 6)")     \
	X(BITS_MAX, "bits-max", 0, "N", "largest table, 2^N buckets, at most 32 (default 20)") \
	X(KEYSETS, "keysets", 0, "A,B", "key sets (default: all but adversarial)")    \
	X(FUNCS, "funcs", 0, "F,G", "functions (default: hash_32,hash_64,hash_ptr)")   \
	X(GENS, "gens", 0, "G,H", "generations (default: all, K too with --multiplier)") \
	X(WORDS, "words", 0, "32,64", "word sizes (default: both)")                    \
	X(STEP, "step", 0, "N", "text: show every N-th table size (default 2)")        \
	X(HIST, "hist", 0, "KEYSET:FUNC:WORD:BITS", "with --plot: a bucket-load histogram of that cell, every generation (repeatable; default page4k and btrfs-stripe, hash_64, 64, 11)") \
	X(MAX_MEMORY, "max-memory", 0, "BYTES", "refuse tables whose counters need more (default %M; K, M, G, T and KiB .. TiB are all 1024-based)") \
	X(THREADS, "threads", 0, "N", "threads doing the work, 1..64 (default: one per CPU)") \
	X(QUIET, "quiet", 'q', NULL, "no progress on standard error (shown only on a terminal, for work past a second)") \
	X(PART, "part", 0, "hashes|engine|grid", "only this benchmark (default: hashes and engine; grid: the engine against the naive loop at every count 2^12..2^28 and size 2^6..2^24, minutes)") \
	X(ENUMERATE, "enumerate", 0, NULL, "hash every key even where a closed form counts them (arithmetic key sets through one multiply; the exhaustive influence sweep): slower, to check it") \
	X(MULTIPLIER, "multiplier", 0, "K", "an odd multiplier: audit's to audit, advise's to rank beside the kernel's hashes, elsewhere generation K, the key times K mod 2^width, its top bits (--gen K; alone, it is the generation)") \
	X(CENSUS, "census", 0, "FILE", "a census file (see 'khash-bench census')")      \
	X(ATLAS, "atlas", 0, "FILE", "an atlas of the census kernel's tree (khash-atlas 1): which of the sites Debian builds each census reached, and why not the others") \
	X(SITE, "site", 0, "FILE:LINE|ID", "the census site whose distinct keys to take: its file:line or its id") \
	X(CANDIDATES, "candidates", 0, "A,B", "the candidates to rank beside the table's own hash (default: all): %C") \
	X(KIND, "kind", 0, "chained|tree|locks", "what a bucket is, which fixes what skew costs: hlist chains (default), rb-trees, or locks and wait queues") \
	X(PRESET, "preset", 0, "NAME", "a known multiplier (names: audit --compare)")  \
	X(WIDTH, "width", 0, "32|64", "the multiplier's word (default: 32 if K and the key fit 32 bits; audit and advise: if K fits)") \
	X(COMPARE, "compare", 0, NULL, "audit every preset, as one table")            \
	X(TABLE, "table", 0, "NAME", "a named kernel table (see 'khash-bench tables'): its key transform, function and bits") \
	X(PARAM, "param", 0, "[NAME=]N", "the named table's second argument (bit, sb, parent, key_bytes; default: the table's)") \
	X(KERNEL_KEYS, "kernel-keys", 0, "DIR", "also the real kernel keys of DIR (tests/data/kernel-keys) where a table fits them") \
	X(OUTPUT, "output", 'o', "FILE", "write to FILE (atomically) instead of standard output") \
	X(HELP, "help", 'h', NULL, "this text")                                        \
	X(VERSION, "version", 'V', NULL, "the version")

enum kb_option_id {
#define KB_OPTION_ENUM(id, name, short_name, arg, help) KB_OPT_##id,
	KB_OPTION_TABLE(KB_OPTION_ENUM)
#undef KB_OPTION_ENUM
	KB_OPT_COUNT_
};

#define KB_OPT(id) (UINT64_C(1) << KB_OPT_##id)

struct kb_option_info {
	const char *name;
	char short_name;
	const char *arg;   /* NULL: a flag */
	const char *help;
};

extern const struct kb_option_info kb_options[KB_OPT_COUNT_];

enum kb_command_id {
	KB_CMD_REPORT,
	KB_CMD_SKEW,
	KB_CMD_HASH,
	KB_CMD_INFLUENCE,
	KB_CMD_AUDIT,
	KB_CMD_WAITTABLE,
	KB_CMD_SPEED,
	KB_CMD_KEYS,
	KB_CMD_TABLES,
	KB_CMD_LIST,
	KB_CMD_CENSUS,
	KB_CMD_ADVISE,
	KB_CMD_EXPLAIN,
	KB_CMD_COUNT_
};

struct kb_command {
	const char *name;
	/* The arguments that go together or exclude each other; every other
	 * option it takes follows as [--name ARG] (kb_synopsis). */
	const char *synopsis;
	const char *summary;     /* one line */
	const char *description; /* a paragraph for --help and the man page */
	uint64_t options;        /* KB_OPT() bits; --help and --version always */
	unsigned formats;        /* KB_FORMAT_BIT() of the formats it writes */
	unsigned max_operands;
	const char *operands_are; /* what its operands are, if it takes any */
	const char *count_means; /* what --count counts here, if taken */
	uint64_t count_default;
	const char *operand_syntax; /* its operands in the synopsis, or NULL */
	uint64_t count_min, count_max; /* --count's range, when count_max */
};

extern const struct kb_command kb_commands[KB_CMD_COUNT_];

enum kb_action { KB_RUN, KB_HELP, KB_VERSION };

struct kb_args {
	enum kb_action action;
	const struct kb_command *cmd;
	enum kb_command_id cmd_id;
	uint64_t given;          /* KB_OPT() bits of the options given */
	lkh_func func;
	int gen;                 /* --gen, the first of a list: an lkh_gen or
				  * KB_GEN_K (--multiplier) */
	unsigned gen_mask;       /* --gen's generations (skew takes several) */
	int gen_all;             /* --gen all: K too when --multiplier is given */
	unsigned word, bits;
	int keyset, binary, table;
	uint64_t param;
	const char *param_name;  /* from --param NAME=N, checked by the table */
	char param_name_buf[32];
	const char *keys, *plot, *output, *kernel_keys;
	const char *census, *site, *atlas;
	char site_name[160];     /* advise: "site ID FILE:LINE", for the output */
	enum kb_format format;
	struct kb_keyset_params kp;  /* kp.count: the command's default */
	struct kb_report_opts ro;
	unsigned step;
	struct kb_hist_req hist[KB_MAX_HIST];
	size_t nhist;
	uint64_t max_memory;
	unsigned threads;
	int part;                /* speed: 0 both, 1 hashes, 2 engine, 3 grid */
	uint64_t multiplier;
	int kind;                /* enum kb_table_kind */
	unsigned families;       /* advise --candidates: 1 << kb_advise_family */
	const char *preset;
	unsigned width;
	char **operands;
	int n_operands;
};

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
