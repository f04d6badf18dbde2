/* SPDX-License-Identifier: MIT */
/*
 * Output that is never left half-written: text is built in memory or
 * streamed into a temporary file beside the target, then renamed into
 * place when complete.  SIGINT and SIGTERM remove pending temporaries.
 */
#ifndef KB_OUTPUT_H
#define KB_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/* A growable text buffer. */
struct kb_buf {
	char *data;
	size_t len, cap;
	int failed; /* out of memory */
};

void kb_buf_printf(struct kb_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
void kb_buf_free(struct kb_buf *b);

/*
 * A file written under a temporary name beside it, renamed to its path on
 * commit.  Not every path is a file to replace: a device, FIFO or socket
 * is written through (tmp NULL); a symlink is followed (target: the file
 * it names, replaced, the link kept); a file with other hard links is
 * rewritten in place from the complete temporary at commit, so that all
 * its names see the new text (that last step is not atomic).  A replaced
 * file keeps its mode, and its owner and group where the process may set
 * them.
 */
struct kb_atomic {
	FILE *f;
	char *path;   /* as the caller named it, for messages */
	char *target; /* the file written: path, its symlinks followed */
	char *tmp;    /* the temporary, or NULL when written through */
	int how;
};

/* 0, or -1 with a reason in err (unwritable folder, ...). */
int kb_atomic_open(struct kb_atomic *a, const char *path, char *err,
		   size_t errlen);
/* Flush, sync and rename into place: 0, or -1 with a reason (disk full). */
int kb_atomic_commit(struct kb_atomic *a, char *err, size_t errlen);
/* The two halves of commit, for a group of files renamed together only
 * once all of them are complete (plots). */
int kb_atomic_close(struct kb_atomic *a, char *err, size_t errlen);
int kb_atomic_rename(struct kb_atomic *a, char *err, size_t errlen);
/* A finished temporary file (another writer's: gnuplot's image) put at
 * path as commit would: renamed, or copied where path is a device, a
 * hard-linked file or a link into another file system.  0, or -1. */
int kb_output_place(const char *tmp, const char *path, char *err, size_t errlen);
/* Have the signal handler remove (or forget) some other temporary file. */
void kb_atomic_track(const char *tmp_path, int pending);
/* Remove the temporary file; the target is untouched. */
void kb_atomic_abort(struct kb_atomic *a);

/* Write a whole buffer to path atomically, or to stdout when path is NULL
 * or "-".  0, or -1 with a reason. */
int kb_write_all(const char *path, const struct kb_buf *b, char *err,
		 size_t errlen);

/*
 * Before long work, whether its outputs can be written at all, so that a
 * bad path fails at once and not after the work: the file (NULL or "-":
 * standard output, fine) by creating and removing its temporary beside
 * the file a symlink names, or for a device, FIFO or socket and a
 * hard-linked file, by its write permission; the
 * folder by making it (and removing it again) or, when it exists, a
 * temporary file in it.  0, or -1 with the reason the write would give.
 */
int kb_output_check_file(const char *path, char *err, size_t errlen);
int kb_output_check_dir(const char *dir, char *err, size_t errlen);

/* Install SIGINT/SIGTERM handlers that unlink pending temporaries. */
void kb_output_install_signal_cleanup(void);

#endif
