/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "census_file.h"

#include <errno.h>
#include <search.h>
#include <sys/auxv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyfile.h"
#include "number.h"

#define MAX_FIELDS 18 /* "keys", the id, 16 keys */

/*
 * Site ids to their place in f->sites: open addressing, each slot an id
 * and its index + 1 (0: empty), at most half full.  The ids are whatever
 * the file says, so the hash mixes in this process's AT_RANDOM bytes: a
 * crafted file cannot know which ids collide.  (Scanning the sites for
 * every id made a million sites cost 10^12 steps.)
 */
struct id_slot {
	uint32_t id, index1;
};

struct id_index {
	struct id_slot *slots;
	size_t mask;   /* slots - 1, a power of two minus 1 */
	size_t n;
	uint64_t seed;
};

struct reader {
	struct kb_census_file *f;
	struct kb_line_pos pos;
	struct id_index sites_by_id;
	void *meta_by_name;  /* tsearch tree of the meta names (char *): O(log n) a line */
	size_t site_cap, meta_cap, uncalled_cap;
};

/* "file:line: problem" */
#define fail(r, ...) kb_line_fail(&(r)->pos, __VA_ARGS__)

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

static int name_cmp(const void *x, const void *y)
{
	return strcmp(x, y);
}

static int meta_given(const struct reader *r, const char *name)
{
	return tfind(name, &r->meta_by_name, name_cmp) != NULL;
}

/* Grow an array of *cap elements to hold one more: doubling, so n
 * appends copy O(n) in all.  0, or -1 out of memory. */
static int grow(void **array, size_t n, size_t *cap, size_t size)
{
	size_t want = *cap ? 2 * *cap : 16;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*array, want * size);
	if (!p)
		return -1;
	*array = p;
	*cap = want;
	return 0;
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
	if (meta_given(r, rest))
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
	if (grow((void **)&f->meta, f->nmeta, &r->meta_cap, sizeof(*m)) < 0)
		return fail(r, "out of memory");
	m = &f->meta[f->nmeta];
	m->name = strdup(rest);
	m->value = strdup(sp + 1);
	if (!m->name || !m->value || !tsearch(m->name, &r->meta_by_name, name_cmp)) {
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

/* splitmix64's finaliser over id ^ seed: every input bit reaches every
 * slot bit, so the top bits make the slot. */
static size_t id_slot_of(const struct id_index *x, uint32_t id)
{
	uint64_t z = id ^ x->seed;

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (size_t)(z ^ (z >> 31)) & x->mask;
}

static struct id_slot *id_probe(const struct id_index *x, uint32_t id)
{
	size_t i = id_slot_of(x, id);

	while (x->slots[i].index1 && x->slots[i].id != id)
		i = (i + 1) & x->mask;
	return &x->slots[i];
}

static struct kb_census_site *find_site(const struct reader *r, unsigned long id)
{
	const struct id_slot *s;

	if (!r->sites_by_id.slots || id > UINT32_MAX)
		return NULL;
	s = id_probe(&r->sites_by_id, (uint32_t)id);
	return s->index1 ? &r->f->sites[s->index1 - 1] : NULL;
}

/* Index the last site read (its id is new): 0, or -1 out of memory. */
static int index_site(struct reader *r)
{
	struct id_index *x = &r->sites_by_id;
	struct id_slot *slot;
	size_t i;

	if (2 * (x->n + 1) > x->mask + 1 || !x->slots) {
		struct id_index bigger = { NULL, x->slots ? 2 * x->mask + 1 : 63, 0, x->seed };
		const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);

		if (!x->slots && rnd)
			memcpy(&bigger.seed, rnd, sizeof(bigger.seed));
		bigger.slots = calloc(bigger.mask + 1, sizeof(*bigger.slots));
		if (!bigger.slots)
			return -1;
		for (i = 0; x->slots && i <= x->mask; i++)
			if (x->slots[i].index1)
				*id_probe(&bigger, x->slots[i].id) = x->slots[i];
		bigger.n = x->n;
		free(x->slots);
		*x = bigger;
	}
	slot = id_probe(x, (uint32_t)r->f->sites[r->f->nsites - 1].id);
	slot->id = (uint32_t)r->f->sites[r->f->nsites - 1].id;
	slot->index1 = (uint32_t)r->f->nsites;
	x->n++;
	return 0;
}

/* FILE:LINE, with a line of 1 or more? */
static int is_where(const char *s)
{
	const char *colon = strrchr(s, ':');
	uint64_t line;

	return colon && colon != s && colon[1] &&
	       strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
	       kb_parse_number(colon + 1, strlen(colon + 1), &line) == KB_NUMBER_OK && line;
}

/* A module's name as the kernel prints it: letters, digits, _ and -. */
static int is_module(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
			     strlen(s);
}

/*
 * "# site ID not called: FUNC FILE:LINE", the kernel's word for a site it
 * compiled and never ran (version 2: " MODULE" may follow): its FILE:LINE
 * is kept (the atlas tells compiled from not compiled by it).  Any other
 * comment, or one of another shape, is only a comment.
 */
static int read_comment(struct reader *r, const char *s)
{
	struct kb_census_file *f = r->f;
	const char *where, *end;
	char *copy;
	size_t idlen;

	if (strncmp(s, "# site ", 7))
		return 0;
	idlen = strspn(s + 7, "0123456789");
	if (!idlen || strncmp(s + 7 + idlen, " not called: ", 13))
		return 0;
	where = strchr(s + 7 + idlen + 13, ' ');
	if (!where)
		return 0;
	end = strchr(where + 1, ' ');
	if (end && (f->version < 2 || !is_module(end + 1)))
		return 0;
	if (!end)
		end = where + strlen(where);
	copy = strndup(where + 1, (size_t)(end - where - 1));
	if (copy && !is_where(copy)) {
		free(copy);
		return 0;
	}
	if (!copy || grow((void **)&f->uncalled, f->nuncalled, &r->uncalled_cap,
			  sizeof(*f->uncalled)) < 0) {
		free(copy);
		return fail(r, "out of memory");
	}
	f->uncalled[f->nuncalled++] = copy;
	return 0;
}

/* site ID FUNC BITS CALLS FILE:LINE, and in version 2 maybe MODULE */
static int read_site(struct reader *r, char **fld, int n)
{
	struct kb_census_file *f = r->f;
	struct kb_census_site s;
	uint64_t id, bits;
	unsigned max;

	if (n != 6 && (n != 7 || f->version < 2))
		return fail(r, "site needs 5 fields (id func bits calls file:line)%s, not %d",
			    f->version < 2 ? "" : " and maybe a module", n - 1);
	if (n == 7 && !is_module(fld[6]))
		return fail(r, "module '%.40s' is not a module's name", fld[6]);
	if (!f->word)
		return fail(r, "site before 'meta word'");
	memset(&s, 0, sizeof(s));
	if (decimal(r, "site id", fld[1], &id) < 0 || decimal(r, "bits", fld[3], &bits) < 0 ||
	    decimal(r, "calls", fld[4], &s.calls) < 0)
		return -1;
	if (id > 0xffffffffu)
		return fail(r, "site id %s is out of range", fld[1]);
	if (find_site(r, (unsigned long)id))
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
	if (!is_where(fld[5]))
		return fail(r, "site '%.60s' is not file:line", fld[5]);
	s.id = (unsigned long)id;
	s.bits = (unsigned)bits;
	s.line = r->pos.line;
	s.where = strdup(fld[5]);
	s.module = n == 7 ? strdup(fld[6]) : NULL;
	if (!s.where || (n == 7 && !s.module) ||
	    grow((void **)&f->sites, f->nsites, &r->site_cap, sizeof(s)) < 0) {
		free(s.where);
		free(s.module);
		return fail(r, "out of memory");
	}
	f->sites[f->nsites++] = s;
	if (index_site(r) < 0)
		return fail(r, "out of memory");
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
	s = id <= 0xffffffffu ? find_site(r, (unsigned long)id) : NULL;
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

static int read_line(void *ctx, char *s, size_t len)
{
	struct reader *r = ctx;
	char *fld[MAX_FIELDS];
	int n;

	r->pos.line++;
	if (len && s[len - 1] == '\r')
		return fail(r, "a CR line end (the format's lines end in LF alone)");
	if (r->pos.line == 1) {
		size_t m = strlen(KB_CENSUS_MAGIC);

		if (strncmp(s, KB_CENSUS_MAGIC, m) || len != m + 1 || s[m] < '1' ||
		    s[m] > '0' + KB_CENSUS_VERSION_MAX)
			return fail(r, "not a census file: the first line must be '%s1' or '%s2'",
				    KB_CENSUS_MAGIC, KB_CENSUS_MAGIC);
		r->f->version = (unsigned)(s[m] - '0');
		return 0;
	}
	if (s[0] == '#')
		return read_comment(r, s);
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

static void no_free(void *p)
{
	(void)p;
}

int kb_census_read(const char *path, struct kb_census_file *f, char *err,
		   size_t errlen)
{
	struct reader r = { f, { path, 0, err, errlen }, { NULL, 0, 0, 0 }, NULL, 0, 0, 0 };
	static const char *const required[] = { "word", "arch", "kernel" };
	size_t i;
	long lines;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	/* lines are bounded: endless input without an LF is refused, never held */
	lines = kb_textfile_lines(path, "census file", KB_CENSUS_LINE_MAX, read_line, &r,
				  &r.pos.shown, err, errlen);
	if (lines < 0)
		rc = -1;
	if (rc == 0 && lines == 0) {
		snprintf(err, errlen, "%s: empty, not a census file", r.pos.shown);
		rc = -1;
	}
	for (i = 0; rc == 0 && i < sizeof(required) / sizeof(required[0]); i++)
		if (!meta_given(&r, required[i])) {
			snprintf(err, errlen, "%s: no 'meta %s' line", r.pos.shown, required[i]);
			rc = -1;
		}
	if (rc == 0 && !(f->name = strdup(r.pos.shown))) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	free(r.sites_by_id.slots);
	tdestroy(r.meta_by_name, no_free);
	if (rc < 0)
		kb_census_file_free(f);
	return rc;
}
