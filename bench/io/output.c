/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "output.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
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

/*
 * Where output for path goes and how, as GNU sort -o and cp treat it: a
 * device, FIFO or socket is written through (replacing the node would
 * break what it names); a symlink is followed and its target replaced,
 * so the link stays a link; a file with other hard links is rewritten in
 * place, the only way its other names see the new text.
 */
enum { KB_OUT_RENAME, KB_OUT_DIRECT, KB_OUT_INPLACE };

/* The last name a chain of symlinks leads to when it ends at nothing
 * (a dangling link: writing creates its target), malloc()ed or NULL. */
static char *follow_dangling(const char *path)
{
	char *cur = strdup(path);
	int hops;

	for (hops = 0; cur && hops < 40; hops++) {
		char link[4096], *next;
		const char *slash;
		ssize_t n;
		struct stat ls;

		if (lstat(cur, &ls) != 0 || !S_ISLNK(ls.st_mode))
			return cur;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		link[n] = '\0';
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash)
			next = strdup(link);
		else if (asprintf(&next, "%.*s/%s", (int)(slash - cur), cur, link) < 0)
			next = NULL;
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

/* 0 with *target (malloc()ed), *how and *st (st->st_nlink 0: nothing
 * there yet), or -1 with "cannot write PATH: reason". */
static int resolve(const char *path, char **target, int *how, struct stat *st,
		   char *err, size_t errlen)
{
	struct stat ls;

	*target = NULL;
	*how = KB_OUT_RENAME;
	if (stat(path, st) != 0) {
		if (errno != ENOENT)
			goto fail;
		memset(st, 0, sizeof(*st));
		*target = follow_dangling(path);
	} else if (S_ISDIR(st->st_mode)) {
		errno = EISDIR;
		goto fail;
	} else if (!S_ISREG(st->st_mode)) {
		*how = KB_OUT_DIRECT; /* opened by the name given: /dev/stdout */
		*target = strdup(path);
	} else {
		if (st->st_nlink > 1)
			*how = KB_OUT_INPLACE;
		if (lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode))
			*target = realpath(path, NULL);
		else
			*target = strdup(path);
	}
	if (*target)
		return 0;
fail:
	snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	return -1;
}

/* A device, FIFO or socket opened for writing; a FIFO waits for its
 * reader, as any writer does. */
static int open_direct(const char *path, const struct stat *st)
{
	struct sockaddr_un sa;
	int fd;

	if (!S_ISSOCK(st->st_mode))
		return open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		fd = -1;
	}
	return fd;
}

/* What a replaced file keeps: its group and owner where this process may
 * set them (EPERM otherwise: ignored), then its mode, which a chown may
 * have cleared bits of.  A new file gets 0666 less the umask, as any. */
static void keep_mode(int fd, const struct stat *st)
{
	mode_t mask;

	if (st->st_nlink) {
		if (fchown(fd, st->st_uid, st->st_gid) != 0 &&
		    fchown(fd, (uid_t)-1, st->st_gid) != 0) {
			/* neither: the writer's own, as a new file */
		}
		fchmod(fd, st->st_mode & 07777);
		return;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
}

int kb_atomic_open(struct kb_atomic *a, const char *path, char *err,
		   size_t errlen)
{
	struct stat st;
	int fd;

	memset(a, 0, sizeof(*a));
	if (resolve(path, &a->target, &a->how, &st, err, errlen) < 0)
		return -1;
	a->path = strdup(path);
	if (!a->path || (a->how != KB_OUT_DIRECT &&
			 asprintf(&a->tmp, "%s.tmp.XXXXXX", a->target) < 0)) {
		a->tmp = NULL;
		kb_atomic_abort(a);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fd = a->tmp ? mkstemp(a->tmp) : open_direct(a->target, &st);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(errno));
		free(a->tmp);
		a->tmp = NULL;
		kb_atomic_abort(a);
		return -1;
	}
	if (a->tmp) {
		set_slot(pending_files, a->tmp, 1);
		if (a->how == KB_OUT_RENAME)
			keep_mode(fd, &st);
	}
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
	/* a device or FIFO has nothing to sync (fsync: EINVAL) */
	int bad = ferror(a->f) || fflush(a->f) != 0 ||
		  (a->how != KB_OUT_DIRECT && fsync(fileno(a->f)) != 0);
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

/*
 * The complete text of from written over the file to, same inode: its
 * hard links see it.  Not atomic, so its space is reserved first where
 * the file system can: a full disk then fails before a byte is changed.
 * 0, or -1 with errno set.
 */
static int rewrite_in_place(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = -1, saved;
	struct stat st;
	off_t done = 0;
	ssize_t n;

	if (in < 0 || fstat(in, &st) != 0 ||
	    (out = open(to, O_WRONLY | O_CLOEXEC)) < 0)
		goto end;
#ifdef FALLOC_FL_KEEP_SIZE
	if (st.st_size && fallocate(out, FALLOC_FL_KEEP_SIZE, 0, st.st_size) != 0 &&
	    errno != EOPNOTSUPP && errno != ENOSYS)
		goto end;
#endif
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		ssize_t off = 0;

		while (off < n) {
			ssize_t w = pwrite(out, buf + off, (size_t)(n - off), done);

			if (w < 0)
				goto end;
			off += w;
			done += w;
		}
	}
	if (n == 0 && ftruncate(out, done) == 0 && fsync(out) == 0)
		rc = 0;
end:
	saved = errno;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) != 0 && rc == 0) {
		saved = errno;
		rc = -1;
	}
	errno = saved;
	return rc;
}

int kb_atomic_rename(struct kb_atomic *a, char *err, size_t errlen)
{
	if (a->tmp && (a->how == KB_OUT_INPLACE ? rewrite_in_place(a->tmp, a->target)
						 : rename(a->tmp, a->target)) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", a->path,
			 strerror(errno));
		kb_atomic_abort(a);
		return -1;
	}
	if (a->tmp && a->how == KB_OUT_RENAME) { /* gone: renamed */
		set_slot(pending_files, a->tmp, 0);
		free(a->tmp);
		a->tmp = NULL;
	}
	kb_atomic_abort(a); /* what is left: an in-place copy's temporary */
	return 0;
}

int kb_atomic_commit(struct kb_atomic *a, char *err, size_t errlen)
{
	if (kb_atomic_close(a, err, errlen) < 0)
		return -1;
	return kb_atomic_rename(a, err, errlen);
}

int kb_output_place(const char *tmp, const char *path, char *err, size_t errlen)
{
	struct kb_atomic a;
	struct stat st;
	int rc;

	if (resolve(path, &a.target, &a.how, &st, err, errlen) < 0)
		return -1;
	if (a.how == KB_OUT_RENAME) {
		int fd = open(tmp, O_RDONLY | O_CLOEXEC);

		if (fd >= 0) {
			keep_mode(fd, &st);
			close(fd);
		}
		rc = rename(tmp, a.target);
		if (rc == 0 || errno != EXDEV) {
			if (rc != 0)
				snprintf(err, errlen, "cannot write %s: %s", path,
					 strerror(errno));
			free(a.target);
			return rc;
		}
	}
	free(a.target);
	/* a device, a hard-linked file, or a link into another file system:
	 * the text copied there through a writer of its own */
	if (kb_atomic_open(&a, path, err, errlen) < 0)
		return -1;
	{
		char buf[65536];
		FILE *in = fopen(tmp, "rb");
		size_t n;

		while (in && (n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, a.f);
		if (!in || ferror(in)) {
			snprintf(err, errlen, "cannot read %s: %s", tmp, strerror(errno));
			if (in)
				fclose(in);
			kb_atomic_abort(&a);
			return -1;
		}
		fclose(in);
	}
	if (kb_atomic_commit(&a, err, errlen) < 0)
		return -1;
	unlink(tmp);
	return 0;
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
	free(a->target);
	a->tmp = a->path = a->target = NULL;
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
 * "what shown: reason" in err. */
static int probe(const char *path, const char *suffix, const char *what,
		 const char *shown, char *err, size_t errlen)
{
	char *tmp;
	int fd;

	if (asprintf(&tmp, "%s%s", path, suffix) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		snprintf(err, errlen, "%s %s: %s", what, shown, strerror(errno));
	else {
		close(fd);
		unlink(tmp);
	}
	free(tmp);
	return fd < 0 ? -1 : 0;
}

int kb_output_check_file(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *target;
	int how, rc = 0;

	if (!path || strcmp(path, "-") == 0)
		return 0;
	if (resolve(path, &target, &how, &st, err, errlen) < 0)
		return -1;
	/* a device or FIFO is not opened here: a FIFO would wait for its
	 * reader, twice; written through or in place, it must be writable */
	if (how != KB_OUT_RENAME && access(target, W_OK) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		rc = -1;
	} else if (how != KB_OUT_DIRECT) {
		rc = probe(target, ".tmp.XXXXXX", "cannot write", path, err, errlen);
	}
	free(target);
	return rc;
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
	return probe(dir, "/.khash-bench.XXXXXX", "cannot write in plot folder", dir, err, errlen);
}
