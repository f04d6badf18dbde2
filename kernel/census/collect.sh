#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The hash census: build Linux 6.1 with the series in kernel/patches plus
# kernel/census/*.patch (CONFIG_HASH_CENSUS), boot it in QEMU for x86_64
# and i386 into a busybox initramfs that runs kernel/census/init.sh, and
# turn what the guest wrote to its virtio disk into
# tests/data/census/<arch>.txt (or .txt.xz when large).
#
# Uses the cache of kernel/run-kunit.sh (run-kunit.sh --prepare installs,
# extracts and applies the series) and a work tree of its own beside it:
#   <cache>/<version>/census/src         series + census patches
#   <cache>/<version>/census/build-<arch>       (and build-<arch>-off)
#   <cache>/<version>/census/run-<arch>/        initramfs, disks, console log
# Same lock (one kernel build at a time) and ccache as run-kunit.sh;
# builds run under nice -n 10.  Never loads anything into this machine's
# kernel: the census kernel only ever runs inside QEMU.
#
# Environment: LIBKHASH_KERNEL_CACHE, KUNIT_JOBS, KUNIT_NO_INSTALL as for
# run-kunit.sh;
#   CENSUS_ARCHES   default "x86_64 i386"
#   CENSUS_OUT      default tests/data/census of this clone
#   CENSUS_TIMEOUT  seconds one boot may take (default 600)
#   CENSUS_ACCEL    QEMU accelerator (default tcg)
#   CENSUS_COST     N > 0: also build each arch with CONFIG_HASH_CENSUS=n
#                   and boot both kernels N times, printing the guest's
#                   workload time of each boot (the recorder's cost)
#
# Exit status: 0 when every arch gave a census that passes the format
# check, 1 otherwise.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
arches=${CENSUS_ARCHES:-x86_64 i386}
jobs=${KUNIT_JOBS:-$(nproc)}
timeout=${CENSUS_TIMEOUT:-600}
cost=${CENSUS_COST:-0}
cache=${LIBKHASH_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libkhash/kernel}
out=${CENSUS_OUT:-$top/tests/data/census}

export GIT_AUTHOR_NAME=libkhash GIT_AUTHOR_EMAIL=libkhash@localhost
export GIT_COMMITTER_NAME=libkhash GIT_COMMITTER_EMAIL=libkhash@localhost

t0=$(date +%s)
say() { printf '[census %4ds] %s\n' $(($(date +%s) - t0)) "$*"; }
die() { say "ERROR: $*"; exit 1; }

# --- 1. the patched tree of the series, packages --------------------------
src=$("$top/kernel/run-kunit.sh" --prepare | tail -n 1)
vd=$(dirname "$src")
dver=$(basename "$vd")
cd "$vd"
mkdir -p census/debs logs

need=
for p in qemu-system-x86 btrfs-progs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		need="$need $p"
done
bbver=$(apt-cache policy busybox-static 2>/dev/null | sed -n 's/^ *Candidate: //p')
debs_ok=1
for a in amd64 i386; do
	[ -x "census/busybox-$a/bin/busybox" ] || debs_ok=0
done
if [ -n "$need" ] || [ "$debs_ok" = 0 ]; then
	[ "${KUNIT_NO_INSTALL:-0}" = 1 ] && die "missing:$need busybox-static (amd64, i386)"
	export DEBIAN_FRONTEND=noninteractive
	if ! dpkg --print-foreign-architectures | grep -qx i386; then
		say "adding the i386 architecture to dpkg (for busybox-static:i386)"
		dpkg --add-architecture i386
	fi
	say "apt-get update; installing${need:- nothing}; downloading busybox-static amd64 and i386"
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	[ -z "$need" ] || apt-get install -y -q --no-install-recommends $need >/dev/null
	(cd census/debs && rm -f ./*.deb &&
		apt-get download -q busybox-static:amd64 busybox-static:i386 >/dev/null 2>&1) ||
		die "apt-get download busybox-static failed"
	for a in amd64 i386; do
		rm -rf "census/busybox-$a"
		dpkg-deb -x census/debs/busybox-static_*_"$a".deb "census/busybox-$a"
	done
	bbver=$(dpkg-deb -f census/debs/busybox-static_*_amd64.deb Version)
fi
[ -n "$bbver" ] || bbver=$(dpkg-deb -f census/debs/busybox-static_*_amd64.deb Version)

exec 9>"$cache/lock"
flock 9

# --- 2. our own work tree: series + census patches -------------------------
tree=$vd/census/src
patches=("$here"/0*.patch)
[ -e "$tree/.git" ] || git -C "$src" worktree add -q --detach "$tree" libkhash
stamp=$( (git -C "$src" rev-parse libkhash; cat "${patches[@]}") | sha256sum | cut -c1-16)
if [ "$(cat "$vd/census/stamp" 2>/dev/null)" != "$stamp" ]; then
	say "applying ${#patches[@]} census patches on the series in $tree"
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" checkout -q -f --detach libkhash
	git -C "$tree" am -q "${patches[@]}" || die "the census patches do not apply"
	echo "$stamp" >"$vd/census/stamp"
fi

export CCACHE_DIR=$cache/ccache
export CCACHE_BASEDIR=$vd

# config_for ARCH BUILD_DIR CENSUS(y|n): tinyconfig + kernel/census/config,
# written to BUILD_DIR/.config only when it changed (keeps rebuilds quiet)
config_for() {
	local arch=$1 b=$2 on=$3 cfg=$vd/census/cfg-$1 frag
	frag=$(mktemp)
	if [ "$on" = y ]; then
		cp "$here/config" "$frag"
	else
		grep -v '^CONFIG_HASH_CENSUS' "$here/config" >"$frag"
		echo '# CONFIG_HASH_CENSUS is not set' >>"$frag"
	fi
	[ ! -f "$here/config-$arch" ] || cat "$here/config-$arch" >>"$frag"
	mkdir -p "$cfg" "$b"
	make -s -C "$tree" O="$cfg" ARCH="$arch" tinyconfig >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" "$frag" >/dev/null
	make -s -C "$tree" O="$cfg" ARCH="$arch" olddefconfig >/dev/null
	while read -r l; do
		case "$l" in
		CONFIG_*) grep -qx "$l" "$cfg/.config" || die "$arch: $l did not hold" ;;
		'# CONFIG_'*) grep -qx "$l" "$cfg/.config" || die "$arch: $l did not hold" ;;
		esac
	done <"$frag"
	rm -f "$frag"
	cmp -s "$cfg/.config" "$b/.config" || cp "$cfg/.config" "$b/.config"
	# the census's own kernel: its .config goes beside its data (the
	# models take x86 facts such as L1_CACHE_BYTES from it)
	[ "$on" != y ] || { mkdir -p "$out" && cp "$cfg/.config" "$out/$arch.config"; }
}

# build ARCH BUILD_DIR CENSUS: prints the bzImage path
build() {
	local arch=$1 b=$2 on=$3 start log
	log=$vd/logs/census-build-$(basename "$b").log
	config_for "$arch" "$b" "$on" >&2
	start=$(date +%s)
	if ! nice -n 10 make -s -C "$tree" O="$b" ARCH="$arch" -j"$jobs" \
		CC="ccache gcc" LOCALVERSION= bzImage >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "$arch: build failed, log in $log"
	fi
	say "$arch: built $(basename "$b") in $(($(date +%s) - start)) s" >&2
	echo "$b/arch/x86/boot/bzImage"
}

# boot ARCH KERNEL RUN_DIR: the guest runs init.sh and writes RUN_DIR/disk.img
boot() {
	local arch=$1 kernel=$2 run=$3 bb qemu accel
	case $arch in
	x86_64) bb=amd64 qemu=qemu-system-x86_64 ;;
	i386) bb=i386 qemu=qemu-system-i386 ;;
	esac
	mkdir -p "$run"
	cat >"$run/initramfs.list" <<-LIST
	dir /bin 0755 0 0
	dir /dev 0755 0 0
	nod /dev/console 0600 0 0 c 5 1
	dir /proc 0755 0 0
	dir /sys 0755 0 0
	dir /tmp 1777 0 0
	dir /mnt 0755 0 0
	dir /root 0700 0 0
	file /init $here/init.sh 0755 0 0
	file /bin/busybox $vd/census/busybox-$bb/bin/busybox 0755 0 0
	slink /bin/sh busybox 0777 0 0
	LIST
	"$(dirname "$kernel")/../../../usr/gen_init_cpio" "$run/initramfs.list" >"$run/initramfs.cpio"
	rm -f "$run/disk.img" "$run/btrfs.img"
	truncate -s 256M "$run/disk.img"
	truncate -s 512M "$run/btrfs.img"
	mkfs.btrfs -q -f "$run/btrfs.img" >/dev/null
	# TCG: this machine's /dev/kvm is nested and fails (hangs, or
	# "failed to set MSR"); CENSUS_ACCEL=kvm where it works
	accel=${CENSUS_ACCEL:-tcg}
	echo "$accel" >"$run/accel"
	timeout "$timeout" "$qemu" -accel "$accel" -m 1024 -smp 1 \
		-nographic -no-reboot -kernel "$kernel" -initrd "$run/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 loglevel=4" \
		-drive file="$run/disk.img",format=raw,if=virtio \
		-drive file="$run/btrfs.img",format=raw,if=virtio \
		</dev/null >"$run/console.log" 2>&1 || true
}

guest_meta() { # RUN_DIR NAME: a guest meta value from the disk, or "?"
	head -c 4096 "$1/disk.img" | tr -d '\0' |
		sed -n "s/^meta $2 //p" | head -n 1 | grep . || echo '?'
}

rc=0
for arch in $arches; do
	kernel=$(build "$arch" "$vd/census/build-$arch" y)
	start=$(date +%s)
	run=$vd/census/run-$arch
	boot "$arch" "$kernel" "$run"
	say "$arch: boot and workload took $(($(date +%s) - start)) s ($(cat "$run/accel")), guest workload $(guest_meta "$run" guest_workload_seconds) s"
	if ! python3 "$here/extract.py" "$run/disk.img" "$arch" \
		"$dver (Debian linux-source-6.1)" "$out" \
		--meta "date $(date -u +%Y-%m-%d)" \
		--meta "config make tinyconfig + kernel/census/config (sha256 $(sha256sum "$here/config" | cut -c1-12))" \
		--meta "patches kernel/patches/series + kernel/census/0*.patch" \
		--meta "workload kernel/census/init.sh in a busybox-static $bbver initramfs: tmpfs files created/looked up/renamed/deleted, page cache, ext2 on loop, btrfs on virtio, fork, pipes, loopback TCP/UDP (httpd, wget, nc), unix sockets (syslogd), /proc and /sys walks, ftrace" \
		--meta "qemu $(basename "$(command -v qemu-system-"$arch")") -accel $(cat "$run/accel") -smp 1 -m 1024"; then
		tail -n 30 "$run/console.log" | sed "s/^/[$arch] /"
		rc=1
	fi
done

if [ "$cost" -gt 0 ]; then
	for arch in $arches; do
		on=$vd/census/build-$arch/arch/x86/boot/bzImage
		off=$(build "$arch" "$vd/census/build-$arch-off" n)
		for i in $(seq 1 "$cost"); do
			for k in on off; do
				kern=$on
				[ $k = off ] && kern=$off
				boot "$arch" "$kern" "$vd/census/cost-$arch-$k"
				say "$arch: cost run $i census=$k: workload $(guest_meta "$vd/census/cost-$arch-$k" guest_workload_seconds) s, init at $(guest_meta "$vd/census/cost-$arch-$k" guest_uptime_at_init), done at $(guest_meta "$vd/census/cost-$arch-$k" guest_uptime_at_workload_end)"
			done
		done
	done
fi

say "done in $(($(date +%s) - t0)) s"
exit $rc
