/* SPDX-License-Identifier: MIT */
#include "scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

const struct kb_scan_kind_row kb_scan_kinds[KB_SCAN_KIND_COUNT] = {
	[KB_SCAN_OLD_PRIME] = { "old-prime",
				"the pre-4.7 sparse multiplier: keys a power of two apart share buckets (the 2016 bug)",
				KB_JUDGE_AUDIT },
	[KB_SCAN_GOLDEN] = { "golden-ratio", "today's multiplier: check the copy computes the kernel's hash",
			     KB_JUDGE_AUDIT },
	[KB_SCAN_NEGATED] = { "negated-golden",
			      "the kernel's buckets come out mirrored",
			      KB_JUDGE_AUDIT },
	[KB_SCAN_EVEN_CONSTANT] = { "even-constant",
				    "even: as a multiplier the key's top bit never counts",
				    KB_JUDGE_CONFORM },
	[KB_SCAN_EVEN_MULTIPLY] = { "even-multiplier",
				    "an even multiplier before a shift: the key's top bit never counts",
				    KB_JUDGE_CONFORM },
	[KB_SCAN_LOW_BITS] = { "low-bits-kept",
			       "a product's low bits kept (& or %, no >>): they depend on the key's low bits alone",
			       KB_JUDGE_CONFORM },
	[KB_SCAN_SHIFT_WIDTH] = { "shift-by-width",
				  "a shift by the word minus a count: undefined in C when the count is 0, and no guard seen",
				  KB_JUDGE_CONFORM_UB },
	[KB_SCAN_HASH64_IN_32] = { "hash64-in-32-bits",
				   "hash_64()'s result kept in 32 bits: past bits 32 its top bits are lost",
				   KB_JUDGE_CONFORM },
};

#define HASHLIKE_MIN (UINT64_C(1) << KB_SCAN_HASHLIKE_BITS)
#define EVEN_MIN (UINT64_C(1) << KB_SCAN_EVEN_BITS)

enum { COMMENT, CODE, STRING };

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int ident_start(char c)
{
	return ident_char(c) && !(c >= '0' && c <= '9');
}

void kb_scan_start(struct kb_scan_state *s)
{
	memset(s, 0, sizeof(*s));
}

/* code[i]: CODE where line[i] is code, COMMENT in a comment, STRING in a
 * string or character literal (an asm template's `*0x12(%rax)` is no
 * multiply); s's open block comment carried in and out. */
static void comment_map(struct kb_scan_state *s, const char *line, size_t len, char *code)
{
	char quote = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (s->in_block_comment) {
			code[i] = COMMENT;
			if (line[i] == '*' && i + 1 < len && line[i + 1] == '/') {
				code[++i] = COMMENT;
				s->in_block_comment = 0;
			}
			continue;
		}
		if (quote) {
			code[i] = STRING;
			if (line[i] == '\\' && i + 1 < len)
				code[++i] = STRING;
			else if (line[i] == quote)
				quote = 0;
			continue;
		}
		if (line[i] == '/' && i + 1 < len && line[i + 1] == '/') {
			memset(code + i, COMMENT, len - i);
			return;
		}
		if (line[i] == '/' && i + 1 < len && line[i + 1] == '*') {
			code[i] = code[i + 1] = COMMENT;
			i++;
			s->in_block_comment = 1;
			continue;
		}
		if (line[i] == '"' || line[i] == '\'')
			quote = line[i];
		code[i] = quote ? STRING : CODE;
	}
}

/* A number literal at line[i] (a token's start): its value in *v and
 * the index past it and its suffix in *end; 0 when it is none, is octal,
 * or does not fit 64 bits. */
static int number_at(const char *line, size_t len, size_t i, uint64_t *v, size_t *end)
{
	unsigned base = 10, digits = 0;
	uint64_t x = 0;

	if (i < len && line[i] == '0' && i + 1 < len && (line[i + 1] == 'x' || line[i + 1] == 'X')) {
		base = 16;
		i += 2;
	} else if (i < len && line[i] == '0' && i + 1 < len && line[i + 1] >= '0' && line[i + 1] <= '9') {
		return 0;
	}
	for (; i < len; i++, digits++) {
		char c = line[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (x > (UINT64_MAX - d) / base)
			return 0;
		x = x * base + d;
	}
	if (!digits)
		return 0;
	while (i < len && (line[i] == 'u' || line[i] == 'U' || line[i] == 'l' || line[i] == 'L'))
		i++;
	/* 0x12g or 1.5 is no literal of ours; a full stop after one is prose */
	if (i < len && (ident_char(line[i]) ||
			(line[i] == '.' && i + 1 < len && line[i + 1] >= '0' && line[i + 1] <= '9')))
		return 0;
	*v = x;
	*end = i;
	return 1;
}

static size_t skip_spaces(const char *line, size_t len, size_t i)
{
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	return i;
}

static int starts(const char *line, size_t len, size_t i, const char *word)
{
	size_t n = strlen(word);

	return i + n <= len && !memcmp(line + i, word, n);
}

/* A word (identifier) from i: its end. */
static size_t word_end(const char *line, size_t len, size_t i)
{
	while (i < len && ident_char(line[i]))
		i++;
	return i;
}

static size_t add(struct kb_scan_finding *out, size_t n, size_t max, enum kb_scan_kind kind,
		  size_t col, const char *code)
{
	if (n >= max)
		return n;
	memset(&out[n], 0, sizeof(out[n]));
	out[n].kind = kind;
	out[n].column = (unsigned)col + 1;
	out[n].in_comment = code[col] == COMMENT;
	out[n].delta = -1;
	return n + 1;
}

/* `>>` (or `<<`) in the code of line[from..len)? */
static int shift_after(const char *line, const char *code, size_t len, size_t from)
{
	size_t i;

	for (i = from; i + 1 < len; i++)
		if (code[i] == CODE && line[i] == '>' && line[i + 1] == '>')
			return 1;
	return 0;
}

/* Every kernel multiplier, negated or not, as a literal anywhere. */
static size_t constants(const char *line, size_t len, const char *code,
			struct kb_scan_finding *out, size_t n, size_t max)
{
	size_t i, end;

	for (i = 0; i < len; i++) {
		const char *name;
		uint64_t v;
		int delta;
		unsigned w;

		if (!(line[i] >= '0' && line[i] <= '9') || (i && (ident_char(line[i - 1]) || line[i - 1] == '.')))
			continue;
		if (!number_at(line, len, i, &v, &end)) {
			i = word_end(line, len, i);
			continue;
		}
		w = v >> 32 ? 64 : 32;
		if (v >= HASHLIKE_MIN && kb_conform_known_k(v, w, &name, &delta)) {
			enum kb_scan_kind k = delta < 0 ? (strstr(name, "PRIME") ? KB_SCAN_OLD_PRIME : KB_SCAN_GOLDEN)
					  : delta == 1 ? KB_SCAN_EVEN_CONSTANT : KB_SCAN_NEGATED;
			size_t at = n;

			n = add(out, n, max, k, i, code);
			if (n > at) {
				out[at].value = v;
				out[at].width = w;
				out[at].k_name = name;
				out[at].delta = delta;
			}
		}
		i = end - 1;
	}
	return n;
}

/* `* K` where K is a hash-like literal (or a GOLDEN_RATIO name): even
 * before a shift, or its low bits kept by & or %. */
static size_t multiplies(const char *line, size_t len, const char *code,
			 struct kb_scan_finding *out, size_t n, size_t max)
{
	size_t i, j, end;

	for (i = 1; i < len; i++) {
		const char *name;
		uint64_t v = 0;
		int delta, known, literal;
		size_t p = i, op;

		if (code[i] != CODE || line[i] != '*')
			continue;
		/* a binary multiply: an operand ends just before it */
		while (p > 0 && (line[p - 1] == ' ' || line[p - 1] == '\t'))
			p--;
		if (!p || !(ident_char(line[p - 1]) || line[p - 1] == ')' || line[p - 1] == ']'))
			continue;
		j = i + 1;
		if (j < len && line[j] == '=')
			j++;
		j = skip_spaces(line, len, j);
		while (j < len && line[j] == '(')
			j = skip_spaces(line, len, j + 1);
		if (starts(line, len, j, "UINT64_C(") || starts(line, len, j, "UINT32_C(") ||
		    starts(line, len, j, "ULL("))
			j = skip_spaces(line, len, j + (size_t)(line[j + 3] == '(' ? 4 : 9));
		op = j;
		literal = j < len && line[j] >= '0' && line[j] <= '9' && number_at(line, len, j, &v, &end);
		if (!literal) {
			end = word_end(line, len, j);
			if (end == j || !ident_start(line[j]) || end - j >= 48)
				continue;
			/* a name of the golden ratio's, whatever its value */
			{
				char w[48];

				memcpy(w, line + j, end - j);
				w[end - j] = '\0';
				if (!strstr(w, "GOLDEN_RATIO"))
					continue;
			}
		} else if (v < HASHLIKE_MIN || __builtin_popcountll(v) < KB_SCAN_HASHLIKE_POPCOUNT) {
			continue;
		}
		known = literal && kb_conform_known_k(v, v >> 32 ? 64 : 32, &name, &delta);
		if (literal && !(v & 1) && !known && v >= EVEN_MIN && shift_after(line, code, len, end)) {
			size_t at = n;

			n = add(out, n, max, KB_SCAN_EVEN_MULTIPLY, i, code);
			if (n > at) {
				out[at].value = v;
				out[at].width = v >> 32 ? 64 : 32;
			}
		}
		if (!shift_after(line, code, len, end))
			for (j = end; j < len; j++) {
				int amp = line[j] == '&' && !(j + 1 < len && line[j + 1] == '&') &&
					  !(j && line[j - 1] == '&');

				if (code[j] != CODE || !(amp || line[j] == '%'))
					continue;
				{
					size_t at = n;

					n = add(out, n, max, KB_SCAN_LOW_BITS, i, code);
					if (n > at && literal) {
						out[at].value = v;
						out[at].width = v >> 32 ? 64 : 32;
					} else if (n > at) {
						memcpy(out[at].var, line + op, end - op);
						out[at].var[end - op] = '\0';
					}
				}
				break;
			}
		i = end > i ? end - 1 : i;
	}
	return n;
}

/* Is name tested against 0 in text (bits == 0, !bits, bits ? ..., bits > 0,
 * bits != 0, 0 == bits)? */
static int guarded(const char *text, size_t len, const char *name)
{
	size_t n = strlen(name), i;

	for (i = 0; i + n <= len; i++) {
		size_t j;

		if (memcmp(text + i, name, n) || (i && ident_char(text[i - 1])) ||
		    (i + n < len && ident_char(text[i + n])))
			continue;
		if (i && text[i - 1] == '!')
			return 1;
		j = skip_spaces(text, len, i + n);
		if (starts(text, len, j, "== 0") || starts(text, len, j, "==0") ||
		    starts(text, len, j, "!= 0") || starts(text, len, j, "!=0") ||
		    starts(text, len, j, "> 0") || starts(text, len, j, ">0") ||
		    (j < len && text[j] == '?'))
			return 1;
		j = i;
		while (j > 0 && (text[j - 1] == ' ' || text[j - 1] == '\t'))
			j--;
		if (j >= 2 && !memcmp(text + j - 2, "==", 2) && j >= 3) {
			size_t k = j - 2;

			while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t'))
				k--;
			if (k && text[k - 1] == '0')
				return 1;
		}
	}
	return 0;
}

/* A name in capitals (FEC_HASH_BITS) is taken for a constant, which is
 * not 0. */
static int all_capitals(const char *name)
{
	for (; *name; name++)
		if (*name >= 'a' && *name <= 'z')
			return 0;
	return 1;
}

/* `>> (64 - bits)`, `<< (32 - n)`, `>> (BITS_PER_LONG - t->shift)`:
 * undefined when the count is 0, unless a guard was seen. */
static size_t width_shifts(const struct kb_scan_state *s, const char *line, size_t len,
			   const char *code, struct kb_scan_finding *out, size_t n, size_t max)
{
	static const char *const widths[] = { "64", "32", "BITS_PER_LONG", "__BITS_PER_LONG" };
	size_t i, j, w, k;

	for (i = 0; i + 1 < len; i++) {
		size_t var, var_end, last;
		char name[48];

		if (code[i] != CODE || !((line[i] == '>' && line[i + 1] == '>') || (line[i] == '<' && line[i + 1] == '<')))
			continue;
		j = i + 2;
		if (j < len && line[j] == '=')
			j++;
		j = skip_spaces(line, len, j);
		while (j < len && line[j] == '(')
			j = skip_spaces(line, len, j + 1);
		for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
			if (starts(line, len, j, widths[w]) &&
			    !(j + strlen(widths[w]) < len && ident_char(line[j + strlen(widths[w])])))
				break;
		if (w == sizeof(widths) / sizeof(widths[0]))
			continue;
		j = skip_spaces(line, len, j + strlen(widths[w]));
		if (j >= len || line[j] != '-' || (j + 1 < len && (line[j + 1] == '-' || line[j + 1] == '>')))
			continue;
		j = skip_spaces(line, len, j + 1);
		if (j >= len || !ident_start(line[j]))
			continue;
		/* the count, a name or a member chain (t->bits, h.shift) */
		var = last = j;
		var_end = word_end(line, len, j);
		while (var_end < len) {
			if (starts(line, len, var_end, "->") && var_end + 2 < len && ident_start(line[var_end + 2]))
				last = var_end + 2;
			else if (line[var_end] == '.' && var_end + 1 < len && ident_start(line[var_end + 1]))
				last = var_end + 1;
			else
				break;
			var_end = word_end(line, len, last);
		}
		if (var_end - var >= sizeof(name) - 20 || (var_end < len && line[var_end] == '('))
			continue;
		memcpy(name, line + last, var_end - last);
		name[var_end - last] = '\0';
		if (guarded(line, len, name) || all_capitals(name))
			continue;
		for (k = 0; k < s->nrecent; k++)
			if (guarded(s->recent[k], strlen(s->recent[k]), name))
				break;
		if (k < s->nrecent)
			continue;
		{
			size_t at = n;

			n = add(out, n, max, KB_SCAN_SHIFT_WIDTH, i, code);
			if (n > at) {
				snprintf(out[at].var, sizeof(out[at].var), "%s - %.*s", widths[w],
					 (int)(var_end - var), line + var);
				out[at].width = widths[w][0] == '3' ? 32 : 64;
			}
		}
		i = var_end - 1;
	}
	return n;
}

/* Does text[0..end) end with a 32-bit (or narrower) type name? */
static int narrow_type_before(const char *text, size_t end)
{
	static const char *const types[] = { "u32", "__u32", "uint32_t", "unsigned int", "unsigned",
					     "int", "u16", "__u16", "uint16_t", "u8", "uint8_t",
					     "unsigned short", "short", "unsigned char" };
	size_t t;

	while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '*'))
		end--;
	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		size_t n = strlen(types[t]);

		if (end >= n && !memcmp(text + end - n, types[t], n) && (end == n || !ident_char(text[end - n - 1])))
			return 1;
	}
	return 0;
}

/* `u32 h = hash_64(`, `h = (u32)hash_64(`. */
static size_t hash64_narrowed(const char *line, size_t len, const char *code,
			      struct kb_scan_finding *out, size_t n, size_t max)
{
	size_t i, p;

	for (i = 0; i + 7 <= len; i++) {
		if (code[i] != CODE || !starts(line, len, i, "hash_64") || (i && ident_char(line[i - 1])) ||
		    (i + 7 < len && ident_char(line[i + 7])))
			continue;
		p = skip_spaces(line, len, i + 7);
		if (p >= len || line[p] != '(')
			continue;
		p = i;
		while (p > 0 && (line[p - 1] == ' ' || line[p - 1] == '\t'))
			p--;
		if (p && line[p - 1] == ')') {
			/* a cast (TYPE)hash_64( */
			size_t open = p - 1;

			while (open > 0 && line[open] != '(')
				open--;
			if (line[open] == '(' && narrow_type_before(line + open + 1, p - 1 - (open + 1)))
				n = add(out, n, max, KB_SCAN_HASH64_IN_32, i, code);
			continue;
		}
		if (!p || line[p - 1] != '=' || (p >= 2 && strchr("=!<>", line[p - 2])))
			continue;
		p--;
		while (p > 0 && (line[p - 1] == ' ' || line[p - 1] == '\t'))
			p--;
		{
			size_t v = p;

			while (v > 0 && ident_char(line[v - 1]))
				v--;
			if (v == p || !narrow_type_before(line, v))
				continue;
		}
		n = add(out, n, max, KB_SCAN_HASH64_IN_32, i, code);
	}
	return n;
}

/* A line that starts a function or a function-like macro names it. */
static void note_function(struct kb_scan_state *s, const char *line, size_t len)
{
	static const char *const keywords[] = { "if", "for", "while", "switch", "return", "sizeof",
						"do", "else", "case" };
	const char *open;
	size_t i, e, b, k;

	if (!len)
		return;
	if (starts(line, len, 0, "#define")) {
		i = skip_spaces(line, len, 7);
		e = word_end(line, len, i);
		if (e > i && e < len && line[e] == '(' && e - i < sizeof(s->func)) {
			memcpy(s->func, line + i, e - i);
			s->func[e - i] = '\0';
		}
		return;
	}
	if (!ident_start(line[0]))
		return;
	open = memchr(line, '(', len);
	if (!open || memchr(line, '=', (size_t)(open - line)))
		return;
	e = (size_t)(open - line);
	while (e > 0 && (line[e - 1] == ' ' || line[e - 1] == '\t'))
		e--;
	b = e;
	while (b > 0 && ident_char(line[b - 1]))
		b--;
	if (b == e || !ident_start(line[b]) || e - b >= sizeof(s->func))
		return;
	for (k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++)
		if (e - b == strlen(keywords[k]) && !memcmp(line + b, keywords[k], e - b))
			return;
	memcpy(s->func, line + b, e - b);
	s->func[e - b] = '\0';
}

static void remember(struct kb_scan_state *s, const char *line, size_t len)
{
	size_t keep = len < KB_SCAN_MEMORY_CHARS - 1 ? len : KB_SCAN_MEMORY_CHARS - 1;

	if (s->nrecent == KB_SCAN_MEMORY) {
		memmove(s->recent[0], s->recent[1], sizeof(s->recent[0]) * (KB_SCAN_MEMORY - 1));
		s->nrecent--;
	}
	memcpy(s->recent[s->nrecent], line, keep);
	s->recent[s->nrecent][keep] = '\0';
	s->nrecent++;
}

static int by_column(const void *a, const void *b)
{
	const struct kb_scan_finding *x = a, *y = b;

	return x->column != y->column ? (x->column > y->column) - (x->column < y->column)
				      : (int)x->kind - (int)y->kind;
}

size_t kb_scan_line(struct kb_scan_state *s, const char *line, size_t len,
		    struct kb_scan_finding *out, size_t max)
{
	char small[512], *code = len <= sizeof(small) ? small : malloc(len);
	size_t n = 0;

	if (!code) /* out of memory: the line is seen as no findings */
		return 0;
	comment_map(s, line, len, code);
	note_function(s, line, len);
	n = constants(line, len, code, out, n, max);
	n = multiplies(line, len, code, out, n, max);
	n = width_shifts(s, line, len, code, out, n, max);
	n = hash64_narrowed(line, len, code, out, n, max);
	remember(s, line, len);
	if (code != small)
		free(code);
	qsort(out, n, sizeof(*out), by_column);
	return n;
}

void kb_scan_describe(const struct kb_scan_finding *f, char *out, size_t len)
{
	static const char *const plus[] = { "negated", "negated plus one", "negated plus two" };
	const char *what = kb_scan_kinds[f->kind].what;
	const char *cmt = f->in_comment ? " (in a comment)" : "";

	switch (f->kind) {
	case KB_SCAN_OLD_PRIME:
	case KB_SCAN_GOLDEN:
	case KB_SCAN_NEGATED:
	case KB_SCAN_EVEN_CONSTANT:
		snprintf(out, len, "0x%llx, %s%s%s: %s%s", (unsigned long long)f->value,
			 f->k_name, f->delta < 0 ? "" : " ", f->delta < 0 ? "" : plus[f->delta], what, cmt);
		break;
	case KB_SCAN_EVEN_MULTIPLY:
		snprintf(out, len, "* 0x%llx: %s%s", (unsigned long long)f->value, what, cmt);
		break;
	case KB_SCAN_LOW_BITS:
		if (f->width)
			snprintf(out, len, "* 0x%llx: %s%s", (unsigned long long)f->value, what, cmt);
		else
			snprintf(out, len, "* %s: %s%s", f->var, what, cmt);
		break;
	case KB_SCAN_SHIFT_WIDTH:
		snprintf(out, len, "by %s: %s%s", f->var, what, cmt);
		break;
	default:
		snprintf(out, len, "%s%s", what, cmt);
		break;
	}
}

/* path for a POSIX shell: as it is when it needs no quoting, else in
 * single quotes ('\'' for each quote in it). */
static void shell_word(const char *path, char *out, size_t len)
{
	size_t i, o = 0;
	int plain = *path != '\0';

	for (i = 0; path[i]; i++)
		if (!ident_char(path[i]) && !strchr("./-+,:@%", path[i]))
			plain = 0;
	if (plain) {
		snprintf(out, len, "%s", path);
		return;
	}
	if (len < 3) {
		if (len)
			out[0] = '\0';
		return;
	}
	out[o++] = '\'';
	for (i = 0; path[i] && o + 5 < len; i++) {
		if (path[i] == '\'') {
			memcpy(out + o, "'\\''", 4);
			o += 4;
		} else {
			out[o++] = path[i];
		}
	}
	out[o++] = '\'';
	out[o] = '\0';
}

void kb_scan_judge_command(const struct kb_scan_finding *f, const char *path, const char *func,
			   char *out, size_t len)
{
	enum kb_scan_judge j = kb_scan_kinds[f->kind].judge;
	char word[1024];

	if (j == KB_JUDGE_AUDIT) {
		snprintf(out, len, "khash-bench audit --multiplier 0x%llx --width %u",
			 (unsigned long long)f->value, f->width);
		return;
	}
	shell_word(path, word, sizeof(word));
	snprintf(out, len, "khash-bench conform --source %s --call '%s(x, bits)'%s", word,
		 func && *func ? func : "YOUR_HASH", j == KB_JUDGE_CONFORM_UB ? " --ubsan" : "");
}
