#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The results tables of bench/FINDINGS.md (real kernel keys): run khash-bench over the
# committed kernel key files, old against new hash_ptr() (and, with
# --func, any other function), and print a markdown table.  No kernel
# needed.
#
# usage: report.sh [KHASH_BENCH] [--func F] [--bits "8 10 11 12"]
#   KHASH_BENCH  path of the khash-bench binary (default: khash-bench
#                in PATH, else build/bench/khash-bench)
# Cells: chi-squared / degrees of freedom, then buckets used / buckets,
# and the khash-bench verdict when it is not "ok" (even: more even than
# random, p_lower < alpha; skewed: p_upper < alpha; broken: X2/df >= 10).

set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
data=$top/tests/data/kernel-keys/6.1

kb="" func=hash_ptr bits="8 10 11 12"
while [ $# -gt 0 ]; do
	case "$1" in
	--func) func=$2; shift 2 ;;
	--bits) bits=$2; shift 2 ;;
	-*) echo "usage: $0 [KHASH_BENCH] [--func F] [--bits LIST]" >&2; exit 2 ;;
	*) kb=$1; shift ;;
	esac
done
if [ -z "$kb" ]; then
	kb=$(command -v khash-bench || echo "$top/build/bench/khash-bench")
fi
[ -x "$kb" ] || { echo "$0: no khash-bench at $kb" >&2; exit 2; }

kinds="page struct_page kmalloc_192 kmalloc_256 cache_104 inode dentry file"

# cell FILE GEN WORD BITS: "X2/df · used/buckets[ verdict]"
cell() {
	"$kb" skew --func "$func" --gen "$2" --word "$3" --bits "$4" \
		--keys "$1" --format csv |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		 { v = $c["verdict"]
		   x = $c["chi2_per_df"] + 0
		   f = x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : "%.2f"
		   printf f " · %d/%d%s", x, $c["used"], $c["buckets"],
			  (v == "ok" ? "" : " " v) }'
}

printf '| arch | kind | keys | %s gen |' "$func"
for b in $bits; do printf ' bits %s |' "$b"; done
printf '\n| --- | --- | --- | --- |'
for b in $bits; do printf ' --- |'; done
printf '\n'
for arch in x86_64 i386; do
	case $arch in x86_64) word=64 ;; *) word=32 ;; esac
	for kind in $kinds; do
		f=$data/$arch/$kind.txt
		[ -f "$f" ] || continue
		n=$(grep -vc '^#' "$f")
		for gen in old new; do
			printf '| %s | %s | %s | %s |' "$arch" "$kind" "$n" "$gen"
			for b in $bits; do
				printf ' %s |' "$(cell "$f" $gen $word "$b")"
			done
			printf '\n'
		done
	done
done
