#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unpack Debian's kernel source tarball into a git tree whose commit is
# tagged "base", so that patch series can be applied (git am) and taken
# back off (checkout base).  Used by run-kunit.sh, census/collect.sh and
# atlas/regen.sh; one place, so that every tree of a version is the same.
#
# usage: kernel/unpack-tree.sh PACKAGE DEST
#   PACKAGE  an installed Debian source package, e.g. linux-source-6.12
#            (its tarball is /usr/src/PACKAGE.tar.xz)
#   DEST     the tree to make; left alone when it already is one
#
# The tree appears at DEST whole or not at all (unpacked beside it, then
# renamed), so an interrupted run leaves nothing a later run would trust.
# The caller holds the kernel cache's lock where other runs share DEST.
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 PACKAGE DEST" >&2; exit 2; }
package=$1 dest=$2
tarball=/usr/src/$package.tar.xz
git -C "$dest" rev-parse -q --verify refs/tags/base >/dev/null 2>&1 && exit 0
[ -f "$tarball" ] || { echo "$0: $tarball not found (is $package installed?)" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' "$package")
rm -rf "$dest.tmp" "$dest"
mkdir -p "$dest.tmp"
tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1
# identity for this tree's own commits only
export GIT_AUTHOR_NAME=libkhash GIT_AUTHOR_EMAIL=libkhash@localhost
export GIT_COMMITTER_NAME=libkhash GIT_COMMITTER_EMAIL=libkhash@localhost
git -C "$dest.tmp" init -q
# no background gc packing the 80000 loose objects during a build
git -C "$dest.tmp" config gc.auto 0
# Debian's .gitignore ends in "/*": add everything by force
git -C "$dest.tmp" add -f -A .
git -C "$dest.tmp" commit -q -m "Debian $package $version"
git -C "$dest.tmp" tag base
mv "$dest.tmp" "$dest"
