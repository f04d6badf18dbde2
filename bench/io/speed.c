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
		kb_buf_printf(b, "%-29s %-6s %-4u | %8.3f %7.2f %6.2f | %8.3f %6.2f | %8.3f %6.2f\n",
			      func, gen, ti[i].word, tp.ns, tp.cycles,
			      tp_ref.ns / tp.ns, ex.ns, ex_ref.ns / ex.ns, lat.ns,
			      lat_ref.ns / lat.ns);
}

static void speed_hashes(const struct kb_speed_opts *o, int csv,
			 struct kb_buf *b)
{
	/* hash_long is hash_64 or hash_32 under another name: not timed */
	static const lkh_func shown[] = { LKH_FUNC_HASH_32, LKH_FUNC_HASH_64,
					  LKH_FUNC_HASH_PTR };
	size_t ni, ne, i, f;
	unsigned w;
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
		kb_buf_printf(b, "%-29s %-6s %-4s | %8s %7s %6s | %8s %6s | %8s %6s\n",
			      "function", "gen", "word", "inline", "TSC/h", "x ref",
			      "exported", "x ref", "latency", "x ref");
	}
	/* references first, then function by function: old beside new */
	for (i = 0; i < ni && i < ne; i++)
		if (ti[i].reference)
			speed_row(o, csv, b, in, ti, te, i);
	for (f = 0; f < sizeof(shown) / sizeof(shown[0]); f++)
		for (w = 64; w >= 32; w -= 32)
			for (i = 0; i < ni && i < ne; i++)
				if (!ti[i].reference && !ti[i].label &&
				    ti[i].func == shown[f] && ti[i].word == w &&
				    (shown[f] != LKH_FUNC_HASH_32 || w == 32))
					speed_row(o, csv, b, in, ti, te, i);
	for (i = 0; i < ni && i < ne; i++)
		if (!ti[i].reference && ti[i].label)
			speed_row(o, csv, b, in, ti, te, i);
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

static int speed_engine(const struct kb_speed_opts *o, int csv,
			struct kb_buf *b, char *err, size_t errlen)
{
	static const unsigned bits_list[] = { 11, 16, 20, 22, 24 };
	struct kb_hashspec spec = { LKH_FUNC_HASH_64, LKH_GEN_NEW, 64 };
	struct kb_keyset_params p;
	size_t i;

	if (csv)
		kb_buf_printf(b, "schema,bits,keys,naive_keys_per_s,engine_keys_per_s,threads,speedup\n");
	else
		kb_buf_printf(b, "\nCounting engine: %llu page4k keys through new hash_64, keys/s (best of 3)\n"
				 "%5s | %14s | %14s | %7s | %7s\n",
			      o->engine_keys, "bits", "naive loop", "engine",
			      "threads", "speedup");
	memset(&p, 0, sizeof(p));
	p.count = o->engine_keys;
	p.word = 64;
	p.input_bits = 64;
	for (i = 0; i < sizeof(bits_list) / sizeof(bits_list[0]); i++) {
		unsigned bits = bits_list[i], threads = o->threads ? o->threads
								     : kb_cpu_count();
		uint64_t *counts = calloc((size_t)1 << bits, sizeof(uint64_t));
		double best_naive = 1e30, best_engine = 1e30;
		struct kb_keystream ks;
		int trial;

		if (!counts) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (kb_keystream_open(&ks, KB_KS_PAGE4K, &p, err, errlen) < 0) {
			free(counts);
			return -1;
		}
		for (trial = 0; trial < 3; trial++) {
			double t0 = now(), t1;

			memset(counts, 0, sizeof(uint64_t) << bits);
			sink += naive_count(p.count, bits, counts);
			t1 = now();
			if (t1 - t0 < best_naive)
				best_naive = t1 - t0;
			memset(counts, 0, sizeof(uint64_t) << bits);
			t0 = now();
			if (kb_count_parallel(&spec, 1, bits, &ks, o->threads,
					      counts, err, errlen) < 0) {
				free(counts);
				kb_keystream_close(&ks);
				return -1;
			}
			t1 = now();
			if (t1 - t0 < best_engine)
				best_engine = t1 - t0;
		}
		kb_keystream_close(&ks);
		free(counts);
		if (csv)
			kb_buf_printf(b, "1,%u,%llu,%.4g,%.4g,%u,%.3f\n", bits,
				      o->engine_keys, p.count / best_naive,
				      p.count / best_engine, threads,
				      best_naive / best_engine);
		else
			kb_buf_printf(b, "%5u | %10.3f G/s | %10.3f G/s | %7u | %6.2fx\n",
				      bits, p.count / best_naive / 1e9,
				      p.count / best_engine / 1e9, threads,
				      best_naive / best_engine);
	}
	return 0;
}

int kb_speed_run(const struct kb_speed_opts *o, enum kb_format format,
		 struct kb_buf *out, char *err, size_t errlen)
{
	int csv = format == KB_FORMAT_CSV;

	if (o->hashes)
		speed_hashes(o, csv, out);
	if (o->engine && speed_engine(o, csv, out, err, errlen) < 0)
		return -1;
	return 0;
}
