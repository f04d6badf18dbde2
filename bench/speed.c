/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "speed.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <khash/lkh.h>

#include "keysets.h"
#include "skew.h"
#include "speed_loops.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#define INPUTS 4096

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
	double ns;      /* per hash, best of 5 */
	double cycles;  /* TSC ticks per hash, 0 where there is no TSC */
};

/*
 * Time `calls` hashes per round, rounds grown until one takes min_seconds,
 * then the best of five: the least disturbed by whatever else runs.
 */
static struct timing time_fn(const struct kb_speed_fn *f, int latency,
			     const uint64_t *in, unsigned bits, double min_s)
{
	struct timing best = { 1e30, 0 };
	size_t reps = 1, r;
	int trial;

	for (;;) {
		double t0 = now();

		for (r = 0; r < reps; r++)
			sink += latency ? f->lat(in[r % INPUTS], INPUTS, bits)
					: f->tput(in, INPUTS, bits);
		if (now() - t0 >= min_s / 5 || reps > (1u << 24))
			break;
		reps *= 2;
	}
	for (trial = 0; trial < 5; trial++) {
		double t0 = now(), dt;
		uint64_t c0 = ticks(), dc;

		for (r = 0; r < reps; r++)
			sink += latency ? f->lat(in[r % INPUTS], INPUTS, bits)
					: f->tput(in, INPUTS, bits);
		dt = now() - t0;
		dc = ticks() - c0;
		if (dt * 1e9 / ((double)reps * INPUTS) < best.ns) {
			best.ns = dt * 1e9 / ((double)reps * INPUTS);
			best.cycles = (double)dc / ((double)reps * INPUTS);
		}
	}
	return best;
}

static const struct kb_speed_fn *reference_for(const struct kb_speed_fn *t,
					       size_t n,
					       const struct kb_speed_fn *f)
{
	size_t i;

	/* the 64-bit product for 64-bit words, the 32-bit one otherwise;
	 * the old chain is compared with the old plain multiply */
	for (i = 0; i < n; i++)
		if (t[i].reference && f != &t[i] &&
		    (strstr(f->func, "old product") ? !strcmp(t[i].gen, "old")
		     : strcmp(t[i].gen, "ref") == 0 &&
			       t[i].word == (strcmp(f->func, "hash_32") == 0 ||
						     (f->word == 32)
					     ? 32u
					     : 64u)))
			return &t[i];
	return NULL;
}

static void speed_hashes(const struct kb_speed_opts *o, int csv,
			 struct kb_buf *b)
{
	size_t ni, ne, i;
	const struct kb_speed_fn *ti = kb_speed_inline(&ni);
	const struct kb_speed_fn *te = kb_speed_exported(&ne);
	static uint64_t in[INPUTS];
	struct timing ref_tp[64], ref_lat[64];
	uint64_t seed = 42;

	for (i = 0; i < INPUTS; i++)
		in[i] = kb_splitmix64(&seed);
	for (i = 0; i < ni && i < 64; i++) {
		ref_tp[i] = time_fn(&ti[i], 0, in, o->bits, o->min_seconds);
		ref_lat[i] = time_fn(&ti[i], 1, in, o->bits, o->min_seconds);
	}
	if (csv)
		kb_buf_printf(b, "schema,func,gen,word,bits,inline_ns,inline_tsc,inline_vs_ref,exported_ns,exported_vs_ref,latency_ns,latency_vs_ref\n");
	else {
		kb_buf_printf(b, "Hash speed, bits = %u: ns per hash (best of 5), and the ratio of throughput\n", o->bits);
		kb_buf_printf(b, "to the hand-written reference loop in the same binary (>= 1.00: as fast)\n\n");
		kb_buf_printf(b, "%-29s %-6s %-4s | %8s %7s %6s | %8s %6s | %8s %6s\n",
			      "function", "gen", "word", "inline", "TSC/h", "x ref",
			      "exported", "x ref", "latency", "x ref");
	}
	for (i = 0; i < ni && i < 64; i++) {
		const struct kb_speed_fn *ref = reference_for(ti, ni, &ti[i]);
		size_t r = ref ? (size_t)(ref - ti) : i;
		struct timing ex = time_fn(&te[i], 0, in, o->bits, o->min_seconds);
		double rt = ref_tp[r].ns / ref_tp[i].ns, re = ref_tp[r].ns / ex.ns;
		double rl = ref_lat[r].ns / ref_lat[i].ns;

		if (csv)
			kb_buf_printf(b, "1,%s,%s,%u,%u,%.4f,%.3f,%.3f,%.4f,%.3f,%.4f,%.3f\n",
				      ti[i].func, ti[i].gen, ti[i].word, o->bits,
				      ref_tp[i].ns, ref_tp[i].cycles, rt, ex.ns,
				      re, ref_lat[i].ns, rl);
		else
			kb_buf_printf(b, "%-29s %-6s %-4u | %8.3f %7.2f %6.2f | %8.3f %6.2f | %8.3f %6.2f\n",
				      ti[i].func, ti[i].gen, ti[i].word,
				      ref_tp[i].ns, ref_tp[i].cycles, rt, ex.ns,
				      re, ref_lat[i].ns, rl);
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

int kb_speed_run(const struct kb_speed_opts *o, const char *format,
		 struct kb_buf *out, char *err, size_t errlen)
{
	int csv = strcmp(format, "csv") == 0;

	if (o->hashes)
		speed_hashes(o, csv, out);
	if (o->engine && speed_engine(o, csv, out, err, errlen) < 0)
		return -1;
	return 0;
}
