/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
/* Writes khash-bench(1) to standard output, at build time, from the same
 * command and option tables that --help prints.  Dated SOURCE_DATE_EPOCH
 * when set (reproducible builds), else the day of the build. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli_args.h"

int main(void)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	time_t t = epoch ? (time_t)strtoll(epoch, NULL, 10) : time(NULL);
	struct tm tm;
	char date[32];

	if (!gmtime_r(&t, &tm) || !strftime(date, sizeof(date), "%Y-%m-%d", &tm))
		return 1;
	kb_manpage(stdout, date);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
