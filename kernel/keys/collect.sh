#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Collect real kernel addresses as hash keys: build Linux 6.1 with the
# series in kernel/patches plus kernel/keys/0001-*.patch, boot it in QEMU
# for x86_64 and i386 with the KUnit runner (suite khash_keys only), and
# extract the printed blocks into tests/data/kernel-keys/6.1/<arch>/<kind>.txt.
#
# Uses the cache of kernel/run-kunit.sh (it calls run-kunit.sh --prepare
# for the extracted, patched tree) and a work tree of its own beside it:
#   <cache>/<version>/keys/src  keys/build-x86_64  keys/build-i386
# so the trees and build folders of the hash series are never touched.
# Same lock and ccache as run-kunit.sh; one kernel build at a time.
#
# Environment: LIBKHASH_KERNEL_CACHE, KUNIT_ARCHES, KUNIT_JOBS,
# KUNIT_TIMEOUT, KUNIT_NO_INSTALL as for run-kunit.sh;
# KEYS_OUT (default: tests/data/kernel-keys/6.1 of this clone).
#
# Exit status: 0 when every arch gave every block, 1 otherwise.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
patch=$(ls "$here"/0001-*.patch)
arches=${KUNIT_ARCHES:-x86_64 i386}
jobs=${KUNIT_JOBS:-$(nproc)}
timeout=${KUNIT_TIMEOUT:-300}
cache=${LIBKHASH_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libkhash/kernel}
out=${KEYS_OUT:-$top/tests/data/kernel-keys/6.1}

export GIT_AUTHOR_NAME=libkhash GIT_AUTHOR_EMAIL=libkhash@localhost
export GIT_COMMITTER_NAME=libkhash GIT_COMMITTER_EMAIL=libkhash@localhost

t0=$(date +%s)
say() { printf '[keys %4ds] %s\n' $(($(date +%s) - t0)) "$*"; }
die() { say "ERROR: $*"; exit 1; }

# 1. the patched tree of the series (installs and extracts if needed)
src=$("$top/kernel/run-kunit.sh" --prepare | tail -n 1)
vd=$(dirname "$src")
kver=$(awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3} END{print v"."p"."s}' "$src/Makefile")
dver=$(basename "$vd")

exec 9>"$cache/lock"
flock 9

# 2. our own work tree: series + collection patch, re-applied only when
#    the patch or the series changed (so file times, and builds, stay put)
tree=$vd/keys/src
mkdir -p "$vd/keys" "$vd/logs"
[ -e "$tree/.git" ] || git -C "$src" worktree add -q --detach "$tree" libkhash
stamp=$( (git -C "$src" rev-parse libkhash; cat "$patch") | sha256sum | cut -c1-16)
if [ "$(cat "$vd/keys/stamp" 2>/dev/null)" != "$stamp" ]; then
	say "applying $(basename "$patch") on the series in $tree"
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" checkout -q -f --detach libkhash
	git -C "$tree" am -q "$patch" || die "the collection patch does not apply"
	echo "$stamp" >"$vd/keys/stamp"
fi

# 3. build, boot, extract
export CCACHE_DIR=$cache/ccache
export CCACHE_BASEDIR=$vd
rc=0
for arch in $arches; do
	log=$vd/logs/keys-$arch.log
	start=$(date +%s)
	say "$arch: building and booting in $vd/keys/build-$arch"
	(cd "$tree" && python3 tools/testing/kunit/kunit.py run \
		--arch="$arch" --build_dir="$vd/keys/build-$arch" \
		--kunitconfig="$top/kernel/kunitconfig" --jobs="$jobs" \
		--make_options "CC=ccache gcc" --make_options LOCALVERSION= \
		--timeout="$timeout" --kernel_args panic=-1 \
		--raw_output=all khash_keys) >"$log" 2>&1 || true
	say "$arch: kunit.py took $(($(date +%s) - start)) s; log in $log"
	mkdir -p "$out/$arch"
	# the resolved .config beside the keys (the models check x86 facts
	# such as L1_CACHE_BYTES against it)
	[ ! -f "$vd/keys/build-$arch/.config" ] || cp "$vd/keys/build-$arch/.config" "$out/$arch.config"
	if ! python3 "$here/extract.py" "$log" "$arch" "$out/$arch" \
		"$kver (Debian linux-source-6.1 $dver)"; then
		tail -n 30 "$log" | sed "s/^/[$arch] /"
		rc=1
	fi
done
say "done in $(($(date +%s) - t0)) s"
exit $rc
