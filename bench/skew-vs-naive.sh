#!/bin/bash
# SPDX-License-Identifier: MIT
# Whole processes against the naive loop: `khash-bench skew` over 2^28
# page4k keys (new hash_64, 64-bit) as a process, start to exit, timed
# ROUNDS times at each table size, beside the naive single-thread loop
# (generate a page address, multiply, shift, increment a counter) that
# `khash-bench speed --part engine` times in its own binary.  skew is
# given --enumerate: page keys through one multiply would otherwise be
# counted by floor sums, without hashing a key.  Prints best
# and median of each and the speedups; figures only, never a verdict.
#
# Usage: bench/skew-vs-naive.sh [KHASH_BENCH] [ROUNDS]
set -euo pipefail
kb=${1:-build/release/bench/khash-bench}
rounds=${2:-5}
keys=268435456
sizes="11 16 20 22 24"
[ -x "$kb" ] || { echo "skew-vs-naive.sh: no khash-bench at $kb" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the naive loop's best and median, keys/s, from the engine benchmark
"$kb" speed --part engine --count "$keys" --format csv --quiet >"$tmp/speed.csv"

stats() { # seconds on stdin -> "best median"
	sort -g | awk '{t[NR] = $1} END {m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2; printf "%.3f %.3f\n", t[1], m}'
}

printf 'skew over %d page4k keys, new hash_64, whole processes: seconds, best / median of %d\n' "$keys" "$rounds"
printf '%5s | %-15s | %-15s | %s\n' bits "naive loop" "skew process" "speedup best / median"
for b in $sizes; do
	for _ in $(seq "$rounds"); do
		s=$(date +%s.%N)
		"$kb" skew --keyset page4k --func hash_64 --gen new --word 64 --bits "$b" \
			--count "$keys" --enumerate --quiet >/dev/null
		e=$(date +%s.%N)
		awk -v s="$s" -v e="$e" 'BEGIN {print e - s}'
	done | stats >"$tmp/skew"
	read -r sbest smed <"$tmp/skew"
	read -r nbest nmed < <(awk -F, -v b="$b" -v k="$keys" \
		'$2 == b && $5 == "naive" {printf "%.3f %.3f\n", k / $7, k / $8}' "$tmp/speed.csv")
	printf '%5s | %6s / %6s | %6s / %6s | %5.2fx / %5.2fx\n' "$b" "$nbest" "$nmed" \
		"$sbest" "$smed" "$(awk -v a="$nbest" -v b="$sbest" 'BEGIN {print a / b}')" \
		"$(awk -v a="$nmed" -v b="$smed" 'BEGIN {print a / b}')"
done
