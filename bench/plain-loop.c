/* SPDX-License-Identifier: MIT */
/*
 * The plain loop of bench/core/plain_loop.h built on its own, as a user
 * would build it: `cc -O2 -DBITS=16 -I include -I BUILD/include/khash
 * -I bench bench/plain-loop.c`.  Counts N page4k keys (the x86_64 direct map, a
 * page apart) into 2^BITS counters, ROUNDS times, and prints the best and
 * median seconds of a round (bench/engine-vs-plain.sh compares them with
 * khash-bench's own copy of the loop and with skew).
 *
 * Usage: plain-loop N ROUNDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/keysets.h"
#include "core/plain_loop.h"

#ifndef BITS
#error "build with -DBITS=N, the table's log2 size"
#endif

KB_PLAIN_LOOPS(one, uint32_t, BITS)

#ifdef __GNUC__
#define BARRIER(p) __asm__ volatile("" : : "r"(p) : "memory")
#else
#define BARRIER(p) ((void)(p))
#endif

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned long long n = argc == 3 ? strtoull(argv[1], NULL, 0) : 0;
	int rounds = argc == 3 ? atoi(argv[2]) : 0, r;
	uint32_t *count = calloc((size_t)1 << BITS, sizeof(*count));
	double t[64];

	if (n == 0 || n >> 32 || rounds < 1 || rounds > 64) {
		fprintf(stderr, "usage: plain-loop N ROUNDS (0 < N < 2^32, 1..64 rounds)\n");
		return 2;
	}
	if (!count) {
		fprintf(stderr, "plain-loop: out of memory\n");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		double t0;

		memset(count, 0, sizeof(*count) << BITS);
		t0 = now();
		BARRIER(count); /* the loop stays between the clocks */
		kb_plain_step_one(KB_X86_64_DIRECT_MAP, 4096, n, count);
		BARRIER(count);
		t[r] = now() - t0;
	}
	qsort(t, (size_t)rounds, sizeof(t[0]), by_value);
	/* the counts are read, so no round is optimised away */
	printf("%.6f %.6f %u\n", t[0],
	       rounds % 2 ? t[rounds / 2] : (t[rounds / 2 - 1] + t[rounds / 2]) / 2, count[0]);
	return 0;
}
