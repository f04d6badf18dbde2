/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "cli_args.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "keyfile.h"


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
	"  influence --func F --gen G [--word W] --bits N [--count SAMPLES] [--plot DIR]\n"
	"           P(flipping input bit j flips output bit k), as a map and a summary\n"
	"  audit    (--multiplier K [--width 32|64] | --preset NAME | --compare) [--plot DIR]\n"
	"           what to know about a multiplier: bits, chain cost, continued\n"
	"           fraction, worst strides, skew over the key sets\n"
	"  waittable [--count WAITERS] [--word W] [--plot DIR]   the 2002 page wait\n"
	"           tables: waiters woken for nothing, old vs new vs random\n"
	"  speed    benchmarks: every hash inline and exported beside the bare\n"
	"           arithmetic, and the counting engine beside the naive loop\n"
	"           [--bits N] [--count KEYS] [--threads N] [--format text|csv]\n"
	"  keys     --keyset NAME [--count N] [--word W] [--binary] [-o FILE]\n"
	"           write a key set as a key file (0x hex lines, or little-endian u64)\n"
	"  list     key sets (with formulas), functions and generations\n"
	"\n"
	"Key set options: --count N  --base N  --stride N  --seed N  --size BYTES\n"
	"Counting: --threads N (default: one per CPU)  --max-memory BYTES\n"
	"Functions: hash_32 hash_64 hash_long hash_ptr   Generations: old posted new\n"
	"--word is the kernel's BITS_PER_LONG (default: this build's, %u).\n"
	"Key files: one integer per line (decimal or 0x hex, '#' comments), or\n"
	"--binary little-endian u64.  Exit status: 0 ok, 1 runtime error, 2 usage.\n"
	"\n"
	"  -h, --help     this text      -V, --version  version\n";

void kb_usage(FILE *to)
{
	fprintf(to, usage_text, lkh_bits_per_long());
}

enum {
	OPT_FUNC = 256, OPT_GEN, OPT_WORD, OPT_BITS, OPT_KEYSET, OPT_KEYS,
	OPT_COUNT, OPT_BASE, OPT_STRIDE, OPT_SEED, OPT_SIZE, OPT_BINARY,
	OPT_FORMAT, OPT_PLOT, OPT_BITS_MIN, OPT_BITS_MAX, OPT_KEYSETS,
	OPT_FUNCS, OPT_GENS, OPT_WORDS, OPT_STEP, OPT_HIST, OPT_MAX_MEMORY,
	OPT_THREADS, OPT_MULTIPLIER, OPT_PRESET, OPT_WIDTH, OPT_COMPARE
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
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "multiplier", required_argument, NULL, OPT_MULTIPLIER },
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "compare", no_argument, NULL, OPT_COMPARE },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};



int kb_parse_u64(const char *s, uint64_t *v)
{
	char why[96];

	return kb_parse_key_line(s, strlen(s), v, why, sizeof(why)) == 1 &&
	       strchr(s, '#') == NULL;
}

static int parse_uint(const char *opt, const char *s, unsigned *v)
{
	uint64_t x;

	if (!kb_parse_u64(s, &x) || x > 1u << 30)
		return kb_fail(EXIT_USAGE, "invalid %s: '%s'", opt, s);
	*v = (unsigned)x;
	return 0;
}

static int parse_word(const char *s, unsigned *w)
{
	if (strcmp(s, "32") && strcmp(s, "64"))
		return kb_fail(EXIT_USAGE, "invalid --word: '%s' (32 or 64)", s);
	*w = (unsigned)atoi(s);
	return 0;
}

static int parse_func(const char *s, lkh_func *f)
{
	/* Bucket-index functions only: __hash_32 and hash32_ptr take no bits. */
	if (lkh_func_from_name(s, f) != LKH_OK || *f == LKH_FUNC_HASH_32_RAW ||
	    *f == LKH_FUNC_HASH32_PTR)
		return kb_fail(EXIT_USAGE, "unknown function '%s' (hash_32, hash_64, hash_long, hash_ptr)", s);
	return 0;
}

static int parse_gen(const char *s, lkh_gen *g)
{
	if (lkh_gen_from_name(s, g) != LKH_OK)
		return kb_fail(EXIT_USAGE, "unknown generation '%s' (old, posted, new)", s);
	return 0;
}

static int parse_keyset(const char *s, int *id)
{
	*id = kb_keyset_find(s);
	if (*id < 0)
		return kb_fail(EXIT_USAGE, "unknown key set '%s' (see 'khash-bench list')", s);
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
		return kb_fail(EXIT_RUNTIME, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		int v;

		rc = one(tok, &v);
		if (!rc)
			*mask |= 1u << v;
	}
	free(copy);
	if (!rc && *mask == 0)
		rc = kb_fail(EXIT_USAGE, "empty %s list", opt);
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
		return kb_fail(EXIT_USAGE, "invalid --hist '%s' (KEYSET:FUNC:WORD:BITS)", s);
	if (parse_keyset(ks, &h->keyset) || parse_func(fn, &h->func))
		return EXIT_USAGE;
	if (word != 32 && word != 64)
		return kb_fail(EXIT_USAGE, "invalid --hist word %u (32 or 64)", word);
	if (bits < 1 || bits > 20)
		return kb_fail(EXIT_USAGE, "invalid --hist bits %u (1..20)", bits);
	h->word = word;
	h->bits = bits;
	return 0;
}

int kb_parse_args(int argc, char **argv, struct args *a)
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

	optind = 0; /* GNU: a full reset, so the parser can run more than once */
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
			if (!kb_parse_u64(optarg, &a->kp.count))
				rc = kb_fail(EXIT_USAGE, "invalid --count: '%s'", optarg);
			else if (a->kp.count == 0)
				rc = kb_fail(EXIT_USAGE, "--count must be at least 1");
			a->count_set = 1;
			break;
		case OPT_BASE:
			if (!kb_parse_u64(optarg, &a->kp.base))
				rc = kb_fail(EXIT_USAGE, "invalid --base: '%s'", optarg);
			a->kp.has_base = 1;
			break;
		case OPT_STRIDE:
			if (!kb_parse_u64(optarg, &a->kp.stride))
				rc = kb_fail(EXIT_USAGE, "invalid --stride: '%s'", optarg);
			a->kp.has_stride = 1;
			break;
		case OPT_SEED:
			if (!kb_parse_u64(optarg, &a->kp.seed))
				rc = kb_fail(EXIT_USAGE, "invalid --seed: '%s'", optarg);
			break;
		case OPT_SIZE:
			if (!kb_parse_u64(optarg, &v) || v == 0 || v > (1u << 24))
				rc = kb_fail(EXIT_USAGE, "invalid --size: '%s' (1..16777216 bytes)", optarg);
			a->kp.size = (unsigned)v;
			break;
		case OPT_BINARY:
			a->binary = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "csv") &&
			    strcmp(optarg, "json"))
				rc = kb_fail(EXIT_USAGE, "unknown format '%s' (text, csv, json)", optarg);
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
				rc = kb_fail(EXIT_USAGE, "--step must be at least 1");
			break;
		case OPT_HIST:
			if (a->nhist == MAX_HIST)
				rc = kb_fail(EXIT_USAGE, "at most %d --hist", MAX_HIST);
			else
				rc = parse_hist(optarg, &a->hist[a->nhist++]);
			a->hist_set = 1;
			break;
		case OPT_MAX_MEMORY:
			if (!kb_parse_u64(optarg, &a->max_memory))
				rc = kb_fail(EXIT_USAGE, "invalid --max-memory: '%s'", optarg);
			break;
		case OPT_MULTIPLIER:
			if (!kb_parse_u64(optarg, &a->multiplier))
				rc = kb_fail(EXIT_USAGE, "invalid --multiplier: '%s'", optarg);
			a->multiplier_set = 1;
			break;
		case OPT_PRESET:
			a->preset = optarg;
			break;
		case OPT_WIDTH:
			if (strcmp(optarg, "32") && strcmp(optarg, "64"))
				rc = kb_fail(EXIT_USAGE, "invalid --width: '%s' (32 or 64)", optarg);
			else
				a->width = (unsigned)atoi(optarg);
			break;
		case OPT_COMPARE:
			a->compare = 1;
			break;
		case OPT_THREADS:
			rc = parse_uint("--threads", optarg, &a->threads);
			if (!rc && a->threads > 64)
				rc = kb_fail(EXIT_USAGE, "--threads %u: at most 64", a->threads);
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'h':
			a->action = KB_HELP;
			break;
		case 'V':
			a->action = KB_VERSION;
			break;
		default:
			if (optopt && optopt < 256)
				return kb_fail(EXIT_USAGE, "unknown option '-%c' (try --help)", optopt);
			return kb_fail(EXIT_USAGE, "unknown or incomplete option '%s' (try --help)",
				    argv[optind - 1]);
		}
		if (rc)
			return rc;
	}
	return 0;
}

