/* SPDX-License-Identifier: MIT */
#include "scan_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Findings kept per line at most (more is a generated table, not code). */
#define PER_LINE 16

static int warn(struct kb_scan_result *r, const char *path, int e)
{
	char **grown = realloc(r->warnings, (r->nwarnings + 1) * sizeof(*grown));
	const char *why = strerror(e);
	char *w;

	if (!grown)
		return -1;
	r->warnings = grown;
	if (!(w = malloc(strlen(path) + strlen(why) + 32)))
		return -1;
	sprintf(w, "cannot read %s: %s", path, why);
	r->warnings[r->nwarnings++] = w;
	r->unreadable++;
	return 0;
}

static int keep(struct kb_scan_result *r, const char *path, unsigned long line, const char *func,
		const struct kb_scan_finding *f)
{
	struct kb_scan_hit *h;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct kb_scan_hit *grown = realloc(r->hits, cap * sizeof(*grown));

		if (!grown)
			return -1;
		r->hits = grown;
		r->cap = cap;
	}
	h = &r->hits[r->n];
	if (!(h->path = strdup(path)))
		return -1;
	h->line = line;
	snprintf(h->func, sizeof(h->func), "%s", func);
	h->f = *f;
	r->n++;
	return 0;
}

/* One regular file; 0, or -1 out of memory (a file that cannot be read is
 * a warning). */
static int scan_file(const char *path, int follow, struct kb_scan_result *r)
{
	struct kb_scan_finding found[PER_LINE];
	struct kb_scan_state s;
	char head[KB_SCAN_SNIFF], *line = NULL;
	size_t cap = 0, got, i, k;
	unsigned long no = 0;
	ssize_t len;
	FILE *in;
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW)), rc = 0;

	if (fd < 0)
		return warn(r, path, errno);
	if (!(in = fdopen(fd, "rb"))) {
		int e = errno;

		close(fd);
		return warn(r, path, e);
	}
	got = fread(head, 1, sizeof(head), in);
	if (ferror(in)) {
		fclose(in);
		return warn(r, path, EIO);
	}
	if (memchr(head, '\0', got)) {
		r->binary++;
		fclose(in);
		return 0;
	}
	rewind(in);
	kb_scan_start(&s);
	while ((len = getline(&line, &cap, in)) >= 0 && !rc) {
		size_t n = (size_t)len;

		no++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		k = kb_scan_line(&s, line, n, found, PER_LINE);
		for (i = 0; i < k && !rc; i++)
			rc = keep(r, path, no, s.func, &found[i]);
	}
	if (!rc && ferror(in)) {
		/* what it found before the error stands; the file is named */
		rc = warn(r, path, EIO);
	}
	free(line);
	fclose(in);
	if (!rc)
		r->files++;
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folder's entries, sorted, without . and .., or NULL with errno. */
static char **entries(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (*n == cap) {
			char **grown = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof(*grown));

			if (!grown)
				break;
			names = grown;
		}
		if (!(names[*n] = strdup(e->d_name)))
			break;
		(*n)++;
	}
	if (e) { /* out of memory */
		while (*n)
			free(names[--*n]);
		free(names);
		closedir(d);
		errno = ENOMEM;
		return NULL;
	}
	closedir(d);
	if (!names && !(names = malloc(sizeof(*names))))
		return NULL;
	qsort(names, *n, sizeof(*names), by_name);
	return names;
}

static int walk(const char *dir, struct kb_scan_result *r)
{
	size_t n, i;
	char **names = entries(dir, &n);
	int rc = 0;

	if (!names)
		return errno == ENOMEM ? -1 : warn(r, dir, errno);
	for (i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]) + 2;
		char *path = malloc(len);
		struct stat st;

		if (!path || rc) {
			free(path);
			rc = -1;
			continue;
		}
		snprintf(path, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
		/* lstat: a symbolic link is never followed, in or out of the tree */
		if (lstat(path, &st) < 0)
			rc = warn(r, path, errno);
		else if (S_ISDIR(st.st_mode) && strcmp(names[i], ".git") && strcmp(names[i], "build"))
			rc = walk(path, r);
		else if (S_ISREG(st.st_mode))
			rc = scan_file(path, 0, r);
		free(path);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int kb_scan_tree(const char *root, struct kb_scan_result *r, char *err, size_t errlen)
{
	struct stat st;
	int rc;

	/* the root as named: a link there is the user's choice */
	if (stat(root, &st) < 0) {
		snprintf(err, errlen, "cannot read %s: %s", root, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(root);

		if (!d) {
			snprintf(err, errlen, "cannot read %s: %s", root, strerror(errno));
			return -1;
		}
		closedir(d);
		rc = walk(root, r);
	} else if (S_ISREG(st.st_mode)) {
		int fd = open(root, O_RDONLY | O_NOCTTY | O_NONBLOCK);

		if (fd < 0) {
			snprintf(err, errlen, "cannot read %s: %s", root, strerror(errno));
			return -1;
		}
		close(fd);
		rc = scan_file(root, 1, r);
	} else {
		snprintf(err, errlen, "cannot read %s: not a folder or a regular file", root);
		return -1;
	}
	if (rc < 0)
		snprintf(err, errlen, "out of memory scanning %s", root);
	return rc;
}

void kb_scan_result_free(struct kb_scan_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->hits[i].path);
	for (i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->hits);
	free(r->warnings);
	memset(r, 0, sizeof(*r));
}
