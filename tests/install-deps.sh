#!/bin/bash
# SPDX-License-Identifier: MIT
# Install the Debian packages the build, the tests and the main job need,
# only those missing (a fresh Debian 12 machine has none of them).
# Usage: tests/install-deps.sh [EXTRA-PACKAGE...]
set -euo pipefail
want=(meson ninja-build gcc g++ pkg-config libcmocka-dev libjemalloc-dev
      liblzma-dev zlib1g-dev gnuplot-nox python3 xz-utils "$@")
# one dpkg-query for all of them (one a package took 0.3 s, most of the
# main job's start-up); packages dpkg has never heard of are missing too
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${want[@]}" 2>/dev/null |
	awk '$NF == "installed" && $(NF-1) == "ok" { print $1 }') || true
missing=()
for p in "${want[@]}"; do
	case $p in
	*:*) # an architecture's package: asked on its own
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p") ;;
	*) grep -qxF "$p" <<<"$installed" || missing+=("$p") ;;
	esac
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# a mirror mid-sync fails one index: go on with the lists there are
$SUDO apt-get update -qq || echo "apt-get update failed; going on with the lists there are" >&2
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
