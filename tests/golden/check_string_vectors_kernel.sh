#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The `new` rows of tests/golden/string_vectors.csv against the kernel's own
# source: compiles the string-hash part of TREE/fs/namei.c (its
# CONFIG_DCACHE_WORD_ACCESS block, both branches), TREE/include/linux/
# stringhash.h, TREE/include/asm-generic/word-at-a-time.h and sunrpc's
# hash_str/hash_mem from TREE/include/linux/sunrpc/svcauth.h in userspace,
# with a byte-wise load_unaligned_zeropad in either byte order, for -m64
# and (where gcc-multilib is installed) -m32, and compares every row.
# Nothing of the tree is kept.  kernel/string-hashes.md section 11 has the
# results for Debian's linux-source-6.1 and -6.12.
#
#   check_string_vectors_kernel.sh TREE [string_vectors.csv]
#
# TREE needs only the five files above, e.g. for Debian's package:
#   tar -xJf /usr/src/linux-source-6.12.tar.xz --strip-components=1 -C TREE \
#     linux-source-6.12/{fs/namei.c,include/linux/stringhash.h,...}
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 KERNEL-TREE [string_vectors.csv]" >&2; exit 2; }
tree=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
csv=${2:-$here/string_vectors.csv}
for f in fs/namei.c include/linux/stringhash.h include/asm-generic/word-at-a-time.h \
	include/linux/sunrpc/svcauth.h; do
	[ -f "$tree/$f" ] || { echo "$0: $tree/$f: no such file" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The hash section of namei.c: the CONFIG_DCACHE_WORD_ACCESS block up to
# its own #endif (nested #if counted), without its include.
awk '/^#ifdef CONFIG_DCACHE_WORD_ACCESS/ && !on { on = 1 }
     on { if ($0 ~ /^#if/) depth++; if ($0 ~ /^#endif/) depth--;
          if ($0 !~ /#include/) print; if (depth == 0) exit }' \
	"$tree/fs/namei.c" >"$tmp/namei-hash.c"
sed -n '/^#define init_name_hash/,/^#define hashlen_create/p' \
	"$tree/include/linux/stringhash.h" >"$tmp/stringhash.h"
sed -n '/^#ifdef __BIG_ENDIAN/,/^#endif \/\* __BIG_ENDIAN \*\//p' \
	"$tree/include/asm-generic/word-at-a-time.h" >"$tmp/wat.h"
sed -n '/^static inline unsigned long hash_str/,/^}/p;/^static inline unsigned long hash_mem/,/^}/p' \
	"$tree/include/linux/sunrpc/svcauth.h" >"$tmp/sunrpc.h"
for f in namei-hash.c stringhash.h wat.h sunrpc.h; do
	[ -s "$tmp/$f" ] || { echo "$0: found no $f part in $tree" >&2; exit 1; }
done
# hash_name() takes the nameidata from v6.11 on, the salt before
if grep -q 'hash_name(struct nameidata' "$tmp/namei-hash.c"; then nd=1; else nd=0; fi

cat >"$tmp/harness.c" <<'C'
/* The kernel's definitions the hash section needs, written for userspace. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef uint32_t u32;
typedef uint64_t u64;
#define BITS_PER_LONG ((int)(sizeof(long) * 8))
#if UINTPTR_MAX > 0xffffffffu
#define CONFIG_64BIT 1
#endif
#define __pure
#define EXPORT_SYMBOL(x)
#define unlikely(x) (x)
#define likely(x) (x)
static inline u32 __hash_32(u32 v) { return v * 0x61C88647u; }
static inline u32 hash_32(u32 v, unsigned bits) { return __hash_32(v) >> (32 - bits); }
#define GOLDEN_RATIO_64 0x61C8864680B583EBull
#ifdef CONFIG_64BIT
#define hash_long(v, bits) ((u32)(((u64)(v) * GOLDEN_RATIO_64) >> (64 - (bits))))
#else
#define hash_long(v, bits) hash_32(v, bits)
#endif
static inline u64 rol64(u64 w, unsigned s) { return w << (s & 63) | w >> ((-s) & 63); }
static inline u32 rol32(u32 w, unsigned s) { return w << (s & 31) | w >> ((-s) & 31); }
#define REPEAT_BYTE(x) ((~0ul / 0xff) * (x))
static inline unsigned long __fls(unsigned long w) { return BITS_PER_LONG - 1 - __builtin_clzl(w); }
/* the C library's <endian.h> defines both names: the kernel defines one */
#undef __BIG_ENDIAN
#undef __LITTLE_ENDIAN
#ifdef SIM_BE
#define __BIG_ENDIAN 1
#define bytemask_from_count(cnt) (~(~0ul >> (cnt) * 8))
#else
#define __LITTLE_ENDIAN 1
#define bytemask_from_count(cnt) (~(~0ul << (cnt) * 8))
#endif
#include "stringhash.h"
#include "wat.h"
/* a whole word, in the simulated byte order; the buffers are zero-padded */
static unsigned long load_unaligned_zeropad(const void *p)
{
	const unsigned char *b = p;
	unsigned long a = 0;
	unsigned i;

	for (i = 0; i < sizeof(long); i++)
#ifdef SIM_BE
		a = a << 8 | b[i];
#else
		a |= (unsigned long)b[i] << 8 * i;
#endif
	return a;
}
struct nameidata { struct { void *dentry; } path; struct { u32 hash, len; } last; };
#include "namei-hash.c"
#include "sunrpc.h"
static u64 component(unsigned long salt, const char *name)
{
#if HASH_NAME_ND
	struct nameidata nd;
	unsigned long lastword;

	nd.path.dentry = (void *)salt;
	hash_name(&nd, name, &lastword);
	return hashlen_create(nd.last.hash, nd.last.len);
#else
	return hash_name((void *)salt, name);
#endif
}
int main(int argc, char **argv)
{
	char line[512], fn[32], gen[16], path[8], hex[256];
	unsigned word, bits, rows = 0, bad = 0;
	unsigned long long salt, want;
	FILE *f = fopen(argv[1], "r");

	while (f && fgets(line, sizeof(line), f)) {
		unsigned char buf[160] = {0};
		size_t len = 0;
		char *c;
		u64 got;

		for (c = line; *c; c++)
			if (*c == ',')
				*c = ' ';
		hex[0] = 0;
		if (sscanf(line, "%31s %15s %u %7s %llx %u =%255[0-9a-f] %llx", fn, gen, &word, path,
			   &salt, &bits, hex, &want) != 8 &&
		    sscanf(line, "%31s %15s %u %7s %llx %u = %llx", fn, gen, &word, path, &salt,
			   &bits, &want) != 7)
			continue;
		if (strcmp(gen, "new") || word != (unsigned)BITS_PER_LONG || strcmp(path, argv[2]))
			continue;
		for (c = hex; c[0] && c[1]; c += 2) {
			unsigned v;

			sscanf(c, "%2x", &v);
			buf[len++] = (unsigned char)v;
		}
		if (!strcmp(fn, "full_name_hash"))
			got = full_name_hash((void *)(unsigned long)salt, (char *)buf, len);
		else if (!strcmp(fn, "hashlen_string"))
			got = hashlen_string((void *)(unsigned long)salt, (char *)buf);
		else if (!strcmp(fn, "hash_name"))
			got = component(salt, (char *)buf);
		else if (!strcmp(fn, "hash_str"))
			got = hash_str((char *)buf, bits);
		else
			got = hash_mem((char *)buf, len, bits);
		rows++;
		if (got != want && bad++ < 5)
			printf("DIFF %s w%u %s salt %llx bits %u =%s: kernel %llx, csv %llx\n", fn,
			       word, argv[2], salt, bits, hex, (unsigned long long)got, want);
	}
	printf("%s, %d-bit, %s: %u rows, %u differ\n", argv[3], BITS_PER_LONG, argv[2], rows, bad);
	return bad || !rows;
}
C

status=0
for m in 64 32; do
	if ! echo 'int main(void){return 0;}' | gcc -m$m -x c - -o "$tmp/probe" 2>/dev/null; then
		echo "skip: gcc -m$m cannot link here (gcc-multilib)"
		continue
	fi
	for path in le be byte; do
		flags=("-DHASH_NAME_ND=$nd")
		[ $path = be ] && flags+=(-DSIM_BE)
		[ $path != byte ] && flags+=(-DCONFIG_DCACHE_WORD_ACCESS)
		gcc -O1 -w -m$m "${flags[@]}" -I"$tmp" "$tmp/harness.c" -o "$tmp/h" &&
			"$tmp/h" "$csv" $path "$tree" || status=1
	done
done
exit $status
