#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Remake what tests/data/atlas/linux-6.12.tsv takes from the 6.12 census,
# after tests/data/census/6.12-x86_64.* changed: the --check of the atlas
# against the census kernel's config (printed, and kept in WORK), then the
# atlas with its census column refilled, and a proof that nothing but the
# census column and the head's census lines moved.
# usage: kernel/atlas/regen-612.sh [WORK]   (default /tmp/atlas612; the tree
#        and the config are unpacked there once, never into the repository)
set -euo pipefail
export LC_ALL=C
top=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-/tmp/atlas612}
atlas=$top/tests/data/atlas/linux-6.12.tsv
census=$top/tests/data/census/6.12-x86_64.txt.xz
patches=()
for p in "$top"/kernel/census/6.12/0*.patch; do patches+=(--patch "$p"); done
mkdir -p "$work"
src=$work/src/linux-source-6.12
if [ ! -f "$src/Makefile" ]; then
	mkdir -p "$work/src"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$work/src"
fi
config=$work/config-6.12.amd64
if [ ! -s "$config" ]; then
	(cd "$work" && apt-get download linux-config-6.12)
	dpkg-deb -x "$work"/linux-config-6.12_*.deb "$work/cfgdeb"
	xz -dc "$work/cfgdeb/usr/src/linux-config-6.12/config.amd64_none_amd64.xz" \
		>"$config"
fi

# 1. the check on the census kernel's own config
python3 "$top/kernel/atlas/make-atlas.py" "$src" \
	"$top/tests/data/census/6.12-x86_64.config" --check "$census" \
	"${patches[@]}" | tee "$work/check-6.12-x86_64.txt"

# 2. the atlas, Debian's config for the build column, the census column
python3 "$top/kernel/atlas/make-atlas.py" "$src" "$config" "$work/linux-6.12.tsv" \
	--census "$census" "${patches[@]}" \
	--source 'source Debian linux-source-6.12 6.12.118-1~deb12u1 (usr/src/linux-source-6.12.tar.xz)' \
	--source 'config Debian linux-config-6.12 6.12.118-1~deb12u1, usr/src/linux-config-6.12/config.amd64_none_amd64.xz' \
	--source 'census column: tests/data/census/6.12-x86_64.txt.xz (the census kernel, not this config), its lines taken back through kernel/census/6.12/0*.patch'

# 3. only the census column and the head's census lines may differ
body() { grep -v '^# census' "$1" | cut -f 1-12; }
if ! diff <(body "$atlas") <(body "$work/linux-6.12.tsv"); then
	echo "regen-612.sh: more than the census column changed; $atlas left as it was" >&2
	exit 1
fi
mv "$work/linux-6.12.tsv" "$atlas"
# the figures kernel/atlas/README.md quotes: census column by build
echo "census column of $atlas, by build:"
grep -v '^#' "$atlas" | tail -n +2 | cut -f 9,13 | sort | uniq -c
