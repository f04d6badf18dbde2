/* SPDX-License-Identifier: MIT */
/*
 * khash-bench: structured key sets through every generation of the
 * kernel's integer hashes, and how evenly they fill a table.  This file
 * owns the command line and all input and output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <khash/lkh.h>

#include "audit.h"
#include "cli_args.h"
#include "influence.h"
#include "keyfile.h"
#include "keysets.h"
#include "output.h"
#include "plot.h"
#include "report.h"
#include "skew.h"
#include "speed.h"
#include "stats.h"
#include "waittable.h"

#define BLOCK 4096

static int check_memory(const struct args *a, unsigned bits, unsigned tables)
{
	uint64_t need = bits > 40 ? UINT64_MAX
				  : ((uint64_t)tables * sizeof(uint64_t)) << bits;

	if (need > a->max_memory)
		return kb_fail(EXIT_USAGE, "2^%u buckets need %s%llu MiB of counters, over the --max-memory limit of %llu MiB",
			    bits, bits > 40 ? "over " : "",
			    (unsigned long long)((bits > 40 ? UINT64_C(1) << 43 : need) >> 20),
			    (unsigned long long)(a->max_memory >> 20));
	return 0;
}

/* Heap key sets keep every object live: refuse counts that cannot fit. */
static int check_heap_memory(const struct args *a, unsigned keyset_mask)
{
	unsigned size = a->kp.size ? a->kp.size : 4096; /* the mix's largest */
	uint64_t per = 8 + (uint64_t)size, need;

	if (!(keyset_mask & (1u << KB_KS_HEAP_GLIBC | 1u << KB_KS_HEAP_JEMALLOC)))
		return 0;
	need = a->kp.count > UINT64_MAX / per ? UINT64_MAX : a->kp.count * per;
	if (need > a->max_memory)
		return kb_fail(EXIT_USAGE, "--count %llu heap objects of up to %u bytes need up to %llu MiB, over the --max-memory limit of %llu MiB",
			       (unsigned long long)a->kp.count, size,
			       (unsigned long long)(need >> 20),
			       (unsigned long long)(a->max_memory >> 20));
	return 0;
}

static int need_cell_args(const struct args *a, struct kb_hashspec *s)
{
	char why[160];

	if (!a->func_set)
		return kb_fail(EXIT_USAGE, "%s needs --func", a->cmd);
	if (!a->gen_set)
		return kb_fail(EXIT_USAGE, "%s needs --gen", a->cmd);
	if (!a->bits_set)
		return kb_fail(EXIT_USAGE, "%s needs --bits", a->cmd);
	s->func = a->func;
	s->gen = a->gen;
	s->word = a->word;
	if (kb_hashspec_check(s, a->bits, why, sizeof(why)) < 0)
		return kb_fail(EXIT_USAGE, "%s", why);
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reject a block's first key that does not fit a 32-bit argument. */
static int check_fit(const struct kb_hashspec *s, const uint64_t *keys,
		     size_t n, uint64_t done, const char *name)
{
	size_t bad = kb_first_misfit(keys, n, kb_hashspec_input_bits(s));

	if (bad < n)
		return kb_fail(EXIT_RUNTIME, "%s: key %llu (%#llx) does not fit the 32-bit argument of %s on %u-bit",
			    name, (unsigned long long)(done + bad + 1),
			    (unsigned long long)keys[bad], lkh_func_name(s->func),
			    s->word);
	return 0;
}

/* "0x" + lowercase hex + newline, as printf("%#" PRIx64) but 0 as 0x0. */
static size_t format_hex(char *out, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	size_t n = 0, i;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	out[0] = '0';
	out[1] = 'x';
	for (i = 0; i < n; i++)
		out[2 + i] = tmp[n - 1 - i];
	out[2 + n] = '\n';
	return n + 3;
}

static int cmd_hash(struct args *a, int argc, char **argv)
{
	static char out_buf[BLOCK * 19];
	size_t len = 0;
	struct kb_hashspec s;
	struct kb_keyfile *kf;
	struct kb_atomic out = { 0 };
	FILE *to = stdout;
	uint64_t keys[BLOCK], words[BLOCK], done = 0;
	char err[512];
	long n;
	int rc = 0;

	if ((rc = need_cell_args(a, &s)))
		return rc;
	if (argc - optind > 1)
		return kb_fail(EXIT_USAGE, "hash takes one key file (or - for standard input)");
	a->input = optind < argc ? argv[optind] : "-";
	kf = malloc(sizeof(*kf));
	if (!kf)
		return kb_fail(EXIT_RUNTIME, "out of memory");
	if (kb_keyfile_open(kf, a->input, a->binary, err, sizeof(err)) < 0) {
		free(kf);
		return kb_fail(EXIT_RUNTIME, "%s", err);
	}
	if (a->output && strcmp(a->output, "-")) {
		if (kb_atomic_open(&out, a->output, err, sizeof(err)) < 0) {
			kb_keyfile_close(kf);
			free(kf);
			return kb_fail(EXIT_RUNTIME, "%s", err);
		}
		to = out.f;
	}
	while ((n = kb_keyfile_next(kf, keys, BLOCK, err, sizeof(err))) > 0) {
		size_t i;

		if ((rc = check_fit(&s, keys, (size_t)n, done, kf->name)))
			break;
		kb_full_words(&s, keys, (size_t)n, words);
		for (i = 0; i < (size_t)n; i++)
			len += format_hex(out_buf + len, words[i] >> (64 - a->bits));
		fwrite(out_buf, 1, len, to);
		len = 0;
		done += (uint64_t)n;
	}
	if (n < 0)
		rc = kb_fail(EXIT_RUNTIME, "%s", err);
	kb_keyfile_close(kf);
	free(kf);
	if (out.f) {
		if (rc)
			kb_atomic_abort(&out);
		else if (kb_atomic_commit(&out, err, sizeof(err)) < 0)
			rc = kb_fail(EXIT_RUNTIME, "%s", err);
	} else if (fflush(stdout) != 0 || ferror(stdout)) {
		rc = kb_fail(EXIT_RUNTIME, "cannot write standard output: %s",
			  strerror(errno));
	}
	return rc;
}

static int count_keyfile(const struct args *a, const struct kb_hashspec *s,
			 uint64_t *counts)
{
	struct kb_keyfile *kf = malloc(sizeof(*kf));
	uint64_t keys[BLOCK], done = 0;
	char err[512];
	long n;
	int rc = 0;

	if (!kf)
		return kb_fail(EXIT_RUNTIME, "out of memory");
	if (kb_keyfile_open(kf, a->keys, a->binary, err, sizeof(err)) < 0) {
		free(kf);
		return kb_fail(EXIT_RUNTIME, "%s", err);
	}
	while ((n = kb_keyfile_next(kf, keys, BLOCK, err, sizeof(err))) > 0) {
		if ((rc = check_fit(s, keys, (size_t)n, done, kf->name)))
			break;
		kb_count_block(s, a->bits, keys, (size_t)n, counts);
		done += (uint64_t)n;
	}
	if (n < 0)
		rc = kb_fail(EXIT_RUNTIME, "%s", err);
	kb_keyfile_close(kf);
	free(kf);
	return rc;
}

static int emit(const struct args *a, struct kb_buf *b)
{
	char err[512];
	int rc = kb_write_all(a->output, b, err, sizeof(err)) < 0
			 ? kb_fail(EXIT_RUNTIME, "%s", err)
			 : 0;

	kb_buf_free(b);
	return rc;
}

static int cmd_skew(struct args *a, int argc)
{
	struct kb_hashspec s;
	struct kb_cell cell;
	struct kb_buf b = { 0 };
	uint64_t *counts = NULL;
	char err[512];
	int rc;

	if ((rc = need_cell_args(a, &s)))
		return rc;
	if (optind < argc)
		return kb_fail(EXIT_USAGE, "unexpected argument '%s'", "skew");
	if ((a->keyset >= 0) == (a->keys != NULL))
		return kb_fail(EXIT_USAGE, "skew needs exactly one of --keyset and --keys");
	if ((rc = check_memory(a, a->bits, 1)))
		return rc;
	if (a->keyset >= 0 && (rc = check_heap_memory(a, 1u << a->keyset)))
		return rc;
	memset(&cell, 0, sizeof(cell));
	cell.keyset = a->keyset;
	cell.spec = s;
	cell.bits = a->bits;
	cell.ok = 1;
	if (a->keyset >= 0) {
		if (kb_count_keyset(&s, a->bits, a->keyset, &a->kp, a->threads,
				    &counts, err, sizeof(err)) < 0)
			return kb_fail(EXIT_RUNTIME, "%s", err);
	} else {
		counts = calloc((size_t)1 << a->bits, sizeof(*counts));
		if (!counts)
			return kb_fail(EXIT_RUNTIME, "out of memory for 2^%u buckets", a->bits);
		if ((rc = count_keyfile(a, &s, counts))) {
			free(counts);
			return rc;
		}
	}
	kb_skew_from_counts(counts, UINT64_C(1) << a->bits, &cell.skew);
	free(counts);
	if (!strcmp(a->format, "csv"))
		kb_format_cells_csv(&cell, 1, &b);
	else if (!strcmp(a->format, "json"))
		kb_format_cells_json(&cell, 1, "skew", NULL, &b);
	else
		kb_format_cell_text(&cell, a->keyset >= 0 ? kb_keysets[a->keyset].name
							  : a->keys,
				    &b);
	return emit(a, &b);
}

static int cmd_report(struct args *a, int argc)
{
	struct kb_report r;
	struct kb_buf b = { 0 };
	char err[512];
	double t0 = now_seconds();
	int rc;

	if (optind < argc)
		return kb_fail(EXIT_USAGE, "unexpected argument '%s'", "report");
	if (a->ro.bits_min < 1 || a->ro.bits_min > a->ro.bits_max)
		return kb_fail(EXIT_USAGE, "need 1 <= --bits-min <= --bits-max");
	if (a->ro.bits_max > 32)
		return kb_fail(EXIT_USAGE, "--bits-max %u out of range: these functions return at most 32 bits for every generation (1..32)",
			    a->ro.bits_max);
	if ((rc = check_memory(a, a->ro.bits_max, LKH_GEN_COUNT)))
		return rc;
	if (!a->count_set)
		a->kp.count = 65536;
	if ((rc = check_heap_memory(a, a->ro.keysets)))
		return rc;
	if (!a->hist_set && a->plot) {
		/* The two cells of the story: page and stripe addresses. */
		static const struct kb_hist_req defaults[] = {
			{ KB_KS_PAGE4K, LKH_FUNC_HASH_64, 64, 11 },
			{ KB_KS_BTRFS_STRIPE, LKH_FUNC_HASH_64, 64, 11 },
		};

		memcpy(a->hist, defaults, sizeof(defaults));
		a->nhist = 2;
	}
	memset(&r, 0, sizeof(r));
	r.opts = a->ro;
	r.opts.params = a->kp;
	r.opts.threads = a->threads;
	if (isatty(STDERR_FILENO) && a->kp.count >= (1u << 22))
		fprintf(stderr, "khash-bench: counting %llu keys per key set...\n",
			(unsigned long long)a->kp.count);
	if (kb_report_run(&r, err, sizeof(err)) < 0) {
		kb_report_free(&r);
		return kb_fail(EXIT_RUNTIME, "%s", err);
	}
	if (a->plot && kb_plot_report(&r, a->hist, a->nhist, a->plot, err,
				      sizeof(err)) < 0) {
		kb_report_free(&r);
		return kb_fail(EXIT_RUNTIME, "%s", err);
	}
	r.elapsed = now_seconds() - t0;
	if (!strcmp(a->format, "csv"))
		kb_format_cells_csv(r.cells, r.n_cells, &b);
	else if (!strcmp(a->format, "json"))
		kb_format_cells_json(r.cells, r.n_cells, "report", &r.opts, &b);
	else
		kb_format_report_text(&r, a->step, &b);
	kb_report_free(&r);
	rc = emit(a, &b);
	if (!rc && a->plot && !strcmp(a->format, "text"))
		fprintf(stdout, "plots written to %s/\n", a->plot);
	return rc;
}

static int cmd_speed(struct args *a, int argc)
{
	struct kb_speed_opts o;
	struct kb_buf b = { 0 };
	char err[512];

	if (optind < argc)
		return kb_fail(EXIT_USAGE, "speed takes no arguments");
	if (strcmp(a->format, "json") == 0)
		return kb_fail(EXIT_USAGE, "speed writes text or csv");
	if (a->bits_set && (a->bits < 1 || a->bits > 32))
		return kb_fail(EXIT_USAGE, "bits %u out of range for speed: 1..32", a->bits);
	memset(&o, 0, sizeof(o));
	o.bits = a->bits_set ? a->bits : 11;
	o.min_seconds = 0.1;
	o.hashes = 1;
	o.engine = 1;
	o.threads = a->threads;
	o.engine_keys = a->count_set ? a->kp.count : UINT64_C(1) << 27;
	if (kb_speed_run(&o, a->format, &b, err, sizeof(err)) < 0) {
		kb_buf_free(&b);
		return kb_fail(EXIT_RUNTIME, "%s", err);
	}
	return emit(a, &b);
}

static char bias_mark(double p)
{
	double b = p < 0.5 ? 0.5 - p : p - 0.5;

	return b < 0.05 ? ' ' : b < 0.15 ? '.' : b < 0.3 ? 'o' : '#';
}

/* Render one figure when --plot was given, then write the text output;
 * a failed plot leaves neither.  Frees both buffers. */
static int plot_then_emit(const struct args *a, struct kb_buf *b,
			  struct kb_buf *dat, const char *base,
			  const char *title, int width, int height,
			  const char *body)
{
	char err[512];
	int rc = 0;

	if (a->plot && kb_plot_single(a->plot, base, title, width, height, dat,
				      body, err, sizeof(err)) < 0)
		rc = kb_fail(EXIT_RUNTIME, "%s", err);
	kb_buf_free(dat);
	if (rc) {
		kb_buf_free(b);
		return rc;
	}
	return emit(a, b);
}

static int cmd_influence(struct args *a, int argc)
{
	struct kb_hashspec s;
	static struct kb_influence r;
	struct kb_buf b = { 0 }, dat = { 0 };
	uint64_t samples = a->count_set ? a->kp.count : 65536;
	char base[96] = "", title[160] = "";
	unsigned j, k;
	int rc;

	if ((rc = need_cell_args(a, &s)))
		return rc;
	if (optind < argc)
		return kb_fail(EXIT_USAGE, "influence takes no arguments");
	if (kb_influence_measure(&s, a->bits, samples, a->kp.seed, &r) < 0)
		return kb_fail(EXIT_RUNTIME, "cannot measure influence");
	if (!strcmp(a->format, "csv")) {
		kb_buf_printf(&b, "schema,func,gen,word,bits,in_bit,out_bit,p_flip\n");
		for (j = 0; j < r.in_bits; j++)
			for (k = 0; k < r.out_bits; k++)
				kb_buf_printf(&b, "1,%s,%s,%u,%u,%u,%u,%.6f\n",
					      lkh_func_name(s.func),
					      lkh_gen_name(s.gen), s.word, a->bits,
					      j, k, r.p[j][k]);
	} else if (!strcmp(a->format, "json")) {
		kb_buf_printf(&b, "{\n  \"schema\": \"khash-bench/influence\",\n  \"schema_version\": %d,\n",
			      KB_SCHEMA_VERSION);
		kb_buf_printf(&b, "  \"func\": \"%s\", \"gen\": \"%s\", \"word\": %u, \"bits\": %u,\n",
			      lkh_func_name(s.func), lkh_gen_name(s.gen), s.word,
			      a->bits);
		kb_buf_printf(&b, "  \"samples\": %llu, \"exhaustive\": %s, \"mean_bias\": %.6f, \"worst_bias\": %.6f, \"worst_in_bit\": %u, \"worst_out_bit\": %u,\n  \"p_flip\": [",
			      (unsigned long long)r.samples,
			      r.exhaustive ? "true" : "false", r.mean_bias,
			      r.worst_bias, r.worst_in, r.worst_out);
		for (j = 0; j < r.in_bits; j++) {
			kb_buf_printf(&b, "%s\n    [", j ? "," : "");
			for (k = 0; k < r.out_bits; k++)
				kb_buf_printf(&b, "%s%.6f", k ? ", " : "", r.p[j][k]);
			kb_buf_printf(&b, "]");
		}
		kb_buf_printf(&b, "\n  ]\n}\n");
	} else {
		kb_buf_printf(&b, "%s %s on %u-bit, %u output bits: P(flipping input bit j flips output bit k), %llu samples\n",
			      lkh_gen_name(s.gen), lkh_func_name(s.func), s.word,
			      a->bits, (unsigned long long)r.samples);
		kb_buf_printf(&b, "marks by |P - 1/2|: ' ' < 0.05   . < 0.15   o < 0.30   # >= 0.30 (rarely or always flips)\n\n");
		kb_buf_printf(&b, "in bit | out bit 0..%u\n", a->bits - 1);
		for (j = 0; j < r.in_bits; j++) {
			kb_buf_printf(&b, "%6u | ", j);
			for (k = 0; k < r.out_bits; k++)
				kb_buf_printf(&b, "%c", bias_mark(r.p[j][k]));
			kb_buf_printf(&b, "\n");
		}
		kb_buf_printf(&b, "\nmean |bias| %.4f, worst %.4f (input bit %u -> output bit %u)\n",
			      r.mean_bias, r.worst_bias, r.worst_in, r.worst_out);
		if (a->bits < 16 && r.in_bits >= 32)
			kb_buf_printf(&b, "input bits 16..%u (where the old hash_32 is blind): mean |bias| %.4f\n",
				      31 - a->bits,
				      kb_influence_band(&r, 16, 31 - a->bits));
	}
	if (a->plot) {
		snprintf(base, sizeof(base), "influence_%s_%s_w%u_b%u",
			 lkh_func_name(s.func), lkh_gen_name(s.gen), s.word, a->bits);
		snprintf(title, sizeof(title), "P(input bit flips output bit): %s %s, %u-bit, %u bits, mean |bias| %.3f",
			 lkh_gen_name(s.gen), lkh_func_name(s.func), s.word, a->bits,
			 r.mean_bias);
		for (j = 0; j < r.in_bits; j++) {
			for (k = 0; k < r.out_bits; k++)
				kb_buf_printf(&dat, "%u %u %.5f\n", k, j, r.p[j][k]);
			kb_buf_printf(&dat, "\n");
		}
	}
	return plot_then_emit(a, &b, &dat, base, title, 520, 720,
			      "  set xlabel \"output bit\"\n  set ylabel \"input bit\"\n"
			      "  set cbrange [0:1]\n  set palette defined (0 \"#2166ac\", 0.5 \"#f7f7f7\", 1 \"#b2182b\")\n"
			      "  set title gptitle\n  set autoscale fix\n"
			      "  plot data using 1:2:3 with image notitle\n");
}

static void audit_text(const struct kb_audit *a, const char *name,
		       struct kb_buf *b)
{
	unsigned i, bits;
	int k;

	kb_buf_printf(b, "multiplier %#llx (%u-bit)%s%s\n", (unsigned long long)a->k,
		      a->width, name ? ", preset " : "", name ? name : "");
	kb_buf_printf(b, "  parity          %s\n", a->odd ? "odd (invertible mod 2^w: every key has its own product)"
						     : "EVEN: the low bit of every product is 0, half the keys collide");
	kb_buf_printf(b, "  popcount        %u of %u bits\n", a->popcount, a->width);
	kb_buf_printf(b, "  longest run     %u equal bits in a row\n", a->longest_run);
	kb_buf_printf(b, "  shift-and-add   %u signed terms (non-adjacent form): %u adds/subtracts\n",
		      a->naf_terms, a->naf_terms ? a->naf_terms - 1 : 0);
	kb_buf_printf(b, "  K / 2^%u         = [0;", a->width);
	for (i = 0; i < a->cf_len; i++)
		kb_buf_printf(b, "%s%llu", i ? "," : " ", (unsigned long long)a->cf[i]);
	kb_buf_printf(b, "]  (largest partial quotient %llu; the golden ratio's are all 1)\n",
		      (unsigned long long)a->cf_max);
	kb_buf_printf(b, "  worst stride (keys 0, s, 2s, ... twice the table size), X^2/df:\n");
	for (bits = a->bits_min; bits <= a->bits_max; bits += 2)
		kb_buf_printf(b, "    bits %2u: stride %#-18llx X^2/df %.4g\n", bits,
			      (unsigned long long)a->worst[bits].stride,
			      a->worst[bits].chi2_per_df);
	kb_buf_printf(b, "  key sets, %llu keys into 2^%u buckets (X^2/df, buckets used):\n",
		      (unsigned long long)a->sets_keys, a->sets_bits);
	for (k = 0; k < KB_KS_COUNT; k++)
		if (a->sets[k].ok)
			kb_buf_printf(b, "    %-14s %10.4g %6llu%s\n", kb_keysets[k].name,
				      a->sets[k].chi2_per_df,
				      (unsigned long long)a->sets[k].used,
				      a->sets[k].chi2_per_df >= 10 ? "  broken" : "");
}

static int cmd_audit(struct args *a, int argc)
{
	struct kb_buf b = { 0 }, dat = { 0 };
	static struct kb_audit au;
	static double worst[32][KB_AUDIT_BITS_MAX + 1];
	static const char *names[32];
	int csv = !strcmp(a->format, "csv"), json = !strcmp(a->format, "json");
	unsigned i, n = 0, bits, m;
	char base[64] = "", title[160] = "", body[1024];

	if (optind < argc)
		return kb_fail(EXIT_USAGE, "audit takes no arguments");
	if (a->compare + a->multiplier_set + (a->preset != NULL) != 1)
		return kb_fail(EXIT_USAGE, "audit needs one of --multiplier, --preset and --compare");
	if (csv || json || a->compare) {
		if (csv)
			kb_buf_printf(&b, "schema,name,multiplier,width,odd,popcount,longest_run,naf_terms,cf_max,worst_stride_chi2_per_df,key_sets_broken\n");
		else if (json)
			kb_buf_printf(&b, "{\n  \"schema\": \"khash-bench/audit\",\n  \"schema_version\": %d,\n  \"multipliers\": [",
				      KB_SCHEMA_VERSION);
		else
			kb_buf_printf(&b, "%-11s %-18s %5s %4s %5s %4s %5s %9s %12s %7s\n", "preset",
				      "multiplier", "width", "odd", "ones", "run", "terms",
				      "max CF q", "worst X2/df", "broken");
	}
	for (i = 0; i < kb_preset_count || (!a->compare && i == 0); i++) {
		const char *name = NULL;
		uint64_t k;
		unsigned width;

		if (a->compare || a->preset) {
			if (a->preset && strcmp(a->preset, kb_presets[i].name)) {
				if (i + 1 == kb_preset_count)
					return kb_fail(EXIT_USAGE, "unknown preset '%s' (see 'khash-bench audit --compare')",
						       a->preset);
				continue;
			}
			name = kb_presets[i].name;
			k = kb_presets[i].k;
			width = kb_presets[i].width;
		} else {
			k = a->multiplier;
			width = a->width ? a->width : k > UINT32_MAX ? 64 : 32;
		}
		if (kb_audit_run(k, width, &au) < 0)
			return kb_fail(EXIT_USAGE, "multiplier %#llx does not fit %u bits",
				       (unsigned long long)k, width);
		if (csv)
			kb_buf_printf(&b, "1,%s,%#llx,%u,%d,%u,%u,%u,%llu,%.6g,%u\n",
				      name ? name : "", (unsigned long long)k, width,
				      au.odd, au.popcount, au.longest_run, au.naf_terms,
				      (unsigned long long)au.cf_max, au.worst_overall,
				      au.sets_broken);
		else if (json)
			kb_buf_printf(&b, "%s\n    {\"name\": \"%s\", \"multiplier\": \"%#llx\", \"width\": %u, \"odd\": %s, \"popcount\": %u, \"longest_run\": %u, \"naf_terms\": %u, \"cf_max\": %llu, \"worst_stride_chi2_per_df\": %.6g, \"key_sets_broken\": %u}",
				      n ? "," : "", name ? name : "", (unsigned long long)k,
				      width, au.odd ? "true" : "false", au.popcount,
				      au.longest_run, au.naf_terms,
				      (unsigned long long)au.cf_max, au.worst_overall,
				      au.sets_broken);
		else if (a->compare)
			kb_buf_printf(&b, "%-11s %#-18llx %5u %4s %5u %4u %5u %9llu %12.4g %7u\n",
				      name, (unsigned long long)k, width,
				      au.odd ? "yes" : "NO", au.popcount, au.longest_run,
				      au.naf_terms, (unsigned long long)au.cf_max,
				      au.worst_overall, au.sets_broken);
		else
			audit_text(&au, name, &b);
		if (n < 32) {
			names[n] = name ? name : "K";
			for (bits = au.bits_min; bits <= au.bits_max; bits += 2)
				worst[n][bits] = au.worst[bits].chi2_per_df;
		}
		n++;
		if (a->preset)
			break;
	}
	/* a figure: the worst stride's X^2/df by table size, one line each */
	if (a->plot && n > 0) {
		snprintf(base, sizeof(base), "audit_%s", a->compare ? "compare"
					  : a->preset ? a->preset : "multiplier");
		snprintf(title, sizeof(title), "Worst stride s, 3s, 5s, 7s (s = 2^j): X^2/df by table size");
		kb_buf_printf(&dat, "bits");
		for (m = 0; m < n && m < 32; m++)
			kb_buf_printf(&dat, " %s", names[m]);
		kb_buf_printf(&dat, "\n");
		for (bits = au.bits_min; bits <= au.bits_max; bits += 2) {
			kb_buf_printf(&dat, "%u", bits);
			for (m = 0; m < n && m < 32; m++)
				kb_buf_printf(&dat, " %.6g", worst[m][bits]);
			kb_buf_printf(&dat, "\n");
		}
		snprintf(body, sizeof(body),
			 "  set logscale y\n  set xlabel \"bits (2^bits buckets, twice as many keys)\"\n"
			 "  set ylabel \"worst X^2/df\"\n  set key outside right\n  set title gptitle\n"
			 "  plot for [c=2:%u] data using 1:c with linespoints title columnheader(c)\n",
			 (n < 32 ? n : 32) + 1);
	}
	if (json)
		kb_buf_printf(&b, "\n  ]\n}\n");
	else if (a->compare && !csv)
		kb_buf_printf(&b, "\nterms: shift-and-add terms (non-adjacent form); max CF q: largest of the first 24\n"
				  "partial quotients of K/2^w; worst X2/df: over strides s, 3s, 5s, 7s (s = 2^j)\n"
				  "and 2^6..2^16 buckets; broken: key sets with X^2/df >= 10 at 4096 keys, 2^11 buckets\n");
	return plot_then_emit(a, &b, &dat, base, title, 900, 520, body);
}

static int cmd_waittable(struct args *a, int argc)
{
	struct kb_wait_row rows[16];
	struct kb_buf b = { 0 }, dat = { 0 };
	unsigned waiters = a->count_set ? (unsigned)a->kp.count : 100;
	unsigned trials = 1000, n = 0, i;
	uint64_t zone;
	char base[64] = "", title[160] = "";

	if (optind < argc)
		return kb_fail(EXIT_USAGE, "waittable takes no arguments");
	if (a->count_set && (a->kp.count < 2 || a->kp.count > 4096))
		return kb_fail(EXIT_USAGE, "--count (waiters) must be 2..4096");
	for (zone = UINT64_C(16) << 20; zone <= UINT64_C(64) << 30; zone <<= 1) {
		if (kb_wait_simulate(zone, a->word, waiters, trials, a->kp.seed,
				     &rows[n]) < 0)
			return kb_fail(EXIT_RUNTIME, "cannot simulate a %llu MiB zone",
				       (unsigned long long)(zone >> 20));
		n++;
	}
	if (!strcmp(a->format, "csv")) {
		kb_buf_printf(&b, "schema,word,waiters,zone_mib,pages,table,old_random,new_random,old_run,new_run,random_function\n");
		for (i = 0; i < n; i++)
			kb_buf_printf(&b, "1,%u,%u,%llu,%llu,%llu,%.4f,%.4f,%.4f,%.4f,%.4f\n",
				      a->word, waiters,
				      (unsigned long long)(rows[i].zone_bytes >> 20),
				      (unsigned long long)rows[i].pages,
				      (unsigned long long)rows[i].table,
				      rows[i].old_random, rows[i].new_random,
				      rows[i].old_run, rows[i].new_run, rows[i].baseline);
	} else if (!strcmp(a->format, "json")) {
		kb_buf_printf(&b, "{\n  \"schema\": \"khash-bench/waittable\",\n  \"schema_version\": %d,\n  \"word\": %u, \"waiters\": %u, \"trials\": %u,\n  \"zones\": [",
			      KB_SCHEMA_VERSION, a->word, waiters, trials);
		for (i = 0; i < n; i++)
			kb_buf_printf(&b, "%s\n    {\"zone_mib\": %llu, \"table\": %llu, \"old_random\": %.4f, \"new_random\": %.4f, \"old_run\": %.4f, \"new_run\": %.4f, \"random_function\": %.4f}",
				      i ? "," : "", (unsigned long long)(rows[i].zone_bytes >> 20),
				      (unsigned long long)rows[i].table, rows[i].old_random,
				      rows[i].new_random, rows[i].old_run, rows[i].new_run,
				      rows[i].baseline);
		kb_buf_printf(&b, "\n  ]\n}\n");
	} else {
		kb_buf_printf(&b, "2002 page wait tables, %u-bit kernel: %u pages waited on, mean waiters woken\n"
				  "for nothing per unlock (%u trials). random: pages anywhere in the zone;\n"
				  "run: %u consecutive pages (readahead).\n\n",
			      a->word, waiters, trials, waiters);
		kb_buf_printf(&b, "%10s %9s %6s | %8s %8s | %8s %8s | %8s\n", "zone", "pages",
			      "queues", "old rnd", "new rnd", "old run", "new run", "random f");
		for (i = 0; i < n; i++) {
			uint64_t mib = rows[i].zone_bytes >> 20;

			kb_buf_printf(&b, "%7llu %s %9llu %6llu | %8.3f %8.3f | %8.3f %8.3f | %8.3f\n",
				      (unsigned long long)(mib >= 1024 ? mib >> 10 : mib),
				      mib >= 1024 ? "GiB" : "MiB",
				      (unsigned long long)rows[i].pages,
				      (unsigned long long)rows[i].table, rows[i].old_random,
				      rows[i].new_random, rows[i].old_run, rows[i].new_run,
				      rows[i].baseline);
		}
	}
	if (a->plot) {
		snprintf(base, sizeof(base), "waittable_w%u_n%u", a->word, waiters);
		snprintf(title, sizeof(title), "Spurious wake-ups per unlock, %u waiters, %u-bit kernel (seed 003's wait tables)",
			 waiters, a->word);
		kb_buf_printf(&dat, "# zone_mib old_random new_random old_run new_run random_function\n");
		for (i = 0; i < n; i++)
			kb_buf_printf(&dat, "%llu %.4f %.4f %.4f %.4f %.4f\n",
				      (unsigned long long)(rows[i].zone_bytes >> 20),
				      rows[i].old_random, rows[i].new_random,
				      rows[i].old_run, rows[i].new_run, rows[i].baseline);
	}
	return plot_then_emit(a, &b, &dat, base, title, 900, 520,
			      "  set logscale x 2\n  set logscale y\n  set xlabel \"zone size (MiB)\"\n"
			      "  set ylabel \"waiters woken for nothing per unlock\"\n  set key top left\n"
			      "  set title gptitle\n"
			      "  plot data using 1:2 with linespoints title \"old, random pages\", \\\n"
			      "       data using 1:3 with linespoints title \"new, random pages\", \\\n"
			      "       data using 1:4 with linespoints title \"old, a run of pages\", \\\n"
			      "       data using 1:5 with linespoints title \"new, a run of pages\", \\\n"
			      "       data using 1:6 with lines dashtype 2 title \"random function\"\n");
}

/* Write a key set as a key file: text (0x hex, one a line) or --binary
 * little-endian u64, so any other machine reads the same keys. */
static int cmd_keys(struct args *a, int argc)
{
	static char out_buf[BLOCK * 19];
	struct kb_keyset_params kp = a->kp;
	struct kb_keystream ks;
	struct kb_atomic out = { 0 };
	uint64_t keys[BLOCK];
	FILE *to = stdout;
	char err[512];
	size_t n, i, len;
	int rc = 0;

	if (optind < argc)
		return kb_fail(EXIT_USAGE, "keys takes no arguments (use -o FILE)");
	if (a->keyset < 0)
		return kb_fail(EXIT_USAGE, "keys needs --keyset");
	if ((rc = check_heap_memory(a, 1u << a->keyset)))
		return rc;
	kp.word = a->word;
	kp.input_bits = 64;
	kp.target_func = a->func_set ? a->func : LKH_FUNC_HASH_64;
	kp.target_gen = a->gen;
	kp.target_bits = a->bits;
	if (kb_keystream_open(&ks, a->keyset, &kp, err, sizeof(err)) < 0)
		return kb_fail(a->keyset == KB_KS_ADVERSARIAL && !a->bits_set ? EXIT_USAGE
									  : EXIT_RUNTIME,
			       "%s", err);
	if (a->output && strcmp(a->output, "-")) {
		if (kb_atomic_open(&out, a->output, err, sizeof(err)) < 0) {
			kb_keystream_close(&ks);
			return kb_fail(EXIT_RUNTIME, "%s", err);
		}
		to = out.f;
	}
	while ((n = kb_keystream_next(&ks, keys, BLOCK)) > 0) {
		for (i = 0, len = 0; i < n; i++) {
			if (a->binary) {
				unsigned byte;

				for (byte = 0; byte < 8; byte++)
					out_buf[len++] = (char)(keys[i] >> (8 * byte));
			} else {
				len += format_hex(out_buf + len, keys[i]);
			}
		}
		fwrite(out_buf, 1, len, to);
	}
	kb_keystream_close(&ks);
	if (out.f) {
		if (kb_atomic_commit(&out, err, sizeof(err)) < 0)
			rc = kb_fail(EXIT_RUNTIME, "%s", err);
	} else if (fflush(stdout) != 0 || ferror(stdout)) {
		rc = kb_fail(EXIT_RUNTIME, "cannot write standard output: %s",
			     strerror(errno));
	}
	return rc;
}

static int cmd_list(void)
{
	int i;

	printf("key sets:\n");
	for (i = 0; i < KB_KS_COUNT; i++)
		printf("  %-14s %s%s\n", kb_keysets[i].name, kb_keysets[i].formula,
		       kb_keyset_available(i) ? "" : " [not in this build]");
	printf("functions: hash_32 hash_64 hash_long hash_ptr\n");
	printf("generations:\n");
	printf("  old     v2.6.25..v4.5: 0x9e370001, 0x9e37fffffffc0001\n");
	printf("  posted  the 2016 fix as posted: hash_32 kept 0x9e370001, hash_64 0x61C8864680B583EB\n");
	printf("  new     v4.7..today: 0x61C88647, 0x61C8864680B583EB\n");
	printf("word sizes: 32 64 (default %u)\n", lkh_bits_per_long());
	return 0;
}

int main(int argc, char **argv)
{
	struct args a;
	int rc;

	if (argc < 2) {
		kb_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		kb_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("khash-bench (libkhash) %s\n", lkh_version_string());
		return 0;
	}
	kb_output_install_signal_cleanup();
	if ((rc = kb_parse_args(argc - 1, argv + 1, &a)))
		return rc;
	if (a.action == KB_HELP) {
		kb_usage(stdout);
		return 0;
	}
	if (a.action == KB_VERSION) {
		printf("khash-bench (libkhash) %s\n", lkh_version_string());
		return 0;
	}
	a.cmd = argv[1];
	argc--;
	argv++;
	if (!strcmp(a.cmd, "hash"))
		return cmd_hash(&a, argc, argv);
	if (!strcmp(a.cmd, "skew"))
		return cmd_skew(&a, argc);
	if (!strcmp(a.cmd, "report"))
		return cmd_report(&a, argc);
	if (!strcmp(a.cmd, "keys"))
		return cmd_keys(&a, argc);
	if (!strcmp(a.cmd, "waittable"))
		return cmd_waittable(&a, argc);
	if (!strcmp(a.cmd, "audit"))
		return cmd_audit(&a, argc);
	if (!strcmp(a.cmd, "influence"))
		return cmd_influence(&a, argc);
	if (!strcmp(a.cmd, "speed"))
		return cmd_speed(&a, argc);
	if (!strcmp(a.cmd, "list"))
		return optind < argc ? kb_fail(EXIT_USAGE, "list takes no arguments")
				     : cmd_list();
	return kb_fail(EXIT_USAGE, "unknown command '%s' (try --help)", a.cmd);
}
