#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Real kernel addresses (tests/data/kernel-keys/6.1, made by
# kernel/keys/collect.sh from a booted Linux 6.1) through khash-bench:
# what the committed data shows about old and new hash_ptr().
#
# usage: test_kernel_keys.sh KHASH_BENCH DATA_DIR
set -eu
kb=$1
data=$2
fail=0

# stat FILE GEN WORD BITS FIELD: one field of the skew CSV
stat() {
	"$kb" skew --func hash_ptr --gen "$2" --word "$3" --bits "$4" \
		--keys "$1" --format csv |
	awk -F, -v f="$5" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			   { print $c[f] }'
}

ok() { echo "ok   - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

# check KIND ARCH WORD BITS MINRATIO: old is broken and at least MINRATIO
# times worse than new (X2/df), new is not broken
check() {
	f=$data/$2/$1.txt
	[ -f "$f" ] || { bad "$f missing"; return; }
	old=$(stat "$f" old "$3" "$4" chi2_per_df)
	new=$(stat "$f" new "$3" "$4" chi2_per_df)
	ov=$(stat "$f" old "$3" "$4" verdict)
	nv=$(stat "$f" new "$3" "$4" verdict)
	ou=$(stat "$f" old "$3" "$4" used)
	nu=$(stat "$f" new "$3" "$4" used)
	what="$2 $1 hash_ptr w$3 bits $4: old X2/df $old ($ov, $ou used), new $new ($nv, $nu used)"
	if [ "$ov" = broken ] && [ "$nv" != broken ] &&
	   awk -v o="$old" -v n="$new" -v r="$5" 'BEGIN { exit !(o > r * n) }'; then
		ok "$what"
	else
		bad "$what; expected old broken, new not, ratio > $5"
	fi
}

# check_neither KIND ARCH WORD BITS: neither generation is broken
check_neither() {
	f=$data/$2/$1.txt
	[ -f "$f" ] || { bad "$f missing"; return; }
	ov=$(stat "$f" old "$3" "$4" verdict)
	nv=$(stat "$f" new "$3" "$4" verdict)
	what="$2 $1 hash_ptr w$3 bits $4: old $(stat "$f" old "$3" "$4" chi2_per_df) ($ov), new $(stat "$f" new "$3" "$4" chi2_per_df) ($nv)"
	if [ "$ov" != broken ] && [ "$nv" != broken ]; then
		ok "$what"
	else
		bad "$what; expected neither broken"
	fi
}

# x86_64: old hash_ptr() is hash_64() with 0x9e37fffffffc0001: 4096 real
# pages land in 2 buckets, 4096 real struct pages in 128.
check page x86_64 64 11 10
check struct_page x86_64 64 11 10
# i386: old hash_ptr() is hash_32() with 0x9e370001: real pages are
# broken too (144 buckets of 2048) ...
check page i386 32 11 10
# ... but 32-byte struct pages of mem_map are not: the 32-bit multiplier
# copes with them (as kernel/README.md found for the model key set).
check_neither struct_page i386 32 11

# The named tables on the kernel's own struct pages: bit-wait-page's flag
# words (the struct page address, shifted) in 2 of 256 queues under old
# on x86_64, all 256 under every later generation; on i386 only new
# spreads them (posted kept the old hash_32).
csv=$("$kb" tables --kernel-keys "$data" --format csv)
# used TABLE GEN WORD: buckets used by the real struct pages (CSV column 12)
used() {
	echo "$csv" | awk -F, -v t="$1" -v g="$2" -v w="$3" \
		'$2 == t && $4 == "struct_page" && $5 == g && $6 == w {print $12}'
}
# table_used TABLE GEN WORD eq|lt N: buckets used, equal to or below N
table_used() {
	got=$(used "$1" "$2" "$3")
	ok=0
	case $4 in
	eq) [ -n "$got" ] && [ "$got" -eq "$5" ] && ok=1 ;;
	lt) [ -n "$got" ] && [ "$got" -lt "$5" ] && ok=1 ;;
	esac
	if [ "$ok" = 1 ]; then
		echo "ok   - tables: real struct pages, $1 $2 w$3: $got buckets used"
	else
		echo "FAIL - tables: real struct pages, $1 $2 w$3: '$got' buckets used, want $4 $5"
		fail=1
	fi
}
table_used bit-wait-page old 64 eq 2
table_used bit-wait-page minimal 64 eq 256
table_used bit-wait-page new 64 eq 256
table_used bit-wait-page posted 32 lt 256
table_used bit-wait-page new 32 eq 256

exit $fail
