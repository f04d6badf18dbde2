/* SPDX-License-Identifier: MIT */
#include "scan_render.h"

#include <string.h>

#include "schemas.h"

/* A finding's fields: one table for CSV's header and rows and JSON's objects. */
static void hit_fields(struct kb_buf *b, enum kb_fields_as as, const struct kb_scan_hit *h)
{
	char what[512], judge[1400];
	const struct kb_scan_finding *f = &h->f;
	int constant = f->width && f->kind != KB_SCAN_SHIFT_WIDTH;

	kb_scan_describe(f, what, sizeof(what));
	kb_scan_judge_command(f, h->path ? h->path : "", h->func, judge, sizeof(judge));
	{
		const struct kb_field fl[] = {
			{ .name = "schema", .u = kb_records[KB_REC_SCAN].csv_version, .in = KB_IN_CSV },
			{ .name = "file", .form = KB_FIELD_STR, .s = h->path ? h->path : "" },
			{ .name = "line", .u = h->line },
			{ .name = "column", .u = f->column },
			{ .name = "kind", .form = KB_FIELD_STR, .s = kb_scan_kinds[f->kind].name },
			{ .name = "constant", .form = KB_FIELD_HEX_0X, .u = f->value,
			  .none = constant ? 0 : KB_NONE_NULL },
			{ .name = "in_comment", .form = KB_FIELD_BOOL, .u = (uint64_t)f->in_comment },
			{ .name = "function", .form = KB_FIELD_STR, .s = h->func,
			  .none = h->func[0] ? 0 : KB_NONE_NULL },
			{ .name = "what", .form = KB_FIELD_STR, .s = what },
			{ .name = "judge", .form = KB_FIELD_STR, .s = judge },
		};

		kb_fields(b, as, fl, KB_FIELDS_N(fl));
	}
}

void kb_scan_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct kb_scan_hit h;

	hit_fields(b, as, &h);
}

static unsigned long files_with_findings(const struct kb_scan_result *r)
{
	unsigned long n = 0;
	size_t i;

	for (i = 0; i < r->n; i++)
		n += !i || strcmp(r->hits[i].path, r->hits[i - 1].path);
	return n;
}

static void text(const struct kb_scan_result *r, struct kb_buf *b)
{
	unsigned long with = files_with_findings(r);
	char what[512], judge[1400];
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct kb_scan_hit *h = &r->hits[i];

		/* a blank line between files */
		if (i && strcmp(h->path, r->hits[i - 1].path))
			kb_buf_printf(b, "\n");
		kb_scan_describe(&h->f, what, sizeof(what));
		kb_scan_judge_command(&h->f, h->path, h->func, judge, sizeof(judge));
		kb_buf_printf(b, "%s:%lu: %s: %s; judge: %s\n", h->path, h->line,
			      kb_scan_kinds[h->f.kind].name, what, judge);
	}
	kb_buf_printf(b, "%s%zu finding%s in %lu file%s; %lu text file%s scanned, %lu binary skipped, %lu unreadable\n",
		      r->n ? "\n" : "", r->n, r->n == 1 ? "" : "s", with, with == 1 ? "" : "s",
		      r->files, r->files == 1 ? "" : "s", r->binary, r->unreadable);
}

static void json(const struct kb_scan_result *r, struct kb_buf *b)
{
	size_t i;

	kb_json_doc_head(b, KB_DOC_SCAN);
	kb_buf_printf(b, "  \"files_scanned\": %lu, \"binary_skipped\": %lu, \"unreadable\": %lu, \"files_with_findings\": %lu,\n  \"findings\": [",
		      r->files, r->binary, r->unreadable, files_with_findings(r));
	for (i = 0; i < r->n; i++) {
		kb_buf_printf(b, "%s\n    ", i ? "," : "");
		hit_fields(b, KB_FIELDS_JSON, &r->hits[i]);
	}
	kb_buf_printf(b, "%s]\n}\n", r->n ? "\n  " : "");
}

void kb_render_scan(const struct kb_scan_result *r, enum kb_format format, struct kb_buf *b)
{
	size_t i;

	if (format == KB_FORMAT_JSON) {
		json(r, b);
	} else if (format == KB_FORMAT_CSV) {
		kb_scan_names(b, KB_FIELDS_CSV_HEAD);
		for (i = 0; i < r->n; i++)
			hit_fields(b, KB_FIELDS_CSV, &r->hits[i]);
	} else {
		text(r, b);
	}
}
