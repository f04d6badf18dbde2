#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-userland.sh ROOT ARCH: do the binaries userland.sh laid out in ROOT
# start, with ROOT's loader and libraries only?  Without a guest kernel:
#
# 1. statically: ROOT has the loader each binary asks for (PT_INTERP), and
#    every DT_NEEDED library of every binary and library, in ROOT's
#    multiarch folder.  qemu-user's -L falls back to this machine's file
#    for a path missing under ROOT, so step 2 alone would not see a
#    missing library;
# 2. each binary in ROOT/usr/sbin runs under qemu-<cpu>-static -L ROOT,
#    through ROOT's loader with --inhibit-cache (this machine's
#    /etc/ld.so.cache lists its own libraries), with an option that makes
#    it print its version or usage.  It passes when it got to main: exit
#    status other than 127 and no loader or qemu error in its output.
#    Some fail later, under qemu-user, on what they ask the kernel (nft's
#    netlink socket, ipvsadm's module): that is no failure here.
#
# A binary that does not start is an error naming it.

set -uo pipefail

[ $# = 2 ] || { echo "usage: check-userland.sh ROOT amd64|i386" >&2; exit 2; }
root=$1
case $2 in
amd64) multiarch=x86_64-linux-gnu cpu=x86_64 ;;
i386) multiarch=i386-linux-gnu cpu=i386 ;;
*) echo "check-userland.sh: unknown architecture $2 (amd64 or i386)" >&2; exit 2 ;;
esac
[ -d "$root/usr/sbin" ] || { echo "check-userland.sh: no $root/usr/sbin" >&2; exit 1; }
qemu=qemu-$cpu-static
command -v "$qemu" >/dev/null || { echo "check-userland.sh: no $qemu (package qemu-user-static)" >&2; exit 1; }

# the option that makes each one print its version (else its usage)
declare -A opt=([nft]=-v [ip]=-V [tc]=-V [bridge]=-V [dmsetup]=--help
	[exportfs]=-h [ipvsadm]=-h [mke2fs]=-V [mkfs.fat]=--help
	[rpc.nfsd]=--help [rpc.mountd]=-v [setfattr]=--version
	[getfattr]=--version [mkfs.exfat]=-V [mount.nfs]=-V [mount.nfs4]=-V
	[mdadm]=-V [bpftool]=version [perf]=--version)

bad=0
fail() { echo "check-userland.sh: $*" >&2; bad=1; }

# shellcheck source=kernel/census/6.12/in-root.sh
. "$(dirname "${BASH_SOURCE[0]}")/in-root.sh"

interp=
while read -r f; do
	readelf -h "$f" >/dev/null 2>&1 || continue
	i=$(readelf -l "$f" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p')
	if [ -n "$i" ]; then
		in_root "$root" "$i" >/dev/null || fail "${f#"$root"}: no loader $i in $root"
		interp=$i
	fi
	for lib in $(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		in_root "$root" "/lib/$multiarch/$lib" >/dev/null ||
			in_root "$root" "/usr/lib/$multiarch/$lib" >/dev/null ||
			fail "${f#"$root"}: needs $lib, not in $root"
	done
done < <(find "$root" -type f)
[ -n "$interp" ] || fail "no dynamically linked binary in $root/usr/sbin"
[ "$bad" = 0 ] || exit 1

out=$(mktemp)
trap 'rm -f "$out"' EXIT
for b in "$root"/usr/sbin/*; do
	n=$(basename "$b")
	o=${opt[$n]:---version}
	timeout 60 "$qemu" -L "$root" "$root$interp" --inhibit-cache "$b" "$o" >"$out" 2>&1
	rc=$?
	if [ "$rc" = 127 ] || [ "$rc" = 124 ] ||
		grep -qE "error while loading shared libraries|cannot open shared object|qemu-$cpu|Could not open|Invalid ELF" "$out"; then
		fail "$n does not start (exit $rc): $(head -n 2 "$out" | tr '\n' ' ')"
	else
		echo "$n: $(head -n 1 "$out" | cut -c1-70)"
	fi
done
exit "$bad"
