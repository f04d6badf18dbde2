/* SPDX-License-Identifier: MIT */
#include "format.h"

#include <math.h>
#include <string.h>

static const char *const names[KB_FORMAT_COUNT] = {
	[KB_FORMAT_TEXT] = "text",
	[KB_FORMAT_CSV] = "csv",
	[KB_FORMAT_JSON] = "json",
};

const char *kb_format_name(enum kb_format f)
{
	return (unsigned)f < KB_FORMAT_COUNT ? names[f] : NULL;
}

int kb_format_from_name(const char *name, enum kb_format *f)
{
	unsigned i;

	for (i = 0; name && i < KB_FORMAT_COUNT; i++) {
		if (strcmp(name, names[i]) == 0) {
			*f = (enum kb_format)i;
			return 0;
		}
	}
	return -1;
}

void kb_json_string(struct kb_buf *b, const char *s)
{
	kb_json_string_n(b, s ? s : "", s ? strlen(s) : 0);
}

void kb_json_string_n(struct kb_buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	kb_buf_printf(b, "\"");
	for (; p < end; p++) {
		switch (*p) {
		case '"':
			kb_buf_printf(b, "\\\"");
			break;
		case '\\':
			kb_buf_printf(b, "\\\\");
			break;
		case '\n':
			kb_buf_printf(b, "\\n");
			break;
		case '\r':
			kb_buf_printf(b, "\\r");
			break;
		case '\t':
			kb_buf_printf(b, "\\t");
			break;
		default:
			/* other control characters have no short form; bytes
			 * from 0x80 up pass as they are (UTF-8 stays UTF-8) */
			if (*p < 0x20 || *p == 0x7f)
				kb_buf_printf(b, "\\u%04x", *p);
			else
				kb_buf_printf(b, "%c", *p);
		}
	}
	kb_buf_printf(b, "\"");
}

void kb_json_number(struct kb_buf *b, const char *key, double v)
{
	v += 0.0; /* print -0 as 0 */
	kb_json_string(b, key);
	if (isinf(v) || isnan(v))
		kb_buf_printf(b, ": null");
	else
		kb_buf_printf(b, ": %.10g", v);
}

void kb_csv_field(struct kb_buf *b, const char *s)
{
	const char *p;

	s = s ? s : "";
	if (!strpbrk(s, ",\"\r\n")) {
		kb_buf_printf(b, "%s", s);
		return;
	}
	kb_buf_printf(b, "\"");
	for (p = s; *p; p++) {
		if (*p == '"')
			kb_buf_printf(b, "\"\"");
		else
			kb_buf_printf(b, "%c", *p);
	}
	kb_buf_printf(b, "\"");
}

void kb_csv_number(struct kb_buf *b, double v)
{
	v += 0.0; /* print -0 as 0 */
	if (isinf(v))
		kb_buf_printf(b, v < 0 ? "-inf" : "inf");
	else
		kb_buf_printf(b, "%.10g", v);
}

void kb_k_csv(struct kb_buf *b, const struct kb_gen *g)
{
	if (g->gen != KB_GEN_K)
		kb_buf_printf(b, ",,");
	else if (!g->width)
		kb_buf_printf(b, ",0x%llx,", (unsigned long long)g->k);
	else
		kb_buf_printf(b, ",0x%llx,%u", (unsigned long long)g->k, g->width);
}

void kb_k_json(struct kb_buf *b, const struct kb_gen *g)
{
	if (g->gen != KB_GEN_K)
		return;
	kb_buf_printf(b, "\"multiplier\": \"0x%llx\", \"multiplier_width\": ",
		      (unsigned long long)g->k);
	if (g->width)
		kb_buf_printf(b, "%u, ", g->width);
	else
		kb_buf_printf(b, "null, ");
}

void kb_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_field *f, size_t n)
{
	unsigned in = as == KB_FIELDS_JSON ? KB_IN_JSON : KB_IN_CSV;
	const char *sep = as == KB_FIELDS_JSON ? ", " : ",";
	size_t i;
	int first = 1;

	if (as == KB_FIELDS_JSON)
		kb_buf_printf(b, "{");
	for (i = 0; i < n; i++, f++) {
		if (f->in && !(f->in & in))
			continue;
		kb_buf_printf(b, "%s", first ? "" : sep);
		first = 0;
		if (as == KB_FIELDS_CSV_HEAD) {
			kb_buf_printf(b, "%s", f->name);
			continue;
		}
		if (as == KB_FIELDS_JSON) {
			kb_json_string(b, f->name);
			kb_buf_printf(b, ": ");
		}
		switch (f->form) {
		case KB_FIELD_UINT:
			kb_buf_printf(b, "%llu", (unsigned long long)f->u);
			break;
		case KB_FIELD_FIX4:
			kb_buf_printf(b, "%.4f", f->d);
			break;
		case KB_FIELD_BOOL:
			if (as == KB_FIELDS_JSON)
				kb_buf_printf(b, "%s", f->u ? "true" : "false");
			else
				kb_buf_printf(b, "%d", f->u != 0);
			break;
		case KB_FIELD_HEX:
			kb_buf_printf(b, as == KB_FIELDS_JSON ? "\"%#llx\"" : "%#llx",
				      (unsigned long long)f->u);
			break;
		}
	}
	kb_buf_printf(b, as == KB_FIELDS_JSON ? "}" : "\n");
}
