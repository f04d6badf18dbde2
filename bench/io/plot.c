/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "plot.h"
#include "machine.h" /* kb_cpu_count */
#include "stats.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FILES 128

/* Everything one run writes, kept at temporary names until the end. */
struct staging {
	const char *dir;
	struct kb_atomic files[MAX_FILES];
	char *images[MAX_FILES][2]; /* gnuplot's temp outputs, final names */
	size_t nfiles, nimages;
	int no_gnuplot; /* found missing: data and scripts only */
	/* gnuplots still drawing (one a CPU at most): their figures' images
	 * are images[first], images[first + 1] */
	struct drawing {
		pid_t pid;
		FILE *log;
		size_t first;
		char base[256];
	} drawing[MAX_FILES];
	size_t ndrawing, max_drawing;
};

static int reap(struct staging *st, size_t k, char *err, size_t errlen);

/* Wait for every gnuplot still drawing: 0, or -1 with the first failure. */
static int reap_all(struct staging *st, char *err, size_t errlen)
{
	int rc = 0;

	while (st->ndrawing > 0) {
		char e[512];

		if (reap(st, 0, e, sizeof(e)) < 0 && rc == 0) {
			snprintf(err, errlen, "%s", e);
			rc = -1;
		}
	}
	return rc;
}

static int stage_file(struct staging *st, const char *name,
		      const struct kb_buf *text, char *tmp_out, size_t tmplen,
		      char *err, size_t errlen)
{
	struct kb_atomic *a = &st->files[st->nfiles];
	char path[4096];

	if (st->nfiles == MAX_FILES) {
		snprintf(err, errlen, "too many plot files");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", st->dir, name);
	if (kb_atomic_open(a, path, err, errlen) < 0)
		return -1;
	st->nfiles++;
	if (text->failed) {
		snprintf(err, errlen, "out of memory building %s", name);
		return -1;
	}
	fwrite(text->data, 1, text->len, a->f);
	snprintf(tmp_out, tmplen, "%s", a->tmp ? a->tmp : a->target);
	return kb_atomic_close(a, err, errlen) < 0 ? (st->nfiles--, -1) : 0;
}

static void unstage_all(struct staging *st)
{
	char ignored[512];
	size_t i;

	reap_all(st, ignored, sizeof(ignored)); /* no child writes after this */

	for (i = 0; i < st->nfiles; i++)
		kb_atomic_abort(&st->files[i]);
	for (i = 0; i < st->nimages; i++) {
		unlink(st->images[i][0]);
		kb_atomic_track(st->images[i][0], 0);
		free(st->images[i][0]);
		free(st->images[i][1]);
	}
	st->nfiles = st->nimages = 0;
}

static int commit_all(struct staging *st, char *err, size_t errlen)
{
	size_t i;

	if (reap_all(st, err, errlen) < 0)
		return -1;

	for (i = 0; i < st->nimages; i++) {
		if (kb_output_place(st->images[i][0], st->images[i][1], err, errlen) < 0)
			return -1;
		kb_atomic_track(st->images[i][0], 0);
	}
	for (i = 0; i < st->nfiles; i++)
		if (kb_atomic_rename(&st->files[i], err, errlen) < 0)
			return -1;
	for (i = 0; i < st->nimages; i++) {
		free(st->images[i][0]);
		free(st->images[i][1]);
	}
	st->nfiles = st->nimages = 0;
	return 0;
}

/* The first line of what a child wrote to log (closed here), or "". */
static void first_line(FILE *log, char *out, size_t len)
{
	out[0] = '\0';
	if (!log)
		return;
	rewind(log);
	if (fgets(out, (int)len, log))
		out[strcspn(out, "\r\n")] = '\0';
	fclose(log);
}

/* Does the file end as a whole PNG (its IEND chunk) or SVG (</svg>) does? */
static int image_complete(const char *path, int png)
{
	static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D',
						0xae, 0x42, 0x60, 0x82 };
	unsigned char tail[64];
	FILE *f = fopen(path, "rb");
	long size;
	size_t n;
	int ok = 0;

	if (!f)
		return 0;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 &&
	    fseek(f, size > (long)sizeof(tail) ? size - (long)sizeof(tail) : 0,
		  SEEK_SET) == 0) {
		n = fread(tail, 1, sizeof(tail), f);
		if (png)
			ok = n >= sizeof(iend) &&
			     memcmp(tail + n - sizeof(iend), iend, sizeof(iend)) == 0;
		else
			ok = memmem(tail, n, "</svg>", 6) != NULL;
	}
	fclose(f);
	return ok;
}

/*
 * Wait for drawing k to end and judge it: 0, or -1 with a reason.
 * gnuplot exits 0 even when it could not write its output (a full disk):
 * an image counts only if it ends as its format ends.
 */
static int reap(struct staging *st, size_t k, char *err, size_t errlen)
{
	struct drawing d = st->drawing[k];
	char said[256];
	int status = 0, i, wait_errno = 0;
	pid_t got;

	memmove(&st->drawing[k], &st->drawing[k + 1],
		(st->ndrawing - k - 1) * sizeof(st->drawing[0]));
	st->ndrawing--;
	while ((got = waitpid(d.pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (got < 0)
		wait_errno = errno;
	first_line(d.log, said, sizeof(said));
	if (got < 0) {
		snprintf(err, errlen, "cannot wait for gnuplot on %s.gp: %s", d.base,
			 strerror(wait_errno));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(err, errlen, "gnuplot failed on %s.gp%s%s", d.base,
			 said[0] ? ": " : "", said);
		return -1;
	}
	for (i = 0; i < 2; i++) {
		const char *tmp = st->images[d.first + i][0];

		if (!image_complete(tmp, i == 0)) {
			snprintf(err, errlen, "cannot write %s: gnuplot left it incomplete%s",
				 st->images[d.first + i][1],
				 access(tmp, F_OK) == 0 ? " (disk full?)" : "");
			return -1;
		}
	}
	return 0;
}

/*
 * Start gnuplot on a staged script, rendering to staged image names; it
 * draws while the next figure is staged (reap judges it), one a CPU.
 */
static int render(struct staging *st, const char *base, const char *gp_tmp,
		  const char *dat_tmp, char *err, size_t errlen)
{
	static const char *const ext[] = { "png", "svg" };
	char *vars = NULL, out_tmp[4200];
	FILE *log;
	pid_t pid;
	int i, report[2], exec_errno = 0;
	struct drawing *d;

	if (st->no_gnuplot)
		return 0;
	if (!st->max_drawing)
		st->max_drawing = kb_cpu_count();
	if (st->ndrawing >= st->max_drawing && reap(st, 0, err, errlen) < 0)
		return -1;
	snprintf(out_tmp, sizeof(out_tmp), "%.4090s.img", gp_tmp);
	for (i = 0; i < 2; i++) {
		char *tmp = NULL, *fin = NULL;

		if (st->nimages == MAX_FILES ||
		    asprintf(&tmp, "%s.%s", out_tmp, ext[i]) < 0 ||
		    asprintf(&fin, "%s/%s.%s", st->dir, base, ext[i]) < 0) {
			free(tmp);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		st->images[st->nimages][0] = tmp;
		st->images[st->nimages][1] = fin;
		st->nimages++;
		kb_atomic_track(tmp, 1);
	}
	if (asprintf(&vars, "out='%s'; data='%s'", out_tmp, dat_tmp) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fflush(NULL);
	log = tmpfile(); /* gnuplot's chatter, shown only when it fails */
	/* the child reports a failed exec's errno here: a missing gnuplot is
	 * told apart from a gnuplot that ran and exited 127 */
	if (pipe2(report, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		free(vars);
		if (log)
			fclose(log);
		snprintf(err, errlen, "cannot start gnuplot: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		close(report[0]);
		if (devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		dup2(log ? fileno(log) : devnull, STDERR_FILENO);
		execlp("gnuplot", "gnuplot", "-e", vars, gp_tmp, (char *)NULL);
		exec_errno = errno;
		if (write(report[1], &exec_errno, sizeof(exec_errno)) < 0)
			_exit(126);
		_exit(127);
	}
	close(report[1]);
	/* returns at the exec (the pipe closes) or with its errno */
	while (read(report[0], &exec_errno, sizeof(exec_errno)) < 0 && errno == EINTR)
		;
	close(report[0]);
	free(vars);
	d = &st->drawing[st->ndrawing++];
	d->pid = pid;
	d->log = log;
	d->first = st->nimages - 2;
	snprintf(d->base, sizeof(d->base), "%s", base);
	if (exec_errno == 0)
		return 0;
	/* it never ran: collect the child now */
	st->ndrawing--;
	while (waitpid(pid, &i, 0) < 0 && errno == EINTR)
		;
	if (log)
		fclose(log);
	if (exec_errno == ENOENT) {
		/* no images, but the data and the script that draws them */
		for (i = 0; i < 2; i++) {
			st->nimages--;
			kb_atomic_track(st->images[st->nimages][0], 0);
			free(st->images[st->nimages][0]);
			free(st->images[st->nimages][1]);
		}
		st->no_gnuplot = 1;
		return 0;
	}
	snprintf(err, errlen, "cannot run gnuplot: %s", strerror(exec_errno));
	return -1;
}

/* Stage data and script, render, all under temporary names. */
static int stage_plot(struct staging *st, const char *base,
		      const struct kb_buf *dat, const struct kb_buf *gp,
		      char *err, size_t errlen)
{
	char name[512], dat_tmp[4096], gp_tmp[4096];

	snprintf(name, sizeof(name), "%s.dat", base);
	if (stage_file(st, name, dat, dat_tmp, sizeof(dat_tmp), err, errlen) < 0)
		return -1;
	snprintf(name, sizeof(name), "%s.gp", base);
	if (stage_file(st, name, gp, gp_tmp, sizeof(gp_tmp), err, errlen) < 0)
		return -1;
	return render(st, base, gp_tmp, dat_tmp, err, errlen);
}

/* The title as gnuplot string text that fits a figure width pixels wide. */
static void wrap_title(struct kb_buf *gp, const char *title, int width)
{
	/* what a line of the 9-point font holds, with a little to spare:
	 * sans averages 0.6 to 0.66 of its size a character */
	size_t fit = (size_t)(width > 120 ? (width - 40) * 10 / (9 * 7) : 12);
	const char *line = title;

	while (strlen(line) > fit) {
		const char *cut = NULL, *p;

		/* after the last "; " past a third of the line, else the first
		 * ": " there, else at the last space */
		for (p = line + fit / 3; p < line + fit; p++)
			if (p[0] == ';' && p[1] == ' ')
				cut = p + 1;
		for (p = line + fit / 3; !cut && p < line + fit; p++)
			if (p[0] == ':' && p[1] == ' ')
				cut = p + 1;
		for (p = line + fit; !cut && p > line; p--)
			if (*p == ' ')
				cut = p;
		if (!cut)
			break; /* one word longer than the line: let it run */
		kb_buf_printf(gp, "%.*s\\n", (int)(cut - line), line);
		line = cut + 1;
	}
	kb_buf_printf(gp, "%s", line);
}

/* The part of every script that renders PNG and SVG from one recipe. */
static void script_head(struct kb_buf *gp, const char *base, const char *title,
			int width, int height)
{
	kb_buf_printf(gp, "# khash-bench %s: %s\n", lkh_version_string(), title);
	kb_buf_printf(gp, "# Re-render: gnuplot %s.gp  (writes %s.png and %s.svg)\n",
		      base, base, base);
	kb_buf_printf(gp, "if (!exists(\"out\")) out = \"%s\"\n", base);
	kb_buf_printf(gp, "if (!exists(\"data\")) data = \"%s.dat\"\n", base);
	/* wrapped to the figure's width: a long title is not cut at the edge */
	kb_buf_printf(gp, "gptitle = \"");
	wrap_title(gp, title, width);
	kb_buf_printf(gp, "\"\n");
	kb_buf_printf(gp, "do for [fmt in \"png svg\"] {\n");
	kb_buf_printf(gp, "  if (fmt eq \"png\") { set terminal pngcairo size %d,%d font \"sans,9\" } else { set terminal svg size %d,%d font \"sans,9\" }\n",
		      width, height, width, height);
	kb_buf_printf(gp, "  set termoption noenhanced\n"); /* hash_64, not hash subscript 6 */
	kb_buf_printf(gp, "  set output out.\".\".fmt\n");
}

static void script_tail(struct kb_buf *gp)
{
	kb_buf_printf(gp, "  unset multiplot\n  set output\n}\n");
}

const char *kb_skew_mark(const struct kb_skew *s)
{
	return kb_verdict_heat_mark(kb_verdict_of(s));
}

void kb_plot_heat_cell(struct kb_buf *b, int x, int y, const struct kb_skew *s)
{
	kb_buf_printf(b, "%d %d %.4f %s\n", x, y,
		      s ? log10(fmax(s->chi2_per_df, 1e-3)) : 0.0,
		      s ? kb_skew_mark(s) : "n/a");
}

void kb_plot_heat_layers(char *out, size_t len, const char *sel,
			 const char *extra)
{
	snprintf(out, len,
		 "  plot data %s using 1:2:(strcol(4) eq \"n/a\" ? NaN : $3) with image notitle, \\\n"
		 "    data %s using 1:(strcol(4) eq \"n/a\" ? $2 : NaN):(0.5):(0.5) with boxxyerror fs pattern 4 noborder lc \"gray40\" notitle, \\\n"
		 /* B sits on red to dark red: white; S on anything: black */
		 "    data %s using 1:2:(strcol(4) eq \"B\" || strcol(4) eq \"S\" ? strcol(4) : \"\"):(strcol(4) eq \"B\" ? 0xffffff : 0) with labels tc rgb variable notitle%s\n",
		 sel, sel, sel, extra);
}

/* A panel's generation: K says which. */
static const char *gen_title(const struct kb_report *r, int g, char *buf, size_t len)
{
	if (g != KB_GEN_K)
		return kb_gen_name(g);
	snprintf(buf, len, "K = 0x%llx", (unsigned long long)r->opts.k);
	return buf;
}

/* A report heatmap's widths in pixels: the row names left of a panel, the
 * panel, and the colour scale, its tics and its label right of the last. */
enum { HEAT_NAMES = 95, HEAT_PANEL = 340, HEAT_SCALE = 130 };

static int plot_heatmap(struct staging *st, const struct kb_report *r,
			lkh_func func, unsigned word, char *err, size_t errlen)
{
	const struct kb_report_opts *o = &r->opts;
	struct kb_buf dat = { 0 }, gp = { 0 };
	char base[128], title[512], sel[32], layers[1024], gen[48];
	int g, k, rows = 0, rc, ngen = 0, width;
	size_t i;

	snprintf(base, sizeof(base), "heatmap_%s_w%u", lkh_func_name(func), word);
	snprintf(title, sizeof(title), "X^2/df of %s on %u-bit kernels, %llu keys per set",
		 lkh_func_name(func), word, (unsigned long long)o->params.count);
	/* one data block per generation: x = bits, y = key set row */
	for (g = 0; g < KB_GEN_COUNT; g++) {
		int any = 0;

		rows = 0;
		for (k = 0; k < KB_KS_COUNT; k++) {
			int row_has = 0;

			for (i = 0; i < r->n_cells; i++) {
				const struct kb_cell *c = &r->cells[i];

				if (c->keyset != k || c->spec.func != func ||
				    c->spec.word != word || kb_hashspec_gen(&c->spec) != g)
					continue;
				/* every cell written, n/a ones too, so the image
				 * grid keeps each row at its own place */
				kb_plot_heat_cell(&dat, (int)c->bits, rows,
						  c->ok ? &c->skew : NULL);
				row_has = any = 1;
			}
			if (row_has) {
				kb_buf_printf(&dat, "\n");
				rows++;
			}
		}
		if (any) {
			kb_buf_printf(&dat, "\n# end of %s\n\n", kb_gen_name(g));
			ngen++;
		}
	}
	if (ngen == 0)
		return 0;
	/* every panel the same plot area, the row names left of each and the
	 * colour scale with its label right of the last, inside the canvas */
	width = ngen * (HEAT_NAMES + HEAT_PANEL) + HEAT_SCALE;
	snprintf(title + strlen(title), sizeof(title) - strlen(title), "; " KB_PLOT_SKEW_LEGEND);
	script_head(&gp, base, title, width, 420);
	kb_buf_printf(&gp, "  set multiplot layout 1,%d title gptitle margins %.4f,%.4f,%.4f,%.4f spacing %.4f,0\n",
		      ngen, (double)HEAT_NAMES / width, 1 - (double)HEAT_SCALE / width,
		      45.0 / 420, 1 - 70.0 / 420, (double)HEAT_NAMES / width);
	kb_buf_printf(&gp, "  set xlabel \"bits\"\n%s", KB_PLOT_SKEW_SCALE);
	kb_buf_printf(&gp, "  set ytics (");
	rows = 0;
	for (k = 0; k < KB_KS_COUNT; k++) {
		for (i = 0; i < r->n_cells; i++)
			if (r->cells[i].keyset == k && r->cells[i].spec.func == func &&
			    r->cells[i].spec.word == word)
				break;
		if (i < r->n_cells) {
			kb_buf_printf(&gp, "%s\"%s\" %d", rows ? ", " : "",
				      kb_keysets[k].name, rows);
			rows++;
		}
	}
	kb_buf_printf(&gp, ")\n  set yrange [-0.5:%d.5]\n  set xrange [%u.5-1:%u.5]\n",
		      rows - 1, o->bits_min, o->bits_max);
	for (g = 0, i = 0; g < KB_GEN_COUNT; g++) {
		size_t j;
		int has = 0;

		for (j = 0; j < r->n_cells && !has; j++)
			has = r->cells[j].spec.func == func &&
			      r->cells[j].spec.word == word &&
			      kb_hashspec_gen(&r->cells[j].spec) == g;
		if (!has)
			continue;
		/* one colour scale, beside the last panel */
		kb_buf_printf(&gp, "  %s colorbox\n", (int)i + 1 < ngen ? "unset" : "set");
		kb_buf_printf(&gp, "  set title \"%s\"\n", gen_title(r, g, gen, sizeof(gen)));
		snprintf(sel, sizeof(sel), "index %zu", i);
		kb_plot_heat_layers(layers, sizeof(layers), sel, "");
		kb_buf_printf(&gp, "%s", layers);
		i++;
	}
	script_tail(&gp);
	rc = stage_plot(st, base, &dat, &gp, err, errlen);
	kb_buf_free(&dat);
	kb_buf_free(&gp);
	return rc;
}

void kb_plot_hist_head(struct kb_buf *gp, uint64_t m)
{
	/* every panel's plot area at the same place: fixed margins, the key
	 * a line above the frame (inside, it hid a full bucket), and a
	 * bucket at either end clear of the frame */
	kb_buf_printf(gp, "  set lmargin 13\n  set rmargin 3\n  set tmargin 4.5\n  set bmargin 3\n");
	kb_buf_printf(gp, "  set key at graph 0, graph 1 left bottom horizontal Left reverse samplen 2 width 2\n");
	kb_buf_printf(gp, "  set xrange [%.6g:%.6g]\n", -(double)m / 50, (double)(m - 1) + (double)m / 50);
}

void kb_plot_hist_panel(struct kb_buf *gp, const char *gen, int col,
			const uint64_t *counts, uint64_t m, int last)
{
	struct kb_skew s;
	double mean, top;
	uint64_t i, over = 0;
	int logy;

	kb_skew_from_counts(counts, m, &s);
	mean = (double)s.n / (double)m;
	for (i = 0; i < m; i++)
		over += (double)counts[i] > s.expected_max;
	/* a load far past a random function's would flatten its lines onto
	 * the bottom of a linear axis */
	logy = (double)s.max_load > 10 * s.expected_max;
	top = fmax((double)s.max_load, s.expected_max);
	kb_buf_printf(gp, "  set title \"%s: %llu of %llu buckets used, max load %llu, X^2/df %.3g\"\n",
		      gen, (unsigned long long)s.used, (unsigned long long)m,
		      (unsigned long long)s.max_load, s.chi2_per_df);
	if (logy)
		kb_buf_printf(gp, "  set logscale y\n  set yrange [0.5:%.6g]\n  set ylabel \"keys in bucket (log)\"\n",
			      top * 8);
	else
		kb_buf_printf(gp, "  unset logscale y\n  set yrange [0:%.6g]\n  set ylabel \"keys in bucket\"\n",
			      top * 1.25);
	kb_buf_printf(gp, "  %s xlabel%s\n", last ? "set" : "unset", last ? " \"bucket\"" : "");
	/* what a random function would give: the mean load, and the
	 * fullest of m buckets it would be expected to fill */
	kb_buf_printf(gp, "  plot data using 1:%d with impulses lc \"dark-violet\" notitle, \\\n"
		      "    %.6g with lines dashtype 2 lw 2 lc \"black\" title \"random function: mean load %.4g\", \\\n"
		      "    %.6g with lines dashtype 3 lw 2 lc \"red\" title \"random function: fullest bucket %.3g\"",
		      col, mean, mean, s.expected_max, s.expected_max);
	/* a few buckets past that: each marked and its load written, so a
	 * lone line at the edge or under a label still reads */
	if (over > 0 && over <= 8)
		kb_buf_printf(gp, ", \\\n    data using 1:(column(%d) > %.6g ? column(%d) : NaN) with points pt 7 ps 0.8 lc \"dark-violet\" title \"fuller than that: bucket and its keys\", \\\n"
			      "    data using 1:(column(%d) > %.6g && $1 < %llu ? column(%d) : NaN):(sprintf(\"%%d: %%d\", $1, column(%d))) with labels left offset char 0.6,0.6 notitle, \\\n"
			      "    data using 1:(column(%d) > %.6g && $1 >= %llu ? column(%d) : NaN):(sprintf(\"%%d: %%d\", $1, column(%d))) with labels right offset char -0.6,0.6 notitle",
			      col, s.expected_max, col,
			      col, s.expected_max, (unsigned long long)m / 2, col, col,
			      col, s.expected_max, (unsigned long long)m / 2, col, col);
	kb_buf_printf(gp, "\n");
}

static int plot_histogram(struct staging *st, const struct kb_report *r,
			  const struct kb_hist *hist, char *err, size_t errlen)
{
	const struct kb_hist_req *h = &hist->req;
	struct kb_buf dat = { 0 }, gp = { 0 };
	char base[160], title[256];
	uint64_t i, m = UINT64_C(1) << h->bits;
	int g, rc, panel = 0, panels = 0;

	snprintf(base, sizeof(base), "hist_%s_%s_w%u_b%u", kb_keysets[h->keyset].name,
		 lkh_func_name(h->func), h->word, h->bits);
	/* a column and a panel per generation counted: K's when the report has it */
	kb_buf_printf(&dat, "# bucket");
	for (g = 0; g < KB_GEN_COUNT; g++)
		if (hist->counts[g]) {
			kb_buf_printf(&dat, " %s", kb_gen_name(g));
			panels++;
		}
	kb_buf_printf(&dat, "\n");
	for (i = 0; i < m; i++) {
		kb_buf_printf(&dat, "%llu", (unsigned long long)i);
		for (g = 0; g < KB_GEN_COUNT; g++)
			if (hist->counts[g])
				kb_buf_printf(&dat, " %llu",
					      (unsigned long long)hist->counts[g][i]);
		kb_buf_printf(&dat, "\n");
	}
	snprintf(title, sizeof(title), "%s: %llu keys of %s into %llu buckets, %u-bit kernel",
		 lkh_func_name(h->func), (unsigned long long)r->opts.params.count,
		 kb_keysets[h->keyset].name, (unsigned long long)m, h->word);
	script_head(&gp, base, title, 1200, 240 * panels);
	kb_buf_printf(&gp, "  set multiplot layout %d,1 title gptitle\n", panels);
	kb_plot_hist_head(&gp, m);
	for (g = 0; g < KB_GEN_COUNT; g++) {
		char gen[48];

		if (!hist->counts[g])
			continue;
		panel++;
		kb_plot_hist_panel(&gp, gen_title(r, g, gen, sizeof(gen)), panel + 1,
				   hist->counts[g], m, panel == panels);
	}
	script_tail(&gp);
	rc = stage_plot(st, base, &dat, &gp, err, errlen);
	kb_buf_free(&dat);
	kb_buf_free(&gp);
	return rc;
}

/* Create the folder if needed: 1 if created, 0 if there, -1 on error. */
static int make_dir(const char *dir, char *err, size_t errlen)
{
	struct stat sb;

	if (mkdir(dir, 0755) == 0)
		return 1;
	if (errno == EEXIST && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
		return 0;
	snprintf(err, errlen, "cannot create plot folder %s: %s", dir,
		 errno == EEXIST ? "exists and is not a folder" : strerror(errno));
	return -1;
}

void kb_figure_free(struct kb_figure *fig)
{
	kb_buf_free(&fig->dat);
	kb_buf_free(&fig->body);
}

/* Commit what is staged: 0, or 1 with err saying that there was no
 * gnuplot and only the data and scripts were written. */
static int finish(struct staging *st, char *err, size_t errlen)
{
	int no_gnuplot = st->no_gnuplot;

	if (commit_all(st, err, errlen) < 0)
		return -1;
	if (!no_gnuplot)
		return 0;
	snprintf(err, errlen, "gnuplot not found: wrote the plots' .dat and .gp files only; install gnuplot (Debian: gnuplot-nox) and run gnuplot on each .gp in %s",
		 st->dir);
	return 1;
}

int kb_plot_figures(const char *dir, const struct kb_figure *figs, size_t n,
		    char *err, size_t errlen)
{
	static struct staging st;
	int created, rc = 0;
	size_t i;

	memset(&st, 0, sizeof(st));
	st.dir = dir;
	created = make_dir(dir, err, errlen);
	if (created < 0)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		struct kb_buf gp = { 0 };

		script_head(&gp, figs[i].base, figs[i].title, figs[i].width,
			    figs[i].height);
		kb_buf_printf(&gp, "%.*s", (int)figs[i].body.len,
			      figs[i].body.data ? figs[i].body.data : "");
		if (figs[i].body.failed)
			gp.failed = 1;
		script_tail(&gp);
		rc = stage_plot(&st, figs[i].base, &figs[i].dat, &gp, err, errlen);
		kb_buf_free(&gp);
	}
	if (rc == 0 && (rc = finish(&st, err, errlen)) >= 0)
		return rc;
	unstage_all(&st);
	if (created)
		rmdir(dir);
	return -1;
}

int kb_plot_report(const struct kb_report *r, const struct kb_hist *h,
		   size_t nh, const char *dir, char *err, size_t errlen)
{
	static struct staging st;
	int created, f;
	unsigned w;
	size_t i;

	memset(&st, 0, sizeof(st));
	st.dir = dir;
	created = make_dir(dir, err, errlen);
	if (created < 0)
		return -1;
	for (f = 0; f < LKH_FUNC_COUNT; f++)
		for (w = 64; w >= 32; w -= 32)
			if (plot_heatmap(&st, r, (lkh_func)f, w, err, errlen) < 0)
				goto fail;
	for (i = 0; i < nh; i++)
		if (plot_histogram(&st, r, &h[i], err, errlen) < 0)
			goto fail;
	if ((f = finish(&st, err, errlen)) >= 0)
		return f;
fail:
	unstage_all(&st);
	if (created)
		rmdir(dir);
	return -1;
}
