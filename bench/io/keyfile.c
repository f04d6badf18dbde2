/* SPDX-License-Identifier: MIT */
#include "keyfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int kb_keyfile_open(struct kb_keyfile *kf, const char *path, int binary,
		    char *err, size_t errlen)
{
	struct stat st;

	memset(kf, 0, offsetof(struct kb_keyfile, buf));
	kf->name = path;
	kf->binary = binary;
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
		snprintf(err, errlen, "%s: is a directory, not a key file",
			 kf->name);
		kb_keyfile_close(kf);
		return -1;
	}
	return 0;
}

/* Refill the buffer after keeping its unread tail; -1 on a read error. */
static int refill(struct kb_keyfile *kf, char *err, size_t errlen)
{
	ssize_t got;

	memmove(kf->buf, kf->buf + kf->pos, kf->len - kf->pos);
	kf->len -= kf->pos;
	kf->pos = 0;
	do
		got = read(kf->fd, kf->buf + kf->len, sizeof(kf->buf) - kf->len);
	while (got < 0 && errno == EINTR);
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
			if (refill(kf, err, errlen) < 0)
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

static long next_text(struct kb_keyfile *kf, uint64_t *keys, size_t max,
		      char *err, size_t errlen)
{
	size_t n = 0;
	char why[128];

	while (n < max) {
		unsigned char *start = kf->buf + kf->pos, *nl;
		size_t avail = kf->len - kf->pos, linelen;
		int rc;

		nl = memchr(start, '\n', avail);
		if (!nl && !kf->eof) {
			if (kf->pos == 0 && kf->len == sizeof(kf->buf)) {
				snprintf(err, errlen, "%s:%llu: line longer than %d bytes",
					 kf->name,
					 (unsigned long long)kf->line + 1,
					 KB_KEYFILE_BLOCK);
				return -1;
			}
			if (refill(kf, err, errlen) < 0)
				return -1;
			continue;
		}
		if (!nl && avail == 0)
			break; /* end of file */
		linelen = nl ? (size_t)(nl - start) : avail;
		kf->line++;
		if (memchr(start, '\0', linelen)) {
			snprintf(err, errlen, "%s:%llu: NUL byte in a text key file (binary? use --binary)",
				 kf->name, (unsigned long long)kf->line);
			return -1;
		}
		rc = kb_parse_key_line((const char *)start, linelen, &keys[n],
				       why, sizeof(why));
		if (rc < 0) {
			snprintf(err, errlen, "%s:%llu: %s", kf->name,
				 (unsigned long long)kf->line, why);
			return -1;
		}
		n += (size_t)rc;
		kf->pos += linelen + (nl != NULL);
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
	if (kf->fd > STDIN_FILENO)
		close(kf->fd);
	kf->fd = -1;
}
