/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
/*
 * The table of options (its rows are KB_OPTION_TABLE, cli_args.h) and
 * how each row's argument is read into struct kb_args: numbers, sizes,
 * choices, lists of names, and the rows' own parsers.
 */
#include "cli_args.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <khash/lkh_table.h>

#include "advise.h"
#include "candidates.h"
#include "cli_internal.h"
#include "hashspec.h"
#include "number.h"
#include "tables.h"

/* Functions that index a table: those that take bits in some cell. */
static int takes_bits(lkh_func f)
{
	return lkh_bits_max(f, KB_GEN_TODAY, 64) > 0 ||
	       lkh_bits_max(f, KB_GEN_TODAY, 32) > 0;
}

/* The bucket functions (funcs 1) or the generations one names (0, U
 * being --source's; -1: hash.h's, K aside), joined by sep. */
const char *kb_name_list(char *out, size_t len, const char *sep, int funcs)
{
	size_t used = 0;
	unsigned i, n = funcs > 0 ? LKH_FUNC_COUNT : funcs ? LKH_GEN_COUNT : KB_GEN_K + 1;

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
			       kb_name_list(list, sizeof(list), ", ", 1));
	return 0;
}

static int parse_gen(const char *s, int *g)
{
	char list[128];

	if (kb_gen_from_name(s, g) < 0)
		return kb_fail(KB_EXIT_USAGE, "unknown generation '%s' (%s)", s,
			       kb_name_list(list, sizeof(list), ", ", 0));
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
const char *kb_family_list(char *out, size_t len)
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
		       kb_family_list(list, sizeof(list)));
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

static int one_sgen(const char *s, int *v)
{
	lkh_sgen g;

	if (lkh_sgen_from_name(s, &g) != LKH_OK)
		return kb_fail(KB_EXIT_USAGE, "unknown string-hash generation '%s' (see 'khash-bench list')", s);
	*v = (int)g;
	return 0;
}

static const char *sgen_name(int g)
{
	return lkh_sgen_name((lkh_sgen)g);
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
	kb_name_list(list, sizeof(list), ", ", 1);
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

static int opt_name_set(const char *arg, struct kb_args *a)
{
	a->name_set = kb_name_set_find(arg);
	if (a->name_set < 0)
		return kb_fail(KB_EXIT_USAGE, "unknown name set '%s' (see 'khash-bench list')", arg);
	return 0;
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
	a->stable = a->table < 0 ? kb_string_table_find(arg) : -1;
	if (a->table < 0 && a->stable < 0)
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

/* -I DIR and -D NAME[=V], kept in order for the compiler */
static int opt_flag(const char *arg, const char *what, const char **list, unsigned *n)
{
	if (*n == KB_USER_MAX_FLAGS)
		return kb_fail(KB_EXIT_USAGE, "at most %d %s", KB_USER_MAX_FLAGS, what);
	if (!*arg)
		return kb_fail(KB_EXIT_USAGE, "%s takes a non-empty argument", what);
	list[(*n)++] = arg;
	return 0;
}

static int opt_include(const char *arg, struct kb_args *a)
{
	return opt_flag(arg, "--include", a->user.include, &a->user.ninclude);
}

static int opt_define(const char *arg, struct kb_args *a)
{
	return opt_flag(arg, "--define", a->user.define, &a->user.ndefine);
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

/* Store v in option o's field of a. */
void kb_option_store(struct kb_args *a, const struct kb_option_info *o, uint64_t v)
{
	char *field = (char *)a + o->offset;

	if (o->size == sizeof(uint64_t)) {
		memcpy(field, &v, sizeof(v));
	} else {
		uint32_t v32 = (uint32_t)v; /* int, unsigned and enum fields */

		memcpy(field, &v32, sizeof(v32));
	}
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

		kb_append(out, len, &used, "%s%.*s", !used ? "" : p[n] ? ", " : " or ", (int)n, p);
		p += n + (p[n] == '|');
	}
	return out;
}

/* Option id's argument into its field, as its row says. */
int kb_option_parse(int id, const char *arg, struct kb_args *a)
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
		kb_option_store(a, o, v);
	return 0;
}
