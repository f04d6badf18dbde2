/* SPDX-License-Identifier: MIT */
#include "decompress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef KB_HAVE_LZMA
#include <lzma.h>
#endif
#ifdef KB_HAVE_ZLIB
#include <zlib.h>
#endif

static const struct {
	enum kb_z_kind kind;
	const char *name;
	unsigned char magic[KB_Z_MAGIC];
	size_t len;
} formats[] = {
	{ KB_Z_XZ, "xz", { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6 },
	{ KB_Z_GZIP, "gzip", { 0x1f, 0x8b }, 2 },
	{ KB_Z_BZIP2, "bzip2", { 'B', 'Z', 'h' }, 3 },
	{ KB_Z_ZSTD, "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4 },
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

enum kb_z_kind kb_z_sniff(const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (n >= formats[i].len && memcmp(b, formats[i].magic, formats[i].len) == 0)
			return formats[i].kind;
	return KB_Z_NONE;
}

int kb_z_undecided(const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (n < formats[i].len && memcmp(b, formats[i].magic, n) == 0)
			return 1;
	return 0;
}

const char *kb_z_name(enum kb_z_kind kind)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (formats[i].kind == kind)
			return formats[i].name;
	return "uncompressed";
}

struct kb_z {
	enum kb_z_kind kind;
	int fd, in_eof, done;
	const char *name;
	size_t in_len, in_pos;
#ifdef KB_HAVE_LZMA
	lzma_stream xz;
#endif
#ifdef KB_HAVE_ZLIB
	z_stream gz;
#endif
	unsigned char in[65536];
};

struct kb_z *kb_z_open(enum kb_z_kind kind, int fd, const char *name,
		       const unsigned char *pre, size_t npre, char *err,
		       size_t errlen)
{
	struct kb_z *z;
	int ok = 0;

	switch (kind) {
#ifdef KB_HAVE_LZMA
	case KB_Z_XZ:
#endif
#ifdef KB_HAVE_ZLIB
	case KB_Z_GZIP:
#endif
		break;
	default:
		snprintf(err, errlen, "%s: %s-compressed, which this khash-bench does not read: decompress it first",
			 name, kb_z_name(kind));
		return NULL;
	}
	z = calloc(1, sizeof(*z));
	if (!z) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	z->kind = kind;
	z->fd = fd;
	z->name = name;
	memcpy(z->in, pre, npre);
	z->in_len = npre;
#ifdef KB_HAVE_LZMA
	if (kind == KB_Z_XZ) {
		lzma_stream init = LZMA_STREAM_INIT;

		z->xz = init;
		/* concatenated: what xz -dc reads, several streams in a row */
		ok = lzma_stream_decoder(&z->xz, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
	}
#endif
#ifdef KB_HAVE_ZLIB
	/* 16 + MAX_WBITS: gzip's header and trailer, not zlib's */
	if (kind == KB_Z_GZIP)
		ok = inflateInit2(&z->gz, 16 + MAX_WBITS) == Z_OK;
#endif
	if (!ok) {
		snprintf(err, errlen, "%s: cannot start the %s decoder", name, kb_z_name(kind));
		free(z);
		return NULL;
	}
	return z;
}

#if defined(KB_HAVE_LZMA) || defined(KB_HAVE_ZLIB)
/* More compressed bytes when all are used: 0, or -1 on a read error. */
static int fill(struct kb_z *z, char *err, size_t errlen)
{
	ssize_t got;

	if (z->in_pos < z->in_len || z->in_eof)
		return 0;
	do
		got = read(z->fd, z->in, sizeof(z->in));
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		snprintf(err, errlen, "%s: read error: %s", z->name, strerror(errno));
		return -1;
	}
	z->in_len = (size_t)got;
	z->in_pos = 0;
	z->in_eof = got == 0;
	return 0;
}
#endif

/* "FILE: truncated xz data" (the input ended inside a stream) or
 * "FILE: corrupt gzip data: why". */
static int corrupt(struct kb_z *z, int truncated, const char *why, char *err,
		   size_t errlen)
{
	snprintf(err, errlen, "%s: %s %s data%s%s", z->name,
		 truncated ? "truncated" : "corrupt", kb_z_name(z->kind),
		 why ? ": " : "", why ? why : "");
	return -1;
}

#ifdef KB_HAVE_LZMA
static ssize_t read_xz(struct kb_z *z, unsigned char *out, size_t n, char *err,
		       size_t errlen)
{
	lzma_ret r;

	z->xz.next_out = out;
	z->xz.avail_out = n;
	while (z->xz.avail_out == n) {
		if (fill(z, err, errlen) < 0)
			return -1;
		z->xz.next_in = z->in + z->in_pos;
		z->xz.avail_in = z->in_len - z->in_pos;
		r = lzma_code(&z->xz, z->in_eof ? LZMA_FINISH : LZMA_RUN);
		z->in_pos = z->in_len - z->xz.avail_in;
		if (r == LZMA_STREAM_END) {
			z->done = 1;
			break;
		}
		if (r == LZMA_BUF_ERROR && z->in_eof)
			return corrupt(z, 1, NULL, err, errlen);
		if (r == LZMA_MEM_ERROR) {
			snprintf(err, errlen, "%s: out of memory decoding xz", z->name);
			return -1;
		}
		if (r != LZMA_OK && r != LZMA_BUF_ERROR) {
			return corrupt(z, 0, r == LZMA_FORMAT_ERROR ? "not an xz stream" :
					   r == LZMA_DATA_ERROR ? "bad compressed data" :
					   r == LZMA_OPTIONS_ERROR ? "unsupported options" :
					   "check failed", err, errlen);
		}
	}
	return (ssize_t)(n - z->xz.avail_out);
}
#endif

#ifdef KB_HAVE_ZLIB
static ssize_t read_gz(struct kb_z *z, unsigned char *out, size_t n, char *err,
		       size_t errlen)
{
	int r;

	z->gz.next_out = out;
	z->gz.avail_out = (uInt)n;
	while (z->gz.avail_out == n) {
		if (fill(z, err, errlen) < 0)
			return -1;
		if (z->in_pos == z->in_len) { /* the input ended inside a member */
			if (z->gz.total_in == 0 && z->gz.total_out == 0 && z->in_eof) {
				z->done = 1; /* after a member's end: no more members */
				break;
			}
			return corrupt(z, 1, NULL, err, errlen);
		}
		z->gz.next_in = z->in + z->in_pos;
		z->gz.avail_in = (uInt)(z->in_len - z->in_pos);
		r = inflate(&z->gz, Z_NO_FLUSH);
		z->in_pos = z->in_len - z->gz.avail_in;
		if (r == Z_STREAM_END) {
			/* gzip -dc reads members one after another */
			inflateReset(&z->gz);
			if (z->gz.avail_out != n)
				break;
			continue;
		}
		if (r == Z_MEM_ERROR) {
			snprintf(err, errlen, "%s: out of memory decoding gzip", z->name);
			return -1;
		}
		if (r != Z_OK && r != Z_BUF_ERROR) {
			return corrupt(z, 0, z->gz.msg, err, errlen);
		}
	}
	return (ssize_t)(n - z->gz.avail_out);
}
#endif

ssize_t kb_z_read(struct kb_z *z, unsigned char *out, size_t n, char *err,
		  size_t errlen)
{
	if (z->done || n == 0)
		return 0;
#ifdef KB_HAVE_LZMA
	if (z->kind == KB_Z_XZ)
		return read_xz(z, out, n, err, errlen);
#endif
#ifdef KB_HAVE_ZLIB
	if (z->kind == KB_Z_GZIP)
		return read_gz(z, out, n, err, errlen);
#endif
	(void)out;
	return corrupt(z, 0, NULL, err, errlen);
}

void kb_z_close(struct kb_z *z)
{
	if (!z)
		return;
#ifdef KB_HAVE_LZMA
	if (z->kind == KB_Z_XZ)
		lzma_end(&z->xz);
#endif
#ifdef KB_HAVE_ZLIB
	if (z->kind == KB_Z_GZIP)
		inflateEnd(&z->gz);
#endif
	free(z);
}
