#!/bin/bash
# SPDX-License-Identifier: MIT
# The census of a booted Linux 6.1 and 6.12 (tests/data/census, made by
# kernel/census/collect.sh) through khash-bench census: the figures
# bench/FINDINGS.md states, read off the committed data once and asserted here, so a
# reader or hashing bug that moves them fails.  Exits 77 (skipped) when the
# data are not in the tree (the mutation harness leaves them out).
# usage: test_census_data.sh KHASH_BENCH DATA_DIR FINDINGS.md
set -uo pipefail
export LC_ALL=C
kb=$1
data=$2
findings=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"
ran=0


# census ARCH: the arch's census as CSV and JSON in $tmp (1: no data)
census() {
	local f=$data/$1.txt
	if [ -f "$f" ]; then
		"$kb" census --format csv "$f" >"$tmp/$1.csv" &&
			"$kb" census --format json "$f" >"$tmp/$1.json"
	elif [ -f "$f.xz" ]; then
		xz -dc "$f.xz" | "$kb" census --format csv - >"$tmp/$1.csv" &&
			xz -dc "$f.xz" | "$kb" census --format json - >"$tmp/$1.json"
	else
		return 1
	fi
	check "$1: khash-bench census reads the committed file" $?
	ran=1
}

# summary ARCH: "sites judged too_few no_bucket feeds | old b/s | minimal b/s |
# posted b/s | new b/s"
summary() {
	python3 - "$tmp/$1.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["files"][0]["summary"]
print(s["sites"], s["judged"], s["too_few"], s["no_bucket"], s["feeds_another_hash"], "|",
      " | ".join("%s %d/%d" % (g, s[g]["broken"], s[g]["skewed"])
                 for g in ("old", "minimal", "posted", "new")))
EOF
}

# row ARCH SITE FUNC GEN: "at distinct chi2_per_df(3 digits) used max verdict"
row() {
	awk -F, -v site="$2" -v func="$3" -v gen="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["site"] == site && $c["func"] == func && $c["gen"] == gen {
			printf "%s %s %.3g %s %s %s\n", $c["at"], $c["distinct"], $c["chi2_per_df"],
			       $c["used"], $c["max_load"], $c["verdict"] }' "$tmp/$1.csv"
}

# kindcost ARCH SITE FUNC GEN: "kind kind_from indexes gen ok", ok when the
# cost columns hold the kind's figure, else what differs
kindcost() {
	awk -F, -v site="$2" -v func="$3" -v gen="$4" '
		function near(a, b) { return (a - b) ^ 2 <= (1e-5 * (b < 0 ? -b : b) + 1e-9) ^ 2 }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["site"] == site && $c["func"] == func && $c["gen"] == gen {
			n = $c["distinct"]; m = $c["buckets"]
			per = ($c["chi2_per_df"] * (m - 1) + n) / m
			if ($c["kind"] == "locks") {
				want = per - 1; rnd = (n - 1) / m; six = $c["others_met"]
				sixr = $c["met_vs_random"]
			} else {
				want = (per + 1) / 2; rnd = 1 + (n - 1) / (2 * m); six = $c["hit_compares"]
				sixr = $c["hit_vs_random"]
			}
			ok = near($c["cost"], want) && near($c["cost_random"], rnd) &&
			     near($c["cost_vs_random"], want / rnd) && $c["cost"] == six &&
			     $c["cost_vs_random"] == sixr
			printf "%s %s %s %s %s\n", $c["kind"], $c["kind_from"], $c["indexes"], gen,
			       ok ? "ok" : "cost " $c["cost"] " want " want " random " rnd }' "$tmp/$1.csv"
}

same() { # name, want, got
	if [ "$2" = "$3" ]; then check "$1" 0; else
		check "$1" 1; printf '  want: %s\n  got:  %s\n' "$2" "$3"; fi
}

if census 6.1-x86_64; then
	same "6.1 x86_64: sites, judged, too few; broken/skewed per generation" \
		"50 23 27 2 0 | old 2/4 | minimal 0/1 | posted 0/1 | new 0/1" "$(summary 6.1-x86_64)"
	# FINDINGS.md's story, on the kernel's own flag words: old hash_long
	# fills 20 of the 256 bit-wait queues; v4.6 fixed it on 64-bit
	same "6.1 x86_64: bit-waitqueue under old" "8 4087 282 20 403 broken" \
		"$(row 6.1-x86_64 kernel/sched/wait_bit.c:17 hash_long old)"
	same "6.1 x86_64: bit-waitqueue under minimal" "8 4087 0.259 256 21 even" \
		"$(row 6.1-x86_64 kernel/sched/wait_bit.c:17 hash_long minimal)"
	# kernfs open-file locks: broken under old, still skewed under new
	same "6.1 x86_64: kernfs under old" "10 1069 45.8 48 76 broken" \
		"$(row 6.1-x86_64 fs/kernfs/file.c:45 hash_ptr old)"
	same "6.1 x86_64: kernfs under new" "10 1069 1.59 560 7 skewed" \
		"$(row 6.1-x86_64 fs/kernfs/file.c:45 hash_ptr new)"
	# folio wait queues: half of them under old, as the model said
	same "6.1 x86_64: folio-waitqueue under old" "8 645 2.89 128 9 skewed" \
		"$(row 6.1-x86_64 mm/filemap.c:1058 hash_ptr old)"
	# the cost column is the figure the site's kind pays: worked out here
	# from X^2/df alone (S/n = (X^2/df (m-1) + n) / m; chained: (S/n+1)/2
	# against 1 + (n-1)/2m, locks: S/n - 1 against (n-1)/m), and the same
	# as the one of the six figures that kind names
	same "6.1 x86_64: kernfs mutexes are locks, their cost others met" \
		"locks site kernfs open-file mutexes old ok | locks site kernfs open-file mutexes new ok" \
		"$(kindcost 6.1-x86_64 fs/kernfs/file.c:45 hash_ptr old) | $(kindcost 6.1-x86_64 fs/kernfs/file.c:45 hash_ptr new)"
	same "6.1 x86_64: the busy worker hash is chained, its cost compares" \
		"chained site busy worker hash old ok | chained site busy worker hash new ok" \
		"$(kindcost 6.1-x86_64 kernel/workqueue.c:2223 hash_long old) | $(kindcost 6.1-x86_64 kernel/workqueue.c:2223 hash_long new)"
	# FINDINGS.md's words for it, from the text's line under the site
	"$kb" census "$data/6.1-x86_64.txt" | grep -A2 ' fs/kernfs/file.c:45$' | has \
		'^    other holders met per lock: 45.8 (43.91x), .*, 1.63 (1.56x)$'
	check "6.1 x86_64: text: kernfs meets 45.8 others under old, 43.91x random; 1.63, 1.56x under new" $?
	same "6.1 x86_64: bit_waitqueue() takes its named table's kind" \
		"locks table bit-waitqueue old ok" "$(kindcost 6.1-x86_64 kernel/sched/wait_bit.c:17 hash_long old)"
	# every btrfs key found its super block in a hash() record
	python3 - "$tmp/6.1-x86_64.json" <<'EOF'
import json, sys
sites = json.load(open(sys.argv[1]))["files"][0]["sites"]
b = [s for s in sites if s["func"] == "btrfs_inode_hash" and s["gens"]]
sys.exit(not (len(b) == 2 and all(s["sb_found"] == s["distinct"] for s in b)
              and all(s["bits"] == 16 and s["bits_from"] == "inode" for s in b)))
EOF
	check "6.1 x86_64: btrfs keys take their hash() records' super block and shift" $?
fi

if census 6.1-i386; then
	same "6.1 i386: sites, judged, too few; broken/skewed per generation" \
		"53 26 27 4 0 | old 1/0 | minimal 1/0 | posted 1/0 | new 0/0" "$(summary 6.1-i386)"
	# on a 32-bit kernel hash_long was the old hash_32 until v4.7
	same "6.1 i386: bit-waitqueue under posted" "8 4087 37.1 109 112 broken" \
		"$(row 6.1-i386 kernel/sched/wait_bit.c:17 hash_long posted)"
	same "6.1 i386: bit-waitqueue under new" "8 4087 0.171 256 20 even" \
		"$(row 6.1-i386 kernel/sched/wait_bit.c:17 hash_long new)"
fi

# Linux 6.12 (with modules): FINDINGS.md's lines, both arches
for a in x86_64 i386; do
	census "6.12-$a" || continue
	case $a in
	x86_64) want="130 95 35 13 7 | old 20/4 | minimal 10/2 | posted 10/3 | new 0/1"
		rowline='| x86_64 | 130 | 95 | 13 (7) | 20 / 4 | 10 / 2 | 10 / 3 | 0 / 1 |' ;;
	i386) want="131 98 33 15 7 | old 13/8 | minimal 13/8 | posted 12/7 | new 0/1"
		rowline='| i386 | 131 | 98 | 15 (7) | 13 / 8 | 13 / 8 | 12 / 7 | 0 / 1 |' ;;
	esac
	same "6.12 $a: sites, judged, too few; broken/skewed per generation" "$want" \
		"$(summary "6.12-$a")"
	has -xF "$rowline" <"$findings"
	check "6.12 $a: FINDINGS.md's row" $?
	# 123 distinct file:lines; 46 module sites in 23 modules (format 2:
	# the module last on the site line)
	same "6.12 $a: distinct file:lines, module sites, modules" "123 46 23" \
		"$(xz -dc "$data/6.12-$a.txt.xz" | awk '$1 == "site" { w[$6]; if (NF == 7) { n++; m[$7] } }
			END { print length(w), n, length(m) }')"
	# no row is broken under new; the five hash32_ptr words of kind other
	# that the rules of a table called broken feed another hash, and no row
	# of kind other has a verdict under any generation
	same "6.12 $a: broken under new; hash32_ptr words that feed another hash" "0 5 0" \
		"$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["gen"] == "new" && $c["verdict"] == "broken" { b++ }
			$c["gen"] == "new" && $c["func"] == "hash32_ptr" && $c["at"] != "0" &&
				$c["verdict"] == "feeds another hash" && $c["chi2_per_df"] >= 10 { f++ }
			$c["kind"] == "other" && $c["at"] != "0" && $c["verdict"] != "feeds another hash" &&
				$c["verdict"] != "no bucket" { v++ }
			END { print b + 0, f + 0, v + 0 }' "$tmp/6.12-$a.csv")"
	# the posix timer hash's hash32_ptr word feeds the hash_32 on its line,
	# which picks the bucket: fine under new (X^2/df 0.971 on x86_64, 0.654
	# on i386, as an independent model of the census found)
	case $a in x86_64) x2=0.971 ;; i386) x2=0.654 ;; esac
	python3 - "$tmp/6.12-$a.json" "$x2" <<'EOF'
import json, sys
sites = json.load(open(sys.argv[1]))["files"][0]["sites"]
by = {s["id"]: s for s in sites}
w = [s for s in sites if s["site"] == "kernel/time/posix-timers.c:72" and s["func"] == "hash32_ptr"]
b = by.get(w[0]["bucket_site"]) if len(w) == 1 else None
sys.exit(not (b and b["func"] == "hash_32" and b["kind"] == "chained"
              and w[0]["feeds"] == "hash_32"
              and all(w[0]["gens"][g]["verdict"] == "feeds another hash" for g in w[0]["gens"])
              and "%.3g" % b["gens"]["new"]["chi2_per_df"] == sys.argv[2]
              and b["gens"]["new"]["verdict"] in ("ok", "even")))
EOF
	check "6.12 $a: posix-timers.c:72's word feeds its line's hash_32, fine ($x2) under new" $?
	# the site table's 6.12 column (tests/data/atlas/census-sites.tsv): every row has a kind
	same "6.12 $a: rows of kind unknown" "0" \
		"$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["kind"] == "unknown" { n++ } END { print n + 0 }' "$tmp/6.12-$a.csv")"
done
if [ -f "$tmp/6.12-x86_64.csv" ]; then
	# under old the bit-wait queues, UDP's busylocks, lockdep's key hash and
	# the busy worker hash are broken again; each even under the fixed ones
	same "6.12 x86_64: bit-waitqueue under old" "8 9128 464 58 660 broken" \
		"$(row 6.12-x86_64 kernel/sched/wait_bit.c:17 hash_long old)"
	same "6.12 x86_64: wake_up_var queues under old" "8 13843 455 186 814 broken" \
		"$(row 6.12-x86_64 kernel/sched/wait_bit.c:155 hash_ptr old)"
	same "6.12 x86_64: wake_up_var queues under new" "8 13843 1.42 256 86 ok" \
		"$(row 6.12-x86_64 kernel/sched/wait_bit.c:155 hash_ptr new)"
	same "6.12 x86_64: UDP busylocks under old" "4 61 36.9 2 46 broken" \
		"$(row 6.12-x86_64 net/ipv4/udp.c:1555 hash_ptr old)"
	same "6.12 x86_64: lockdep key hash under old" "9 367 23 44 49 broken" \
		"$(row 6.12-x86_64 kernel/locking/lockdep.c:1240 hash_long old)"
	same "6.12 x86_64: busy worker hash under old" "6 1653 34.6 64 204 broken" \
		"$(row 6.12-x86_64 kernel/workqueue.c:1121 hash_long old)"
	same "6.12 x86_64: the busy worker hash is chained, its cost compares" \
		"chained site busy worker hash old ok" \
		"$(kindcost 6.12-x86_64 kernel/workqueue.c:1121 hash_long old)"
	same "6.12 x86_64: UDP busylocks are locks, their cost others met" \
		"locks site UDP busylocks old ok" \
		"$(kindcost 6.12-x86_64 net/ipv4/udp.c:1555 hash_ptr old)"
	# under new: the neighbour hash's input word and the inode hash
	same "6.12 x86_64: hash32_ptr of the neighbour table under new" "6 125 61.1 5 84 feeds another hash" \
		"$(row 6.12-x86_64 include/net/ndisc.h:360 hash32_ptr new | head -n 1)"
	same "6.12 x86_64: the inode hash under new" "16 4017 1.04 3815 3 skewed" \
		"$(row 6.12-x86_64 fs/inode.c:1780 inode_hash new)"
	same "6.12 x86_64: the inode hash is chained, its cost compares" \
		"chained table inode-hash new ok" "$(kindcost 6.12-x86_64 fs/inode.c:1780 inode_hash new)"
	# the neighbour hash's input word picks no bucket: kind other, no cost
	same "6.12 x86_64: hash32_ptr of the neighbour table is other" \
		"other|site|device word in the NDISC neighbour hash|" \
		"$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["site"] == "include/net/ndisc.h:360" && $c["gen"] == "new" {
				print $c["kind"] "|" $c["kind_from"] "|" $c["indexes"] "|" $c["cost"]; exit }' \
			"$tmp/6.12-x86_64.csv")"
	if [ -f "$data/../atlas/linux-6.12.tsv" ]; then
		xz -dc "$data/6.12-x86_64.txt.xz" |
			"$kb" census - --atlas "$data/../atlas/linux-6.12.tsv" >"$tmp/a612.txt"
		has -xF "atlas $data/../atlas/linux-6.12.tsv: reached 97 of the 305 sites Debian builds (91 built in, 214 modules); of all 480 sites 105 (4 of 9 in headers, 4 of 165 not built, 0 of 1 undecided)" <"$tmp/a612.txt"
		check "6.12 x86_64: reached 97 of the 305 sites Debian builds" $?
		has -xF "never reached of those 305: 197 not in the census kernel (114 hardware, 8 kvm, 75 workload), 11 compiled but not called (2 hardware, 0 kvm, 9 workload)" <"$tmp/a612.txt"
		check "6.12 x86_64: the never-reached line" $?
	fi
fi
if [ -f "$tmp/6.12-i386.csv" ]; then
	# on i386 hash_long was the old hash_32 through the posted fix:
	# wake_up_var()'s queues broken under three generations, even under new
	same "6.12 i386: wake_up_var queues under posted" "8 12574 34.6 256 275 broken" \
		"$(row 6.12-i386 kernel/sched/wait_bit.c:155 hash_ptr posted)"
	same "6.12 i386: wake_up_var queues under new" "8 12574 1.19 256 67 ok" \
		"$(row 6.12-i386 kernel/sched/wait_bit.c:155 hash_ptr new)"
	same "6.12 i386: the inode hash under new" "15 2643 1.04 2499 4 skewed" \
		"$(row 6.12-i386 fs/inode.c:1575 inode_hash new)"
fi

[ "$ran" = 1 ] || { echo "SKIP: no census data in $data"; exit 77; }

# What kernel/sched/wait_bit.c:17 hashed (the bit-waitqueue model's facts):
# key = word << shift | bit, so the bit and the word come back out of it.
# Half the keys are __I_NEW (3), half __I_SYNC (7) on the same i_state
# words; those words are the model's object size apart, most often.
waitbits() { # ARCH: "bits B:N... stride S"
	python3 - "$data/$1.txt" <<'EOF'
import collections, sys
word, ids, keys = 64, set(), set()
for line in open(sys.argv[1]):
    p = line.split()
    if p[:2] == ["meta", "word"]:
        word = int(p[2])
    elif p[:1] == ["site"] and p[5:] == ["kernel/sched/wait_bit.c:17"]:
        ids.add(p[1])
    elif p[:1] == ["keys"] and p[1] in ids:
        keys.update(int(k, 16) for k in p[2:])
sh = 6 if word == 64 else 5
bits = collections.Counter(k & ((1 << sh) - 1) for k in keys)
words = sorted(k >> sh for k in keys if k & ((1 << sh) - 1) == 3)
stride = collections.Counter(b - a for a, b in zip(words, words[1:])).most_common(1)[0][0]
print("bits", " ".join("%d:%d" % b for b in sorted(bits.items())), "stride", stride)
EOF
}
model_size() { # WORD: the bit-waitqueue model's object size, from the command
	"$kb" tables --words "$1" --count 64 | sed -n '/^  bit-waitqueue /,/keys:/p' |
		sed -n 's/.*inode slab objects, \([0-9]*\) bytes; \([0-9]*\) on i386.*/\1 \2/p' |
		awk -v w="$1" '{ print w == 64 ? $1 : $2 }'
}
if [ "$ran" = 1 ] && [ -f "$data/6.1-x86_64.txt" ] && [ -f "$data/6.1-i386.txt" ]; then
	same "6.1 x86_64: wait_bit.c:17 hashed i_state words, bits __I_NEW and __I_SYNC" \
		"bits 0:2 2:1 3:2043 7:2041 stride $(model_size 64)" "$(waitbits 6.1-x86_64)"
	same "6.1 i386: wait_bit.c:17 hashed i_state words, bits __I_NEW and __I_SYNC" \
		"bits 0:2 2:1 3:2043 7:2041 stride $(model_size 32)" "$(waitbits 6.1-i386)"
fi

# FINDINGS.md's table of the ten worst sites of 6.1, from the command's CSV:
# the judged sites of both arches, worst first as the command orders them, a
# cell X^2/df (buckets used), **broken**, *skewed*.
# shellcheck disable=SC2016 # Python, not shell
cat "$tmp/6.1-x86_64.csv" "$tmp/6.1-i386.csv" | python3 -c '
import csv, sys
rank = {"broken": 3, "skewed": 2, "ok": 1, "even": 0, "feeds another hash": -1, "no bucket": -1}
sites, order = {}, []
for r in csv.DictReader(l for l in sys.stdin if not l.startswith("schema,") or not order):
    k = (r["arch"], r["id"])
    if k not in sites:
        sites[k] = {}
        order.append(k)
    sites[k][r["gen"]] = r
def num(v):
    v = float(v)
    return "<.01" if v < 0.01 else "%.3g" % v if v < 1000 else "%.0e" % v
def cell(r):
    t = "%s (%s)" % (num(r["chi2_per_df"]), r["used"])
    return {"broken": "**%s**", "skewed": "*%s*"}.get(r["verdict"], "%s") % t
judged = [k for k in order if sites[k]["old"]["at"] != "0"]
# a site that picks no bucket (no verdict) after those with one
judged.sort(key=lambda k: (sites[k]["old"]["kind"] == "other",
                           -rank[sites[k]["old"]["verdict"]],
                           -float(sites[k]["old"]["chi2_per_df"]),
                           -float(sites[k]["new"]["chi2_per_df"])))
print("| arch | call site | function | table | kind | buckets judged | keys | old | minimal | posted | new |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for k in judged[:10]:
    g, o = sites[k], sites[k]["old"]
    print("| %s | `%s` | `%s` | %s | %s | 2^%s of 2^%s | %s | %s |" % (
        o["arch"], o["site"], o["func"], o["table"] or "-", o["kind"], o["at"], o["bits"],
        o["distinct"], " | ".join(cell(g[x]) for x in ("old", "minimal", "posted", "new"))))
' >"$tmp/top10"
awk '/^<!-- census-top: / {on = 1; next} /^<!-- \/census-top -->/ {on = 0} on' "$findings" >"$tmp/readme-top10"
if [ "${CENSUS_PRINT_TABLE:-}" ]; then cat "$tmp/top10"; fi
diff -u --label FINDINGS.md --label khash-bench "$tmp/readme-top10" "$tmp/top10" >"$tmp/diff"
check "FINDINGS.md: the ten worst sites are what khash-bench census gives" $?
[ -s "$tmp/diff" ] && sed 's/^/  /' "$tmp/diff"

# FINDINGS.md's table by subsystem of both kernels, from the JSON, which has
# every subsystem: each top directory (its subsystems summed), under it the
# deeper subsystems either census reached; in tree / built (modules) /
# reached of the built.
atlas=$data/../atlas
if [ -f "$atlas/linux-6.1.tsv" ] && [ -f "$atlas/linux-6.12.tsv" ] && [ -f "$data/6.12-x86_64.txt.xz" ]; then
	"$kb" census --format json "$data/6.1-x86_64.txt" --atlas "$atlas/linux-6.1.tsv" >"$tmp/s61.json" &&
		xz -dc "$data/6.12-x86_64.txt.xz" |
		"$kb" census --format json - --atlas "$atlas/linux-6.12.tsv" >"$tmp/s612.json"
	check "both atlases: census --atlas exits 0" $?
	python3 - "$tmp/s61.json" "$tmp/s612.json" >"$tmp/subsys" <<'EOF'
import collections, json, sys
def table(path):
    rows = collections.defaultdict(lambda: [0, 0, 0, 0])
    for s in json.load(open(path))["files"][0]["atlas"]["subsystems"]:
        b, r = s["build"], s["reached"]
        c = [sum(b.values()), b["y"] + b["m"], b["m"], r["y"] + r["m"]]
        for n in {s["top"], s["subsystem"], "all"}:
            rows[n] = [x + y for x, y in zip(rows[n], c)]
    return rows
old, new = table(sys.argv[1]), table(sys.argv[2])
names = sorted((n for n in set(old) | set(new) if n != "all" and
                ("/" not in n or old.get(n, [0] * 4)[3] or new.get(n, [0] * 4)[3])),
               key=lambda n: (n.split("/")[0], n))
cell = lambda c: "%d | %d (%d) | %d" % tuple(c) if c else "- | - | -"
print("| subsystem | 6.1 in tree | built (modules) | reached | 6.12 in tree | built (modules) | reached |")
print("|---|---|---|---|---|---|---|")
for n in names + ["all"]:
    name = "**all**" if n == "all" else "&nbsp;&nbsp;" + n if "/" in n else n
    print("| %s | %s | %s |" % (name, cell(old.get(n)), cell(new.get(n))))
EOF
	awk '/^<!-- census-subsys: / {on = 1; next} /^<!-- \/census-subsys -->/ {on = 0} on' "$findings" >"$tmp/readme-subsys"
	if [ "${CENSUS_PRINT_TABLE:-}" ]; then cat "$tmp/subsys"; fi
	diff -u --label FINDINGS.md --label khash-bench "$tmp/readme-subsys" "$tmp/subsys" >"$tmp/diff"
	check "FINDINGS.md: the table by subsystem is what khash-bench census --atlas gives" $?
	[ -s "$tmp/diff" ] && sed 's/^/  /' "$tmp/diff"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
