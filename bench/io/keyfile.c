/* SPDX-License-Identifier: MIT */
#include "keyfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decompress.h"
#include "number.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int kb_parse_key_line(const char *s, size_t len, uint64_t *key, char *err,
		      size_t errlen)
{
	size_t i = 0, start, end;
	int show, status;

	while (i < len && is_blank(s[i]))
		i++;
	if (i == len || s[i] == '#')
		return 0;
	start = i;
	/* the number runs to a blank or a comment; only those may follow */
	for (end = start; end < len && !is_blank(s[end]) && s[end] != '#'; end++)
		;
	for (i = end; i < len && is_blank(s[i]); i++)
		;
	show = (int)(len - start > 40 ? 40 : len - start);
	status = kb_parse_number(s + start, end - start, key);
	if (status == KB_NUMBER_OK && i < len && s[i] != '#')
		status = KB_NUMBER_INVALID;
	switch (status) {
	case KB_NUMBER_OK:
		return 1;
	case KB_NUMBER_OVERFLOW:
		snprintf(err, errlen, "value exceeds 64 bits: '%.*s'", show, s + start);
		return -1;
	default:
		snprintf(err, errlen, "not an integer: '%.*s'", show, s + start);
		return -1;
	}
}

/* An xz or gzip file (standard input too) is read through its decoder:
 * the first bytes are read here and told apart by their magic. */
static int sniff_compressed(struct kb_keyfile *kf, char *err, size_t errlen)
{
	enum kb_z_kind kind;
	ssize_t got;

	while (kf->len == 0 || (kf->len < KB_Z_MAGIC && kb_z_undecided(kf->buf, kf->len))) {
		do
			got = read(kf->fd, kf->buf + kf->len, KB_Z_MAGIC - kf->len);
		while (got < 0 && errno == EINTR);
		if (got < 0) {
			snprintf(err, errlen, "%s: read error: %s", kf->name, strerror(errno));
			kb_keyfile_close(kf);
			return -1;
		}
		if (got == 0) {
			kf->eof = 1;
			break;
		}
		kf->len += (size_t)got;
	}
	kind = kb_z_sniff(kf->buf, kf->len);
	if (kind == KB_Z_NONE) {
		kf->bytes = kf->len;
		return 0;
	}
	kf->z = kb_z_open(kind, kf->fd, kf->name, kf->buf, kf->len, err, errlen);
	kf->len = 0;
	if (!kf->z) {
		kb_keyfile_close(kf);
		return -1;
	}
	return 0;
}

int kb_textfile_open(struct kb_keyfile *kf, const char *path, const char *what,
		     char *err, size_t errlen)
{
	struct stat st;

	memset(kf, 0, offsetof(struct kb_keyfile, buf));
	kf->name = path;
	kf->what = what;
	if (strcmp(path, "-") == 0) {
		kf->fd = STDIN_FILENO;
		kf->name = "<stdin>";
	} else {
		kf->fd = open(path, O_RDONLY);
		if (kf->fd < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
	}
	if (fstat(kf->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a %s", kf->name, what);
		kb_keyfile_close(kf);
		return -1;
	}
	return sniff_compressed(kf, err, errlen);
}

int kb_line_fail(const struct kb_line_pos *p, const char *fmt, ...)
{
	int used = snprintf(p->err, p->errlen, "%s:%llu: ", p->shown,
			    (unsigned long long)p->line);
	va_list ap;

	if (used < 0 || (size_t)used >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + used, p->errlen - (size_t)used, fmt, ap);
	va_end(ap);
	return -1;
}

long kb_textfile_lines(const char *path, const char *what, size_t max,
		       int (*fn)(void *ctx, char *line, size_t len), void *ctx,
		       const char **shown, char *err, size_t errlen)
{
	struct kb_keyfile *in = malloc(sizeof(*in));
	char *copy = malloc(max + 1);
	const char *line;
	size_t len;
	long n = 0;
	int got, lf;

	*shown = path;
	if (!in || !copy) {
		snprintf(err, errlen, "out of memory");
		n = -1;
	} else if (kb_textfile_open(in, path, what, err, errlen) < 0) {
		n = -1;
	} else {
		*shown = in->name;
		while (n >= 0 && (got = kb_keyfile_line(in, max, &line, &len, &lf, err, errlen))) {
			if (got < 0) {
				n = -1;
				break;
			}
			n++;
			if (!lf) {
				snprintf(err, errlen, "%s:%ld: the last line has no LF", in->name, n);
				n = -1;
				break;
			}
			memcpy(copy, line, len);
			copy[len] = '\0';
			if (fn(ctx, copy, len) < 0)
				n = -1;
		}
		kb_keyfile_close(in);
	}
	free(copy);
	free(in);
	return n;
}

int kb_keyfile_open(struct kb_keyfile *kf, const char *path, int binary,
		    char *err, size_t errlen)
{
	int rc = kb_textfile_open(kf, path, "key file", err, errlen);

	kf->binary = binary;
	return rc;
}

/* Refill the buffer after keeping its unread tail; -1 on a read error. */
static int refill(struct kb_keyfile *kf, char *err, size_t errlen)
{
	ssize_t got;

	memmove(kf->buf, kf->buf + kf->pos, kf->len - kf->pos);
	kf->len -= kf->pos;
	kf->pos = 0;
	if (kf->z)
		got = kb_z_read(kf->z, kf->buf + kf->len, sizeof(kf->buf) - kf->len, err, errlen);
	else
		do
			got = read(kf->fd, kf->buf + kf->len, sizeof(kf->buf) - kf->len);
		while (got < 0 && errno == EINTR);
	if (got < 0 && kf->z)
		return -1; /* the decoder's reason is in err */
	if (got < 0) {
		snprintf(err, errlen, "%s: read error: %s", kf->name,
			 strerror(errno));
		return -1;
	}
	if (got == 0)
		kf->eof = 1;
	kf->len += (size_t)got;
	kf->bytes += (uint64_t)got;
	return 0;
}

/* Printable ASCII and the blanks a text file has. */
static int texty(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r' || c == '\t';
}

/*
 * A text key file given --binary is read as garbage keys, silently.  Real
 * little-endian keys always hold a byte outside printable ASCII (the zero
 * top bytes of any key below 2^56, the 0xff of kernel pointers), so a
 * first block of nothing but text is refused.  Looked at once, when the
 * first key is complete (or the file ends).
 */
static int sniff_text(struct kb_keyfile *kf, char *err, size_t errlen)
{
	size_t i;

	if (kf->len < 8 && !kf->eof)
		return 0;
	kf->sniffed = 1;
	for (i = 0; i < kf->len; i++)
		if (!texty(kf->buf[i]))
			return 0;
	if (kf->len == 0)
		return 0;
	snprintf(err, errlen,
		 "%s: text, not little-endian u64 keys: its first block is all printable ASCII (drop --binary)",
		 kf->name);
	return -1;
}

static long next_binary(struct kb_keyfile *kf, uint64_t *keys, size_t max,
			char *err, size_t errlen)
{
	size_t n = 0;

	while (n < max) {
		const unsigned char *b;
		uint64_t v = 0;
		int i;

		if (kf->len - kf->pos < 8) {
			if (kf->eof)
				break;
			if (refill(kf, err, errlen) < 0 ||
			    (!kf->sniffed && sniff_text(kf, err, errlen) < 0))
				return -1;
			continue;
		}
		/* Little-endian by definition, whatever this host is. */
		b = kf->buf + kf->pos;
		for (i = 7; i >= 0; i--)
			v = (v << 8) | b[i];
		keys[n++] = v;
		kf->pos += 8;
	}
	if (n == 0 && kf->eof && kf->len - kf->pos != 0) {
		snprintf(err, errlen,
			 "%s: truncated binary key file: %llu bytes is not a multiple of 8",
			 kf->name, (unsigned long long)kf->bytes);
		return -1;
	}
	return (long)n;
}

int kb_keyfile_line(struct kb_keyfile *kf, size_t max, const char **line,
		    size_t *len, int *lf, char *err, size_t errlen)
{
	/* a line and its LF must fit the buffer */
	if (max > KB_KEYFILE_BLOCK - 1)
		max = KB_KEYFILE_BLOCK - 1;
	for (;;) {
		unsigned char *start = kf->buf + kf->pos, *nl, *nul;
		size_t avail = kf->len - kf->pos, linelen;

		nl = memchr(start, '\n', avail <= max ? avail : max + 1);
		if (!nl && avail <= max && !kf->eof) {
			if (refill(kf, err, errlen) < 0)
				return -1;
			continue;
		}
		if (!nl && avail == 0)
			return 0; /* end of file */
		linelen = nl ? (size_t)(nl - start) : avail <= max ? avail : max + 1;
		/* a NUL first: endless binary input is named as such */
		nul = memchr(start, '\0', linelen);
		if (nul) {
			snprintf(err, errlen, "%s:%llu: NUL byte at byte offset %llu: not a text %s%s",
				 kf->name, (unsigned long long)kf->line + 1,
				 (unsigned long long)(kf->bytes - avail + (uint64_t)(nul - start)),
				 kf->what, strcmp(kf->what, "key file") ? "" : " (binary? use --binary)");
			return -1;
		}
		if (!nl && avail > max) {
			snprintf(err, errlen, "%s:%llu: line longer than %zu bytes", kf->name,
				 (unsigned long long)kf->line + 1, max);
			return -1;
		}
		kf->line++;
		kf->pos += linelen + (nl != NULL);
		*line = (const char *)start;
		*len = linelen;
		*lf = nl != NULL;
		return 1;
	}
}

static long next_text(struct kb_keyfile *kf, uint64_t *keys, size_t max,
		      char *err, size_t errlen)
{
	size_t n = 0, len;
	const char *line;
	char why[128];
	int rc, lf;

	while (n < max) {
		rc = kb_keyfile_line(kf, KB_KEYFILE_BLOCK, &line, &len, &lf, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		rc = kb_parse_key_line(line, len, &keys[n], why, sizeof(why));
		if (rc < 0) {
			snprintf(err, errlen, "%s:%llu: %s", kf->name,
				 (unsigned long long)kf->line, why);
			return -1;
		}
		n += (size_t)rc;
	}
	return (long)n;
}

long kb_keyfile_next(struct kb_keyfile *kf, uint64_t *keys, size_t max,
		     char *err, size_t errlen)
{
	long n = kf->binary ? next_binary(kf, keys, max, err, errlen)
			    : next_text(kf, keys, max, err, errlen);

	if (n > 0)
		kf->keys += (uint64_t)n;
	else if (n == 0 && kf->keys == 0) {
		snprintf(err, errlen, "%s: no keys in the file", kf->name);
		return -1;
	}
	return n;
}

void kb_keyfile_close(struct kb_keyfile *kf)
{
	kb_z_close(kf->z);
	kf->z = NULL;
	if (kf->fd > STDIN_FILENO)
		close(kf->fd);
	kf->fd = -1;
}

int kb_keyfile_each(const char *path, int binary,
		    int (*fn)(void *ctx, const char *name, const uint64_t *keys,
			      size_t n, uint64_t done),
		    void *ctx, char *err, size_t errlen)
{
	struct kb_keyfile *kf = malloc(sizeof(*kf));
	uint64_t *keys = malloc(KB_KEYFILE_EACH * sizeof(*keys)), done = 0;
	long got;
	int rc = 0;

	if (!kf || !keys) {
		snprintf(err, errlen, "out of memory");
		free(kf);
		free(keys);
		return -1;
	}
	if (kb_keyfile_open(kf, path, binary, err, errlen) < 0)
		rc = -1;
	else
		while (!rc && (got = kb_keyfile_next(kf, keys, KB_KEYFILE_EACH, err, errlen)) != 0) {
			if (got < 0)
				rc = -1;
			else
				rc = fn(ctx, kf->name, keys, (size_t)got, done);
			done += got > 0 ? (uint64_t)got : 0;
		}
	if (kf->fd >= 0)
		kb_keyfile_close(kf);
	free(kf);
	free(keys);
	return rc;
}

/* kb_keyfile_read_all's keys so far, within its limit. */
struct key_array {
	uint64_t *all, max;
	size_t n, cap;
	char *err;
	size_t errlen;
};

static int append_keys(void *ctx, const char *name, const uint64_t *keys, size_t n,
		       uint64_t done)
{
	struct key_array *a = ctx;

	(void)done;
	if (a->n + n > a->max) {
		snprintf(a->err, a->errlen, "%s: over %llu keys, the --max-memory limit",
			 name, (unsigned long long)a->max);
		return -1;
	}
	if (a->n + n > a->cap) {
		/* double, but never past the limit */
		size_t want = a->cap ? 2 * a->cap : KB_KEYFILE_EACH;
		uint64_t *p;

		if (want > a->max)
			want = (size_t)a->max;
		if (want < a->n + n)
			want = a->n + n;
		p = realloc(a->all, want * sizeof(*p));
		if (!p) {
			snprintf(a->err, a->errlen, "out of memory for %zu keys", want);
			return -1;
		}
		a->all = p;
		a->cap = want;
	}
	memcpy(a->all + a->n, keys, n * sizeof(*keys));
	a->n += n;
	return 0;
}

int kb_keyfile_read_all(const char *path, int binary, uint64_t max_keys,
			uint64_t **keys, size_t *n, char *err, size_t errlen)
{
	struct key_array a = { NULL, max_keys, 0, 0, err, errlen };

	*keys = NULL;
	*n = 0;
	if (kb_keyfile_each(path, binary, append_keys, &a, err, errlen) != 0) {
		free(a.all);
		return -1;
	}
	*keys = a.all;
	*n = a.n;
	return 0;
}

/* "0x" + lowercase hex + newline, as printf("%#" PRIx64) but 0 as 0x0. */
static size_t format_hex(char *out, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	size_t n = 0, i;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	out[0] = '0';
	out[1] = 'x';
	for (i = 0; i < n; i++)
		out[2 + i] = tmp[n - 1 - i];
	out[2 + n] = '\n';
	return n + 3;
}

int kb_keywriter_open(struct kb_keywriter *w, const char *path, int binary,
		      char *err, size_t errlen)
{
	memset(&w->out, 0, sizeof(w->out));
	w->to = stdout;
	w->binary = binary;
	if (path && strcmp(path, "-")) {
		if (kb_atomic_open(&w->out, path, err, errlen) < 0)
			return -1;
		w->to = w->out.f;
	}
	return 0;
}

/* The reason a write failed, named as kb_atomic_commit names a file's. */
static int write_failed(const struct kb_keywriter *w, int saved, char *err, size_t errlen)
{
	if (w->out.f)
		snprintf(err, errlen, "cannot write %s: %s", w->out.path, strerror(saved));
	else
		snprintf(err, errlen, "cannot write standard output: %s", strerror(saved));
	return -1;
}

int kb_keywriter_put(struct kb_keywriter *w, const uint64_t *keys, size_t n,
		     char *err, size_t errlen)
{
	size_t i, j, m, len;

	for (i = 0; i < n; i += m) {
		m = n - i < KB_KEYFILE_EACH ? n - i : KB_KEYFILE_EACH;
		for (j = i, len = 0; j < i + m; j++) {
			if (w->binary) {
				unsigned byte;

				for (byte = 0; byte < 8; byte++)
					w->buf[len++] = (char)(keys[j] >> (8 * byte));
			} else {
				len += format_hex(w->buf + len, keys[j]);
			}
		}
		if (fwrite(w->buf, 1, len, w->to) < len || ferror(w->to))
			return write_failed(w, errno, err, errlen);
	}
	return 0;
}

int kb_keywriter_commit(struct kb_keywriter *w, char *err, size_t errlen)
{
	if (w->out.f)
		return kb_atomic_commit(&w->out, err, errlen);
	if (fflush(stdout) != 0 || ferror(stdout))
		return write_failed(w, errno, err, errlen);
	return 0;
}

void kb_keywriter_abort(struct kb_keywriter *w)
{
	if (w->out.f)
		kb_atomic_abort(&w->out);
}
