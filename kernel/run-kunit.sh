#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# For each kernel (Debian's Linux 6.1 and 6.12), build it with its patch
# series in kernel/patches/<kernel>/, boot it in QEMU for x86_64 and i386
# with the KUnit runner, and check the "hash" suite: every case must
# pass.  Then boot it again with kernel/mutations applied to the hash.h
# that lib/test_hash.c sees (the pre-v4.6 multipliers) and check that
# exactly the cases listed in kernel/mutations/expect-*.txt fail.
#
# From nothing, this installs what is missing (as root, with apt-get),
# extracts /usr/src/linux-source-<kernel>.tar.xz into a cache outside
# the clone and imports it into git; reruns reuse the tree, the build
# folders and a ccache.  See kernel/README.md.
#
# Environment:
#   KUNIT_KERNELS          kernels, each a folder of kernel/patches
#                          (default: all of them, "6.1 6.12")
#   LIBKHASH_KERNEL_CACHE  cache folder
#                          (default ${XDG_CACHE_HOME:-~/.cache}/libkhash/kernel)
#   KUNIT_ARCHES           architectures (default "x86_64 i386"; also
#                          arm64be, arm64 built big-endian, cross-compiled)
#   KUNIT_MUTATION         0 skips the mutation runs (default 1)
#   KUNIT_JOBS             make -j (default: number of CPUs)
#   KUNIT_TIMEOUT          seconds one boot may take (default 300)
#   KUNIT_NO_INSTALL       1: never call apt-get, fail if something is missing
#
# run-kunit.sh --install stops once the packages are there (tests/run-all.sh
# installs them first, so that this script can run beside the other suites
# without two apt-get at once).
# run-kunit.sh --prepare stops once the series of the first of
# KUNIT_KERNELS is applied and prints the path of the patched tree (used
# by update-agreement-table.sh and the census and keys collectors).
#
# Cache layout, per Debian package version (6.1.192-3, 6.12.118-1~deb12u1):
#   src/  build-x86_64/  build-i386/     the series (the mutant runs reuse
#                                        the build folders)
#   mutant/include/linux/hash.h          the series' hash.h + the mutation
#   logs/  and, shared by all versions, ../ccache/
#
# Exit status: 0 when all runs are as expected, 1 when any is not.

set -euo pipefail

prepare=0 install_only=0
case "${1:-}" in
--prepare) prepare=1 ;;
--install) install_only=1 ;;
'') ;;
*) echo "usage: $0 [--prepare | --install]" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Kbuild reads /dev/null; some machines have a regular file there.
[ "${LKH_REAL_DEVNULL:-}" = 1 ] ||
	exec bash "$here/../tests/with-real-devnull.sh" bash "$0" "$@"
# every kernel with a folder in kernel/patches unless told otherwise
kernels=${KUNIT_KERNELS:-$(printf '%s\n' "$here"/patches/*/BASE | sed 's|/BASE$||; s|.*/||' | sort -V | xargs)}
for k in $kernels; do
	[ -f "$here/patches/$k/BASE" ] || {
		echo "$0: KUNIT_KERNELS: no series for $k (kernel/patches/$k/BASE)" >&2
		exit 2
	}
done
[ "$prepare" = 1 ] && kernels=${kernels%% *}
mutation=$here/mutations/0001-restore-pre-v4.6-sparse-multipliers.patch
arches=${KUNIT_ARCHES:-x86_64 i386}
for a in $arches; do
	case "$a" in x86_64|i386|arm64be) ;;
	*) echo "$0: KUNIT_ARCHES: unknown arch $a (x86_64, i386, arm64be)" >&2; exit 2 ;;
	esac
done
jobs=${KUNIT_JOBS:-$(nproc)}
timeout=${KUNIT_TIMEOUT:-300}
cache=${LIBKHASH_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libkhash/kernel}

# git identity for the commits made inside the cached tree only
export GIT_AUTHOR_NAME=libkhash GIT_AUTHOR_EMAIL=libkhash@localhost
export GIT_COMMITTER_NAME=libkhash GIT_COMMITTER_EMAIL=libkhash@localhost

t0=$(date +%s)
say() { printf '[run-kunit %4ds] %s\n' $(($(date +%s) - t0)) "$*"; }
die() { say "ERROR: $*"; exit 1; }

# --- 1. packages ---------------------------------------------------------
# BASE: the Debian source package and the version the series was made
# against, e.g. "linux-source-6.1 6.1.192-3"
base_package() { cut -d' ' -f1 "$here/patches/$1/BASE"; }
packages="qemu-system-x86 qemu-system-data ccache gcc make
	  flex bison bc libelf-dev libssl-dev perl python3 git xz-utils
	  util-linux"
for k in $kernels; do packages="$packages $(base_package "$k")"; done
case " $arches " in *" arm64be "*) packages="$packages qemu-system-arm gcc-aarch64-linux-gnu" ;; esac
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
	# a mirror mid-sync fails one index: go on with the lists there are
	apt-get update -q >/dev/null || say "apt-get update failed; going on with the lists there are"
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
[ -f /usr/share/qemu/qboot.rom ] || die "qboot.rom missing (qemu-system-data)"
[ "$install_only" = 1 ] && exit 0

mkdir -p "$cache/ccache"
# One kernel build at a time on this machine, whoever started it.
exec 9>"$cache/lock"
flock 9

# --- 2. source tree ------------------------------------------------------
# prepare KERNEL: extract, import and patch KERNEL's tree; sets kver,
# patches, version, vd (its cache folder), src and mutant_h.
prepare() {
	kver=$1
	patches=$here/patches/$kver
	local package made_against tarball
	package=$(base_package "$kver")
	made_against=$(cut -d' ' -f2 "$patches/BASE")
	version=$(dpkg-query -W -f='${Version}' "$package")
	[ "$version" = "$made_against" ] ||
		say "WARNING: $kver series made against $made_against, installed is $version"
	tarball=/usr/src/$package.tar.xz
	vd=$cache/$version
	mkdir -p "$vd/logs"
	src=$vd/src
	if ! git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
		say "extracting $tarball ($version) into $src"
		bash "$here/unpack-tree.sh" "$package" "$src" || die "could not unpack $tarball"
		say "extracted"
	fi

	local series_files=() f stamp
	while read -r f; do
		case "$f" in ''|'#'*) continue ;; esac
		series_files+=("$here/patches/$f")
	done <"$patches/series"
	[ ${#series_files[@]} -gt 0 ] || die "empty series"

	stamp=$(cat "${series_files[@]}" | sha256sum | cut -c1-16)
	if [ "$(cat "$src/.git/libkhash-series" 2>/dev/null)" != "$stamp" ]; then
		say "applying the $kver series (${#series_files[@]} patches)"
		git -C "$src" am --abort >/dev/null 2>&1 || true
		git -C "$src" checkout -q -f -B libkhash base
		git -C "$src" am -q "${series_files[@]}" || die "series does not apply"
		echo "$stamp" >"$src/.git/libkhash-series"
	fi
	[ "$prepare" = 1 ] || [ "${KUNIT_MUTATION:-1}" = 0 ] || make_mutant
}

# make_mutant: the mutant hash.h of the tree just prepared.
make_mutant() {
	local mutdir
	# The mutant hash.h: the series' header with the mutation applied,
	# outside the tree.  What the hash suite computes is all inline in
	# lib/test_hash.o (x86 has no asm/hash.h), so the mutation run only
	# has to compile that one object against it: the header is forced in
	# first (-include, so its guard hides the tree's own), for that object
	# alone, through kbuild's per-object CFLAGS_test_hash.o.  The other
	# 567 objects that include hash.h would not change a result.
	mutdir=$vd/mutant
	rm -rf "$mutdir.tmp"
	mkdir -p "$mutdir.tmp/include/linux"
	git -C "$src" show libkhash:include/linux/hash.h >"$mutdir.tmp/include/linux/hash.h"
	(cd "$mutdir.tmp" && git apply -p1 "$mutation") || die "mutation does not apply"
	if ! cmp -s "$mutdir.tmp/include/linux/hash.h" "$mutdir/include/linux/hash.h"; then
		rm -rf "$mutdir"
		mv "$mutdir.tmp" "$mutdir"
	else
		rm -rf "$mutdir.tmp"
	fi
	mutant_h=$mutdir/include/linux/hash.h
}

if [ "$prepare" = 1 ]; then
	prepare "$kernels"
	echo "$src"
	exit 0
fi

# --- 3. build, boot, check -----------------------------------------------
export CCACHE_DIR=$cache/ccache

# What each name of KUNIT_ARCHES builds: the kernel's ARCH, the
# cross-compiler prefix, and Kconfig lines beyond kunitconfig.  arm64be
# is the one big-endian kernel here (x86 has none): arm64 selects
# DCACHE_WORD_ACCESS, so the name hashes load big-endian words; its
# console is the PL011 of QEMU's virt board (the lines kunit.py's arm64
# config adds must hold too).
kernel_arch() { case $1 in arm64be) echo arm64 ;; *) echo "$1" ;; esac; }
cross_prefix() { case $1 in arm64be) echo aarch64-linux-gnu- ;; esac; }
arch_fragment() {
	case $1 in
	arm64be) printf '%s\n' CONFIG_CPU_BIG_ENDIAN=y \
		CONFIG_SERIAL_AMBA_PL010=y CONFIG_SERIAL_AMBA_PL010_CONSOLE=y \
		CONFIG_SERIAL_AMBA_PL011=y CONFIG_SERIAL_AMBA_PL011_CONSOLE=y ;;
	esac
}
# The expectations depend on the word size only (no asm/hash.h on these
# arches): arm64be shares x86_64's.
expect_arch() { case $1 in arm64be) echo x86_64 ;; *) echo "$1" ;; esac; }

# kunit_config ARCH: the full .config for ARCH's KUnit kernel, printed as a
# path: tinyconfig with kunitconfig merged in, resolved by olddefconfig with
# the compiler kunit.py builds with (its compiler probes are in the file).
# Given to kunit.py as its kunitconfig, it is already a fixed point of
# olddefconfig, so kunit.py's check that every line holds is a check that
# nothing in between changed it.  Rewritten only when it changed; made
# again only when the fragment, the tree's commit or the compiler did
# (three make runs, 5-10 s an arch, twice an arch per run otherwise).
kunit_config() {
	local arch=$1 cfg=$vd/kconfig-$1 out=$vd/kunitconfig-$1 l key
	local log=$vd/logs/kconfig-$1.log frag=$vd/kconfig-$1.fragment
	local karch cross
	karch=$(kernel_arch "$arch") cross=$(cross_prefix "$arch")
	{ cat "$here/kunitconfig"; arch_fragment "$arch"; } >"$frag"
	key=$({ cat "$frag"; git -C "$src" rev-parse HEAD
		"${cross}gcc" -dumpfullversion; } | sha256sum | cut -c1-16)
	if [ -f "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ]; then
		echo "$out"
		return 0
	fi
	mkdir -p "$cfg"
	# tinyconfig's own overrides warn on stderr: into the log
	{ make -s -C "$src" O="$cfg" ARCH="$karch" CROSS_COMPILE="$cross" \
			CC="ccache ${cross}gcc" tinyconfig &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" \
			"$frag" &&
		make -s -C "$src" O="$cfg" ARCH="$karch" CROSS_COMPILE="$cross" \
			CC="ccache ${cross}gcc" olddefconfig
	} >"$log" 2>&1 || die "$kver $arch: the KUnit config failed, log in $log"
	while read -r l; do
		case "$l" in
		CONFIG_*|'# CONFIG_'*' is not set')
			grep -qx "$l" "$cfg/.config" || die "$kver $arch: kunitconfig line $l did not hold" ;;
		esac
	done <"$frag"
	cmp -s "$cfg/.config" "$out" || cp "$cfg/.config" "$out"
	echo "$key" >"$out.key"
	echo "$out"
}

# run_one LABEL ARCH EXPECT [MAKE-OPTION...]: one build and boot in the
# arch's build folder.
run_one() {
	local label=$1 arch=$2 expect=$3 build=$vd/build-$2
	local log=$vd/logs/$label.log start rc=0 opt mopts=() kc cross
	shift 3
	for opt in "$@"; do mopts+=(--make_options "$opt"); done
	cross=$(cross_prefix "$arch")
	[ -z "$cross" ] || mopts+=(--cross_compile="$cross")
	kc=$(kunit_config "$arch") || return 1
	start=$(date +%s)
	say "$kver $label: building and booting $arch in $build"
	(cd "$src" && python3 tools/testing/kunit/kunit.py run \
		--arch="$(kernel_arch "$arch")" --build_dir="$build" \
		--kunitconfig="$kc" --jobs="$jobs" \
		--make_options "CC=ccache ${cross}gcc" --make_options LOCALVERSION= \
		"${mopts[@]}" \
		--timeout="$timeout" --kernel_args panic=-1 \
		--kernel_args printk.time=1 \
		--raw_output=all) >"$log" 2>&1 || true
	say "$kver $label: kunit.py took $(($(date +%s) - start)) s; log in $log"
	if ! grep -q 'KTAP version\|TAP version' "$log"; then
		tail -n 30 "$log" | sed "s/^/[$label] /"
	fi
	python3 "$here/ktap.py" "$log" "$expect" --label "[$label]" || rc=1
	return $rc
}

# Each kernel, each arch: the series, then (in the same build folder, so
# only lib/test_hash.o is compiled again) the mutant.  Both kernels have
# the same hash.h and the same suite once patched, so they share the
# expectations.
passed=0 failed=0
tally() { if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi; }
for k in $kernels; do
	p0=$passed f0=$failed
	prepare "$k"
	export CCACHE_BASEDIR=$vd
	# khash-bench's jhash and siphash against this tree's own source,
	# compiled in userspace (tests/golden/kernel_hashes.csv holds what it
	# computed)
	tally bash "$here/../tests/golden/gen_kernel_hashes.sh" --check "$src"
	for arch in $arches; do
		tally run_one "$arch" "$arch" "$here/expect/$(expect_arch "$arch").txt"
		if [ "${KUNIT_MUTATION:-1}" != 0 ]; then
			tally run_one "mutation-$arch" "$arch" \
				"$here/mutations/expect-$(expect_arch "$arch").txt" \
				"CFLAGS_test_hash.o=-include $mutant_h"
		fi
	done
	say "$kver ($version): $((passed - p0)) passed, $((failed - f0)) failed"
done

say "done in $(($(date +%s) - t0)) s"
echo "kernel: $passed passed, $failed failed"
[ "$failed" = 0 ]
