#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# userland.sh CACHE ROOT: the Debian binaries of the 6.12 census workload
# (amd64 only), laid out in ROOT (binaries in usr/sbin, before busybox in
# the guest's PATH) with their shared libraries.
#
# The packages below are fetched with `apt-get download` into CACHE/debs
# (once) and unpacked there with `dpkg-deb -x`, never installed on this
# machine: nfs-kernel-server would start a server in the host's kernel.
# Each wanted binary is copied into ROOT, then every DT_NEEDED library
# (readelf -d), transitively: from the unpacked packages first, else
# from this machine's own multiarch folders (the host is Debian 12 too:
# iproute2, e2fsprogs and linux-perf come from there).  A library found
# nowhere is an error that names it.
#
# Also writes ROOT/etc (exports, netconfig, passwd, group, mtab,
# mke2fs.conf, services) and
# prints one line per package with its version, for the census's meta.

set -euo pipefail

cache=$1
root=$2
packages="nftables libnftables1 libnftnl11 libjansson4 nfs-kernel-server
	  nfs-common libtirpc3 libtirpc-common libnfsidmap1 libwrap0
	  libevent-core-2.1-7 keyutils exfatprogs dosfstools attr bpftool"
# binary: where it is, in the unpacked packages (x/) or on the host (/)
binaries="x/usr/sbin/nft x/usr/sbin/exportfs x/usr/sbin/rpc.nfsd
	  x/usr/sbin/rpc.mountd x/sbin/mount.nfs x/usr/sbin/mkfs.exfat
	  x/sbin/mkfs.fat x/usr/bin/setfattr x/usr/bin/getfattr x/usr/sbin/bpftool
	  /usr/sbin/ip /usr/sbin/tc /usr/sbin/bridge /usr/sbin/mke2fs /usr/bin/perf"
multiarch=x86_64-linux-gnu

mkdir -p "$cache/debs"
have=1
for p in $packages; do
	ls "$cache/debs/${p}_"*_amd64.deb >/dev/null 2>&1 ||
		ls "$cache/debs/${p}_"*_all.deb >/dev/null 2>&1 || have=0
done
if [ "$have" = 0 ]; then
	# shellcheck disable=SC2086
	(cd "$cache/debs" && rm -f ./*.deb && apt-get download -q $packages >/dev/null 2>&1) ||
		{ echo "userland.sh: apt-get download failed" >&2; exit 1; }
fi
rm -rf "$cache/x"
mkdir -p "$cache/x"
for d in "$cache"/debs/*.deb; do
	dpkg-deb -x "$d" "$cache/x"
	dpkg-deb -f "$d" Package Version | paste -sd' ' >&2
done

rm -rf "$root"
mkdir -p "$root/usr/sbin" "$root/lib/$multiarch" "$root/lib64" "$root/etc"

libdirs=("$cache/x/lib/$multiarch" "$cache/x/usr/lib/$multiarch"
	 "/lib/$multiarch" "/usr/lib/$multiarch")
declare -A copied=()

copy_libs() { # ELF: its DT_NEEDED libraries into ROOT/lib/<multiarch>
	local lib d found
	for lib in $(readelf -d "$1" 2>/dev/null |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ -z "${copied[$lib]:-}" ] || continue
		found=
		for d in "${libdirs[@]}"; do
			if [ -e "$d/$lib" ]; then
				found=$d/$lib
				break
			fi
		done
		[ -n "$found" ] || { echo "userland.sh: $lib (for $1) found nowhere" >&2; exit 1; }
		cp -L "$found" "$root/lib/$multiarch/$lib"
		copied[$lib]=1
		copy_libs "$found"
	done
}

for b in $binaries; do
	case $b in
	x/*) src=$cache/$b ;;
	*) src=$b ;;
	esac
	[ -x "$src" ] || { echo "userland.sh: no $src" >&2; exit 1; }
	cp -L "$src" "$root/usr/sbin/$(basename "$b")"
	copy_libs "$src"
done
cp -L "/lib64/ld-linux-x86-64.so.2" "$root/lib64/"
# mkfs.exfat converts its label with iconv and wants a UTF-8 locale:
# the host's C.UTF-8 and the UTF-16/32 converters
mkdir -p "$root/usr/lib/locale" "$root/usr/lib/$multiarch/gconv"
cp -r /usr/lib/locale/C.utf8 "$root/usr/lib/locale/"
g=/usr/lib/$multiarch/gconv
cp -r "$g/gconv-modules" "$g/gconv-modules.d" "$g/UTF-16.so" "$g/UTF-32.so" \
	"$g/UNICODE.so" "$root/usr/lib/$multiarch/gconv/"
ln -s mount.nfs "$root/usr/sbin/mount.nfs4"
cp "$cache/x/etc/netconfig" "$root/etc/netconfig"
echo "/srv/nfs 127.0.0.1(rw,no_root_squash,no_subtree_check,fsid=0,insecure,sync)" >"$root/etc/exports"
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"
# rpc.nfsd looks its port up by the service name
printf 'nfs\t\t2049/tcp\nnfs\t\t2049/udp\nsunrpc\t\t111/tcp\nsunrpc\t\t111/udp\n' >"$root/etc/services"
ln -s /proc/mounts "$root/etc/mtab"
# mke2fs knows "-t ext4" from its configuration file only
cp /etc/mke2fs.conf "$root/etc/mke2fs.conf"
