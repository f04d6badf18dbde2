#!/bin/bash
# SPDX-License-Identifier: MIT
# How a table was counted, as skew and report tell it: --verbose on
# standard error and the JSON cells' counted_by, path, threads and
# price_s.  The choices asserted here do not depend on the machine's
# caches: fewer keys than buckets is the plain loop (direct64), an
# arithmetic key set of 2^40 keys into 2^10 buckets is floor sums, a key
# file is counted one by one, a report of few keys sorts them.
set -uo pipefail
kb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

json() { # FIELD FILE: the first cell's value of FIELD
	python3 -c 'import json, sys; print(json.load(open(sys.argv[2]))["cells"][0].get(sys.argv[1], "-"))' "$1" "$2"
}
cell=(--func hash_64 --gen new --word 64)

# fewer keys than buckets: one thread, straight into the result
"$kb" skew --keyset random --count 1000 "${cell[@]}" --bits 12 --threads 2 --verbose \
	>"$tmp/out" 2>"$tmp/err"
grep -Eqx 'khash-bench: skew: random, new hash_64 on 64-bit, 2\^12 buckets: engine, direct64 on 1 thread, priced [0-9.e+-]+ m?s, took [0-9.e+-]+ m?s' "$tmp/err"
rc=$?; check "skew --verbose: 1000 keys into 4096 buckets, direct64 on 1 thread ($(cat "$tmp/err"))" "$rc"
"$kb" skew --keyset random --count 1000 "${cell[@]}" --bits 12 --threads 2 --format json >"$tmp/d.json"
[ "$(json counted_by "$tmp/d.json") $(json path "$tmp/d.json") $(json threads "$tmp/d.json") $(json ranges "$tmp/d.json")" = "engine direct64 1 -" ]
check "skew JSON: counted_by engine, path direct64, 1 thread, no ranges" $?
awk -v p="$(json price_s "$tmp/d.json")" 'BEGIN { exit !(p > 0 && p < 0.01) }'
check "skew JSON: a price for 1000 keys, under 10 ms" $?
cmp -s "$tmp/out" <("$kb" skew --keyset random --count 1000 "${cell[@]}" --bits 12 --threads 2)
check "skew --verbose: standard output as without it" $?

# 2^40 consecutive keys into 2^10 buckets: floor sums, not a key hashed
"$kb" skew --keyset seq --count 1T "${cell[@]}" --bits 10 --verbose >/dev/null 2>"$tmp/err"
grep -Eqx 'khash-bench: skew: seq, new hash_64 on 64-bit, 2\^10 buckets: engine, floorsum on [0-9]+ threads?, priced [0-9.]+ ms, took [0-9.e+-]+ m?s' "$tmp/err"
rc=$?; check "skew --verbose: 2^40 seq keys counted by floor sums ($(cat "$tmp/err"))" "$rc"
"$kb" skew --keyset page4k --count 1M "${cell[@]}" --bits 10 --enumerate --format json >"$tmp/e.json"
[ "$(json counted_by "$tmp/e.json")" = engine ] && [ "$(json path "$tmp/e.json")" != floorsum ]
check "skew --enumerate JSON: a counting path, not floor sums" $?

# a key file: one by one, with no path
"$kb" keys --keyset slab --count 3000 -o "$tmp/keys.txt"
"$kb" skew --keys "$tmp/keys.txt" "${cell[@]}" --bits 8 --verbose >/dev/null 2>"$tmp/err"
grep -Fqx "khash-bench: skew: keys, new hash_64 on 64-bit, 2^8 buckets: one by one" "$tmp/err"
rc=$?; check "skew --verbose: a key file, one by one ($(cat "$tmp/err"))" "$rc"
"$kb" skew --keys "$tmp/keys.txt" "${cell[@]}" --bits 8 --format json >"$tmp/k.json"
[ "$(json counted_by "$tmp/k.json") $(json path "$tmp/k.json")" = "one by one -" ]
check "skew JSON: a key file's cell counted one by one, no path" $?

# report: a line a group, every generation together; few keys are sorted
# and counted at each size (nothing folded), many are folded down
"$kb" report --keysets seq,random --funcs hash_64 --words 64 --count 4000 --bits-max 12 \
	--verbose >/dev/null 2>"$tmp/err"
[ "$(wc -l <"$tmp/err")" = 2 ] &&
	grep -Fqx 'khash-bench: report: seq, hash_64 on 64-bit, 4 generations at 2^12 buckets and each size down to 2^6: sorted' "$tmp/err"
rc=$?; check "report --verbose: a line a key set, its generations together ($(head -c 300 "$tmp/err"))" "$rc"
"$kb" report --keysets random --funcs hash_64 --words 64 --gens new --count 1M --bits-max 12 \
	--verbose >/dev/null 2>"$tmp/err"
grep -Eqx 'khash-bench: report: random, new hash_64 on 64-bit, 2\^12 buckets \(folded to 2\^6\): engine, [a-z0-9]+ on [0-9]+ threads?.*' "$tmp/err"
rc=$?; check "report --verbose: 2^20 keys counted by the engine at 2^12, folded ($(cat "$tmp/err"))" "$rc"
"$kb" report --keysets seq,random --funcs hash_64 --words 64 --count 4000 --bits-max 12 \
	--format json >"$tmp/r.json"
[ "$(json counted_by "$tmp/r.json")" = sorted ]
check "report JSON: as --verbose says, few keys sorted" $?

# not for commands that count nothing this way
expect 2 "khash-bench: option '--verbose' is not used by 'hash' (see 'khash-bench hash --help')" \
	hash --func hash_64 --gen new --bits 8 --verbose /dev/null
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
