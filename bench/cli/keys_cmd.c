/* SPDX-License-Identifier: MIT */
/*
 * khash-bench keys: a built-in key set written as a key file.
 */
#include "cli_args.h"

#include <stdio.h>
#include <stdlib.h>

#include "cmd_common.h"
#include "keyfile.h"
#include "keysets.h"
#include "output.h"

/* keys' rough cost of a key, generated and written as text: 10M keys
 * into /dev/null took 0.39 s here (bench/RESULTS.md's machine). */
#define KEYS_NS_PER_KEY 40.0

/* Write a key set as a key file: text (0x hex, one a line) or --binary
 * little-endian u64, so any other machine reads the same keys. */
int kb_cmd_keys(struct kb_args *a)
{
	struct kb_keyset_params kp = a->kp;
	struct kb_keystream ks;
	struct kb_keywriter *w;
	uint64_t keys[KB_BLOCK];
	char err[512];
	size_t n;
	int rc = 0;

	if ((rc = kb_keyset_takes_options(a)))
		return rc;
	if ((rc = kb_check_heap_memory(a, 1u << a->keyset)))
		return rc;
	if ((rc = kb_affordable(a, (double)a->kp.count * KEYS_NS_PER_KEY / 1e9,
				kb_count_what(a, err, sizeof(err)))))
		return rc;
	kp.word = a->word;
	kp.input_bits = 64;
	/* keys' adversarial set is built against old unless --gen says */
	if ((rc = kb_target_cell(a, &kp, KB_GIVEN(a, FUNC) ? a->func : LKH_FUNC_HASH_64,
				 LKH_GEN_OLD)))
		return rc;
	if (kb_keystream_open(&ks, a->keyset, &kp, err, sizeof(err)) < 0)
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	w = malloc(sizeof(*w));
	if (!w || kb_keywriter_open(w, a->output, a->binary, err, sizeof(err)) < 0) {
		if (!w)
			snprintf(err, sizeof(err), "out of memory");
		kb_keystream_close(&ks);
		free(w);
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	}
	while (!rc && (n = kb_keystream_next(&ks, keys, KB_BLOCK)) > 0)
		rc = kb_keywriter_put(w, keys, n, err, sizeof(err));
	kb_keystream_close(&ks);
	if (rc)
		kb_keywriter_abort(w);
	else
		rc = kb_keywriter_commit(w, err, sizeof(err));
	free(w);
	return rc ? kb_fail(KB_EXIT_RUNTIME, "%s", err) : 0;
}
