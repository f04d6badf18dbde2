/* SPDX-License-Identifier: MIT */
/*
 * Key files: text, one integer per line (decimal or 0x hex; '#' comments,
 * blank lines and CRLF line ends allowed), or --binary little-endian u64;
 * either may be xz- or gzip-compressed (told by its first bytes).
 * Read in 64 KiB blocks and streamed, so any file size takes O(1) memory;
 * every rejection names the file and, for text, the line.
 */
#ifndef KB_KEYFILE_H
#define KB_KEYFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "output.h"

#define KB_KEYFILE_BLOCK 65536

struct kb_z;

struct kb_keyfile {
	int fd;
	int binary;
	int eof;
	const char *name;     /* as given; "-" is standard input */
	uint64_t line;        /* lines consumed so far (text) */
	uint64_t keys;        /* keys returned so far */
	uint64_t bytes;       /* bytes read so far */
	int sniffed;          /* binary: the first block has been looked at */
	const char *what;     /* "key file", "census file": for messages */
	struct kb_z *z;       /* the decoder of an xz or gzip file, or NULL */
	size_t len, pos;
	unsigned char buf[KB_KEYFILE_BLOCK];
};

/* 0, or -1 with a one-line reason in err. */
int kb_keyfile_open(struct kb_keyfile *kf, const char *path, int binary,
		    char *err, size_t errlen);
/* The same for any text file read by kb_keyfile_line(); what names its
 * kind in messages ("census file"). */
int kb_textfile_open(struct kb_keyfile *kf, const char *path, const char *what,
		     char *err, size_t errlen);
/*
 * The next line, without its LF (*lf: whether one ended it; only the last
 * line can lack one): 1, 0 at the end, or -1 with a one-line reason
 * naming file, line and, for a NUL byte, its byte offset.  A line is at
 * most max bytes (at most KB_KEYFILE_BLOCK - 1), so endless input without a
 * newline is refused, never buffered.  *line lives until the next call.
 */
int kb_keyfile_line(struct kb_keyfile *kf, size_t max, const char **line,
		    size_t *len, int *lf, char *err, size_t errlen);
/* Where a line-by-line reader is, for its messages. */
struct kb_line_pos {
	const char *shown;   /* the file's name in messages */
	uint64_t line;       /* from 1 */
	char *err;
	size_t errlen;
};

/* "FILE:LINE: problem" into p's err: returns -1, for return statements. */
int kb_line_fail(const struct kb_line_pos *p, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/*
 * Every line of a text file (kb_textfile_open, kb_keyfile_line) to fn, as
 * a NUL-terminated copy fn may change, until fn returns nonzero; a last
 * line without its LF is refused ("FILE:N: the last line has no LF").
 * *shown is the file's name in messages ("<stdin>" for -), set before fn
 * first runs and valid while path is.  The number of lines read, or -1
 * with a reason in err (fn's own, when it returned -1).
 */
long kb_textfile_lines(const char *path, const char *what, size_t max,
		       int (*fn)(void *ctx, char *line, size_t len), void *ctx,
		       const char **shown, char *err, size_t errlen);
/* Keys read (0 at the end), or -1 with a one-line reason in err. */
long kb_keyfile_next(struct kb_keyfile *kf, uint64_t *keys, size_t max,
		     char *err, size_t errlen);
void kb_keyfile_close(struct kb_keyfile *kf);

/*
 * Every key of a key file to fn, a block (at most KB_KEYFILE_EACH keys) at
 * a time, with the number of keys before it and the file's name for
 * messages ("<stdin>" for -), until the end or until fn returns nonzero.
 * 0 at the end; fn's nonzero return as it is (-1: fn's reason is in err);
 * or -1 with a one-line reason in err.
 */
#define KB_KEYFILE_EACH 4096
int kb_keyfile_each(const char *path, int binary,
		    int (*fn)(void *ctx, const char *name, const uint64_t *keys,
			      size_t n, uint64_t done),
		    void *ctx, char *err, size_t errlen);

/*
 * Every key of a key file, in a malloc()ed array (*keys, *n; the caller
 * frees it), refusing more than max_keys: 0, or -1 with a one-line reason.
 */
int kb_keyfile_read_all(const char *path, int binary, uint64_t max_keys,
			uint64_t **keys, size_t *n, char *err, size_t errlen);

/*
 * A key file being written, in the form the reader takes: text (0x hex,
 * one a line) or binary (little-endian u64); to a file under a temporary
 * name renamed on commit (never left half-written), or to standard output
 * when the path is NULL or "-".
 */
struct kb_keywriter {
	FILE *to;
	int binary;
	struct kb_atomic out;      /* out.f: writing a file */
	char buf[KB_KEYFILE_EACH * 19];
};

/* 0, or -1 with a one-line reason naming the file. */
int kb_keywriter_open(struct kb_keywriter *w, const char *path, int binary,
		      char *err, size_t errlen);
/* Write n keys: 0, or -1 with a reason (the output failed); then abort. */
int kb_keywriter_put(struct kb_keywriter *w, const uint64_t *keys, size_t n,
		     char *err, size_t errlen);
/* Finish: the file renamed into place, or standard output flushed; 0, or
 * -1 with a reason (a full disk), the file then never written. */
int kb_keywriter_commit(struct kb_keywriter *w, char *err, size_t errlen);
/* Give up: a file's temporary removed, its target untouched. */
void kb_keywriter_abort(struct kb_keywriter *w);

/*
 * Parse one text line (no newline).  Returns 1 with *key set, 0 for a blank
 * or comment line, -1 with a reason (without file and line) in err.
 */
int kb_parse_key_line(const char *s, size_t len, uint64_t *key, char *err,
		      size_t errlen);

#endif
