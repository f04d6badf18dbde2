#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build Debian's Linux 6.1 with the patch series in kernel/patches, boot
# it in QEMU for x86_64 and i386 with the KUnit runner, and check the
# "hash" suite: every case must pass.  Then build it again with
# kernel/mutations applied (the pre-v4.6 multipliers) and check that
# exactly the cases listed in kernel/mutations/expect-*.txt fail.
#
# From nothing, this installs what is missing (as root, with apt-get),
# extracts /usr/src/linux-source-6.1.tar.xz into a cache outside the
# clone and imports it into git; reruns reuse the tree, the build
# folders and a ccache.  See kernel/README.md.
#
# Environment:
#   LIBKHASH_KERNEL_CACHE  cache folder
#                          (default ${XDG_CACHE_HOME:-~/.cache}/libkhash/kernel)
#   KUNIT_ARCHES           architectures (default "x86_64 i386")
#   KUNIT_MUTATION         0 skips the mutation runs (default 1)
#   KUNIT_JOBS             make -j (default: number of CPUs)
#   KUNIT_TIMEOUT          seconds one boot may take (default 300)
#   KUNIT_NO_INSTALL       1: never call apt-get, fail if something is missing
#
# run-kunit.sh --prepare stops once the series is applied and prints the
# path of the patched tree (used by update-agreement-table.sh).
#
# Cache layout, per Debian package version:
#   src/  build-x86_64/  build-i386/           the series
#   mut/src/  mut/build-x86_64/  mut/build-i386/  series + mutation
#   logs/  and, shared by all versions, ../ccache/
# The mutant tree sits at the same relative path from its build folders
# (../src), so ccache serves the 510 objects that do not include hash.h.
#
# Exit status: 0 when all runs are as expected, 1 when any is not.

set -euo pipefail

prepare=0
case "${1:-}" in
--prepare) prepare=1 ;;
'') ;;
*) echo "usage: $0 [--prepare]" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
patches=$here/patches
mutation=$here/mutations/0001-restore-pre-v4.6-sparse-multipliers.patch
arches=${KUNIT_ARCHES:-x86_64 i386}
jobs=${KUNIT_JOBS:-$(nproc)}
timeout=${KUNIT_TIMEOUT:-300}
cache=${LIBKHASH_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libkhash/kernel}
tarball=/usr/src/linux-source-6.1.tar.xz

# git identity for the commits made inside the cached tree only
export GIT_AUTHOR_NAME=libkhash GIT_AUTHOR_EMAIL=libkhash@localhost
export GIT_COMMITTER_NAME=libkhash GIT_COMMITTER_EMAIL=libkhash@localhost

t0=$(date +%s)
say() { printf '[run-kunit %4ds] %s\n' $(($(date +%s) - t0)) "$*"; }
die() { say "ERROR: $*"; exit 1; }

# --- 1. packages ---------------------------------------------------------
packages="linux-source-6.1 qemu-system-x86 qemu-system-data ccache gcc make
	  flex bison bc libelf-dev libssl-dev perl python3 git xz-utils
	  util-linux"
missing=
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "${KUNIT_NO_INSTALL:-0}" = 1 ] && die "missing packages:$missing"
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root or install them)"
	say "installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
[ -f /usr/share/qemu/qboot.rom ] || die "qboot.rom missing (qemu-system-data)"

version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
made_against=$(sed -n 's/^linux-source-6.1 //p' "$patches/BASE")
[ "$version" = "$made_against" ] ||
	say "WARNING: series made against $made_against, installed is $version"
vd=$cache/$version
mkdir -p "$vd/logs" "$cache/ccache"

# One kernel build at a time on this machine, whoever started it.
exec 9>"$cache/lock"
flock 9

# --- 2. source tree ------------------------------------------------------
src=$vd/src
if ! git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	say "extracting $tarball ($version) into $src"
	rm -rf "$vd/src.tmp" "$src"
	mkdir -p "$vd/src.tmp"
	tar -xJf "$tarball" -C "$vd/src.tmp" --strip-components=1
	# Debian's .gitignore ends in "/*": add everything by force.
	git -C "$vd/src.tmp" init -q
	git -C "$vd/src.tmp" add -f -A .
	git -C "$vd/src.tmp" commit -q -m "Debian linux-source-6.1 $version"
	git -C "$vd/src.tmp" tag base
	mv "$vd/src.tmp" "$src"
	say "extracted"
fi

series_files=()
while read -r f; do
	case "$f" in ''|'#'*) continue ;; esac
	series_files+=("$patches/$f")
done <"$patches/series"
[ ${#series_files[@]} -gt 0 ] || die "empty series"

stamp=$(cat "${series_files[@]}" | sha256sum | cut -c1-16)
if [ "$(cat "$src/.git/libkhash-series" 2>/dev/null)" != "$stamp" ]; then
	say "applying the series (${#series_files[@]} patches)"
	git -C "$src" am --abort >/dev/null 2>&1 || true
	git -C "$src" checkout -q -f -B libkhash base
	git -C "$src" am -q "${series_files[@]}" || die "series does not apply"
	echo "$stamp" >"$src/.git/libkhash-series"
fi
if [ "$prepare" = 1 ]; then
	echo "$src"
	exit 0
fi

if [ "${KUNIT_MUTATION:-1}" != 0 ]; then
	# A second work tree, so the mutated hash.h never touches the
	# normal builds (568 objects depend on it).  The mutant commit is
	# made in a scratch index, and the checkout only rewrites the files
	# that changed since the last run.
	srcmut=$vd/mut/src
	mkdir -p "$vd/mut"
	[ -e "$srcmut/.git" ] || git -C "$src" worktree add -q --detach "$srcmut" libkhash
	idx=$(mktemp)
	GIT_INDEX_FILE=$idx git -C "$src" read-tree libkhash
	GIT_INDEX_FILE=$idx git -C "$src" apply --cached "$mutation" ||
		die "mutation does not apply"
	tree=$(GIT_INDEX_FILE=$idx git -C "$src" write-tree)
	rm -f "$idx"
	mut=$(git -C "$src" commit-tree "$tree" -p libkhash -m "mutation: pre-v4.6 multipliers")
	git -C "$srcmut" checkout -q -f --detach "$mut"
fi

# --- 3. build, boot, check -----------------------------------------------
export CCACHE_DIR=$cache/ccache
export CCACHE_BASEDIR=$vd

# run_one LABEL TREE BUILD_DIR ARCH EXPECT
run_one() {
	local label=$1 tree=$2 build=$3 arch=$4 expect=$5
	local log=$vd/logs/$label.log start rc=0
	start=$(date +%s)
	say "$label: building and booting $arch in $build"
	(cd "$tree" && python3 tools/testing/kunit/kunit.py run \
		--arch="$arch" --build_dir="$build" \
		--kunitconfig="$here/kunitconfig" --jobs="$jobs" \
		--make_options "CC=ccache gcc" --make_options LOCALVERSION= \
		--timeout="$timeout" --kernel_args panic=-1 \
		--kernel_args printk.time=1 \
		--raw_output=all) >"$log" 2>&1 || true
	say "$label: kunit.py took $(($(date +%s) - start)) s; log in $log"
	if ! grep -q 'KTAP version\|TAP version' "$log"; then
		tail -n 30 "$log" | sed "s/^/[$label] /"
	fi
	python3 "$here/ktap.py" "$log" "$expect" --label "[$label]" || rc=1
	return $rc
}

passed=0 failed=0
for arch in $arches; do
	if run_one "$arch" "$src" "$vd/build-$arch" "$arch" "$here/expect/$arch.txt"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
if [ "${KUNIT_MUTATION:-1}" != 0 ]; then
	for arch in $arches; do
		if run_one "mutation-$arch" "$srcmut" "$vd/mut/build-$arch" "$arch" \
			"$here/mutations/expect-$arch.txt"; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
		fi
	done
fi

say "done in $(($(date +%s) - t0)) s"
echo "kernel: $passed passed, $failed failed"
[ "$failed" = 0 ]
