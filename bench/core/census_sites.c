/* SPDX-License-Identifier: MIT */
#include "census_sites.h"

#include <stddef.h>
#include <string.h>

/* The entries, kb_census_site_uses[], are made from
 * tests/data/atlas/census-sites.tsv by gen_census_sites.py. */

/* the kernel of a census file that names none: the fixtures and the first
 * 6.1 files */
#define UNNAMED_KERNEL "6.1"

const char *kb_site_kind_name(int kind)
{
	if (kind >= 0 && kind < KB_KIND_COUNT_)
		return kb_table_kind_name((enum kb_table_kind)kind);
	return kind == KB_SITE_OTHER ? "other" : "unknown";
}

/* Whether a dotted version ("6.12.118") is of the major.minor `kernel`
 * ("6.12"): the character after it must end the number, or "6.1" would
 * take 6.12 and 6.10 as its own. */
static int same_kernel(const char *version, const char *kernel)
{
	size_t n = strlen(kernel);

	return !strncmp(version, kernel, n) && (version[n] == '\0' || version[n] == '.');
}

const struct kb_census_site_use *kb_census_site_use_find(const char *kernel,
							  const char *where,
							  const char *func)
{
	unsigned i;

	if (!kernel)
		kernel = UNNAMED_KERNEL;
	for (i = 0; i < kb_census_site_uses_count; i++) {
		const struct kb_census_site_use *u = &kb_census_site_uses[i];

		if (same_kernel(kernel, u->kernel) && !strcmp(u->where, where) &&
		    (!u->func || (func && !strcmp(u->func, func))))
			return u;
	}
	return NULL;
}
