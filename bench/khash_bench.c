/* SPDX-License-Identifier: MIT */
/*
 * khash-bench: structured key sets through every generation of the
 * kernel's integer hashes, and how evenly they fill a table.  This file
 * owns the command line and all input and output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <khash/lkh.h>

#include "keyfile.h"
#include "keysets.h"
#include "output.h"
#include "plot.h"
#include "report.h"
#include "skew.h"
#include "stats.h"

#define EXIT_USAGE 2
#define EXIT_RUNTIME 1
#define BLOCK 4096
/* Refuse tables whose counters alone need more than this (override with
 * --max-memory): an honest message beats an allocation failure later. */
#define DEFAULT_MAX_MEMORY (UINT64_C(4) << 30)

static const char *prog = "khash-bench";

static int fail(int status, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

static const char usage_text[] =
	"Usage: khash-bench COMMAND [OPTIONS]\n"
	"Feed structured keys through every generation of Linux's hash_32/hash_64/\n"
	"hash_long/hash_ptr and report how evenly they fill a table of 2^bits buckets.\n"
	"\n"
	"Commands:\n"
	"  report   the main job: every key set x function x generation x word size\n"
	"           x bits, old beside new  [--format text|csv|json] [--plot DIR]\n"
	"           [--count N] [--bits-min N] [--bits-max N] [--keysets A,B,..]\n"
	"           [--funcs F,..] [--gens G,..] [--words 32,64] [--step N]\n"
	"           [--hist KEYSET:FUNC:WORD:BITS]... [-o FILE]\n"
	"  skew     one cell: --func F --gen G [--word W] --bits N\n"
	"           (--keyset NAME [--count N] | --keys FILE [--binary])\n"
	"           [--format text|csv|json] [-o FILE]\n"
	"  hash     --func F --gen G [--word W] --bits N [--binary] [FILE|-]\n"
	"           print each key's hash, 0x-prefixed lowercase hex, in input order\n"
	"  list     key sets (with formulas), functions and generations\n"
	"\n"
	"Key set options: --count N  --base N  --stride N  --seed N  --size BYTES\n"
	"Functions: hash_32 hash_64 hash_long hash_ptr   Generations: old posted new\n"
	"--word is the kernel's BITS_PER_LONG (default: this build's, %u).\n"
	"Key files: one integer per line (decimal or 0x hex, '#' comments), or\n"
	"--binary little-endian u64.  Exit status: 0 ok, 1 runtime error, 2 usage.\n"
	"\n"
	"  -h, --help     this text      -V, --version  version\n";

static void usage(FILE *to)
{
	fprintf(to, usage_text, lkh_bits_per_long());
}

enum {
	OPT_FUNC = 256, OPT_GEN, OPT_WORD, OPT_BITS, OPT_KEYSET, OPT_KEYS,
	OPT_COUNT, OPT_BASE, OPT_STRIDE, OPT_SEED, OPT_SIZE, OPT_BINARY,
	OPT_FORMAT, OPT_PLOT, OPT_BITS_MIN, OPT_BITS_MAX, OPT_KEYSETS,
	OPT_FUNCS, OPT_GENS, OPT_WORDS, OPT_STEP, OPT_HIST, OPT_MAX_MEMORY
};

static const struct option long_options[] = {
	{ "func", required_argument, NULL, OPT_FUNC },
	{ "gen", required_argument, NULL, OPT_GEN },
	{ "word", required_argument, NULL, OPT_WORD },
	{ "bits", required_argument, NULL, OPT_BITS },
	{ "keyset", required_argument, NULL, OPT_KEYSET },
	{ "keys", required_argument, NULL, OPT_KEYS },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "stride", required_argument, NULL, OPT_STRIDE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "binary", no_argument, NULL, OPT_BINARY },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "bits-min", required_argument, NULL, OPT_BITS_MIN },
	{ "bits-max", required_argument, NULL, OPT_BITS_MAX },
	{ "keysets", required_argument, NULL, OPT_KEYSETS },
	{ "funcs", required_argument, NULL, OPT_FUNCS },
	{ "gens", required_argument, NULL, OPT_GENS },
	{ "words", required_argument, NULL, OPT_WORDS },
	{ "step", required_argument, NULL, OPT_STEP },
	{ "hist", required_argument, NULL, OPT_HIST },
	{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

#define MAX_HIST 16

struct args {
	const char *cmd;
	int func_set, gen_set, bits_set, keyset, binary;
	lkh_func func;
	lkh_gen gen;
	unsigned word, bits;
	const char *keys, *format, *plot, *output, *input;
	struct kb_keyset_params kp;
	int count_set;
	struct kb_report_opts ro;
	unsigned step;
	struct kb_hist_req hist[MAX_HIST];
	size_t nhist;
	int hist_set;
	uint64_t max_memory;
};

/* Whole unsigned number, decimal or 0x hex, nothing else. */
static int parse_u64(const char *s, uint64_t *v)
{
	char why[96];

	return kb_parse_key_line(s, strlen(s), v, why, sizeof(why)) == 1 &&
	       strchr(s, '#') == NULL;
}

static int parse_uint(const char *opt, const char *s, unsigned *v)
{
	uint64_t x;

	if (!parse_u64(s, &x) || x > 1u << 30)
		return fail(EXIT_USAGE, "invalid %s: '%s'", opt, s);
	*v = (unsigned)x;
	return 0;
}

static int parse_word(const char *s, unsigned *w)
{
	if (strcmp(s, "32") && strcmp(s, "64"))
		return fail(EXIT_USAGE, "invalid --word: '%s' (32 or 64)", s);
	*w = (unsigned)atoi(s);
	return 0;
}

static int parse_func(const char *s, lkh_func *f)
{
	/* Bucket-index functions only: __hash_32 and hash32_ptr take no bits. */
	if (lkh_func_from_name(s, f) != LKH_OK || *f == LKH_FUNC_HASH_32_RAW ||
	    *f == LKH_FUNC_HASH32_PTR)
		return fail(EXIT_USAGE, "unknown function '%s' (hash_32, hash_64, hash_long, hash_ptr)", s);
	return 0;
}

static int parse_gen(const char *s, lkh_gen *g)
{
	if (lkh_gen_from_name(s, g) != LKH_OK)
		return fail(EXIT_USAGE, "unknown generation '%s' (old, posted, new)", s);
	return 0;
}

static int parse_keyset(const char *s, int *id)
{
	*id = kb_keyset_find(s);
	if (*id < 0)
		return fail(EXIT_USAGE, "unknown key set '%s' (see 'khash-bench list')", s);
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
		return fail(EXIT_RUNTIME, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		int v;

		rc = one(tok, &v);
		if (!rc)
			*mask |= 1u << v;
	}
	free(copy);
	if (!rc && *mask == 0)
		rc = fail(EXIT_USAGE, "empty %s list", opt);
	return rc;
}

static int one_keyset(const char *s, int *v)
{
	return parse_keyset(s, v);
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
	lkh_gen g;
	int rc = parse_gen(s, &g);

	*v = (int)g;
	return rc;
}

static int one_word(const char *s, int *v)
{
	unsigned w;
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
		return fail(EXIT_USAGE, "invalid --hist '%s' (KEYSET:FUNC:WORD:BITS)", s);
	if (parse_keyset(ks, &h->keyset) || parse_func(fn, &h->func))
		return EXIT_USAGE;
	if (word != 32 && word != 64)
		return fail(EXIT_USAGE, "invalid --hist word %u (32 or 64)", word);
	if (bits < 1 || bits > 20)
		return fail(EXIT_USAGE, "invalid --hist bits %u (1..20)", bits);
	h->word = word;
	h->bits = bits;
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	a->keyset = -1;
	a->word = lkh_bits_per_long();
	a->format = "text";
	a->kp.count = 4096;
	a->kp.seed = 1;
	a->ro.bits_min = 6;
	a->ro.bits_max = 20;
	/* every built-in set but the per-cell adversarial one */
	a->ro.keysets = ((1u << KB_KS_COUNT) - 1) & ~(1u << KB_KS_ADVERSARIAL);
	a->ro.funcs = 1u << LKH_FUNC_HASH_32 | 1u << LKH_FUNC_HASH_64 |
		      1u << LKH_FUNC_HASH_PTR;
	a->ro.gens = (1u << LKH_GEN_COUNT) - 1;
	a->ro.words = 3;
	a->step = 2;
	a->max_memory = DEFAULT_MAX_MEMORY;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:hV", long_options, NULL)) != -1) {
		uint64_t v;
		int rc = 0;

		switch (c) {
		case OPT_FUNC:
			rc = parse_func(optarg, &a->func);
			a->func_set = 1;
			break;
		case OPT_GEN:
			rc = parse_gen(optarg, &a->gen);
			a->gen_set = 1;
			break;
		case OPT_WORD:
			rc = parse_word(optarg, &a->word);
			break;
		case OPT_BITS:
			rc = parse_uint("--bits", optarg, &a->bits);
			a->bits_set = 1;
			break;
		case OPT_KEYSET:
			rc = parse_keyset(optarg, &a->keyset);
			break;
		case OPT_KEYS:
			a->keys = optarg;
			break;
		case OPT_COUNT:
			if (!parse_u64(optarg, &a->kp.count))
				rc = fail(EXIT_USAGE, "invalid --count: '%s'", optarg);
			else if (a->kp.count == 0)
				rc = fail(EXIT_USAGE, "--count must be at least 1");
			a->count_set = 1;
			break;
		case OPT_BASE:
			if (!parse_u64(optarg, &a->kp.base))
				rc = fail(EXIT_USAGE, "invalid --base: '%s'", optarg);
			a->kp.has_base = 1;
			break;
		case OPT_STRIDE:
			if (!parse_u64(optarg, &a->kp.stride))
				rc = fail(EXIT_USAGE, "invalid --stride: '%s'", optarg);
			a->kp.has_stride = 1;
			break;
		case OPT_SEED:
			if (!parse_u64(optarg, &a->kp.seed))
				rc = fail(EXIT_USAGE, "invalid --seed: '%s'", optarg);
			break;
		case OPT_SIZE:
			if (!parse_u64(optarg, &v) || v == 0 || v > (1u << 24))
				rc = fail(EXIT_USAGE, "invalid --size: '%s' (1..16777216 bytes)", optarg);
			a->kp.size = (unsigned)v;
			break;
		case OPT_BINARY:
			a->binary = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "csv") &&
			    strcmp(optarg, "json"))
				rc = fail(EXIT_USAGE, "unknown format '%s' (text, csv, json)", optarg);
			a->format = optarg;
			break;
		case OPT_PLOT:
			a->plot = optarg;
			break;
		case OPT_BITS_MIN:
			rc = parse_uint("--bits-min", optarg, &a->ro.bits_min);
			break;
		case OPT_BITS_MAX:
			rc = parse_uint("--bits-max", optarg, &a->ro.bits_max);
			break;
		case OPT_KEYSETS:
			rc = parse_list("--keysets", optarg, &a->ro.keysets, one_keyset);
			break;
		case OPT_FUNCS:
			rc = parse_list("--funcs", optarg, &a->ro.funcs, one_func);
			break;
		case OPT_GENS:
			rc = parse_list("--gens", optarg, &a->ro.gens, one_gen);
			break;
		case OPT_WORDS:
			rc = parse_list("--words", optarg, &a->ro.words, one_word);
			break;
		case OPT_STEP:
			rc = parse_uint("--step", optarg, &a->step);
			if (!rc && a->step == 0)
				rc = fail(EXIT_USAGE, "--step must be at least 1");
			break;
		case OPT_HIST:
			if (a->nhist == MAX_HIST)
				rc = fail(EXIT_USAGE, "at most %d --hist", MAX_HIST);
			else
				rc = parse_hist(optarg, &a->hist[a->nhist++]);
			a->hist_set = 1;
			break;
		case OPT_MAX_MEMORY:
			if (!parse_u64(optarg, &a->max_memory))
				rc = fail(EXIT_USAGE, "invalid --max-memory: '%s'", optarg);
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("khash-bench (libkhash) %s\n", lkh_version_string());
			exit(0);
		default:
			if (optopt && optopt < 256)
				return fail(EXIT_USAGE, "unknown option '-%c' (try --help)", optopt);
			return fail(EXIT_USAGE, "unknown or incomplete option '%s' (try --help)",
				    argv[optind - 1]);
		}
		if (rc)
			return rc;
	}
	return 0;
}

static int check_memory(const struct args *a, unsigned bits, unsigned tables)
{
	uint64_t need = bits > 40 ? UINT64_MAX
				  : ((uint64_t)tables * sizeof(uint64_t)) << bits;

	if (need > a->max_memory)
		return fail(EXIT_USAGE, "2^%u buckets need %s%llu MiB of counters, over the --max-memory limit of %llu MiB",
			    bits, bits > 40 ? "over " : "",
			    (unsigned long long)((bits > 40 ? UINT64_C(1) << 43 : need) >> 20),
			    (unsigned long long)(a->max_memory >> 20));
	return 0;
}

static int need_cell_args(const struct args *a, struct kb_hashspec *s)
{
	char why[160];

	if (!a->func_set)
		return fail(EXIT_USAGE, "%s needs --func", a->cmd);
	if (!a->gen_set)
		return fail(EXIT_USAGE, "%s needs --gen", a->cmd);
	if (!a->bits_set)
		return fail(EXIT_USAGE, "%s needs --bits", a->cmd);
	s->func = a->func;
	s->gen = a->gen;
	s->word = a->word;
	if (kb_hashspec_check(s, a->bits, why, sizeof(why)) < 0)
		return fail(EXIT_USAGE, "%s", why);
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reject a block's first key that does not fit a 32-bit argument. */
static int check_fit(const struct kb_hashspec *s, const uint64_t *keys,
		     size_t n, uint64_t done, const char *name)
{
	size_t bad = kb_first_misfit(keys, n, kb_hashspec_input_bits(s));

	if (bad < n)
		return fail(EXIT_RUNTIME, "%s: key %llu (%#llx) does not fit the 32-bit argument of %s on %u-bit",
			    name, (unsigned long long)(done + bad + 1),
			    (unsigned long long)keys[bad], lkh_func_name(s->func),
			    s->word);
	return 0;
}

static int cmd_hash(struct args *a, int argc, char **argv)
{
	struct kb_hashspec s;
	struct kb_keyfile *kf;
	struct kb_atomic out = { 0 };
	FILE *to = stdout;
	uint64_t keys[BLOCK], words[BLOCK], done = 0;
	char err[512];
	long n;
	int rc = 0;

	if ((rc = need_cell_args(a, &s)))
		return rc;
	if (argc - optind > 1)
		return fail(EXIT_USAGE, "hash takes one key file (or - for standard input)");
	a->input = optind < argc ? argv[optind] : "-";
	kf = malloc(sizeof(*kf));
	if (!kf)
		return fail(EXIT_RUNTIME, "out of memory");
	if (kb_keyfile_open(kf, a->input, a->binary, err, sizeof(err)) < 0) {
		free(kf);
		return fail(EXIT_RUNTIME, "%s", err);
	}
	if (a->output && strcmp(a->output, "-")) {
		if (kb_atomic_open(&out, a->output, err, sizeof(err)) < 0) {
			kb_keyfile_close(kf);
			free(kf);
			return fail(EXIT_RUNTIME, "%s", err);
		}
		to = out.f;
	}
	while ((n = kb_keyfile_next(kf, keys, BLOCK, err, sizeof(err))) > 0) {
		size_t i;

		if ((rc = check_fit(&s, keys, (size_t)n, done, kf->name)))
			break;
		kb_full_words(&s, keys, (size_t)n, words);
		for (i = 0; i < (size_t)n; i++)
			fprintf(to, "0x%" PRIx64 "\n", words[i] >> (64 - a->bits));
		done += (uint64_t)n;
	}
	if (n < 0)
		rc = fail(EXIT_RUNTIME, "%s", err);
	kb_keyfile_close(kf);
	free(kf);
	if (out.f) {
		if (rc)
			kb_atomic_abort(&out);
		else if (kb_atomic_commit(&out, err, sizeof(err)) < 0)
			rc = fail(EXIT_RUNTIME, "%s", err);
	} else if (fflush(stdout) != 0 || ferror(stdout)) {
		rc = fail(EXIT_RUNTIME, "cannot write standard output: %s",
			  strerror(errno));
	}
	return rc;
}

static int count_keyfile(const struct args *a, const struct kb_hashspec *s,
			 uint64_t *counts)
{
	struct kb_keyfile *kf = malloc(sizeof(*kf));
	uint64_t keys[BLOCK], done = 0;
	char err[512];
	long n;
	int rc = 0;

	if (!kf)
		return fail(EXIT_RUNTIME, "out of memory");
	if (kb_keyfile_open(kf, a->keys, a->binary, err, sizeof(err)) < 0) {
		free(kf);
		return fail(EXIT_RUNTIME, "%s", err);
	}
	while ((n = kb_keyfile_next(kf, keys, BLOCK, err, sizeof(err))) > 0) {
		if ((rc = check_fit(s, keys, (size_t)n, done, kf->name)))
			break;
		kb_count_block(s, a->bits, keys, (size_t)n, counts);
		done += (uint64_t)n;
	}
	if (n < 0)
		rc = fail(EXIT_RUNTIME, "%s", err);
	kb_keyfile_close(kf);
	free(kf);
	return rc;
}

static int emit(const struct args *a, struct kb_buf *b)
{
	char err[512];
	int rc = kb_write_all(a->output, b, err, sizeof(err)) < 0
			 ? fail(EXIT_RUNTIME, "%s", err)
			 : 0;

	kb_buf_free(b);
	return rc;
}

static int cmd_skew(struct args *a, int argc)
{
	struct kb_hashspec s;
	struct kb_cell cell;
	struct kb_buf b = { 0 };
	uint64_t *counts = NULL;
	char err[512];
	int rc;

	if ((rc = need_cell_args(a, &s)))
		return rc;
	if (optind < argc)
		return fail(EXIT_USAGE, "unexpected argument '%s'", "skew");
	if ((a->keyset >= 0) == (a->keys != NULL))
		return fail(EXIT_USAGE, "skew needs exactly one of --keyset and --keys");
	if ((rc = check_memory(a, a->bits, 1)))
		return rc;
	memset(&cell, 0, sizeof(cell));
	cell.keyset = a->keyset;
	cell.spec = s;
	cell.bits = a->bits;
	cell.ok = 1;
	if (a->keyset >= 0) {
		if (kb_count_keyset(&s, a->bits, a->keyset, &a->kp, &counts, err,
				    sizeof(err)) < 0)
			return fail(EXIT_RUNTIME, "%s", err);
	} else {
		counts = calloc((size_t)1 << a->bits, sizeof(*counts));
		if (!counts)
			return fail(EXIT_RUNTIME, "out of memory for 2^%u buckets", a->bits);
		if ((rc = count_keyfile(a, &s, counts))) {
			free(counts);
			return rc;
		}
	}
	kb_skew_from_counts(counts, UINT64_C(1) << a->bits, &cell.skew);
	free(counts);
	if (!strcmp(a->format, "csv"))
		kb_format_cells_csv(&cell, 1, &b);
	else if (!strcmp(a->format, "json"))
		kb_format_cells_json(&cell, 1, "skew", NULL, &b);
	else
		kb_format_cell_text(&cell, a->keyset >= 0 ? kb_keysets[a->keyset].name
							  : a->keys,
				    &b);
	return emit(a, &b);
}

static int cmd_report(struct args *a, int argc)
{
	struct kb_report r;
	struct kb_buf b = { 0 };
	char err[512];
	double t0 = now_seconds();
	int rc;

	if (optind < argc)
		return fail(EXIT_USAGE, "unexpected argument '%s'", "report");
	if (a->ro.bits_min < 1 || a->ro.bits_min > a->ro.bits_max)
		return fail(EXIT_USAGE, "need 1 <= --bits-min <= --bits-max");
	if (a->ro.bits_max > 32)
		return fail(EXIT_USAGE, "--bits-max %u out of range: these functions return at most 32 bits for every generation (1..32)",
			    a->ro.bits_max);
	if ((rc = check_memory(a, a->ro.bits_max, LKH_GEN_COUNT)))
		return rc;
	if (!a->count_set)
		a->kp.count = 65536;
	if (!a->hist_set && a->plot) {
		/* The two cells of the story: page and stripe addresses. */
		static const struct kb_hist_req defaults[] = {
			{ KB_KS_PAGE4K, LKH_FUNC_HASH_64, 64, 11 },
			{ KB_KS_BTRFS_STRIPE, LKH_FUNC_HASH_64, 64, 11 },
		};

		memcpy(a->hist, defaults, sizeof(defaults));
		a->nhist = 2;
	}
	memset(&r, 0, sizeof(r));
	r.opts = a->ro;
	r.opts.params = a->kp;
	if (isatty(STDERR_FILENO) && a->kp.count >= (1u << 22))
		fprintf(stderr, "%s: counting %llu keys per key set...\n", prog,
			(unsigned long long)a->kp.count);
	if (kb_report_run(&r, err, sizeof(err)) < 0) {
		kb_report_free(&r);
		return fail(EXIT_RUNTIME, "%s", err);
	}
	if (a->plot && kb_plot_report(&r, a->hist, a->nhist, a->plot, err,
				      sizeof(err)) < 0) {
		kb_report_free(&r);
		return fail(EXIT_RUNTIME, "%s", err);
	}
	r.elapsed = now_seconds() - t0;
	if (!strcmp(a->format, "csv"))
		kb_format_cells_csv(r.cells, r.n_cells, &b);
	else if (!strcmp(a->format, "json"))
		kb_format_cells_json(r.cells, r.n_cells, "report", &r.opts, &b);
	else
		kb_format_report_text(&r, a->step, &b);
	kb_report_free(&r);
	rc = emit(a, &b);
	if (!rc && a->plot && !strcmp(a->format, "text"))
		fprintf(stdout, "plots written to %s/\n", a->plot);
	return rc;
}

static int cmd_list(void)
{
	int i;

	printf("key sets:\n");
	for (i = 0; i < KB_KS_COUNT; i++)
		printf("  %-14s %s%s\n", kb_keysets[i].name, kb_keysets[i].formula,
		       kb_keyset_available(i) ? "" : " [not in this build]");
	printf("functions: hash_32 hash_64 hash_long hash_ptr\n");
	printf("generations:\n");
	printf("  old     v2.6.25..v4.5: 0x9e370001, 0x9e37fffffffc0001\n");
	printf("  posted  the 2016 fix as posted: hash_32 kept 0x9e370001, hash_64 0x61C8864680B583EB\n");
	printf("  new     v4.7..today: 0x61C88647, 0x61C8864680B583EB\n");
	printf("word sizes: 32 64 (default %u)\n", lkh_bits_per_long());
	return 0;
}

int main(int argc, char **argv)
{
	struct args a;
	int rc;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("khash-bench (libkhash) %s\n", lkh_version_string());
		return 0;
	}
	kb_output_install_signal_cleanup();
	if ((rc = parse_args(argc - 1, argv + 1, &a)))
		return rc;
	a.cmd = argv[1];
	argc--;
	argv++;
	if (!strcmp(a.cmd, "hash"))
		return cmd_hash(&a, argc, argv);
	if (!strcmp(a.cmd, "skew"))
		return cmd_skew(&a, argc);
	if (!strcmp(a.cmd, "report"))
		return cmd_report(&a, argc);
	if (!strcmp(a.cmd, "list"))
		return optind < argc ? fail(EXIT_USAGE, "list takes no arguments")
				     : cmd_list();
	return fail(EXIT_USAGE, "unknown command '%s' (try --help)", a.cmd);
}
