#!/bin/bash
# SPDX-License-Identifier: MIT
# khash-bench (issue 36): one rule for repeated keys in every command, no
# work started that cannot finish (or that is almost surely a typo)
# without saying so first, and the smaller promises of the command line.
set -uo pipefail
kb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# expect STATUS MESSAGE ARGS...: within 10 s (a regression fails, never
# hangs), the exit status and exact stderr, and nothing on stdout.
expect() {
	local want_status=$1 want_msg=$2 err status
	shift 2
	timeout 10 "$kb" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	err=$(cat "$tmp/err")
	if [ "$status" != "$want_status" ] || [ "$err" != "$want_msg" ] || [ -s "$tmp/out" ]; then
		echo "FAIL: khash-bench $*"
		echo "  status $status (want $want_status)"
		echo "  stderr: $err"
		echo "  wanted: $want_msg"
		count_failure
	else
		passed=$((passed + 1))
	fi
}
# field NAME FILE: the value of CSV column NAME in FILE's first data row
field() {
	awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) c = i }
		NR == 2 { print $c; exit }' "$2"
}

## One file, one verdict: a key file's repeats are dropped by every command
# 1500 slab objects, 700 of them twice: the verdict is the 1500's
"$kb" keys --keyset slab --count 1500 -o "$tmp/once.txt"
{ cat "$tmp/once.txt"; head -n 700 "$tmp/once.txt"; } >"$tmp/dups.txt"
cellargs=(--func hash_ptr --gen new --word 64 --bits 10 --format csv)
"$kb" skew --keys "$tmp/once.txt" "${cellargs[@]}" >"$tmp/once.csv"
"$kb" skew --keys "$tmp/dups.txt" "${cellargs[@]}" >"$tmp/skew.csv" 2>"$tmp/skew.err"
"$kb" report --keys "$tmp/dups.txt" --funcs hash_ptr --gens new --words 64 \
	--bits-min 10 --bits-max 10 --format csv >"$tmp/report.csv" 2>"$tmp/report.err"
"$kb" advise --keys "$tmp/dups.txt" "${cellargs[@]}" >"$tmp/advise.csv" 2>"$tmp/advise.err"
"$kb" explain --keys "$tmp/dups.txt" "${cellargs[@]}" >"$tmp/explain.csv" 2>"$tmp/explain.err"
want=$(field chi2_per_df "$tmp/once.csv")
# advise's row of the table's own hash (current = 1)
adv=$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["current"] == "1":
        print(r["n"], r["chi2_per_df"], r["verdict"])' "$tmp/advise.csv")
# explain's colliding pairs give X^2 back: sum c^2 = 2 shared + n, and
# X^2 = m sum c^2 / n - n
exp=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	{ n = $h["n"]; s = $h["shared"]; printf "%d %.6f\n", n, (1024 * (2 * s + n) / n - n) / 1023; exit }' "$tmp/explain.csv")
[ "$(field n "$tmp/skew.csv") $(field chi2_per_df "$tmp/skew.csv") $(field verdict "$tmp/skew.csv")" = "1500 $want $(field verdict "$tmp/once.csv")" ]
check "skew: repeats dropped, the distinct keys' X^2/df" $?
[ "$(field n "$tmp/report.csv") $(field chi2_per_df "$tmp/report.csv") $(field verdict "$tmp/report.csv")" = "1500 $want $(field verdict "$tmp/once.csv")" ]
check "report: the same X^2/df and verdict" $?
[ "$(echo "$adv" | awk '{ print $1, $3 }')" = "1500 $(field verdict "$tmp/once.csv")" ] &&
	awk -v a="$(echo "$adv" | awk '{ print $2 }')" -v w="$want" 'BEGIN { exit !(a - w < 1e-6 && w - a < 1e-6) }'
check "advise: the same X^2/df and verdict ($adv, want $want)" $?
awk -v e="$exp" -v w="$want" 'BEGIN { split(e, x, " "); exit !(x[1] == 1500 && x[2] - w < 1e-5 && w - x[2] < 1e-5) }'
check "explain: the same keys and colliding pairs ($exp, want $want)" $?
note="khash-bench: note: $tmp/dups.txt: 700 of its 2200 keys repeat an earlier key and are dropped (each key counted once)"
for c in skew report advise explain; do
	[ "$(cat "$tmp/$c.err")" = "$note" ]
	check "$c: a note says how many repeats were dropped" $?
done
[ "$(field keys_read "$tmp/skew.csv") $(field repeated "$tmp/skew.csv") $(field distinct "$tmp/skew.csv")" = "2200 700 yes" ]
check "skew csv: keys read, repeated, dropped" $?
"$kb" skew --keys "$tmp/dups.txt" "${cellargs[@]}" --keep-duplicates >"$tmp/keep.csv" 2>"$tmp/keep.err"
[ "$(field n "$tmp/keep.csv") $(field distinct "$tmp/keep.csv")" = "2200 no" ] &&
	grep -q 'are counted again (--keep-duplicates)$' "$tmp/keep.err"
check "skew --keep-duplicates counts every key read" $?
for c in skew report advise explain; do
	"$kb" "$c" --help | tr -s ' \n' ' ' | grep -q 'a key that repeats an earlier one is dropped'
	check "$c --help states the rule" $?
done

## A value out of range is refused even where it does not matter
expect 2 "khash-bench: --bits 99 out of range: 1..64" keys --keyset seq --bits 99
expect 2 "khash-bench: --bits 0 out of range: 1..64" keys --keyset seq --bits 0
# the adversarial set names what is wrong with its cell, as a usage error
expect 2 "khash-bench: --keyset adversarial: bits 33 out of range for new hash_64 on 64-bit: 1..32" \
	keys --keyset adversarial --func hash_64 --gen new --word 64 --bits 33
expect 2 "khash-bench: --keyset adversarial: bits 33 out of range for new hash_ptr on 64-bit: 1..32" \
	advise --keyset adversarial --word 64 --bits 33

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
