/* SPDX-License-Identifier: MIT */
#include "number.h"

#include <stdio.h>
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

/* A suffix and the multiplier it stands for. */
struct unit {
	const char *name;
	uint64_t scale;
};

#define KIB (UINT64_C(1) << 10)
static const struct unit count_units[] = {
	{ "k", UINT64_C(1000) }, { "M", UINT64_C(1000000) },
	{ "G", UINT64_C(1000000000) }, { "T", UINT64_C(1000000000000) },
	{ "Ki", KIB }, { "Mi", KIB << 10 }, { "Gi", KIB << 20 }, { "Ti", KIB << 30 },
};
/* Largest first: kb_format_bytes takes the first that divides. */
static const struct unit byte_units[] = {
	{ "TiB", KIB << 30 }, { "GiB", KIB << 20 }, { "MiB", KIB << 10 }, { "KiB", KIB },
	{ "T", KIB << 30 }, { "G", KIB << 20 }, { "M", KIB << 10 }, { "K", KIB },
};

/* digits[.digits] times scale * 10^exp10, which must come out whole. */
static int scaled(const char *s, size_t len, uint64_t scale, unsigned exp10,
		  uint64_t *v)
{
	const char *dot = memchr(s, '.', len);
	size_t whole = dot ? (size_t)(dot - s) : len, i;
	uint64_t x = 0, den = 1;

	if (whole == 0 || (dot && whole + 1 == len))
		return KB_NUMBER_INVALID;
	for (i = 0; i < len; i++) {
		if (s + i == dot)
			continue;
		if (s[i] < '0' || s[i] > '9')
			return KB_NUMBER_INVALID;
		if (x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return KB_NUMBER_OVERFLOW;
		x = x * 10 + (uint64_t)(s[i] - '0');
		if (dot && s + i > dot) {
			/* a fraction digit: one more power of ten to divide by */
			if (exp10) {
				exp10--;
			} else {
				if (den > UINT64_MAX / 10)
					return KB_NUMBER_OVERFLOW;
				den *= 10;
			}
		}
	}
	for (; exp10; exp10--) {
		if (x > UINT64_MAX / 10)
			return KB_NUMBER_OVERFLOW;
		x *= 10;
	}
	/* x / den * scale must be whole: cancel what den and scale share
	 * (den is a power of ten), then den must divide x */
	while (den > 1 && scale % 10 == 0) {
		den /= 10;
		scale /= 10;
	}
	while (den > 1 && den % 2 == 0 && scale % 2 == 0) {
		den /= 2;
		scale /= 2;
	}
	if (x % den)
		return KB_NUMBER_FRACTION;
	if (__builtin_mul_overflow(x / den, scale, &x))
		return KB_NUMBER_OVERFLOW;
	*v = x;
	return KB_NUMBER_OK;
}

/* A number with one of the units, or a plain one (then with an exponent
 * when exponent is set). */
static int with_unit(const char *s, const struct unit *units, size_t nunits,
		     int exponent, uint64_t *v)
{
	size_t len = strlen(s), i;
	int rc = kb_parse_number(s, len, v);

	if (rc != KB_NUMBER_INVALID)
		return rc;
	if (len > 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
		return KB_NUMBER_INVALID; /* hex takes no unit */
	for (i = 0; i < nunits; i++) {
		size_t n = strlen(units[i].name);

		if (len > n && !strcmp(s + len - n, units[i].name))
			return scaled(s, len - n, units[i].scale, 0, v);
	}
	if (exponent) {
		const char *e = strpbrk(s, "eE");
		uint64_t x;

		if (!e || e[1] == '\0' || strspn(e + 1, "0123456789") != strlen(e + 1))
			return scaled(s, len, 1, 0, v); /* 1.5 is a fraction, 1x invalid */
		if (kb_parse_number(e + 1, strlen(e + 1), &x) != KB_NUMBER_OK)
			return KB_NUMBER_INVALID;
		if (x > 40) /* past 10^40 every nonzero value overflows */
			x = 40;
		return scaled(s, (size_t)(e - s), 1, (unsigned)x, v);
	}
	return KB_NUMBER_INVALID;
}

int kb_parse_count(const char *s, uint64_t *v)
{
	return with_unit(s, count_units, sizeof(count_units) / sizeof(count_units[0]), 1, v);
}

int kb_parse_bytes(const char *s, uint64_t *v)
{
	return with_unit(s, byte_units, sizeof(byte_units) / sizeof(byte_units[0]), 0, v);
}

void kb_bytes_text(uint64_t v, char *out, size_t len)
{
	size_t i;

	for (i = 0; v && i < 4; i++)
		if (v % byte_units[i].scale == 0) {
			snprintf(out, len, "%llu%s",
				 (unsigned long long)(v / byte_units[i].scale),
				 byte_units[i].name);
			return;
		}
	snprintf(out, len, "%llu", (unsigned long long)v);
}
