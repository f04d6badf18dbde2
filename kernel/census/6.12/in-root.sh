# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by userland.sh and check-userland.sh.
#
# in_root DIR PATH: prints the file that the absolute PATH names in the
# tree DIR (unpacked packages, a guest's root), symbolic links followed
# inside DIR: an absolute link (Debian 12's /lib64/ld-linux-x86-64.so.2
# is one) would lead out of DIR, to this machine's file.  Fails when
# PATH is no file there.
in_root() {
	local p=$1$2 t n=0
	while [ -L "$p" ] && [ $n -lt 20 ]; do
		t=$(readlink "$p")
		case $t in
		/*) p=$1$t ;;
		*) p=$(dirname "$p")/$t ;;
		esac
		n=$((n + 1))
	done
	[ -f "$p" ] && [ ! -L "$p" ] && echo "$p"
}
