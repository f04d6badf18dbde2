/* SPDX-License-Identifier: MIT */
#include "atlas_file.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyfile.h"
#include "number.h"

struct atlas_reader {
	struct kb_atlas *a;
	struct kb_line_pos pos;
	int header;          /* the column header has been read */
	size_t cap;
};

/* "file:line: problem" */
#define fail(r, ...) kb_line_fail(&(r)->pos, __VA_ARGS__)

/* A line number: decimal digits, 1 or more, at most 64 bits; 0 if not. */
static uint64_t line_number(const char *s, size_t len)
{
	uint64_t v;

	if (!len || strspn(s, "0123456789") < len ||
	    kb_parse_number(s, len, &v) != KB_NUMBER_OK)
		return 0;
	return v;
}

/* expanded: empty, or line numbers separated by single commas */
static int read_expanded(struct atlas_reader *r, struct kb_atlas_row *row, const char *column)
{
	const char *s = column;
	size_t n = 0, len;

	if (!*s)
		return 0;
	for (len = 0; s[len]; len++)
		n += s[len] == ',';
	row->expanded = malloc((n + 1) * sizeof(*row->expanded));
	if (!row->expanded)
		return fail(r, "out of memory");
	for (;;) {
		len = strcspn(s, ",");
		row->expanded[row->nexpanded] = line_number(s, len);
		if (!row->expanded[row->nexpanded++])
			return fail(r, "expanded '%.60s' is not a list of line numbers", column);
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

/* One row: its 13 TAB-separated fields, empty ones allowed. */
static int read_row(struct atlas_reader *r, char *s)
{
	static const char builds[] = "ymnh?";
	struct kb_atlas *a = r->a;
	struct kb_atlas_row *row;
	char *fld[KB_ATLAS_COLUMNS];
	const char *b;
	int n = 0;

	for (;;) {
		char *tab = strchr(s, '\t');

		if (n < KB_ATLAS_COLUMNS)
			fld[n] = s;
		n++;
		if (!tab)
			break;
		*tab = '\0';
		s = tab + 1;
	}
	if (n != KB_ATLAS_COLUMNS)
		return fail(r, "%d fields, not %d", n, KB_ATLAS_COLUMNS);
	if (a->nrows == r->cap) {
		size_t want = r->cap ? 2 * r->cap : 64;
		void *p = realloc(a->rows, want * sizeof(*a->rows));

		if (!p)
			return fail(r, "out of memory");
		a->rows = p;
		r->cap = want;
	}
	/* counted in at once, so kb_atlas_free frees what a failure leaves */
	row = &a->rows[a->nrows++];
	memset(row, 0, sizeof(*row));
	if (!fld[0][0] || !fld[3][0])
		return fail(r, "an empty %s column", fld[0][0] ? "called" : "file");
	row->line = line_number(fld[1], strlen(fld[1]));
	if (!row->line)
		return fail(r, "line '%.40s' is not a line number", fld[1]);
	b = strchr(builds, fld[8][0]);
	if (!fld[8][0] || fld[8][1] || !b)
		return fail(r, "build '%.40s' is not y, m, n, h or ?", fld[8]);
	row->build = (enum kb_atlas_build)(b - builds);
	if (row->build == KB_ATLAS_NOT_BUILT && !fld[9][0])
		return fail(r, "build n without a reason");
	if (fld[12][0] && strcmp(fld[12], "reached") && strcmp(fld[12], "compiled") &&
	    strcmp(fld[12], "not-compiled"))
		return fail(r, "census '%.40s' is not reached, compiled or not-compiled", fld[12]);
	row->file = strdup(fld[0]);
	row->function = strdup(fld[2]);
	row->called = strdup(fld[3]);
	if (!row->file || !row->function || !row->called)
		return fail(r, "out of memory");
	return read_expanded(r, row, fld[11]);
}

/* "# kernel 6.12.118": numbers joined by single dots, once. */
static int read_kernel(struct atlas_reader *r, const char *v)
{
	size_t i, dots = 0;

	if (r->a->kernel)
		return fail(r, "a second kernel line");
	for (i = 0; v[i]; i++) {
		if (v[i] == '.' && i && v[i + 1] && v[i - 1] != '.')
			dots++;
		else if (!isdigit((unsigned char)v[i]))
			return fail(r, "kernel '%.40s' is not a version like 6.12.118", v);
	}
	if (!dots)
		return fail(r, "kernel '%.40s' is not a version like 6.12.118", v);
	if (!(r->a->kernel = strdup(v)))
		return fail(r, "out of memory");
	return 0;
}

static int read_line(void *ctx, char *s, size_t len)
{
	struct atlas_reader *r = ctx;

	r->pos.line++;
	if (len && s[len - 1] == '\r')
		return fail(r, "a CR line end (the format's lines end in LF alone)");
	if (r->pos.line == 1) {
		if (!strncmp(s, "# khash-atlas ", 14) && strcmp(s, KB_ATLAS_MAGIC))
			return fail(r, "atlas version '%.20s': this khash-bench reads version 1",
				    s + 14);
		return strcmp(s, KB_ATLAS_MAGIC)
			       ? fail(r, "not an atlas: the first line must be '%s'",
				      KB_ATLAS_MAGIC)
			       : 0;
	}
	if (len == 0)
		return fail(r, "an empty line");
	if (r->header) {
		if (s[0] == '#')
			return fail(r, "a comment after the column header");
		return read_row(r, s);
	}
	if (!strncmp(s, "# kernel ", 9))
		return read_kernel(r, s + 9);
	if (!strncmp(s, "# ", 2))
		return 0;
	if (strcmp(s, KB_ATLAS_HEADER))
		return fail(r, "not the column header of version 1 ('file TAB line TAB ... census')");
	r->header = 1;
	return 0;
}

int kb_atlas_read(const char *path, struct kb_atlas *a, char *err, size_t errlen)
{
	struct atlas_reader r = { a, { path, 0, err, errlen }, 0, 0 };
	long lines;
	int rc = 0;

	memset(a, 0, sizeof(*a));
	lines = kb_textfile_lines(path, "atlas", KB_ATLAS_LINE_MAX, read_line, &r, &r.pos.shown,
				  err, errlen);
	if (lines < 0) {
		rc = -1;
	} else if (lines == 0) {
		snprintf(err, errlen, "%s: empty, not an atlas", r.pos.shown);
		rc = -1;
	} else if (!r.header) {
		snprintf(err, errlen, "%s: no column header", r.pos.shown);
		rc = -1;
	} else if (!(a->name = strdup(r.pos.shown))) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	if (rc < 0)
		kb_atlas_free(a);
	return rc;
}
