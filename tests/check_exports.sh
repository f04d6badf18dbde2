#!/bin/sh
# SPDX-License-Identifier: MIT
# Symbol-leak test: the shared library exports exactly the functions the
# public header declares (LKH_HOT and LKH_API prototypes), nothing else.
set -eu
lib=$1 header=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TWiDBR]$/ {print $3}' | sort -u >"$tmp/exported"
sed -n 's/^LKH_\(HOT\|API\) [a-z_0-9 ]*[ *]\(lkh_[a-z_0-9]*\)(.*/\2/p' "$header" | sort -u >"$tmp/declared"
if ! diff -u "$tmp/declared" "$tmp/exported"; then
	echo "FAIL: exported symbols differ from the header's declarations (- declared, + exported)"
	exit 1
fi
echo "ok: $(wc -l <"$tmp/exported") symbols exported, all declared in $(basename "$header")"
