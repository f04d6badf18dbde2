#!/bin/bash
# SPDX-License-Identifier: MIT
# The futex tables and key sets (issue 38) from the command line: every
# futex address the committed real programs used (tests/data/futex-keys)
# lands where a Python model of jhash2 (tests/golden/futex_model.py, itself
# checked against lookup3's published values) puts it, in 6.12's global
# table and 6.16's private one; the old hash_long puts threads' tid words
# where a Python computation of the old multiplier says; list and tables
# name the new rows; bench/FINDINGS.md's futex table is what
# bench/futex-story.sh prints, and the README's rows are rows of it; a
# misaligned or too-wide futex address is one line
# and exit 1.
#
# Usage: test_futex.sh KHASH_BENCH MODEL KEYS_DIR
set -u
kb=$1 model=$2 keys=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# agree WHAT MODEL_ARGS...: hash's hex buckets ($tmp/got) are the
# model's decimal ones for the keys of $tmp/keys
agree() {
	local what=$1
	shift
	python3 "$model" "$@" <"$tmp/keys" >"$tmp/want"
	while read -r h; do printf '%d\n' "$h"; done <"$tmp/got" >"$tmp/got.dec"
	cmp -s "$tmp/got.dec" "$tmp/want"
	check "$what" $?
}

python3 "$model" selfcheck >/dev/null
check "futex_model.py reproduces lookup3's published values" $?

# futex-global's default mm on x86_64 (its row in bench/core/tables.c)
mm=0xffff8880035e8c40
files=0
for f in "$keys"/*.txt.xz; do
	files=$((files + 1))
	name=$(basename "$f" .txt.xz)
	xz -dc "$f" >"$tmp/keys"
	n=$(grep -vc '^#' "$tmp/keys")
	check "$name: holds futex addresses ($n)" "$([ "$n" -ge 5 ] && echo 0 || echo 1)"
	"$kb" hash --table futex-global --word 64 "$f" >"$tmp/got" 2>"$tmp/err"
	agree "$name: futex-global buckets are the model's ($n keys)" global 64 11 "$mm"
	# jhash2 has no generation: none needed, none that changes it
	"$kb" hash --table futex-6.16-private --word 64 --bits 6 "$f" >"$tmp/got" 2>"$tmp/err"
	agree "$name: futex-6.16-private buckets at 2^6 are the model's" private 64 6
done
check "futex key files committed: $files" "$([ "$files" -ge 3 ] && echo 0 || echo 1)"

# i386: a 32-bit mm and address, 3 words for the global table
printf '0x5655a1a0\n0xf7d8bba8\n0x5655a1c8\n' >"$tmp/keys"
"$kb" hash --table futex-global --word 32 --param mm=0xc35e8c40 "$tmp/keys" >"$tmp/got"
agree "futex-global on i386 is the model's" global 32 11 0xc35e8c40
"$kb" hash --table futex-6.16-private --word 32 "$tmp/keys" >"$tmp/got"
agree "futex-6.16-private on i386 is the model's" private 32 4

# 2016 under the old hash_long: 256 threads' tid words, 8 MiB + 4 KiB
# apart, into the buckets the old multiplier gives (Python, not libkhash):
# hash_64's 0x9e37fffffffc0001 on x86_64, hash_32's 0x9e370001 on i386
for w in 64:0x7ffff7dcf990:0x9e37fffffffc0001 32:0xf7d8bba8:0x9e370001; do
	IFS=: read -r word first mult <<<"$w"
	want=$(python3 -c "
k = [$first - i * 0x801000 for i in range(256)]
print(len({(x * $mult % 2**$word) >> ($word - 8) for x in k}))")
	"$kb" skew --table futex-2016-private --keyset futex-thread --count 256 --gen old \
		--word "$word" >"$tmp/skew"
	has "buckets used $want of 256" "$tmp/skew"
	check "futex-2016-private under old, $word-bit: threads' tid words in $want of 256 buckets" $?
done

# FINDINGS.md's real-program figures: python3-threads in the 2016 table
py=$keys/python3-threads.txt.xz
for g in old new; do
	"$kb" skew --table futex-2016-private --keys "$py" --gen $g --word 64 --format csv |
		awk -F, 'NR == 2 { printf "%.2f %.2f %s\n", $11, $24, $25 }' >"$tmp/$g"
done
[ "$(cat "$tmp/old") / $(cat "$tmp/new")" = "2.21 1.58 skewed / 0.80 0.90 ok" ]
check "python3-threads, 2016 table: old X2/df 2.21 1.58x skewed, new 0.80 0.90x ok" $?
"$kb" explain --keys "$py" --func hash_long --gen old --word 64 --bits 8 >"$tmp/explain"
has "sharing a bucket: 861 observed, 543.5 for a random function" "$tmp/explain"
check "python3-threads, old hash_long: 861 pairs share a bucket, 543.5 at random" $?
# whole pages apart: every pair shares, 69 + 38 + 28 of them
awk '$1 == 8192 || $1 == 131072 || $1 == 139264 { if ($2 == $3) n += $3 } END { print n }' \
	"$tmp/explain" >"$tmp/pages"
[ "$(cat "$tmp/pages")" = 135 ]
check "python3-threads, old hash_long: 135 pairs whole pages apart, all sharing" $?

"$kb" list >"$tmp/list"
for s in futex-mutex futex-cond futex-barrier futex-thread; do
	has "^  $s " "$tmp/list"
	check "list names $s" $?
done
"$kb" tables --count 256 >"$tmp/tables" 2>/dev/null
for t in futex-2016-private futex-global futex-6.16-private; do
	has "^$t  *64  *locks " "$tmp/tables"
	check "tables prices $t as locks" $?
done

# FINDINGS.md's futex story, every figure as the commands print it
bench=$(dirname "$0")/../bench
bash "$bench/futex-story.sh" "$kb" "$keys" >"$tmp/story.got"
doc_rows "$bench/FINDINGS.md" futex-story >"$tmp/story.doc"
[ -s "$tmp/story.doc" ] && diff -u "$tmp/story.doc" "$tmp/story.got"
check "FINDINGS.md's futex table is what bench/futex-story.sh prints" $?
doc_rows "$bench/../README.md" futex-readme >"$tmp/story.readme"
rows_within "README's futex rows are rows of bench/futex-story.sh" "$tmp/story.readme" "$tmp/story.got"

printf '0x5555555592a2\n' >"$tmp/odd.txt"
expect 1 "khash-bench: $tmp/odd.txt:1: futex-global: futex address 0x5555555592a2 is not 4-byte aligned (the kernel refuses it)" \
	hash --table futex-global --word 64 "$tmp/odd.txt"
printf '0x5555555592a0\n' >"$tmp/wide.txt"
expect 1 "khash-bench: $tmp/wide.txt:1: futex-6.16-private: futex address 0x5555555592a0 does not fit a 32-bit kernel's word" \
	hash --table futex-6.16-private --word 32 "$tmp/wide.txt"

# the futex tables hash with jhash2: advise and explain say that, not hash_long
expect 2 "khash-bench: --table futex-global hashes with jhash2, not hash.h (jhash2({mm, uaddr & PAGE_MASK}, 4 words (i386 3), uaddr % PAGE_SIZE) & (futex_hashsize - 1)); advise takes tables that hash the key with hash.h, as it is or shifted" \
	advise --table futex-global
expect 2 "khash-bench: hash needs --gen, --multiplier or --source" hash --table btrfs-raid56 "$tmp/keys"
expect 2 "khash-bench: --gen: table futex-global hashes with jhash2: it has no generation" \
	hash --table futex-global --gen old "$tmp/keys"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
