#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The hash census: build Linux with the census patches (CONFIG_HASH_CENSUS),
# boot it in QEMU for x86_64 and i386 into an initramfs that runs the
# census workload, and turn what the guest wrote to its virtio disk into
# tests/data/census/<kernel>-<arch>.txt (or .txt.xz when large).
#
# Every kernel the same way: what its census needs is in
# kernel/census/<kernel>/ (the patches 0*.patch, the fragments config and
# config-<arch> on top of tinyconfig, the guest's init.sh), the tools
# shared by all (this script, extract.py, workload.sh) here, and its data
# is tests/data/census/<kernel>-<arch>.txt[.xz] beside the census kernel's
# resolved <kernel>-<arch>.config.
#
# CENSUS_KERNEL selects the kernel (default 6.1):
#   6.1   Debian linux-source-6.1: the series in kernel/patches, then
#         6.1/0*.patch; busybox initramfs.  Uses the tree of
#         kernel/run-kunit.sh (run-kunit.sh --prepare).
#   6.12  Debian linux-source-6.12: its own tree (no KUnit series),
#         modules, an initramfs of busybox, the static census-load helper
#         (6.12/census-load.c), the modules and Debian binaries of the
#         guest's arch (6.12/userland.sh).
#
# Cache (per Debian package version):
#   <cache>/<version>/census/src         the patched tree
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
#   CENSUS_KERNEL   6.1 or 6.12 (default 6.1)
#   CENSUS_TIMEOUT  seconds one boot may take (default 600; 1800 for 6.12)
#   CENSUS_ACCEL    QEMU accelerator (default tcg)
#   CENSUS_REUSE    1: boot the kernel already built in build-<arch> (no
#                   make, no lock), e.g. to boot the same build again
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
kv=${CENSUS_KERNEL:-6.1}
# cmdline: 6.12 boots with debug_boot_weak_hash, so that %p prints the
# hash_long() of the pointer (lib/vsprintf.c ptr_to_id) instead of
# siphash: one more call site, fed every pointer /proc/net prints
case $kv in
6.1) timeout=${CENSUS_TIMEOUT:-600} mem=1024 cmdline= ;;
6.12) timeout=${CENSUS_TIMEOUT:-1800} mem=2048 cmdline=" debug_boot_weak_hash" ;;
*) echo "CENSUS_KERNEL must be 6.1 or 6.12, not '$kv'" >&2; exit 2 ;;
esac
# one rule for every kernel: its files, and the stem of its data's names
kdir=$here/$kv
stem=$kv-
cost=${CENSUS_COST:-0}
cache=${LIBKHASH_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libkhash/kernel}
out=${CENSUS_OUT:-$top/tests/data/census}

export GIT_AUTHOR_NAME=libkhash GIT_AUTHOR_EMAIL=libkhash@localhost
export GIT_COMMITTER_NAME=libkhash GIT_COMMITTER_EMAIL=libkhash@localhost

t0=$(date +%s)
say() { printf '[census %4ds] %s\n' $(($(date +%s) - t0)) "$*"; }
die() { say "ERROR: $*"; exit 1; }
debarch() { # ARCH: the guest's Debian architecture (busybox, userland.sh)
	case $1 in
	x86_64) echo amd64 ;;
	i386) echo i386 ;;
	*) die "unknown arch $1 (x86_64 or i386)" ;;
	esac
}

# --- 1. the source tree, packages -----------------------------------------
if [ "$kv" = 6.1 ]; then
	src=$("$top/kernel/run-kunit.sh" --prepare | tail -n 1)
	vd=$(dirname "$src")
	base=libkhash	# the series' commit in run-kunit.sh's tree
else
	# 6.12: a tree of our own, from Debian's tarball, no KUnit series
	if ! dpkg-query -W -f='${Status}\n' linux-source-6.12 2>/dev/null |
		grep -q '^install ok installed'; then
		[ "${KUNIT_NO_INSTALL:-0}" = 1 ] && die "missing: linux-source-6.12"
		say "installing linux-source-6.12 and the build tools"
		apt-get update -q >/dev/null
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			linux-source-6.12 ccache gcc make flex bison bc libelf-dev libssl-dev \
			perl python3 git xz-utils util-linux kmod cpio >/dev/null
	fi
	vd=$cache/$(dpkg-query -W -f='${Version}' linux-source-6.12)
	src=$vd/census/src
	base=base
	mkdir -p "$vd/census"
	if ! git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
		exec 9>"$cache/lock"
		flock 9
		say "extracting /usr/src/linux-source-6.12.tar.xz into $src"
		bash "$top/kernel/unpack-tree.sh" linux-source-6.12 "$src" ||
			die "could not unpack linux-source-6.12"
		flock -u 9
	fi
fi
dver=$(basename "$vd")
cd "$vd"
mkdir -p census/debs logs

need=
extra=
# census-load for the i386 guest: the cross compiler the qemu-user tests
# use too (gcc-multilib would do, but Debian 12 removes every cross gcc
# to install it); qemu-user-static for check-userland.sh
[ "$kv" = 6.1 ] || extra="gcc-i686-linux-gnu libc6-dev-i386-cross qemu-user-static"
for p in qemu-system-x86 btrfs-progs $extra; do
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
	# a mirror in the middle of a sync fails one index: go on with the
	# lists there are; what is really missing fails below, named
	apt-get update -q >/dev/null 2>&1 || say "apt-get update failed; going on with the lists there are"
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

# The lock of run-kunit.sh is held while the tree changes and while a
# kernel builds, not while QEMU boots (that is no build, and takes long)
exec 9>"$cache/lock"

# --- 2. our own work tree: series (6.1) + census patches -----------------
patches=("$kdir"/0*.patch)
if [ "$kv" = 6.1 ]; then
	tree=$vd/census/src
	[ -e "$tree/.git" ] || git -C "$src" worktree add -q --detach "$tree" libkhash
else
	tree=$src
fi
stamp=$( (git -C "$tree" rev-parse "$base"; cat "${patches[@]}") | sha256sum | cut -c1-16)
if [ "$(cat "$vd/census/stamp" 2>/dev/null)" != "$stamp" ]; then
	flock 9
	say "applying ${#patches[@]} census patches in $tree"
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" checkout -q -f --detach "$base"
	git -C "$tree" am -q "${patches[@]}" || die "the census patches do not apply"
	echo "$stamp" >"$vd/census/stamp"
	flock -u 9
fi

export CCACHE_DIR=$cache/ccache
export CCACHE_BASEDIR=$vd
[ "$kv" = 6.1 ] || CCACHE_BASEDIR=$vd/census

# census-load (6.12): our static helper, built for the guest's arch
if [ "$kv" = 6.12 ]; then
	for arch in $arches; do
		cc=gcc
		[ "$arch" = i386 ] && cc=i686-linux-gnu-gcc
		if ! "$cc" -static -O2 -Wall -o "$vd/census/census-load-$arch" \
			"$kdir/census-load.c" 2>"$vd/logs/census-load-$arch.log"; then
			say "$arch: census-load does not build ($(head -c 200 "$vd/logs/census-load-$arch.log")); the guest goes without it"
			rm -f "$vd/census/census-load-$arch"
		fi
	done
	for arch in $arches; do
		da=$(debarch "$arch")
		say "$arch: Debian $da binaries for the guest (6.12/userland.sh, check-userland.sh)"
		bash "$kdir/userland.sh" "$da" "$vd/census/userland-$da" "$vd/census/root-$da" \
			2>"$vd/logs/census-userland-$da.log" ||
			{ cat "$vd/logs/census-userland-$da.log" >&2; die "userland.sh $da failed"; }
		bash "$kdir/check-userland.sh" "$vd/census/root-$da" "$da" \
			>"$vd/logs/census-check-userland-$da.log" 2>&1 ||
			{ cat "$vd/logs/census-check-userland-$da.log" >&2; die "check-userland.sh $da failed"; }
	done
fi

# config_for ARCH BUILD_DIR CENSUS(y|n): tinyconfig + $kdir/config,
# written to BUILD_DIR/.config only when it changed (keeps rebuilds quiet)
config_for() {
	local arch=$1 b=$2 on=$3 cfg=$vd/census/cfg-$1 frag
	frag=$(mktemp)
	if [ "$on" = y ]; then
		cp "$kdir/config" "$frag"
		[ ! -f "$kdir/config-$arch" ] || cat "$kdir/config-$arch" >>"$frag"
	else
		grep -hv '^CONFIG_HASH_CENSUS' "$kdir/config" >"$frag"
		[ ! -f "$kdir/config-$arch" ] || grep -hv '^CONFIG_HASH_CENSUS' "$kdir/config-$arch" >>"$frag"
		echo '# CONFIG_HASH_CENSUS is not set' >>"$frag"
	fi
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
	[ "$on" != y ] || { mkdir -p "$out" && cp "$cfg/.config" "$out/$stem$arch.config"; }
}

# build ARCH BUILD_DIR CENSUS: prints the bzImage path; 6.12 also builds
# the modules and installs them (stripped) into BUILD_DIR/modroot
build() {
	local arch=$1 b=$2 on=$3 start log targets=bzImage
	[ "$kv" = 6.1 ] || targets="bzImage modules"
	log=$vd/logs/census-build-$(basename "$b").log
	start=$(date +%s)
	if [ "${CENSUS_REUSE:-0}" = 1 ] && [ -f "$b/arch/x86/boot/bzImage" ]; then
		say "$arch: booting the kernel already built in $(basename "$b") (CENSUS_REUSE=1)" >&2
		mkdir -p "$out"
		[ "$on" != y ] || cp "$b/.config" "$out/$stem$arch.config"
	else
		flock 9
		config_for "$arch" "$b" "$on" >&2
		# shellcheck disable=SC2086
		if ! nice -n 10 make -s -C "$tree" O="$b" ARCH="$arch" -j"$jobs" \
			CC="ccache gcc" LOCALVERSION= $targets >"$log" 2>&1; then
			tail -n 40 "$log" >&2
			die "$arch: build failed, log in $log"
		fi
		flock -u 9
	fi
	if [ "$kv" != 6.1 ]; then
		rm -rf "$b/modroot"
		make -s -C "$tree" O="$b" ARCH="$arch" LOCALVERSION= INSTALL_MOD_STRIP=1 \
			INSTALL_MOD_PATH="$b/modroot" modules_install >>"$log" 2>&1 ||
			die "$arch: modules_install failed, log in $log"
	fi
	say "$arch: built $(basename "$b") in $(($(date +%s) - start)) s" >&2
	echo "$b/arch/x86/boot/bzImage"
}

# cpio_list DIR: gen_init_cpio lines for everything under DIR, at /
cpio_list() {
	(cd "$1" && find . -mindepth 1 | sort | while read -r p; do
		p=${p#.}
		if [ -L "$1$p" ]; then
			echo "slink $p $(readlink "$1$p") 0777 0 0"
		elif [ -d "$1$p" ]; then
			echo "dir $p 0755 0 0"
		else
			echo "file $p $1$p $(stat -c %a "$1$p") 0 0"
		fi
	done)
}

# boot ARCH KERNEL RUN_DIR: the guest runs init.sh and writes RUN_DIR/disk.img
boot() {
	local arch=$1 kernel=$2 run=$3 bb qemu=qemu-system-$1 accel
	bb=$(debarch "$arch")
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
	file /init $kdir/init.sh 0755 0 0
	file /workload.sh $here/workload.sh 0644 0 0
	file /bin/busybox $vd/census/busybox-$bb/bin/busybox 0755 0 0
	slink /bin/sh busybox 0777 0 0
	LIST
	if [ "$kv" != 6.1 ]; then
		# modprobe where the kernel calls it, the modules, census-load,
		# and the Debian binaries with their libraries
		printf 'dir /sbin 0755 0 0\nslink /sbin/modprobe /bin/busybox 0777 0 0\n' >>"$run/initramfs.list"
		[ ! -x "$vd/census/census-load-$arch" ] ||
			echo "file /bin/census-load $vd/census/census-load-$arch 0755 0 0" >>"$run/initramfs.list"
		cpio_list "$(dirname "$kernel")/../../../modroot" >>"$run/initramfs.list"
		cpio_list "$vd/census/root-$bb" >>"$run/initramfs.list"
	fi
	"$(dirname "$kernel")/../../../usr/gen_init_cpio" "$run/initramfs.list" >"$run/initramfs.cpio"
	rm -f "$run/disk.img" "$run/btrfs.img"
	truncate -s 256M "$run/disk.img"
	truncate -s 512M "$run/btrfs.img"
	mkfs.btrfs -q -f "$run/btrfs.img" >/dev/null
	# TCG: this machine's /dev/kvm is nested and fails (hangs, or
	# "failed to set MSR"); CENSUS_ACCEL=kvm where it works
	accel=${CENSUS_ACCEL:-tcg}
	echo "$accel" >"$run/accel"
	timeout "$timeout" "$qemu" -accel "$accel" -m "$mem" -smp 1 \
		-nographic -no-reboot -kernel "$kernel" -initrd "$run/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 loglevel=4$cmdline" \
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
	if [ "$kv" = 6.1 ]; then
		meta=(--meta "config make tinyconfig + kernel/census/6.1/config (sha256 $(sha256sum "$kdir/config" | cut -c1-12))"
		      --meta "patches kernel/patches/6.1/series + kernel/census/6.1/0*.patch"
		      --meta "workload kernel/census/6.1/init.sh in a busybox-static $bbver initramfs: tmpfs files created/looked up/renamed/deleted, page cache, ext2 on loop, btrfs on virtio, fork, pipes, loopback TCP/UDP (httpd, wget, nc), unix sockets (syslogd), /proc and /sys walks, ftrace")
	else
		ulog=$vd/logs/census-userland-$(debarch "$arch").log
		meta=(--meta "config make tinyconfig + kernel/census/6.12/config + config-$arch (sha256 $(cat "$kdir/config" "$kdir/config-$arch" | sha256sum | cut -c1-12)), modules =m"
		      --meta "patches kernel/census/6.12/0*.patch on Debian's tree (no KUnit series)"
		      --meta "workload kernel/census/6.12/init.sh: busybox-static $bbver, census-load (6.12/census-load.c), Debian $(debarch "$arch") binaries of 6.12/userland.sh ($(sed -n 's/^Package: \(.*\) Version: \(.*\)$/\1 \2/p' "$ulog" | paste -sd, -) and $(grep -c '^Library: ' "$ulog") library packages); the 6.1 workload with ext4, plus vfat, exfat, xattrs in blocks, md raid1, dm-cache, btrfs properties, 24 each of virtual network devices, tunnels, vrfs, qdiscs, addresses and routes, L2TPv3, tc, nftables with named counters and nftrace, NFSv4 over loopback, io_uring, fanotify, locks, multicast, perf, POSIX timers, BPF, KSM, THP, raw sockets, UDP under pressure, vhost-vsock, modules unloaded at the end")
	fi
	if ! python3 "$here/extract.py" "$run/disk.img" "$arch" \
		"$dver (Debian linux-source-$kv)" "$out" --stem "$stem$arch" \
		--meta "date $(date -u +%Y-%m-%d)" "${meta[@]}" \
		--meta "qemu $(basename "$(command -v qemu-system-"$arch")") -accel $(cat "$run/accel") -smp 1 -m $mem, kernel command line: console=ttyS0 panic=-1 loglevel=4$cmdline"; then
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
