/* SPDX-License-Identifier: MIT */
/*
 * Everything a kernel developer should know about a multiplier K before
 * using it for x * K >> (w - bits): its bit pattern, the cost of a
 * shift-and-add chain, the continued fraction of K / 2^w (large partial
 * quotients mean some arithmetic progression of keys collapses), the
 * worst power-of-two-ish stride per table size, skew over the built-in
 * key sets, and the spectral test (spectral.h).
 */
#ifndef KB_AUDIT_H
#define KB_AUDIT_H

#include <stdint.h>

#include "keysets.h"
#include "spectral.h"

struct kb_preset {
	const char *name;
	uint64_t k;
	unsigned width;
	const char *what;
};

extern const struct kb_preset kb_presets[];
extern const unsigned kb_preset_count;

#define KB_AUDIT_CF_MAX 40
#define KB_AUDIT_BITS_MAX 16

struct kb_audit {
	uint64_t k;
	unsigned width;
	int odd;
	unsigned popcount, longest_run, naf_terms;
	unsigned cf_len;                   /* partial quotients a1.. */
	uint64_t cf[KB_AUDIT_CF_MAX];
	uint64_t cf_max;                   /* largest of the first cf_len */
	unsigned bits_min, bits_max;       /* the stride search's range */
	struct {
		uint64_t stride;
		double chi2_per_df;
	} worst[KB_AUDIT_BITS_MAX + 1];    /* by bits */
	double worst_overall;
	unsigned strides_broken;           /* table sizes whose worst stride
					    * has X^2/df >= KB_BROKEN */
	unsigned sets_bits;                /* table size of the key-set scan */
	uint64_t sets_keys;
	struct {
		int ok;
		double chi2_per_df;
		uint64_t used;
	} sets[KB_KS_COUNT];
	unsigned sets_broken;              /* X^2/df >= KB_BROKEN */
	struct kb_spectral spectral;       /* dimensions 2..8 (odd K only) */
};

/* Non-adjacent form: the fewest signed powers of two summing to k. */
unsigned kb_naf_terms(uint64_t k);

/* Partial quotients of k / 2^width (the leading 0 left out); returns how
 * many were written (stops at max or when the fraction ends). */
unsigned kb_continued_fraction(uint64_t k, unsigned width, uint64_t *q,
			       unsigned max);

/* The full audit; 0, or -1 (width not 32 or 64, k wider than width). */
int kb_audit_run(uint64_t k, unsigned width, struct kb_audit *a);

#endif
