#!/bin/bash
# SPDX-License-Identifier: MIT
# Names through the tables that read a string hash (skew --table dcache
# --names FILE | --name-set NAME --sgen G): the names file's refusals, each
# one line naming file:line, exit 1, no output and -o's file untouched; the
# command line's (exit 2); CRLF, repeats and standard input; the buckets of
# a few names against golden/string_tables.csv (a Python model); the name
# sets, the same at every run.
set -uo pipefail
kb=$1
csv=$2
top=$(dirname "$0")/..
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

skew=(skew --table dcache --sgen new)
printf 'a\n\nb\n' >"$tmp/empty-line"
printf 'a\nb\0c\n' >"$tmp/nul"
printf 'usr\nusr/lib\n' >"$tmp/slash"
printf 'a\n' >"$tmp/one"
printf 'a' >"$tmp/no-lf"
: >"$tmp/none"
printf '10.0.0.1\n10.0.0\n' >"$tmp/not-ip"
printf '%0255d\n' 0 >"$tmp/n255"
printf '%0256d\n' 0 >"$tmp/n256"

# refused with the file's fault: exit 1, file:line, nothing written
echo kept >"$tmp/out"
"$kb" "${skew[@]}" --names "$tmp/nul" -o "$tmp/out" >"$tmp/stdout" 2>"$tmp/err"
[ $? = 1 ] && [ "$(cat "$tmp/err")" = "khash-bench: $tmp/nul:2: NUL byte at byte offset 3: not a text names file" ] &&
	[ "$(cat "$tmp/out")" = kept ] && [ ! -s "$tmp/stdout" ]
check "a NUL byte: exit 1, its line and offset, -o's file untouched" $?
refuses 1 "khash-bench: $tmp/empty-line:2: an empty name" "${skew[@]}" --names "$tmp/empty-line"
refuses 1 "khash-bench: $tmp/slash:2: '/' in a path component: 'usr/lib'" "${skew[@]}" --names "$tmp/slash"
refuses 1 "khash-bench: $tmp/n256:1: a name of 256 bytes: the limit is 255 (NAME_MAX)" \
	"${skew[@]}" --names "$tmp/n256"
refuses 1 "khash-bench: $tmp/no-lf:1: the last line has no LF" "${skew[@]}" --names "$tmp/no-lf"
refuses 1 "khash-bench: $tmp/none: no names" "${skew[@]}" --names "$tmp/none"
refuses 1 "khash-bench: $tmp/not-ip: sunrpc-ip_map: '10.0.0' is not an IPv4 or IPv6 address" \
	skew --table sunrpc-ip_map --sgen new --names "$tmp/not-ip"
# what is refused for a path component is a name elsewhere; NAME_MAX is
"$kb" skew --table nfsd-idmap --sgen new --names "$tmp/slash" >/dev/null 2>&1
check "nfsd-idmap takes a '/'" $?
"$kb" "${skew[@]}" --names "$tmp/n255" >/dev/null 2>&1
check "a name of 255 bytes is taken" $?

# the command line's: exit 2
expect 2 "khash-bench: table dcache reads a string hash: its generations are --sgen's, not --gen" \
	skew --table dcache --gen new --names "$tmp/one"
expect 2 "khash-bench: table dcache reads names: give --names FILE or --name-set NAME, not --keyset" \
	"${skew[@]}" --keyset seq
expect 2 "khash-bench: --sgen applies to a table that reads a string hash ('khash-bench list')" \
	skew --func hash_64 --bits 8 --gen new --keyset seq --sgen new
expect 2 "khash-bench: --names applies to a table that reads a string hash ('khash-bench list')" \
	skew --func hash_64 --bits 8 --gen new --names "$tmp/one"
expect 2 "khash-bench: unknown string-hash generation 'newest' (see 'khash-bench list')" \
	skew --table dcache --sgen newest --name-set numbered
expect 2 "khash-bench: unknown name set 'numbers' (see 'khash-bench list')" \
	"${skew[@]}" --name-set numbers
expect 2 "khash-bench: table sunrpc-rsc takes no --param" \
	skew --table sunrpc-rsc --sgen new --param 3 --name-set gss-handles
expect 2 "khash-bench: table dcache: bits 33 out of range: 1..32" \
	"${skew[@]}" --name-set numbered --bits 33
expect 2 "khash-bench: table dcache: --param parent=0x100000000 does not fit a 32-bit kernel's word" \
	"${skew[@]}" --name-set numbered --word 32 --param parent=0x100000000
expect 2 "khash-bench: --count applies to --keyset or --name-set, not to --names" \
	"${skew[@]}" --names "$tmp/one" --count 5

# CRLF ends a line as LF does; a repeat is dropped with a note; - is stdin
# (a thousand names under sum, whose buckets a trailing CR would move)
{ printf 'file%06d\n' $(seq 1000); printf 'file000001\n'; } >"$tmp/lf"
sed 's/$/\r/' "$tmp/lf" >"$tmp/crlf"
skew=(skew --table dcache --sgen "sum,new" --word 64)
"$kb" "${skew[@]}" --bits 10 --names "$tmp/lf" >"$tmp/lf.out" 2>"$tmp/lf.err"
check "names file read" $?
"$kb" "${skew[@]}" --bits 10 --names - <"$tmp/crlf" >"$tmp/crlf.out" 2>"$tmp/crlf.err"
check "CRLF names from standard input read" $?
sed "s|$tmp/lf|<stdin>|" "$tmp/lf.out" >"$tmp/lf.as-stdin"
cmp -s "$tmp/lf.as-stdin" "$tmp/crlf.out"; check "CRLF: the same names as LF" $?
[ "$(cat "$tmp/lf.err")" = "khash-bench: note: $tmp/lf: 1 of its 1001 names repeat an earlier name and are dropped (each name counted once)" ]
check "a repeated name: the note" $?
[ "$(grep -c '^sum dcache on 64-bit, .*: 1000 keys into 1024 buckets$' "$tmp/lf.out")" = 1 ]
check "a repeated name is counted once" $?

# buckets: the names of one table and generation in the model's file, how
# many buckets they use there and here
model_used() { # table sgen word bits -> names file in $tmp/model, buckets used on stdout
	python3 - "$csv" "$@" "$tmp/model" <<'EOF'
import sys
csv, table, sgen, word, bits, out = sys.argv[1:]
names, buckets = [], set()
for line in open(csv).read().splitlines()[1:]:
    t, g, w, b, _, name, bucket = line.split(",")
    if (t, g, w, b) == (table, sgen, word, bits):
        names.append(bytes.fromhex(name[1:]))
        buckets.add(bucket)
open(out, "wb").write(b"".join(n + b"\n" for n in names))
print(len(buckets))
EOF
}
for cell in "dcache sum 64 10" "dcache new 32 18" "nfsd-idmap fold 64 8" "sunrpc-ip_map minimal 32 8" \
	"sunrpc-ip_map new 64 8" "nfs-dns mix 64 4"; do
	read -r table sgen word bits <<<"$cell"
	want=$(model_used "$table" "$sgen" "$word" "$bits")
	got=$("$kb" skew --table "$table" --sgen "$sgen" --word "$word" --bits "$bits" \
		--names "$tmp/model" | sed -n 's/^  buckets used \([0-9]*\) of.*/\1/p')
	[ -n "$want" ] && [ "$got" = "$want" ]; check "$cell: buckets used as the model's ($got, want $want)" $?
done

# report: counted once at the largest size and folded down, each size's
# buckets used as the model's
want10=$(model_used dcache sum 64 10) want18=$(model_used dcache sum 64 18)
"$kb" report --table dcache --names "$tmp/model" --sgen sum --words 64 --bits-min 10 --bits-max 18 \
	--format csv >"$tmp/report.csv"
check "report over names" $?
got=$(awk -F, '$4 == "sum" && ($6 == 10 || $6 == 18) {printf "%s %s ", $6, $16}' "$tmp/report.csv")
[ "$got" = "10 $want10 18 $want18 " ]; check "report: buckets used at 2^10 and 2^18 as the model's ($got)" $?
"$kb" report --table dcache --name-set numbered --count 20000 --bits-min 8 --bits-max 16 --step 1 >"$tmp/report.txt"
[ "$(grep -c '^dcache  ' "$tmp/report.txt")" = 12 ] &&
	[ "$(grep '^dcache  *32  *sum ' "$tmp/report.txt" | grep -o '#' | wc -l)" = 9 ] &&
	! grep '^dcache  *[0-9]*  *new ' "$tmp/report.txt" | grep -q '[#!]'
check "report: two words x six generations; sum broken at every size on 32-bit, new nowhere" $?
expect 2 "khash-bench: report takes a table that reads a string hash ('khash-bench list'), not inode-hash" \
	report --table inode-hash
expect 2 "khash-bench: --sgen applies to --table" report --sgen new
expect 2 "khash-bench: report writes a table that reads a string hash as text or csv, not json" \
	report --table dcache --name-set numbered --format json
expect 2 "khash-bench: --funcs does not apply to a table that reads a string hash" \
	report --table dcache --name-set numbered --funcs hash_64
expect 2 "khash-bench: table dcache reads names: give --names FILE or --name-set NAME" report --table dcache

# the dcache's size by memory, worked by hand from alloc_large_system_hash():
# 2^(30 + i) bytes is 2^(18 + i) pages, a bucket per two up to 64 GiB, then
# one per 4x more pages for each 4x past 64 GiB
same_line='dcache buckets (log2, --bits) by memory, 64-bit: 1 GiB 17, 2 GiB 18, 4 GiB 19, 8 GiB 20, 16 GiB 21, 32 GiB 22, 64 GiB 23, 128 GiB 23, 256 GiB 24, 512 GiB 24, 1024 GiB 25'
[ "$("$kb" list | grep '^dcache buckets')" = "$same_line" ]; check "list: the dcache's size by memory" $?

# explain: the pairs of numbered names that share their first 8 bytes and
# differ in both the others (counted here), all in one bucket under sum
want=$(python3 -c '
names = ["file%06d" % i for i in range(1, 4097)]
n = sum(1 for i in range(4096) for j in range(i + 1, 4096)
        if names[i][:8] == names[j][:8] and names[i][8] != names[j][8] and names[i][9] != names[j][9])
print(n)')
"$kb" explain --table dcache --name-set numbered --sgen sum --bits 10 >"$tmp/explain"
check "explain over names" $?
has -E "^ +10 +8 +0 +$want +$want +100.0% " "$tmp/explain"
check "explain: the $want pairs sharing 8 bytes and differing in the last 2 all share a bucket" $?
"$kb" explain --table dcache --names "$top/tests/data/names/dpkg-components.txt" --sgen new --bits 10 \
	>"$tmp/explain.new"
has -x "within 2 standard deviations of a random function's: nothing to explain" "$tmp/explain.new"
check "explain: real names under new, nothing to explain" $?
expect 2 "khash-bench: explain takes one --sgen" explain --table dcache --name-set numbered --sgen sum,new
expect 2 "khash-bench: explain writes a table that reads a string hash as text only" \
	explain --table dcache --name-set numbered --sgen new --format csv
expect 2 "khash-bench: --sgen applies to a table that reads a string hash ('khash-bench list')" \
	explain --keyset seq --bits 8 --sgen new

# the name sets: the same at every run, each generation a cell
for set in numbered ipv4 ipv6 users hosts gss-handles; do
	"$kb" skew --table nfsd-idmap --sgen sum,fold,minimal,mix,salted,new --name-set "$set" --count 3000 \
		--format csv >"$tmp/a.csv" 2>&1 &&
		"$kb" skew --table nfsd-idmap --sgen sum,fold,minimal,mix,salted,new --name-set "$set" --count 3000 \
			--format csv >"$tmp/b.csv" 2>&1 && cmp -s "$tmp/a.csv" "$tmp/b.csv" &&
		[ "$(grep -c ",$set,nfsd-idmap," "$tmp/a.csv")" = 6 ]
	check "name set $set: deterministic, six cells" $?
done
# the story in one line: the 64-bit fold that added the halves (sum) puts
# consecutive names in a few dcache buckets; from v3.17 they spread
"$kb" skew --table dcache --sgen sum,new --word 64 --name-set numbered --count 10000 >"$tmp/story"
has -x '  verdict: broken' "$tmp/story" && [ "$(grep -c '  verdict: broken' "$tmp/story")" = 1 ] &&
	has -F 'sum dcache on 64-bit, numbered' "$tmp/story"
check "dcache, numbered names: sum broken, new not" $?

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
