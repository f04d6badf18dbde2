#!/bin/bash
# SPDX-License-Identifier: MIT
# The main job: build khash-bench optimised and print the old-versus-new
# report over every built-in key set, with plots in out/plots/.
# Usage: bench/main-job.sh [extra khash-bench report options]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${LKH_BUILD_ROOT:-$top/build}/release
bash "$top/tests/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$top" --buildtype=release -Dtests=disabled >/dev/null
fi
ninja -C "$build" >/dev/null
mkdir -p "$top/out"
"$build/bench/khash-bench" report --plot "$top/out/plots" "$@"
