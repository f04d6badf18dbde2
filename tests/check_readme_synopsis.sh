#!/bin/sh
# SPDX-License-Identifier: MIT
# The synopsis of bench/REFERENCE.md is what `khash-bench --help` prints:
# the code block after its "## Synopsis" heading, line for line, against
# the help's "Synopsis:" section, the man page's SYNOPSIS (when given) and
# every command's own usage line, for every command --help lists.
# Usage: check_readme_synopsis.sh KHASH-BENCH REFERENCE.md [khash-bench.1]
set -eu
kb=$1 readme=$2 man=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$kb" --help | awk '/^Synopsis:$/ {on = 1; next} on && /^$/ {exit} on {sub(/^  /, ""); print}' >"$tmp/help"
awk '/^## Synopsis$/ {sec = 1; next} sec && /^```/ {if (blk) exit; blk = 1; next} blk {print}' \
	"$readme" >"$tmp/readme"
[ -s "$tmp/help" ] || { echo "FAIL: no Synopsis section in --help"; exit 1; }
[ -s "$tmp/readme" ] || { echo "FAIL: no synopsis block under '## Synopsis' in $readme"; exit 1; }
if ! diff -u "$tmp/readme" "$tmp/help"; then
	echo "FAIL: $readme's synopsis (-) differs from --help (+)"
	exit 1
fi
# each command's --help starts with the same line
awk '{print $2}' "$tmp/help" | while read -r c; do
	"$kb" "$c" --help | head -1 | sed 's/^Usage: //' >>"$tmp/usage"
done
if ! diff -u "$tmp/help" "$tmp/usage"; then
	echo "FAIL: a command's --help usage line (+) differs from the synopsis (-)"
	exit 1
fi
if [ -n "$man" ]; then
	# .SY "khash\-bench NAME", the arguments in roff, .YS: one line each
	awk '/^\.SH SYNOPSIS/ {on = 1; next} on && /^\.SH/ {exit}
	     on && /^\.SY / {line = substr($0, 5); gsub(/"/, "", line); next}
	     on && /^\.YS/ {print line; next}
	     on {line = line " " $0}' "$man" |
		sed 's/\\-/-/g; s/\\e/\\/g; s/\\&//g' >"$tmp/man"
	if ! diff -u "$tmp/readme" "$tmp/man"; then
		echo "FAIL: $readme's synopsis (-) differs from the man page's (+)"
		exit 1
	fi
fi
echo "ok: $(basename "$readme") synopsis = --help = each command's usage${man:+ = man page} ($(wc -l <"$tmp/help") commands)"
