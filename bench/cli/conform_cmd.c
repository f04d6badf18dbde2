/* SPDX-License-Identifier: MIT */
/*
 * khash-bench conform: a user's function (--source, --call) against every
 * cell of hash.h, what it does to a table, and an exit status a port's CI
 * can gate on.  The function runs only in child processes (user_hash.c);
 * each run is one stage, so that a failure names the stage it ended.
 */
#include "cli_args.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "conform.h"
#include "conform_render.h"
#include "keysets.h"
#include "user_hash.h"

/* A failed run as the user reads it: UBSan's stop (it exits, having
 * printed its report) said as such. */
static void run_text(const struct kb_args *a, const struct kb_user_run *r, char *out, size_t len)
{
	/* gcc's UBSan reports and exits; clang's traps (user_hash.c) */
	if (a->user.ubsan && !r->loading &&
	    (r->end == KB_USER_EXIT || (r->end == KB_USER_SIGNAL && r->sig == SIGILL)))
		snprintf(out, len, "the function hit undefined behaviour (%s) on key 0x%llx, bits %u",
			 r->end == KB_USER_EXIT ? "UBSan's report above" : "UBSan's trap, SIGILL",
			 (unsigned long long)r->key, r->bits);
	else
		kb_user_run_text(r, a->timeout, out, len);
}

/* bits 1..bits_hi of every key: 1..32 must run, 33..64 may fail (a
 * function of 32 bits may shift by a negative count there), which *high
 * then says. */
static int eval_keys(const struct kb_args *a, const struct kb_user_hash *u,
		     const struct kb_conform_keys *k, uint64_t *vals, unsigned *bits_hi,
		     char *high, size_t highlen)
{
	uint64_t *part = malloc(k->n * 32 * sizeof(*part));
	struct kb_user_run r;
	char why[256];
	size_t i;

	if (!part)
		return kb_fail(KB_EXIT_RUNTIME, "out of memory for %zu keys", k->n);
	kb_user_eval_guarded(u, k->keys, k->n, 1, 32, part, a->timeout, &r);
	if (r.end != KB_USER_OK) {
		run_text(a, &r, why, sizeof(why));
		free(part);
		return kb_fail(KB_EXIT_RUNTIME, "%s", why);
	}
	for (i = 0; i < k->n; i++)
		memcpy(vals + i * 64, part + i * 32, 32 * sizeof(*part));
	kb_user_eval_guarded(u, k->keys, k->n, 33, 64, part, a->timeout, &r);
	if (r.end == KB_USER_OK) {
		for (i = 0; i < k->n; i++)
			memcpy(vals + i * 64 + 32, part + i * 32, 32 * sizeof(*part));
		*bits_hi = 64;
	} else {
		run_text(a, &r, high, highlen);
		/* the rows, 32 values each */
		for (i = 0; i < k->n; i++)
			memmove(vals + i * 32, vals + i * 64, 32 * sizeof(*vals));
		*bits_hi = 32;
	}
	free(part);
	return 0;
}

/* The built-in key sets through the function, one run for all. */
static int eval_costs(const struct kb_args *a, const struct kb_user_hash *u, struct kb_conform *c)
{
	const unsigned nb = KB_CONFORM_COST_BITS_HI - KB_CONFORM_COST_BITS_LO + 1;
	unsigned mask = kb_conform_cost_keysets();
	uint64_t *keys = NULL, *vals = NULL, *counts = NULL, *one;
	size_t n = 0, got, at[KB_KS_COUNT] = { 0 }, len[KB_KS_COUNT] = { 0 };
	struct kb_keyset_params p;
	struct kb_user_run r;
	char err[512];
	int id, rc = 0;

	memset(&p, 0, sizeof(p));
	p.count = KB_CONFORM_COST_KEYS;
	p.seed = a->kp.seed;
	p.word = a->word;
	p.input_bits = a->word;
	for (id = 0; id < KB_KS_COUNT && !rc; id++) {
		uint64_t *grown;

		if (!(mask & 1u << id) || !kb_keyset_available(id))
			continue;
		/* a set that does not fit the word (page2m's 4096 keys pass
		 * 2^32) has no cost there, as report's cell says n/a */
		if (kb_keyset_collect(id, &p, &one, &got, err, sizeof(err)) < 0)
			continue;
		if (!(grown = realloc(keys, (n + got) * sizeof(*keys)))) {
			free(one);
			rc = kb_fail(KB_EXIT_RUNTIME, "out of memory for the key sets");
			break;
		}
		keys = grown;
		memcpy(keys + n, one, got * sizeof(*keys));
		free(one);
		at[id] = n;
		len[id] = got;
		n += got;
	}
	if (!rc && (!(vals = malloc(n * nb * sizeof(*vals))) ||
		    !(counts = malloc(sizeof(*counts) << KB_CONFORM_COST_BITS_HI))))
		rc = kb_fail(KB_EXIT_RUNTIME, "out of memory for the key sets");
	if (!rc) {
		kb_user_eval_guarded(u, keys, n, KB_CONFORM_COST_BITS_LO, KB_CONFORM_COST_BITS_HI, vals,
				     a->timeout, &r);
		if (r.end != KB_USER_OK) {
			run_text(a, &r, err, sizeof(err));
			rc = kb_fail(KB_EXIT_RUNTIME, "%s", err);
		}
	}
	for (id = 0; id < KB_KS_COUNT && !rc; id++)
		if (len[id] && c->ncost < sizeof(c->cost) / sizeof(c->cost[0]))
			kb_conform_cost_of(id, keys + at[id], len[id], vals + at[id] * nb, a->word,
					   counts, &c->cost[c->ncost++]);
	free(keys);
	free(vals);
	free(counts);
	return rc;
}

/* --ubsan: bits 0, which the kernel leaves undefined (a shift by the
 * word), tried on key 1 alone. */
static void try_bits0(const struct kb_args *a, const struct kb_user_hash *u,
		      struct kb_conform_view *v)
{
	static const uint64_t key = 1;
	struct kb_user_run r;

	v->bits0 = -1;
	if (!a->user.ubsan)
		return;
	kb_user_eval_guarded(u, &key, 1, 0, 0, &v->bits0_value, a->timeout, &r);
	v->bits0 = r.end != KB_USER_OK;
}

int kb_cmd_conform(struct kb_args *a)
{
	static struct kb_conform c;
	struct kb_conform_view v;
	struct kb_conform_keys k;
	struct kb_user_hash u;
	struct kb_buf b = { 0 };
	unsigned func_mask, word_mask = 3, bits_hi = 0;
	uint64_t *vals = NULL;
	char err[1024], high[256];
	int usage, rc;

	/* --gen K needs --multiplier, which conform does not take: a gen
	 * given is hash.h's */
	/* --func takes only the functions with bits (parse_func) */
	func_mask = KB_GIVEN(a, FUNC) ? 1u << a->func : ~0u;
	if (KB_GIVEN(a, WORD))
		word_mask = a->word == 32 ? 1 : 2;
	if (kb_user_load(&a->user, &u, &usage, err, sizeof(err)) < 0)
		return kb_fail(usage ? KB_EXIT_USAGE : KB_EXIT_RUNTIME, "%s", err);
	if (kb_conform_keys_make(&k, a->kp.seed) < 0) {
		kb_user_unload(&u);
		return kb_fail(KB_EXIT_RUNTIME, "out of memory for the keys");
	}
	memset(&v, 0, sizeof(v));
	high[0] = '\0';
	if (!(vals = malloc(k.n * 64 * sizeof(*vals))))
		rc = kb_fail(KB_EXIT_RUNTIME, "out of memory for %zu keys", k.n);
	else
		rc = eval_keys(a, &u, &k, vals, &bits_hi, high, sizeof(high));
	if (!rc) {
		kb_conform_judge(&k, vals, bits_hi, func_mask, word_mask, &c);
		rc = eval_costs(a, &u, &c);
	}
	if (!rc) {
		try_bits0(a, &u, &v);
		v.name = u.name;
		v.file = a->user.file;
		v.expr = a->user.expr;
		v.c = &c;
		v.gen = KB_GIVEN(a, GEN) ? a->gen : -1;
		v.word = a->word;
		v.high = high[0] ? high : NULL;
		kb_render_conform(&v, a->format, &b);
		rc = kb_emit(a, &b);
		if (!rc && !kb_conform_passes(&c, v.gen))
			rc = 1;
	}
	free(vals);
	kb_conform_keys_free(&k);
	kb_user_unload(&u);
	return rc;
}
