#!/bin/sh
# SPDX-License-Identifier: MIT
# khash-bench(1), generated at build time, is clean roff: no warning from
# groff (-ww, every warning) or mandoc's linter, and it names every command.
# Exits 77 (skipped) when neither formatter is installed.
# Its OUTPUT FORMATS are what the commands write.
# Usage: check_manpage.sh khash-bench.1 KHASH-BENCH CENSUS-FILE
set -u
man=$1 kb=$2 census=$3
ran=0 status=0
if command -v groff >/dev/null 2>&1; then
	out=$(groff -ww -z -man -Tutf8 "$man" 2>&1)
	[ -n "$out" ] && { echo "FAIL: groff -ww:"; echo "$out"; status=1; }
	ran=1
fi
if command -v mandoc >/dev/null 2>&1; then
	# STYLE messages are advice (e.g. the date left to the build); warnings count
	out=$(mandoc -T lint -W warning "$man" 2>&1)
	[ -n "$out" ] && { echo "FAIL: mandoc -T lint:"; echo "$out"; status=1; }
	ran=1
fi
[ "$ran" = 0 ] && { echo "SKIP: neither groff nor mandoc is installed"; exit 77; }
for c in $("$kb" --help | awk '/^Commands:$/ {on = 1; next} on && /^$/ {exit} on {print $1}'); do
	grep -q "^\.SS $c\$" "$man" || { echo "FAIL: the man page has no section for '$c'"; status=1; }
done
# OUTPUT FORMATS: each record's CSV columns as the man page lists them are
# the header its command writes (a key file's cells: every column a cell has)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '1\n2\n3\n' >"$tmp/keys"
columns() { # WRITERS: the man page's CSV line under that record, as CSV
	awk -v w="$1" '$0 == ".B " w { on = 1; next } on && /^CSV: / { sub(/^CSV: /, ""); gsub(/, /, ","); print; exit }' "$man"
}
same_columns() { # WRITERS ARGS HEADER: the header ARGS wrote is the man page's
	want=$(columns "$1")
	if [ -z "$want" ] || [ "$3" != "$want" ]; then
		echo "FAIL: OUTPUT FORMATS for $1: the man page says"
		echo "  $want"
		echo "  khash-bench $2 writes"
		echo "  $3"
		status=1
	fi
}
for rec in "report, skew|skew --keys $tmp/keys --func hash_32 --gen new --bits 4" \
	"influence|influence --func hash_32 --gen old --word 32 --bits 4 --count 64" \
	"audit|audit --multiplier 0x61c88647" "waittable|waittable --count 5" "tables|tables" \
	"census|census $census" "explain|explain --keyset seq --count 64 --bits 4" \
	"advise|advise --keyset seq --count 64 --bits 4"; do
	w=${rec%%|*} args=${rec#*|}
	# shellcheck disable=SC2086 # the command's words
	same_columns "$w" "$args" "$("$kb" $args --format csv 2>/dev/null | head -1)"
done
# conform's two records, one CSV table each, the costs after a blank line
gallery=$(dirname "$0")/gallery
"$kb" conform --source "$gallery/new_hash_64.h" --call 'hash_64(x, bits)' --format csv \
	>"$tmp/conform.csv" 2>/dev/null
for rec in "conform|1p" "conform (costs)|/^\$/{n;p;q}"; do
	w=${rec%%|*}
	same_columns "$w" conform "$(sed -n "${rec#*|}" "$tmp/conform.csv")"
done
# scan's record, over the gallery (which has findings)
same_columns scan "scan $gallery" "$("$kb" scan --format csv "$gallery" 2>/dev/null | head -1)"
[ "$status" = 0 ] && echo "ok: $man is clean, lists every command and each record's CSV columns"
exit "$status"
