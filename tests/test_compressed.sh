#!/bin/bash
# SPDX-License-Identifier: MIT
# xz and gzip input, told by its first bytes and not its name: the census
# data this project keeps as .xz gives what its decompressed text gives;
# a gzip'd key file (also under a name that says nothing, and on standard
# input) gives what the plain one gives; a truncated or corrupt file is
# exit 1 and one line naming it and its compression; a compression not
# read (zstd) is named.  With -Dcompression=disabled only that last kind
# of refusal is checked, for xz and gzip too.
#
# Usage: test_compressed.sh KHASH_BENCH CENSUS_DIR enabled|disabled
set -u
kb=$1 data=$2 compression=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# one_line NAME STATUS WANT: exit 1 and exactly the line WANT on stderr
one_line() {
	local got
	got=$(cat "$tmp/err")
	if [ "$2" = 1 ] && [ "$got" = "$3" ] && [ ! -s "$tmp/out" ]; then
		passed=$((passed + 1))
	else
		echo "FAIL: $1"
		echo "  status $2 (want 1), stderr: $got"
		echo "  wanted: $3"
		count_failure
	fi
}

census_xz=$data/6.12-x86_64.txt.xz
[ -f "$census_xz" ] || { echo "no $census_xz"; exit 1; }
seq 1 2 4000 | sed 's/^/0x/' >"$tmp/keys.txt"
gzip -c "$tmp/keys.txt" >"$tmp/keys.txt.gz"
cp "$tmp/keys.txt.gz" "$tmp/keys-no-suffix"
printf '\050\265\057\375 not really zstd\n' >"$tmp/keys.zst"
head -c 20000 "$census_xz" >"$tmp/truncated.txt.xz"
# a stream whose middle is overwritten: the data is there and wrong
cp "$census_xz" "$tmp/corrupt.txt.xz"
printf 'XXXXXXXX' | dd of="$tmp/corrupt.txt.xz" bs=1 seek=4000 conv=notrunc 2>/dev/null
head -c 3000 "$tmp/keys.txt.gz" >"$tmp/truncated.gz"

hashkeys=(hash --func hash_64 --gen new --bits 10)

if [ "$compression" = disabled ]; then
	for f in "$census_xz:xz" "$tmp/keys.txt.gz:gzip"; do
		"$kb" census "${f%:*}" >"$tmp/out" 2>"$tmp/err"
		one_line "census ${f##*:} without the library" $? \
			"khash-bench: ${f%:*}: ${f##*:}-compressed, which this khash-bench does not read: decompress it first"
	done
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
fi

# --- the census data, compressed and not ------------------------------------
xz -dc "$census_xz" >"$tmp/census.txt"
"$kb" census "$census_xz" >"$tmp/from-xz" 2>"$tmp/err"
rc=$?; check "census FILE.txt.xz: exit 0 ($(head -1 "$tmp/err"))" "$rc"
"$kb" census "$tmp/census.txt" >"$tmp/from-text" 2>&1
# the first line names the file; the rest must agree to the byte
cmp -s <(tail -n +2 "$tmp/from-xz") <(tail -n +2 "$tmp/from-text")
check "census FILE.txt.xz: the same report as its text" $?
[ "$(wc -l <"$tmp/from-xz")" -gt 5 ]
check "census FILE.txt.xz: a report" $?
"$kb" census - <"$census_xz" >"$tmp/from-stdin" 2>&1
cmp -s <(tail -n +2 "$tmp/from-stdin") <(tail -n +2 "$tmp/from-text")
check "census - with xz on standard input: the same report" $?

# --- a gzip'd key file -------------------------------------------------------
"$kb" "${hashkeys[@]}" "$tmp/keys.txt" >"$tmp/want" 2>&1
for f in keys.txt.gz keys-no-suffix; do
	"$kb" "${hashkeys[@]}" "$tmp/$f" >"$tmp/got" 2>"$tmp/err"
	check "hash $f: exit 0" $?
	cmp -s "$tmp/got" "$tmp/want"
	check "hash $f: the keys of the plain file" $?
done
"$kb" "${hashkeys[@]}" - <"$tmp/keys.txt.gz" >"$tmp/got" 2>"$tmp/err"
cmp -s "$tmp/got" "$tmp/want"
check "hash - with gzip on standard input: the same keys" $?
"$kb" skew --keys "$tmp/keys.txt.gz" --func hash_64 --gen new --bits 10 >"$tmp/got" 2>&1
"$kb" skew --keys "$tmp/keys.txt" --func hash_64 --gen new --bits 10 >"$tmp/want" 2>&1
cmp -s <(grep -v keys "$tmp/got") <(grep -v keys "$tmp/want")
check "skew --keys FILE.gz: the verdict of the plain file" $?
# binary keys, xz'd: read as the plain binary file is
"$kb" keys --keyset page4k --count 3000 --binary -o "$tmp/keys.bin"
xz -c "$tmp/keys.bin" >"$tmp/keys.bin.xz"
"$kb" "${hashkeys[@]}" --binary "$tmp/keys.bin" >"$tmp/want" 2>&1
"$kb" "${hashkeys[@]}" --binary "$tmp/keys.bin.xz" >"$tmp/got" 2>&1
cmp -s "$tmp/got" "$tmp/want" && [ -s "$tmp/want" ]
check "hash --binary FILE.xz: the keys of the plain file" $?

# --- damaged input: one line, exit 1, nothing on standard output ---------
"$kb" census "$tmp/truncated.txt.xz" >"$tmp/out" 2>"$tmp/err"
one_line "census a truncated .xz" $? "khash-bench: $tmp/truncated.txt.xz: truncated xz data"
"$kb" census "$tmp/corrupt.txt.xz" >"$tmp/out" 2>"$tmp/err"
one_line "census a corrupt .xz" $? "khash-bench: $tmp/corrupt.txt.xz: corrupt xz data: bad compressed data"
"$kb" "${hashkeys[@]}" "$tmp/truncated.gz" >"$tmp/out" 2>"$tmp/err"
one_line "hash a truncated .gz" $? "khash-bench: $tmp/truncated.gz: truncated gzip data"
"$kb" "${hashkeys[@]}" "$tmp/keys.zst" >"$tmp/out" 2>"$tmp/err"
one_line "hash a zstd file" $? \
	"khash-bench: $tmp/keys.zst: zstd-compressed, which this khash-bench does not read: decompress it first"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
