/* SPDX-License-Identifier: MIT */
/*
 * Compressed input read as it comes: xz (liblzma) and gzip (zlib), told
 * by their magic bytes, never by the name, so that standard input and a
 * file called anything are read the same way.
 */
#ifndef KB_DECOMPRESS_H
#define KB_DECOMPRESS_H

#include <stddef.h>
#include <sys/types.h>

/* Bytes enough to tell every format below apart. */
#define KB_Z_MAGIC 6

enum kb_z_kind { KB_Z_NONE, KB_Z_GZIP, KB_Z_XZ, KB_Z_BZIP2, KB_Z_ZSTD };

/* The format the first n bytes of a file start, KB_Z_NONE for any other. */
enum kb_z_kind kb_z_sniff(const unsigned char *b, size_t n);
/* Whether the first n bytes are too few to tell: a magic starts with them
 * (a text line typed on a terminal is not waited on for more). */
int kb_z_undecided(const unsigned char *b, size_t n);
/* "xz", "gzip", ...: for messages. */
const char *kb_z_name(enum kb_z_kind kind);

struct kb_z;

/*
 * A decoder of kind for the file name (in messages) read from fd, the
 * first npre bytes of which were already read into pre.  NULL with a
 * one-line reason in err: out of memory, or a format this build does not
 * read (bzip2, zstd, or xz/gzip built without their library).
 */
struct kb_z *kb_z_open(enum kb_z_kind kind, int fd, const char *name,
		       const unsigned char *pre, size_t npre, char *err,
		       size_t errlen);
/* Up to n decompressed bytes into out: their number, 0 at the end of the
 * data, or -1 with a one-line reason (corrupt, truncated, read error). */
ssize_t kb_z_read(struct kb_z *z, unsigned char *out, size_t n, char *err,
		  size_t errlen);
void kb_z_close(struct kb_z *z);

#endif
