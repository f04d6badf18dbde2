/* SPDX-License-Identifier: MIT */
/*
 * The command and option tables (bench/cli/commands.c, options.c) and the parser
 * that enforces them: an option a command does not take, a stray operand,
 * a format a command does not write are usage errors (2); defaults come
 * from the command (the documented ones, written out here); help and the
 * man page list what the tables hold.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_args.h"
#include "stats.h"

/* A whole skew command line, for options beside it. */
#define SKEW "skew --func hash_64 --bits 8 --gen new --keyset seq"

/* Parse a command line given as one string of words. */
static int parse(struct kb_args *a, const char *line)
{
	static char buf[1024];
	char *argv[64], *save = NULL, *w;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (w = strtok_r(buf, " ", &save); w && argc < 63; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	return kb_parse_args(argc, argv, a);
}

/* Each alternative is one key with what it needs and takes besides, and
 * an option is in one group or among the command's own, not both. */
static void groups_are_consistent(const struct kb_command *c)
{
	uint64_t seen = 0;
	unsigned g, i;

	for (g = 0; g < KB_MAX_GROUPS && c->groups[g].kind; g++) {
		uint64_t members = 0;

		for (i = 0; i < KB_MAX_ALTS && c->groups[g].alt[i].key; i++) {
			const struct kb_alt *alt = &c->groups[g].alt[i];

			assert_int_equal(alt->key & (alt->key - 1), 0);
			assert_int_equal(alt->key & (alt->needs | alt->takes), 0);
			assert_int_equal(alt->needs & alt->takes, 0);
			members |= alt->key | alt->needs | alt->takes;
		}
		assert_int_equal(members & seen, 0);
		seen |= members;
	}
	assert_int_equal(c->options & seen, 0);
}

static void tables_are_consistent(void **state)
{
	uint64_t used = 0;
	unsigned i, j;

	(void)state;
	for (i = 0; i < kb_command_count; i++) {
		const struct kb_command *c = &kb_commands[i];
		int takes_count = (kb_command_takes(c) & KB_OPT(COUNT)) != 0;

		assert_non_null(c->name);
		assert_non_null(c->summary);
		assert_non_null(c->description);
		assert_true(c->formats & KB_FORMAT_BIT(KB_FORMAT_TEXT));
		/* --count means something on each command that takes it */
		assert_int_equal(takes_count, c->count_means != NULL);
		assert_int_equal(takes_count, c->count_default > 0);
		assert_int_equal(c->max_operands > 0, c->operands_are != NULL);
		/* more than one format is only offered where --format is taken */
		if (c->formats != KB_FORMAT_BIT(KB_FORMAT_TEXT))
			assert_true(kb_command_takes(c) & KB_OPT(FORMAT));
		for (j = 0; j < i; j++)
			assert_string_not_equal(c->name, kb_commands[j].name);
		used |= kb_command_takes(c);
		groups_are_consistent(c);
	}
	for (i = 0; i < KB_OPT_COUNT_; i++) {
		const struct kb_option_info *o = &kb_options[i];

		if (i != KB_OPT_HELP && i != KB_OPT_VERSION)
			assert_true(used & (UINT64_C(1) << i)); /* no dead option */
		for (j = 0; j < i; j++)
			assert_string_not_equal(o->name, kb_options[j].name);
		/* a row's parser has what it needs, its default is in its range */
		assert_int_equal(o->arg == NULL, o->kind == KB_ARG_FLAG);
		assert_int_equal(o->parse != NULL, o->kind == KB_ARG_CUSTOM);
		assert_int_equal(o->one != NULL, o->kind == KB_ARG_LIST);
		assert_int_equal(o->name_of != NULL, o->kind == KB_ARG_LIST);
		if (o->kind == KB_ARG_CHOICE)
			assert_non_null(strchr(o->arg, '|'));
		if (o->kind != KB_ARG_CUSTOM && o->kind != KB_ARG_FLAG)
			assert_true(o->size > 0);
		if (o->hi)
			assert_true(o->lo <= o->hi && (!o->dflt || (o->dflt >= o->lo && o->dflt <= o->hi)));
	}
}

static void defaults_come_from_the_command(void **state)
{
	struct kb_args a;

	(void)state;
	assert_int_equal(parse(&a, "report"), 0);
	assert_true(a.kp.count == 65536);
	assert_int_equal(a.format, KB_FORMAT_TEXT);
	assert_int_equal(parse(&a, SKEW), 0);
	assert_true(a.kp.count == 4096);
	assert_int_equal(parse(&a, "keys --keyset seq"), 0);
	assert_true(a.kp.count == 4096);
	assert_int_equal(parse(&a, "influence --func hash_64 --gen new --bits 8"), 0);
	assert_true(a.kp.count == 65536);
	assert_int_equal(parse(&a, "waittable"), 0);
	assert_true(a.kp.count == 100);
	assert_int_equal(parse(&a, "speed"), 0);
	assert_true(a.kp.count == UINT64_C(1) << 27);
	assert_int_equal(a.min_time_ms, 100);
	assert_int_equal(parse(&a, "waittable --count 7 --format csv"), 0);
	assert_true(a.kp.count == 7);
	assert_int_equal(a.format, KB_FORMAT_CSV);
	assert_true(KB_GIVEN(&a, COUNT));
	assert_false(KB_GIVEN(&a, SEED));
}

static void options_a_command_does_not_take_are_refused(void **state)
{
	struct kb_args a;

	(void)state;
	assert_int_equal(parse(&a, "list --plot out"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "list --count 5"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "hash --gen new --func hash_64 --keyset seq"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "audit --compare --count 5"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "speed --plot out"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "waittable --threads 2"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "report --func hash_64"), KB_EXIT_USAGE);
	/* ... and the same options where they belong are fine */
	assert_int_equal(parse(&a, "report --plot out --threads 2 -o f"), 0);
	assert_string_equal(a.output, "f");
}

static void operands_are_counted(void **state)
{
	struct kb_args a;

	(void)state;
	assert_int_equal(parse(&a, SKEW " extra"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "report extra"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "list extra"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "hash --func hash_64 --gen new --bits 8 a b"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "hash --func hash_64 --gen new --bits 8 a"), 0);
	assert_int_equal(a.n_operands, 1);
	assert_string_equal(a.operands[0], "a");
	assert_int_equal(parse(&a, "hash --func hash_64 --gen new --bits 8"), 0);
	assert_int_equal(a.n_operands, 0);
	assert_int_equal(parse(&a, "hash --func hash_64 --gen new --bits 8 -"), 0);
	assert_string_equal(a.operands[0], "-");
}

static void formats_are_checked_per_command(void **state)
{
	struct kb_args a;

	(void)state;
	assert_int_equal(parse(&a, "hash --func hash_64 --bits 8 --gen new --format json"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "hash --func hash_64 --bits 8 --gen new --format text"), 0);
	assert_int_equal(parse(&a, "speed --format json"), 0);
	assert_int_equal(parse(&a, "speed --format csv"), 0);
	assert_int_equal(parse(&a, "report --format xml"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --format json"), 0);
	assert_int_equal(a.format, KB_FORMAT_JSON);
}

static void help_and_version_win(void **state)
{
	struct kb_args a;

	(void)state;
	assert_int_equal(parse(&a, "skew --help"), 0);
	assert_int_equal(a.action, KB_HELP);
	assert_ptr_equal(a.cmd, kb_command_find("skew"));
	assert_int_equal(parse(&a, "list -h extra"), 0); /* help before operands */
	assert_int_equal(a.action, KB_HELP);
	assert_int_equal(parse(&a, "report -V"), 0);
	assert_int_equal(a.action, KB_VERSION);
	assert_int_equal(parse(&a, "frobnicate"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "report --frob"), KB_EXIT_USAGE);
}

static void values_are_parsed(void **state)
{
	struct kb_args a;

	(void)state;
	assert_int_equal(parse(&a, "skew --func hash_ptr --gen old --word 32 --bits 11 --keyset page4k --count 0x100 --seed 9"), 0);
	assert_int_equal(a.func, LKH_FUNC_HASH_PTR);
	assert_int_equal(a.gen, LKH_GEN_OLD);
	assert_int_equal(a.word, 32);
	assert_int_equal(a.bits, 11);
	assert_int_equal(a.keyset, KB_KS_PAGE4K);
	assert_true(a.kp.count == 256 && a.kp.seed == 9);
	assert_int_equal(parse(&a, "skew --gen new --keyset seq --func hash32_ptr"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "skew --gen new --keyset seq --func __hash_32"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "skew --func hash_64 --bits 8 --keyset seq --gen newer"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --word 48"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --count 0"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --count ' 5'"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "report --gens old,new --words 32 --hist page4k:hash_64:64:11"), 0);
	assert_int_equal(a.ro.gens, 1u << LKH_GEN_OLD | 1u << LKH_GEN_NEW);
	assert_int_equal(a.ro.words, 1);
	assert_int_equal(a.nhist, 1);
	assert_int_equal(a.hist[0].bits, 11);
}

/* Text a generator writes, read back from a temporary file. */
static char *capture(void (*fn)(FILE *))
{
	FILE *f = tmpfile();
	long len;
	char *s;

	assert_non_null(f);
	fn(f);
	len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	s = malloc((size_t)len + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)len, f), (size_t)len);
	s[len] = '\0';
	fclose(f);
	return s;
}

static void man_page(FILE *f)
{
	kb_manpage(f, "2026-01-02");
}

static void skew_usage(FILE *f)
{
	kb_command_usage(f, kb_command_find("skew"));
}

static void usage_and_man_page_list_the_tables(void **state)
{
	char *usage = capture(kb_usage), *man = capture(man_page);
	char *skew = capture(skew_usage), want[512];
	unsigned i;

	(void)state;
	for (i = 0; i < kb_command_count; i++) {
		snprintf(want, sizeof(want), "\n  khash-bench %s", kb_commands[i].name);
		assert_non_null(strstr(usage, want));
		snprintf(want, sizeof(want), "\n.SS %s\n", kb_commands[i].name);
		assert_non_null(strstr(man, want));
		/* a synopsis is its own hanging paragraph, not run into the next */
		snprintf(want, sizeof(want), "\n.SY \"khash\\-bench %s\"\n", kb_commands[i].name);
		assert_non_null(strstr(man, want));
		assert_non_null(strstr(strstr(man, want), "\n.YS\n"));
	}
	assert_non_null(strstr(man, ".TH KHASH\\-BENCH 1 \"2026-01-02\""));
	/* a command's help: its synopsis, what --count counts, its options */
	assert_non_null(strstr(skew, "Usage: khash-bench skew (--func F --bits N | --table NAME"));
	assert_non_null(strstr(skew, "keys in the key set (default 4096)"));
	assert_non_null(strstr(skew, "--keys FILE"));
	assert_non_null(strstr(skew, "--plot DIR"));
	assert_null(strstr(skew, "--hist"));
	assert_non_null(strstr(skew, "(--gen G | --multiplier K [--width 32|64] | --sgen G,H | --source FILE --call EXPR"));
	assert_null(strstr(skew, "--preset"));
	free(usage);
	free(man);
	free(skew);
}

static void report_usage(FILE *f)
{
	kb_command_usage(f, kb_command_find("report"));
}

/* A list option's default, as report's help writes it, read back by the
 * parser is the row's default: the help cannot drift from the value. */
static void list_defaults_read_back(void **state)
{
	char *usage = capture(report_usage), label[64], names[256], line[300];
	struct kb_args a;
	unsigned i, n = 0;

	(void)state;
	for (i = 0; i < KB_OPT_COUNT_; i++) {
		const struct kb_option_info *o = &kb_options[i];
		const char *p;
		size_t len = 0;
		uint32_t v;

		if (o->kind != KB_ARG_LIST || !o->dflt)
			continue;
		assert_true(kb_command_takes(kb_command_find("report")) & (UINT64_C(1) << i));
		snprintf(label, sizeof(label), "  --%s %s ", o->name, o->arg);
		p = strstr(usage, label);
		assert_non_null(p);
		p = strstr(p, "(default: ");
		assert_non_null(p);
		for (p += strlen("(default: "); *p && *p != ')' && *p != ';'; p++)
			if (*p != ' ' && *p != '\n' && len + 1 < sizeof(names))
				names[len++] = *p;
		names[len] = '\0';
		snprintf(line, sizeof(line), "report --%s %s", o->name, names);
		assert_int_equal(parse(&a, line), 0);
		memcpy(&v, (const char *)&a + o->offset, sizeof(v));
		assert_int_equal(v, o->dflt);
		n++;
	}
	assert_int_equal(n, 4); /* --keysets, --funcs, --gens, --words */
	free(usage);
}

/* --kind's choices are the table kinds, in their order: a row's names and
 * kb_table_kind_name cannot part. */
static void kind_choices_are_the_table_kinds(void **state)
{
	const char *p = kb_options[KB_OPT_KIND].arg;
	char line[128];
	struct kb_args a;
	int k, n = 1;

	(void)state;
	for (; *p; p++)
		n += *p == '|';
	assert_int_equal(n, KB_KIND_COUNT_);
	for (k = 0; k < KB_KIND_COUNT_; k++) {
		snprintf(line, sizeof(line), "advise --keyset seq --bits 8 --kind %s",
			 kb_table_kind_name((enum kb_table_kind)k));
		assert_int_equal(parse(&a, line), 0);
		assert_int_equal(a.kind, k);
	}
}

/* Every option a command takes is in its synopsis (help, man page and
 * README all print kb_synopsis), and none it does not take. */
static void synopses_name_every_option(void **state)
{
	char syn[1024], want[64];
	unsigned i, j;

	(void)state;
	for (i = 0; i < kb_command_count; i++) {
		kb_synopsis(syn, sizeof(syn), &kb_commands[i]);
		for (j = 0; j < KB_OPT_COUNT_; j++) {
			const struct kb_option_info *o = &kb_options[j];
			int takes = (kb_command_takes(&kb_commands[i]) & (UINT64_C(1) << j)) != 0;
			const char *p;
			int found = 0;

			if (j == KB_OPT_HELP || j == KB_OPT_VERSION)
				continue;
			snprintf(want, sizeof(want), "--%s", o->name);
			for (p = strstr(syn, want); p && !found; p = strstr(p + 1, want))
				found = strchr(" ])", p[strlen(want)]) != NULL; /* or the end */
			if (o->short_name && o->arg) {
				snprintf(want, sizeof(want), "[-%c %s]", o->short_name, o->arg);
				found |= strstr(syn, want) != NULL;
			}
			if (found != takes)
				fail_msg("%s: --%s %s", kb_commands[i].name, o->name,
					 takes ? "missing from its synopsis" : "in its synopsis, not taken");
		}
	}
	kb_synopsis(syn, sizeof(syn), kb_command_find("hash"));
	assert_non_null(strstr(syn, "[--format text] [-o FILE] [FILE|-]")); /* operands last */
	kb_synopsis(syn, sizeof(syn), kb_command_find("list"));
	assert_string_equal(syn, "");
}

/* Values at the edges of their ranges and one past them. */
static void values_at_their_edges(void **state)
{
	struct kb_args a;
	char line[128];

	(void)state;
	snprintf(line, sizeof(line), "waittable --count %d", KB_WAITERS_MIN);
	assert_int_equal(parse(&a, line), 0);
	snprintf(line, sizeof(line), "waittable --count %d", KB_WAITERS_MAX);
	assert_int_equal(parse(&a, line), 0);
	assert_true(a.kp.count == KB_WAITERS_MAX);
	snprintf(line, sizeof(line), "waittable --count %d", KB_WAITERS_MIN - 1);
	assert_int_equal(parse(&a, line), KB_EXIT_USAGE);
	snprintf(line, sizeof(line), "waittable --count %d", KB_WAITERS_MAX + 1);
	assert_int_equal(parse(&a, line), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --size 1"), 0);
	assert_true(a.kp.size == 1);
	snprintf(line, sizeof(line), SKEW " --size %d", KB_MAX_SIZE);
	assert_int_equal(parse(&a, line), 0);
	assert_true(a.kp.size == KB_MAX_SIZE);
	assert_int_equal(parse(&a, SKEW " --size 16MiB"), 0);
	assert_true(a.kp.size == KB_MAX_SIZE); /* 16 MiB is the limit */
	assert_int_equal(parse(&a, SKEW " --size 0"), KB_EXIT_USAGE);
	snprintf(line, sizeof(line), SKEW " --size %d", KB_MAX_SIZE + 1);
	assert_int_equal(parse(&a, line), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --threads 1"), 0);
	assert_int_equal(parse(&a, SKEW " --threads 64"), 0);
	assert_int_equal(a.threads, 64);
	assert_int_equal(parse(&a, SKEW " --threads 0"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --threads 65"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --count 1"), 0);
	assert_true(a.kp.count == 1);
	assert_int_equal(parse(&a, SKEW " --count 18446744073709551615"), 0);
	assert_true(a.kp.count == UINT64_MAX);
	assert_int_equal(parse(&a, SKEW " --count 18446744073709551616"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --count 0"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --count 1M"), 0);
	assert_true(a.kp.count == 1000000);
	assert_int_equal(parse(&a, SKEW " --count 1Mi"), 0);
	assert_true(a.kp.count == 1048576);
	assert_int_equal(parse(&a, SKEW " --count 1e6"), 0);
	assert_true(a.kp.count == 1000000);
	assert_int_equal(parse(&a, SKEW " --count 1.5e0"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "report --step 1"), 0);
	assert_int_equal(a.step, 1);
	assert_int_equal(parse(&a, "report --step 0"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --max-memory 4GiB"), 0);
	assert_true(a.max_memory == KB_DEFAULT_MAX_MEMORY);
	assert_int_equal(parse(&a, SKEW " --max-memory 4G"), 0);
	assert_true(a.max_memory == UINT64_C(4) << 30);
	assert_int_equal(parse(&a, SKEW " --max-memory 4GB"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --word 32"), 0);
	assert_int_equal(parse(&a, SKEW " --word 64"), 0);
	assert_int_equal(parse(&a, SKEW " --word 31"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --word 65"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "audit --multiplier 3 --width 32"), 0);
	assert_int_equal(parse(&a, "audit --multiplier 3 --width 64"), 0);
	assert_int_equal(parse(&a, "audit --multiplier 3 --width 33"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "audit --width 32"), KB_EXIT_USAGE);
}

/* Every compound value at its edges: its last field followed by anything
 * (a space, a sign, a separator, a letter) is refused, as is a field
 * missing or empty; the exact forms are taken. */
static void compound_values_refuse_trailing_text(void **state)
{
	static const char *const bad[] = {
		/* --hist KEYSET:FUNC:WORD:BITS */
		"report --hist page4k:hash_64:64:11x", "report --hist page4k:hash_64:64:11:",
		"report --hist page4k:hash_64:64:11:3", "report --hist page4k:hash_64:64:+11",
		"report --hist page4k:hash_64:64:-4294967285", "report --hist page4k:hash_64:064:11",
		"report --hist page4k:hash_64:64:", "report --hist page4k:hash_64:64",
		"report --hist page4k:hash_64x:64:11", "report --hist page4kx:hash_64:64:11",
		"report --hist :hash_64:64:11", "report --hist page4k:hash_64:64:21",
		"report --hist page4k:hash_64:64:0",
		/* --param [NAME=]N */
		"skew --table inode-hash --gen new --keyset seq --param 5x",
		"skew --table inode-hash --gen new --keyset seq --param sb=5x",
		"skew --table inode-hash --gen new --keyset seq --param sb=",
		"skew --table inode-hash --gen new --keyset seq --param =5",
		"skew --table inode-hash --gen new --keyset seq --param sb=+5",
		"skew --table inode-hash --gen new --keyset seq --param sb=5=6",
		/* the lists: --keysets, --funcs, --gens, --words, --gen, --candidates */
		"report --keysets seq,", "report --keysets ,seq", "report --keysets seq,,random",
		"report --funcs hash_64,", "report --gens new,", "report --words 64,",
		"report --words 64,32x", SKEW " --gen new,", "skew --func hash_64 --bits 8 --gen new,,old --keyset seq",
		"advise --keyset seq --bits 8 --candidates jhash,",
		/* the choices and numbers */
		"audit --multiplier 3 --width 32x", "audit --multiplier 3x", SKEW " --count 1kx",
		SKEW " --count 1k ", SKEW " --bits 8x", SKEW " --max-memory 4GiBx", SKEW " --seed 1x",
	};
	static const char *const good[] = {
		"report --hist page4k:hash_64:64:11", "report --hist page4k:hash_64:32:20",
		"report --hist page4k:hash_64:64:1",
		"skew --table inode-hash --gen new --keyset seq --param 5",
		"report --keysets seq,random", "report --words 64,32", SKEW " --count 1k",
	};
	struct kb_args a;
	char line[256], *sp;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* parse() splits at spaces: "1k " is "1k" and an empty word, so
		 * glue the trailing space on with no split */
		snprintf(line, sizeof(line), "%s", bad[i]);
		sp = line + strlen(line) - 1;
		if (*sp == ' ') {
			struct kb_args b;
			char *argv[16], *save = NULL, *w;
			int argc = 0;
			static char words[256], last[64];

			*sp = '\0';
			snprintf(words, sizeof(words), "%s", line);
			for (w = strtok_r(words, " ", &save); w && argc < 15; w = strtok_r(NULL, " ", &save))
				argv[argc++] = w;
			snprintf(last, sizeof(last), "%s ", argv[argc - 1]);
			argv[argc - 1] = last;
			argv[argc] = NULL;
			assert_int_equal(kb_parse_args(argc, argv, &b), KB_EXIT_USAGE);
			continue;
		}
		if (parse(&a, line) != KB_EXIT_USAGE)
			fail_msg("taken: %s", bad[i]);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (parse(&a, good[i]) != 0)
			fail_msg("refused: %s", good[i]);
	assert_int_equal(parse(&a, "report --hist btrfs-stripe:hash_ptr:32:20"), 0);
	assert_int_equal(a.nhist, 1);
	assert_int_equal(a.hist[0].keyset, KB_KS_BTRFS_STRIPE);
	assert_int_equal(a.hist[0].word, 32);
	assert_int_equal(a.hist[0].bits, 20);
}

/* The man page's examples: one a command, each a command line the
 * parser takes, shown in EXAMPLES. */
static void every_command_has_an_example(void **state)
{
	char *man = capture(man_page), want[512], line[512];
	unsigned i, j, n;
	struct kb_args a;

	(void)state;
	assert_non_null(strstr(man, "\n.SH EXAMPLES\n"));
	for (i = 0; i < kb_command_count; i++) {
		size_t len = strlen(kb_commands[i].name);

		for (j = 0, n = 0; j < kb_example_count; j++)
			n += !strncmp(kb_examples[j].args, kb_commands[i].name, len) &&
			     kb_examples[j].args[len] == (kb_examples[j].args[len] ? ' ' : '\0');
		if (n != 1)
			fail_msg("%s: %u examples", kb_commands[i].name, n);
	}
	assert_int_equal(kb_example_count, kb_command_count);
	for (j = 0; j < kb_example_count; j++) {
		snprintf(line, sizeof(line), "%s", kb_examples[j].args);
		if (parse(&a, line) != 0)
			fail_msg("example refused: %s", kb_examples[j].args);
		/* its first word, as roff writes it (no hyphen in a command) */
		snprintf(want, sizeof(want), "\n.B khash\\-bench %.*s", (int)strcspn(line, " "),
			 kb_examples[j].args);
		assert_non_null(strstr(man, want));
	}
	free(man);
}

/* An option given again: the last value wins (an override), --hist adds
 * up, and an output named twice is refused. */
static void repeated_options(void **state)
{
	struct kb_args a;

	(void)state;
	assert_int_equal(parse(&a, SKEW " -o a -o b"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --plot a --plot=a"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, SKEW " --seed 1 --seed 2"), 0);
	assert_true(a.kp.seed == 2);
	assert_int_equal(parse(&a, SKEW " --bits 9"), 0);
	assert_int_equal(a.bits, 9);
	assert_int_equal(parse(&a, SKEW " -q --quiet"), 0);
	assert_int_equal(parse(&a, "report --hist seq:hash_64:64:8 --hist seq:hash_32:32:8"), 0);
	assert_int_equal(a.nhist, 2);
	assert_int_equal(parse(&a, SKEW " --help --help"), 0); /* help asked for is help */
}

static void help_wins_over_errors(void **state)
{
	struct kb_args a;

	(void)state;
	assert_int_equal(parse(&a, SKEW " --help --bogus"), 0);
	assert_int_equal(a.action, KB_HELP);
	assert_int_equal(parse(&a, SKEW " --bits ten -h"), 0);
	assert_int_equal(a.action, KB_HELP);
	assert_int_equal(parse(&a, "list --plot x -V"), 0);
	assert_int_equal(a.action, KB_VERSION);
	/* a -h that is an option's value is a value */
	assert_int_equal(parse(&a, "skew --func hash_64 --bits 8 --gen new --keys -h"), 0);
	assert_int_equal(a.action, KB_RUN);
	assert_string_equal(a.keys, "-h");
}

/* --multiplier is generation K where a generation is taken: alone it is
 * the generation, --gen all takes it too, a list must name it, and K
 * without a multiplier, or in advise, is refused. */
static void multiplier_is_generation_k(void **state)
{
	struct kb_args a;
	const unsigned hash_h = (1u << LKH_GEN_COUNT) - 1, k = 1u << KB_GEN_K;

	(void)state;
	assert_int_equal(parse(&a, "skew --func hash_64 --bits 8 --keyset seq --multiplier 3"), 0);
	assert_int_equal(a.gen, KB_GEN_K);
	assert_int_equal(a.gen_mask, k);
	assert_int_equal(parse(&a, "skew --func hash_64 --bits 8 --keyset seq --gen all --multiplier 3"), 0);
	assert_int_equal(a.gen_mask, hash_h | k);
	assert_int_equal(a.gen, LKH_GEN_OLD);
	assert_int_equal(parse(&a, "skew --func hash_64 --bits 8 --keyset seq --gen all"), 0);
	assert_int_equal(a.gen_mask, hash_h);
	assert_int_equal(parse(&a, "skew --func hash_64 --bits 8 --keyset seq --gen new,K --multiplier 3"), 0);
	assert_int_equal(a.gen_mask, 1u << LKH_GEN_NEW | k);
	assert_int_equal(a.gen, LKH_GEN_NEW);
	assert_int_equal(parse(&a, "skew --func hash_64 --bits 8 --keyset seq --gen new --multiplier 3"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "skew --func hash_64 --bits 8 --keyset seq --gen K"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "hash --func hash_64 --bits 8 --gen K --multiplier 0x61c88647"), 0);
	assert_int_equal(a.gen, KB_GEN_K);
	assert_int_equal(a.multiplier, 0x61c88647u);
	assert_int_equal(parse(&a, "skew --func hash_64 --bits 8 --keyset seq --width 64"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "report"), 0);
	assert_int_equal(a.ro.gens, hash_h);
	assert_int_equal(parse(&a, "report --multiplier 3"), 0);
	assert_int_equal(a.ro.gens, hash_h | k);
	assert_int_equal(parse(&a, "report --gens old,K --multiplier 3"), 0);
	assert_int_equal(a.ro.gens, 1u << LKH_GEN_OLD | k);
	assert_int_equal(parse(&a, "report --gens old --multiplier 3"), KB_EXIT_USAGE);
	assert_int_equal(parse(&a, "report --gens K"), KB_EXIT_USAGE);
	/* advise ranks its multiplier as a candidate; its table's hash is hash.h's */
	assert_int_equal(parse(&a, "advise --keyset seq --bits 8 --multiplier 3"), 0);
	assert_int_equal(a.gen_mask & k, 0);
	assert_int_equal(parse(&a, "advise --keyset seq --bits 8 --gen K --multiplier 3"), KB_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tables_are_consistent),
		cmocka_unit_test(defaults_come_from_the_command),
		cmocka_unit_test(options_a_command_does_not_take_are_refused),
		cmocka_unit_test(operands_are_counted),
		cmocka_unit_test(formats_are_checked_per_command),
		cmocka_unit_test(help_and_version_win),
		cmocka_unit_test(values_are_parsed),
		cmocka_unit_test(usage_and_man_page_list_the_tables),
		cmocka_unit_test(synopses_name_every_option),
		cmocka_unit_test(list_defaults_read_back),
		cmocka_unit_test(kind_choices_are_the_table_kinds),
		cmocka_unit_test(values_at_their_edges),
		cmocka_unit_test(repeated_options),
		cmocka_unit_test(help_wins_over_errors),
		cmocka_unit_test(multiplier_is_generation_k),
		cmocka_unit_test(compound_values_refuse_trailing_text),
		cmocka_unit_test(every_command_has_an_example),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
