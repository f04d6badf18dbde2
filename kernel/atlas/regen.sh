#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Remake tests/data/atlas/linux-KERNEL.tsv after the census of KERNEL
# changed: the --check of the atlas against the census kernel's config
# (printed, and kept in WORK), then the atlas with its census column
# refilled, and a proof that nothing but the census column and the head's
# census lines moved.
# usage: kernel/atlas/regen.sh KERNEL [WORK]
#   KERNEL  6.1 or 6.12
#   WORK    default /tmp/atlas-KERNEL; the tree (kernel/unpack-tree.sh) and
#           Debian's config are unpacked there once, never into the
#           repository
set -euo pipefail
export LC_ALL=C
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ]; then echo "usage: $0 KERNEL [WORK]" >&2; exit 2; fi
kv=$1
# What each kernel's census is: its data, the census kernel's config and the
# patches whose lines the census file names (taken back to the tree's own).
patches=()
case $kv in
6.1)
	census=$top/tests/data/census/6.1-x86_64.txt
	census_config=$top/tests/data/census/6.1-x86_64.config
	census_note='census column: tests/data/census/6.1-x86_64.txt (the census kernel, not this config)' ;;
6.12)
	census=$top/tests/data/census/6.12-x86_64.txt.xz
	census_config=$top/tests/data/census/6.12-x86_64.config
	census_note='census column: tests/data/census/6.12-x86_64.txt.xz (the census kernel, not this config), its lines taken back through kernel/census/6.12/0*.patch'
	for p in "$top"/kernel/census/6.12/0*.patch; do patches+=(--patch "$p"); done ;;
*) echo "$0: KERNEL must be 6.1 or 6.12, not '$kv'" >&2; exit 2 ;;
esac
work=${2:-/tmp/atlas-$kv}
atlas=$top/tests/data/atlas/linux-$kv.tsv
package=linux-source-$kv
dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q '^install ok installed' ||
	{ echo "$0: $package is not installed (apt-get install $package)" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' "$package")
mkdir -p "$work"
src=$work/src
bash "$top/kernel/unpack-tree.sh" "$package" "$src"
config=$work/config-$kv.amd64
if [ ! -s "$config" ]; then
	rm -rf "$work/cfgdeb" "$work"/linux-config-"$kv"_*.deb
	(cd "$work" && apt-get download -q -o APT::Sandbox::User=root "linux-config-$kv=$version" >/dev/null)
	dpkg-deb -x "$work"/linux-config-"$kv"_*.deb "$work/cfgdeb"
	xz -dc "$work/cfgdeb/usr/src/linux-config-$kv/config.amd64_none_amd64.xz" >"$config.tmp"
	mv "$config.tmp" "$config"
fi

# 1. the check on the census kernel's own config
python3 "$top/kernel/atlas/make-atlas.py" "$src" "$census_config" --check "$census" \
	"${patches[@]}" | tee "$work/check-$kv-x86_64.txt"

# 2. the atlas, Debian's config for the build column, the census column
python3 "$top/kernel/atlas/make-atlas.py" "$src" "$config" "$work/linux-$kv.tsv" \
	--census "$census" "${patches[@]}" \
	--source "source Debian $package $version (usr/src/$package.tar.xz)" \
	--source "config Debian linux-config-$kv $version, usr/src/linux-config-$kv/config.amd64_none_amd64.xz" \
	--source "$census_note"

# 3. only the census column and the head's census lines may differ
body() { grep -v '^# census' "$1" | cut -f 1-12; }
if ! diff <(body "$atlas") <(body "$work/linux-$kv.tsv"); then
	echo "regen.sh: more than the census column changed; $atlas left as it was" >&2
	exit 1
fi
mv "$work/linux-$kv.tsv" "$atlas"
# the figures kernel/atlas/README.md quotes: census column by build
echo "census column of $atlas, by build:"
grep -v '^#' "$atlas" | tail -n +2 | cut -f 9,13 | sort | uniq -c
