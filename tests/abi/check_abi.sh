#!/bin/sh
# SPDX-License-Identifier: MIT
# The shared library's ABI against tests/abi/symbols.txt: its SONAME is
# libkhash.so.<LKH_ABI_VERSION>, the list is of that ABI, and it exports
# every symbol listed (one missing breaks every program that calls it).
# A symbol exported but not listed is a new one: add it to the list.
# Usage: check_abi.sh LIBKHASH.so SYMBOLS.txt lkh.h
set -eu
lib=$1 list=$2 header=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
abi=$(sed -n 's/^#define LKH_ABI_VERSION \([0-9][0-9]*\)$/\1/p' "$header")
listed=$(sed -n 's/^abi //p' "$list")
[ -n "$abi" ] || { echo "FAIL: no LKH_ABI_VERSION in $header"; exit 1; }
[ "$listed" = "$abi" ] || {
	echo "FAIL: $list is of ABI $listed, lkh.h says $abi: write the list for ABI $abi"
	exit 1
}
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libkhash.so.$abi" ] ||
	{ echo "FAIL: SONAME '$soname', want libkhash.so.$abi"; exit 1; }
nm -D --defined-only "$lib" | awk '$2 ~ /^[TWiDBR]$/ {print $3}' | sort -u >"$tmp/exported"
grep -v '^#' "$list" | grep -v '^abi ' | sort -u >"$tmp/listed"
if ! diff -u "$tmp/listed" "$tmp/exported"; then
	echo "FAIL: exports differ from $list (- listed, + exported): a symbol gone breaks ABI $abi (raise LKH_ABI_VERSION); a new one belongs in the list"
	exit 1
fi
echo "ok: $soname exports the $(wc -l <"$tmp/listed") symbols of ABI $abi"
