/* SPDX-License-Identifier: MIT */
#include "progress_view.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define TICK_NS 250000000L /* four redraws a second at most */
#define QUIET_FOR 1.0      /* seconds of work before the first line */

struct kb_progress_view {
	struct kb_progress *p;
	const char *unit;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stop, drawn;
	struct timespec t0;
	pthread_t thread;
};

void kb_progress_si(double n, char *buf, size_t len)
{
	static const char prefix[] = " kMGTPE";
	unsigned i = 0;

	while (n >= 999.5 && i + 1 < sizeof(prefix) - 1) {
		n /= 1000;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.0f", n);
	else
		snprintf(buf, len, "%.*f %c", n < 9.995 ? 2 : n < 99.95 ? 1 : 0, n,
			 prefix[i]);
}

void kb_progress_clock(double seconds, char *buf, size_t len)
{
	unsigned long s = seconds < 0 ? 0 : (unsigned long)(seconds + 0.5);

	if (s >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%lu:%02lu", s / 60, s % 60);
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void draw(struct kb_progress_view *v, double elapsed)
{
	uint64_t done = __atomic_load_n(&v->p->done, __ATOMIC_RELAXED);
	uint64_t total = __atomic_load_n(&v->p->total, __ATOMIC_RELAXED);
	double rate = elapsed > 0 ? done / elapsed : 0;
	char d[32], t[32], r[32], left[32];

	kb_progress_si((double)done, d, sizeof(d));
	kb_progress_si((double)total, t, sizeof(t));
	kb_progress_si(rate, r, sizeof(r));
	if (total > done && rate > 0)
		kb_progress_clock((double)(total - done) / rate, left, sizeof(left));
	else
		snprintf(left, sizeof(left), "?");
	/* \r and erase-to-end: one line, rewritten */
	fprintf(stderr, "\r%s / %s %s (%.0f%%), %s/s, %s left\033[K", d, t,
		v->unit, total ? 100.0 * done / total : 0.0, r, left);
	fflush(stderr);
	v->drawn = 1;
}

static void *tick(void *arg)
{
	struct kb_progress_view *v = arg;

	pthread_mutex_lock(&v->lock);
	while (!v->stop) {
		struct timespec until;
		double elapsed;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += TICK_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_nsec -= 1000000000L;
			until.tv_sec++;
		}
		if (pthread_cond_timedwait(&v->wake, &v->lock, &until) != ETIMEDOUT)
			continue;
		elapsed = since(&v->t0);
		if (elapsed >= QUIET_FOR)
			draw(v, elapsed);
	}
	pthread_mutex_unlock(&v->lock);
	return NULL;
}

struct kb_progress_view *kb_progress_view_start(struct kb_progress *p,
						const char *unit, int enabled)
{
	struct kb_progress_view *v;

	if (!enabled || !p || !isatty(STDERR_FILENO))
		return NULL;
	v = calloc(1, sizeof(*v));
	if (!v)
		return NULL; /* progress is a courtesy: the work goes on */
	v->p = p;
	v->unit = unit;
	clock_gettime(CLOCK_MONOTONIC, &v->t0);
	pthread_mutex_init(&v->lock, NULL);
	pthread_cond_init(&v->wake, NULL);
	if (pthread_create(&v->thread, NULL, tick, v) != 0) {
		pthread_mutex_destroy(&v->lock);
		pthread_cond_destroy(&v->wake);
		free(v);
		return NULL;
	}
	return v;
}

void kb_progress_view_stop(struct kb_progress_view *v)
{
	if (!v)
		return;
	pthread_mutex_lock(&v->lock);
	v->stop = 1;
	pthread_cond_signal(&v->wake);
	pthread_mutex_unlock(&v->lock);
	pthread_join(v->thread, NULL);
	if (v->drawn) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
	pthread_mutex_destroy(&v->lock);
	pthread_cond_destroy(&v->wake);
	free(v);
}
