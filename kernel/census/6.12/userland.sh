#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# userland.sh ARCH CACHE ROOT: the Debian binaries of the 6.12 census
# workload for the guest of Debian architecture ARCH (amd64 or i386), laid
# out in ROOT (binaries in usr/sbin, before busybox in the guest's PATH)
# with their shared libraries and the dynamic loader.
#
# Everything comes from ARCH's packages (or arch "all" ones), never from
# this machine: it is amd64, and its libraries need not match the .debs.
# The package set is the tool packages below plus, transitively, the
# library packages (Section libs) they depend on: dpkg-shlibdeps makes a
# package depend on the package of each DT_NEEDED library, so this holds
# every library a binary can need, without the closure through perl,
# python, udev or dpkg that the tools' other dependencies would bring.
# The packages are fetched with `apt-get download` into CACHE/debs (once)
# and unpacked there with `dpkg-deb -x`, never installed on this machine:
# nfs-kernel-server would start a server in the host's kernel.
# Each wanted binary is copied into ROOT, then every DT_NEEDED library
# (readelf -d), transitively, from the unpacked packages only.  A library
# found nowhere is an error that names it.
#
# Also writes ROOT/etc (exports, netconfig, passwd, group, mtab,
# mke2fs.conf, services) and prints one line per package with its
# version on stderr, for the census's meta: "Package: NAME Version: V"
# for the tool packages, "Library: ..." for the library packages.

set -euo pipefail

usage() { echo "usage: userland.sh amd64|i386 CACHE ROOT" >&2; exit 2; }
[ $# = 3 ] || usage
arch=$1
cache=$2
# built in ROOT.tmp, renamed when complete: no half ROOT after an error
final=$3
root=$3.tmp
tools="nftables nfs-kernel-server nfs-common exfatprogs dosfstools attr
       bpftool iproute2 e2fsprogs dmsetup mdadm ipvsadm libc-bin"
binaries="nft exportfs rpc.nfsd rpc.mountd mount.nfs mkfs.exfat mkfs.fat
	  setfattr getfattr bpftool ip tc bridge mke2fs dmsetup mdadm ipvsadm"
case $arch in
amd64)
	multiarch=x86_64-linux-gnu
	tools="$tools linux-perf"
	binaries="$binaries perf"
	;;
i386)
	# no perf: linux-perf:i386 needs libperl5.36 and libpython3.11
	# (about 20 MB more in the initramfs) for two perf runs
	multiarch=i386-linux-gnu
	;;
*) usage ;;
esac
x=$cache/x

# deps PKG...: what the packages depend on (alternatives and the
# providers of virtual packages included), names as apt prints them
deps() {
	apt-cache depends --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "$@" 2>/dev/null |
		sed -n 's/^  [ |]*\(Pre\)\{0,1\}Depends: \([^< ]*\)$/\2/p; s/^    \([^ ]*\)$/\1/p'
}

# libs_of NAME...: those that are library packages of ARCH or "all", as
# pkg:ARCH or pkg (arch "all" packages have no pkg:ARCH name)
libs_of() {
	local n
	for n in "$@"; do
		n=${n%:*}
		echo "$n:$arch"
		echo "$n"
	done | sort -u | xargs apt-cache show --no-all-versions 2>/dev/null |
		awk -v a="$arch" '
		function done_() {
			if (p != "" && s ~ /(^|\/)libs$/)
				if (r == a) print p ":" a; else if (r == "all") print p
			p = ""
		}
		/^Package:/ { p = $2 } /^Architecture:/ { r = $2 }
		/^Section:/ { s = $2 } /^$/ { done_() } END { done_() }' | sort -u
}

# the package set: the tools, then library packages until none is new
pkgs=" "
frontier=
for p in $tools; do
	frontier="$frontier $p:$arch"
done
while [ -n "$frontier" ]; do
	for p in $frontier; do
		pkgs="$pkgs$p "
	done
	new=
	# shellcheck disable=SC2046,SC2086
	for p in $(libs_of $(deps $frontier)); do
		case $pkgs$new in
		*" $p "*) ;;
		*) new="$new $p " ;;
		esac
	done
	frontier=$new
done

mkdir -p "$cache/debs"
have=1
for p in $pkgs; do
	n=${p%:*}
	ls "$cache/debs/${n}_"*_"$arch.deb" >/dev/null 2>&1 ||
		ls "$cache/debs/${n}_"*_all.deb >/dev/null 2>&1 || have=0
done
if [ "$have" = 0 ]; then
	# shellcheck disable=SC2086
	(cd "$cache/debs" && rm -f ./*.deb && apt-get download -q $pkgs >/dev/null 2>&1) ||
		{ echo "userland.sh: apt-get download of the $arch packages failed" >&2; exit 1; }
fi
rm -rf "$x"
mkdir -p "$x"
for p in $pkgs; do
	n=${p%:*}
	for d in "$cache/debs/${n}_"*_"$arch.deb" "$cache/debs/${n}_"*_all.deb; do
		[ -e "$d" ] || continue
		dpkg-deb -x "$d" "$x"
		kind=Library
		for t in $tools; do
			[ "$t" != "$n" ] || kind=Package
		done
		echo "$kind: $n Version: $(dpkg-deb -f "$d" Version)" >&2
	done
done

# shellcheck source=kernel/census/6.12/in-root.sh
. "$(dirname "${BASH_SOURCE[0]}")/in-root.sh"
inx() { in_root "$x" "$1"; } # PATH: a file of the unpacked packages

rm -rf "$root"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/sbin" "$root/lib/$multiarch" "$root/etc"
declare -A copied=()

copy_libs() { # ELF: its DT_NEEDED libraries into ROOT/lib/<multiarch>
	local lib d found
	for lib in $(readelf -d "$1" 2>/dev/null |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ -z "${copied[$lib]:-}" ] || continue
		found=
		for d in "/lib/$multiarch" "/usr/lib/$multiarch"; do
			found=$(inx "$d/$lib") && break
		done
		[ -n "$found" ] || { echo "userland.sh: $lib (for ${1#"$x"}) found nowhere in the $arch packages" >&2; exit 1; }
		cp "$found" "$root/lib/$multiarch/$lib"
		copied[$lib]=1
		copy_libs "$found"
	done
}

interp=
for b in $binaries; do
	src=
	for d in /usr/sbin /sbin /usr/bin /bin; do
		src=$(inx "$d/$b") && break
	done
	if [ -z "$src" ] || [ ! -x "$src" ]; then
		echo "userland.sh: no $b in the $arch packages" >&2
		exit 1
	fi
	cp "$src" "$root/usr/sbin/$b"
	copy_libs "$src"
	[ -n "$interp" ] || interp=$(readelf -l "$src" |
		sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p')
done
# the loader where the binaries ask for it (/lib64 or /lib): a relative
# link to the one libc.so.6 needs, or a copy
ld=$(inx "$interp") || { echo "userland.sh: no loader $interp in the $arch packages" >&2; exit 1; }
mkdir -p "$root$(dirname "$interp")"
if [ -n "${copied[$(basename "$interp")]:-}" ]; then
	ln -sr "$root/lib/$multiarch/$(basename "$interp")" "$root$interp"
else
	cp "$ld" "$root$interp"
fi
# mkfs.exfat converts its label with iconv and wants a UTF-8 locale:
# libc-bin's C.UTF-8 and libc6's UTF-16/32 converters
mkdir -p "$root/usr/lib/locale" "$root/usr/lib/$multiarch/gconv"
cp -r "$x/usr/lib/locale/C.utf8" "$root/usr/lib/locale/"
g=$x/usr/lib/$multiarch/gconv
cp -r "$g/gconv-modules" "$g/gconv-modules.d" "$g/UTF-16.so" "$g/UTF-32.so" \
	"$g/UNICODE.so" "$root/usr/lib/$multiarch/gconv/"
ln -s mount.nfs "$root/usr/sbin/mount.nfs4"
cp "$x/etc/netconfig" "$root/etc/netconfig"
echo "/srv/nfs 127.0.0.1(rw,no_root_squash,no_subtree_check,fsid=0,insecure,sync)" >"$root/etc/exports"
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"
# rpc.nfsd looks its port up by the service name
printf 'nfs\t\t2049/tcp\nnfs\t\t2049/udp\nsunrpc\t\t111/tcp\nsunrpc\t\t111/udp\n' >"$root/etc/services"
ln -s /proc/mounts "$root/etc/mtab"
# mke2fs knows "-t ext4" from its configuration file only (e2fsprogs')
cp "$x/etc/mke2fs.conf" "$root/etc/mke2fs.conf"
rm -rf "$final"
mv "$root" "$final"
trap - EXIT
