#!/bin/bash
# SPDX-License-Identifier: MIT
# Generation U (issue 35, item 1): a user's function (--source, --call)
# is one more generation of skew and report.  A copy of today's hash_64
# (tests/gallery/new_hash_64.h) must give, cell for cell, the numbers the
# kernel's generation new gives on the same keys: the expected values come
# from --gen new, which never runs the user's path.  FreeBSD's copy fills
# one bucket; a crash, a loop and a bucket past the table are one line
# naming key and bits, exit 1 and no output; --source without --call is a
# usage error.  Nothing may be left in $TMPDIR.
set -uo pipefail
kb=$1
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"
user_hash_setup
new64=(--source "$gallery/new_hash_64.h" --call 'hash_64(x, bits)')

# cells FILE GEN: the CSV rows of FILE whose gen is GEN, that column cut
# (the fourth in skew's and report's CSV)
cells() { awk -F, -v g="$2" 'NR > 1 && $4 == g { $4 = ""; print }' OFS=, "$1"; }

# skew, a key set and a key file, every format: the user's cell is new's
"$kb" keys --keyset slab --size 192 --count 5000 --word 64 -o "$tmp/slab.txt"
for src in "--keyset page4k" "--keyset btrfs-stripe" "--keys $tmp/slab.txt"; do
	# shellcheck disable=SC2086 # src is two words
	"$kb" skew $src --func hash_64 --word 64 --bits 11 --gen new --format csv \
		>"$tmp/want.csv" 2>/dev/null
	# shellcheck disable=SC2086
	"$kb" skew $src --func hash_64 --word 64 --bits 11 "${new64[@]}" --format csv \
		>"$tmp/got.csv" 2>/dev/null
	[ -n "$(cells "$tmp/want.csv" new)" ] &&
		[ "$(cells "$tmp/want.csv" new)" = "$(cells "$tmp/got.csv" hash_64)" ]
	check "skew $src: the copy of hash_64 gives new's numbers (CSV)" $?
done
"$kb" skew --keyset page4k --func hash_64 --word 64 --bits 11 --gen new >"$tmp/want.txt"
"$kb" skew --keyset page4k --func hash_64 --word 64 --bits 11 "${new64[@]}" >"$tmp/got.txt"
[ "$(sed 1d "$tmp/want.txt")" = "$(sed 1d "$tmp/got.txt")" ] &&
	has -x 'hash_64 hash_64 on 64-bit, page4k, 11 bits: 4096 keys into 2048 buckets' "$tmp/got.txt"
check "skew text: the same lines under the function's name" $?
"$kb" skew --keyset page4k --func hash_64 --word 64 --bits 11 --gen new "${new64[@]}" \
	--format json >"$tmp/got.json"
python3 - "$tmp/got.json" <<'EOF'
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
assert [c["gen"] for c in cells] == ["new", "hash_64"], cells
a, b = (dict(c, gen=None, counted_by=None, path=None, threads=None, price_s=None)
        for c in cells)
assert a == b, (a, b)
assert cells[1]["counted_by"] == "one by one"
EOF
check "skew --gen new with --source: JSON names the generation, the numbers new's" $?

# report: every key set, hash_64 on 64-bit, bits 6..20; new's cells of
# the same run (the heap sets' objects are the run's own)
"$kb" report --funcs hash_64 --words 64 --gens new "${new64[@]}" --format csv -q >"$tmp/got.csv"
[ "$(cells "$tmp/got.csv" new | wc -l)" -gt 150 ] &&
	[ "$(cells "$tmp/got.csv" new)" = "$(cells "$tmp/got.csv" hash_64)" ]
check "report: the copy's cells are new's, every key set and table size (CSV)" $?
"$kb" report --funcs hash_64 --words 64 --gens new "${new64[@]}" -q >"$tmp/got.txt"
grep -A1 '^page4k' "$tmp/got.txt" | tail -1 | has '^ *hash_64 |' &&
	has -x '  hash_64    0 broken,   15 skewed,  150 fine' "$tmp/got.txt"
check "report text: a row and a summary line under the function's name" $?
"$kb" report --keys "$tmp/slab.txt" --funcs hash_ptr --words 64 --gens new "${new64[@]}" \
	--format csv -q >"$tmp/got.csv"
[ -n "$(cells "$tmp/got.csv" new)" ] &&
	[ "$(cells "$tmp/got.csv" new)" = "$(cells "$tmp/got.csv" hash_64)" ]
check "report --keys: the copy's cells are new's" $?
# a key set past the sorted path (more keys than 2^bits-max buckets)
"$kb" report --keysets random,page4k --funcs hash_64 --words 64 --gens new --bits-max 10 \
	"${new64[@]}" --format csv -q >"$tmp/got.csv"
[ "$(cells "$tmp/got.csv" new | wc -l)" = 10 ] &&
	[ "$(cells "$tmp/got.csv" new)" = "$(cells "$tmp/got.csv" hash_64)" ]
check "report, counted by the engine for new: the copy's cells still new's" $?
# more keys than report holds the buckets of (2^22 values): counted, a
# table a size
"$kb" report --keysets random --count 300000 --funcs hash_64 --words 64 --gens new \
	"${new64[@]}" --format csv -q >"$tmp/got.csv"
[ "$(cells "$tmp/got.csv" new | wc -l)" = 15 ] &&
	[ "$(cells "$tmp/got.csv" new)" = "$(cells "$tmp/got.csv" hash_64)" ]
check "report, 300000 keys: the copy's cells are new's" $?
# FreeBSD's copy on the same path, beside new: broken at every size, as
# skew says below, where new is not
"$kb" report --keysets random --funcs hash_64 --words 64 --bits-max 10 --gens new \
	--source "$gallery/freebsd_linuxkpi_hash.h" --call 'hash_64(x, bits)' --format csv -q \
	>"$tmp/got.csv"
[ "$(cells "$tmp/got.csv" hash_64 | cut -d, -f25 | sort | uniq -c | tr -s ' ')" = " 5 broken" ] &&
	! cells "$tmp/got.csv" new | cut -d, -f25 | has broken
check "report, the engine's path: FreeBSD's copy broken at all 5 sizes, new at none" $?
# --source alone is the generation; --gens puts hash.h's beside it
"$kb" report --keysets page4k --funcs hash_64 --words 64 "${new64[@]}" --format csv -q \
	>"$tmp/got.csv"
"$kb" report --keysets page4k --funcs hash_64 --words 64 "${new64[@]}" \
	--gens old,minimal,posted,new --format csv -q >"$tmp/all.csv"
[ "$(cut -d, -f4 "$tmp/got.csv" | sed 1d | sort -u | tr '\n' ' ')" = "hash_64 " ] &&
	[ "$(cut -d, -f4 "$tmp/all.csv" | sed 1d | sort -u | tr '\n' ' ')" = "hash_64 minimal new old posted " ]
check "report --source: the function's generation alone, or beside hash.h's with --gens" $?

# FreeBSD's LinuxKPI hash_64: every page address in bucket 0 at 2^10, where
# new uses every bucket (README.md's example)
"$kb" skew --keyset page4k --func hash_64 --bits 10 --gen new \
	--source "$gallery/freebsd_linuxkpi_hash.h" --call 'hash_64(x, bits)' >"$tmp/got.txt"
[ "$(grep -c 'buckets used' "$tmp/got.txt")" = 2 ] &&
	has -x '  buckets used 1024 of 1024, max load 6 (a random function: 11.90)' "$tmp/got.txt" &&
	has -x '  buckets used 1 of 1024, max load 4096 (a random function: 11.90)' "$tmp/got.txt"
check "README: FreeBSD's copy uses 1 bucket of 1024, new all of them" $?
"$kb" skew --keyset page4k --func hash_64 --word 64 --bits 10 \
	--source "$gallery/freebsd_linuxkpi_hash.h" --call 'hash_64(x, bits)' --format json \
	>"$tmp/got.json"
python3 -c '
import json, sys
c, = json.load(open(sys.argv[1]))["cells"]
assert c["used"] == 1 and c["verdict"] == "broken" and c["gen"] == "hash_64", c' "$tmp/got.json"
check "FreeBSD's hash_64: 1 bucket of 1024, broken" $?

# advise: the copy is a candidate beside the table's own hash; on a 64-bit
# kernel hash_ptr is hash_64, so its skew and cost are the table's
"$kb" advise --keys "$tmp/slab.txt" --bits 10 --word 64 "${new64[@]}" --format csv \
	>"$tmp/got.csv"
python3 - "$tmp/got.csv" <<'EOF2'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
now, = [r for r in rows if r["current"] == "1"]
mine, = [r for r in rows if r["origin"] == "--source"]
assert now["candidate"] == "hash_ptr(k, 10)" and now["origin"] == "new", now
assert mine["candidate"] == "hash_64(x, bits)" and mine["ns_per_hash"] == "", mine
for f in ("chi2_per_df", "verdict", "cost", "cost_random", "cost_vs_random"):
    assert mine[f] == now[f], (f, mine[f], now[f])
EOF2
check "advise: the copy of hash_64 ranked beside hash_ptr, its cost the same" $?
"$kb" advise --keys "$tmp/slab.txt" --bits 10 --word 64 --candidates source \
	--source "$gallery/freebsd_linuxkpi_hash.h" --call 'hash_64(x, bits)' >"$tmp/got.txt"
has -E '^ +2 hash_64\(x, bits\) +--source +no +[0-9]+ broken ' "$tmp/got.txt"
check "advise --candidates source: FreeBSD's copy ranked last, broken" $?

# explain: Lustre's copy of the pre-4.7 chain collides as old hash_64 does;
# the model's columns are old's alone (the copy is no multiply seen here)
"$kb" explain --keys "$tmp/slab.txt" --bits 10 --word 64 --func hash_64 --gen old \
	--format csv >"$tmp/want.csv"
"$kb" explain --keys "$tmp/slab.txt" --bits 10 --word 64 --func hash_64 \
	--source "$gallery/lustre_gss_hash.h" --call 'gss_hash_64(x, bits)' --format csv >"$tmp/got.csv"
observed() { cut -d, -f2,3,5-10,12-14,18,19 "$1" | sed 1d; }
[ "$(observed "$tmp/want.csv" | wc -l)" = 12 ] &&
	[ "$(observed "$tmp/want.csv")" = "$(observed "$tmp/got.csv")" ] &&
	[ "$(cut -d, -f4 "$tmp/got.csv" | sed 1d | sort -u)" = gss_hash_64 ]
check "explain: Lustre's gss_hash_64 shares old hash_64's pairs, difference by difference" $?
"$kb" explain --keys "$tmp/slab.txt" --bits 10 --word 64 \
	--source "$gallery/lustre_gss_hash.h" --call 'gss_hash_64(x, bits)' >"$tmp/got.txt"
has -x 'gss_hash_64 is your function (--source), no multiply seen from here: no model, only what was observed' \
	"$tmp/got.txt"
check "explain text: no model for a user's function, said" $?

# tables: the copy in place of each table's function; where that is
# hash_64, hash_ptr or hash_long of a 64-bit kernel, new's numbers; none
# where the table computes its bucket itself
"$kb" tables --words 64 "${new64[@]}" --format csv -q >"$tmp/got.csv"
python3 - "$tmp/got.csv" <<'EOF2'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault(r["table"], {})[r["gen"]] = r
same = {"btrfs-raid56", "folio-waitqueue", "bit-waitqueue", "kvm-mmu-gfn", "sch-fq", "ftrace-hash"}
for t in same:
    a, b = by[t]["new"], by[t]["hash_64"]
    for f in ("n", "chi2_per_df", "used", "max_load", "verdict", "cost"):
        assert a[f] == b[f], (t, f, a[f], b[f])
assert by["inode-hash"]["hash_64"]["verdict"] == "n/a", by["inode-hash"]
EOF2
check "tables: the copy of hash_64 is new wherever the table calls a 64-bit hash" $?
"$kb" tables --words 64 "${new64[@]}" -q >"$tmp/got.txt"
has -x "n/a: inode-hash computes its bucket itself (fs/inode.c hash()): your function has no place in it" \
	"$tmp/got.txt"
check "tables text: the tables with no place for a function say so" $?

# census: the copy in place of each site's function; at the sites of
# hash_64, hash_long and hash_ptr on a 64-bit kernel new's numbers, field
# for field (new's row is the expected value: it never runs the user's
# path); n/a, with figures null, at the inode hashes
census=$(dirname "$0")/data/census
for f in 6.1-x86_64.txt 6.12-x86_64.txt.xz; do
	"$kb" census "$census/$f" "${new64[@]}" --format csv >"$tmp/got.csv"
	python3 - "$tmp/got.csv" <<'EOF2'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault(r["id"], {})[r["gen"]] = r
same = na = 0
for site, g in by.items():
    assert list(g) == ["old", "minimal", "posted", "new", "hash_64"], (site, list(g))
    new, mine = dict(g["new"], gen=None), dict(g["hash_64"], gen=None)
    if new["func"] in ("hash_64", "hash_long", "hash_ptr"):
        assert new == mine, (site, new, mine)
        same += new["verdict"] != "too few keys"
    elif new["func"] in ("inode_hash", "btrfs_inode_hash") and new["at"] != "0":
        assert mine["verdict"] == "n/a" and mine["chi2_per_df"] == mine["cost"] == "", mine
        na += 1
assert same >= 10 and na >= 2, (same, na)
EOF2
	check "census $f: the copy of hash_64 is new at every 64-bit hash_64/hash_long/hash_ptr site" $?
done
"$kb" census "$census/6.1-x86_64.txt" "${new64[@]}" >"$tmp/got.txt"
has -x '  hash_64    0 broken,    1 skewed,   13 fine,    7 n/a' "$tmp/got.txt" &&
	has -E '^ +old +minimal +posted +new +hash_64 +bits' "$tmp/got.txt" &&
	has -x "    hash_64 n/a: its bucket is fs/inode.c hash()'s, no hash.h call of the key" \
		"$tmp/got.txt" &&
	has -E '^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +n/a +[0-9]+ +[0-9]+ +[0-9]+ inode_hash ' \
		"$tmp/got.txt"
check "census text: a column and a summary line under the function's name, n/a with the reason" $?
# a name longer than 7 widens every generation's column, so they align
"$kb" census "$census/6.1-x86_64.txt" --source "$gallery/jsonc_linkhash.h" \
	--call 'lh_ptr_hash(x) & ((1ull << bits) - 1)' >"$tmp/got.txt"
has -E '^ {9}old {5}minimal {6}posted {9}new lh_ptr_hash bits at' "$tmp/got.txt" &&
	has -E '^ {8}#282 {6}~0.259 {6}~0.259 {6}~0.259 {6}#1e\+03 +8  8 ' "$tmp/got.txt" &&
	has -x '  lh_ptr_hash    3 broken,    6 skewed,    5 fine,    7 n/a' "$tmp/got.txt"
check "census text: a long function name widens the columns" $?
"$kb" census "$census/6.1-x86_64.txt" "${new64[@]}" --format json >"$tmp/got.json"
python3 - "$tmp/got.json" <<'EOF2'
import json, sys
f, = json.load(open(sys.argv[1]))["files"]
assert list(f["summary"])[-1] == "hash_64", f["summary"]
for s in f["sites"]:
    if s["gens"] and s["func"] in ("hash_64", "hash_long", "hash_ptr"):
        assert s["gens"]["hash_64"] == s["gens"]["new"], s
    if s["gens"] and s["func"] == "inode_hash":
        assert s["gens"]["hash_64"]["verdict"] == "n/a", s
        assert s["gens"]["hash_64"]["chi2_per_df"] is None, s
EOF2
check "census JSON: the copy's object beside new's, the same numbers" $?
# the figure's column (no gnuplot needed for its data)
"$kb" census "$census/6.1-x86_64.txt" "${new64[@]}" --plot "$tmp/fig" >/dev/null 2>&1
has -F 'set xtics ("old" 0, "minimal" 1, "posted" 2, "new" 3, "hash_64" 4)' "$tmp/fig/census.gp" &&
	has -E '^4 [0-9]+ 4 0.0000 - "n/a" "n/a"$' "$tmp/fig/census.dat"
check "census --plot: the function a column of the figure, n/a grey" $?
rm -rf "$tmp/fig"

# speed: a last row for the function, timed as report calls it, and none
# of the columns it is not timed for (figures are never asserted)
"$kb" speed --part hashes --min-time 1 "${new64[@]}" --format json -q >"$tmp/got.json"
python3 - "$tmp/got.json" <<'EOF2'
import json, sys
r = json.load(open(sys.argv[1]))["hashes"][-1]
assert (r["func"], r["gen"]) == ("hash_64", "--source"), r
assert r["inline"]["best_ns"] > 0 and r["exported"] is None and r["latency"] is None, r
EOF2
check "speed: a row for the user's function, its untimed columns null" $?

# failures: one line naming key and bits, exit 1, nothing on stdout
mis=(--source "$gallery/misbehaving.h")
expect 1 "khash-bench: the function crashed (SIGSEGV) on key 0x40, bits 7" \
	skew --keyset seq --func hash_64 --bits 7 "${mis[@]}" --call 'crashes(x, bits)'
expect 1 "khash-bench: the function crashed (SIGSEGV) on key 0x40, bits 7" \
	report --keysets seq --funcs hash_64 --words 64 "${mis[@]}" --call 'crashes(x, bits)' -q
printf '1\n0x40\n' >"$tmp/keys.txt"
expect 1 "khash-bench: $tmp/keys.txt: the function crashed (SIGSEGV) on key 0x40, bits 7" \
	skew --keys "$tmp/keys.txt" --func hash_64 --bits 7 "${mis[@]}" --call 'crashes(x, bits)'
expect 1 "khash-bench: the function crashed (SIGSEGV) on key 0x40, bits 7" \
	advise --keys "$tmp/keys.txt" --bits 7 "${mis[@]}" --call 'crashes(x, bits)'
expect 1 "khash-bench: the function crashed (SIGSEGV) on key 0x40, bits 7" \
	explain --keys "$tmp/keys.txt" --bits 7 "${mis[@]}" --call 'crashes(x, bits)'
# (speed's first input, from its fixed seed, as the function called it)
expect 1 "khash-bench: the function crashed (SIGSEGV) on key 0xbdd732262feb6e95, bits 7" \
	speed --part hashes --min-time 1 --bits 7 "${mis[@]}" --call 'crashes(x ^ x ^ 0x40, bits)' -q
# census: 200 keys 0..0xc7 at a site of 2^7 buckets
{
	printf 'khash-census 1\nmeta word 64\nmeta arch x86_64\nmeta kernel 6.1\n'
	printf 'site 3 hash_64 7 200 lib/x.c:9\n'
	for i in $(seq 0 16 199); do
		printf 'keys 3'
		for j in $(seq "$i" $((i + 15 < 199 ? i + 15 : 199))); do printf ' %x' "$j"; done
		printf '\n'
	done
} >"$tmp/census.txt"
expect 1 "khash-bench: site 3 (lib/x.c:9): the function crashed (SIGSEGV) on key 0x40, bits 7" \
	census "$tmp/census.txt" "${mis[@]}" --call 'crashes(x, bits)'
expect 1 "khash-bench: site 3 (lib/x.c:9): the function crashed (SIGSEGV) on key 0x40, bits 7" \
	census "$tmp/census.txt" "${mis[@]}" --call 'crashes(x, bits)' --format json \
	-o "$tmp/census.json"
[ ! -e "$tmp/census.json" ]; check "census: a crash leaves no output file" $?
expect 1 "khash-bench: site 3 (lib/x.c:9): the function returned 0x80 on key 0x80, bits 7: no bucket of 2^7" \
	census "$tmp/census.txt" "${mis[@]}" --call 'x'
printf '0x10000000000\n' >"$tmp/keys.txt"
EXPECT_SECONDS=20 expect 1 "khash-bench: $tmp/keys.txt: the function took longer than 1 s (on key 0x10000000000, bits 9 when stopped)" \
	skew --keys "$tmp/keys.txt" --func hash_64 --bits 9 "${mis[@]}" --call 'loops(x, bits)' \
	--timeout 1
expect 1 "khash-bench: the function returned 0x2 on key 0x2, bits 1: no bucket of 2^1" \
	skew --keyset seq --func hash_64 --bits 1 "${mis[@]}" --call 'x'
expect 1 "khash-bench: the function returned 0x40 on key 0x40, bits 6: no bucket of 2^6" \
	report --keysets seq --funcs hash_64 --words 64 "${mis[@]}" --call 'x' -q
expect 2 "khash-bench: --source needs --call" \
	skew --keyset seq --func hash_64 --bits 7 "${mis[@]}"
expect 2 "khash-bench: --source needs --call" report "${mis[@]}"
expect 2 "khash-bench: --call applies to --source" \
	skew --keyset seq --func hash_64 --bits 7 --gen new --call 'x'
expect 2 "khash-bench: $tmp/none.h: No such file or directory" \
	skew --keyset seq --func hash_64 --bits 7 --source "$tmp/none.h" --call 'x'
for cmd in skew advise report; do
	expect 2 "khash-bench: table dcache reads a string hash: --source's function hashes integer keys" \
		$cmd --table dcache --name-set numbered "${new64[@]}"
done
[ -z "$(ls -A "$TMPDIR")" ]; check "nothing left in TMPDIR" $?

echo "user_gen: $passed passed, $failed failed"
[ "$failed" = 0 ]
