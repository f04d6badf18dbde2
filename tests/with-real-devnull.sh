#!/bin/bash
# SPDX-License-Identifier: MIT
# with-real-devnull.sh CMD [ARG...]: run CMD where /dev/null is the null
# device.  Some machines have a regular file there instead; everything
# written to "/dev/null" then stays and is read back.  Kbuild reads
# /dev/null as an empty input (modpost's module list, every cc-option
# probe), so on such a machine a kernel build fails with "MODPOST
# vmlinux.symvers: filename must be suffixed with .o", or silently loses
# compiler flags.  The machine's own /dev/null is left alone: CMD runs in
# a private mount namespace with a null device bound over it.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 CMD [ARG...]" >&2; exit 2; }

# works: /dev/null is a character device that swallows what is written.
works() {
	[ -c /dev/null ] && printf x >/dev/null && [ -z "$(head -c 1 /dev/null)" ]
}
# LKH_REAL_DEVNULL=1 tells CMD (and a second pass here) that it was checked.
if works; then
	LKH_REAL_DEVNULL=1 exec "$@"
fi
if [ "${LKH_REAL_DEVNULL:-}" = 1 ]; then
	echo "with-real-devnull.sh: /dev/null is still not the null device" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	echo "with-real-devnull.sh: /dev/null is not the null device (a $(stat -c %F /dev/null)); run as root to work around it, or restore it: rm /dev/null && mknod -m 666 /dev/null c 1 3" >&2
	exit 1
fi
echo "with-real-devnull.sh: /dev/null is a $(stat -c %F /dev/null), not the null device: running in a mount namespace with a real one" >&2
node=$(mktemp -d)
trap 'rm -rf "$node"' EXIT
mknod -m 666 "$node/null" c 1 3
# Not exec: the trap removes the node folder once CMD is done.
# shellcheck disable=SC2016 # the inner shell expands $0, $1 and $@
LKH_REAL_DEVNULL=1 unshare --mount --propagation private \
	bash -c 'mount --bind "$1" /dev/null && shift && exec bash "$0" "$@"' \
	"${BASH_SOURCE[0]}" "$node/null" "$@"
