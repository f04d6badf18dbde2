/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "speed.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <khash/lkh.h>

#include "keysets.h"
#include "engine.h"
#include "speed_loops.h"

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

struct timing {
	double ns;      /* per hash, fastest round */
	double cycles;  /* TSC ticks per hash, 0 where there is no TSC */
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

static struct timing time_once(const struct kb_speed_fn *f, int latency,
			       const uint64_t *in, unsigned bits, size_t reps)
{
	struct timing t;
	double t0 = now(), dt;
	uint64_t c0 = ticks();
	size_t r;

	for (r = 0; r < reps; r++)
		sink += latency ? f->lat(in[r % INPUTS], INPUTS, bits)
				: f->tput(in, INPUTS, bits);
	dt = now() - t0;
	t.ns = dt * 1e9 / ((double)reps * INPUTS);
	t.cycles = (double)(ticks() - c0) / ((double)reps * INPUTS);
	return t;
}

/*
 * Time f and its reference alternately, seven rounds each, and keep each
 * one's fastest: both see the same moments of the machine, so a noisy
 * neighbour or a clock change cannot favour one of them.
 */
static void time_pair(const struct kb_speed_fn *f, const struct kb_speed_fn *ref,
		      int latency, const uint64_t *in, unsigned bits,
		      double min_s, struct timing *tf, struct timing *tr)
{
	size_t rf = calibrate(f, latency, in, bits, min_s / 7);
	size_t rr = calibrate(ref, latency, in, bits, min_s / 7);
	int trial;

	tf->ns = tr->ns = 1e30;
	for (trial = 0; trial < 7; trial++) {
		struct timing a = time_once(f, latency, in, bits, rf);
		struct timing b = time_once(ref, latency, in, bits, rr);

		if (a.ns < tf->ns)
			*tf = a;
		if (b.ns < tr->ns)
			*tr = b;
	}
}

/* The text's gen column: as wide as the longest generation's name. */
static int gen_width(void)
{
	size_t w = strlen("gen"), g;

	for (g = 0; g < LKH_GEN_COUNT; g++)
		if (strlen(lkh_gen_name((lkh_gen)g)) > w)
			w = strlen(lkh_gen_name((lkh_gen)g));
	return (int)w;
}

/* One row: a cell (or reference) inline, exported and its latency. */
static void speed_row(const struct kb_speed_opts *o, int csv, struct kb_buf *b,
		      const uint64_t *in, const struct kb_speed_fn *ti,
		      const struct kb_speed_fn *te, size_t i)
{
	const struct kb_speed_fn *ref = &ti[ti[i].reference ? i : ti[i].ref];
	struct timing tp, tp_ref, ex, ex_ref, lat, lat_ref;
	const char *func = ti[i].label ? ti[i].label : lkh_func_name(ti[i].func);
	const char *gen = ti[i].reference ? "ref" : lkh_gen_name(ti[i].gen);

	time_pair(&ti[i], ref, 0, in, o->bits, o->min_seconds, &tp, &tp_ref);
	time_pair(&te[i], ref, 0, in, o->bits, o->min_seconds, &ex, &ex_ref);
	time_pair(&ti[i], ref, 1, in, o->bits, o->min_seconds, &lat, &lat_ref);
	if (csv)
		kb_buf_printf(b, "1,%s,%s,%u,%u,%.4f,%.3f,%.3f,%.4f,%.3f,%.4f,%.3f\n",
			      func, gen, ti[i].word, o->bits, tp.ns, tp.cycles,
			      tp_ref.ns / tp.ns, ex.ns, ex_ref.ns / ex.ns, lat.ns,
			      lat_ref.ns / lat.ns);
	else
		kb_buf_printf(b, "%-29s %-*s %-4u | %8.3f %7.2f %6.2f | %8.3f %6.2f | %8.3f %6.2f\n",
			      func, gen_width(), gen, ti[i].word, tp.ns, tp.cycles,
			      tp_ref.ns / tp.ns, ex.ns, ex_ref.ns / ex.ns, lat.ns,
			      lat_ref.ns / lat.ns);
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

static void speed_hashes(const struct kb_speed_opts *o, int csv,
			 struct kb_buf *b, const size_t *rows, size_t nrows)
{
	size_t ni, ne, i;
	const struct kb_speed_fn *ti = kb_speed_inline(&ni);
	const struct kb_speed_fn *te = kb_speed_exported(&ne);
	static uint64_t in[INPUTS];
	uint64_t seed = 42;

	for (i = 0; i < INPUTS; i++)
		in[i] = kb_splitmix64(&seed);
	if (csv)
		kb_buf_printf(b, "schema,func,gen,word,bits,inline_ns,inline_tsc,inline_vs_ref,exported_ns,exported_vs_ref,latency_ns,latency_vs_ref\n");
	else {
		kb_buf_printf(b, "Hash speed, bits = %u: ns per hash (fastest of 7 rounds), and each one's\n", o->bits);
		kb_buf_printf(b, "throughput relative to the hand-written reference loop timed alternately\n");
		kb_buf_printf(b, "with it in the same binary (1.00 = as fast; the reference rows are 1 by definition)\n\n");
		kb_buf_printf(b, "%-29s %-*s %-4s | %8s %7s %6s | %8s %6s | %8s %6s\n",
			      "function", gen_width(), "gen", "word", "inline", "TSC/h", "x ref",
			      "exported", "x ref", "latency", "x ref");
	}
	for (i = 0; i < nrows; i++) {
		speed_row(o, csv, b, in, ti, te, rows[i]);
		kb_progress_add(o->progress, 1);
	}
}

/* The naive loop the issue measured: generate a key, hash it, count it. */
static uint64_t naive_count(uint64_t n, unsigned bits, uint64_t *counts)
{
	unsigned shift = 64 - bits;
	uint64_t i, k = UINT64_C(0xffff888000000000);

	for (i = 0; i < n; i++, k += 4096)
		counts[k * LKH_GOLDEN_RATIO_64 >> shift]++;
	return counts[0];
}

#define ENGINE_TRIALS 5
/* the table sizes the engine is timed at: in L1, in L2, in L3, half of
 * L3 in u32 (the naive loop still fits), past L3 */
static const unsigned engine_bits[] = { 11, 16, 20, 22, 24 };
#define ENGINE_SIZES (sizeof(engine_bits) / sizeof(engine_bits[0]))

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Fastest and median of n times, as keys per second. */
static void best_median(double *t, unsigned n, uint64_t keys, double *best,
			double *median)
{
	qsort(t, n, sizeof(*t), cmp_double);
	*best = keys / t[0];
	*median = keys / (n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2);
}

/* Whether a path is worth timing at this size: lanes past L2 would only
 * show that four u32 copies of a big table do not fit anywhere. */
static int path_shown(enum kb_engine_path path, unsigned bits)
{
	if (path == KB_PATH_FLOORSUM)
		return bits <= 16; /* seconds a round past that: a bucket costs ~1 us */
	if (path == KB_PATH_DIRECT)
		return bits <= 16; /* one thread into u64: the naive loop again */
	return path != KB_PATH_LANES || (UINT64_C(16) << bits) <= kb_cache_bytes(2);
}

/*
 * The naive loop and every engine path at each table size, in rounds that
 * time each of them once (so a noisy moment hits all of them alike); the
 * engine's figure is the path AUTO picks when it enumerates the keys,
 * beside the others so that the choice can be checked on the machine at
 * hand, and floor sums (which count these keys without enumerating them).
 */
static int speed_engine(const struct kb_speed_opts *o, int csv,
			struct kb_buf *b, char *err, size_t errlen)
{
	enum { NAIVE = 0 }; /* row 0; rows 1.. are the paths */
	struct kb_hashspec spec = { LKH_FUNC_HASH_64, LKH_GEN_NEW, 64 };
	struct kb_keyset_params p;
	unsigned threads = o->threads ? o->threads : kb_cpu_count();
	size_t i;

	if (csv)
		kb_buf_printf(b, "schema,bits,keys,threads,loop,chosen,best_keys_per_s,median_keys_per_s,speedup_best,speedup_median\n");
	else
		kb_buf_printf(b, "\nCounting engine: %llu page4k keys through new hash_64 on %u thread%s,\n"
				 "caches L1d %llu KiB, L2 %llu KiB, L3 %llu KiB (the engine's choice of path rests on them),\n"
				 "G keys/s, best / median of %d rounds; speedup = engine / naive loop\n"
				 "%5s | %-13s | %-13s %-9s | %-13s | %s\n",
			      o->engine_keys, threads, threads == 1 ? "" : "s",
			      (unsigned long long)kb_cache_bytes(1) >> 10,
			      (unsigned long long)kb_cache_bytes(2) >> 10,
			      (unsigned long long)kb_cache_bytes(3) >> 10,
			      ENGINE_TRIALS, "bits", "naive loop", "engine", "(path)",
			      "speedup", "every path (best)");
	memset(&p, 0, sizeof(p));
	p.count = o->engine_keys;
	p.word = 64;
	p.input_bits = 64;
	for (i = 0; i < ENGINE_SIZES; i++) {
		unsigned bits = engine_bits[i], trial, l;
		enum kb_engine_path chosen = kb_engine_choose(1, bits, threads);
		uint64_t *counts = calloc((size_t)1 << bits, sizeof(uint64_t));
		double t[KB_PATH_COUNT_][ENGINE_TRIALS], best[KB_PATH_COUNT_],
			med[KB_PATH_COUNT_];
		struct kb_keystream ks;

		if (!counts) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (kb_keystream_open(&ks, KB_KS_PAGE4K, &p, err, errlen) < 0) {
			free(counts);
			return -1;
		}
		for (trial = 0; trial < ENGINE_TRIALS; trial++) {
			for (l = 0; l < KB_PATH_COUNT_; l++) {
				struct kb_engine_opts eo = { threads, (enum kb_engine_path)l, 0, NULL, 1 };
				double t0;

				if (l != NAIVE && !path_shown((enum kb_engine_path)l, bits))
					continue;
				memset(counts, 0, sizeof(uint64_t) << bits);
				t0 = now();
				if (l == NAIVE)
					sink += naive_count(p.count, bits, counts);
				else if (kb_count_parallel(&spec, 1, bits, &ks, &eo, counts,
							   err, errlen) < 0) {
					free(counts);
					kb_keystream_close(&ks);
					return -1;
				}
				t[l][trial] = now() - t0;
				kb_progress_add(o->progress, 1);
			}
		}
		kb_keystream_close(&ks);
		free(counts);
		for (l = 0; l < KB_PATH_COUNT_; l++)
			if (l == NAIVE || path_shown((enum kb_engine_path)l, bits))
				best_median(t[l], ENGINE_TRIALS, p.count, &best[l], &med[l]);
		if (csv) {
			for (l = 0; l < KB_PATH_COUNT_; l++)
				if (l == NAIVE || path_shown((enum kb_engine_path)l, bits))
					kb_buf_printf(b, "2,%u,%llu,%u,%s,%d,%.4g,%.4g,%.3f,%.3f\n",
						      bits, o->engine_keys, l == NAIVE ? 1 : threads,
						      l == NAIVE ? "naive" : kb_engine_path_name((enum kb_engine_path)l),
						      l == (unsigned)chosen, best[l], med[l],
						      best[l] / best[NAIVE], med[l] / med[NAIVE]);
			continue;
		}
		kb_buf_printf(b, "%5u | %5.3f / %5.3f | %5.3f / %5.3f %-9s | %5.2fx / %5.2fx |",
			      bits, best[NAIVE] / 1e9, med[NAIVE] / 1e9, best[chosen] / 1e9,
			      med[chosen] / 1e9, kb_engine_path_name(chosen),
			      best[chosen] / best[NAIVE], med[chosen] / med[NAIVE]);
		for (l = 1; l < KB_PATH_COUNT_; l++)
			if (path_shown((enum kb_engine_path)l, bits))
				kb_buf_printf(b, " %s %.3f", kb_engine_path_name((enum kb_engine_path)l),
					      best[l] / 1e9);
		kb_buf_printf(b, "\n");
	}
	return 0;
}

/* Timings the engine part makes: every shown path and the naive loop,
 * at every size, every round. */
static uint64_t engine_steps(void)
{
	uint64_t n = 0;
	size_t i;
	unsigned l;

	for (i = 0; i < ENGINE_SIZES; i++)
		for (l = 0; l < KB_PATH_COUNT_; l++)
			n += l == 0 || path_shown((enum kb_engine_path)l, engine_bits[i]);
	return n * ENGINE_TRIALS;
}

int kb_speed_run(const struct kb_speed_opts *o, enum kb_format format,
		 struct kb_buf *out, char *err, size_t errlen)
{
	int csv = format == KB_FORMAT_CSV;
	size_t rows[256], nrows = hash_rows(rows, 256);

	kb_progress_expect(o->progress, (o->hashes ? nrows : 0) +
					(o->engine ? engine_steps() : 0));
	if (o->hashes)
		speed_hashes(o, csv, out, rows, nrows);
	if (o->engine && speed_engine(o, csv, out, err, errlen) < 0)
		return -1;
	return 0;
}
