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
# CI starts from a fresh machine every time, so ccache (which meson and the
# kernel build use when it is installed) only ever misses there, and a miss
# costs more than a plain compile (ccache runs the preprocessor to look up
# the object first).
[ "${CI:-}" = true ] && export CCACHE_DISABLE=1
total_pass=0 total_fail=0 total_skip=0
declare -a lines times
run_start=$(date +%s) part_start=$run_start
bash "$top/tests/install-deps.sh" clang libclang-rt-14-dev libhts-dev groff-base mandoc shellcheck || exit 1

# part_done NAME: the seconds since the previous part ended, for the table
# of times at the end (cold and warm totals are in tests/README.md).
part_done() {
	local now
	now=$(date +%s)
	times+=("$(printf '%-16s %5d s' "$1" $((now - part_start)))")
	part_start=$now
}

# The kernel series (Linux 6.1 and 6.12, booted in QEMU for x86_64 and i386,
# then the mutation) runs beside the other suites: from nothing it is about
# 20 minutes of compiling, and the suites here leave one core free for long
# stretches (a planted bug rebuilds one file and runs one test; a QEMU boot
# or a link takes one core).  Its packages come first, in the foreground, so
# that no two apt-get run at once; its output is kept and shown at the end.
kernel_pid='' kernel_log=''
if [ -f "$top/kernel/run-kunit.sh" ] && [ "${LKH_SKIP_KERNEL:-0}" != 1 ]; then
	kernel_log=$(mktemp)
	if bash "$top/kernel/run-kunit.sh" --install >"$kernel_log" 2>&1; then
		kernel_start=$(date +%s)
		# its own process group, so that an interrupted run stops its
		# make and QEMU too
		setsid bash "$top/kernel/run-kunit.sh" >"$kernel_log" 2>&1 &
		kernel_pid=$!
		trap 'kill -- -"$kernel_pid" 2>/dev/null; exit 130' INT TERM
	fi
fi
part_done install

# skipped_note N: ", N skipped" when N > 0, so a run with none keeps the
# plain "N passed, N failed".
skipped_note() { [ "$1" != 0 ] && printf ', %s skipped' "$1"; }

# run_meson NAME SETUP-ARGS...: configure, build, meson test; tally.
# SOURCE_DIR builds another tree than this one (the unpacked tarball).
run_meson() {
	local name=$1 dir=$root/$1 log
	shift
	log=$(mktemp)
	if [ ! -f "$dir/build.ninja" ]; then
		if ! meson setup "$dir" "${SOURCE_DIR:-$top}" --werror "$@" >"$log" 2>&1; then
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

fail_before=$total_fail
run_meson gcc-auto
# The mutation harness and the cross runs' native build are gcc-auto's
# configuration again: when its whole suite passed here, they build it
# but do not run that suite a second time.
[ "$total_fail" = "$fail_before" ] && export LKH_NATIVE_SUITE_PASSED=1
part_done gcc-auto

# The release tarball: meson dist archives the committed tree (git archive);
# the tarball is then unpacked, configured, built, installed and tested as a
# user would, outside any git checkout.  Its files are the committed ones,
# which gcc-auto has just tested in a clean clone (CI's), so what is left to
# see is what a tarball changes: the library's and the build's suites
# (headers alone, exports, ABI, the installed library in use).
# meson refuses uncommitted changes to tracked files; a run on a work in
# progress uses --allow-dirty and says so, since that tarball holds HEAD
# without those changes.
run_dist() {
	local log args=() note='' tarball
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
	if ! meson dist -C "$root/gcc-auto" --no-tests "${args[@]}" >"$log" 2>&1 ||
		! tarball=$(sed -n 's/^Created \(.*\/libkhash-[0-9][0-9.]*\.tar\.xz\)$/\1/p' "$log") ||
		[ ! -f "$tarball" ]; then
		tail -60 "$log"; rm -f "$log"
		lines+=("dist: FAILED$note")
		total_fail=$((total_fail + 1))
		return
	fi
	rm -rf "$root/dist-src" "$root/dist" "$log"
	mkdir -p "$root/dist-src"
	tar -xJf "$tarball" -C "$root/dist-src" --strip-components=1
	SOURCE_DIR=$root/dist-src TEST_ARGS="--suite unit --suite build" run_meson dist
	lines[-1]+=$note
}
run_dist
part_done dist
# BITS_PER_LONG forced to each word size.  khash-bench's default word is
# the library's, so its suites run again where that differs from gcc-auto;
# where it is the machine's own (64 on x86_64), the build is gcc-auto's with
# the value fixed in lkh_config.h, and only the library's and the build's
# suites, the ones that read that header, have something new to see.
native_bpl=$(getconf LONG_BIT)
for bpl in 32 64; do
	if [ "$bpl" = "$native_bpl" ]; then
		TEST_ARGS="--no-suite bench --no-suite data" run_meson "gcc-bpl$bpl" -Dbits_per_long="$bpl"
	else
		run_meson "gcc-bpl$bpl" -Dbits_per_long="$bpl"
	fi
done
CC=clang CXX=clang++ run_meson clang-auto
part_done 'bpl32 bpl64 clang'
# AddressSanitizer + UBSan, any report fatal.  Every suite runs; the install
# check skips itself (its consumer programs have no sanitizer runtime).
EXPECT_SKIP=1 TIMEOUT_MULTIPLIER=10 run_meson gcc-asan-ubsan -Db_sanitize=address,undefined -Db_ndebug=false \
	-Dc_args=-fno-sanitize-recover=all -Dcpp_args=-fno-sanitize-recover=all
part_done asan-ubsan

# Planted bugs (tests/mutants/mutants.txt), each in a scratch copy, which
# the native suites must notice.  A planted bug is a one-file rebuild and
# one test, mostly one core: the harness runs beside the fuzzers (whose time
# is fixed, so what it takes from them costs no time), the cross runs and
# the kernel, in two scratch trees so that both cores work once those end
# (times in tests/README.md); its output is shown after theirs.
mutants_pid='' mutants_log=''
if [ -f "$top/tests/mutants/run-mutants.py" ]; then
	mutants_log=$(mktemp)
	mutants_start=$(date +%s)
	setsid python3 "$top/tests/mutants/run-mutants.py" --jobs "${LKH_MUTANT_JOBS:-2}" \
		>"$mutants_log" 2>&1 &
	mutants_pid=$!
	trap 'kill -- -"$mutants_pid" 2>/dev/null; [ -n "$kernel_pid" ] && kill -- -"$kernel_pid" 2>/dev/null; exit 130' INT TERM
fi

# Coverage-guided fuzzing of everything that reads untrusted input: the
# corpus replays as a test, then each harness runs for a bounded time.
TEST_ARGS="--suite fuzz" TIMEOUT_MULTIPLIER=10 CC=clang CXX=clang++ run_meson clang-fuzz -Dfuzzing=true \
	-Db_sanitize=address,undefined -Db_lundef=false \
	-Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all"
# The harnesses run side by side, each for long enough to get the CPU time
# of FUZZ_SECONDS (default 60) on one core of its own: on 2 cores, 180 s for
# the six instead of 360 s one after the other.
harnesses=(keyfile cli_args census_file atlas_file user_call scan_line)
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

if [ -n "$mutants_log" ]; then
	wait "$mutants_pid"
	mutants_took=$(($(date +%s) - mutants_start))
	cat "$mutants_log"
	read -r k s < <(awk '/^[0-9]+ killed, [0-9]+ survived$/ {print $1, $3}' "$mutants_log" | tail -1)
	[ -z "${k:-}" ] && { k=0; s=1; }
	lines+=("mutants: $k passed, $s failed (killed, survived)")
	total_pass=$((total_pass + k)); total_fail=$((total_fail + s))
	rm -f "$mutants_log"
	part_done 'mutants (rest)'
	times+=("$(printf '%-16s %5d s, beside fuzz and cross' mutants "$mutants_took")")
fi

# The kernel series started after the install: wait for it, show what it
# printed, and count its results.
if [ -n "$kernel_log" ]; then
	status=1
	if [ -n "$kernel_pid" ]; then
		wait "$kernel_pid"
		status=$?
		# its own time ("done in N s"), not when it was waited for
		kernel_took=$(sed -n 's/.*\] done in \([0-9]*\) s$/\1/p' "$kernel_log" | tail -1)
		[ -n "$kernel_took" ] || kernel_took=$(($(date +%s) - kernel_start))
	fi
	cat "$kernel_log"
	read -r p f < <(awk '/^kernel: [0-9]+ passed, [0-9]+ failed$/ {p += $2; f += $4}
		END {print p + 0, f + 0}' "$kernel_log")
	if [ "$status" != 0 ] && [ "$f" = 0 ]; then f=1; fi
	lines+=("kernel: $p passed, $f failed")
	total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
	rm -f "$kernel_log"
	part_done 'kernel (rest)'
	[ -n "$kernel_pid" ] &&
		times+=("$(printf '%-16s %5d s of its own, beside the parts above' kernel "$kernel_took")")
fi

echo
echo "time by part:"
for t in "${times[@]}"; do echo "  $t"; done
printf '  %-16s %5d s\n' total $(($(date +%s) - run_start))
echo
for l in "${lines[@]}"; do echo "$l"; done
echo "$total_pass passed, $total_fail failed$(skipped_note "$total_skip")"
[ "$total_fail" = 0 ]
