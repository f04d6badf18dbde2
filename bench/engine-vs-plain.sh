#!/bin/bash
# SPDX-License-Identifier: MIT
# The engine against the plain loop a user writes, side by side in one run.
#
# At each table size, bench/plain-loop.c (the loop of bench/core/plain_loop.h:
# a page4k key stepped in a register, times new hash_64's multiplier, the
# top bits, a 32-bit counter) is built on its own with `cc -O2` and the
# size as a constant, then timed in alternating rounds with:
#   * khash-bench skew over the same keys (--enumerate: page keys through one
#     multiply would otherwise be counted by floor sums, without hashing a
#     key) as a whole process, start to exit, against the plain loop as a
#     whole process; and
#   * the plain loop's own loop time against khash-bench's copy of it (speed
#     --part engine's "naive" row, which the engine's speed-ups are quoted
#     against; speed runs once, before the sizes, not alternated with them):
#     that copy must be no slower.
# Prints best and median of each and their ratios; figures, never a verdict.
#
# Usage: bench/engine-vs-plain.sh [BUILD-DIR] [ROUNDS] [KEYS]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build/release}
rounds=${2:-5}
keys=${3:-268435456}
sizes="11 16 20 22 24"
kb=$build/bench/khash-bench
read -r -a cc <<<"${CC:-cc}" # CC="ccache gcc" is two words
[ -x "$kb" ] || { echo "engine-vs-plain.sh: no khash-bench at $kb" >&2; exit 2; }
[ -f "$build/include/khash/lkh_config.h" ] || { echo "engine-vs-plain.sh: $build is not a configured build" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

stats() { # numbers on stdin -> "best median"
	sort -g | awk '{t[NR] = $1} END {m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2; printf "%.3f %.3f\n", t[1], m}'
}
seconds() { # a command's wall time, start to exit
	local s e
	s=$(date +%s.%N)
	"$@" >/dev/null
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN {print e - s}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

for b in $sizes; do
	"${cc[@]}" -O2 -DBITS="$b" -I "$top/include" -I "$build/include/khash" -I "$top/bench" \
		"$top/bench/plain-loop.c" -o "$tmp/plain-$b"
done
# khash-bench's copy of the loop: keys per second, best and median
"$kb" speed --part engine --count "$keys" --format csv --quiet >"$tmp/speed.csv"

echo "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs; $("${cc[@]}" --version | head -1)"
for c in /sys/devices/system/cpu/cpu0/cache/index*; do # the data caches, as the engine reads them
	[ "$(cat "$c/type" 2>/dev/null)" = Instruction ] ||
		printf '  L%s %s\n' "$(cat "$c/level" 2>/dev/null)" "$(cat "$c/size" 2>/dev/null)"
done
printf '%d page4k keys, new hash_64, seconds, best / median of %d rounds\n' "$keys" "$rounds"
printf '%5s | %-15s %-15s %-11s | %-15s %-15s %s\n' bits "plain process" "skew process" \
	"skew x" "plain loop" "speed's copy" "copy x"
for b in $sizes; do
	: >"$tmp/p" && : >"$tmp/s" && : >"$tmp/l"
	for _ in $(seq "$rounds"); do
		seconds "$tmp/plain-$b" "$keys" 1 >>"$tmp/p"
		seconds "$kb" skew --keyset page4k --func hash_64 --gen new --word 64 --bits "$b" \
			--count "$keys" --enumerate --quiet >>"$tmp/s"
	done
	"$tmp/plain-$b" "$keys" "$rounds" | awk '{print $1, $2}' >"$tmp/l"
	read -r pb pm < <(stats <"$tmp/p")
	read -r sb sm < <(stats <"$tmp/s")
	read -r lb lm <"$tmp/l"
	awk -F, -v b="$b" -v k="$keys" '$2 == b && $5 == "naive" {printf "%.6f %.6f\n", k / $8, k / $9}' \
		"$tmp/speed.csv" >"$tmp/n"
	read -r nb nm <"$tmp/n" || { echo "engine-vs-plain.sh: speed printed no naive row at 2^$b" >&2; exit 1; }
	printf '%5s | %6s / %6s %6s / %6s %4sx/%4sx | %6.3f / %6.3f %6.3f / %6.3f %4sx/%4sx\n' "$b" \
		"$pb" "$pm" "$sb" "$sm" "$(ratio "$pb" "$sb")" "$(ratio "$pm" "$sm")" \
		"$lb" "$lm" "$nb" "$nm" "$(ratio "$lb" "$nb")" "$(ratio "$lm" "$nm")"
done
echo "skew x: plain process / skew process (the engine's speed-up as a user sees it);"
echo "copy x: the plain loop built alone / speed's copy of it (1 or more: the copy is no slower)"
