#!/bin/bash
# SPDX-License-Identifier: MIT
# Every test: the library and khash-bench built and tested in each
# configuration that matters (as configured, BITS_PER_LONG forced to 32 and
# to 64, clang, ASan+UBSan, all with warnings as errors), then the cross-architecture
# and kernel suites when their scripts are present.  Ends with one line
# "N passed, N failed" over all suites (then ", N skipped" when a test skipped
# itself, as the install check does under a sanitizer).
# Usage: tests/run-all.sh        (LKH_BUILD_ROOT overrides ./build)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# A machine whose /dev/null is a regular file breaks the kernel build.
[ "${LKH_REAL_DEVNULL:-}" = 1 ] || exec bash "$top/tests/with-real-devnull.sh" bash "$0" "$@"
root=${LKH_BUILD_ROOT:-$top/build}
bash "$top/tests/install-deps.sh" clang libclang-rt-14-dev libhts-dev groff-base mandoc shellcheck || exit 1

total_pass=0 total_fail=0 total_skip=0
declare -a lines times
run_start=$(date +%s) part_start=$run_start

# part_done NAME: the seconds since the previous part ended, for the table
# of times at the end (cold and warm totals are in tests/README.md).
part_done() {
	local now
	now=$(date +%s)
	times+=("$(printf '%-16s %5d s' "$1" $((now - part_start)))")
	part_start=$now
}
part_done install

# skipped_note N: ", N skipped" when N > 0, so a run with none keeps the
# plain "N passed, N failed".
skipped_note() { [ "$1" != 0 ] && printf ', %s skipped' "$1"; }

# run_meson NAME SETUP-ARGS...: configure, build, meson test; tally.
run_meson() {
	local name=$1 dir=$root/$1 log
	shift
	log=$(mktemp)
	if [ ! -f "$dir/build.ninja" ]; then
		if ! meson setup "$dir" "$top" --werror "$@" >"$log" 2>&1; then
			cat "$log"; lines+=("$name: setup FAILED"); total_fail=$((total_fail + 1)); return
		fi
	fi
	if ! ninja -C "$dir" >"$log" 2>&1; then
		cat "$log"; lines+=("$name: build FAILED"); total_fail=$((total_fail + 1)); return
	fi
	# The suites' timeouts catch hangs, not slowness: on a machine busy with
	# other work (a kernel build, another CI) a suite took 3x its quiet time,
	# and a sanitizer build is 3-5x slower again, so both are stretched.
	# shellcheck disable=SC2086 # TEST_ARGS is a list of words
	meson test -C "$dir" --no-rebuild --print-errorlogs \
		--timeout-multiplier "${TIMEOUT_MULTIPLIER:-3}" ${TEST_ARGS:-} >"$log" 2>&1
	local ok fail skip
	ok=$(awk '/^Ok:/ {print $2}' "$log")
	fail=$(awk '/^(Fail|Unexpected Pass|Timeout):/ {s += $NF} END {print s + 0}' "$log")
	skip=$(awk '/^Skipped:/ {s += $NF} END {print s + 0}' "$log")
	# CI installs every optional dependency: a skip there means one went
	# missing, so it fails, beyond the skips a configuration expects
	if [ "${CI:-}" = true ] && [ "$skip" -gt "${EXPECT_SKIP:-0}" ]; then
		echo "$name: $skip skipped, ${EXPECT_SKIP:-0} expected: on CI a skip is a failure"
		grep -E '^ *[0-9]+/[0-9]+ .* SKIP' "$log"
		fail=$((fail + skip - ${EXPECT_SKIP:-0}))
	fi
	[ "$fail" != 0 ] && cat "$log"
	[ -z "$ok" ] && { cat "$log"; ok=0; fail=$((fail + 1)); }
	lines+=("$name: $ok passed, $fail failed$(skipped_note "$skip")")
	total_pass=$((total_pass + ok)); total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
	rm -f "$log"
}

run_meson gcc-auto
part_done gcc-auto

# The release tarball: meson dist archives the committed tree (git archive),
# then configures, builds, tests (the whole meson test) and installs the
# unpacked copy with gcc-auto's options.  Measured here (2 cores, a kernel
# build in the background): 12-13 s with a warm ccache, 16-28 s without;
# the full-disk test (8-15 s, the longest) brings it to 28-35 s.
# meson refuses uncommitted changes to tracked files; a run on a work in
# progress uses --allow-dirty and says so, since that tarball holds HEAD
# without those changes.
run_dist() {
	local log args=() note=''
	if ! git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
		lines+=("dist: 0 passed, 0 failed, 1 skipped (not a git checkout)")
		total_skip=$((total_skip + 1)); return
	fi
	if [ -n "$(git -C "$top" status --porcelain --untracked-files=no)" ]; then
		args+=(--allow-dirty)
		note=' (dirty tree: --allow-dirty, the tarball is HEAD without the uncommitted changes)'
		echo "dist: the tree has uncommitted changes; meson dist --allow-dirty packs HEAD only"
	fi
	log=$(mktemp)
	if meson dist -C "$root/gcc-auto" "${args[@]}" >"$log" 2>&1 &&
		grep -q '^Created .*/libkhash-[0-9][0-9.]*\.tar\.xz$' "$log"; then
		lines+=("dist: 1 passed, 0 failed$note")
		total_pass=$((total_pass + 1))
	else
		tail -60 "$log"
		lines+=("dist: FAILED$note")
		total_fail=$((total_fail + 1))
	fi
	rm -f "$log"
}
run_dist
part_done dist
run_meson gcc-bpl32 -Dbits_per_long=32
run_meson gcc-bpl64 -Dbits_per_long=64
CC=clang CXX=clang++ run_meson clang-auto
part_done 'bpl32 bpl64 clang'
# AddressSanitizer + UBSan, any report fatal.  Every suite runs; the install
# check skips itself (its consumer programs have no sanitizer runtime).
EXPECT_SKIP=1 TIMEOUT_MULTIPLIER=10 run_meson gcc-asan-ubsan -Db_sanitize=address,undefined -Db_ndebug=false \
	-Dc_args=-fno-sanitize-recover=all -Dcpp_args=-fno-sanitize-recover=all
part_done asan-ubsan

# Coverage-guided fuzzing of everything that reads untrusted input: the
# corpus replays as a test, then each harness runs for a bounded time.
TEST_ARGS="--suite fuzz" TIMEOUT_MULTIPLIER=10 CC=clang CXX=clang++ run_meson clang-fuzz -Dfuzzing=true \
	-Db_sanitize=address,undefined -Db_lundef=false \
	-Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all"
# The harnesses run side by side, each for long enough to get the CPU time
# of FUZZ_SECONDS (default 60) on one core of its own: on 2 cores, 120 s for
# the four instead of 240 s one after the other.
harnesses=(keyfile cli_args census_file atlas_file)
cores=$(nproc)
[ "$cores" -lt ${#harnesses[@]} ] || cores=${#harnesses[@]}
fuzz_time=$(( ${FUZZ_SECONDS:-60} * ${#harnesses[@]} / cores ))
declare -A fuzz_pid fuzz_work
for h in "${harnesses[@]}"; do
	exe=$root/clang-fuzz/tests/fuzz/fuzz_$h
	[ -x "$exe" ] || continue
	fuzz_work[$h]=$(mktemp -d)
	"$exe" -max_total_time="$fuzz_time" -close_fd_mask=2 -rss_limit_mb=2048 \
		-artifact_prefix="${fuzz_work[$h]}/" "${fuzz_work[$h]}" \
		"$top/tests/fuzz/corpus/$h" >"${fuzz_work[$h]}.log" 2>&1 &
	fuzz_pid[$h]=$!
done
for h in "${harnesses[@]}"; do
	[ -n "${fuzz_pid[$h]:-}" ] || { lines+=("fuzz $h: not built"); total_fail=$((total_fail + 1)); continue; }
	work=${fuzz_work[$h]}
	if wait "${fuzz_pid[$h]}"; then
		lines+=("fuzz $h: $(grep -o 'Done [0-9]* runs' "$work.log") in $fuzz_time s, 1 passed, 0 failed")
		total_pass=$((total_pass + 1))
		rm -rf "$work" "$work.log"
	else
		tail -40 "$work.log"
		lines+=("fuzz $h: FAILED (crash input left in $work/)")
		total_fail=$((total_fail + 1))
	fi
done
part_done fuzz

# Planted bugs (tests/mutants/mutants.txt), one at a time in a scratch
# copy, each of which the native suites must notice: about 5 minutes here.
if [ -f "$top/tests/mutants/run-mutants.py" ]; then
	log=$(mktemp)
	python3 "$top/tests/mutants/run-mutants.py" 2>&1 | tee "$log"
	read -r k s < <(awk '/^[0-9]+ killed, [0-9]+ survived$/ {print $1, $3}' "$log" | tail -1)
	[ -z "${k:-}" ] && { k=0; s=1; }
	lines+=("mutants: $k passed, $s failed (killed, survived)")
	total_pass=$((total_pass + k)); total_fail=$((total_fail + s))
	rm -f "$log"
	part_done mutants
fi

if [ -x "$top/tests/cross/run-cross.sh" ] || [ -f "$top/tests/cross/run-cross.sh" ]; then
	log=$(mktemp)
	bash "$top/tests/cross/run-cross.sh" | tee "$log"
	read -r p f < <(awk '/^[0-9]+ passed, [0-9]+ failed$/ {print $1, $3}' "$log" | tail -1)
	[ -z "${p:-}" ] && { p=0; f=1; }
	lines+=("cross: $p passed, $f failed")
	total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
	rm -f "$log"
	part_done cross
fi

# The kernel series, on Linux 6.1 and 6.12, booted in QEMU for x86_64 and
# i386, then the mutation (about 11 minutes a kernel from nothing, about two
# minutes for both when the cache is warm).
if [ -x "$top/kernel/run-kunit.sh" ] && [ "${LKH_SKIP_KERNEL:-0}" != 1 ]; then
	log=$(mktemp)
	bash "$top/kernel/run-kunit.sh" 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	read -r p f < <(awk '/^kernel: [0-9]+ passed, [0-9]+ failed$/ {p += $2; f += $4}
		END {print p + 0, f + 0}' "$log")
	if [ "$status" != 0 ] && [ "$f" = 0 ]; then f=1; fi
	lines+=("kernel: $p passed, $f failed")
	total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
	rm -f "$log"
	part_done kernel
fi

echo
echo "time by part:"
for t in "${times[@]}"; do echo "  $t"; done
printf '  %-16s %5d s\n' total $(($(date +%s) - run_start))
echo
for l in "${lines[@]}"; do echo "$l"; done
echo "$total_pass passed, $total_fail failed$(skipped_note "$total_skip")"
[ "$total_fail" = 0 ]
