/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "speed.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <khash/lkh.h>

#include "keysets.h"
#include "engine.h"
#include "names.h"
#include "plain_loop.h"
#include "schemas.h"
#include "speed_loops.h"
#include "stats.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#define INPUTS 1024 /* 8 KiB of inputs: stays in L1 beside everything else */

static volatile uint64_t sink; /* keeps every result alive */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t ticks(void)
{
#ifdef HAVE_TSC
	return __rdtsc();
#else
	return 0;
#endif
}

#define HASH_ROUNDS 7

struct timing {
	struct kb_rounds ns; /* per hash, over the rounds */
	double cycles;       /* TSC ticks per hash in the fastest round, 0
			      * where there is no TSC */
};

/* Rounds of INPUTS calls that take about `seconds`. */
static size_t calibrate(const struct kb_speed_fn *f, int latency,
			const uint64_t *in, unsigned bits, double seconds)
{
	size_t reps = 1, r;

	for (;;) {
		double t0 = now();

		for (r = 0; r < reps; r++)
			sink += latency ? f->lat(in[r % INPUTS], INPUTS, bits)
					: f->tput(in, INPUTS, bits);
		if (now() - t0 >= seconds || reps > (1u << 24))
			return reps;
		reps *= 2;
	}
}

/* One round: ns and TSC ticks per hash. */
static double time_once(const struct kb_speed_fn *f, int latency,
			const uint64_t *in, unsigned bits, size_t reps, double *cycles)
{
	double t0 = now(), dt;
	uint64_t c0 = ticks();
	size_t r;

	for (r = 0; r < reps; r++)
		sink += latency ? f->lat(in[r % INPUTS], INPUTS, bits)
				: f->tput(in, INPUTS, bits);
	dt = now() - t0;
	*cycles = (double)(ticks() - c0) / ((double)reps * INPUTS);
	return dt * 1e9 / ((double)reps * INPUTS);
}

/*
 * Time f and its reference alternately, HASH_ROUNDS rounds each: both see
 * the same moments of the machine, so a noisy neighbour or a clock change
 * cannot favour one of them.
 */
static void time_pair(const struct kb_speed_fn *f, const struct kb_speed_fn *ref,
		      int latency, const uint64_t *in, unsigned bits,
		      double min_s, struct timing *tf, struct timing *tr)
{
	size_t rf = calibrate(f, latency, in, bits, min_s / HASH_ROUNDS);
	size_t rr = calibrate(ref, latency, in, bits, min_s / HASH_ROUNDS);
	double nf[HASH_ROUNDS], nr[HASH_ROUNDS], cf, cr;
	int trial;

	tf->cycles = tr->cycles = 0;
	for (trial = 0; trial < HASH_ROUNDS; trial++) {
		nf[trial] = time_once(f, latency, in, bits, rf, &cf);
		nr[trial] = time_once(ref, latency, in, bits, rr, &cr);
		/* the fastest round's ticks */
		if (trial == 0 || nf[trial] < tf->ns.best) {
			tf->ns.best = nf[trial];
			tf->cycles = cf;
		}
		if (trial == 0 || nr[trial] < tr->ns.best) {
			tr->ns.best = nr[trial];
			tr->cycles = cr;
		}
	}
	kb_rounds_of(nf, HASH_ROUNDS, &tf->ns);
	kb_rounds_of(nr, HASH_ROUNDS, &tr->ns);
}

/* The row that computes c, or -1. */
static long candidate_row(const struct kb_candidate *c, const struct kb_speed_fn *t,
			  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct kb_speed_fn *f = &t[i];

		switch (c->kind) {
		case KB_CAND_HASHH:
			if (!f->label && f->func == c->func && f->gen == c->gen &&
			    f->word == c->word)
				return (long)i;
			break;
		case KB_CAND_MULTIPLY: /* the bare multiply is the reference */
			if (f->reference && f->word == c->width)
				return (long)i;
			break;
		case KB_CAND_HSIPHASH:
			if (f->origin && f->kind == c->kind && f->wide == c->wide &&
			    f->word == c->word)
				return (long)i;
			break;
		default:
			if (f->origin && f->kind == c->kind && f->wide == c->wide)
				return (long)i;
		}
	}
	return -1;
}

int kb_speed_candidate(const struct kb_candidate *c, unsigned bits,
		       double seconds, struct kb_rounds *ns)
{
	size_t n, i;
	const struct kb_speed_fn *t = kb_speed_inline(&n);
	long row = candidate_row(c, t, n);
	static uint64_t in[INPUTS];
	double rounds[HASH_ROUNDS], cycles;
	uint64_t seed = 42;
	size_t reps;
	int r;

	if (row < 0)
		return -1;
	for (i = 0; i < INPUTS; i++)
		in[i] = kb_splitmix64(&seed);
	reps = calibrate(&t[row], 0, in, bits, seconds / HASH_ROUNDS);
	for (r = 0; r < HASH_ROUNDS; r++)
		rounds[r] = time_once(&t[row], 0, in, bits, reps, &cycles);
	kb_rounds_of(rounds, HASH_ROUNDS, ns);
	return 0;
}

int kb_speed_name_candidate(const struct kb_candidate *c, unsigned bits,
			    const struct kb_names *l, double seconds, struct kb_rounds *ns)
{
	/* the names of one round: few enough to stay in the cache */
	size_t n = l->n < INPUTS ? l->n : INPUTS, i, reps = 1, r;
	double rounds[HASH_ROUNDS];
	uint64_t b = 0, acc = 0;
	char err[256];
	int k;

	/* the library's checked string hash is a model, not the kernel's
	 * code: `speed --part strings` times today's against a byte loop */
	if (c->kind == KB_CAND_STRING)
		return -1;
	for (;; reps *= 2) {
		double t0 = now();

		for (r = 0; r < reps; r++)
			for (i = 0; i < n; i++) {
				if (kb_candidate_name_bucket(c, bits, kb_names_at(l, i), l->v[i].len,
							     &b, err, sizeof(err)) < 0)
					return -1;
				acc += b;
			}
		if (now() - t0 >= seconds / HASH_ROUNDS || reps > (1u << 24))
			break;
	}
	for (k = 0; k < HASH_ROUNDS; k++) {
		double t0 = now();

		for (r = 0; r < reps; r++)
			for (i = 0; i < n; i++) {
				(void)kb_candidate_name_bucket(c, bits, kb_names_at(l, i),
							       l->v[i].len, &b, err, sizeof(err));
				acc += b;
			}
		rounds[k] = (now() - t0) * 1e9 / ((double)reps * (double)n);
	}
	sink += acc;
	kb_rounds_of(rounds, HASH_ROUNDS, ns);
	return 0;
}

/* The text's gen column: as wide as the longest generation's name or
 * other row's origin. */
static int gen_width(void)
{
	size_t w = strlen("gen"), g, n;
	const struct kb_speed_fn *t = kb_speed_inline(&n);

	for (g = 0; g < LKH_GEN_COUNT; g++)
		if (strlen(lkh_gen_name((lkh_gen)g)) > w)
			w = strlen(lkh_gen_name((lkh_gen)g));
	for (g = 0; g < n; g++)
		if (t[g].origin && strlen(t[g].origin) > w)
			w = strlen(t[g].origin);
	return (int)w;
}

/* A spread in the text's 6 columns: percent, or ">999%" for rounds that
 * differ tenfold (a busy machine: the figures say little). */
static const char *spread_text(double spread, char buf[8])
{
	if (spread * 100 > 999)
		return ">999%";
	snprintf(buf, 8, "%5.1f%%", spread * 100);
	return buf;
}


/* One timing, ns per hash over the rounds, beside the reference's. */
struct timed {
	struct timing t, ref;
};

/* A row: a cell (or reference) inline, exported and its latency; the
 * user's function (user) only as report calls it, in the inline columns. */
struct hash_row {
	const char *func, *gen;
	unsigned word, bits;
	struct timed inl, ex, lat;
	int user;
};

/* JSON: one timing as an object of its own, and its ratio to the
 * reference's (fastest against fastest, median against median). */
static void timing_json(struct kb_buf *b, const void *arg)
{
	const struct timed *p = arg;
	const struct kb_rounds *t = &p->t.ns, *ref = &p->ref.ns;
	const struct kb_field f[] = {
		{ .name = "best_ns", .form = KB_FIELD_FIX, .prec = 4, .d = t->best },
		{ .name = "median_ns", .form = KB_FIELD_FIX, .prec = 4, .d = t->median },
		{ .name = "mean_ns", .form = KB_FIELD_FIX, .prec = 4, .d = t->mean },
		{ .name = "worst_ns", .form = KB_FIELD_FIX, .prec = 4, .d = t->worst },
		{ .name = "spread", .form = KB_FIELD_FIX, .prec = 4, .d = t->spread },
		{ .name = "tsc_per_hash", .form = KB_FIELD_FIX, .prec = 3, .d = p->t.cycles },
		{ .name = "vs_ref_best", .form = KB_FIELD_FIX, .prec = 4, .d = ref->best / t->best },
		{ .name = "vs_ref_median", .form = KB_FIELD_FIX, .prec = 4,
		  .d = ref->median / t->median },
	};

	kb_fields(b, KB_FIELDS_JSON, f, KB_FIELDS_N(f));
}

/* A row's fields: CSV's columns say some of each timing's figures, JSON
 * has each timing's all in an object of its own (timing_json). */
static void hash_fields(struct kb_buf *b, enum kb_fields_as as, const struct hash_row *r)
{
	const struct kb_rounds *tp = &r->inl.t.ns, *ex = &r->ex.t.ns, *lat = &r->lat.t.ns;
	/* the user's function is timed one way: the others are not its */
	const unsigned na = r->user ? KB_NONE_NULL : 0;
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_SPEED_HASH].csv_version, .in = KB_IN_CSV },
		{ .name = "func", .form = KB_FIELD_STR, .s = r->func },
		{ .name = "gen", .form = KB_FIELD_STR, .s = r->gen },
		{ .name = "word", .u = r->word },
		{ .name = "bits", .u = r->bits, .in = KB_IN_CSV },
		{ .name = "rounds", .u = tp->n },
		{ .name = "inline_ns", .form = KB_FIELD_FIX, .prec = 4, .d = tp->best, .in = KB_IN_CSV },
		{ .name = "inline_median_ns", .form = KB_FIELD_FIX, .prec = 4, .d = tp->median,
		  .in = KB_IN_CSV },
		{ .name = "inline_mean_ns", .form = KB_FIELD_FIX, .prec = 4, .d = tp->mean,
		  .in = KB_IN_CSV },
		{ .name = "inline_spread", .form = KB_FIELD_FIX, .prec = 4, .d = tp->spread,
		  .in = KB_IN_CSV },
		{ .name = "inline_tsc", .form = KB_FIELD_FIX, .prec = 3, .d = r->inl.t.cycles,
		  .in = KB_IN_CSV, .none = na },
		{ .name = "inline_vs_ref", .form = KB_FIELD_FIX, .prec = 3,
		  .d = r->inl.ref.ns.best / tp->best, .in = KB_IN_CSV },
		{ .name = "exported_ns", .form = KB_FIELD_FIX, .prec = 4, .d = ex->best,
		  .in = KB_IN_CSV, .none = na },
		{ .name = "exported_median_ns", .form = KB_FIELD_FIX, .prec = 4, .d = ex->median,
		  .in = KB_IN_CSV, .none = na },
		{ .name = "exported_spread", .form = KB_FIELD_FIX, .prec = 4, .d = ex->spread,
		  .in = KB_IN_CSV, .none = na },
		{ .name = "exported_vs_ref", .form = KB_FIELD_FIX, .prec = 3,
		  .d = r->ex.ref.ns.best / ex->best, .in = KB_IN_CSV, .none = na },
		{ .name = "latency_ns", .form = KB_FIELD_FIX, .prec = 4, .d = lat->best,
		  .in = KB_IN_CSV, .none = na },
		{ .name = "latency_median_ns", .form = KB_FIELD_FIX, .prec = 4, .d = lat->median,
		  .in = KB_IN_CSV, .none = na },
		{ .name = "latency_spread", .form = KB_FIELD_FIX, .prec = 4, .d = lat->spread,
		  .in = KB_IN_CSV, .none = na },
		{ .name = "latency_vs_ref", .form = KB_FIELD_FIX, .prec = 3,
		  .d = r->lat.ref.ns.best / lat->best, .in = KB_IN_CSV, .none = na },
		{ .name = "inline", .form = KB_FIELD_JSON, .json = timing_json, .arg = &r->inl },
		{ .name = "exported", .form = KB_FIELD_JSON, .json = timing_json, .arg = &r->ex,
		  .none = na },
		{ .name = "latency", .form = KB_FIELD_JSON, .json = timing_json, .arg = &r->lat,
		  .none = na },
	};

	kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_speed_hash_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct hash_row none;

	hash_fields(b, as, &none);
}

/* A timed row in the chosen format. */
static void row_out(enum kb_format format, struct kb_buf *b, const struct hash_row *r, int first)
{
	const struct timing *tp = &r->inl.t, *tp_ref = &r->inl.ref, *ex = &r->ex.t,
			    *ex_ref = &r->ex.ref, *lat = &r->lat.t, *lat_ref = &r->lat.ref;
	char sp[8];

	if (format == KB_FORMAT_CSV) {
		hash_fields(b, KB_FIELDS_CSV, r);
	} else if (format == KB_FORMAT_JSON) {
		kb_buf_printf(b, "%s\n    ", first ? "" : ",");
		hash_fields(b, KB_FIELDS_JSON, r);
	} else if (r->user) {
		kb_buf_printf(b, "%-34s %-*s %-4u | %8.3f %8.3f %6s %7s %6.2f | %8s %6s | %8s %6s\n",
			      r->func, gen_width(), r->gen, r->word, tp->ns.best, tp->ns.median,
			      spread_text(tp->ns.spread, sp), "-", tp_ref->ns.best / tp->ns.best,
			      "-", "-", "-", "-");
	} else {
		kb_buf_printf(b, "%-34s %-*s %-4u | %8.3f %8.3f %6s %7.2f %6.2f | %8.3f %6.2f | %8.3f %6.2f\n",
			      r->func, gen_width(), r->gen, r->word, tp->ns.best, tp->ns.median,
			      spread_text(tp->ns.spread, sp), tp->cycles, tp_ref->ns.best / tp->ns.best,
			      ex->ns.best, ex_ref->ns.best / ex->ns.best, lat->ns.best,
			      lat_ref->ns.best / lat->ns.best);
	}
}

/*
 * The user's function (--source), as report calls it: a call a key
 * through the compiled object, in a child process, timed there; beside
 * the 64-bit reference loop timed here just before.
 */
static int user_row(const struct kb_speed_opts *o, enum kb_format format, struct kb_buf *b,
		    const uint64_t *in, const struct kb_speed_fn *ti, size_t ref, int first,
		    char *err, size_t errlen)
{
	const struct kb_user_gen *u = kb_user_gen_get();
	struct hash_row r = { .func = u->name, .gen = "--source", .word = lkh_bits_per_long(),
			      .bits = o->bits, .user = 1 };
	double ns[HASH_ROUNDS];
	struct timing again;

	time_pair(&ti[ref], &ti[ref], 0, in, o->bits, o->min_seconds, &r.inl.ref, &again);
	if (u->time(u->ctx, in, INPUTS, o->bits, HASH_ROUNDS, o->min_seconds, ns, err, errlen) < 0)
		return -1;
	kb_rounds_of(ns, HASH_ROUNDS, &r.inl.t.ns);
	row_out(format, b, &r, first);
	return 0;
}

/* One row: a cell (or reference) inline, exported and its latency. */
static void speed_row(const struct kb_speed_opts *o, enum kb_format format,
		      struct kb_buf *b, const uint64_t *in, const struct kb_speed_fn *ti,
		      const struct kb_speed_fn *te, size_t i, int first)
{
	const struct kb_speed_fn *ref = &ti[ti[i].reference ? i : ti[i].ref];
	struct hash_row r = {
		.func = ti[i].label ? ti[i].label : lkh_func_name(ti[i].func),
		.gen = ti[i].reference ? "ref" : ti[i].origin ? ti[i].origin : lkh_gen_name(ti[i].gen),
		.word = ti[i].word,
		.bits = o->bits,
	};
	time_pair(&ti[i], ref, 0, in, o->bits, o->min_seconds, &r.inl.t, &r.inl.ref);
	time_pair(&te[i], ref, 0, in, o->bits, o->min_seconds, &r.ex.t, &r.ex.ref);
	time_pair(&ti[i], ref, 1, in, o->bits, o->min_seconds, &r.lat.t, &r.lat.ref);
	row_out(format, b, &r, first);
}

/* The rows timed, in order: references first, then function by function,
 * old beside new, then the extra rows; returns how many. */
static size_t hash_rows(size_t *rows, size_t cap)
{
	/* hash_long is hash_64 or hash_32 under another name: not timed */
	static const lkh_func shown[] = { LKH_FUNC_HASH_32, LKH_FUNC_HASH_64,
					  LKH_FUNC_HASH_PTR };
	size_t ni, ne, i, f, n = 0;
	unsigned w;
	const struct kb_speed_fn *ti = kb_speed_inline(&ni);

	kb_speed_exported(&ne);
	for (i = 0; i < ni && i < ne; i++)
		if (ti[i].reference)
			rows[n < cap ? n++ : n] = i;
	for (f = 0; f < sizeof(shown) / sizeof(shown[0]); f++)
		for (w = 64; w >= 32; w -= 32)
			for (i = 0; i < ni && i < ne; i++)
				if (!ti[i].reference && !ti[i].label &&
				    ti[i].func == shown[f] && ti[i].word == w &&
				    (shown[f] != LKH_FUNC_HASH_32 || w == 32))
					rows[n < cap ? n++ : n] = i;
	for (i = 0; i < ni && i < ne; i++)
		if (!ti[i].reference && ti[i].label)
			rows[n < cap ? n++ : n] = i;
	return n;
}

static int speed_hashes(const struct kb_speed_opts *o, enum kb_format format,
			struct kb_buf *b, const size_t *rows, size_t nrows, char *err, size_t errlen)
{
	size_t ni, ne, i;
	const struct kb_speed_fn *ti = kb_speed_inline(&ni);
	const struct kb_speed_fn *te = kb_speed_exported(&ne);
	static uint64_t in[INPUTS];
	uint64_t seed = 42;

	for (i = 0; i < INPUTS; i++)
		in[i] = kb_splitmix64(&seed);
	if (format == KB_FORMAT_CSV) {
		kb_speed_hash_names(b, KB_FIELDS_CSV_HEAD);
	} else if (format == KB_FORMAT_JSON) {
		kb_buf_printf(b, "  \"bits\": %u,\n  \"hashes\": [", o->bits);
	} else {
		kb_buf_printf(b, "Hash speed, bits = %u: ns per hash, fastest and median of %d rounds and their\n", o->bits, HASH_ROUNDS);
		kb_buf_printf(b, "spread ((slowest - fastest) / median), and each one's throughput relative to\n");
		kb_buf_printf(b, "the hand-written reference loop timed alternately with it in the same binary\n");
		kb_buf_printf(b, "(fastest against fastest; 1.00 = as fast; the reference rows are 1 by definition)\n\n");
		kb_buf_printf(b, "%-34s %-*s %-4s | %8s %8s %6s %7s %6s | %8s %6s | %8s %6s\n",
			      "function", gen_width(), "gen", "word", "inline", "median", "spread",
			      "TSC/h", "x ref", "exported", "x ref", "latency", "x ref");
	}
	for (i = 0; i < nrows; i++) {
		speed_row(o, format, b, in, ti, te, rows[i], i == 0);
		kb_progress_add(o->progress, 1);
	}
	/* the first row is the 64-bit reference loop (hash_rows) */
	if (kb_user_gen_get() && user_row(o, format, b, in, ti, rows[0], nrows == 0, err, errlen) < 0)
		return -1;
	if (format == KB_FORMAT_JSON)
		kb_buf_printf(b, "\n  ]");
	return 0;
}

/* The naive loop: the plain loop a user writes (plain_loop.h), over the
 * engine's page4k keys. */
static uint64_t naive_count(uint64_t n, unsigned bits, uint64_t *counts)
{
	kb_plain_count(NULL, KB_X86_64_DIRECT_MAP, 4096, n, bits, counts);
	/* read back as the loop wrote it: u32 below 2^32 keys */
	return kb_plain_counter_bytes(n) == 4 ? *(const uint32_t *)(const void *)counts : counts[0];
}

#define ENGINE_TRIALS 5
/* the table sizes the engine is timed at: in L1, in L2, in L3, half of
 * L3 in u32 (the naive loop still fits), past L3 */
static const unsigned engine_bits[] = { 11, 16, 20, 22, 24 };
#define ENGINE_SIZES (sizeof(engine_bits) / sizeof(engine_bits[0]))

/* Whether a path is worth timing at this size: lanes past L2 would only
 * show that four u32 copies of a big table do not fit anywhere. */
static int path_shown(enum kb_engine_path path, unsigned bits)
{
	if (path == KB_PATH_FLOORSUM)
		return bits <= 16; /* seconds a round past that: a bucket costs ~1 us */
	if (path == KB_PATH_DIRECT)
		return bits <= 16; /* one thread into u64: the naive loop again */
	return path != KB_PATH_LANES ||
	       kb_engine_thread_bytes(KB_PATH_LANES, 1, bits, 0) <= kb_cache_bytes(2);
}

static const char *const cache_source_names[] = {
	[KB_CACHE_SET] = "/sys/devices/system/cpu/cpu0/cache",
	[KB_CACHE_LIBC] = "the C library (CPUID)",
	[KB_CACHE_TYPICAL] = "neither listed it: a typical size",
};

/* The caches the engine sizes its tables by, where each figure came from,
 * and the C library's figure where it differs (a virtual machine's CPUID
 * may give its host's). */
static void speed_caches(enum kb_format format, struct kb_buf *b)
{
	unsigned level;

	for (level = 1; level <= 3; level++) {
		enum kb_cache_source src;
		uint64_t v = kb_cache_bytes_from(level, &src), libc = kb_libc_cache_bytes(level);

		if (format == KB_FORMAT_JSON) {
			kb_buf_printf(b, "%s\n    {\"level\": %u, \"bytes\": %llu, \"source\": ",
				      level == 1 ? "" : ",", level, (unsigned long long)v);
			kb_json_string(b, cache_source_names[src]);
			kb_buf_printf(b, ", \"libc_bytes\": %llu}", (unsigned long long)libc);
			continue;
		}
		kb_buf_printf(b, "  L%u%s %llu KiB from %s", level, level == 1 ? "d" : "",
			      (unsigned long long)v >> 10, cache_source_names[src]);
		if (src != KB_CACHE_LIBC && libc && libc != v)
			kb_buf_printf(b, " (the C library says %llu KiB)",
				      (unsigned long long)libc >> 10);
		kb_buf_printf(b, "\n");
	}
}

/* The engine's page4k keys, as speed_engine counts them. */
static void engine_keys(const struct kb_speed_opts *o, struct kb_keyset_params *p)
{
	memset(p, 0, sizeof(*p));
	p->count = o->engine_keys;
	p->word = 64;
	p->input_bits = 64;
}

static const struct kb_hashspec engine_spec = { LKH_FUNC_HASH_64, KB_GEN_TODAY, 64, 0, 0, 0 };

/* What AUTO does at 2^bits when it enumerates the keys: 0, or -1. */
static int engine_plan(const struct kb_speed_opts *o, unsigned bits,
		       struct kb_engine_plan *plan, char *err, size_t errlen)
{
	struct kb_engine_opts eo = { .threads = o->threads, .path = KB_PATH_AUTO, .enumerate = 1 };
	struct kb_keyset_params p;
	struct kb_keystream ks;
	int rc;

	engine_keys(o, &p);
	if (kb_keystream_open(&ks, KB_KS_PAGE4K, &p, err, errlen) < 0)
		return -1;
	rc = kb_engine_plan(&engine_spec, 1, bits, &ks, &eo, plan, err, errlen);
	kb_keystream_close(&ks);
	return rc;
}

/* Row l (0: the naive loop) is timed: the loop, the chosen path, and the
 * paths worth timing at this size. */
static int figure_shown(unsigned l, unsigned bits, enum kb_engine_path chosen)
{
	return l == 0 || l == (unsigned)chosen || path_shown((enum kb_engine_path)l, bits);
}

/* One path's (or the naive loop's) rounds at one size, as keys per second. */
struct engine_figure {
	struct kb_rounds t; /* seconds */
	int shown;
};

static double rate(uint64_t keys, double seconds)
{
	return seconds > 0 ? (double)keys / seconds : 0;
}

/*
 * The naive loop and every engine path at each table size, in rounds that
 * time each of them once (so a noisy moment hits all of them alike); the
 * engine's figure is the path AUTO picks when it enumerates the keys
 * (kb_engine_plan, as kb_count_parallel takes it), beside the others so
 * that the choice can be checked on the machine at hand, and floor sums
 * (which count these keys without enumerating them).
 */
enum { NAIVE = 0 }; /* the engine part's row 0; rows 1.. are the paths */

/* One size of the engine part: AUTO's plan and every shown row's rounds. */
struct engine_size {
	unsigned bits;
	struct kb_engine_plan plan;
	struct engine_figure fig[KB_PATH_COUNT_];
};

/* One loop at one size: CSV's row says the count and rounds JSON says
 * once, and its ratios to 3 digits, JSON's to 4. */
static void engine_fields(struct kb_buf *b, enum kb_fields_as as, unsigned bits, uint64_t keys,
			  unsigned threads, const char *loop, int chosen,
			  const struct kb_rounds *r, const struct kb_rounds *naive)
{
	double best = naive->best / r->best, median = naive->median / r->median;
	const struct kb_field f[] = {
		{ .name = "schema", .u = kb_records[KB_REC_SPEED_ENGINE].csv_version, .in = KB_IN_CSV },
		{ .name = "bits", .u = bits },
		{ .name = "keys", .u = keys, .in = KB_IN_CSV },
		{ .name = "threads", .u = threads, .in = KB_IN_CSV },
		{ .name = "loop", .form = KB_FIELD_STR, .s = loop },
		{ .name = "threads", .u = threads, .in = KB_IN_JSON },
		{ .name = "chosen", .form = KB_FIELD_BOOL, .u = (uint64_t)chosen },
		{ .name = "rounds", .u = r->n, .in = KB_IN_CSV },
		{ .name = "best_keys_per_s", .form = KB_FIELD_G, .prec = 4, .d = rate(keys, r->best) },
		{ .name = "median_keys_per_s", .form = KB_FIELD_G, .prec = 4,
		  .d = rate(keys, r->median) },
		{ .name = "mean_keys_per_s", .form = KB_FIELD_G, .prec = 4, .d = rate(keys, r->mean) },
		{ .name = "spread", .form = KB_FIELD_FIX, .prec = 3, .d = r->spread, .in = KB_IN_CSV },
		{ .name = "spread", .form = KB_FIELD_FIX, .prec = 4, .d = r->spread, .in = KB_IN_JSON },
		{ .name = "speedup_best", .form = KB_FIELD_FIX, .prec = 3, .d = best, .in = KB_IN_CSV },
		{ .name = "speedup_best", .form = KB_FIELD_FIX, .prec = 4, .d = best, .in = KB_IN_JSON },
		{ .name = "speedup_median", .form = KB_FIELD_FIX, .prec = 3, .d = median,
		  .in = KB_IN_CSV },
		{ .name = "speedup_median", .form = KB_FIELD_FIX, .prec = 4, .d = median,
		  .in = KB_IN_JSON },
	};

	kb_fields(b, as, f, KB_FIELDS_N(f));
}

void kb_speed_engine_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct kb_rounds none;

	engine_fields(b, as, 0, 0, 0, NULL, 0, &none, &none);
}

static void engine_head(const struct kb_speed_opts *o, enum kb_format format,
			unsigned threads, struct kb_buf *b)
{
	if (format == KB_FORMAT_CSV) {
		kb_speed_engine_names(b, KB_FIELDS_CSV_HEAD);
	} else if (format == KB_FORMAT_JSON) {
		kb_buf_printf(b, "%s  \"caches\": [", o->hashes ? ",\n" : "");
		speed_caches(format, b);
		kb_buf_printf(b, "\n  ],\n  \"engine\": {\"keys\": %llu, \"threads\": %u, \"rounds\": %d, \"rows\": [",
			      o->engine_keys, threads, ENGINE_TRIALS);
	} else {
		kb_buf_printf(b, "\nCounting engine: %llu page4k keys through new hash_64 on up to %u thread%s;\n"
				 "the caches its choice of path rests on:\n",
			      o->engine_keys, threads, threads == 1 ? "" : "s");
		speed_caches(format, b);
		kb_buf_printf(b, "G keys/s, best / median of %d rounds, spread (slowest - fastest) / median;\n"
				 "speedup = engine / naive loop; the engine's path and threads as it chooses them\n"
				 "%5s | %-13s %6s | %-13s %-11s %6s | %-15s | %s\n",
			      ENGINE_TRIALS, "bits", "naive loop", "spread", "engine", "(path thr)",
			      "spread", "speedup", "every path (best)");
	}
}

/* Time the naive loop and every path shown at es->bits, in alternating
 * rounds (the chosen path as AUTO runs it): 0, or -1 with the reason. */
static int engine_measure(const struct kb_speed_opts *o, const struct kb_keyset_params *p,
			  unsigned threads, struct engine_size *es, char *err, size_t errlen)
{
	unsigned bits = es->bits, trial, l;
	uint64_t *counts = calloc((size_t)1 << bits, sizeof(uint64_t));
	double t[KB_PATH_COUNT_][ENGINE_TRIALS];
	struct kb_engine_opts auto_opts = { .threads = threads, .path = KB_PATH_AUTO, .enumerate = 1 };
	struct kb_keystream ks;
	int rc = -1;

	if (!counts) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (kb_keystream_open(&ks, KB_KS_PAGE4K, p, err, errlen) < 0) {
		free(counts);
		return -1;
	}
	if (kb_engine_plan(&engine_spec, 1, bits, &ks, &auto_opts, &es->plan, err, errlen) < 0)
		goto out;
	for (l = 0; l < KB_PATH_COUNT_; l++)
		es->fig[l].shown = figure_shown(l, bits, es->plan.path);
	for (trial = 0; trial < ENGINE_TRIALS; trial++)
		for (l = 0; l < KB_PATH_COUNT_; l++) {
			struct kb_engine_opts eo = { .threads = threads,
						     .path = (enum kb_engine_path)l,
						     .enumerate = 1 };
			double t0;

			if (!es->fig[l].shown)
				continue;
			memset(counts, 0, sizeof(uint64_t) << bits);
			t0 = now();
			if (l == NAIVE)
				sink += naive_count(p->count, bits, counts);
			else if (kb_count_parallel(&engine_spec, 1, bits, &ks,
						   l == (unsigned)es->plan.path ? &auto_opts : &eo,
						   counts, err, errlen) < 0)
				goto out;
			t[l][trial] = now() - t0;
			kb_progress_add(o->progress, 1);
		}
	for (l = 0; l < KB_PATH_COUNT_; l++)
		if (es->fig[l].shown)
			kb_rounds_of(t[l], ENGINE_TRIALS, &es->fig[l].t);
	rc = 0;
out:
	kb_keystream_close(&ks);
	free(counts);
	return rc;
}

/* One size's rows: one a loop in CSV and JSON, one line in text. */
static void engine_print(const struct engine_size *es,
			 uint64_t keys, unsigned threads, enum kb_format format, int first,
			 struct kb_buf *b)
{
	enum kb_engine_path chosen = es->plan.path;
	const struct engine_figure *fig = es->fig;
	const struct kb_rounds *n = &fig[NAIVE].t;
	char sa[8], sb[8];
	unsigned l;

	for (l = 0; l < KB_PATH_COUNT_ && format != KB_FORMAT_TEXT; l++) {
		const struct kb_rounds *r = &fig[l].t;
		const char *name = l == NAIVE ? "naive" : kb_engine_path_name((enum kb_engine_path)l);
		unsigned thr = l == NAIVE ? 1 : l == (unsigned)chosen ? es->plan.threads : threads;

		if (!fig[l].shown)
			continue;
		if (format == KB_FORMAT_JSON)
			kb_buf_printf(b, "%s\n      ", first && l == NAIVE ? "" : ",");
		engine_fields(b, format == KB_FORMAT_CSV ? KB_FIELDS_CSV : KB_FIELDS_JSON, es->bits,
			      keys, thr, name, l == (unsigned)chosen, r, n);
	}
	if (format != KB_FORMAT_TEXT)
		return;
	kb_buf_printf(b, "%5u | %5.3f / %5.3f %6s | %5.3f / %5.3f %-8s %2u %6s | %5.2fx / %5.2fx |",
		      es->bits, rate(keys, n->best) / 1e9, rate(keys, n->median) / 1e9,
		      spread_text(n->spread, sa), rate(keys, fig[chosen].t.best) / 1e9,
		      rate(keys, fig[chosen].t.median) / 1e9, kb_engine_path_name(chosen),
		      es->plan.threads, spread_text(fig[chosen].t.spread, sb),
		      n->best / fig[chosen].t.best, n->median / fig[chosen].t.median);
	for (l = 1; l < KB_PATH_COUNT_; l++)
		if (path_shown((enum kb_engine_path)l, es->bits))
			kb_buf_printf(b, " %s %.3f", kb_engine_path_name((enum kb_engine_path)l),
				      rate(keys, fig[l].t.best) / 1e9);
	kb_buf_printf(b, "\n");
}

static int speed_engine(const struct kb_speed_opts *o, enum kb_format format,
			struct kb_buf *b, char *err, size_t errlen)
{
	struct kb_keyset_params p;
	unsigned threads = o->threads ? o->threads : kb_cpu_count();
	size_t i;

	engine_head(o, format, threads, b);
	engine_keys(o, &p);
	for (i = 0; i < ENGINE_SIZES; i++) {
		struct engine_size es = { .bits = engine_bits[i] };

		if (engine_measure(o, &p, threads, &es, err, errlen) < 0)
			return -1;
		engine_print(&es, p.count, threads, format, i == 0, b);
	}
	if (format == KB_FORMAT_JSON)
		kb_buf_printf(b, "\n    ]}");
	return 0;
}

/* The grid: every count 2^GRID_LOG_MIN.. by every size, in steps of 4x. */
#define GRID_COUNT_MIN 12
#define GRID_COUNT_MAX 28
#define GRID_BITS_MIN 6
#define GRID_BITS_MAX 24
#define GRID_STEP 2

/* A grid cell's rows: the naive loop, every path (on its cheapest
 * threads, up to the grid's), and AUTO as skew runs it (floor sums where
 * they apply). */
enum { GRID_AUTO = KB_PATH_COUNT_, GRID_ROWS };
/* Another path beats AUTO when it is faster in both the best and the
 * median round by more than the noise: this, or the larger spread
 * ((slowest - fastest) / median) of the two where that is more (a cell
 * of a few microseconds moves by more than 5 % from round to round). */
#define GRID_NOISE 0.05

struct grid_cell {
	uint64_t keys;
	struct kb_engine_plan plan;
	struct kb_rounds r[GRID_ROWS];
	int shown[GRID_ROWS];
	int best_other; /* the path other than AUTO's that beat it past the
			 * noise, else the fastest other by median; 0: none */
	int beaten;     /* best_other beat AUTO past the noise */
};

/* Whether a path is timed in the grid: floor sums cost ~1 us a bucket,
 * and lanes past L2 only show that four u32 copies fit nowhere. */
static int grid_shown(enum kb_engine_path path, unsigned bits)
{
	if (path == KB_PATH_FLOORSUM)
		return bits <= 20;
	return path != KB_PATH_LANES ||
	       kb_engine_thread_bytes(KB_PATH_LANES, 1, bits, 0) <= kb_cache_bytes(2);
}

/* Time 2^lc page4k keys into 2^bits buckets every way: 0, or -1 with
 * the reason in err. */
static int grid_measure(const struct kb_speed_opts *o, unsigned lc, unsigned bits,
			struct grid_cell *c, char *err, size_t errlen)
{
	struct kb_speed_opts one = *o;
	struct kb_keyset_params p;
	struct kb_keystream ks;
	const struct kb_engine_opts auto_opts = { .threads = o->threads, .path = KB_PATH_AUTO };
	double t[GRID_ROWS][ENGINE_TRIALS];
	uint64_t *counts = calloc((size_t)1 << bits, sizeof(uint64_t));
	unsigned trial, l;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	one.engine_keys = UINT64_C(1) << lc;
	engine_keys(&one, &p);
	c->keys = p.count;
	if (!counts || kb_keystream_open(&ks, KB_KS_PAGE4K, &p, err, errlen) < 0) {
		if (!counts)
			snprintf(err, errlen, "out of memory");
		free(counts);
		return -1;
	}
	if (kb_engine_plan(&engine_spec, 1, bits, &ks, &auto_opts, &c->plan, err, errlen) < 0)
		goto out;
	for (l = 0; l < GRID_ROWS; l++)
		c->shown[l] = l == NAIVE || l == GRID_AUTO || grid_shown((enum kb_engine_path)l, bits);
	for (trial = 0; trial < ENGINE_TRIALS; trial++)
		for (l = 0; l < GRID_ROWS; l++) {
			struct kb_engine_opts eo = { .threads = o->threads,
						     .path = (enum kb_engine_path)l,
						     .enumerate = 1 };
			double t0;

			if (!c->shown[l]) {
				kb_progress_add(o->progress, 1);
				continue;
			}
			memset(counts, 0, sizeof(uint64_t) << bits);
			t0 = now();
			if (l == NAIVE)
				sink += naive_count(p.count, bits, counts);
			else if (kb_count_parallel(&engine_spec, 1, bits, &ks,
						   l == GRID_AUTO ? &auto_opts : &eo, counts, err,
						   errlen) < 0)
				goto out;
			t[l][trial] = now() - t0;
			kb_progress_add(o->progress, 1);
		}
	for (l = 0; l < GRID_ROWS; l++)
		if (c->shown[l])
			kb_rounds_of(t[l], ENGINE_TRIALS, &c->r[l]);
	/* the fastest other path by median; one that beats AUTO in both
	 * best and median comes first */
	for (l = 1; l < KB_PATH_COUNT_; l++) {
		double noise;
		int beats;

		if (!c->shown[l] || l == (unsigned)c->plan.path)
			continue;
		noise = GRID_NOISE;
		if (c->r[l].spread > noise)
			noise = c->r[l].spread;
		if (c->r[GRID_AUTO].spread > noise)
			noise = c->r[GRID_AUTO].spread;
		beats = c->r[l].best < c->r[GRID_AUTO].best * (1 - noise) &&
			c->r[l].median < c->r[GRID_AUTO].median * (1 - noise);
		if (!c->best_other || beats > c->beaten ||
		    (beats == c->beaten && c->r[l].median < c->r[c->best_other].median)) {
			c->best_other = (int)l;
			c->beaten = beats;
		}
	}
	rc = 0;
out:
	kb_keystream_close(&ks);
	free(counts);
	return rc;
}

/* The field names of each path's median, "lanes_median_keys_per_s" .. */
static const char *path_median_name(unsigned l)
{
	static char names[KB_PATH_COUNT_][48];

	if (!names[l][0])
		snprintf(names[l], sizeof(names[l]), "%s_median_keys_per_s",
			 kb_engine_path_name((enum kb_engine_path)l));
	return names[l];
}

/* A grid cell: CSV's row says the rounds and the fastest figures too,
 * and its ratios to 3 digits, JSON's to 4.  A path not timed there is 0. */
static void grid_fields(struct kb_buf *b, enum kb_fields_as as, const struct grid_cell *c,
			unsigned bits)
{
	const struct kb_rounds *r = c->r;
	double autob = rate(1, r[GRID_AUTO].best) ? r[NAIVE].best / r[GRID_AUTO].best : 0;
	double autom = rate(1, r[GRID_AUTO].median) ? r[NAIVE].median / r[GRID_AUTO].median : 0;
	double otherm = c->best_other ? r[GRID_AUTO].median / r[c->best_other].median : 0;
	struct kb_field f[32] = {
		{ .name = "schema", .u = kb_records[KB_REC_SPEED_GRID].csv_version, .in = KB_IN_CSV },
		{ .name = "bits", .u = bits },
		{ .name = "keys", .u = c->keys },
		{ .name = "auto_path", .form = KB_FIELD_STR, .s = kb_engine_path_name(c->plan.path) },
		{ .name = "auto_threads", .u = c->plan.threads },
		{ .name = "auto_ranges", .u = c->plan.ranges },
		{ .name = "auto_price_s", .form = KB_FIELD_G, .prec = 4, .d = c->plan.seconds },
		{ .name = "rounds", .u = ENGINE_TRIALS, .in = KB_IN_CSV },
		{ .name = "naive_best_keys_per_s", .form = KB_FIELD_G, .prec = 4,
		  .d = rate(c->keys, r[NAIVE].best), .in = KB_IN_CSV },
		{ .name = "naive_median_keys_per_s", .form = KB_FIELD_G, .prec = 4,
		  .d = rate(c->keys, r[NAIVE].median) },
		{ .name = "auto_best_keys_per_s", .form = KB_FIELD_G, .prec = 4,
		  .d = rate(c->keys, r[GRID_AUTO].best), .in = KB_IN_CSV },
		{ .name = "auto_median_keys_per_s", .form = KB_FIELD_G, .prec = 4,
		  .d = rate(c->keys, r[GRID_AUTO].median) },
		{ .name = "auto_spread", .form = KB_FIELD_FIX, .prec = 3, .d = r[GRID_AUTO].spread },
		{ .name = "auto_vs_naive_best", .form = KB_FIELD_FIX, .prec = 3, .d = autob,
		  .in = KB_IN_CSV },
		{ .name = "auto_vs_naive_best", .form = KB_FIELD_FIX, .prec = 4, .d = autob,
		  .in = KB_IN_JSON },
		{ .name = "auto_vs_naive_median", .form = KB_FIELD_FIX, .prec = 3, .d = autom,
		  .in = KB_IN_CSV },
		{ .name = "auto_vs_naive_median", .form = KB_FIELD_FIX, .prec = 4, .d = autom,
		  .in = KB_IN_JSON },
		{ .name = "best_other_path", .form = KB_FIELD_STR,
		  .s = c->best_other ? kb_engine_path_name((enum kb_engine_path)c->best_other) : "" },
		{ .name = "best_other_vs_auto_median", .form = KB_FIELD_FIX, .prec = 3, .d = otherm },
		{ .name = "beaten", .form = KB_FIELD_BOOL, .u = (uint64_t)c->beaten },
	};
	size_t n = 0, l;

	while (f[n].name)
		n++;
	for (l = 1; l < KB_PATH_COUNT_; l++)
		f[n++] = (struct kb_field){ .name = path_median_name((unsigned)l),
					    .form = KB_FIELD_G, .prec = 4,
					    .d = c->shown[l] ? rate(c->keys, r[l].median) : 0 };
	kb_fields(b, as, f, n);
}

void kb_speed_grid_names(struct kb_buf *b, enum kb_fields_as as)
{
	static const struct grid_cell none;

	grid_fields(b, as, &none, 0);
}

static void grid_head(enum kb_format format, unsigned threads, int after_other_parts,
		      struct kb_buf *b)
{
	unsigned bits;

	if (format == KB_FORMAT_CSV) {
		kb_speed_grid_names(b, KB_FIELDS_CSV_HEAD);
		return;
	}
	if (format == KB_FORMAT_JSON) {
		kb_buf_printf(b, "%s  \"grid\": {\"rounds\": %d, \"threads\": %u, \"noise\": %.2f, \"rows\": [",
			      after_other_parts ? ",\n" : "", ENGINE_TRIALS, threads, GRID_NOISE);
		return;
	}
	kb_buf_printf(b, "AUTO against the naive loop and every path: page4k keys through new hash_64,\n"
			 "up to %u threads; each cell the median of %d rounds of AUTO (as skew runs it)\n"
			 "over the naive loop's (> 1: faster) and the path AUTO took: D direct64 (one\n"
			 "thread), L lanes (l: on one thread), P private8, R ranges8, F floor sums;\n"
			 "! where another path beat AUTO in best and median by more than the noise\n"
			 "(%.0f%%, or the larger spread of the two rounds where more)\n%8s",
		      threads, ENGINE_TRIALS, GRID_NOISE * 100, "keys \\ bits");
	for (bits = GRID_BITS_MIN; bits <= GRID_BITS_MAX; bits += GRID_STEP)
		kb_buf_printf(b, " %8u", bits);
	kb_buf_printf(b, "\n");
}

static void grid_print(const struct grid_cell *c, unsigned bits, enum kb_format format,
		       int first, struct kb_buf *b)
{
	const struct kb_rounds *r = c->r;
	char mark;

	if (format == KB_FORMAT_CSV) {
		grid_fields(b, KB_FIELDS_CSV, c, bits);
	} else if (format == KB_FORMAT_JSON) {
		kb_buf_printf(b, "%s\n      ", first ? "" : ",");
		grid_fields(b, KB_FIELDS_JSON, c, bits);
	} else {
		mark = "?LPRDF"[c->plan.path];
		if (c->plan.path == KB_PATH_LANES && c->plan.threads == 1)
			mark = 'l';
		kb_buf_printf(b, " %6.2f%c%c", r[NAIVE].median / r[GRID_AUTO].median, mark,
			      c->beaten ? '!' : ' ');
	}
}

/*
 * At each (count, size): the naive loop, the plain one-thread path
 * (direct64) and AUTO's plan, in alternating rounds.  What AUTO takes
 * should be at least the naive loop everywhere: this is the table that
 * says so, or not.
 */
static int speed_grid(const struct kb_speed_opts *o, enum kb_format format,
		      struct kb_buf *b, char *err, size_t errlen)
{
	unsigned threads = o->threads ? o->threads : kb_cpu_count(), bits, lc;
	struct kb_buf beaten = { 0 };
	unsigned nbeaten = 0;
	int first = 1;

	grid_head(format, threads, o->hashes || o->engine, b);
	for (lc = GRID_COUNT_MIN; lc <= GRID_COUNT_MAX; lc += GRID_STEP) {
		if (format == KB_FORMAT_TEXT)
			kb_buf_printf(b, "%6s%-2u", "2^", lc);
		for (bits = GRID_BITS_MIN; bits <= GRID_BITS_MAX; bits += GRID_STEP) {
			struct grid_cell c;

			if (grid_measure(o, lc, bits, &c, err, errlen) < 0) {
				kb_buf_free(&beaten);
				return -1;
			}
			grid_print(&c, bits, format, first, b);
			first = 0;
			if (c.beaten && ++nbeaten)
				kb_buf_printf(&beaten, "  2^%u keys, 2^%u buckets: %s %.2fx AUTO's %s (median)\n",
					      lc, bits, kb_engine_path_name((enum kb_engine_path)c.best_other),
					      c.r[GRID_AUTO].median / c.r[c.best_other].median,
					      kb_engine_path_name(c.plan.path));
		}
		if (format == KB_FORMAT_TEXT)
			kb_buf_printf(b, "\n");
	}
	if (format == KB_FORMAT_JSON)
		kb_buf_printf(b, "\n    ]}");
	if (format == KB_FORMAT_TEXT)
		kb_buf_printf(b, "cells where another path beat AUTO past the noise: %u%s%s", nbeaten,
			      "\n", beaten.len ? beaten.data : "");
	kb_buf_free(&beaten);
	return 0;
}

static uint64_t grid_steps(void)
{
	return (uint64_t)((GRID_COUNT_MAX - GRID_COUNT_MIN) / GRID_STEP + 1) *
	       ((GRID_BITS_MAX - GRID_BITS_MIN) / GRID_STEP + 1) * GRID_ROWS * ENGINE_TRIALS;
}

/* Timings the engine part makes: every path shown and the naive loop, at
 * every size, every round (-1 with a reason when a plan cannot be made). */
static int64_t engine_steps(const struct kb_speed_opts *o, char *err, size_t errlen)
{
	int64_t n = 0;
	size_t i;
	unsigned l;

	for (i = 0; i < ENGINE_SIZES; i++) {
		struct kb_engine_plan plan;

		if (engine_plan(o, engine_bits[i], &plan, err, errlen) < 0)
			return -1;
		for (l = 0; l < KB_PATH_COUNT_; l++)
			n += figure_shown(l, engine_bits[i], plan.path);
	}
	return n * ENGINE_TRIALS;
}

double kb_speed_engine_seconds(const struct kb_speed_opts *o)
{
	if (!o->engine)
		return 0;
	return (double)o->engine_keys * ENGINE_SIZES * KB_PATH_COUNT_ * ENGINE_TRIALS *
	       KB_NS_PER_HASH / 1e9;
}

int kb_speed_run(const struct kb_speed_opts *o, enum kb_format format,
		 struct kb_buf *out, char *err, size_t errlen)
{
	size_t rows[256], nrows = hash_rows(rows, 256);
	int64_t steps = o->engine ? engine_steps(o, err, errlen) : 0;

	if (steps < 0)
		return -1;
	kb_progress_expect(o->progress, (o->hashes ? nrows : 0) + (uint64_t)steps +
					(o->grid ? grid_steps() : 0) +
					(o->strings ? kb_speed_string_steps() : 0));
	if (format == KB_FORMAT_JSON) {
		kb_json_doc_head(out, KB_DOC_SPEED);
		kb_buf_printf(out, "  \"generator\": \"khash-bench %s\",\n", lkh_version_string());
	}
	if (o->hashes && speed_hashes(o, format, out, rows, nrows, err, errlen) < 0)
		return -1;
	if (o->engine && speed_engine(o, format, out, err, errlen) < 0)
		return -1;
	if (o->grid && speed_grid(o, format, out, err, errlen) < 0)
		return -1;
	if (o->strings)
		kb_speed_strings(o, format, o->hashes || o->engine || o->grid, out);
	if (format == KB_FORMAT_JSON)
		kb_buf_printf(out, "\n}\n");
	return 0;
}
