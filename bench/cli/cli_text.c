/* SPDX-License-Identifier: MIT */
/*
 * The command line's words: every error and warning as one line on
 * stderr, and text appended to a buffer as snprintf would.
 */
#include "cli_args.h"

#include <stdarg.h>
#include <stdio.h>

#include "cli_internal.h"

static const char *prog = "khash-bench";

/* An error is one line whatever the user's words hold: a control
 * character in a name (--keyset $'se\nq') is written escaped, as C would. */
int kb_fail(int status, const char *fmt, ...)
{
	char msg[2048];
	const unsigned char *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: ", prog);
	for (p = (const unsigned char *)msg; *p; p++)
		if (*p == '\n')
			fputs("\\n", stderr);
		else if (*p == '\t')
			fputs("\\t", stderr);
		else if (*p == '\r')
			fputs("\\r", stderr);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	fputc('\n', stderr);
	return status;
}

int kb_plot_outcome(int rc, const char *err)
{
	if (rc < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	if (rc > 0)
		kb_fail(0, "warning: %s", err);
	return 0;
}

void kb_append(char *out, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*used += (size_t)vsnprintf(out + *used, *used < len ? len - *used : 0, fmt, ap);
	va_end(ap);
}
