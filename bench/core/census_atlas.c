/* SPDX-License-Identifier: MIT */
#include "census_atlas.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const seen_names[] = {
	[KB_ATLAS_REACHED] = "reached", [KB_ATLAS_COMPILED] = "compiled",
	[KB_ATLAS_NOT_COMPILED] = "not-compiled"
};

static const char *const hint_names[] = {
	[KB_ATLAS_HARDWARE] = "hardware", [KB_ATLAS_KVM] = "kvm",
	[KB_ATLAS_WORKLOAD] = "workload"
};

/*
 * The hint of a path: the first prefix that matches.  A guess, kept to
 * one table so it is easy to read and argue with: a driver, sound card or
 * arch's platform code waits for its hardware (drivers/net's software
 * devices too, an overcount we accept), KVM's host and guest code for a
 * hypervisor, and everything else for a workload that gets there.
 */
static const struct {
	const char *prefix;
	enum kb_atlas_hint hint;
} hint_rules[] = {
	{ "virt/", KB_ATLAS_KVM },
	{ "arch/x86/kvm/", KB_ATLAS_KVM },
	{ "arch/x86/kernel/kvm", KB_ATLAS_KVM },
	{ "drivers/", KB_ATLAS_HARDWARE },
	{ "sound/", KB_ATLAS_HARDWARE },
	{ "arch/", KB_ATLAS_HARDWARE },
};

/*
 * The top directories whose next directory is a subsystem of its own: a
 * driver class, a file system, a protocol family, an arch.  Elsewhere the
 * first directory (kernel, mm, lib, ...) is the subsystem a developer
 * names.
 */
static const char *const split_dirs[] = { "arch", "drivers", "fs", "net" };

size_t kb_atlas_subsystem(const char *file, size_t *top)
{
	const char *slash = strchr(file, '/'), *next;
	size_t i;

	*top = slash ? (size_t)(slash - file) : strlen(file);
	if (!slash)
		return *top;
	for (i = 0; i < sizeof(split_dirs) / sizeof(split_dirs[0]); i++)
		if (strlen(split_dirs[i]) == *top && !memcmp(file, split_dirs[i], *top)) {
			next = strchr(slash + 1, '/');
			return next ? (size_t)(next - file) : *top;
		}
	return *top;
}

const char *kb_atlas_seen_name(enum kb_atlas_seen s)
{
	return seen_names[s];
}

const char *kb_atlas_hint_name(enum kb_atlas_hint h)
{
	return hint_names[h];
}

enum kb_atlas_hint kb_atlas_hint(const char *file)
{
	size_t i;

	for (i = 0; i < sizeof(hint_rules) / sizeof(hint_rules[0]); i++)
		if (!strncmp(file, hint_rules[i].prefix, strlen(hint_rules[i].prefix)))
			return hint_rules[i].hint;
	return KB_ATLAS_WORKLOAD;
}

void kb_atlas_free(struct kb_atlas *a)
{
	size_t i;

	for (i = 0; i < a->nrows; i++) {
		free(a->rows[i].file);
		free(a->rows[i].function);
		free(a->rows[i].called);
		free(a->rows[i].expanded);
	}
	free(a->rows);
	free(a->name);
	free(a->kernel);
	memset(a, 0, sizeof(*a));
}

void kb_atlas_report_free(struct kb_atlas_report *r)
{
	free(r->misses);
	free(r->subsys);
	free(r->tops);
	memset(r, 0, sizeof(*r));
}

/* A census file:line, split, and whether a site record (1) or only a
 * not-called comment (0) gives it. */
struct place {
	const char *file;
	size_t flen;
	uint64_t line;
	int called;
};

/* Byte order of two unterminated names, a prefix first. */
static int name_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	if (c)
		return c;
	return na < nb ? -1 : na > nb;
}

static int place_cmp(const void *x, const void *y)
{
	const struct place *a = x, *b = y;
	int c = name_cmp(a->file, a->flen, b->file, b->flen);

	if (c)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* where is "file:line" with a decimal line (the census reader's check) */
static struct place place_of(const char *where, int called)
{
	const char *colon = strrchr(where, ':');
	struct place p = { where, (size_t)(colon - where), 0, called };

	p.line = strtoull(colon + 1, NULL, 10);
	return p;
}

/* What the census saw at file:line: reached, compiled or not compiled. */
static enum kb_atlas_seen seen_at(const struct place *places, size_t n, const char *file,
				  uint64_t line)
{
	struct place key = { file, strlen(file), line, 0 };
	const struct place *p = bsearch(&key, places, n, sizeof(*p), place_cmp);
	enum kb_atlas_seen s = KB_ATLAS_NOT_COMPILED;

	if (!p)
		return s;
	/* equal places sit together: a site record anywhere among them wins */
	while (p > places && !place_cmp(p - 1, &key))
		p--;
	for (; p < places + n && !place_cmp(p, &key); p++)
		s = p->called ? KB_ATLAS_REACHED : s == KB_ATLAS_REACHED ? s : KB_ATLAS_COMPILED;
	return s;
}

int kb_census_kernel(const struct kb_census_file *f, char *buf, size_t len)
{
	size_t i, n;

	for (i = 0; i < f->nmeta; i++) {
		const char *v = f->meta[i].value;

		if (strcmp(f->meta[i].name, "kernel"))
			continue;
		/* digits and dots, starting and ending with a digit */
		for (n = 0; isdigit((unsigned char)v[n]) || (v[n] == '.' && n); n++)
			;
		while (n && v[n - 1] == '.')
			n--;
		if (!n || n >= len || !memchr(v, '.', n))
			return 0;
		memcpy(buf, v, n);
		buf[n] = '\0';
		return 1;
	}
	return 0;
}

int kb_atlas_other_kernel(const struct kb_atlas *a, const struct kb_census_file *f)
{
	char v[64];

	return a->kernel && kb_census_kernel(f, v, sizeof(v)) && strcmp(a->kernel, v);
}

/* By top directory, then by the whole name, so that a top's subsystems
 * sit together ("fs-x" would otherwise fall between "fs" and "fs/btrfs"). */
static int subsys_cmp(const void *x, const void *y)
{
	const struct kb_atlas_subsys *a = x, *b = y;
	size_t ta, tb;
	int c;

	kb_atlas_subsystem(a->name, &ta);
	kb_atlas_subsystem(b->name, &tb);
	c = name_cmp(a->name, ta, b->name, tb);
	return c ? c : name_cmp(a->name, a->len, b->name, b->len);
}

/* The entry in out->subsys of file's subsystem, made when new. */
static struct kb_atlas_subsys *subsys_of(struct kb_atlas_report *out, const char *file)
{
	size_t top, len = kb_atlas_subsystem(file, &top), i;
	struct kb_atlas_subsys *e;

	/* rows of a subsystem mostly come together: from the last one back */
	for (i = out->nsubsys; i--;)
		if (!name_cmp(out->subsys[i].name, out->subsys[i].len, file, len))
			return &out->subsys[i];
	e = &out->subsys[out->nsubsys++];
	memset(e, 0, sizeof(*e));
	e->name = file;
	e->len = len;
	return e;
}

/* Sort the subsystems and sum them by top directory into out->tops. */
static void subsys_tops(struct kb_atlas_report *out)
{
	size_t i, top;
	int k;

	qsort(out->subsys, out->nsubsys, sizeof(*out->subsys), subsys_cmp);
	for (i = 0; i < out->nsubsys; i++) {
		struct kb_atlas_subsys *s = &out->subsys[i];
		struct kb_atlas_subsys *t = out->ntops ? &out->tops[out->ntops - 1] : NULL;

		kb_atlas_subsystem(s->name, &top);
		if (!t || name_cmp(t->name, t->len, s->name, top)) {
			t = &out->tops[out->ntops];
			memset(t, 0, sizeof(*t));
			t->name = s->name;
			t->len = top;
			t->group = out->ntops++;
		}
		s->group = t->group;
		for (k = 0; k < KB_ATLAS_BUILD_COUNT; k++) {
			t->build[k] += s->build[k];
			t->reached[k] += s->reached[k];
		}
	}
}

int kb_atlas_match(const struct kb_atlas *a, const struct kb_census_file *f,
		   struct kb_atlas_report *out)
{
	size_t n = f->nsites + f->nuncalled, i, j;
	struct place *places = malloc((n ? n : 1) * sizeof(*places));

	memset(out, 0, sizeof(*out));
	out->misses = malloc((a->nrows ? a->nrows : 1) * sizeof(*out->misses));
	out->subsys = malloc((a->nrows ? a->nrows : 1) * sizeof(*out->subsys));
	out->tops = malloc((a->nrows ? a->nrows : 1) * sizeof(*out->tops));
	if (!places || !out->misses || !out->subsys || !out->tops) {
		free(places);
		kb_atlas_report_free(out);
		return -1;
	}
	for (i = 0; i < f->nsites; i++)
		places[i] = place_of(f->sites[i].where, 1);
	for (i = 0; i < f->nuncalled; i++)
		places[f->nsites + i] = place_of(f->uncalled[i], 0);
	qsort(places, n, sizeof(*places), place_cmp);
	out->rows = a->nrows;
	for (i = 0; i < a->nrows; i++) {
		const struct kb_atlas_row *r = &a->rows[i];
		enum kb_atlas_seen s = seen_at(places, n, r->file, r->line);
		struct kb_atlas_subsys *sub = subsys_of(out, r->file);

		/* a macro's site is seen where the macro is used */
		for (j = 0; j < r->nexpanded && s != KB_ATLAS_REACHED; j++) {
			enum kb_atlas_seen e = seen_at(places, n, r->file, r->expanded[j]);

			if (e < s) /* the enum's order: reached, compiled, not */
				s = e;
		}
		out->seen[s]++;
		out->build[r->build]++;
		sub->build[r->build]++;
		if (s == KB_ATLAS_REACHED) {
			out->reached[r->build]++;
			sub->reached[r->build]++;
		} else if (r->build == KB_ATLAS_BUILT_IN || r->build == KB_ATLAS_MODULE) {
			struct kb_atlas_miss *m = &out->misses[out->nmisses++];

			m->row = i;
			m->seen = s;
			m->hint = kb_atlas_hint(r->file);
			out->missed[s][m->hint]++;
		}
	}
	free(places);
	subsys_tops(out);
	return 0;
}
