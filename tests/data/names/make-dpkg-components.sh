#!/bin/sh
# SPDX-License-Identifier: MIT
# The recipe of dpkg-components.txt: the last component of every path the
# installed Debian packages list (/var/lib/dpkg/info/*.list), each once, in
# byte order (not . or .., which the dcache never hashes), every Nth of them (N chosen so that about COUNT remain, 4096
# by default): real file names of a real tree, small enough to commit.
# Usage: make-dpkg-components.sh [COUNT] > dpkg-components.txt
set -eu
count=${1:-4096}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cat /var/lib/dpkg/info/*.list | sed -n 's|.*/||p' | grep -vx -e '' -e '.' -e '..' |
	LC_ALL=C sort -u >"$tmp"
total=$(wc -l <"$tmp")
step=$(( (total + count - 1) / count ))
[ "$step" -ge 1 ] || step=1
awk -v s="$step" '(NR - 1) % s == 0' "$tmp"
