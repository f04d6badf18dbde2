/* SPDX-License-Identifier: MIT */
#include "caches.h"

#include <stdio.h>
#include <string.h>

/* One line of a small sysfs file, without its newline; 0 on success. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* "48K", "1024K", "32M" (sysfs sizes) in bytes; 0 if unreadable. */
static uint64_t parse_size(const char *s)
{
	unsigned long long v = 0;
	char unit = 0;

	if (sscanf(s, "%llu%c", &v, &unit) < 1)
		return 0;
	return unit == 'K' ? v << 10 : unit == 'M' ? v << 20 : unit == 'G' ? v << 30 : v;
}

void kb_read_cache_bytes(const char *root, uint64_t bytes[3])
{
	unsigned i;

	memset(bytes, 0, 3 * sizeof(*bytes));
	for (i = 0; i < 16; i++) {
		char dir[512], path[600], level[16], type[32], size[32];
		unsigned lv;

		snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu/cpu0/cache/index%u",
			 root, i);
		snprintf(path, sizeof(path), "%s/level", dir);
		if (read_line(path, level, sizeof(level)) < 0)
			break;
		snprintf(path, sizeof(path), "%s/type", dir);
		if (read_line(path, type, sizeof(type)) < 0 || !strcmp(type, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "%s/size", dir);
		if (read_line(path, size, sizeof(size)) < 0)
			continue;
		lv = (unsigned)(level[0] - '0');
		if (lv >= 1 && lv <= 3 && level[1] == '\0')
			bytes[lv - 1] = parse_size(size);
	}
}
