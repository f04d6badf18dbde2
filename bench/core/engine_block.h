/* SPDX-License-Identifier: MIT */
/*
 * Included (without a guard) inside engine_paths.c's block functions, with LOOP
 * defined: runs LOOP over one block for the cell's product, once for an
 * arithmetic progression (KEY(i) = first + i * stride, no key array) and
 * once for an array of keys (KEY(i) = keys[i]).  The function provides s,
 * bk, keys, n, i and whatever LOOP uses.
 */
if (bk->progression) {
	uint64_t first = bk->first, stride = bk->stride;

#define KEY(i) (first + (uint64_t)(i) * stride)
	EACH_PRODUCT(s)
#undef KEY
} else {
#define KEY(i) (keys[i])
	EACH_PRODUCT(s)
#undef KEY
}
