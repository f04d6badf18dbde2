/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
/*
 * The help and the man page, written from the command and option tables:
 * each command's synopsis (from its groups), its options' help as that
 * command means them, the usage of all, and khash-bench(1) in roff.
 */
#include "cli_args.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <khash/lkh.h>

#include "candidates.h"
#include "cli_internal.h"
#include "number.h"
#include "schemas.h"

/* --hist may be given again: the synopsis says so */
#define KB_REPEATABLE KB_OPT(HIST)

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

/* A space between words, none at the start or after an opening bracket. */
static void space(char *out, size_t len, size_t *used)
{
	if (*used && *used < len && out[*used - 1] != '(' && out[*used - 1] != '[')
		kb_append(out, len, used, " ");
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
			kb_append(out, len, used, "%s-%c %s", optional ? "[" : "", o->short_name, arg);
		else
			kb_append(out, len, used, "%s--%s%s%s", optional ? "[" : "", o->name,
				  arg ? " " : "", arg ? arg : "");
		kb_append(out, len, used, "%s%s", optional ? "]" : "",
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
			kb_append(out, len, used, " |");
		if (optional || (several && !i)) {
			space(out, len, used);
			kb_append(out, len, used, optional ? "[" : "(");
		}
		synopsis_options(out, len, used, c, alt->key, 0);
		synopsis_options(out, len, used, c, alt->needs, 0);
		synopsis_options(out, len, used, c, alt->takes, 1);
		if (optional)
			kb_append(out, len, used, "]");
		members |= alt->key | alt->needs | alt->takes;
	}
	if (several && !optional)
		kb_append(out, len, used, ")");
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
		kb_append(out, len, &used, "%s", c->operand_syntax);
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
			kb_append(out, len, &used, "%s%s", used ? ", " : "", o->name_of((int)bit));
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
	{ "conform", KB_OPT_GEN, "exit 0 only when it reproduces a cell of this generation: %g (default: any)" },
	{ "conform", KB_OPT_FUNC, "compare only with this function: hash_32, hash_64, hash_long, hash_ptr (default: all four)" },
	{ "conform", KB_OPT_WORD, "compare only on this word size, 32 or 64 (default: both), and price the key sets on it (default: this build's)" },
	{ "conform", KB_OPT_SEED, "seed of the random keys compared and of the random key set (default %D)" },
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
			sub = kb_name_list(list, sizeof(list), ", ", h[1] == 'F');
		if (h[0] == '%' && h[1] == 'g')
			sub = kb_name_list(list, sizeof(list), ", ", -1);
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
			sub = kb_family_list(list, sizeof(list));
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
		kb_name_list(funcs, sizeof(funcs), " ", 1),
		kb_name_list(gens, sizeof(gens), " ", 0), lkh_bits_per_long());
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

/* The machine-readable outputs, from the rows that write them: each JSON
 * document's name and version, and each record's fields as CSV's header
 * and JSON's object name them. */
static void manpage_formats(FILE *to)
{
	struct kb_buf names = { 0 };
	unsigned i;
	char *s;

	fprintf(to, ".SH OUTPUT FORMATS\n");
	roff(to, "Text is for reading. With --format csv a command writes one record a row under "
		 "a header, the first column the record's schema version; with --format json one "
		 "document, whose \"schema\" and \"schema_version\" members come first. A version "
		 "grows when a field joins or changes meaning; CSV columns only ever join at the "
		 "end, so read them by the header's names. Non-finite numbers are inf or -inf in "
		 "CSV and null in JSON. multiplier and multiplier_width name generation K's "
		 "multiplier (0x...) and the width it multiplies (empty where it multiplies "
		 "nothing, as at hash32_ptr); for hash.h's generations CSV leaves them empty "
		 "and JSON out.");
	fprintf(to, "\n.SS Documents\n");
	for (i = 0; i < KB_DOC_COUNT_; i++) {
		fprintf(to, ".TP\n.B khash\\-bench/%s\n", kb_docs[i].name);
		fprintf(to, "version %u: ", kb_docs[i].version);
		roff(to, kb_docs[i].holds);
		fprintf(to, ".\n");
	}
	fprintf(to, ".SS Records\n");
	for (i = 0; i < KB_REC_COUNT_; i++) {
		const struct kb_record_row *r = &kb_records[i];

		fprintf(to, ".TP\n.B ");
		roff(to, r->writers);
		fprintf(to, "\nOne row: ");
		roff(to, r->row);
		fprintf(to, "; CSV schema %u.\n.br\nCSV: ", r->csv_version);
		names.len = 0;
		r->names(&names, KB_FIELDS_CSV_HEAD);
		/* a space after each comma, so that the list can break */
		for (s = names.data; s && *s && *s != '\n'; s++) {
			if (*s == ',')
				fputs(", ", to);
			else
				fputc(*s, to);
		}
		fprintf(to, "\n.br\nJSON: ");
		if (!r->json_object) {
			fprintf(to, "the document above, not an object a row\n");
			continue;
		}
		names.len = 0;
		r->names(&names, KB_FIELDS_JSON_NAMES);
		for (s = names.data; s && *s && *s != '\n'; s++)
			fputc(*s, to);
		fprintf(to, "\n");
	}
	kb_buf_free(&names);
}

void kb_manpage(FILE *to, const char *date)
{
	char label[64], help[512], funcs[128], gens[128], syn[1024];
	unsigned i, j;

	fprintf(to, ".\\\" Generated from khash-bench's command table (bench/cli/commands.c).\n");
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
	roff(to, kb_name_list(funcs, sizeof(funcs), ", ", 1));
	fprintf(to, ".\nGenerations: ");
	roff(to, kb_name_list(gens, sizeof(gens), ", ", 0));
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
	manpage_formats(to);
	fprintf(to, ".SH FILES\nKey files hold one integer per line, decimal or hexadecimal after 0x; a '#' starts a comment, blank lines and CRLF line ends are allowed.  With\n.B \\-\\-binary\nthey are little\\-endian u64.\n");
	fprintf(to, ".SH EXIT STATUS\n0 on success, 1 for a runtime error (a file, memory), 2 for a usage error.  Every error is one line on standard error, and no partial output file is left.\n");
	fprintf(to, ".SH SEE ALSO\nThe README of libkhash, and <khash/lkh.h>.\n");
}
