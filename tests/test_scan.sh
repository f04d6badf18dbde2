#!/bin/bash
# SPDX-License-Identifier: MIT
# khash-bench scan (issue 35): the fixture tree tests/data/scan, one file
# an idiom and one of near misses, found exactly (file:line and kind, from
# the list below, written by hand from the fixture); the CSV and JSON
# shapes; what is skipped (binary files, build and .git folders, symbolic
# links); a file it cannot read (a warning) and a folder it cannot (exit 1);
# the gallery's copies of hash.h by their path.
set -uo pipefail
# absolute: the scans run from the trees they scan
kb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$here/checks.sh"

# the fixture's constants are what their names say (python, from the
# definitions: the kernel's multipliers, negated, plus one)
python3 -c '
g32, g64, p32, p64 = 0x61C88647, 0x61C8864680B583EB, 0x9e370001, 0x9e37fffffffc0001
assert 2654404609 == p32
assert 0x9e3779b9 == 2**32 - g32
assert 11400714819323198485 == 2**64 - g64
assert 0x9e3779b97f4a7c16 == 2**64 - g64 + 1 and 0x9e3779b97f4a7c16 % 2 == 0
assert 0xc6a4a7935bd1e994 % 2 == 0 and bin(0xc6a4a7935bd1e994).count("1") >= 8
assert 2654435761 == 0x9e3779b1
for near in (0x9e3779b1, 0x61C88646, 0x9e370003, 0x9e3779b97f4a7c18):
    assert near not in (g32, p32, 2**32 - g32, 2**32 - g32 + 1, 2**32 - g32 + 2,
                        g64, p64, 2**64 - g64, 2**64 - g64 + 1, 2**64 - g64 + 2)'
check "the fixture's constants are the kernel's, negated, or none of them (python)" $?

# A copy of the fixture, with what must be skipped beside it: a binary
# file, build and .git folders, a link to a file outside the tree.
tree=$tmp/tree
mkdir -p "$tree/scan/build" "$tree/scan/.git" "$tree/scan/sub/build"
cp "$here"/data/scan/*.c "$tree/scan/"
printf 'ELF\0\0 0x9e370001 x * 0x9e3779b9 & mask\n' >"$tree/scan/blob.o"
printf '#define P 0x9e370001\n' >"$tree/scan/build/generated.h"
printf '#define P 0x9e370001\n' >"$tree/scan/.git/ORIG.c"
printf '#define P 0x9e370001\n' >"$tree/scan/sub/build/deep.c"
printf '#define P 0x9e370001\n' >"$tmp/outside.h"
ln -s "$tmp/outside.h" "$tree/scan/link.h"
ln -s "$tmp" "$tree/scan/link-dir"

# scan ARGS...: run from $tree, output in $tmp/out, status in $status
scan() {
	(cd "$tree" && "$kb" scan "$@") >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
}
# FILE LINE KIND of a CSV, one finding a line
findings() {
	python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["file"], r["line"], r["kind"], "comment" if r["in_comment"] == "1" else "")' "$1"
}

cat >"$tmp/want" <<'LIST'
scan/comment.c 4 old-prime comment
scan/comment.c 6 golden-ratio comment
scan/even_constant.c 3 even-constant 
scan/even_multiply.c 7 even-multiplier 
scan/golden.c 3 golden-ratio 
scan/golden.c 4 golden-ratio 
scan/hash64_in_32.c 12 hash64-in-32-bits 
scan/hash64_in_32.c 13 hash64-in-32-bits 
scan/hash64_in_32.c 17 hash64-in-32-bits 
scan/low_bits.c 5 golden-ratio 
scan/low_bits.c 9 low-bits-kept 
scan/low_bits.c 14 low-bits-kept 
scan/low_bits.c 19 low-bits-kept 
scan/negated.c 7 negated-golden 
scan/negated.c 12 negated-golden 
scan/old_primes.c 5 old-prime 
scan/old_primes.c 6 old-prime 
scan/old_primes.c 10 old-prime 
scan/old_primes.c 12 shift-by-width 
scan/shift_width.c 9 shift-by-width 
scan/shift_width.c 21 shift-by-width 
scan/shift_width.c 26 shift-by-width 
LIST

scan scan --format csv
findings "$tmp/out" >"$tmp/got"
[ "$status" = 0 ] && [ ! -s "$tmp/err" ] && diff -u "$tmp/want" "$tmp/got"
check "the fixture's findings, exactly: file, line, kind, in a comment or not (exit 0)" $?
cp "$tmp/out" "$tmp/csv"
rows=$(python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0] == ["schema", "file", "line", "column", "kind", "constant", "in_comment",
                   "function", "what", "judge"], rows[0]
for r in rows[1:]:
    assert len(r) == 10 and r[0] == "1", r
    assert r[9].startswith("khash-bench "), r
print(len(rows) - 1)' "$tmp/csv")
check "CSV: the header, ten fields a row, schema 1, a command each" $?

scan scan --format json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "khash-bench/scan" and d["schema_version"] == 1
assert d["files_scanned"] == 10 and d["binary_skipped"] == 1 and d["unreadable"] == 0, d
assert d["files_with_findings"] == 9
assert len(d["findings"]) == int(sys.argv[2])
f = [x for x in d["findings"] if x["file"] == "scan/old_primes.c" and x["line"] == 6][0]
assert f["constant"] == "0x9e37fffffffc0001" and f["kind"] == "old-prime", f
assert f["judge"] == "khash-bench audit --multiplier 0x9e37fffffffc0001 --width 64", f
f = [x for x in d["findings"] if x["file"] == "scan/shift_width.c" and x["line"] == 9][0]
assert f["constant"] is None and f["function"] == "unguarded", f
assert f["judge"] == "khash-bench conform --source scan/shift_width.c --call '"'"'unguarded(x, bits)'"'"' --ubsan", f
' "$tmp/out" "${rows:-0}"
check "JSON: schema scan 1, the counts (the binary file skipped), the same findings, the judges" $?

# text: one line a finding, files apart, a summary last
scan scan
[ "$status" = 0 ] &&
	has -x "scan/even_constant.c:3: even-constant: 0x9e3779b97f4a7c16, GOLDEN_RATIO_64 negated plus one: even: as a multiplier the key's top bit never counts; judge: khash-bench conform --source scan/even_constant.c --call 'YOUR_HASH(x, bits)'" "$tmp/out" &&
	has -x "22 findings in 9 files; 10 text files scanned, 1 binary skipped, 0 unreadable" "$tmp/out" &&
	[ "$(grep -c '^scan/' "$tmp/out")" = 22 ] && [ "$(grep -c '^$' "$tmp/out")" = 9 ] &&
	! has -e outside -e generated -e ORIG -e deep -e blob "$tmp/out"
check "text: a line a finding, a blank line between files, the summary; nothing skipped is read" $?

# a file named is scanned; near misses are not findings
scan scan/no_match.c
[ "$status" = 0 ] && has -x "0 findings in 0 files; 1 text file scanned, 0 binary skipped, 0 unreadable" "$tmp/out"
check "no_match.c: no finding, exit 0" $?

# a file it cannot read: a warning, the rest scanned, exit 0 (as root,
# run as nobody, for whom a mode of 000 means something, from a copy of
# the program and its library that nobody can reach: the build may be
# under /root)
cp "$tree/scan/golden.c" "$tree/scan/secret.c"
chmod 000 "$tree/scan/secret.c"
chmod 755 "$tmp" "$tree" "$tree/scan"
as=() kbu=$kb
if [ "$(id -u)" = 0 ]; then
	as=(env LD_LIBRARY_PATH="$tmp/bin" setpriv --reuid=65534 --regid=65534 --clear-groups)
	mkdir "$tmp/bin"
	cp "$kb" "$tmp/bin/"
	lib=$(ldd "$kb" | awk '/libkhash/ {print $3}')
	[ -n "$lib" ] && cp "$lib" "$tmp/bin/$(basename "$lib")"
	chmod -R a+rX "$tmp/bin"
	kbu=$tmp/bin/$(basename "$kb")
fi
(cd "$tree" && "${as[@]}" "$kbu" scan scan) >"$tmp/out" 2>"$tmp/err" </dev/null
status=$?
[ "$status" = 0 ] && has -x "khash-bench: warning: cannot read scan/secret.c: Permission denied" "$tmp/err" &&
	has -x "22 findings in 9 files; 10 text files scanned, 1 binary skipped, 1 unreadable" "$tmp/out"
check "an unreadable file: one warning naming it, the rest scanned, exit 0" $?
rm -f "$tree/scan/secret.c"

expect 1 "khash-bench: cannot read $tmp/none: No such file or directory" scan "$tmp/none"
expect 1 "khash-bench: cannot read $tmp/none: No such file or directory" scan "$tree/scan" "$tmp/none"
expect 2 "khash-bench: scan needs a folder to scan" scan
expect 2 "khash-bench: unknown format 'plot' (text, csv, json)" scan --format plot "$tree/scan"
refuses 1 "khash-bench: cannot read $tmp/none: No such file or directory" scan "$tmp/none"

# the gallery's copies of hash.h, by their path
(cd "$here" && "$kb" scan --format csv gallery) >"$tmp/out" 2>"$tmp/err"
status=$?
findings "$tmp/out" >"$tmp/got"
[ "$status" = 0 ] && has -x "gallery/lustre_gss_hash.h 25 shift-by-width " "$tmp/got" &&
	has -x "gallery/openbsd_drm_hash.h 17 even-constant " "$tmp/got" &&
	has -x "gallery/openbsd_drm_hash.h 16 negated-golden " "$tmp/got" &&
	has -x "gallery/jsonc_linkhash.h 17 old-prime " "$tmp/got" &&
	has -x "gallery/libbpf_hashmap.h 19 negated-golden " "$tmp/got" &&
	! has "^gallery/libbpf_hashmap.h .* shift-by-width" "$tmp/got"
check "the gallery: Lustre's unguarded shift, OpenBSD's constants, json-c's old prime, libbpf's guard seen" $?

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
