#!/bin/bash
# SPDX-License-Identifier: MIT
# Every figure README.md, bench/FINDINGS.md and tests/README.md state,
# asserted at the precision they print it: the expected values are the
# documents' own tables and command outputs, read from them, or copied below
# from them (their published claims), never computed by khash-bench, which
# only supplies the measured side.  Timings (bench/RESULTS.md) are measured,
# not asserted.  A document change that moves a figure must change it here.
# usage: test_readme_figures.sh KHASH_BENCH KERNEL_KEYS_DIR
set -uo pipefail
export LC_ALL=C # printf and awk round with a '.', whatever the locale
kb=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"
skipped=0
top=$(dirname "$0")/..
findings=$top/bench/FINDINGS.md


# same NAME WANT GOT: exact text, both shown when they differ
same() {
	if [ "$2" = "$3" ]; then check "$1" 0; else
		check "$1" 1; printf '  want: %s\n  got:  %s\n' "$2" "$3"; fi
}

# block NAME FILE: FILE's lines are the document's block on stdin
block() {
	diff -u --label document --label khash-bench - "$2" >"$tmp/diff"
	check "$1" $?
	[ -s "$tmp/diff" ] && sed 's/^/  /' "$tmp/diff"
}

# cell FIELDS SKEW-ARGS...: the named fields of one skew cell, from its CSV
cell() {
	local fields=$1
	shift
	"$kb" skew --format csv "$@" | awk -F, -v want="$fields" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ n = split(want, w, " ")
		  # one word a field: "too few keys" as too_few_keys
		  for (i = 1; i <= n; i++) { v = $col[w[i]]; gsub(/ /, "_", v)
			printf "%s%s", v, i < n ? " " : "\n" } }'
}

r1() { printf '%.1f' "$1"; } # as the documents print X2/df in prose

skip() {
	echo "SKIP: $1 (no heap-glibc/heap-jemalloc in this build)"
	skipped=1
}

# The heap key sets are real allocator pointers; without jemalloc (or
# glibc's malloc) the report has fewer cells than FINDINGS.md counts.
heap=1
for ks in heap-glibc heap-jemalloc; do
	"$kb" skew --func hash_64 --gen new --bits 6 --keyset $ks >/dev/null 2>&1 || heap=0
done

## FINDINGS.md: what the main job shows
"$kb" report --keysets page4k --funcs hash_64 --words 64 >"$tmp/page4k.txt"
grep -A3 '^page4k  *hash_64  *64  *old' "$tmp/page4k.txt" >"$tmp/got"
block "report: the four page4k hash_64 64 lines" "$tmp/got" <<'EOF'
page4k        hash_64   64   old     | # 3e+04 # 3e+04 # 3e+04 # 3e+04 # 3e+04 # 3e+04 # 3e+04 # 7e+03
                             minimal | ~  <.01 ~0.0169 ~0.0164 ~0.0273 ~0.0331 ~ 0.425 ~  0.75 ~ 0.938
                             posted  | ~  <.01 ~0.0169 ~0.0164 ~0.0273 ~0.0331 ~ 0.425 ~  0.75 ~ 0.938
                             new     | ~  <.01 ~0.0169 ~0.0164 ~0.0273 ~0.0331 ~ 0.425 ~  0.75 ~ 0.938
EOF
grep -B1 'bits:   |' "$tmp/page4k.txt" | sed 's/  *$//' >"$tmp/got"
block "report: column header" "$tmp/got" <<'EOF'
key set       function  word gen     |
                             bits:   |       6       8      10      12      14      16      18      20
EOF

"$kb" report >"$tmp/report.txt"
"$kb" report --format csv >"$tmp/report.csv"
"$kb" report --format json >"$tmp/report.json"
grep -q '^khash-bench .* report: 65536 keys per key set;' "$tmp/report.txt"
check "report: 65,536 keys per key set" $?
same "report: the marks" \
	'marks: # broken (X^2/df >= 10)   ! skewed (p_upper < 1e-06)   ~ more even than random (p_lower < 1e-06)' \
	"$(sed -n 2p "$tmp/report.txt")"
if [ $heap = 1 ]; then
	# the JSON's summary, as the core tallies it for every format
	same "report: 765 cells a generation (JSON summary)" "old 765 minimal 765 posted 765 new 765" \
		"$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(" ".join("%s %d" % (g, sum(t.values())) for g, t in s.items()))' "$tmp/report.json")"
	grep -A4 '^summary' "$tmp/report.txt" >"$tmp/summary"
	same "report: summary heading" \
		"summary (cells over all key sets, functions, word sizes and bits 6..20):" \
		"$(sed -n 1p "$tmp/summary")"
	# Each generation: the broken count is the same every run, and the
	# skewed count is the other key sets' (exactly, below) plus at most 9
	# of the heap sets' (ASLR and the allocator's layout move their
	# pointers: under ASan, heap-jemalloc hash_ptr minimal 64/19 flips).
	for g in old:386:21 minimal:128:37 posted:0:46 new:0:77; do
		IFS=: read -r gen broken fixed <<<"$g"
		awk -v g="$gen" -v b="$broken" -v lo="$fixed" '$1 == g {
			ok = $2 == b && $4 >= lo && $4 <= lo + 9 && $2 + $4 + $6 == 765 }
			END { exit !ok }' "$tmp/summary"
		rc=$?; check "report: $gen summary: $broken broken, $fixed..$((fixed + 9)) skewed of 765 ($(grep "^  $gen " "$tmp/summary" | xargs))" "$rc"
	done
	same "report: heap sets add at most 9 skewed cells (CSV)" "old yes minimal yes posted yes new yes" \
		"$(awk -F, '$2 ~ /^heap-/ && $(NF - 2) == "skewed" { n[$4]++ }
			END { split("old minimal posted new", gs, " ")
				for (i = 1; i <= 4; i++) printf "%s%s %s", (i > 1 ? " " : ""), gs[i], (n[gs[i]] <= 9 ? "yes" : n[gs[i]]) }' "$tmp/report.csv")"
else
	skip "report cell counts and summary"
fi
same "report: skewed cells outside the heap sets, the same every run" "old 21 minimal 37 posted 46 new 77" \
	"$(awk -F, 'NR > 1 && $2 !~ /^heap-/ && $(NF - 2) == "skewed" { n[$4]++ }
		END { printf "old %d minimal %d posted %d new %d", n["old"], n["minimal"], n["posted"], n["new"] }' "$tmp/report.csv")"
same "histogram: 65,536 page addresses, old hash_64, 2048 buckets: 2 used" 2 \
	"$(cell used --func hash_64 --gen old --word 64 --bits 11 --keyset page4k --count 65536)"

## FINDINGS.md: the tables that read a string hash, their blocks read
## from the document (the fenced block after the line that names it)
doc_block() { # a fixed string on the line before the block
	awk -v key="$1" 'index($0, key) { on = 1 } on && /^```$/ { n++; next } on && n == 1' "$findings"
}
"$kb" report --table dcache --name-set numbered --count 20000 --bits-min 8 --bits-max 16 --step 1 |
	grep -E '^(table|dcache) ' | sed 's/  *$//' >"$tmp/names_report"
block "FINDINGS: report over numbered names through the dcache" "$tmp/names_report" \
	< <(doc_block 'report --table dcache --name-set numbered --count 20000')
"$kb" tables | sed -n '/^table .*names/,$p' | grep -v '^$' | sed 's/  *$//' >"$tmp/names_tables"
block "FINDINGS: tables, the tables that read a string hash" "$tmp/names_tables" \
	< <(doc_block 'counts each table')
"$kb" skew --table dcache --names "$top/tests/data/names/dpkg-components.txt" --sgen sum,new --bits 10 \
	--word 64 --format csv >"$tmp/dpkg.csv"
same "FINDINGS: dpkg names at 2^10, sum and new: X2/df, fullest bucket, random's, verdict" \
	"sum 2.27 51 11.74 skewed new 0.96 12 11.74 ok" \
	"$(awk -F, 'NR > 1 { printf "%s%s %.2f %s %.2f %s", (NR > 2 ? " " : ""), $4, $11, $17, $18, $25 }' "$tmp/dpkg.csv")"

"$kb" explain --table dcache --names "$top/tests/data/names/dpkg-components.txt" --sgen sum --bits 10 \
	>"$tmp/dpkg.explain"
same "FINDINGS: explain, 3-byte names under sum: pairs, shared, share, random" "326 300 92.0% 0.3" \
	"$(awk '$1 == 3 && $2 == 0 && $3 == 0 { print $4, $5, $6, $7 }' "$tmp/dpkg.explain")"
"$kb" explain --table dcache --names "$top/tests/data/names/dpkg-components.txt" --sgen new --bits 10 |
	has -F 'nothing to explain'
check "FINDINGS: explain, the same names under new: nothing to explain" $?

# The story's generations: README.md's block is `list`'s own lines, from
# the one row of each generation (include/khash/lkh_table.h)
"$kb" list | awk '/^generations:/ { on = 1; next } on && /^[^ ]/ { on = 0 }
	on && $1 != "K"' >"$tmp/list_gens"
block "README: the generations, as list prints them" "$tmp/list_gens" < <(awk '
	/^generations khash-bench names/ { on = 1 } on && /^```$/ { n++; next } on && n == 1' "$top/README.md")

# The story: 4096 keys, 2^11 buckets, on 64- and 32-bit kernels.
for w in 64 32; do
	same "story: old hash_64 w$w puts pages into exactly 2 buckets" 2 \
		"$(cell used --func hash_64 --gen old --word $w --bits 11 --keyset page4k --count 4096)"
	same "story: old hash_64 w$w puts btrfs stripes into 1 bucket" 1 \
		"$(cell used --func hash_64 --gen old --word $w --bits 11 --keyset btrfs-stripe --count 4096)"
done
for g in posted new; do
	for want in 64:page4k:0.3 64:btrfs-stripe:0.3 32:page4k:0.1 32:btrfs-stripe:0.2; do
		IFS=: read -r w ks x <<<"$want"
		same "story: $g hash_64 w$w on $ks: X2/df $x" "$x" \
			"$(r1 "$(cell chi2_per_df --func hash_64 --gen $g --word "$w" --bits 11 --keyset "$ks" --count 4096)")"
	done
done
same "story: old hash_32 on 1,000 sequential keys at 2^10: skewed, 1.96, 413 buckets used" \
	"skewed 1.96 413" "$(cell "verdict chi2_per_df used" --func hash_32 --gen old --bits 10 \
		--keyset seq --count 1000 | awk '{ printf "%s %.2f %s", $1, $2, $3 }')"
for ks in seq struct-page; do
	same "story: old hash_32 w32 on $ks is fine (not broken, not skewed)" fine \
		"$(cell verdict --func hash_32 --gen old --word 32 --bits 11 --keyset $ks --count 4096 |
			sed -E 's/^(ok|even)$/fine/')"
done
# new hash_64 with 65,536 keys (the report's CSV): btrfs stripes on a
# 64-bit kernel at 2^13..2^20 buckets, i386 pages at 2^16
same "story: new btrfs stripes w64, 2^13..2^20: all skewed, X2/df 1.3 to 7.8" "8 of 8 skewed, 1.3 to 7.8" \
	"$(awk -F, '$2 == "btrfs-stripe" && $3 == "hash_64" && $4 == "new" && $5 == 64 && $6 >= 13 {
		n++; if ($(NF - 2) == "skewed") s++
		if (!lo || $11 < lo) lo = $11; if ($11 > hi) hi = $11 }
		END { printf "%d of %d skewed, %.1f to %.1f", s, n, lo, hi }' "$tmp/report.csv")"
same "story: new i386 pages at 2^16: skewed, X2/df 1.2" "skewed 1.2" \
	"$(awk -F, '$2 == "page4k" && $3 == "hash_64" && $4 == "new" && $5 == 32 && $6 == 16 {
		printf "%s %.1f", $(NF - 2), $11 }' "$tmp/report.csv")"

## Bit influence: the band 16..23 of 8 output bits, default samples
band() {
	"$kb" influence --func "$1" --gen "$2" --word "$3" --bits 8 |
		awk '/^input bits 16\.\.23 / { printf "%.3f", $NF }'
}
same "influence: old hash_32 w32, bits 16..23" 0.469 "$(band hash_32 old 32)"
same "influence: new hash_32 w32, bits 16..23" 0.230 "$(band hash_32 new 32)"
same "influence: old hash_64 w64, bits 16..23" 0.500 "$(band hash_64 old 64)"
same "influence: old hash_64 w32, bits 16..23" 0.500 "$(band hash_64 old 32)"

## Multiplier audit (its broken column counts the heap sets too)
"$kb" audit --compare >"$tmp/audit.txt"
if [ $heap = 1 ]; then
	head -12 "$tmp/audit.txt" >"$tmp/got"
	block "audit --compare: the table" "$tmp/got" <<'EOF'
preset      multiplier         width  odd  ones  run terms  max CF q  worst X2/df  broken     S2  S2..8
old32       0x9e370001            32  yes    11   15     7        18         255#       5  0.659  0.001
old64       0x9e37fffffffc0001    64  yes    41   33     7   1048579   1.311e+05#       8  0.465  0.001
new32       0x61c88647            32  yes    13    4    11         4       12.06#       0  0.853  0.325
new64       0x61c8864680b583eb    64  yes    27    7    21         2       17.94#       0  0.644  0.436
phi32       0x9e3779b9            32  yes    20    4    11         4       12.06#       0  0.853  0.325
phi64       0x9e3779b97f4a7c15    64  yes    38    7    21         1       17.94#       0  0.644  0.436
knuth32     0x9e3779b1            32  yes    19    4    11        18       15.91#       0  0.736  0.550
fxhash64    0x517cc1b727220a95    64  yes    29    5    22       292       24.15#       0  0.796  0.499
murmur64    0xff51afd7ed558ccd    64  yes    41    8    23       415         128#       0  0.720  0.526
splitmix64  0xbf58476d1ce4e5b9    64  yes    36    6    23        23       18.12#       0  0.407  0.394
even32      0x61c88646            32   NO    12    4    11         4       28.58#       0      -      -
EOF
	same "audit: old64 run 33, CF q 1,048,579, 8 sets broken, 7 terms" "33 1048579 8 7" \
		"$(awk '$1 == "old64" { print $6, $8, $10, $7 }' "$tmp/audit.txt")"
else
	skip "audit --compare table"
fi
same "audit: new64 needs 21 terms" 21 "$(awk '$1 == "new64" { print $7 }' "$tmp/audit.txt")"
same "audit: every multiplier has a stride that breaks a table (#)" 11 \
	"$(awk 'NR > 1 && NR <= 12 && $9 ~ /#$/ && $9 + 0 >= 10' "$tmp/audit.txt" | wc -l)"
same "audit: new64, worst stride 17.9 at 4 of 6 sizes" "17.9 4" \
	"$("$kb" audit --preset new64 --format json | awk -F'[:,}]' '{ for (i = 1; i < NF; i++) {
		if ($i ~ /"worst_stride_chi2_per_df"/) w = $(i + 1)
		if ($i ~ /"stride_sizes_broken"/) n = $(i + 1) } } END { printf "%.1f %d", w, n }')"
same "audit: golden-ratio constants and mixers break no key set" \
	"new32 0 new64 0 phi32 0 phi64 0 knuth32 0 fxhash64 0 murmur64 0 splitmix64 0" \
	"$(awk '$1 ~ /^(new|phi|knuth|fxhash|murmur|splitmix)/ { printf "%s%s %s", s, $1, $10; s = " " }' "$tmp/audit.txt")"
# "the run of 33 ones": that old64's longest run is of ones, from the bits
k=$((0x9e37fffffffc0001)) run=0 best=0
for ((i = 0; i < 64; i++)); do
	if (((k >> i) & 1)); then run=$((run + 1)); [ $run -gt $best ] && best=$run
	else run=0; fi
done
same "audit: 0x9e37fffffffc0001 has a run of 33 ones" 33 $best

## Keys from a real kernel: hash_ptr, --word 64 on x86_64 and 32 on i386
same "kernel keys: 16 key files" 16 "$(find "$data" -name '*.txt' | wc -l)"
kinds="page struct_page kmalloc_192 kmalloc_256 cache_104 inode dentry file"
for arch in x86_64 i386; do
	w=64; [ $arch = i386 ] && w=32
	for kind in $kinds; do
		for gen in old new; do
			for b in $(seq 6 20); do
				echo "$arch $kind $gen $b $(cell "chi2_per_df verdict used n" --func hash_ptr \
					--gen $gen --word $w --bits "$b" --keys "$data/$arch/$kind.txt")"
			done
		done
	done
done >"$tmp/kernel"
# FINDINGS.md's two tables are what kernel/keys/report.sh prints
# kk NAME REPORT-ARGS...: the table between FINDINGS.md's NAME markers
kk() {
	sed -n "/^<!-- $1: /,/^<!-- \/$1 -->/p" "$findings" | grep '^|' >"$tmp/kk.doc"
	shift
	bash "$top/kernel/keys/report.sh" "$kb" "$@" >"$tmp/kk.got"
	[ -s "$tmp/kk.doc" ] && diff -u --label FINDINGS.md --label report.sh "$tmp/kk.doc" "$tmp/kk.got" >"$tmp/diff"
}
kk kernel-keys
check "kernel keys: FINDINGS.md's hash_ptr table is what kernel/keys/report.sh prints" $?
[ -s "$tmp/diff" ] && sed 's/^/  /' "$tmp/diff"
kk kernel-keys-hash64 --func hash_64 --bits "8 11"
check "kernel keys: FINDINGS.md's hash_64 table is what kernel/keys/report.sh prints" $?
[ -s "$tmp/diff" ] && sed 's/^/  /' "$tmp/diff"
# a verdict needs a random function to put 100 pairs in a shared bucket:
# n(n-1)/2^(b+1) >= 100, so 4096 keys up to 2^16 buckets, 1024 up to 2^12
same "kernel keys: too few keys exactly where n(n-1)/2^(b+1) < 100" 0 \
	"$(awk '($8 * ($8 - 1) / 2 ^ ($4 + 1) < 100) != ($6 == "too_few_keys")' "$tmp/kernel" | wc -l)"
same "kernel keys: too few keys: 4096 keys above 2^16 buckets, 1024 above 2^12" "1024:13 4096:17" \
	"$(awk '$6 == "too_few_keys" && !($8 in lo && lo[$8] <= $4) { lo[$8] = $4 }
		END { for (n in lo) print n ":" lo[n] }' "$tmp/kernel" | sort | xargs)"
same "kernel keys: old, x86_64, judged and not broken at 2^6..2^20 only for" \
	"cache_104:6 struct_page:6 struct_page:7" \
	"$(awk '$1 == "x86_64" && $3 == "old" && $6 != "broken" && $6 != "too_few_keys" { print $2 ":" $4 }' "$tmp/kernel" | sort | xargs)"
same "kernel keys: old, x86_64 struct pages at 2^6, 2^7 fill every bucket evenly" \
	"even 64 even 128" \
	"$(awk '$1 == "x86_64" && $2 == "struct_page" && $3 == "old" && $4 < 8 { print $6, $7 }' "$tmp/kernel" | xargs)"
same "kernel keys: old, i386, broken at 2^6..2^20 only for" \
	"inode:6 kmalloc_192:11 kmalloc_256:10 kmalloc_256:11 page:10 page:11 page:12 page:6 page:7 page:8 page:9" \
	"$(awk '$1 == "i386" && $3 == "old" && $6 == "broken" { print $2 ":" $4 }' "$tmp/kernel" | sort | xargs)"
same "kernel keys: new, never broken at 2^6..2^20" 0 \
	"$(awk '$3 == "new" && $6 == "broken"' "$tmp/kernel" | wc -l)"
same "kernel keys: new, worst X2/df 2.6 (i386 files at 2^9)" "2.6 i386 file 9 skewed" \
	"$(awk '$3 == "new" && $5 > m { m = $5; w = $1 " " $2 " " $4 " " $6 }
		END { printf "%.1f %s", m, w }' "$tmp/kernel")"

## The 2002 wait tables: 100 waiters, 1000 trials (the defaults)
"$kb" waittable --word 64 >"$tmp/wait64.txt"
tr '\n' ' ' <"$tmp/wait64.txt" | has '64-bit kernel: 100 pages waited on, .* (1000 trials)'
check "waittable: 64-bit, 100 pages waited on, 1000 trials" $?
# as FINDINGS.md's columns: zone, queues, old and new (anywhere), random
# function, old and new (a run)
awk '$2 == "MiB" || $2 == "GiB" { print $1, $2, $4, $6, $7, $12, $9, $10 }' \
	"$tmp/wait64.txt" >"$tmp/waitrows"
grep -E '^(64 MiB|256 MiB|4 GiB|64 GiB) ' "$tmp/waitrows" >"$tmp/got"
block "waittable: the table" "$tmp/got" <<'EOF'
64 MiB 64 1.547 1.537 1.547 0.910 0.860
256 MiB 256 0.770 0.384 0.387 0.000 0.040
4 GiB 4096 0.771 0.022 0.024 0.000 0.000
64 GiB 4096 0.773 0.024 0.024 0.000 0.000
EOF
# old: from 128 MiB up, every zone's struct pages land in 128 queues
for z in 7:32768 8:65536 9:131072 10:262144 11:524288 12:1048576 12:2097152 \
	12:4194304 12:8388608 12:16777216; do
	b=${z%:*} pages=${z#*:}
	used=$(cell used --func hash_long --gen old --word 64 --bits "$b" --keyset struct-page --count "$pages")
	same "waittable: old, $pages struct pages into 2^$b queues use 128" 128 "$used"
done
# every row is the 2002 tables' size where it works: 2 MiB its 2 queues, only
# 1 MiB (whose 1-queue table shifts by the word width) the fix's 4
same "waittable: 1 MiB the fix's 4 queues (marked *), 2 MiB the 2002 tables' 2" "1 MiB 4*, 2 MiB 2" \
	"$(awk '$2 == "MiB" && $1 <= 2 { printf "%s%s %s %s", s, $1, $2, $3; s = ", " }' "$tmp/waitrows")"
tr '\n' ' ' <"$tmp/wait64.txt" | has "2 MiB: simulated with the 2 queues the 2002 tables sized, .* December 2002 fix raised the *floor to 4\. *Only a zone whose 2002 table cannot work, marked '\*', *is simulated with the fix's size"
check "waittable: the 2 MiB note says why it simulates 2 queues" $?
# the source documents by name (Rik van Riel's 2002 tables, George
# Spelvin's fix as posted, ...), never by a number the reader cannot look up
grep -q "^Rik van Riel's 2002 hashed page wait tables, 64-bit kernel" "$tmp/wait64.txt" &&
	! grep -qi 'seed 00' "$tmp/wait64.txt" "$top/README.md" "$top/bench/FINDINGS.md" \
		"$top/bench/REFERENCE.md" "$top/bench/RESULTS.md" "$top/tests/README.md" \
		"$top/include/khash/README.md"
check "waittable and the documents name the source documents, not seed numbers" $?
"$kb" waittable --word 64 --format csv >"$tmp/wait64.csv"
# old against random: queues/128 from 128 MiB up (so 2x at 256 queues,
# 32x at 4096)
same "waittable: old wakes queues/128 times random's waiters from 128 MiB up" \
	"128:1 256:2 512:4 1024:8 2048:16 4096:32 4096:32 4096:32 4096:32 4096:32" \
	"$(awk -F, 'NR > 1 && $4 >= 128 { printf "%s%d:%.0f", s, $6, $7 / $11; s = " " }' "$tmp/wait64.csv")"
same "waittable: a run does better than random under both, every zone" 0 \
	"$(awk '!($7 < $6 && $8 < $6)' "$tmp/waitrows" | wc -l)"
same "waittable: a run wakes nobody (0.000) under old from 128 MiB up" \
	"128 MiB, 256 MiB, 512 MiB, 1 GiB, 2 GiB, 4 GiB, 8 GiB, 16 GiB, 32 GiB, 64 GiB" \
	"$(awk '$7 == "0.000" { printf "%s%s %s", s, $1, $2; s = ", " }' "$tmp/waitrows")"
same "waittable: a run wakes nobody (0.000) under new from 512 MiB up" \
	"512 MiB, 1 GiB, 2 GiB, 4 GiB, 8 GiB, 16 GiB, 32 GiB, 64 GiB" \
	"$(awk '$8 == "0.000" { printf "%s%s %s", s, $1, $2; s = ", " }' "$tmp/waitrows")"
"$kb" waittable --word 32 --format csv >"$tmp/wait32.csv"
same "waittable: 32-bit old within 4 % of random at every size" yes \
	"$(awk -F, 'NR > 1 { d = $7 / $11 - 1; if (d < 0) d = -d; if (d > m) m = d }
		END { print m <= 0.04 ? "yes" : "no (" m ")" }' "$tmp/wait32.csv")"

## The census: kernfs under new, the short vectors of its slab lattice
## (FINDINGS.md, "What the kernel's own keys say").  The buckets come from
## khash-bench; the pairs, differences and d*K mod 2^64 are worked out here
## in Python from the census file.
census=$(dirname "$0")/data/census/6.1-x86_64.txt
# (the mutation harness's scratch tree leaves the census data out)
if [ ! -f "$census" ]; then
	echo "SKIP: census: kernfs under new: no $census"
	skipped=1
else
awk '$1 == "site" && $6 == "fs/kernfs/file.c:45" { id[$2] = 1 }
	$1 == "keys" && ($2 in id) { for (i = 3; i <= NF; i++) print "0x" $i }' "$census" |
	sort -u >"$tmp/kernfs.keys"
"$kb" hash --func hash_ptr --gen new --word 64 --bits 10 "$tmp/kernfs.keys" >"$tmp/kernfs.buckets"
python3 - "$tmp/kernfs.keys" "$tmp/kernfs.buckets" >"$tmp/got" <<'PY'
import collections, sys
K, M, width = 0x61C8864680B583EB, (1 << 64) - 1, 1 << 54
keys = [int(l, 16) for l in open(sys.argv[1])]
bucket = dict(zip(keys, (int(l, 16) for l in open(sys.argv[2]))))
pairs, shared = collections.Counter(), collections.Counter()
for i, a in enumerate(keys):
    for b in keys[i + 1:]:
        pairs[b - a] += 1
        shared[b - a] += bucket[a] == bucket[b]
print("nodes", len(keys), "all 168 bytes into their page:",
      all(k % 4096 % 168 == 0 for k in keys))
n = sum(pairs.values())
print("pairs", n, "sharing", sum(shared.values()), "random", round(n / 1024),
      "from 2584 and 5168", shared[2584] + shared[5168])
print("commonest differences", " ".join(f"{d}:{shared[d]}" for d, _ in pairs.most_common(3)))
for d in (2584, 5168):
    r = d * K & M
    print(f"d {d} pairs {pairs[d]} sharing {shared[d]} ({100 * shared[d] / pairs[d]:.0f} %)"
          f" d*K {(r - (1 << 64) if r >> 63 else r) / width:.3f} widths")
PY
block "census: kernfs under new, the slab lattice's short vectors" "$tmp/got" <<'EOF'
nodes 1069 all 168 bytes into their page: True
pairs 570846 sharing 871 random 557 from 2584 and 5168 177
commonest differences 1008:0 12288:0 13296:0
d 2584 pairs 138 sharing 113 (82 %) d*K 0.177 widths
d 5168 pairs 100 sharing 64 (64 %) d*K 0.354 widths
EOF
fi

## Security
"$kb" skew --func hash_ptr --gen new --word 64 --bits 11 --keyset adversarial --count 4096 \
	>"$tmp/adv.txt"
grep -E '^new hash_ptr|buckets used' "$tmp/adv.txt" >"$tmp/got"
block "security: the adversarial output" "$tmp/got" <<'EOF'
new hash_ptr on 64-bit, adversarial, 11 bits: 4096 keys into 2048 buckets
  buckets used 1 of 2048, max load 4096 (a random function: 8.39)
EOF
# the 120 cells tests/test_adversarial.c tries, each into one bucket
n=0 one=0
for f in hash_32 hash_64 hash_long hash_ptr; do
	for g in old minimal posted new; do
		for w in 32 64; do
			for b in 1 6 11 16 20; do
				n=$((n + 1))
				u=$(cell used --func $f --gen $g --word $w --bits $b --keyset adversarial --count 4096)
				[ "$u" = 1 ] && one=$((one + 1))
			done
		done
	done
done
same "security: adversarial cells into one bucket" "160 of 160" "$one of $n"

## Named kernel tables: FINDINGS.md's results table is what the command
## prints (rounded as it rounds: 3 significant digits, <.01, and
## **broken** / *skewed*), row for row
"$kb" tables --kernel-keys "$data" --format csv | awk -F, 'NR > 1 {
	key = $2 " | " $6 " | " $4
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
	v = $10 + 0
	s = v < 0.01 ? "<.01" : v >= 1000 ? sprintf("%.0e", v) : sprintf("%.3g", v)
	m = $15 == "broken" ? "**" : $15 == "skewed" ? "*" : ""
	cell[key] = cell[key] " | " m s m " (" $12 ")"
} END { for (i = 1; i <= n; i++) print "| " order[i] cell[order[i]] " |" }' >"$tmp/tables.got"
sed -n '/^<!-- tables:/,/^<!-- \/tables -->/p' "$findings" | grep '^| [a-z]' | grep -v '^| table ' >"$tmp/tables.readme"
if [ -s "$tmp/tables.readme" ] && diff -u "$tmp/tables.readme" "$tmp/tables.got" >"$tmp/diff"; then
	check "named tables: FINDINGS.md's results table, $(wc -l <"$tmp/tables.got") rows" 0
else
	check "named tables: FINDINGS.md's results table" 1; cat "$tmp/diff"
fi

## Statistics
same "statistics: log10_p_upper of -906,064" -906064 \
	"$(printf '%.0f' "$(cell log10_p_upper --func hash_64 --gen old --word 64 --bits 11 --keyset page4k --count 4096)")"

## Choosing a hash: advise (the ns/hash column is measured, not asserted)
nons() { sed -E 's/ +[0-9.]+(  <- now)?$/\1/'; }
"$kb" keys --keyset slab --size 192 --count 5000 --word 64 -o "$tmp/slab192.txt"
## README.md: the 2016 story's table, from skew (4096 keys, 2^11 buckets)
for ks in page4k btrfs-stripe; do
	case $ks in page4k) label="4 KiB page addresses" ;; *) label="btrfs full stripes" ;; esac
	row="| $label"
	for w in 64 32; do
		u=$(cell used --func hash_64 --gen old --word $w --bits 11 --keyset $ks --count 4096)
		[ "$u" = 1 ] && u="1 bucket used" || u="$u buckets used"
		row="$row | $u | X²/df $(r1 "$(cell chi2_per_df --func hash_64 --gen new --word $w --bits 11 \
			--keyset $ks --count 4096)")"
	done
	echo "$row |"
done >"$tmp/story.got"
grep -E '^\| (4 KiB page addresses|btrfs full stripes) \|' "$top/README.md" >"$tmp/story.readme"
diff -u --label README.md --label khash-bench "$tmp/story.readme" "$tmp/story.got" >"$tmp/diff"
check "README: the 2016 story's table is what skew gives" $?
[ -s "$tmp/diff" ] && sed 's/^/  /' "$tmp/diff"

## README.md: the gallery of copies of hash.h, each row what conform prints
## for the FILE and EXPR the row names (tests/gallery), and its last column
## what the census command above the table says of the copy's column
python3 - "$top/README.md" "$kb" "$top" >"$tmp/gallery" <<'PY'
import csv, io, json, os, re, shlex, subprocess, sys
readme, kb, top = sys.argv[1:]
gallery = top + "/tests/gallery"
text = open(readme).read().split("\n## Other projects' copies of hash.h\n")[1].split("\n## ")[0]
rows = [l for l in text.split("\n") if l.startswith("| ") and "`, `" in l]
# the census command as the README shows it, run from the top of the tree
census, = re.findall(r"`khash-bench (census [^`]*)`", text)

# the copy's worst cost over a random function's on the census keys, its
# site and kernel
def census_worst(f, e):
    args = [a.replace("FILE", f) for a in shlex.split(census)]
    args[args.index("EXPR")] = e
    out = subprocess.run([os.path.abspath(kb)] + args + ["--format", "csv"],
                         capture_output=True, text=True, cwd=top).stdout
    mine = [r for r in csv.DictReader(io.StringIO(out))
            if r["gen"] not in ("old", "minimal", "posted", "new") and r["cost_vs_random"]]
    if not mine:
        return "no census output"
    w = max(mine, key=lambda r: float(r["cost_vs_random"]))
    return "%.1fx, %s (%s)" % (float(w["cost_vs_random"]), w["site"],
                               w["file"].split("/")[-1].split("-")[0])
for row in rows:
    cols = [c.strip() for c in row.strip("|").split(" | ")]
    f, e = re.match(r"`([^`]*)`, `([^`]*)`$", cols[2]).groups()
    d = json.loads(subprocess.run([kb, "conform", "--source", gallery + "/" + f, "--call", e,
                                   "--format", "json"], capture_output=True, text=True).stdout)
    rep = {}
    for c in d["cells"]:
        if c["reproduces"]:
            rep.setdefault(c["gen"], []).append("%s/%d" % (c["func"], c["word"]))
    gens = ["old", "minimal", "posted", "new"]  # the newest generation first
    mir = sorted((c for c in d["cells"] if c["mirrored"]), key=lambda c: -gens.index(c["gen"]))
    if rep:
        against = "reproduces " + "; ".join(g + " " + ", ".join(v) for g, v in rep.items())
    elif mir:
        m = mir[0]
        against = "mirrors %s %s/%d" % (m["gen"], m["func"], m["word"])
        against += " (and %d more)" % (len(mir) - 1) if len(mir) > 1 else ""
    else:
        against = "nothing"
    used = [b["used"] for b in d["buckets_used"] if b["bits"] == 10][0]
    k = d["multiplier"]
    mult = "-" if k is None else k + (" (even)" if int(k, 16) % 2 == 0 else "")
    worst = max(d["costs"], key=lambda c: c["cost_vs_random"])
    got = [against, "%d of 1024" % used, mult, "%.1fx, %s" % (worst["cost_vs_random"], worst["keyset"]),
           census_worst(f, e)]
    if worst["word"] != 64:  # costs are a 64-bit build's: another build's are its own
        got[3] = cols[6]
    print("ok" if got == cols[3:] else "FAIL %s %s: %s" % (f, e, " | ".join(got)))
PY
same "README: the gallery rows are what conform prints" "" "$(grep -v '^ok$' "$tmp/gallery")"
same "README: eight gallery rows" 8 "$(grep -c '^ok$' "$tmp/gallery")"

## README.md: every `$ khash-bench ...` block is what the command prints on
## the keys its `khash-bench keys ...` makes (a line "..." stands for lines
## left out; advise's ns/hash column is measured, not asserted)
python3 - "$top/README.md" "$kb" "$tmp" >"$tmp/blocks" <<'PY'
import os, re, shlex, subprocess, sys
readme, kb, tmp = sys.argv[1:]
kb = os.path.abspath(kb)
nons = lambda l: re.sub(r" +[0-9.]+(  <- now)?$", r"\1", l) if re.match(r" +\d+ ", l) else l
text = open(readme).read()
# the keys the blocks read, made as the README says to make them
for make in re.findall(r"`khash-bench (keys [^`]*)`", text):
    subprocess.run([kb] + shlex.split(make), cwd=tmp, check=True)
blocks, cur, code = [], None, False
for line in text.split("\n"):
    if line.startswith("```"):
        code, cur = not code, None
    elif code and line.startswith("$ khash-bench "):
        cur = (line[2:], [])
        blocks.append(cur)
    elif code and cur is not None:
        cur[1].append(line.rstrip())
for cmd, want in blocks:
    argv = shlex.split(cmd)
    got = subprocess.run([kb] + argv[1:], cwd=tmp, capture_output=True, text=True).stdout
    got = [l.rstrip() for l in got.split("\n")]
    if argv[1] == "advise":
        want, got = [nons(l) for l in want], [nons(l) for l in got]
    i, ok = 0, bool(want)
    for l in (w for w in want if w != "..."):   # in order, gaps where "..." says
        while i < len(got) and got[i] != l:
            i += 1
        if i == len(got):
            ok = False
            print("  not in the output:", l)
            break
        i += 1
    print("ok" if ok else "FAIL", cmd)
PY
same "README: the command blocks (slab192.txt)" "" "$(grep -v '^ok ' "$tmp/blocks")"
same "README: five command blocks" 5 "$(grep -c '^ok ' "$tmp/blocks")"
# and every `khash-bench CMD ...` the README names takes the options it is
# given there (its usage line lists each)
# shellcheck disable=SC2016 # backquotes of Markdown, not shell
grep -o '`khash-bench [a-z]* [^`]*`' "$top/README.md" | tr -d '`' | sort -u |
	while read -r _ c args; do
		u=$("$kb" "$c" --help | head -1)
		read -ra words <<<"$args"
		for o in $(printf '%s\n' "${words[@]}" | grep '^--'); do
			case $u in *"$o "* | *"$o]"* | *"$o)"*) ;; *) echo "$c $o" ;; esac
		done
	done >"$tmp/opts"
same "README: every option it gives a command is one the command takes" "" "$(cat "$tmp/opts")"

"$kb" advise --census "$(dirname "$0")/data/census/6.1-x86_64.txt" --site fs/kernfs/file.c:45 \
	--kind locks >"$tmp/kernfs.txt"
grep -E '^ +[125] ' "$tmp/kernfs.txt" | nons >"$tmp/got"
block "advise: the kernfs locks" "$tmp/got" <<'EOF'
   1 hash_ptr(k >> 3, 10)                 new       no       0.7351 even             0.778   1.043     0.746
   2 jhash_2words(lo, hi, initval) & 1023 jhash.h   no        1.014 ok               1.057   1.043     1.014
   5 hash_ptr(k, 10)                      new       no        1.587 skewed           1.630   1.043     1.562  <- now
EOF
same "advise: the kernfs advice" \
	"advice: hash_ptr(k, 10) (new) costs 1.56x a random function's other holders met per lock here; every difference between these keys is a multiple of 8 = 2^3; hash_ptr(k >> 3, 10) (new) costs 0.75x, and less than now in 198 of 200 re-layouts of these keys" \
	"$(tail -1 "$tmp/kernfs.txt")"
grep -q '^advise: 1069 distinct keys of site 41 fs/kernfs/file.c:45' "$tmp/kernfs.txt"
check "advise: the census's 1,069 distinct kernfs_node addresses" $?
"$kb" advise --keyset btrfs-stripe --func hash_64 --gen old --bits 11 --word 64 | tail -1 |
	has '^advice: hash_64(k, 11) (old) costs 1024.38x .* hash_64(k >> 17, 11) (new) costs 0.78x, and less than now in 200 of 200 re-layouts of these keys$'
check "advise: stripes under old, 1024x; the key >> 17 through new, 0.78x" $?

"$kb" explain --census "$(dirname "$0")/data/census/6.1-x86_64.txt" --site fs/kernfs/file.c:45 >"$tmp/explain.txt"
grep -E '^(keys|pairs):|^ +(2584|5168) |^ +d +pairs' "$tmp/explain.txt" >"$tmp/got"
block "explain: the kernfs site" "$tmp/got" <<'EOF'
keys: every key a multiple of 2^3; every difference a multiple of 8; 213 pages of 4 KiB, at most 24 keys on one; within a page, differences multiples of 168
pairs: 570846; sharing a bucket: 871 observed, 557.5 for a random function, 854.9 predicted from the differences (0.981x observed)
                   d     pairs    shared   share        d*K mod 2^w  / bucket   model    excess   of it
                2584       138       113   81.9%    0xb57a3282b8c08   +0.1772  0.8228     112.9   36.0%  1 page - 9 x 168
                5168       100        64   64.0%   0x16af4650571810   +0.3544  0.6456      63.9   20.4%  2 pages - 18 x 168
EOF
"$kb" explain --table btrfs-raid56-raw --gen old --word 64 | has '^the commonest gap, 131072: d\*K mod 2^64 = 0xfffffff800020000,  -3.8e-06 of a bucket: keys that far apart share one with chance 1.0000$'
check "explain: the stripes' commonest gap, -3.8e-06 of a bucket, chance 1.0000" $?
"$kb" explain --table btrfs-raid56-raw --gen old --word 64 | has 'its longest run: 33 ones from bit 18 to 50'
check "explain: old's run of 33 ones from bit 18 to 50" $?

## tests/README.md: the planted bugs the test command counts are the harness's
same "tests/README.md: planted bugs, one per '== ' entry of tests/mutants/mutants.txt" \
	"$(grep -c '^== ' "$(dirname "$0")/mutants/mutants.txt")" \
	"$(sed -n 's/.*(\([0-9]*\) planted bugs.*/\1/p' "$top/tests/README.md")"

## bench/REFERENCE.md's layout table: every module of bench/core, bench/io
## and bench/cli is named in its folder's row (a reader should find each
## file from there)
for dir in core io cli; do
	row=$(grep -F "| \`bench/$dir/\` |" "$top/bench/REFERENCE.md")
	for f in "$(dirname "$0")/../bench/$dir"/*.c; do
		m=$(basename "$f" .c)
		case $row in
		*"\`$m\`"* | *"\`$m.c\`"*) check "REFERENCE.md layout: bench/$dir/$m" 0 ;;
		*) check "REFERENCE.md layout: bench/$dir/$m named in the bench/$dir/ row" 1 ;;
		esac
	done
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ] || exit 1
# the figures that need both heap allocators were not checked
[ "$skipped" = 0 ] || exit 77
