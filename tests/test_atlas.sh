#!/bin/bash
# SPDX-License-Identifier: MIT
# kernel/atlas/make-atlas.py without kernel sources: its exact rows and its
# census check on the fixture tree of tests/atlas, then the shape of the
# committed atlases (tests/data/atlas), so a change to the scanner that
# moves a row, or data that lost rows, fails here.  The data checks are
# skipped, not failed, when the data are not in the tree (the mutation
# harness leaves them out).
# usage: test_atlas.sh PYTHON MAKE_ATLAS FIXTURE_DIR DATA_DIR CENSUS_DIR
set -euo pipefail
export LC_ALL=C
py=$1
atlas=$2
fixture=$3
data=$4
census=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# checks.sh sets the tally too; set here so that shellcheck without -x,
# which does not follow the file, sees them
passed=0 failed=0
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# ok NAME COMMAND...: COMMAND's success counted as check NAME (inside an
# if, so that set -e leaves a failed condition to the tally)
ok() {
	local name=$1
	shift
	if "$@"; then check "$name" 0; else check "$name" 1; fi
}

# same NAME FILE_WANT FILE_GOT: the files are equal, else their diff
same() {
	if diff -u "$2" "$3" >"$tmp/diff"; then check "$1" 0; else
		check "$1" 1; sed 's/^/  /' "$tmp/diff"; fi
}

# rows FILE: the data rows of an atlas (no comments, no column header)
rows() { grep -v '^#' "$1" | tail -n +2; }

# count FILE AWK_CONDITION: how many data rows meet the condition
count() { rows "$1" | awk -F'\t' "$2" | wc -l; }

# The fixture: #ifs, a macro, kbuild lists and composites, obj-m, a
# comment, a string, a prototype and a definition file that do not count.
ok "fixture: make-atlas.py runs" "$py" "$atlas" "$fixture/tree" \
	"$fixture/tree/config" "$tmp/fixture.tsv" --census "$fixture/census.txt"
same "fixture: the exact rows" "$fixture/expected.tsv" "$tmp/fixture.tsv"
fixture_check() {
	"$py" "$atlas" "$fixture/tree" "$fixture/tree/config" \
		--check "$fixture/census.txt" >"$tmp/check.txt"
}
ok "fixture: --check runs" fixture_check
same "fixture: --check's figures" "$fixture/expected-check.txt" "$tmp/check.txt"
# A version 2 census: module sites by module, lines of a patched tree.
fixture_check2() {
	"$py" "$atlas" "$fixture/tree" "$fixture/tree/config" \
		--check "$fixture/census-2.txt" --patch "$fixture/census.patch" \
		>"$tmp/check2.txt"
}
ok "fixture: --check of a version 2 census runs" fixture_check2
same "fixture: --check's figures, version 2" "$fixture/expected-check-2.txt" \
	"$tmp/check2.txt"
ok "fixture: --census of a version 2 census runs" "$py" "$atlas" \
	"$fixture/tree" "$fixture/tree/config" "$tmp/fixture2.tsv" \
	--census "$fixture/census-2.txt" --patch "$fixture/census.patch"
rows "$tmp/fixture2.tsv" | cut -f 1,2,13 >"$tmp/census2.txt"
same "fixture: the census column, version 2" "$fixture/expected-census-2.txt" \
	"$tmp/census2.txt"

# shape FILE: the format line, the columns, 13 fields a row, >= 400 rows,
# some of each of y, m and n, nothing but y/m/n/h/?, a reason for each
# n and ?  (the $ in the single quotes are awk's)
# shellcheck disable=SC2016
shape() {
	local f=$1 name b columns
	name=$(basename "$f")
	columns=$(printf '%s\t' file line function called key bits table size \
		build reason subsystem expanded)census
	ok "$name: format line" [ "$(head -n 1 "$f")" = "# khash-atlas 1" ]
	ok "$name: column header" [ "$(grep -v '^#' "$f" | head -n 1)" = "$columns" ]
	ok "$name: 13 fields in every row" [ "$(count "$f" 'NF != 13')" = 0 ]
	ok "$name: at least 400 call sites" [ "$(count "$f" 1)" -ge 400 ]
	for b in y m n; do
		ok "$name: some sites are $b" [ "$(count "$f" "\$9 == \"$b\"")" -gt 0 ]
	done
	ok "$name: build is one of y m n h ?" [ "$(count "$f" '$9 !~ /^[ymnh?]$/')" = 0 ]
	ok "$name: every n and ? says why" \
		[ "$(count "$f" '($9 == "n" || $9 == "?") && $10 == ""')" = 0 ]
}

# back PATCH...: file:line of stdin, of the tree with the patches applied
# in this order, taken back to the tree without them by the hunk heads
# alone (a line after a hunk moves by what it added); a line inside a
# hunk is printed as "inside-a-hunk file:line", which no row matches.
# shellcheck disable=SC2016
back() {
	local keys i p
	keys=$(cat)
	for ((i = $#; i >= 1; i--)); do
		p=${!i}
		keys=$(awk -v keys="$keys" '
			/^\+\+\+ / { f = $2; sub(/^b\//, "", f) }
			/^@@ / { split(substr($2, 2), o, ","); split(substr($3, 2), n, ",")
				if (o[2] == "") o[2] = 1
				if (n[2] == "") n[2] = 1
				h++; hf[h] = f; hn[h] = n[1]; hd[h] = n[2]; ho[h] = o[2] }
			END { c = split(keys, k, "\n")
				for (j = 1; j <= c; j++) {
					m = split(k[j], fl, ":"); line = fl[m]; file = substr(k[j], 1, length(k[j]) - length(line) - 1)
					shift = 0; inside = 0
					for (x = 1; x <= h; x++) if (hf[x] == file) {
						if (line > hn[x] + hd[x] - 1) shift += hd[x] - ho[x]
						else if (line >= hn[x]) inside = 1 }
					print (inside ? "inside-a-hunk " : "") file ":" (line - shift) } }' "$p")
	done
	printf '%s\n' "$keys"
}

# reached_marked NAME KNOWN ATLAS CENSUS [PATCH...]: every hash.h site
# CENSUS reached (its lines taken back through the patches) is a row of
# ATLAS marked reached.  Except the uses of a macro of a header beside its
# .c files from those files, which KNOWN lists as "SITE ROW" lines
# (expanded has the header's own lines only): for these the header's row
# must be marked reached.
reached_marked() {
	local name=$1 known=$2 atl=$3 cen=$4
	shift 4
	grep -E '^site [0-9]+ (hash_32|hash_64|hash_long|hash_ptr|hash32_ptr|__hash_32) ' \
		"$cen" | awk '{print $6}' | back "$@" | sort -u >"$tmp/reached"
	rows "$atl" | awk -F'\t' '$13 == "reached" {
		print $1 ":" $2
		n = split($12, e, ",")
		for (i = 1; i <= n; i++) print $1 ":" e[i] }' | sort -u >"$tmp/marked"
	ok "$name census: it has reached hash.h sites" [ -s "$tmp/reached" ]
	comm -23 "$tmp/reached" "$tmp/marked" >"$tmp/unmarked"
	local site row
	: >"$tmp/missing"
	while read -r site; do
		row=$(printf '%s\n' "$known" | awk -v s="$site" '$1 == s {print $2}')
		if [ -n "$row" ] && grep -qx "$row" "$tmp/marked"; then
			echo "  $site: a use of the macro at $row, marked reached"
		else
			echo "$site" >>"$tmp/missing"
		fi
	done <"$tmp/unmarked"
	ok "$name: every census-reached site is a row marked reached" [ ! -s "$tmp/missing" ]
	sed 's/^/  missing: /' "$tmp/missing"
}

# The same check's shell side on the fixture: its lines taken back by the
# patch's hunk heads, the macro of local.h seen at its use in table.c.
reached_marked fixture 'core/table.c:46 core/local.h:9' "$tmp/fixture2.tsv" \
	"$fixture/census-2.txt" "$fixture/census.patch"

if [ -f "$data/linux-6.1.tsv" ] && [ -f "$data/linux-6.12.tsv" ]; then
	shape "$data/linux-6.1.tsv"
	shape "$data/linux-6.12.tsv"
	# Every hash.h site the x86_64 census kernel ran is a row marked
	# reached, at its line or (in a macro) at a line it is expanded at.
	# inode_hash and btrfs_inode_hash are the census's own probes of two
	# helpers, not hash.h calls, so they have no row.
	reached_marked 6.1 '' "$data/linux-6.1.tsv" "$census/6.1-x86_64.txt"
	# 6.12's census also has module sites (the same field 6, a module
	# name after it); its lines are of the tree with the census patches.
	p612=$(dirname "$atlas")/../census/6.12
	if [ -f "$census/6.12-x86_64.txt.xz" ] && [ -d "$p612" ]; then
		xz -dc "$census/6.12-x86_64.txt.xz" >"$tmp/c612.txt"
		# mm_slot.h's mm_slot_insert and mm_slot_lookup, used by
		# khugepaged.c and ksm.c (the only such macros with a site Debian
		# builds)
		reached_marked 6.12 'mm/khugepaged.c:456 mm/mm_slot.h:52
mm/khugepaged.c:488 mm/mm_slot.h:40
mm/ksm.c:2992 mm/mm_slot.h:52
mm/ksm.c:3035 mm/mm_slot.h:40' "$data/linux-6.12.tsv" "$tmp/c612.txt" \
			"$p612"/0*.patch
	fi
else
	echo "SKIP: no tests/data/atlas, the data checks did not run"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
