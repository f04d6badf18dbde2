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

void kb_k_fields(const struct kb_gen *g, struct kb_field f[2])
{
	unsigned none = g->gen == KB_GEN_K ? 0 : KB_NONE_OMIT;

	f[0] = (struct kb_field){ .name = "multiplier", .form = KB_FIELD_HEX_0X, .u = g->k,
				  .none = none };
	f[1] = (struct kb_field){ .name = "multiplier_width", .u = g->width,
				  .none = none ? none : g->width ? 0 : KB_NONE_NULL };
}

/* d as FIX or G write it: -0 as 0; JSON has no inf or NaN, so null. */
static void real(struct kb_buf *b, enum kb_fields_as as, int fix, int prec, double d)
{
	d += 0.0;
	if (as != KB_FIELDS_CSV && (isinf(d) || isnan(d)))
		kb_buf_printf(b, "null");
	else
		kb_buf_printf(b, fix ? "%.*f" : "%.*g", prec, d);
}

/* One row's value (not a group's) as as writes it. */
static void value(struct kb_buf *b, enum kb_fields_as as, const struct kb_field *f)
{
	int json = as != KB_FIELDS_CSV;

	if (f->none) {
		kb_buf_printf(b, "%s", json ? "null" : "");
		return;
	}
	switch (f->form) {
	case KB_FIELD_UINT:
		kb_buf_printf(b, "%llu", (unsigned long long)f->u);
		break;
	case KB_FIELD_INT:
		kb_buf_printf(b, "%lld", (long long)f->i);
		break;
	case KB_FIELD_NUM:
	case KB_FIELD_NUM_FIX:
	case KB_FIELD_NUM_G:
		if (json) /* kb_json_number's, without its key */
			real(b, as, 0, 10, f->d);
		else if (f->form == KB_FIELD_NUM)
			kb_csv_number(b, f->d);
		else
			real(b, as, f->form == KB_FIELD_NUM_FIX, f->prec, f->d);
		break;
	case KB_FIELD_FIX:
	case KB_FIELD_G:
		real(b, as, f->form == KB_FIELD_FIX, f->prec, f->d);
		break;
	case KB_FIELD_BOOL:
		if (json)
			kb_buf_printf(b, "%s", f->u ? "true" : "false");
		else
			kb_buf_printf(b, "%d", f->u != 0);
		break;
	case KB_FIELD_YESNO:
		kb_buf_printf(b, "%s", json ? f->u ? "true" : "false" : f->u ? "yes" : "no");
		break;
	case KB_FIELD_HEX:
	case KB_FIELD_HEX_0X:
		kb_buf_printf(b, "%s", json ? "\"" : "");
		kb_buf_printf(b, f->form == KB_FIELD_HEX ? "%#llx" : "0x%llx",
			      (unsigned long long)f->u);
		kb_buf_printf(b, "%s", json ? "\"" : "");
		break;
	case KB_FIELD_STR:
		if (json)
			kb_json_string(b, f->s);
		else
			kb_csv_field(b, f->s);
		break;
	case KB_FIELD_JSON:
		f->json(b, f->arg);
		break;
	case KB_FIELD_GROUP:
		break;
	}
}

/* The rows f[0..n) in, a group's rows in its place; *first: nothing
 * written yet (no separator before the next). */
static void rows(struct kb_buf *b, enum kb_fields_as as, unsigned in,
		 const struct kb_field *f, size_t n, int *first)
{
	size_t i;

	for (i = 0; i < n; i++, f++) {
		if (f->in && !(f->in & in))
			continue;
		if (f->form == KB_FIELD_GROUP) {
			rows(b, as, in, f->sub, f->n, first);
			continue;
		}
		/* a nested part is JSON's; a value the JSON leaves out (a
		 * member it can have all the same, to a list of names) */
		if (in == KB_IN_CSV && f->form == KB_FIELD_JSON)
			continue;
		if (in == KB_IN_JSON && f->none == KB_NONE_OMIT && as != KB_FIELDS_JSON_NAMES)
			continue;
		if (as == KB_FIELDS_JSON_MEMBERS)
			*first = 1;
		else if (!*first)
			kb_buf_printf(b, in == KB_IN_JSON ? ", " : ",");
		*first = 0;
		if (as == KB_FIELDS_CSV_HEAD || as == KB_FIELDS_JSON_NAMES) {
			kb_buf_printf(b, "%s", f->name);
			continue;
		}
		if (in == KB_IN_JSON) {
			kb_json_string(b, f->name);
			kb_buf_printf(b, ": ");
		}
		value(b, as, f);
		if (as == KB_FIELDS_JSON_MEMBERS)
			kb_buf_printf(b, ", ");
	}
}

void kb_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_field *f, size_t n)
{
	int json = as == KB_FIELDS_JSON || as == KB_FIELDS_JSON_MEMBERS ||
		   as == KB_FIELDS_JSON_NAMES;
	int first = 1;

	if (as == KB_FIELDS_JSON)
		kb_buf_printf(b, "{");
	rows(b, as, json ? KB_IN_JSON : KB_IN_CSV, f, n, &first);
	if (as != KB_FIELDS_JSON_MEMBERS)
		kb_buf_printf(b, as == KB_FIELDS_JSON ? "}" : "\n");
}
