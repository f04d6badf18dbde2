/* SPDX-License-Identifier: MIT */
#include "namefile.h"

#include <stdio.h>
#include <string.h>

#include "keyfile.h"

/* The longest line read: a longer one is refused by the line reader with
 * its own message, before a name's own limit is checked. */
#define NAMEFILE_LINE_MAX 4095

struct name_run {
	struct kb_names *l;
	int component;
	uint64_t max_bytes;
	const char **shown;
	long line;
	char *err;
	size_t errlen;
};

static int name_line(void *ctx, char *s, size_t len)
{
	struct name_run *r = ctx;
	struct kb_line_pos p = { *r->shown, (uint64_t)++r->line, r->err, r->errlen };

	if (len && s[len - 1] == '\r')
		len--;
	if (!len)
		return kb_line_fail(&p, "an empty name");
	if (len > KB_NAME_MAX)
		return kb_line_fail(&p, "a name of %zu bytes: the limit is %d (NAME_MAX)", len,
				    KB_NAME_MAX);
	if (r->component && memchr(s, '/', len))
		return kb_line_fail(&p, "'/' in a path component: '%.*s'",
				    (int)(len > 64 ? 64 : len), s);
	if ((uint64_t)(r->l->used + len + 16 * (r->l->n + 1)) > r->max_bytes)
		return kb_line_fail(&p, "over %zu names: keeping them needs more than the --max-memory limit of %llu MiB",
				    r->l->n, (unsigned long long)(r->max_bytes >> 20));
	if (kb_names_add(r->l, s, len) < 0)
		return kb_line_fail(&p, "out of memory");
	return 0;
}

int kb_namefile_read(const char *path, int component, uint64_t max_bytes,
		     struct kb_names *l, const char **shown, char *err, size_t errlen)
{
	struct name_run r = { l, component, max_bytes, shown, 0, err, errlen };

	kb_names_free(l);
	if (kb_textfile_lines(path, "names file", NAMEFILE_LINE_MAX, name_line, &r, shown, err,
			      errlen) < 0) {
		kb_names_free(l);
		return -1;
	}
	return 0;
}
