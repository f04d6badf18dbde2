/* SPDX-License-Identifier: MIT */
#include "number.h"

#include <string.h>

static int digit_value(char c, unsigned base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return (unsigned)v < base ? v : -1;
}

int kb_parse_number(const char *s, size_t len, uint64_t *v)
{
	size_t i = 0;
	unsigned base = 10;
	uint64_t x = 0;

	/* "0x" needs a digit after it to be hex; "0x" alone is invalid */
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return KB_NUMBER_INVALID;
	for (; i < len; i++) {
		int d = digit_value(s[i], base);

		if (d < 0)
			return KB_NUMBER_INVALID;
		if (x > (UINT64_MAX - (uint64_t)d) / base)
			return KB_NUMBER_OVERFLOW;
		x = x * base + (uint64_t)d;
	}
	*v = x;
	return KB_NUMBER_OK;
}

int kb_parse_u64(const char *s, uint64_t *v)
{
	return kb_parse_number(s, strlen(s), v) == KB_NUMBER_OK;
}
