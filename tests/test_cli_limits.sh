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
# a refusal comes at once: 30 s is a hang even on a busy machine
EXPECT_SECONDS=30

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
for c in skew report advise explain tables; do
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

## Work that never ends is refused at once; long work asks for --yes
cell=(--func hash_64 --gen new --word 64 --bits 10)
expect 2 "khash-bench: skew: --count 18446744073709551615: a table of 2^10 buckets is judged for at most 576460752303423487 keys (its X^2 is formed in 128 bits)" \
	skew --keyset seq --count 18446744073709551615 "${cell[@]}"
expect 2 "khash-bench: skew: --count 576460752303423488: a table of 2^10 buckets is judged for at most 576460752303423487 keys (its X^2 is formed in 128 bits)" \
	skew --keyset seq --count 576460752303423488 "${cell[@]}" --yes
# the largest count a table of 2^10 is judged for: floor sums, at once
timeout 10 "$kb" skew --keyset seq --count 576460752303423487 "${cell[@]}" --format csv >"$tmp/big.csv"
[ "$(field n "$tmp/big.csv") $(field verdict "$tmp/big.csv")" = "576460752303423487 even" ]
check "skew: 2^59 - 1 seq keys counted by floor sums" $?
# keys hashed one by one, priced by the engine's model (engine_plan.h): a
# random key made (1.5 ns) and counted in lanes, which 2^10 buckets fit in
# any L1 (0.45 ns): 10^12 keys is 1950 s, 10^16 never
expect 2 "khash-bench: skew: --count 1000000000000 would take some 32.5 min of one CPU (more than 5 min): give --yes to start it" \
	skew --keyset random --count 1T "${cell[@]}"
expect 2 "khash-bench: skew: --count 10000000000000000 would take some 226 days of one CPU, past the 30 days anything here may take: not started" \
	skew --keyset random --count 1e16 "${cell[@]}" --yes
expect 2 "khash-bench: influence: --count 4294967296 (4294967296 keys x 65 hashes) would take some 37.2 min of one CPU (more than 5 min): give --yes to start it" \
	influence "${cell[@]}" --count 4294967296
expect 2 "khash-bench: report: --count 18446744073709551615: a table of 2^20 buckets is judged for at most 18014398509481983 keys (its X^2 is formed in 128 bits)" \
	report --keysets seq --count 18446744073709551615
# (2^10 buckets: no path that re-hashes keys, whatever the caches): the 24
# random cells at 1950 s each are 13 hours, and the seq cells that floor
# sums cannot count add under an hour
"$kb" report --keysets seq,random --count 1T --bits-max 10 >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && [ ! -s "$tmp/out" ] &&
	awk '/^khash-bench: report: --count 1000000000000 would take some [0-9.]+ hours of one CPU \(more than 5 min\): give --yes to start it$/ {
		h = $8 } END { exit !(h >= 13 && h < 14) }' "$tmp/err"
rc=$?; check "report: 10^12 keys through 24 random cells ask for --yes ($(cat "$tmp/err"))" "$rc"
expect 2 "khash-bench: keys: --count 18446744073709551615 would take some 2.34e+04 years of one CPU, past the 30 days anything here may take: not started" \
	keys --keyset seq --count 18446744073709551615
expect 2 "khash-bench: keys: --count 10000000000 would take some 6.67 min of one CPU (more than 5 min): give --yes to start it" \
	keys --keyset seq --count 1e10
expect 2 "khash-bench: tables: --count 1000000000000 would take some 12.5 days of one CPU (more than 5 min): give --yes to start it" \
	tables --count 1T
expect 2 "khash-bench: speed: --count 1099511627776 would take some 5.73 days of one CPU (more than 5 min): give --yes to start it" \
	speed --count 1Ti
expect 2 "khash-bench: advise: --count 1000000000 would take some 16.7 min of one CPU (more than 5 min): give --yes to start it" \
	advise --keyset seq --count 1G --bits 10 --max-memory 1T
expect 2 "khash-bench: explain: --count 100000000: explain takes at most 32768 keys (it visits every pair)" \
	explain --keyset seq --count 100M --bits 10

# (the figures above are the keys times the rough costs engine_plan.h and
# the commands state: 3 ns a hash, 40 ns a key written, 8 ns an influence
# hash, 1 us an advised key; 12 tables x 2 words x 2 x 5 generations)
# --yes starts what it would refuse: still running after 3 s, not refused
timeout 3 "$kb" keys --keyset seq --count 1e10 --yes -o "$tmp/many.txt" 2>/dev/null
[ $? = 124 ]; check "keys --yes: long work starts" $?
timeout 3 "$kb" influence "${cell[@]}" --count 4294967296 --yes -q >/dev/null 2>&1
[ $? = 124 ]; check "influence --yes: long work starts" $?

## The adversarial set is for commands that name one cell
"$kb" list | grep -q '^  adversarial .*(one cell: skew, keys, advise and explain take it, report and tables do not)$'
check "list: which commands take adversarial" $?
for c in "keys --keyset adversarial --bits 8" "skew --keyset adversarial --bits 8 --func hash_64 --gen new" \
	"advise --keyset adversarial --bits 8 --count 512" "explain --keyset adversarial --bits 8 --count 512"; do
	# shellcheck disable=SC2086 # the words of a command line
	timeout 10 "$kb" $c >/dev/null 2>"$tmp/err"
	check "$c: taken, as list says" $?
done
expect 2 "khash-bench: --keysets adversarial: built against one cell, it is for skew, keys, advise and explain, not report" \
	report --keysets seq,adversarial

## Each command's help speaks of that command only
commands=$("$kb" --help | awk '/^Commands:$/ {on = 1; next} on && /^$/ {exit} on {print $1}')
for c in $commands; do
	# its options, without the pointers to another command ('khash-bench X')
	"$kb" "$c" --help | awk '/^Options:$/ {on = 1} on' | tr -s ' \n' ' ' |
		sed "s/'khash-bench [a-z]*'//g" >"$tmp/opts.$c"
	other=$(for d in $commands; do
		[ "$d" = "$c" ] && continue
		# names no ordinary word is (skew is one): a mention is of the command
		case $d in report|advise|audit|explain|influence|waittable) ;; *) continue ;; esac
		grep -qw "$d" "$tmp/opts.$c" && echo "$d"
	done)
	[ -z "$other" ]; check "$c --help: its options' text names no other command ($other)" $?
done
grep -q -- "--gen G generation: old, minimal, posted, new, K (K: --multiplier's), all, or a list G,H: a cell each " "$tmp/opts.skew" &&
	grep -q -- "--multiplier K the odd multiplier to audit " "$tmp/opts.audit" &&
	grep -q -- "--gen G the generation of the table's own hash: old, minimal, posted, new (default new) " "$tmp/opts.advise" &&
	grep -q -- "--multiplier K generation K: an odd multiplier" "$tmp/opts.skew"
check "a command's own help for an option it means otherwise" $?

## An error is one line whatever the words it repeats hold
"$kb" keys --keyset $'se\nq' 2>"$tmp/err"
[ $? = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	[ "$(cat "$tmp/err")" = "khash-bench: unknown key set 'se\\nq' (see 'khash-bench list')" ]
check "a newline in a name is escaped: one line" $?
"$kb" skew --keys $'no\tsuch\x01file' --func hash_64 --gen new --bits 8 2>"$tmp/err"
[ $? = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'no\\tsuch\\x01file' "$tmp/err"
check "a tab and a control byte in a file name are escaped" $?

## A key of a file is named by where a reader finds it
printf '# keys\n1\n\n0x100000000\n' >"$tmp/wide.txt"
wide=(--func hash_32 --gen new --word 64 --bits 8)
expect 1 "khash-bench: $tmp/wide.txt:4: 0x100000000 does not fit the 32-bit argument of hash_32 on 64-bit" \
	skew "${wide[@]}" --keys "$tmp/wide.txt"
expect 1 "khash-bench: $tmp/wide.txt:4: 0x100000000 does not fit the 32-bit argument of hash_32 on 64-bit" \
	hash "${wide[@]}" "$tmp/wide.txt"
"$kb" keys --keyset seq --count 3 --base 4294967295 --binary -o "$tmp/wide.bin"
expect 1 "khash-bench: $tmp/wide.bin: key 2 (bytes 8..15): 0x100000000 does not fit the 32-bit argument of hash_32 on 64-bit" \
	skew "${wide[@]}" --keys "$tmp/wide.bin" --binary

## audit says what an even multiplier does
"$kb" audit --multiplier 0 | grep -qx '  parity          ZERO: every product is 0, so every key hashes to bucket 0'
check "audit --multiplier 0: every key hashes to 0" $?
# 12 = 4 x 3: keys 2^30 apart (top 2 bits) share a product, 4 at a time
"$kb" audit --multiplier 12 | grep -qx '  parity          EVEN: K = 2^2 x odd, so keys that differ only in their top 2 bits share a product, 4 at a time'
check "audit --multiplier 12: keys 2^30 apart collide, 4 at a time" $?

## report keeps the order of --keysets
"$kb" report --keysets sector,seq,page4k,seq --funcs hash_64 --gens new --words 64 \
	--bits-min 10 --bits-max 10 --format csv | awk -F, 'NR > 1 { printf "%s ", $2 }' >"$tmp/order"
[ "$(cat "$tmp/order")" = "sector seq page4k " ]
check "report --keysets: the order given, each once" $?
"$kb" report --keysets sector,page4k --funcs hash_64 --gens new --words 64 --bits-min 10 --bits-max 10 |
	grep -o '^[a-z0-9-]* ' | awk '$1 == "sector" || $1 == "page4k"' | uniq | tr -d '\n' >"$tmp/order"
[ "$(cat "$tmp/order")" = "sector page4k " ]
check "report text: the order given" $?

## --site ID is a number and nothing else
fixture=$(dirname "$0")/census/fixture.txt
for site in +1 ' 1' '1 ' 1x; do
	expect 2 "khash-bench: $fixture: no site $site (see 'khash-bench census $fixture')" \
		advise --census "$fixture" --site "$site" --bits 8
done
timeout 10 "$kb" advise --census "$fixture" --site 1 --bits 8 | head -1 | grep -q '^advise: 29 distinct keys of site 1 kernel/census_a.c:10 '
check "advise --site 1: the site of id 1" $?

## tables --kernel-keys: a repeated kernel key is dropped, as everywhere
kk=$(dirname "$0")/data/kernel-keys/6.1
cp -r "$kk" "$tmp/kk"
head -n 100 "$kk/x86_64/struct_page.txt" | grep -v "^#" >>"$tmp/kk/x86_64/struct_page.txt"
"$kb" tables --kernel-keys "$kk" --format csv >"$tmp/kk1.csv" 2>/dev/null
"$kb" tables --kernel-keys "$tmp/kk" --format csv >"$tmp/kk2.csv" 2>"$tmp/kk.err"
cmp -s "$tmp/kk1.csv" "$tmp/kk2.csv" && grep -q "^khash-bench: note: $tmp/kk/x86_64/struct_page.txt: [0-9]* of its [0-9]* keys repeat an earlier key and are dropped (each key counted once)$" "$tmp/kk.err"
check "tables --kernel-keys: repeats dropped, with a note" $?

## A list with an empty name says so (strtok skipped it: 'seq,' was seq)
expect 2 "khash-bench: invalid --keysets: 'seq,' (an empty name)" report --keysets seq,
expect 2 "khash-bench: invalid --gen: 'new,,old' (an empty name)" \
	skew --func hash_64 --bits 8 --keyset seq --gen new,,old

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
