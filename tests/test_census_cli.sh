#!/bin/bash
# SPDX-License-Identifier: MIT
# khash-bench census: the fixture's figures as tests/census/gen_expected.py
# works them out, every format, standard input, several files, atomic
# output, and every class of bad census file with its one-line message and
# exit status (1), with no output file left behind.
# kernel/census/extract.py --check takes the same verdicts, through
# khash-bench: the format has one grammar.
# usage: test_census_cli.sh KHASH_BENCH CENSUS_DIR [EXTRACT_PY]
set -u
export LC_ALL=C
kb=$1
dir=$2
extract=${3:-}
fixture=$dir/fixture.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"


# expect STATUS MESSAGE ARGS...: exit status, exact stderr, no -o file left
expect() { refuses "$1" "$2" census "${@:3}"; }

# bad NAME MESSAGE LINES...: a census file of these lines must be refused
# with "khash-bench: FILE:MESSAGE" (MESSAGE starts with the line number)
head64='khash-census 1
meta word 64
meta arch x86_64
meta kernel test'
head64v2=${head64/khash-census 1/khash-census 2}
bad() {
	local name=$1 msg=$2
	shift 2
	printf '%s\n' "$@" >"$tmp/bad.txt"
	expect 1 "khash-bench: $tmp/bad.txt:$msg" "$tmp/bad.txt" || echo "  (case: $name)"
	[ -z "$extract" ] && return
	KHASH_BENCH=$kb python3 "$extract" --check "$tmp/bad.txt" >"$tmp/extract.out" 2>&1
	[ $? = 1 ] && [ "$(cat "$tmp/extract.out")" = "$tmp/bad.txt: $tmp/bad.txt:$msg" ]
	check "extract.py --check refuses it alike ($name)" $?
}

"$kb" census --help >"$tmp/help" 2>&1; check "census --help exits 0" $?
grep -q '^Usage: khash-bench census ' "$tmp/help"; check "census --help: usage" $?
# both formats, and the class of a site with no bucket (the help is folded)
tr '\n' ' ' <"$tmp/help" | grep -q "format khash-census 1, or 2, whose site lines may end in the name of the module" &&
	tr '\n' ' ' <"$tmp/help" | grep -q "'feeds another hash' where its entry names the hash"
check "census --help: format 2's modules, and 'feeds another hash'" $?

## the fixture, in every format
if [ -n "$extract" ]; then
	KHASH_BENCH=$kb python3 "$extract" --check "$fixture" >"$tmp/extract.out" 2>&1
	[ $? = 0 ] && [ "$(cat "$tmp/extract.out")" = "$fixture: OK, 7 sites, 320 calls, 311 keys" ]
	check "extract.py --check takes the fixture: 7 sites, 320 calls, 311 keys" $?
	# --same-sites: function, bits, file:line and module count; ids and calls do not
	sames() { KHASH_BENCH=$kb python3 "$extract" --same-sites "$@" >"$tmp/same.out" 2>&1; }
	sames "$fixture" "$fixture"
	[ $? = 0 ] && [ "$(cat "$tmp/same.out")" = "same sites: 7 sites ran in both" ]
	check "extract.py --same-sites: a file has its own sites" $?
	sed 's/^site 6 hash_32 10 5 /site 6 hash_32 10 99 /' "$fixture" >"$tmp/calls.txt"
	sames "$fixture" "$tmp/calls.txt"
	check "extract.py --same-sites: other call counts are the same sites" $?
	sed 's/^site 6 hash_32 10 5 /site 6 hash_32 11 5 /' "$fixture" >"$tmp/bits.txt"
	sames "$fixture" "$tmp/bits.txt"
	[ $? = 1 ] && [ "$(cat "$tmp/same.out")" = "different sites: 1 only in $fixture, 1 only in $tmp/bits.txt
- hash_32 10 kernel/census_b.c:20
+ hash_32 11 kernel/census_b.c:20" ]
	check "extract.py --same-sites: other bits are another site, shown on both sides" $?
	sed 's/^khash-census 1/khash-census 3/' "$fixture" >"$tmp/v3.txt"
	sames "$fixture" "$tmp/v3.txt"
	[ $? = 1 ] && grep -q "^extract.py: $tmp/v3.txt:1: " "$tmp/same.out"
	check "extract.py --same-sites: a bad file is refused, naming it" $?
	sames "$fixture"
	check "extract.py --same-sites with one file: usage, exit 2" $(($? != 2))
fi
"$kb" census "$fixture" >"$tmp/fix.txt"; check "census of the fixture exits 0" $?
grep -q '^7 sites: 6 judged, 1 with too few keys (fewer than 21 distinct)$' "$tmp/fix.txt"
check "text: the summary line" $?
# fs/namei.c:2109 (fold_hash, kind other) picks no bucket: no verdict
grep -q '^  old        2 broken,    0 skewed,    3 fine$' "$tmp/fix.txt" &&
	grep -q '^  new        0 broken,    0 skewed,    5 fine$' "$tmp/fix.txt" &&
	grep -q '^  no verdict: 1 judged sites pick no bucket, 0 of them feed another hash$' "$tmp/fix.txt"
check "text: broken under old, none under new, one site with no verdict" $?
# worst first: the sites in the order the sort rule gives them (the site
# is the last column; the lines under a site are indented)
[ "$(awk '/ site$/{on = 1; next} on && !/^    [a-z]/ && !/^      / {print $NF}' "$tmp/fix.txt" | tr '\n' ' ')" = \
  "kernel/census_a.c:10 fs/btrfs/raid56.c:178 fs/btrfs/inode.c:5866 fs/inode.c:1520 fs/inode.c:1234 fs/namei.c:2109 kernel/census_b.c:20 " ]
check "text: worst first, no bucket after the judged, too few keys last" $?
grep -q '^ too few keys  *10  0        3 hash_32  *kernel/census_b.c:20$' "$tmp/fix.txt"; check "text: too few keys" $?
grep -q '^   #19.3  0.0476  0.0476  0.0476   11  3       45 hash_64  *fs/btrfs/raid56.c:178$' "$tmp/fix.txt"
check "text: X^2/df per generation, broken marked #" $?
# no line of the table is wider than 120 columns (the fixture's: 100); the
# heading names the file as given, as long as its path is
[ "$(awk '!/^census / { if (length > m) m = length } END { print m }' "$tmp/fix.txt")" -le 100 ]
check "text: no line over 100 columns" $?
# under each site its kind, and the cost that kind pays per generation
grep -A2 ' fs/btrfs/raid56.c:178$' "$tmp/fix.txt" | grep -q '^    chained: btrfs-raid56 (named table)$' &&
	grep -A2 ' fs/btrfs/raid56.c:178$' "$tmp/fix.txt" | grep -q '^    entries compared per successful lookup: 11.8 (3.13x), 3.33 (0.89x), '
check "text: a named table's kind and its cost" $?
grep -A2 ' fs/namei.c:2109$' "$tmp/fix.txt" | grep -q '^  (2.83)  (2.83)  (2.83) (0.575)  32w' ||
	grep -q '^  (2.83)  (2.83)  (2.83) (0.575)  32w  4       70 __hash_32  *fs/namei.c:2109$' "$tmp/fix.txt" &&
	grep -A2 ' fs/namei.c:2109$' "$tmp/fix.txt" | grep -q '^    no bucket, no cost$'
check "text: a hash that picks no bucket: X^2/df in parentheses, no verdict, no cost" $?
grep -A2 ' kernel/census_a.c:10$' "$tmp/fix.txt" | grep -q '^      old     15 (3.33x) / 29 (3.62x) / 28 (4.00x)$'
check "text: a site of no kind keeps every kind's cost" $?
grep -A1 ' kernel/census_b.c:20$' "$tmp/fix.txt" | grep -q '^    kind unknown$'
check "text: too few keys, kind unknown" $?

"$kb" census --format csv "$fixture" >"$tmp/fix.csv"; check "csv exits 0" $?
python3 "$dir/gen_expected.py" >"$tmp/expected"
python3 - "$tmp/fix.csv" "$tmp/expected" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = {(r["id"], r["gen"]): r for r in rows}
bad = 0
for line in open(sys.argv[2]):
    if line.startswith("#"):
        continue
    f = line.split()
    if f[1] == "-":   # too few keys: every generation says so
        for g in ("old", "minimal", "posted", "new"):
            r = got[(f[0], g)]
            bad += r["verdict"] != "too few keys" or r["at"] != "0" or r["distinct"] != f[3]
        continue
    r = got[(f[0], f[1])]
    ok = (r["schema"] == "4" and r["at"] == f[2] and r["distinct"] == f[3]
          and abs(float(r["chi2_per_df"]) - float(f[4])) <= 1e-8 * max(1, float(f[4]))
          and r["used"] == f[5] and r["max_load"] == f[6]
          and r["buckets"] == str(2 ** int(f[2])))
    # the costs, from X^2 as gen_expected.py has it: S/n = (X^2 + n) / m
    n, m = int(f[3]), 2 ** int(f[2])
    per = (float(f[4]) * (m - 1) + n) / m
    near = lambda a, b: abs(float(a) - b) <= 1e-4 * max(1, abs(b))
    ok = ok and (near(r["hit_compares"], (per + 1) / 2) and near(r["miss_compares"], per)
                 and near(r["others_met"], per - 1)
                 and near(r["hit_vs_random"], (per + 1) / 2 / (1 + (n - 1) / (2 * m)))
                 and near(r["met_vs_random"], (per - 1) / ((n - 1) / m)))
    if not ok:
        print("mismatch:", line.strip(), dict(r))
        bad += 1
# each site's kind, where it comes from, and the cost that kind pays: the
# chained figure for a chained table, none for a hash that picks no bucket
kinds = {"1": ("unknown", "none", ""), "2": ("chained", "table", "btrfs-raid56"),
         "3": ("other", "site", "32-bit name hash (fold_hash)"),
         "4": ("chained", "table", "inode-hash"), "5": ("chained", "table", "inode-hash"),
         "6": ("unknown", "none", ""), "7": ("chained", "table", "inode-hash")}
for r in rows:
    want = kinds[r["id"]]
    cost = (r["cost"], r["cost_random"], r["cost_vs_random"])
    if want[0] == "chained" and r["at"] != "0":
        ok = (float(cost[0]) == float(r["hit_compares"]) and
              abs(float(cost[0]) / float(cost[1]) - float(r["hit_vs_random"])) <= 1e-4 and
              cost[2] == r["hit_vs_random"])
    else:
        ok = cost == ("", "", "")
    if (r["kind"], r["kind_from"], r["indexes"]) != want or not ok:
        print("kind mismatch:", dict(r))
        bad += 1
sys.exit(len(rows) != 28 or bad != 0)
EOF
check "csv: every site and generation as gen_expected.py works it out, with its costs" $?

"$kb" census --format json "$fixture" >"$tmp/fix.json"
python3 -m json.tool "$tmp/fix.json" >/dev/null; check "json parses" $?
python3 - "$tmp/fix.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["files"][0]
ok = (d["schema"] == "khash-bench/census" and d["schema_version"] == 5
      and f["arch"] == "x86_64" and f["word"] == 64 and f["meta"]["cap"] == "64"
      and f["summary"]["sites"] == 7 and f["summary"]["old"]["broken"] == 2
      and [s["id"] for s in f["sites"]] == [1, 2, 5, 7, 4, 3, 6]
      and f["sites"][6]["gens"] is None and f["sites"][6]["verdict"] == "too few keys"
      and f["sites"][2]["sb_found"] == 40 and f["sites"][2]["bits_from"] == "inode"
      and f["sites"][0]["gens"]["old"]["verdict"] == "broken"
      and f["sites"][1]["table"] == "btrfs-raid56" and f["sites"][0]["table"] is None
      and f["sites"][1]["kind"] == "chained" and f["sites"][1]["kind_from"] == "table"
      and f["sites"][1]["gens"]["old"]["cost"] == f["sites"][1]["gens"]["old"]["hit_compares"]
      and f["sites"][5]["kind"] == "other" and f["sites"][5]["gens"]["new"]["cost"] is None
      and f["sites"][5]["gens"]["old"]["verdict"] == "no bucket" and f["sites"][5]["feeds"] is None
      and f["summary"]["no_bucket"] == 1 and f["summary"]["feeds_another_hash"] == 0
      and f["summary"]["new"] == {"broken": 0, "skewed": 0, "ok": 5, "even": 0}
      and f["sites"][0]["kind"] == "unknown" and f["sites"][0]["indexes"] is None
      and f["sites"][6]["kind"] == "unknown" and f["sites"][6]["kind_from"] == "none")
sys.exit(not ok)
EOF
check "json: schema, meta, summary, order, verdicts" $?

## standard input, compressed input, several files
"$kb" census - <"$fixture" >"$tmp/stdin.txt"
sed 's|^census <stdin>:|census FIXTURE:|' "$tmp/stdin.txt" >"$tmp/a"
sed "s|^census $fixture:|census FIXTURE:|" "$tmp/fix.txt" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b"; check "- reads standard input" $?
if command -v xz >/dev/null; then
	xz -c "$fixture" >"$tmp/fix.txt.xz"
	xz -dc "$tmp/fix.txt.xz" | "$kb" census - >"$tmp/xz.txt"
	cmp -s "$tmp/stdin.txt" "$tmp/xz.txt"; check "xz -dc | census -" $?
fi
cat >"$tmp/i386.txt" <<'EOF'
khash-census 1
meta word 32
meta arch i386
meta kernel test
site 9 hash_ptr 8 100 kernel/census_c.c:30
keys 9 c1000000 c1010000 c1020000 c1030000 c1040000 c1050000 c1060000 c1070000 c1080000 c1090000 c10a0000 c10b0000 c10c0000 c10d0000 c10e0000 c10f0000
keys 9 c1100000 c1110000 c1120000 c1130000 c1140000 c1150000 c1160000 c1170000 c1180000 c1190000 c11a0000 c11b0000 c11c0000 c11d0000 c11e0000 c11f0000
EOF
"$kb" census --format csv "$fixture" "$tmp/i386.txt" >"$tmp/two.csv"
[ "$(cut -d, -f3,4 "$tmp/two.csv" | sort -u | tr '\n' ' ')" = "arch,word i386,32 x86_64,64 " ]
check "two files: each under its arch and word" $?
# the i386 site: 32 page-aligned pointers, old hash_32 keeps their top bits
# (x * 0x9e370001 = x mod 2^32 when x is 2^16-aligned): 32 keys judge 2^2
# buckets (32 * 31 >= 200 * 2^2), and all 32 fall in one: X^2/df = 32
grep -q '^4,[^,]*i386.txt,i386,32,9,kernel/census_c.c:30,hash_ptr,,8,site,2,100,32,32,,old,4,32,' "$tmp/two.csv"
check "i386: old hash_ptr of 64 KiB-aligned pointers fills one bucket" $?

## a site that picks no bucket: hash32_ptr words of kind other, which the
## old rules called broken, feed another hash and get no verdict
{
	printf 'khash-census 1\nmeta word 64\nmeta arch x86_64\nmeta kernel test\n'
	# the bucket of the posix timer hash: hash_32 of the word ^ nr, spread
	echo "site 11 hash_32 9 64 kernel/time/posix-timers.c:115"
	for i in 0 1 2 3; do
		printf 'keys 11'; for j in $(seq 0 15); do printf ' %x' $(((i * 16 + j) * 40503 + 7)); done; echo
	done
	# 64 signal_structs 64 bytes apart: hash32_ptr xors the halves, whose
	# top bits do not move, so all 64 share the top 4 bits of the word; the
	# neighbour hash's line twice (a header's line, two .c files)
	for s in "12 hash32_ptr 0 64 kernel/time/posix-timers.c:115" "13 hash32_ptr 0 64 include/net/ndisc.h:375" \
		"14 hash32_ptr 0 64 include/net/ndisc.h:375"; do
		echo "site $s"
		for i in 0 1 2 3; do
			printf 'keys %s' "${s%% *}"; for j in $(seq 0 15); do printf ' %x' $((0xffff888004000000 + (i * 16 + j) * 64)); done; echo
		done
	done
} >"$tmp/other.txt"
"$kb" census --format csv "$tmp/other.txt" >"$tmp/other.csv" &&
	"$kb" census "$tmp/other.txt" >"$tmp/other.out" &&
	"$kb" census --format json "$tmp/other.txt" >"$tmp/other.json"
check "census of hash32_ptr words that pick no bucket" $?
# the old rules' verdict, worked out here: the top 4 bits of
# (u32)(p ^ p >> 32) for the 64 keys, X^2/df over 16 buckets
x2=$(python3 -c '
c = [0] * 16
for i in range(64):
    p = 0xffff888004000000 + i * 64
    c[((p ^ (p >> 32)) & 0xffffffff) >> 28] += 1
print(round((16 / 64 * sum(x * x for x in c) - 64) / 15, 6))')
[ "$x2" = 64.0 ] && grep -q "^4,[^,]*,x86_64,64,12,kernel/time/posix-timers.c:115,hash32_ptr,,32,word,4,64,64,64,,old,16,64,.*,feeds another hash,other,site," "$tmp/other.csv" &&
	grep -q "^4,[^,]*,x86_64,64,13,include/net/ndisc.h:375,hash32_ptr,,32,word,4,64,64,64,,new,16,64,.*,feeds another hash,other,site," "$tmp/other.csv" &&
	! grep -q ',broken,' "$tmp/other.csv"
check "csv: X^2/df 64 (broken by the old rules) is 'feeds another hash'" $?
grep -q '^  new        0 broken,    0 skewed,    1 fine$' "$tmp/other.out" &&
	grep -q '^  no verdict: 3 judged sites pick no bucket, 3 of them feed another hash$' "$tmp/other.out" &&
	grep -A2 ' hash32_ptr  *kernel/time/posix-timers.c:115$' "$tmp/other.out" |
		grep -q '^    feeds another hash, no cost: hash_32 on this line picks the bucket (under new [0-9.]*, ok)$' &&
	grep -A2 ' include/net/ndisc.h:375$' "$tmp/other.out" |
		grep -q '^    feeds another hash, no cost: xor the key, times a random odd hash_rnd\[0\]: the top bits pick the bucket$' &&
	grep -q '^    (64)    (64)    (64)    (64)  32w  4       64 hash32_ptr ' "$tmp/other.out"
check "text: no verdict, 'feeds another hash', and what picks the bucket" $?
python3 - "$tmp/other.json" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))["files"][0]
by = {s["id"]: s for s in f["sites"]}
ok = (f["summary"]["no_bucket"] == 3 and f["summary"]["feeds_another_hash"] == 3
      and all(f["summary"][g]["broken"] == f["summary"][g]["skewed"] == 0
              and f["summary"][g]["ok"] + f["summary"][g]["even"] == 1
              for g in ("old", "minimal", "posted", "new"))
      and all(by[i]["gens"][g]["verdict"] == "feeds another hash"
              for i in (12, 13, 14) for g in ("old", "minimal", "posted", "new"))
      and by[12]["gens"]["old"]["chi2_per_df"] == 64
      and by[12]["feeds"] == "hash_32" and by[12]["bucket_site"] == 11
      and by[13]["feeds"].startswith("xor the key") and by[13]["bucket_site"] is None
      and by[11]["feeds"] is None and by[11]["kind"] == "chained")
sys.exit(not ok)
EOF
check "json: 'feeds another hash', the hash it feeds and the line's bucket site" $?
if command -v gnuplot >/dev/null; then
	"$kb" census --format csv -o "$tmp/other2.csv" --plot "$tmp/oplots" "$tmp/other.txt" &&
		[ "$(grep -c ' 4 1.8062 F "feeds another hash" "(64) F"$' "$tmp/oplots/census.dat")" = 12 ] &&
		grep -q '^[0-9] "x86_64 include/net/ndisc.h:375 hash32_ptr #13"$' "$tmp/oplots/census.dat" &&
		grep -q '^[0-9] "x86_64 include/net/ndisc.h:375 hash32_ptr #14"$' "$tmp/oplots/census.dat" &&
		python3 "$(dirname "$0")/check_heatmap_data.py" census "$tmp/other2.csv" "$tmp/oplots" >/dev/null
	check "--plot data: 'feeds another hash', its own colour, no B; one line's two sites named apart" $?
fi

## version 2: module sites read and judged like the kernel's own; the
## "not called" comment of a module's site keeps its file:line
{
	echo "$head64v2"
	echo "site 1 hash_32 4 40 kernel/a.c:1"
	printf 'keys 1 %s\n' "$(seq 1 16 | tr '\n' ' ' | sed 's/ $//')" "$(seq 17 32 | tr '\n' ' ' | sed 's/ $//')"
	echo "site 7 hash_32 4 40 fs/nfsd/x.c:9 nfsd"
	printf 'keys 7 %s\n' "$(seq 101 116 | tr '\n' ' ' | sed 's/ $//')" "$(seq 117 132 | tr '\n' ' ' | sed 's/ $//')"
	echo "# site 8 not called: hash_ptr fs/nfsd/y.c:3 nfsd"
} >"$tmp/mod.txt"
"$kb" census --format csv "$tmp/mod.txt" >"$tmp/mod.csv"; check "a version 2 file with modules is read" $?
[ "$(awk -F, '$5 == 1 && $6 == "kernel/a.c:1" && $30 == "ok"' "$tmp/mod.csv" | wc -l)" = 4 ] &&
	[ "$(awk -F, '$5 == 7 && $6 == "fs/nfsd/x.c:9" && $30 == "ok"' "$tmp/mod.csv" | wc -l)" = 4 ]
check "version 2: the module's site is judged like the kernel's" $?

## output files: atomic, and none on failure
"$kb" census -o "$tmp/o.txt" "$fixture" && cmp -s "$tmp/o.txt" "$tmp/fix.txt"
check "-o FILE writes what stdout shows" $?
echo keep >"$tmp/keep.txt"
printf 'khash-census 3\n' >"$tmp/v2.txt"
"$kb" census -o "$tmp/keep.txt" "$tmp/v2.txt" 2>/dev/null
[ $? = 1 ] && [ "$(cat "$tmp/keep.txt")" = keep ]; check "a bad file leaves -o's target untouched" $?

## usage errors: exit 2
expect 2 "khash-bench: census needs a census file (or - for standard input)"
expect 2 "khash-bench: census reads standard input (-) once at most" - -
expect 2 "khash-bench: option '--count' is not used by 'census' (see 'khash-bench census --help')" \
	--count 5 "$fixture"
expect 2 "khash-bench: unknown format 'xml' (text, csv, json)" --format xml "$fixture"

## runtime errors: one line naming file:line, exit 1, no output
expect 1 "khash-bench: $tmp/none.txt: No such file or directory" "$tmp/none.txt"
expect 1 "khash-bench: $tmp: is a directory, not a census file" "$tmp"
: >"$tmp/empty.txt"
expect 1 "khash-bench: $tmp/empty.txt: empty, not a census file" "$tmp/empty.txt"
# the second file is bad: nothing for the first either
expect 1 "khash-bench: $tmp/v2.txt:1: not a census file: the first line must be 'khash-census 1' or 'khash-census 2'" \
	"$fixture" "$tmp/v2.txt"
bad "magic" "1: not a census file: the first line must be 'khash-census 1' or 'khash-census 2'" "khash-census 3"
bad "magic 0" "1: not a census file: the first line must be 'khash-census 1' or 'khash-census 2'" "khash-census 0"
bad "magic 22" "1: not a census file: the first line must be 'khash-census 1' or 'khash-census 2'" "khash-census 22"
bad "CR" "2: a CR line end (the format's lines end in LF alone)" "khash-census 1" $'meta word 64\r'
bad "empty line" "5: an empty line" "$head64" ""
bad "unknown record" "5: unknown record 'sites'" "$head64" "sites 1 hash_32 8 1 a.c:1"
bad "double space" "5: fields must be separated by single spaces" "$head64" "site 1  hash_32 8 1 a.c:1"
bad "site fields" "5: site needs 5 fields (id func bits calls file:line), not 4" "$head64" "site 1 hash_32 8 1"
# version 2: a module's name may end a site line; never in version 1
bad "module in version 1" "5: site needs 5 fields (id func bits calls file:line), not 6" \
	"$head64" "site 1 hash_32 8 1 a.c:1 nfsd"
bad "site fields v2" "5: site needs 5 fields (id func bits calls file:line) and maybe a module, not 7" \
	"$head64v2" "site 1 hash_32 8 1 a.c:1 nfsd x"
bad "module name" "5: module 'nf.sd' is not a module's name" "$head64v2" "site 1 hash_32 8 1 a.c:1 nf.sd"
bad "unknown function" "5: unknown function 'hash_65'" "$head64" "site 1 hash_65 8 1 a.c:1"
bad "bits range" "5: bits 33 out of range for hash_32 on a 64-bit kernel: 1..32" "$head64" "site 1 hash_32 33 1 a.c:1"
bad "bits of __hash_32" "5: bits 8 out of range for __hash_32 on a 64-bit kernel: 0" "$head64" "site 1 __hash_32 8 1 a.c:1"
bad "no bits" "5: bits 0 out of range for hash_ptr on a 64-bit kernel: 1..64" "$head64" "site 1 hash_ptr 0 1 a.c:1"
bad "decimal" "5: calls '0x10' is not a decimal number" "$head64" "site 1 hash_32 8 0x10 a.c:1"
bad "file:line" "5: site 'a.c' is not file:line" "$head64" "site 1 hash_32 8 1 a.c"
bad "duplicate id" "6: site id 1 given twice" "$head64" "site 1 hash_32 8 1 a.c:1" "site 1 hash_64 8 1 a.c:2"
bad "undeclared keys" "6: keys for site 2, which no site line before declares" "$head64" "site 1 hash_32 8 1 a.c:1" "keys 2 1"
bad "keys before site" "5: keys for site 1, which no site line before declares" "$head64" "keys 1 1" "site 1 hash_32 8 1 a.c:1"
bad "too wide" "6: key 100000000 does not fit the 32-bit argument of hash_32 on a 64-bit kernel" \
	"$head64" "site 1 hash_32 8 5 a.c:1" "keys 1 100000000"
bad "wider than 64" "6: key '10000000000000000' is wider than 64 bits" \
	"$head64" "site 1 hash_64 8 5 a.c:1" "keys 1 10000000000000000"
bad "upper-case" "6: key 'AB' is not lower-case hex" "$head64" "site 1 hash_32 8 5 a.c:1" "keys 1 AB"
bad "0x" "6: key '0x1' is not lower-case hex" "$head64" "site 1 hash_32 8 5 a.c:1" "keys 1 0x1"
bad "17 keys" "6: more than 16 keys on a line" "$head64" "site 1 hash_32 8 99 a.c:1" \
	"keys 1 1 2 3 4 5 6 7 8 9 a b c d e f 10 11"
bad "one input" "6: inode_hash takes two inputs a key (<hex>:<hex>), not '1'" \
	"$head64" "site 1 inode_hash 0 5 a.c:1" "keys 1 1"
bad "two inputs" "6: hash_32 takes one input a key, not '1:2'" \
	"$head64" "site 1 hash_32 8 5 a.c:1" "keys 1 1:2"
bad "keys beyond calls" "6: site 1 has more keys than its 2 calls" \
	"$head64" "site 1 hash_32 8 2 a.c:1" "keys 1 1 2 3"
printf '%s\n%s' "$head64" "site 1 hash_32 8 2 a.c:1" >"$tmp/bad.txt"
expect 1 "khash-bench: $tmp/bad.txt:5: the last line has no LF" "$tmp/bad.txt"
bad "32-bit pointer" "6: key 100000000 does not fit the 32-bit argument of hash_ptr on a 32-bit kernel" \
	"khash-census 1" "meta word 32" "meta arch i386" "meta kernel test" \
	"site 1 hash_ptr 8 5 a.c:1" "keys 1 100000000"
bad "arch and word" "3: meta arch x86_64 does not run a 32-bit kernel" \
	"khash-census 1" "meta word 32" "meta arch x86_64"
bad "site before word" "2: site before 'meta word'" "khash-census 1" "site 1 hash_32 8 1 a.c:1"
bad "meta twice" "5: meta word given twice" "$head64" "meta word 64"
bad "meta text" "5: meta needs a name and a text" "$head64" "meta cap"
# a required meta missing: named at the end, without a line
printf 'khash-census 1\nmeta word 64\nmeta arch x86_64\n' >"$tmp/nokernel.txt"
expect 1 "khash-bench: $tmp/nokernel.txt: no 'meta kernel' line" "$tmp/nokernel.txt"
printf 'khash-census 1\nmeta arch x86_64\nmeta kernel k\n' >"$tmp/noword.txt"
expect 1 "khash-bench: $tmp/noword.txt: no 'meta word' line" "$tmp/noword.txt"
"$kb" census - <"$tmp/v2.txt" >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "khash-bench: <stdin>:1: not a census file: the first line must be 'khash-census 1' or 'khash-census 2'" ]
check "standard input named <stdin> in messages" $?

## the heatmap
if command -v gnuplot >/dev/null; then
	"$kb" census --plot "$tmp/plots" "$fixture" >/dev/null 2>"$tmp/plot.err"
	for e in dat gp png svg; do
		[ -s "$tmp/plots/census.$e" ]; check "--plot writes census.$e" $?
	done
	[ ! -s "$tmp/plot.err" ]; check "--plot says nothing on stderr" $?
	# one line a judged site and generation, worst (site 1) at the top
	# row, coloured broken (class 3) and marked B (X^2/df 29), then the
	# rows' names, each with its site's id
	[ "$(awk 'NF && !/^#/ && $3 ~ /^[0-9]$/' "$tmp/plots/census.dat" | wc -l)" = 24 ] &&
		grep -q '^0 5 3 1.4624 B "broken" "29 B"$' "$tmp/plots/census.dat" &&
		grep -q '^0 0 4 0.4519 N "no bucket" "(2.83) N"$' "$tmp/plots/census.dat" &&
		grep -q '^5 "x86_64 kernel/census_a.c:10 hash_32 #1"$' "$tmp/plots/census.dat"
	check "--plot data: 6 sites x 4 generations, the worst on top, no bucket at the bottom" $?
	"$kb" census --format csv -o "$tmp/fixture.csv" --plot "$tmp/plots2" "$fixture" &&
		python3 "$(dirname "$0")/check_heatmap_data.py" census "$tmp/fixture.csv" "$tmp/plots2"
	check "--plot: the heatmap painted as the CSV says, cell by cell" $?
	[ -z "$(find "$tmp/plots" -name '*.tmp.*')" ]; check "--plot leaves no temporaries" $?
else
	echo "SKIP: gnuplot is not installed: --plot not checked"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
