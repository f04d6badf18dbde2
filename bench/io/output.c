/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "output.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void kb_buf_printf(struct kb_buf *b, const char *fmt, ...)
{
	va_list ap;
	int need;

	if (b->failed)
		return;
	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		need = vsnprintf(b->data ? b->data + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (need < 0) {
			b->failed = 1;
			return;
		}
		if ((size_t)need < room) {
			b->len += (size_t)need;
			return;
		}
		{
			size_t cap = b->cap ? b->cap * 2 : 4096;
			char *p;

			while (cap - b->len <= (size_t)need)
				cap *= 2;
			p = realloc(b->data, cap);
			if (!p) {
				b->failed = 1;
				return;
			}
			b->data = p;
			b->cap = cap;
		}
	}
}

void kb_buf_free(struct kb_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

/*
 * Pending temporaries, for the signal handler.  Fixed arrays: the handler
 * may only call async-signal-safe functions, so nothing is allocated there.
 */
#define MAX_PENDING 64
static char pending_files[MAX_PENDING][4096];

static void set_slot(char (*slots)[4096], const char *path, int add)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++) {
		if (add && slots[i][0] == '\0' && strlen(path) < 4096) {
			strcpy(slots[i], path);
			return;
		}
		if (!add && strcmp(slots[i], path) == 0) {
			slots[i][0] = '\0';
			return;
		}
	}
}

static void on_signal(int sig)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (pending_files[i][0])
			unlink(pending_files[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

void kb_output_install_signal_cleanup(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int kb_atomic_open(struct kb_atomic *a, const char *path, char *err,
		   size_t errlen)
{
	int fd;

	memset(a, 0, sizeof(*a));
	a->path = strdup(path);
	if (!a->path || asprintf(&a->tmp, "%s.tmp.XXXXXX", path) < 0) {
		free(a->path);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(errno));
		free(a->tmp);
		free(a->path);
		return -1;
	}
	set_slot(pending_files, a->tmp, 1);
	fchmod(fd, 0644);
	a->f = fdopen(fd, "w");
	if (!a->f) {
		close(fd);
		kb_atomic_abort(a);
		snprintf(err, errlen, "cannot write %s", path);
		return -1;
	}
	return 0;
}

int kb_atomic_close(struct kb_atomic *a, char *err, size_t errlen)
{
	int bad = ferror(a->f) || fflush(a->f) != 0 || fsync(fileno(a->f)) != 0;
	int saved = errno;

	if (fclose(a->f) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	a->f = NULL;
	if (bad) {
		snprintf(err, errlen, "cannot write %s: %s", a->path,
			 strerror(saved));
		kb_atomic_abort(a);
		return -1;
	}
	return 0;
}

int kb_atomic_rename(struct kb_atomic *a, char *err, size_t errlen)
{
	if (rename(a->tmp, a->path) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", a->path,
			 strerror(errno));
		kb_atomic_abort(a);
		return -1;
	}
	set_slot(pending_files, a->tmp, 0);
	free(a->tmp);
	free(a->path);
	a->tmp = a->path = NULL;
	return 0;
}

int kb_atomic_commit(struct kb_atomic *a, char *err, size_t errlen)
{
	if (kb_atomic_close(a, err, errlen) < 0)
		return -1;
	return kb_atomic_rename(a, err, errlen);
}

void kb_atomic_track(const char *tmp_path, int pending)
{
	set_slot(pending_files, tmp_path, pending);
}

void kb_atomic_abort(struct kb_atomic *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	if (a->tmp) {
		unlink(a->tmp);
		set_slot(pending_files, a->tmp, 0);
	}
	free(a->tmp);
	free(a->path);
	a->tmp = a->path = NULL;
}

int kb_write_all(const char *path, const struct kb_buf *b, char *err,
		 size_t errlen)
{
	struct kb_atomic a;

	if (b->failed) {
		snprintf(err, errlen, "out of memory building the output");
		return -1;
	}
	if (!path || strcmp(path, "-") == 0) {
		if ((b->len && fwrite(b->data, 1, b->len, stdout) != b->len) ||
		    fflush(stdout) != 0) {
			snprintf(err, errlen, "cannot write standard output: %s",
				 strerror(errno));
			return -1;
		}
		return 0;
	}
	if (kb_atomic_open(&a, path, err, errlen) < 0)
		return -1;
	if (b->len)
		fwrite(b->data, 1, b->len, a.f);
	return kb_atomic_commit(&a, err, errlen);
}

/* Create and remove the temporary file at path + suffix; 0, or -1 with
 * "what path: reason" in err. */
static int probe(const char *path, const char *suffix, const char *what,
		 char *err, size_t errlen)
{
	char *tmp;
	int fd;

	if (asprintf(&tmp, "%s%s", path, suffix) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
	else {
		close(fd);
		unlink(tmp);
	}
	free(tmp);
	return fd < 0 ? -1 : 0;
}

int kb_output_check_file(const char *path, char *err, size_t errlen)
{
	struct stat sb;

	if (!path || strcmp(path, "-") == 0)
		return 0;
	/* the rename at the end would fail on a folder */
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(EISDIR));
		return -1;
	}
	return probe(path, ".tmp.XXXXXX", "cannot write", err, errlen);
}

int kb_output_check_dir(const char *dir, char *err, size_t errlen)
{
	struct stat sb;

	if (mkdir(dir, 0755) == 0) {
		rmdir(dir);
		return 0;
	}
	if (errno != EEXIST || stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		/* as the plot writer words it when it makes the folder */
		snprintf(err, errlen, "cannot create plot folder %s: %s", dir,
			 errno == EEXIST ? "exists and is not a folder" : strerror(errno));
		return -1;
	}
	return probe(dir, "/.khash-bench.XXXXXX", "cannot write in plot folder", err, errlen);
}
