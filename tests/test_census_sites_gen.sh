#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/core/gen_census_sites.py, which compiles the census sites table
# into the library: the committed table compiles to one entry a site and
# kernel, and every kind of malformed row stops the build with its
# file:line and the fault, writing nothing.
# usage: test_census_sites_gen.sh PYTHON GEN TSV
set -uo pipefail
export LC_ALL=C
py=$1 gen=$2 tsv=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

# The committed table: an entry for each filled kernel column (counted
# here with awk, not by the generator).
"$py" "$gen" "$tsv" "$tmp/out.c"
check "the committed table compiles" $?
want=$(awk -F'\t' '/^[#@]/ || !NF {next} !h {h = 1; k = NF - 5; next}
	{for (i = 1; i <= k; i++) if ($i != "-") n++} END {print n}' "$tsv")
got=$(grep -c '^	{ "' "$tmp/out.c")
check "one entry a site and kernel ($got, want $want)" "$([ "$got" = "$want" ] && echo 0 || echo 1)"
has -F '{ "6.12", "kernel/time/posix-timers.c:72", "hash32_ptr", KB_SITE_OTHER, "signal_struct word in the posix timer hash", KB_SITE_FEEDS_SAME_LINE },' "$tmp/out.c"
check "a @same-line feeds is census_sites.h's macro" $?
has -F '{ "6.1", "include/net/arp.h:16", NULL, KB_SITE_OTHER, "device word in the ARP neighbour hash", "xor the key, times a random odd hash_rnd[0]: the top bits pick the bucket" },' "$tmp/out.c"
check "an @NAME feeds is its text, func - is NULL" $?
has -F '{ "6.1", "fs/kernfs/file.c:45", NULL, KB_KIND_LOCKS, "kernfs open-file mutexes", NULL },' "$tmp/out.c"
check "a kind is its enum" $?

# bad HEAD ROW MESSAGE [LINE]: a table of a definition, the header HEAD
# and the row ROW fails with "FILE:LINE: MESSAGE" alone on stderr (LINE 3,
# the row's, unless given) and leaves no output.
head='6.1	6.12	func	kind	what	feeds	why'
bad() {
	printf '@n\tsome text\n%s\n%s\n' "$1" "$2" >"$tmp/bad.tsv"
	rm -f "$tmp/bad.c"
	"$py" "$gen" "$tmp/bad.tsv" "$tmp/bad.c" 2>"$tmp/err"
	local status=$? err
	err=$(cat "$tmp/err")
	if [ "$status" = 0 ] || [ "$err" != "$tmp/bad.tsv:${4:-3}: $3" ] || [ -e "$tmp/bad.c" ]; then
		echo "FAIL: row '$2': status $status, stderr '$err'"
		echo "  wanted: $tmp/bad.tsv:${4:-3}: $3"
		count_failure
	else
		passed=$((passed + 1))
	fi
}
bad "$head" 'a.c:1	-	-	chained	t	-' '6 columns, the header has 7'
bad "$head" 'a.c:1	-	-	chain	t	-	-' "kind 'chain' is none of chained, tree, locks, other, named"
bad "$head" 'a.c:1	-	-	chained	t	@n	-' 'only a site of kind other feeds another hash'
bad "$head" 'a.c:1	-	-	other	t	@m	-' '@m is not defined above it'
bad "$head" '-	-	-	other	t	-	-' "the site is in no kernel's census"
bad "$head" 'a.c	-	-	other	t	-	-' "'a.c' is not file:line"
bad "$head" 'a.c:0	-	-	other	t	-	-' "'a.c:0' is not file:line"
bad 'func	kind	what	feeds	why' 'a.c:1	-	-	other	t	-	-' 'the header names the kernels, then func kind what feeds why' 2
printf '%s\n%s\n%s\n' "$head" 'a.c:1	-	f	other	t	-	-' 'a.c:1	b.c:2	f	other	u	-	-' >"$tmp/dup.tsv"
"$py" "$gen" "$tmp/dup.tsv" "$tmp/dup.c" 2>"$tmp/err"
[ $? != 0 ] && [ "$(cat "$tmp/err")" = "$tmp/dup.tsv:3: 6.1 a.c:1 (f) has a row already" ] && [ ! -e "$tmp/dup.c" ]
check "a site twice in one kernel" $?

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
