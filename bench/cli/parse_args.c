/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
/*
 * The parser: a command line against its command's row and the option
 * table, every option read once into struct kb_args, then the groups,
 * generations, operands and format checked.  Every refusal is one line
 * and exit status 2.
 */
#include "cli_args.h"

#include <getopt.h>
#include <string.h>

#include <khash/lkh.h>

#include "cli_internal.h"
#include "hashspec.h"

/* outputs: given twice, one would be silently dropped */
#define KB_ONCE (KB_OPT(OUTPUT) | KB_OPT(PLOT))

/* The defaults every command starts from: each option's row's, --count's
 * the command's, --word this build's. */
static void set_defaults(struct kb_args *a, const struct kb_command *c)
{
	unsigned i;

	memset(a, 0, sizeof(*a));
	a->cmd = c;
	for (i = 0; i < KB_OPT_COUNT_; i++)
		if (kb_options[i].size && kb_options[i].kind != KB_ARG_STRING)
			kb_option_store(a, &kb_options[i], kb_options[i].dflt);
	a->word = lkh_bits_per_long();
	a->format = KB_FORMAT_TEXT;
	a->kp.count = c->count_default;
	a->gen_mask = 1u << a->gen;
	a->stable = -1;
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
	/* generation U is --source's: alone it is the generation (report's
	 * too), beside --gen or --gens (all, or a list) one more */
	if ((kb_command_takes(a->cmd) & KB_OPT(SOURCE)) &&
	    !(a->cmd->flags & (KB_OWN_SOURCE | KB_SOURCE_CANDIDATE)) && KB_GIVEN(a, SOURCE)) {
		*mask = (listed || KB_GIVEN(a, MULTIPLIER) ? *mask : 0) |
			1u << KB_GEN_USER;
		/* a command of one cell (hash, influence, explain: --gen takes
		 * one) would judge one of them and drop the other unsaid;
		 * tables and census judge every generation */
		if ((kb_command_takes(a->cmd) & KB_OPT(GEN)) && !(a->cmd->flags & KB_GEN_LIST) &&
		    (*mask & (*mask - 1)))
			return kb_fail(KB_EXIT_USAGE, "%s takes one generation: --source or --%s, not both",
				       a->cmd->name, listed ? "gen" : "multiplier");
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
			kb_append(out, len, &used, "%s--%s", !n++ ? "" : n == total ? last : ", ",
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
			kb_append(list, sizeof(list), &used, "%s--%s", n ? ", " : "", kb_options[i].name);
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
		/* where one would look for --source and find none, why not */
		if (!(takes & (UINT64_C(1) << id)) && id == KB_OPT_SOURCE && c->no_source)
			return kb_fail(KB_EXIT_USAGE, "option '--source' is not used by '%s': %s",
				       c->name, c->no_source);
		if (!(takes & (UINT64_C(1) << id)))
			return kb_fail(KB_EXIT_USAGE, "option '--%s' is not used by '%s' (see 'khash-bench %s --help')",
				       kb_options[id].name, c->name, c->name);
		/* the last value wins, as in getopt tools (a script's base
		 * command line, then an override), but an output named twice is
		 * refused, as GNU sort's -o: one of them would never be written */
		if ((a->given & KB_ONCE) & (UINT64_C(1) << id))
			return kb_fail(KB_EXIT_USAGE, "--%s given twice", kb_options[id].name);
		a->given |= UINT64_C(1) << id;
		if ((rc = kb_option_parse(id, optarg, a)))
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
