#!/bin/bash
# SPDX-License-Identifier: MIT
# Install the Debian packages the build, the tests and the main job need,
# only those missing (a fresh Debian 12 machine has none of them).
# Usage: tests/install-deps.sh [EXTRA-PACKAGE...]
set -euo pipefail
want=(meson ninja-build gcc g++ pkg-config libcmocka-dev libjemalloc-dev
      gnuplot-nox python3 "$@")
missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
