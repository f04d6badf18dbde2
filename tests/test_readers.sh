#!/bin/bash
# SPDX-License-Identifier: MIT
# Every input reader against hostile input (issue 19): key files as text
# and binary (skew, hash) and census files, fed huge lines, NUL bytes,
# endless streams, numbers at and past every width, empty files and
# directories.  Each must exit 1 with one line on stderr naming the
# problem and where, and leave no -o file; endless input must stop.  Then
# repeated keys: reported, and dropped unless --keep-duplicates.
# usage: test_readers.sh KHASH_BENCH
set -u
export LC_ALL=C
kb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# run STDIN-COMMAND STATUS MESSAGE ARGS...: `STDIN-COMMAND | khash-bench
# ARGS -o FILE` exits STATUS with exactly MESSAGE on stderr and no FILE
run() {
	local feed=$1 want_status=$2 want_msg=$3
	shift 3
	rm -f "$tmp/out"
	bash -c "$feed" 2>/dev/null | "$kb" "$@" -o "$tmp/out" >/dev/null 2>"$tmp/err"
	refused "$feed | khash-bench $*" "${PIPESTATUS[1]}" "$want_status" "$want_msg"
}

# field NAME CSV: a column of the CSV's row, by its header
field() { awk -F, -v f="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[f] }' "$2"; }
skew=(skew --func hash_64 --gen new --word 64 --bits 4)
hash=(hash --func hash_64 --gen new --word 64 --bits 4)
nul_key="NUL byte at byte offset"
hint="not a text key file (binary? use --binary)"

## key files, text: what endless or binary input gets
run 'head -c 100M /dev/zero' 1 "khash-bench: <stdin>:1: $nul_key 0: $hint" "${skew[@]}" --keys -
run 'cat /dev/zero' 1 "khash-bench: <stdin>:1: $nul_key 0: $hint" "${hash[@]}" -
run 'yes' 1 "khash-bench: <stdin>:1: not an integer: 'y'" "${skew[@]}" --keys -
run 'yes 1 | tr -d "\n"' 1 "khash-bench: <stdin>:1: line longer than 65535 bytes" "${skew[@]}" --keys -
run 'printf "1\n2\n3\0\n"' 1 "khash-bench: <stdin>:3: $nul_key 5: $hint" "${skew[@]}" --keys -
# a line of exactly the limit is taken (blanks pad a key), one more is not
printf '%65534s7\n' "" | "$kb" "${hash[@]}" - >"$tmp/pad.txt" 2>"$tmp/err"
[ "$(cat "$tmp/pad.txt")" = "$(echo 7 | "$kb" "${hash[@]}" -)" ]; check "a 65535-byte line is read" $?
run 'printf "%65535s7\n" ""' 1 "khash-bench: <stdin>:1: line longer than 65535 bytes" "${skew[@]}" --keys -

## key files, text: numbers at and one past every width, and other forms
for bad in 18446744073709551616 0x10000000000000000 0X10000000000000000; do
	run "echo $bad" 1 "khash-bench: <stdin>:1: value exceeds 64 bits: '$bad'" "${skew[@]}" --keys -
done
for bad in -1 +5 0b101 1e3 0x 0x-1 "1 2" 0o17 "1,2" "0x 1"; do
	run "echo '$bad'" 1 "khash-bench: <stdin>:1: not an integer: '$bad'" "${skew[@]}" --keys -
done
run 'echo 4294967296' 1 "khash-bench: <stdin>: key 1: 0x100000000 does not fit the 32-bit argument of hash_32 on 64-bit" \
	skew --func hash_32 --gen new --word 64 --bits 4 --keys -
run 'printf "1\n4294967295\n4294967296\n"' 1 "khash-bench: <stdin>: key 3: 0x100000000 does not fit the 32-bit argument of hash_ptr on 32-bit" \
	skew --func hash_ptr --gen new --word 32 --bits 4 --keys -
# accepted: both limits, CRLF, blanks, leading zeros (decimal: 0777 is 777)
printf '18446744073709551615\r\n0xffffffffffffffff\r\n  0X1F \t\r\n0777\n777\n4294967296\n' >"$tmp/edge.txt"
"$kb" "${hash[@]}" --bits 32 "$tmp/edge.txt" >"$tmp/edge.out"; check "edge forms are read" $?
# new hash_64 on 64 bits: (x * 0x61C8864680B583EB mod 2^64) >> 32, in Python
want=$(python3 -c '
for x in (2**64 - 1, 2**64 - 1, 31, 777, 777, 2**32):
    print(hex((x * 0x61C8864680B583EB) % 2**64 >> 32))')
[ "$(cat "$tmp/edge.out")" = "$want" ]; check "edge forms: the values Python computes" $?

## key files: not files, empty, and files that are not keys
: >"$tmp/empty.txt"
printf '# only\n\n  \r\n' >"$tmp/comments.txt"
run true 1 "khash-bench: $tmp: is a directory, not a key file" "${skew[@]}" --keys "$tmp"
run true 1 "khash-bench: $tmp: is a directory, not a key file" "${skew[@]}" --keys "$tmp" --binary
run true 1 "khash-bench: $tmp/empty.txt: no keys in the file" "${skew[@]}" --keys "$tmp/empty.txt"
run true 1 "khash-bench: $tmp/comments.txt: no keys in the file" "${skew[@]}" --keys "$tmp/comments.txt"
run true 1 "khash-bench: $tmp/empty.txt: no keys in the file" "${skew[@]}" --keys "$tmp/empty.txt" --binary
run true 1 "khash-bench: $tmp/none: No such file or directory" "${skew[@]}" --keys "$tmp/none"

## key files, binary: text refused, a truncated tail named, endless input bounded
bin_text="text, not little-endian u64 keys"
run 'seq 1 16' 1 "khash-bench: <stdin>: $bin_text: its first block is all printable ASCII (drop --binary)" \
	"${skew[@]}" --keys - --binary
run 'yes' 1 "khash-bench: <stdin>: $bin_text: its first block is all printable ASCII (drop --binary)" \
	"${skew[@]}" --keys - --binary
run 'printf "1\r\n"' 1 "khash-bench: <stdin>: $bin_text: its first block is all printable ASCII (drop --binary)" \
	"${hash[@]}" --binary -
run 'head -c 15 /dev/zero' 1 "khash-bench: <stdin>: truncated binary key file: 15 bytes is not a multiple of 8" \
	"${skew[@]}" --keys - --binary
# endless zero keys are keys: kept to find repeats, within --max-memory
run 'cat /dev/zero' 1 "khash-bench: <stdin>: over 126976 keys: keeping them to find repeats needs more than the --max-memory limit of 1 MiB" \
	"${skew[@]}" --keys - --binary --max-memory 1048576

## census files
nul_c="NUL byte at byte offset"
run 'head -c 100M /dev/zero' 1 "khash-bench: <stdin>:1: $nul_c 0: not a text census file" census -
run 'cat /dev/zero' 1 "khash-bench: <stdin>:1: $nul_c 0: not a text census file" census -
run 'printf "khash-census 1\nmeta\0 word 64\n"' 1 "khash-bench: <stdin>:2: $nul_c 19: not a text census file" census -
run 'yes' 1 "khash-bench: <stdin>:1: not a census file: the first line must be 'khash-census 1' or 'khash-census 2'" census -
run 'yes | tr -d "\n"' 1 "khash-bench: <stdin>:1: line longer than 4096 bytes" census -
run 'printf "khash-census 1\n# %04096d\n" 0' 1 "khash-bench: <stdin>:2: line longer than 4096 bytes" census -
run 'printf "khash-census 1\r\n"' 1 "khash-bench: <stdin>:1: a CR line end (the format's lines end in LF alone)" census -
run true 1 "khash-bench: $tmp: is a directory, not a census file" census "$tmp"
run true 1 "khash-bench: $tmp/empty.txt: empty, not a census file" census "$tmp/empty.txt"
# numbers at and past their widths
head='khash-census 1\nmeta word 32\nmeta arch i386\nmeta kernel t\n'
c() { printf '%s\n' "printf '$head$1\\n'"; }
run "$(c 'site 4294967296 hash_32 8 10 a.c:1')" 1 "khash-bench: <stdin>:5: site id 4294967296 is out of range" census -
run "$(c 'site -1 hash_32 8 10 a.c:1')" 1 "khash-bench: <stdin>:5: site id '-1' is not a decimal number" census -
run "$(c 'site +1 hash_32 8 10 a.c:1')" 1 "khash-bench: <stdin>:5: site id '+1' is not a decimal number" census -
run "$(c 'site 0x1 hash_32 8 10 a.c:1')" 1 "khash-bench: <stdin>:5: site id '0x1' is not a decimal number" census -
run "$(c 'site 1 hash_32 8 18446744073709551616 a.c:1')" 1 "khash-bench: <stdin>:5: calls '18446744073709551616' is not a decimal number" census -
run "$(c 'site 1 hash_32 33 10 a.c:1')" 1 "khash-bench: <stdin>:5: bits 33 out of range for hash_32 on a 32-bit kernel: 1..32" census -
run "$(c 'site 1 hash_32 8 10 a.c:1\nkeys 1 100000000')" 1 "khash-bench: <stdin>:6: key 100000000 does not fit the 32-bit argument of hash_32 on a 32-bit kernel" census -
run "$(c 'site 1 hash_64 8 10 a.c:1\nkeys 1 10000000000000000')" 1 "khash-bench: <stdin>:6: key '10000000000000000' is wider than 64 bits" census -
run "$(c 'site 1 hash_32 8 10 a.c:1\nkeys 1 FF')" 1 "khash-bench: <stdin>:6: key 'FF' is not lower-case hex" census -
run "$(c 'site 1 hash_32 8 10 a.c:1\nkeys 1 0xff')" 1 "khash-bench: <stdin>:6: key '0xff' is not lower-case hex" census -
run "$(c 'site 1 hash_32 8 10 a.c:1\nkeys 1  ff')" 1 "khash-bench: <stdin>:6: fields must be separated by single spaces" census -
# a site's keys long after it, and a duplicate id far from the first
{
	printf 'khash-census 1\nmeta word 64\nmeta arch x86_64\nmeta kernel t\n'
	for i in $(seq 1 3000); do echo "site $i hash_64 8 100 a.c:$i"; done
	echo "keys 1 ff"
	echo "keys 3000 ff"
	echo "site 1 hash_64 8 100 b.c:1"
} >"$tmp/dup.txt"
run true 1 "khash-bench: $tmp/dup.txt:3007: site id 1 given twice" census "$tmp/dup.txt"
# 2000 sites in shuffled id order, each one's keys after all of them: every
# site found again, each judged on its own 32 keys
python3 -c 'import random
r = random.Random(3)
ids = list(range(1, 2001)); r.shuffle(ids)
print("khash-census 1\nmeta word 64\nmeta arch x86_64\nmeta kernel t")
for i in ids: print("site %d hash_64 8 100 s.c:%d" % (i, i))
r.shuffle(ids)
for i in ids:
    for half in range(2): print("keys %d " % i + " ".join("%x" % (i << 8 | half << 4 | j) for j in range(16)))' >"$tmp/many.txt"
"$kb" census --format csv "$tmp/many.txt" >"$tmp/many.csv"
[ "$(field recorded "$tmp/many.csv" | sort -u)" = 32 ] && [ "$(field id "$tmp/many.csv" | sort -un | wc -l)" = 2000 ]
check "2000 shuffled sites: each found with its 32 keys" $?

# 300,000 keys at bits 32 are judged at 2^28 buckets: counted sparsely in
# a few MiB, not in a 2 GiB table (address space capped; ASan needs more)
python3 -c 'import random, sys
r = random.Random(2)
print("khash-census 1\nmeta word 64\nmeta arch x86_64\nmeta kernel t\nsite 1 hash_64 32 300000 big.c:1")
k = ["%x" % r.getrandbits(64) for _ in range(300000)]
for i in range(0, len(k), 16):
    print("keys 1 " + " ".join(k[i:i + 16]))' >"$tmp/big.txt"
if ldd "$kb" 2>/dev/null | grep -q libasan; then
	echo "SKIP: the big census site under a 400 MB address space (ASan)"
else
	(ulimit -v 400000; "$kb" census --format csv "$tmp/big.txt") >"$tmp/big.csv" 2>"$tmp/big.err"
	[ "$(field at "$tmp/big.csv" | sort -u)" = 28 ] && [ "$(field distinct "$tmp/big.csv" | sort -u)" = 300000 ]
	check "a site of 300,000 keys judged at 2^28 within 400 MB" $?
fi

## repeated keys: said in every format, dropped unless --keep-duplicates
printf '1\n2\n2\n3\n3\n3\n' >"$tmp/rep.txt"
"$kb" "${skew[@]}" --keys "$tmp/rep.txt" --keep-duplicates >"$tmp/rep.out" 2>"$tmp/rep.err"
grep -qx '  key file: 6 keys read, 3 repeat an earlier key (counted again: --keep-duplicates)' "$tmp/rep.out"
check "text: repeats counted and said" $?
grep -qx 'khash-bench: note: '"$tmp"'/rep.txt: 3 of its 6 keys repeat an earlier key and are counted again (--keep-duplicates)' "$tmp/rep.err"
check "stderr: a note on the repeats" $?
"$kb" "${skew[@]}" --keys "$tmp/rep.txt" >"$tmp/rep.out" 2>"$tmp/rep.err"
grep -q ': 3 keys into 16 buckets$' "$tmp/rep.out" &&
	grep -qx '  key file: 6 keys read, 3 repeat an earlier key (dropped: each key counted once)' "$tmp/rep.out" &&
	grep -q 'are dropped (each key counted once)$' "$tmp/rep.err"
check "by default: 3 keys counted, a note" $?
"$kb" "${skew[@]}" --keys "$tmp/rep.txt" --keep-duplicates --format csv >"$tmp/rep.csv" 2>/dev/null
[ "$(field n "$tmp/rep.csv") $(field keys_read "$tmp/rep.csv") $(field repeated "$tmp/rep.csv") $(field distinct "$tmp/rep.csv")" = "6 6 3 no" ]
check "csv: n, keys_read, repeated, distinct" $?
"$kb" "${skew[@]}" --keys "$tmp/rep.txt" --format json >"$tmp/rep.json"
python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["cells"][0]
sys.exit(0 if (c["n"], c["keys_read"], c["repeated"], c["distinct"]) == (3, 6, 3, True) else 1)' "$tmp/rep.json"
check "json: n, keys_read, repeated, distinct" $?
# the same file three times: X^2 = m sum c^2 / n - n triples exactly, and
# by default the single file's figures come back
"$kb" keys --keyset page4k --count 4096 -o "$tmp/p.txt"
cat "$tmp/p.txt" "$tmp/p.txt" "$tmp/p.txt" >"$tmp/p3.txt"
cell=(skew --func hash_64 --gen new --word 64 --bits 11 --format csv)
"$kb" "${cell[@]}" --keys "$tmp/p.txt" >"$tmp/p1.csv"
"$kb" "${cell[@]}" --keys "$tmp/p3.txt" --keep-duplicates >"$tmp/p3.csv" 2>/dev/null
"$kb" "${cell[@]}" --keys "$tmp/p3.txt" >"$tmp/p3d.csv" 2>/dev/null
[ "$(field chi2 "$tmp/p3.csv")" = "$((3 * $(field chi2 "$tmp/p1.csv")))" ] &&
	[ "$(field repeated "$tmp/p3.csv")" = 8192 ]
check "three copies: X^2 tripled, 8192 repeats" $?
[ "$(cut -d, -f1-19 "$tmp/p3d.csv")" = "$(cut -d, -f1-19 "$tmp/p1.csv")" ]
check "three copies: the single file's figures" $?
run true 2 "khash-bench: --keep-duplicates applies to --keys, not to --keyset" "${skew[@]}" --keyset seq --keep-duplicates
run true 2 "khash-bench: option '--keep-duplicates' is not used by 'hash' (see 'khash-bench hash --help')" "${hash[@]}" --keep-duplicates "$tmp/p.txt"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
