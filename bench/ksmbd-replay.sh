#!/bin/bash
# SPDX-License-Identifier: MIT
# The ksmbd replay of bench/FINDINGS.md (issue 38): ksmbd's inode table
# (fs/smb/server/vfs_cache.c inode_hash(), 2^14 buckets) on the dentry
# pointers it really hashes, today's function beside the 2025 patch's
# hash_long(dentry ^ sb) and hash_long of the dentry alone, and today's
# with super block pointers whose low bits are not zero.  A cell is
# "X^2/df, compares per lookup over a random function's, verdict" of one
# skew run.  Prints the markdown table FINDINGS.md holds (tests/test_ksmbd.sh
# compares them).
#
# Usage: bench/ksmbd-replay.sh KHASH_BENCH [KERNEL_KEYS_DIR]
set -euo pipefail
kb=$1
keys=${2:-$(dirname "$0")/../tests/data/kernel-keys/6.1}

# cell TABLE WORD SOURCE...: one skew run
cell() {
	local t=$1 w=$2
	shift 2
	"$kb" skew --table "$t" --gen new --word "$w" --format csv "$@" |
		awk -F, 'NR == 2 { printf "%.3g, %.2fx, %s", $11, $20, $25 ~ /^too few/ ? "too few keys" : $25 }'
}

echo "| dentries (2^14 buckets) | n | today: \`inode_hash(sb, dentry)\` | 2025 patch: \`hash_long(dentry ^ sb, 14)\` | \`hash_long(dentry, 14)\` | today, sb + 0x40 | today, sb + 1 |"
echo "|---|---|---|---|---|---|---|"
# row LABEL N WORD SB SOURCE...: SB is the table's own (its row in
# bench/core/tables.c), moved by 0x40 and by 1 in the last two columns
row() {
	local label=$1 n=$2 w=$3 sb=$4 today patch key off40 off1
	shift 4
	# one assignment each, so that a run that fails stops the script
	today=$(cell ksmbd-inode "$w" "$@")
	patch=$(cell ksmbd-inode-2025 "$w" "$@")
	key=$(cell ksmbd-inode-key "$w" "$@")
	off40=$(cell ksmbd-inode "$w" --param "sb=$(printf '%#x' $((sb + 0x40)))" "$@")
	off1=$(cell ksmbd-inode "$w" --param "sb=$(printf '%#x' $((sb + 1)))" "$@")
	echo "| $label | $n | $today | $patch | $key | $off40 | $off1 |"
}
sb64=0xffff888005808000 sb32=0xc025f000
row "x86_64, real (\`kernel-keys\`)" 1024 64 $sb64 --keys "$keys/x86_64/dentry.txt"
for n in 4096 16384 65536; do
	row "x86_64, slab model" $n 64 $sb64 --keyset slab --size 192 --count $n
done
row "i386, real (\`kernel-keys\`)" 1024 32 $sb32 --keys "$keys/i386/dentry.txt"
for n in 4096 16384; do
	row "i386, slab model" $n 32 $sb32 --keyset slab --size 128 --count $n
done
