#!/bin/sh
# SPDX-License-Identifier: MIT
# khash-bench(1), generated at build time, is clean roff: no warning from
# groff (-ww, every warning) or mandoc's linter, and it names every command.
# Exits 77 (skipped) when neither formatter is installed.
# Usage: check_manpage.sh khash-bench.1 KHASH-BENCH
set -u
man=$1 kb=$2
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
[ "$status" = 0 ] && echo "ok: $man is clean and lists every command"
exit "$status"
