#!/bin/bash
# SPDX-License-Identifier: MIT
# ksmbd's inode table (issue 38): every real dentry pointer of
# tests/data/kernel-keys lands where a Python model of the kernel's formula
# (tests/golden/ksmbd_model.py) puts it, under today's inode_hash(), the
# 2025 patch's hash_long(dentry ^ sb) and hash_long of the dentry alone,
# on both words and with a super block of the table's own and another;
# the bucket never reads the product's bits past 2 * 14, so its overflow
# cannot matter; tables prices the three rows; bench/FINDINGS.md's replay
# table is what bench/ksmbd-replay.sh prints, and the README's figures are
# in it; a key too wide for the word is one line and exit 1.
#
# Usage: test_ksmbd.sh KHASH_BENCH MODEL KERNEL_KEYS_DIR
set -u
kb=$1 model=$2 keys=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# the rows' super blocks (bench/core/tables.c): the 6.1 census's busiest
sb64=0xffff888005808000 sb32=0xc025f000

# agree WHAT TABLE WORD SB VARIANT [hash options...]: hash's hex buckets
# of the word's dentries are the model's
agree() {
	local what=$1 t=$2 w=$3 sb=$4 v=$5 arch=x86_64
	shift 5
	[ "$w" = 32 ] && arch=i386
	"$kb" hash --table "$t" --gen new --word "$w" "$@" "$keys/$arch/dentry.txt" >"$tmp/got" 2>"$tmp/err"
	while read -r h; do printf '%d\n' "$h"; done <"$tmp/got" >"$tmp/got.dec"
	python3 "$model" "$v" "$w" 14 "$sb" <"$keys/$arch/dentry.txt" >"$tmp/want"
	[ "$(wc -l <"$tmp/want")" = 1024 ] && cmp -s "$tmp/got.dec" "$tmp/want"
	check "$what" $?
}

for w in 64 32; do
	sb=$sb64
	[ "$w" = 32 ] && sb=$sb32
	agree "ksmbd-inode, $w-bit: 1024 real dentries where inode_hash() puts them" ksmbd-inode "$w" "$sb" today
	agree "ksmbd-inode-2025, $w-bit: where hash_long(dentry ^ sb, 14) puts them" ksmbd-inode-2025 "$w" "$sb" patch
	agree "ksmbd-inode-key, $w-bit: where hash_long(dentry, 14) puts them" ksmbd-inode-key "$w" "$sb" key
done
odd=0xffff888005808001
agree "ksmbd-inode with an odd sb (--param)" ksmbd-inode 64 $odd today --param sb=$odd
agree "ksmbd-inode-2025 with an odd sb (--param)" ksmbd-inode-2025 64 $odd patch --param sb=$odd

# The overflow the patch names: the bucket reads tmp's bits 0 .. 27 only,
# so an sb 2^28 away (every product moved from bit 28 up) gives the same
# buckets, as an overflow past bit 63 does.
"$kb" hash --table ksmbd-inode --gen new --word 64 "$keys/x86_64/dentry.txt" >"$tmp/a"
"$kb" hash --table ksmbd-inode --gen new --word 64 --param sb=0xffff888015808000 \
	"$keys/x86_64/dentry.txt" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b"
check "ksmbd-inode: sb and sb + 2^28 give the same buckets (the product's high bits are never read)" $?
# and the real dentries, 1024 in 16384 buckets, never share one today
[ "$(sort -u "$tmp/a" | wc -l)" = 1024 ]
check "ksmbd-inode: 1024 real dentries in 1024 buckets" $?

"$kb" tables --count 256 >"$tmp/tables" 2>/dev/null
for t in ksmbd-inode ksmbd-inode-2025 ksmbd-inode-key; do
	has "^$t  *64  *chained " "$tmp/tables"
	check "tables prices $t as chained" $?
done

# FINDINGS.md's replay table, every figure as the commands print it, and
# the README's worked example from the same rows
top=$(dirname "$0")/..
bash "$top/bench/ksmbd-replay.sh" "$kb" "$keys" >"$tmp/replay.got"
doc_rows "$top/bench/FINDINGS.md" ksmbd-replay >"$tmp/replay.doc"
[ -s "$tmp/replay.doc" ] && diff -u "$tmp/replay.doc" "$tmp/replay.got"
check "FINDINGS.md's ksmbd table is what bench/ksmbd-replay.sh prints" $?
doc_rows "$top/README.md" ksmbd-readme >"$tmp/readme"
rows_within "README's ksmbd rows are rows of bench/ksmbd-replay.sh" "$tmp/readme" "$tmp/replay.got"

# the prose's figures: what the patch's skew costs at 4096 dentries, why
# hash_long skews them, and what advise ranks first
for t in ksmbd-inode:1.01 ksmbd-inode-2025:1.2; do
	"$kb" skew --table "${t%:*}" --keyset slab --size 192 --count 4096 --gen new --word 64 >"$tmp/skew"
	has "a lookup compares ${t#*:} entries" "$tmp/skew"
	check "skew: ${t%:*} compares ${t#*:} entries a lookup among 4096 dentries" $?
done
"$kb" explain --table ksmbd-inode-key --count 4096 --word 64 >"$tmp/explain"
has "sharing a bucket: 827 observed, 511.9 for a random function" "$tmp/explain" &&
	has -E '^ +185472 +2250 +827 .*45 pages \+ 6 x 192$' "$tmp/explain"
check "explain: 827 pairs share (511.9 at random), all 185472 bytes = 45 pages + 6 x 192 apart" $?
"$kb" advise --table ksmbd-inode-key --count 4096 --word 64 >"$tmp/advise"
has -E '^ +1 .* 0\.889 ' "$tmp/advise" && has -E '^ +2 .* 0\.889 ' "$tmp/advise" &&
	has -E '^ +[0-9]+ hash_long\(k >> 6, 14\) ' "$tmp/advise" &&
	has -E '^ +[0-9]+ siphash_1u64.* 1\.000 ' "$tmp/advise"
check "advise: hash_long(k >> 6, 14) among the first two at 0.889x, siphash at 1.000x" $?

printf '0x100000000\n' >"$tmp/wide.txt"
expect 1 "khash-bench: $tmp/wide.txt:1: ksmbd-inode-2025: key 0x100000000 does not fit a 32-bit kernel's word" \
	hash --table ksmbd-inode-2025 --gen new --word 32 "$tmp/wide.txt"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
