#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's khash-bench synopsis is what `khash-bench --help` prints:
# the code block after the "## khash-bench" heading, line for line, against
# the help's "Synopsis:" section.
# Usage: check_readme_synopsis.sh KHASH-BENCH README.md
set -eu
kb=$1 readme=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$kb" --help | awk '/^Synopsis:$/ {on = 1; next} on && /^$/ {exit} on {sub(/^  /, ""); print}' >"$tmp/help"
awk '/^## khash-bench$/ {sec = 1; next} sec && /^```/ {if (blk) exit; blk = 1; next} blk {print}' \
	"$readme" >"$tmp/readme"
[ -s "$tmp/help" ] || { echo "FAIL: no Synopsis section in --help"; exit 1; }
[ -s "$tmp/readme" ] || { echo "FAIL: no synopsis block under '## khash-bench' in $readme"; exit 1; }
if ! diff -u "$tmp/readme" "$tmp/help"; then
	echo "FAIL: the README's synopsis (-) differs from --help (+)"
	exit 1
fi
echo "ok: README synopsis = --help ($(wc -l <"$tmp/help") commands)"
