#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The golden vectors of bench/core/kernel_hashes.c, computed by the
# kernel's own source: compiles TREE/include/linux/jhash.h and
# TREE/lib/siphash.c in userspace (a few shim headers stand in for the
# kernel's types and unaligned loads) for BITS_PER_LONG 64 and 32, and
# prints one CSV line per vector.
#
#   gen_kernel_hashes.sh TREE > tests/golden/kernel_hashes.csv
#   gen_kernel_hashes.sh --check TREE   (diff with the committed file)
#
# Columns: func, word (64, 32, or any), then for jhash_Nwords initval and
# the N words, for siphash and hsiphash the two key words and the input
# words, then the result.  The inputs are the kernel's own self-test inputs (bytes 0, 1, 2, ... and
# the test key 00 01 .. 0f) and a splitmix64 stream, so the vectors
# include the values lib/test_siphash.c checks.
set -euo pipefail

check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
[ $# = 1 ] || { echo "usage: $0 [--check] KERNEL-TREE" >&2; exit 2; }
tree=$1
for f in include/linux/jhash.h include/linux/siphash.h lib/siphash.c; do
	[ -f "$tree/$f" ] || { echo "$0: $tree/$f: no such file" >&2; exit 1; }
done
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/shim/linux/unaligned" "$tmp/shim/asm"

# Only what jhash.h and siphash.c use from the rest of the kernel.
cat >"$tmp/shim/linux/types.h" <<'H'
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef uint32_t __le32;
typedef uint64_t __le64;
#define __force
#define __aligned(n) __attribute__((aligned(n)))
#define fallthrough __attribute__((fallthrough))
H
cat >"$tmp/shim/linux/kernel.h" <<'H'
#pragma once
#include <linux/types.h>
#define IS_ENABLED(x) 0
#define IS_ALIGNED(x, a) (((x) & ((a) - 1)) == 0)
#define EXPORT_SYMBOL(x)
#define unlikely(x) (x)
static inline u32 rol32(u32 w, unsigned s) { return w << (s & 31) | w >> ((-s) & 31); }
static inline u64 rol64(u64 w, unsigned s) { return w << (s & 63) | w >> ((-s) & 63); }
H
echo '#include <linux/kernel.h>' >"$tmp/shim/linux/bitops.h"
cat >"$tmp/shim/asm/unaligned.h" <<'H'
#pragma once
#include <string.h>
#include <linux/types.h>
/* a little-endian build machine, as every Debian one that runs this is */
static inline u16 get_unaligned_le16(const void *p) { u16 v; memcpy(&v, p, 2); return v; }
static inline u32 get_unaligned_le32(const void *p) { u32 v; memcpy(&v, p, 4); return v; }
static inline u64 get_unaligned_le64(const void *p) { u64 v; memcpy(&v, p, 8); return v; }
#define le16_to_cpup(p) get_unaligned_le16(p)
#define le32_to_cpup(p) get_unaligned_le32(p)
#define le64_to_cpup(p) get_unaligned_le64(p)
#define le64_to_cpu(x) (x)
H
# (6.12 moved it to linux/unaligned.h)
echo '#include <asm/unaligned.h>' >"$tmp/shim/linux/unaligned.h"
cat >"$tmp/shim/linux/unaligned/packed_struct.h" <<'H'
#include <asm/unaligned.h>
#define __get_unaligned_cpu32(p) get_unaligned_le32(p)
H

cat >"$tmp/driver.c" <<'C'
#include <stdio.h>
#include <linux/jhash.h>
#include "siphash.c"

static u64 splitmix64(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int main(void)
{
	const unsigned word = BITS_PER_LONG;
	siphash_key_t sk = { { 0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull } };
	hsiphash_key_t hk;
	/* the key words a word-bit kernel's unsigned long holds */
	const unsigned long long mask = word == 64 ? ~0ull : 0xffffffffull;
	u64 seed = 2026, a, b, c;
	int i;

#if BITS_PER_LONG == 64
	hk.key[0] = 0x0706050403020100ul;
	hk.key[1] = 0x0f0e0d0c0b0a0908ul;
#else
	hk.key[0] = 0x03020100ul;
	hk.key[1] = 0x07060504ul;
#endif
	for (i = 0; i < 40; i++) {
		/* the self-test's bytes first, then random words */
		if (i == 0) {
			a = 0x0706050403020100ull;
			b = 0x0f0e0d0c0b0a0908ull;
			c = 0x1716151413121110ull;
		} else {
			a = splitmix64(&seed);
			b = splitmix64(&seed);
			c = splitmix64(&seed);
		}
		if (word == 64) {
			printf("jhash_1word,any,0x%x,0x%x,,,0x%x\n", (u32)b, (u32)a,
			       jhash_1word((u32)a, (u32)b));
			printf("jhash_2words,any,0x%x,0x%x,0x%x,,0x%x\n", (u32)a, (u32)c,
			       (u32)(c >> 32), jhash_2words((u32)c, (u32)(c >> 32), (u32)a));
			printf("jhash_3words,any,0x%x,0x%x,0x%x,0x%x,0x%x\n", (u32)(a >> 32),
			       (u32)b, (u32)(b >> 32), (u32)c,
			       jhash_3words((u32)b, (u32)(b >> 32), (u32)c, (u32)(a >> 32)));
			printf("siphash_1u64,any,0x%llx,0x%llx,0x%llx,,0x%llx\n",
			       (unsigned long long)sk.key[0], (unsigned long long)sk.key[1],
			       (unsigned long long)a,
			       (unsigned long long)siphash_1u64(a, &sk));
		}
		printf("hsiphash_1u32,%u,0x%llx,0x%llx,0x%x,,0x%x\n", word,
		       (unsigned long long)hk.key[0] & mask, (unsigned long long)hk.key[1] & mask,
		       (u32)a, hsiphash_1u32((u32)a, &hk));
		printf("hsiphash_2u32,%u,0x%llx,0x%llx,0x%x,0x%x,0x%x\n", word,
		       (unsigned long long)hk.key[0] & mask, (unsigned long long)hk.key[1] & mask,
		       (u32)a, (u32)(a >> 32), hsiphash_2u32((u32)a, (u32)(a >> 32), &hk));
		/* a new key for every later vector */
		sk.key[0] = splitmix64(&seed);
		sk.key[1] = splitmix64(&seed);
		hk.key[0] = (unsigned long)splitmix64(&seed);
		hk.key[1] = (unsigned long)splitmix64(&seed);
	}
	return 0;
}
C
{
	version=$(awk -F' = ' '$1 == "VERSION" {v = $2} $1 == "PATCHLEVEL" {p = $2}
		$1 == "SUBLEVEL" {s = $2; print v "." p "." s; exit}' "$tree/Makefile")
	echo "# computed by tests/golden/gen_kernel_hashes.sh from Linux $version's include/linux/jhash.h and lib/siphash.c"
	echo "func,word,a,b,c,d,expected"
	for bpl in 64 32; do
		# shellcheck disable=SC2086
		cc -std=gnu11 -O1 -w -DBITS_PER_LONG=$bpl -I"$tmp/shim" -I"$tree/include" \
			-I"$tree/lib" "$tmp/driver.c" -o "$tmp/gen$bpl"
		"$tmp/gen$bpl"
	done
} >"$tmp/out.csv"
if [ "$check" = 1 ]; then
	if diff -u <(grep -v '^#' "$here/kernel_hashes.csv") <(grep -v '^#' "$tmp/out.csv"); then
		echo "ok: $(grep -vc "^#\|^func," "$tmp/out.csv") vectors of tests/golden/kernel_hashes.csv agree with $tree"
	else
		echo "FAIL: tests/golden/kernel_hashes.csv differs from what $tree computes" >&2
		exit 1
	fi
else
	cat "$tmp/out.csv"
fi
