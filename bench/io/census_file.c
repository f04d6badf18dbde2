/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "census_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

#define MAX_FIELDS 18 /* "keys", the id, 16 keys */

struct reader {
	struct kb_census_file *f;
	const char *shown;   /* the name in messages */
	uint64_t line;
	char *err;
	size_t errlen;
};

static int fail(struct reader *r, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* "file:line: problem" */
static int fail(struct reader *r, const char *fmt, ...)
{
	int used = snprintf(r->err, r->errlen, "%s:%llu: ", r->shown,
			    (unsigned long long)r->line);
	va_list ap;

	if (used < 0 || (size_t)used >= r->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(r->err + used, r->errlen - (size_t)used, fmt, ap);
	va_end(ap);
	return -1;
}

/* Split a line at single spaces: the number of fields, -1 on an empty
 * field (two spaces, a space at either end), -2 on more than max. */
static int split(char *s, char **fields, int max)
{
	int n = 0, i;

	for (;;) {
		char *sp = strchr(s, ' ');

		if (n == max)
			return -2;
		fields[n++] = s;
		if (!sp)
			break;
		*sp = '\0';
		s = sp + 1;
	}
	for (i = 0; i < n; i++)
		if (!fields[i][0])
			return -1;
	return n;
}

/* A decimal field: digits only (no sign, no 0x), at most 64 bits. */
static int decimal(struct reader *r, const char *what, const char *s, uint64_t *v)
{
	if (strspn(s, "0123456789") != strlen(s) ||
	    kb_parse_number(s, strlen(s), v) != KB_NUMBER_OK)
		return fail(r, "%s '%.40s' is not a decimal number", what, s);
	return 0;
}

/* One key input: lower-case hex without 0x, within width bits. */
static int hex(struct reader *r, const char *s, size_t len, unsigned width,
	       const char *func, uint64_t *v)
{
	size_t i;

	*v = 0;
	if (len == 0)
		return fail(r, "empty key");
	for (i = 0; i < len; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else
			return fail(r, "key '%.*s' is not lower-case hex", (int)(len > 40 ? 40 : len), s);
		if (*v >> 60)
			return fail(r, "key '%.*s' is wider than 64 bits", (int)(len > 40 ? 40 : len), s);
		*v = *v << 4 | d;
	}
	if (width < 64 && *v >> width)
		return fail(r, "key %.*s does not fit the %u-bit argument of %s on a %u-bit kernel",
			    (int)(len > 40 ? 40 : len), s, width, func, r->f->word);
	return 0;
}

static const char *meta_value(const struct kb_census_file *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nmeta; i++)
		if (!strcmp(f->meta[i].name, name))
			return f->meta[i].value;
	return NULL;
}

/* meta NAME TEXT: TEXT runs to the end of the line, spaces and all. */
static int read_meta(struct reader *r, char *rest)
{
	struct kb_census_file *f = r->f;
	struct kb_census_meta *m;
	char *sp = strchr(rest, ' ');

	if (!sp || sp == rest || !sp[1])
		return fail(r, "meta needs a name and a text");
	*sp = '\0';
	if (meta_value(f, rest))
		return fail(r, "meta %s given twice", rest);
	if (!strcmp(rest, "word")) {
		if (strcmp(sp + 1, "32") && strcmp(sp + 1, "64"))
			return fail(r, "meta word '%.40s': 32 or 64", sp + 1);
		if (f->nsites)
			return fail(r, "meta word after the first site");
		f->word = (unsigned)atoi(sp + 1);
	} else if (!strcmp(rest, "arch") && strcmp(sp + 1, "x86_64") && strcmp(sp + 1, "i386")) {
		return fail(r, "meta arch '%.40s': x86_64 or i386", sp + 1);
	}
	m = realloc(f->meta, (f->nmeta + 1) * sizeof(*m));
	if (!m)
		return fail(r, "out of memory");
	f->meta = m;
	m = &f->meta[f->nmeta];
	m->name = strdup(rest);
	m->value = strdup(sp + 1);
	if (!m->name || !m->value) {
		free(m->name);
		free(m->value);
		return fail(r, "out of memory");
	}
	f->nmeta++;
	if (!strcmp(rest, "arch"))
		f->arch = m->value;
	if (f->arch && f->word && (f->word == 64) != !strcmp(f->arch, "x86_64"))
		return fail(r, "meta arch %s does not run a %u-bit kernel", f->arch, f->word);
	return 0;
}

static struct kb_census_site *find_site(struct kb_census_file *f, unsigned long id)
{
	size_t i;

	/* sites usually come in id order: look from the end */
	for (i = f->nsites; i-- > 0;)
		if (f->sites[i].id == id)
			return &f->sites[i];
	return NULL;
}

/* site ID FUNC BITS CALLS FILE:LINE */
static int read_site(struct reader *r, char **fld, int n)
{
	struct kb_census_file *f = r->f;
	struct kb_census_site s, *grown;
	uint64_t id, bits, line;
	const char *colon;
	unsigned max;

	if (n != 6)
		return fail(r, "site needs 5 fields (id func bits calls file:line), not %d", n - 1);
	if (!f->word)
		return fail(r, "site before 'meta word'");
	memset(&s, 0, sizeof(s));
	if (decimal(r, "site id", fld[1], &id) < 0 || decimal(r, "bits", fld[3], &bits) < 0 ||
	    decimal(r, "calls", fld[4], &s.calls) < 0)
		return -1;
	if (id > 0xffffffffu)
		return fail(r, "site id %s is out of range", fld[1]);
	if (find_site(f, (unsigned long)id))
		return fail(r, "site id %s given twice", fld[1]);
	s.func = kb_census_func_find(fld[2]);
	if (s.func < 0)
		return fail(r, "unknown function '%.40s'", fld[2]);
	max = kb_census_bits_max(s.func, f->word);
	/* 0 is where the function takes none, or inode_hash's unknown shift */
	if (bits > max || (bits == 0 && max && s.func != KB_CENSUS_INODE_HASH))
		return fail(r, "bits %s out of range for %s on a %u-bit kernel: %s%u", fld[3],
			    fld[2], f->word, max ? (s.func == KB_CENSUS_INODE_HASH ? "0.." : "1..") : "",
			    max);
	colon = strrchr(fld[5], ':');
	if (!colon || colon == fld[5] || !colon[1] ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1) ||
	    kb_parse_number(colon + 1, strlen(colon + 1), &line) != KB_NUMBER_OK || line == 0)
		return fail(r, "site '%.60s' is not file:line", fld[5]);
	s.id = (unsigned long)id;
	s.bits = (unsigned)bits;
	s.line = r->line;
	s.where = strdup(fld[5]);
	grown = s.where ? realloc(f->sites, (f->nsites + 1) * sizeof(*grown)) : NULL;
	if (!grown) {
		free(s.where);
		return fail(r, "out of memory");
	}
	f->sites = grown;
	f->sites[f->nsites++] = s;
	return 0;
}

/* keys ID KEY... */
static int read_keys(struct reader *r, char **fld, int n)
{
	struct kb_census_site *s;
	uint64_t id;
	unsigned width;
	const char *func;
	int i;

	if (n < 3)
		return fail(r, "keys needs a site id and at least one key");
	if (decimal(r, "site id", fld[1], &id) < 0)
		return -1;
	s = id <= 0xffffffffu ? find_site(r->f, (unsigned long)id) : NULL;
	if (!s)
		return fail(r, "keys for site %s, which no site line before declares", fld[1]);
	func = kb_census_func_name(s->func);
	width = kb_census_input_bits(s->func, r->f->word);
	for (i = 2; i < n; i++) {
		const char *colon = strchr(fld[i], ':');
		uint64_t a, b = 0;

		if (kb_census_two_inputs(s->func) != (colon != NULL))
			return fail(r, "%s takes %s, not '%.40s'", func,
				    colon ? "one input a key" : "two inputs a key (<hex>:<hex>)",
				    fld[i]);
		if (hex(r, fld[i], colon ? (size_t)(colon - fld[i]) : strlen(fld[i]), width, func,
			&a) < 0 ||
		    (colon && hex(r, colon + 1, strlen(colon + 1), width, func, &b) < 0))
			return -1;
		if (s->nkeys >= s->calls)
			return fail(r, "site %lu has more keys than its %llu calls", s->id,
				    (unsigned long long)s->calls);
		if (kb_census_add_key(s, a, b) < 0)
			return fail(r, "out of memory");
	}
	return 0;
}

static int read_line(struct reader *r, char *s, size_t len)
{
	char *fld[MAX_FIELDS];
	int n;

	if (memchr(s, '\0', len))
		return fail(r, "a NUL byte");
	if (len && s[len - 1] == '\r')
		return fail(r, "a CR line end (the format's lines end in LF alone)");
	if (r->line == 1)
		return strcmp(s, KB_CENSUS_MAGIC)
			       ? fail(r, "not a census file: the first line must be '%s'",
				      KB_CENSUS_MAGIC)
			       : 0;
	if (s[0] == '#')
		return 0;
	if (len == 0)
		return fail(r, "an empty line");
	if (!strncmp(s, "meta ", 5))
		return read_meta(r, s + 5);
	if (!strcmp(s, "meta"))
		return fail(r, "meta needs a name and a text");
	n = split(s, fld, MAX_FIELDS);
	if (n == -1)
		return fail(r, "fields must be separated by single spaces");
	if (n < 0)
		return fail(r, "%s", strcmp(fld[0], "keys") ? "too many fields"
							   : "more than 16 keys on a line");
	if (!strcmp(fld[0], "site"))
		return read_site(r, fld, n);
	if (!strcmp(fld[0], "keys"))
		return read_keys(r, fld, n);
	return fail(r, "unknown record '%.40s'", fld[0]);
}

int kb_census_read(const char *path, struct kb_census_file *f, char *err,
		   size_t errlen)
{
	struct reader r = { f, path, 0, err, errlen };
	static const char *const required[] = { "word", "arch", "kernel" };
	FILE *in = stdin;
	char *line = NULL;
	size_t cap = 0, i;
	ssize_t got;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	if (strcmp(path, "-")) {
		in = fopen(path, "r");
		if (!in) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
	} else {
		r.shown = "<stdin>";
	}
	f->name = strdup(r.shown);
	if (!f->name) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	while (rc == 0 && (got = getline(&line, &cap, in)) >= 0) {
		r.line++;
		if (got == 0 || line[got - 1] != '\n') {
			rc = fail(&r, "the last line has no LF");
			break;
		}
		line[--got] = '\0';
		rc = read_line(&r, line, (size_t)got);
	}
	free(line);
	if (rc == 0 && ferror(in)) {
		snprintf(err, errlen, "%s: %s", r.shown, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && r.line == 0) {
		snprintf(err, errlen, "%s: empty, not a census file", r.shown);
		rc = -1;
	}
	for (i = 0; rc == 0 && i < sizeof(required) / sizeof(required[0]); i++)
		if (!meta_value(f, required[i])) {
			snprintf(err, errlen, "%s: no 'meta %s' line", r.shown, required[i]);
			rc = -1;
		}
	if (in != stdin)
		fclose(in);
	if (rc < 0)
		kb_census_file_free(f);
	return rc;
}
