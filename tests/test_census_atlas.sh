#!/bin/bash
# SPDX-License-Identifier: MIT
# khash-bench census --atlas: the fixture's figures, worked out by hand
# below, in text and JSON; every class of bad atlas with its one-line
# message and exit status, and no output file left behind; and the
# committed 6.1 atlas against the x86_64 census, whose figures must be
# the ones the atlas's own census column gives (made by make-atlas.py,
# not by this code); and the table by subsystem of both committed
# atlases (6.1, 6.12) against counts taken from their TSVs directly.
# usage: test_census_atlas.sh KHASH_BENCH CENSUS_DIR DATA_DIR
set -u
export LC_ALL=C
kb=$1
dir=$2
data=$3
census=$dir/atlas-census.txt
atlas=$dir/atlas.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# checks.sh sets the tally too; set here so that shellcheck without -x,
# which does not follow the file, sees them
passed=0 failed=0
# shellcheck source=tests/checks.sh disable=SC1091
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# expect STATUS MESSAGE ARGS...: exit status, exact stderr, no -o file left
expect() { refuses "$1" "$2" census "${@:3}"; }

# bad NAME MESSAGE LINES...: an atlas of these lines (after the version
# line and the column header) must be refused with "FILE:MESSAGE"
tab=$'\t'
header="file${tab}line${tab}function${tab}called${tab}key${tab}bits${tab}table${tab}size${tab}build${tab}reason${tab}subsystem${tab}expanded${tab}census"
# row FILE LINE BUILD REASON EXPANDED CENSUS: a row of 13 fields
row() {
	printf '%s\t%s\tf\thash_32\tk\t8\t\t\t%s\t%s\tsub\t%s\t%s' "$1" "$2" "$3" "$4" "$5" "$6"
}
bad() {
	local name=$1 msg=$2
	shift 2
	printf '%s\n' '# khash-atlas 1' "$header" "$@" >"$tmp/bad.tsv"
	expect 1 "khash-bench: $tmp/bad.tsv:$msg" "$census" --atlas "$tmp/bad.tsv" ||
		echo "  (case: $name)"
}
# raw NAME MESSAGE: the atlas $tmp/bad.tsv as written must be refused
raw() {
	expect 1 "khash-bench: $tmp/bad.tsv$2" "$census" --atlas "$tmp/bad.tsv" ||
		echo "  (case: $1)"
}

## the fixture, by hand.  18 rows: build y 6 (a.c:10 twice, b.c:20,
## e.c:40, p.c:4, q.c:6), m 7 (b.c:22, c.c:5, f.c:12, f.c:30, s.c:8,
## k.c:9, x.c:11), n 2, h 2, ? 1.  Reached: a.c:10 (both calls, and the
## site record wins over the not-called comment there), b.c:20 through
## its expanded line 31, c.c:5, d.h:7, n.c:3: 4 of the 13 built, 6 in
## all.  Compiled, not called: b.c:22 through its expanded 50, e.c:40,
## f.c:12 (the comment of another shape at f.c:30 counts for nothing).
## The 6 built rows left are not in the census kernel: f.c:30, s.c:8 and
## p.c:4 hardware, k.c:9 and x.c:11 kvm, q.c:6 workload.
"$kb" census "$census" --atlas "$atlas" >"$tmp/fix.txt"; check "census --atlas exits 0" $?
grep -qxF "atlas $atlas: reached 4 of the 13 sites Debian builds (6 built in, 7 modules); of all 18 sites 6 (1 of 2 in headers, 1 of 2 not built, 0 of 1 undecided)" "$tmp/fix.txt"
check "text: the reached line" $?
grep -qxF "never reached of those 13: 6 not in the census kernel (3 hardware, 2 kvm, 1 workload), 3 compiled but not called (1 hardware, 0 kvm, 2 workload)" "$tmp/fix.txt"
check "text: the never-reached line" $?
# the list: by class, then hint, in the atlas's order
[ "$(sed -n '/^never reached/,/^Per generation X/p' "$tmp/fix.txt" | sed '1d;$d' | tr '\n' '|')" = \
  "  not in the census kernel, hardware:|    drivers/gpu/f.c:30 f2 hash_ptr m|    sound/core/s.c:8 s hash_32 m|    arch/x86/mm/p.c:4 p hash_long y|  not in the census kernel, kvm:|    virt/kvm/k.c:9 k hash_64 m|    arch/x86/kvm/x.c:11 x hash_64 m|  not in the census kernel, workload:|    net/core/q.c:6 q hash_32 y|  compiled but not called, hardware:|    drivers/gpu/f.c:12 f1 hash_ptr m|  compiled but not called, workload:|    fs/b.c:22 #define B2_HASH hash_32 m|    kernel/e.c:40 e hash_32 y|" ]
check "text: the never-reached sites by class and hint" $?
# by subsystem: each top directory, drivers/net under drivers (the one
# deeper subsystem reached: c.c:5), all.  By hand from the 18 rows.
[ "$(sed -n '/^by subsystem/,/^never reached/p' "$tmp/fix.txt" | sed '1d;$d' | tr '\n' '|')" = \
  "  subsystem     in tree  built modules reached    % h/n/?|  arch                2      2       1       0   0%     0|  drivers             3      3       3       1  33%     0|    drivers/net       1      1       1       1 100%     0|  fs                  2      2       1       1  50%     0|  include             2      0       0       0    -     1|  kernel              3      3       0       2  67%     0|  lib                 1      0       0       0    -     0|  mm                  1      0       0       0    -     1|  net                 1      1       0       0   0%     0|  samples             1      0       0       0    -     0|  sound               1      1       1       0   0%     0|  virt                1      1       1       0   0%     0|  all                18     13       7       4  31%     2|" ]
check "text: the table by subsystem" $?

"$kb" census --format json "$census" --atlas "$atlas" >"$tmp/fix.json"; check "json exits 0" $?
python3 - "$tmp/fix.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["files"][0]["atlas"]
want = {"rows": 18, "seen": {"reached": 6, "compiled": 3, "not-compiled": 9},
        "build": {"y": 6, "m": 7, "n": 2, "h": 2, "?": 1},
        "reached": {"y": 3, "m": 1, "n": 1, "h": 1, "?": 0},
        "never_reached": {"compiled": {"hardware": 1, "kvm": 0, "workload": 2},
                          "not-compiled": {"hardware": 3, "kvm": 2, "workload": 1}}}
got = {k: a[k] for k in want}
missed = [(m["file"], m["line"], m["seen"], m["hint"]) for m in a["missed"]]
# every subsystem, the deeper ones too: drivers/gpu's f.c:12 and :30
subs = {s["subsystem"]: (s["top"], s["build"]["m"], s["reached"]["m"])
        for s in a["subsystems"]}
sys.exit(got != want or len(missed) != 9 or
         ("fs/b.c", 22, "compiled", "workload") not in missed or
         len(subs) != 12 or subs["drivers/gpu"] != ("drivers", 2, 0) or
         subs["drivers/net"] != ("drivers", 1, 1) or subs["arch/x86"] != ("arch", 1, 0))
PY
check "json: the atlas object" $?
"$kb" census --format csv "$census" --atlas "$atlas" >"$tmp/a.csv" &&
	"$kb" census --format csv "$census" >"$tmp/b.csv" && cmp -s "$tmp/a.csv" "$tmp/b.csv"
check "csv: nothing new (one row a site and generation)" $?
"$kb" census "$census" --atlas "$atlas" "$census" >"$tmp/two.txt"
[ "$(grep -c '^atlas ' "$tmp/two.txt")" = 2 ]; check "an atlas line under each file" $?

## bad input
expect 1 "khash-bench: $tmp/none.tsv: No such file or directory" "$census" --atlas "$tmp/none.tsv"
expect 2 "khash-bench: census reads standard input (-) once at most" - --atlas -
refuses 2 "khash-bench: option '--atlas' is not used by 'skew' (see 'khash-bench skew --help')" skew --atlas "$atlas"
printf '%s\n' '# khash-atlas 2' "$header" >"$tmp/bad.tsv"
raw "another version" ":1: atlas version '2': this khash-bench reads version 1"
printf '%s\n' 'khash-census 1' >"$tmp/bad.tsv"
raw "not an atlas" ":1: not an atlas: the first line must be '# khash-atlas 1'"
: >"$tmp/bad.tsv"
raw "empty" ": empty, not an atlas"
printf '%s\n' '# khash-atlas 1' '# source x' >"$tmp/bad.tsv"
raw "no header" ": no column header"
printf '%s\n' '# khash-atlas 1' "${header%"${tab}census"}" >"$tmp/bad.tsv"
raw "short header" ":2: not the column header of version 1 ('file TAB line TAB ... census')"
printf '%s\n' '# khash-atlas 1' "$header" "$(row a.c 1 y '' '' '')" >"$tmp/bad.tsv"
printf '%s' "$(row a.c 2 y '' '' '')" >>"$tmp/bad.tsv"
raw "no LF at the end" ":4: the last line has no LF"
printf '%s\r\n' '# khash-atlas 1' >"$tmp/bad.tsv"
raw "CR" ":1: a CR line end (the format's lines end in LF alone)"
{ printf '%s\n' '# khash-atlas 1' "$header"; printf 'a.c\t1\0\n'; } >"$tmp/bad.tsv"
"$kb" census "$census" --atlas "$tmp/bad.tsv" -o "$tmp/out" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && [ ! -e "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'NUL' "$tmp/err"
check "a NUL byte: one line, exit 1" $?
{ printf '%s\n' '# khash-atlas 1' "$header"; head -c 5000 /dev/zero | tr '\0' a; echo; } >"$tmp/bad.tsv"
"$kb" census "$census" --atlas "$tmp/bad.tsv" -o "$tmp/out" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && [ ! -e "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q ':3:' "$tmp/err"
check "a line over 4096 bytes: one line naming it, exit 1" $?
bad "empty line" "3: an empty line" ""
bad "comment after the header" "3: a comment after the column header" "# late"
bad "12 fields" "3: 12 fields, not 13" "$(row a.c 1 y '' '' '' | cut -f1-12)"
bad "14 fields" "3: 14 fields, not 13" "$(row a.c 1 y '' '' '')${tab}x"
bad "no file" "3: an empty file column" "$(row '' 1 y '' '' '')"
bad "line 0" "3: line '0' is not a line number" "$(row a.c 0 y '' '' '')"
bad "line in hex" "3: line '0x1' is not a line number" "$(row a.c 0x1 y '' '' '')"
bad "line empty" "3: line '' is not a line number" "$(row a.c '' y '' '' '')"
bad "line too big" "3: line '99999999999999999999' is not a line number" "$(row a.c 99999999999999999999 y '' '' '')"
bad "build x" "3: build 'x' is not y, m, n, h or ?" "$(row a.c 1 x '' '' '')"
bad "build yy" "3: build 'yy' is not y, m, n, h or ?" "$(row a.c 1 yy '' '' '')"
bad "build empty" "3: build '' is not y, m, n, h or ?" "$(row a.c 1 '' '' '' '')"
bad "n without a reason" "3: build n without a reason" "$(row a.c 1 n '' '' '')"
bad "expanded with an empty entry" "3: expanded '2,,3' is not a list of line numbers" "$(row a.c 1 y '' 2,,3 '')"
bad "expanded not a number" "3: expanded '2,x' is not a list of line numbers" "$(row a.c 1 y '' 2,x '')"
bad "census column" "3: census 'seen' is not reached, compiled or not-compiled" "$(row a.c 1 y '' '' seen)"
bad "second row bad" "4: build 'Y' is not y, m, n, h or ?" "$(row a.c 1 y '' '' '')" "$(row a.c 2 Y '' '' '')"

# "# kernel": numbers joined by dots, once (lines 2 and 3, before the header)
kline() {
	printf '%s\n' '# khash-atlas 1' "$@" "$header" "$(row a.c 1 y '' '' '')" >"$tmp/bad.tsv"
}
kline '# kernel 6'
raw "kernel without a dot" ":2: kernel '6' is not a version like 6.12.118"
kline '# kernel 6..1'
raw "kernel with two dots in a row" ":2: kernel '6..1' is not a version like 6.12.118"
kline '# kernel 6.1.'
raw "kernel ending in a dot" ":2: kernel '6.1.' is not a version like 6.12.118"
kline '# kernel 6.1-rc1'
raw "kernel with a suffix" ":2: kernel '6.1-rc1' is not a version like 6.12.118"
kline '# kernel 6.1.0' '# kernel 6.1.0'
raw "two kernel lines" ":3: a second kernel line"

## an atlas of one kernel against a census of another: refused, since the
## same file:line is other code.  The census's meta kernel starts with the
## version; a census naming none (the fixtures) is taken on trust.
sed 's/^meta kernel .*/meta kernel 6.1.192-3 (Debian linux-source-6.1)/' "$census" >"$tmp/c61.txt"
kline '# kernel 6.12.118'
expect 1 "khash-bench: $tmp/bad.tsv is an atlas of Linux 6.12.118, $tmp/c61.txt a census of 6.1.192: their file:lines do not match" \
	"$tmp/c61.txt" --atlas "$tmp/bad.tsv"
expect 1 "khash-bench: $tmp/bad.tsv is an atlas of Linux 6.12.118, $tmp/c61.txt a census of 6.1.192: their file:lines do not match" \
	"$census" "$tmp/c61.txt" --atlas "$tmp/bad.tsv"
kline '# kernel 6.1.192'
"$kb" census "$tmp/c61.txt" --atlas "$tmp/bad.tsv" >/dev/null; check "the same kernel: accepted" $?
kline '# kernel 6.1.19'
expect 1 "khash-bench: $tmp/bad.tsv is an atlas of Linux 6.1.19, $tmp/c61.txt a census of 6.1.192: their file:lines do not match" \
	"$tmp/c61.txt" --atlas "$tmp/bad.tsv"
"$kb" census "$census" --atlas "$tmp/bad.tsv" >/dev/null; check "a census naming no version: taken on trust" $?
if [ -f "$data/atlas/linux-6.12.tsv" ]; then
	expect 1 "khash-bench: $data/atlas/linux-6.12.tsv is an atlas of Linux 6.12.118, $data/census/6.1-x86_64.txt a census of 6.1.192: their file:lines do not match" \
		"$data/census/6.1-x86_64.txt" --atlas "$data/atlas/linux-6.12.tsv"
fi

## the committed atlas: its own census column (make-atlas.py's) agrees
a61=$data/atlas/linux-6.1.tsv
"$kb" census "$data/census/6.1-x86_64.txt" --atlas "$a61" >"$tmp/real.txt"; check "6.1 atlas: exits 0" $?
# awk programs, not shell expansions
# shellcheck disable=SC2016
count() { awk -F'\t' "$1" "$a61" | wc -l; }
# shellcheck disable=SC2016
built='($9 == "y" || $9 == "m")'
want_reached=$(count "$built && \$13 == \"reached\"")
# shellcheck disable=SC2016
want_all=$(count '$13 == "reached"')
want_built=$(count "$built")
want_compiled=$(count "$built && \$13 == \"compiled\"")
want_not=$(count "$built && \$13 == \"not-compiled\"")
[ "$want_reached" = 27 ] && [ "$want_all" = 35 ] && [ "$want_built" = 276 ]
check "6.1 atlas: its census column says 27 of 276 built, 35 in all" $?
grep -q "^atlas $a61: reached $want_reached of the $want_built sites Debian builds (82 built in, 194 modules); of all 428 sites $want_all (4 of 8 in headers, 4 of 143 not built, 0 of 1 undecided)\$" "$tmp/real.txt"
check "6.1 atlas: reached as the atlas's census column counts" $?
grep -q "^never reached of those $want_built: $want_not not in the census kernel (122 hardware, 8 kvm, 101 workload), $want_compiled compiled but not called (0 hardware, 0 kvm, 18 workload)\$" "$tmp/real.txt"
check "6.1 atlas: never reached, as the atlas's census column counts" $?

## the table by subsystem of both committed atlases, against the TSV
## itself: python3 counts each subsystem's rows by build (by its own
## reading of the rule: the first directory, and the next under arch,
## drivers, fs and net), and where the atlas has a census column the
## reached ones: a row is reached when a site line of the census is at
## its line or an expanded line (khash-bench's rule), and the column must
## say reached there too.  The column says it of a few more in 6.12, which
## make-atlas.py finds through the census patches (kernel/module/main.c's
## lines move) and in a header's macro used by the .c beside it
## (mm/mm_slot.h); they are printed, not counted.  Every top directory's
## row must be those counts, the deeper rows shown those the census
## reached, the columns must sum to the all row, and the all row must be
## the summary line's figures.
# by_subsystem NAME ATLAS CENSUS
by_subsystem() {
	"$kb" census "$3" --atlas "$2" >"$tmp/sub.txt" &&
		"$kb" census --format json "$3" --atlas "$2" >"$tmp/sub.json"
	check "$1: census --atlas exits 0" $?
	python3 - "$2" "$tmp/sub.txt" "$tmp/sub.json" "$3" <<'PY'
import collections, json, re, sys
tsv, txt, js, cen = sys.argv[1:]
rows = [l.rstrip("\n").split("\t") for l in open(tsv) if not l.startswith("#")][1:]
census = any(r[12] for r in rows)
sites = {l.split()[5] for l in open(cen) if l.startswith("site ")}
def reached(r):
    return any("%s:%s" % (r[0], x) in sites for x in [r[1]] + [x for x in r[11].split(",") if x])
def sub(path):
    p = path.split("/")
    return "/".join(p[:2]) if p[0] in ("arch", "drivers", "fs", "net") and len(p) > 2 else p[0]
def counts(key):
    c = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    for r in rows:
        e = c[key(r[0])]
        built = r[8] in ("y", "m")
        e[0] += 1
        e[1] += built
        e[2] += r[8] == "m"
        e[3] += built and reached(r)
        e[4] += not built and reached(r)
    return c
tops = counts(lambda f: f.split("/")[0])
subs = counts(sub)
bad = []
for r in rows if census else []:
    if reached(r) and r[12] != "reached":
        bad.append("%s:%s: the census reached it, its census column says %s" % (r[0], r[1], r[12]))
    elif r[12] == "reached" and not reached(r):
        print("  %s:%s: reached by make-atlas.py's reading only" % (r[0], r[1]))
if set(tops) != {r[10] for r in rows}:
    bad.append("top directories are not the atlas's subsystem column")
lines = open(txt).read().split("\n")
head = next(i for i, l in enumerate(lines) if l.startswith("by subsystem"))
m = re.match(r"atlas .*: reached (\d+) of the (\d+) sites Debian builds \(\d+ built in, (\d+) modules\); of all (\d+) sites (\d+) ", lines[head - 1])
summary = [int(m.group(i)) for i in (4, 2, 3, 1)] + [int(m.group(5)) - int(m.group(1))]
table, deeper, sums = {}, {}, [0] * 5
for l in lines[head + 2:]:
    if l.startswith("never reached"):
        break
    f = l.split()
    nums = [int(f[i]) for i in (1, 2, 3, 4, 6)]
    pct = f[5]
    want_pct = "-" if not nums[1] else "%.0f%%" % (100 * nums[3] / nums[1])
    if pct != want_pct:
        bad.append("%s: %s, not %s" % (f[0], pct, want_pct))
    if f[0] == "all":
        all_row = nums
    elif l.startswith("    "):
        deeper[f[0]] = nums
    else:
        table[f[0]] = nums
        sums = [a + b for a, b in zip(sums, nums)]
if all_row != summary:
    bad.append("all row %s, summary line %s" % (all_row, summary))
if sums != all_row:
    bad.append("columns sum to %s, all row %s" % (sums, all_row))
# the TSV's counts: in tree, built and modules always; reached where the
# atlas has a census column
n = 5 if census else 3
for name, want in tops.items():
    if table.get(name, [None] * 5)[:n] != want[:n]:
        bad.append("%s: %s, the TSV says %s" % (name, table.get(name), want))
if set(table) != set(tops):
    bad.append("top rows %s, TSV %s" % (sorted(table), sorted(tops)))
for name, got in deeper.items():
    if got[:n] != subs[name][:n] or "/" not in name:
        bad.append("%s: %s, the TSV says %s" % (name, got, subs[name]))
if census and set(deeper) != {s for s in subs if "/" in s and subs[s][3] + subs[s][4]}:
    bad.append("deeper rows %s" % sorted(deeper))
# JSON: every subsystem, the same counts
a = json.load(open(js))["files"][0]["atlas"]
for s in a["subsystems"]:
    b, r = s["build"], s["reached"]
    got = [sum(b.values()), b["y"] + b["m"], b["m"], r["y"] + r["m"], r["n"] + r["h"] + r["?"]]
    if got[:n] != subs[s["subsystem"]][:n] or s["top"] != s["subsystem"].split("/")[0]:
        bad.append("json %s: %s, the TSV says %s" % (s["subsystem"], got, subs[s["subsystem"]]))
if sorted(s["subsystem"] for s in a["subsystems"]) != sorted(subs):
    bad.append("json subsystems are not the TSV's")
for k in a["build"]:
    if sum(s["build"][k] for s in a["subsystems"]) != a["build"][k] or \
       sum(s["reached"][k] for s in a["subsystems"]) != a["reached"][k]:
        bad.append("json %s does not sum" % k)
if bad:
    print("\n".join(bad))
sys.exit(bool(bad))
PY
	check "$1: the table by subsystem is the TSV's counts and sums to the summary line" $?
}
by_subsystem "6.1" "$a61" "$data/census/6.1-x86_64.txt"
if [ -f "$data/atlas/linux-6.12.tsv" ] && [ -f "$data/census/6.12-x86_64.txt.xz" ]; then
	xz -dc "$data/census/6.12-x86_64.txt.xz" >"$tmp/c612.txt"
	check "6.12 census: unpacked" $?
	by_subsystem "6.12" "$data/atlas/linux-6.12.tsv" "$tmp/c612.txt"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
