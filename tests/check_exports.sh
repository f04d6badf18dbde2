#!/bin/sh
# SPDX-License-Identifier: MIT
# Symbol-leak test: the shared library exports exactly the functions the
# public headers declare (LKH_HOT and LKH_API prototypes), nothing else.
# Usage: check_exports.sh LIB HEADER [--expand INCDIR HEADER...]
# Headers after --expand declare names through X-macros (lkh_string.h):
# they are run through the C preprocessor first (INCDIR: lkh_config.h).
set -eu
lib=$1 header=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TWiDBR]$/ {print $3}' | sort -u >"$tmp/exported"
sed -n 's/^LKH_\(HOT\|API\) [a-z_0-9 ]*[ *]\(lkh_[a-z_0-9]*\)(.*/\2/p' "$header" >"$tmp/names"
if [ "${1:-}" = --expand ]; then
	incdir=$2
	shift 2
	for h in "$@"; do
		# one declaration a line, then the name before its '('
		${CPP:-cpp} -P -DLKH_LINK_ONLY -I"$incdir" "$h" | tr ';' '\n' |
			sed -n 's/^[[:space:]]*[a-z_0-9]*[a-z_0-9 ]*[ *]\(lkh_[a-z_0-9]*\) *(.*/\1/p' >>"$tmp/names"
	done
fi
sort -u "$tmp/names" >"$tmp/declared"
if ! diff -u "$tmp/declared" "$tmp/exported"; then
	echo "FAIL: exported symbols differ from the headers' declarations (- declared, + exported)"
	exit 1
fi
echo "ok: $(wc -l <"$tmp/exported") symbols exported, all declared in the public headers"
