#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Cross runs under qemu-user: build libkhash for 32/64-bit, little/big-endian
# targets with Debian's cross compilers, run the cmocka suites under
# qemu-user-static, and (when khash-bench is in the tree) check that its
# output is byte-identical to the native run.
#
#   tests/cross/run-cross.sh [TARGET...]     (default: every target)
#
# Prints one line per target, "TARGET: N passed, N failed", then a last line
# "N passed, N failed" over all of them; exits non-zero if anything failed or
# a target could not be built.  Missing Debian packages are installed with
# apt-get (run as root on Debian 12).  Build trees live under $BUILD_ROOT
# (default $LKH_BUILD_ROOT/cross if that is set, else
# ~/.cache/libkhash/cross), never in the source tree; logs too.
#
# Environment: BUILD_ROOT, JOBS (default 2: parallel compile jobs and test
# processes), TIMEOUT_MULTIPLIER (default 10, for meson test: emulation is
# slow).  One target failing does not stop the others.
set -uo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CROSS_DIR=$SRC/tests/cross
# Build trees: $BUILD_ROOT, else $LKH_BUILD_ROOT/cross (tests/run-all.sh's
# root), else the user's cache folder.
if [ -z "${BUILD_ROOT:-}" ] && [ -n "${LKH_BUILD_ROOT:-}" ]; then
	BUILD_ROOT=$LKH_BUILD_ROOT/cross
fi
BUILD_ROOT=${BUILD_ROOT:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/libkhash/cross}
JOBS=${JOBS:-2}

# name -> cross file (tests/cross/<file>.ini) and extra meson options.  The
# -bplNN targets force the bits_per_long switch to the other word size: the
# unit suite then checks that the drop-in header follows the forced size and
# matches the explicit _w32/_w64 entry points, and that
# lkh_bits_per_long() reports the forced value.  They build the library and
# its suite only: khash-bench with a forced word is run-all's gcc-bpl32 and
# gcc-bpl64 natively, and the same arch's own target runs it emulated.
ALL_TARGETS=(i686 armhf aarch64 s390x powerpc
             aarch64-bpl32 i686-bpl64 s390x-bpl32 powerpc-bpl64)

target_ini() { echo "${1%-bpl*}"; }
target_opts() {
	case $1 in
	*-bpl32) echo "-Dbits_per_long=32 -Dbench=disabled" ;;
	*-bpl64) echo "-Dbits_per_long=64 -Dbench=disabled" ;;
	esac
}
# whether a target builds khash-bench (its smoke run and man page)
target_has_bench() { case $1 in *-bpl*) return 1 ;; esac; }
# Debian's names for each cross file's toolchain: gcc triplet and the
# architecture of its libc6-dev-<arch>-cross package.
ini_triplet() {
	case $1 in
	i686) echo i686-linux-gnu ;; armhf) echo arm-linux-gnueabihf ;;
	aarch64) echo aarch64-linux-gnu ;; s390x) echo s390x-linux-gnu ;;
	powerpc) echo powerpc-linux-gnu ;;
	esac
}
ini_debarch() {
	case $1 in
	i686) echo i386 ;; armhf) echo armhf ;; aarch64) echo arm64 ;;
	s390x) echo s390x ;; powerpc) echo powerpc ;;
	esac
}
# The cross file's exe_wrapper (emulator and its arguments), as words.
ini_wrapper() {
	sed -n "s/^exe_wrapper = \[\(.*\)\]/\1/p" "$CROSS_DIR/$1.ini" |
		tr -d "'" | sed 's/, */ /g'
}

note() { echo "# $*" >&2; }

if [ $# -gt 0 ]; then
	TARGETS=("$@")
else
	TARGETS=("${ALL_TARGETS[@]}")
fi
for t in "${TARGETS[@]}"; do
	if [ ! -f "$CROSS_DIR/$(target_ini "$t").ini" ]; then
		echo "unknown target: $t (known: ${ALL_TARGETS[*]})" >&2
		exit 2
	fi
done

mkdir -p "$BUILD_ROOT"
LOG_DIR=$BUILD_ROOT/logs
mkdir -p "$LOG_DIR"

# ---------------------------------------------------------------- packages
ensure_packages() {
	local pkgs=(meson ninja-build pkgconf gcc libc6-dev libcmocka-dev
		    dpkg-dev xz-utils qemu-user-static perl-base)
	local t ini missing=() p
	for t in "${TARGETS[@]}"; do
		ini=$(target_ini "$t")
		pkgs+=("gcc-$(ini_triplet "$ini")"
		       "libc6-dev-$(ini_debarch "$ini")-cross")
	done
	for p in $(printf '%s\n' "${pkgs[@]}" | sort -u); do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	note "installing: ${missing[*]}"
	local sudo=
	[ "$(id -u)" -ne 0 ] && sudo=sudo
	# a mirror in the middle of a sync fails one index ("File has
	# unexpected size"): go on with the lists there are; the install
	# itself still has to succeed
	{
		$sudo apt-get update || echo "apt-get update failed; going on with the lists there are"
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y \
			--no-install-recommends "${missing[@]}"
	} >"$LOG_DIR/apt-install.log" 2>&1 || {
		echo "apt-get install failed, see $LOG_DIR/apt-install.log" >&2
		tail -20 "$LOG_DIR/apt-install.log" >&2
		return 1
	}
}

# ------------------------------------------------------------ cmocka source
# Debian 12 has multiarch libcmocka-dev for i386, armhf, arm64 and s390x but
# not for powerpc (not a release architecture).  Rather than mix the two
# ways, every foreign target uses Debian's cmocka *source* package, built
# here as one static library with our own meson.build: uniform across
# targets, static (so a test program under qemu-user never loads a
# multiarch libc next to the cross libc: mixing them made s390x abort with
# a stack-smashing report), and no multiarch dpkg setup on the machine.
# The source is fetched with apt-get through a private deb-src list and
# private package lists under $BUILD_ROOT, so the machine's apt
# configuration is left as it was.  It is never copied into the clone.
CMOCKA_SRC=$BUILD_ROOT/cmocka-src

debian_mirror() {
	local uri=
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		uri=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' \
			/etc/apt/sources.list.d/debian.sources)
	fi
	if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
		uri=$(awk '$1 == "deb" && $0 !~ /security/ {
			for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
			/etc/apt/sources.list)
	fi
	echo "${uri:-http://deb.debian.org/debian}"
}

fetch_cmocka() {
	[ -f "$CMOCKA_SRC/src/cmocka.c" ] && return 0
	local apt_dir=$BUILD_ROOT/apt codename work
	# shellcheck source=/dev/null
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
	mkdir -p "$apt_dir/lists/partial"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) $codename main" \
		>"$apt_dir/sources.list"
	local aptopts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
		       -o "Dir::Etc::SourceParts=$apt_dir/none"
		       -o "Dir::State::Lists=$apt_dir/lists"
		       -o "APT::Sandbox::User=root")
	work=$(mktemp -d "$BUILD_ROOT/cmocka-fetch.XXXXXX")
	{
		apt-get "${aptopts[@]}" update &&
		(cd "$work" && apt-get "${aptopts[@]}" source --download-only cmocka) &&
		(cd "$work" && dpkg-source -x cmocka_*.dsc src)
	} >"$LOG_DIR/cmocka-fetch.log" 2>&1 || {
		echo "could not fetch Debian's cmocka source, see $LOG_DIR/cmocka-fetch.log" >&2
		tail -20 "$LOG_DIR/cmocka-fetch.log" >&2
		rm -rf "$work"
		return 1
	}
	rm -rf "$CMOCKA_SRC"
	mv "$work/src" "$CMOCKA_SRC"
	rm -rf "$work"
}

# Static cmocka for one cross file, installed into a private prefix.
build_cmocka() {
	local ini=$1 dir=$BUILD_ROOT/cmocka-$1
	local prefix=$dir/prefix log=$LOG_DIR/cmocka-$1.log
	if [ -f "$prefix/lib/pkgconfig/cmocka.pc" ] &&
	   cmp -s "$CROSS_DIR/cmocka/meson.build" "$dir/src/meson.build" &&
	   cmp -s "$CROSS_DIR/cmocka/meson_options.txt" "$dir/src/meson_options.txt"; then
		return 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -a "$CMOCKA_SRC" "$dir/src"
	cp "$CROSS_DIR/cmocka/meson.build" "$CROSS_DIR/cmocka/meson_options.txt" \
		"$dir/src/"
	{
		meson setup "$dir/build" "$dir/src" \
			--cross-file "$CROSS_DIR/$ini.ini" \
			--prefix "$prefix" --libdir lib \
			--buildtype debugoptimized --default-library static &&
		meson compile -C "$dir/build" -j "$JOBS" &&
		meson install -C "$dir/build" --no-rebuild
	} >"$log" 2>&1
}

# ------------------------------------------------------------ khash-bench
# The smoke run: fixed khash-bench invocations whose output must be
# byte-identical on every target to the native run's.  Only when the tree
# has bench/ with a khash-bench program (its meson target); otherwise the
# step is skipped and said so.
SMOKE_KEYS=$CROSS_DIR/smoke/keys.txt
SMOKE_KEYS_BIN=$BUILD_ROOT/smoke-keys.bin

# One line per invocation: a name, then khash-bench's arguments.  @KEYS@
# and @KEYS_BIN@ stand for the text and binary key files.
smoke_commands() {
	cat "$CROSS_DIR/smoke/commands.txt"
}

bench_exe() { # build dir -> path of khash-bench, or nothing
	local exe
	for exe in "$1/bench/khash-bench" "$1/khash-bench"; do
		[ -x "$exe" ] && { echo "$exe"; return 0; }
	done
	return 1
}

# The binary key file, written on the host from the text one: each key as a
# little-endian u64 (perl's Q< is little-endian whatever the host).  Every
# target reads this same file, written on this machine's architecture.
write_binary_keys() {
	perl -ne 's/#.*//; next unless /\S/; s/\s+//g;
		$v = /^0[xX]/ ? hex($_) : $_;
		print pack("Q<", $v)' "$SMOKE_KEYS" >"$SMOKE_KEYS_BIN"
}

# run_smoke BUILD_DIR OUT_DIR [WRAPPER...] -> fills OUT_DIR/<name>.out
run_smoke() {
	local build=$1 out=$2; shift 2
	local exe name args status=0
	exe=$(bench_exe "$build") || return 1
	rm -rf "$out"; mkdir -p "$out"
	while read -r name args; do
		case $name in ''|'#'*) continue ;; esac
		args=${args//@KEYS@/$SMOKE_KEYS}
		args=${args//@KEYS_BIN@/$SMOKE_KEYS_BIN}
		# shellcheck disable=SC2086 # args is a word list by design
		"$@" "$exe" $args >"$out/$name.out" 2>"$out/$name.err" ||
			echo "exit status $?" >>"$out/$name.out"
	done < <(smoke_commands)
	return $status
}

# compare_smoke REF_DIR OUT_DIR -> prints "passed failed"
compare_smoke() {
	local ref=$1 out=$2 f name pass=0 fail=0
	for f in "$ref"/*.out; do
		name=$(basename "$f")
		if cmp -s "$f" "$out/$name"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			{
				echo "smoke ${name%.out}: output differs from native"
				diff "$f" "$out/$name" | head -20
			} >>"$out/DIFFS"
		fi
	done
	echo "$pass $fail"
}

# compare_twins OUT_DIR -> "passed failed": each NAME-bin.out against
# NAME-txt.out, the same keys read from the binary and the text file.
compare_twins() {
	local out=$1 f pass=0 fail=0
	for f in "$out"/*-bin.out; do
		[ -e "$f" ] || continue
		if cmp -s "$f" "${f%-bin.out}-txt.out"; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			{
				echo "smoke $(basename "${f%-bin.out}"): binary keys differ from text keys"
				diff "${f%-bin.out}-txt.out" "$f" | head -20
			} >>"$out/DIFFS"
		fi
	done
	echo "$pass $fail"
}

# ------------------------------------------------------------ test counts
# Counts from meson's testlog.json: OK and EXPECTEDFAIL pass; FAIL, ERROR,
# TIMEOUT and UNEXPECTEDPASS fail; SKIP is neither.
count_results() { # build dir -> "passed failed"
	local json=$1/meson-logs/testlog.json pass fail
	if [ ! -f "$json" ]; then
		echo "0 1"
		return
	fi
	pass=$(grep -Ec '"result": "(OK|EXPECTEDFAIL)"' "$json")
	fail=$(grep -Ec '"result": "(FAIL|ERROR|TIMEOUT|UNEXPECTEDPASS)"' "$json")
	# A build whose suite ran nothing (cmocka lost, tests disabled) fails.
	[ "$pass" -eq 0 ] && fail=$((fail + 1))
	echo "$pass $fail"
}

# How many cmocka test cases passed in a build's last meson test run.
count_cases() {
	grep -o 'PASSED  \] [0-9]* test' "$1/meson-logs/testlog.txt" 2>/dev/null |
		awk '{ n += $3 } END { print n + 0 }'
}

# build_and_test NAME BUILD_DIR LOG [meson setup args...]
build_and_test() {
	local name=$1 build=$2 log=$3; shift 3
	# A tree configured from another clone (CI clones afresh into a new
	# folder) is started over rather than reconfigured.
	if [ -d "$build" ] && [ "$(cat "$build/.lkh-source" 2>/dev/null)" != "$SRC" ]; then
		rm -rf "$build"
	fi
	mkdir -p "$build"
	echo "$SRC" >"$build/.lkh-source"
	{
		# --werror as in tests/run-all.sh: a 32-bit or big-endian
		# compiler's warnings (printf formats of 64-bit values, say)
		# fail the target.
		if [ -f "$build/meson-private/coredata.dat" ]; then
			meson setup --reconfigure "$build" "$SRC" --werror "$@"
		else
			meson setup "$build" "$SRC" --werror "$@"
		fi &&
		meson compile -C "$build" -j "$JOBS"
	} >"$log" 2>&1 || return 1
	rm -f "$build/meson-logs/testlog.json"
	[ "${SKIP_SUITE:-0}" = 1 ] && return 0
	# Under qemu-user a program runs several times slower than natively
	# (the engine test: 4 s native, up to 30 s emulated on a busy
	# machine), so the suites' own timeouts are stretched.
	MESON_TESTTHREADS=$JOBS meson test -C "$build" --no-rebuild \
		--timeout-multiplier "${TIMEOUT_MULTIPLIER:-10}" \
		--print-errorlogs >>"$log" 2>&1
	return 0
}

TOTAL_PASS=0
TOTAL_FAIL=0
report() { # name passed failed [note]
	echo "$1: $2 passed, $3 failed${4:+ ($4)}"
	TOTAL_PASS=$((TOTAL_PASS + $2))
	TOTAL_FAIL=$((TOTAL_FAIL + $3))
}

# ------------------------------------------------------------------- main
START=$(date +%s)
# Every build writes the same man page date, so the native and the cross
# pages compare equal even across midnight.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$START}
if ! ensure_packages; then
	echo "0 passed, 1 failed"
	exit 1
fi

# The native build: its own suite (a line like any target's) and the
# reference output of the smoke run.
NATIVE=$BUILD_ROOT/native
rm -rf "$BUILD_ROOT/smoke-native" # never compare against an earlier run's
# Its suite is tests/run-all.sh's gcc-auto, which has just passed when
# LKH_NATIVE_SUITE_PASSED=1: then it is only built, for the reference.
native_suite=1
[ "${LKH_NATIVE_SUITE_PASSED:-0}" = 1 ] && native_suite=0
if SKIP_SUITE=$((1 - native_suite)) build_and_test native "$NATIVE" "$LOG_DIR/native.log" -Dtests=enabled; then
	if [ "$native_suite" = 1 ]; then
		read -r p f < <(count_results "$NATIVE")
		cases="$(count_cases "$NATIVE") cmocka cases passed"
	else
		p=0 f=0 cases="suite: run-all's gcc-auto, passed"
	fi
	smoke_note=
	if bench_exe "$NATIVE" >/dev/null; then
		write_binary_keys
		run_smoke "$NATIVE" "$BUILD_ROOT/smoke-native"
		# The binary key file holds the text file's keys: each *-bin
		# output must equal its *-txt twin (and, below, every target's
		# both must equal these).
		read -r sp sf < <(compare_twins "$BUILD_ROOT/smoke-native")
		# A command that fails natively would fail the same way on
		# every target and compare equal: count it as a failure here.
		nf=0
		for o in "$BUILD_ROOT/smoke-native"/*.out; do
			if [ ! -s "$o" ] || grep -q '^exit status' "$o"; then
				nf=$((nf + 1))
				{
					echo "smoke $(basename "${o%.out}"): failed or printed nothing natively:"
					cat "$o" "${o%.out}.err"
				} >>"$BUILD_ROOT/smoke-native/DIFFS"
			fi
		done
		p=$((p + sp)); f=$((f + sf + nf))
		outs=("$BUILD_ROOT/smoke-native"/*.out)
		smoke_note="smoke reference: ${#outs[@]} outputs, text = binary keys $sp/$((sp + sf))"
		[ "$nf" -gt 0 ] && smoke_note="$smoke_note, $nf failed natively"
		if [ "$((sf + nf))" -gt 0 ]; then
			smoke_note="$smoke_note, see $BUILD_ROOT/smoke-native/DIFFS"
		fi
	else
		smoke_note="no khash-bench in the tree: smoke run skipped"
	fi
	report native "$p" "$f" "$cases, $smoke_note"
else
	report native 0 1 "build failed, see $LOG_DIR/native.log"
fi

if ! fetch_cmocka; then
	for t in "${TARGETS[@]}"; do
		report "$t" 0 1 "no cmocka source"
	done
	echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
	exit 1
fi

for t in "${TARGETS[@]}"; do
	ini=$(target_ini "$t")
	tstart=$(date +%s)
	log=$LOG_DIR/$t.log
	if ! build_cmocka "$ini"; then
		report "$t" 0 1 "cmocka build failed, see $LOG_DIR/cmocka-$ini.log"
		continue
	fi
	overlay=$BUILD_ROOT/cmocka-$ini/pkgconfig.ini
	printf "[properties]\npkg_config_libdir = ['%s']\n" \
		"$BUILD_ROOT/cmocka-$ini/prefix/lib/pkgconfig" >"$overlay"
	build=$BUILD_ROOT/$t
	# shellcheck disable=SC2046 # target_opts is a word list
	if ! build_and_test "$t" "$build" "$log" \
		--cross-file "$CROSS_DIR/$ini.ini" --cross-file "$overlay" \
		-Dtests=enabled -Dcompression=disabled $(target_opts "$t"); then
		report "$t" 0 1 "build failed, see $log"
		continue
	fi
	read -r p f < <(count_results "$build")
	extra="$(count_cases "$build") cmocka cases passed"
	if [ -d "$BUILD_ROOT/smoke-native" ] && target_has_bench "$t"; then
		read -r -a wrapper < <(ini_wrapper "$ini")
		if run_smoke "$build" "$build/smoke" "${wrapper[@]}"; then
			read -r sp sf < <(compare_smoke "$BUILD_ROOT/smoke-native" "$build/smoke")
			p=$((p + sp)); f=$((f + sf))
			extra="$extra, smoke $sp/$((sp + sf)) identical"
			[ "$sf" -gt 0 ] && extra="$extra, see $build/smoke/DIFFS"
		else
			f=$((f + 1)); extra="$extra, khash-bench not built"
		fi
	fi
	# The man page is written at build time by a program built for this
	# machine (native: true): it must exist and equal the native one.
	if [ -f "$NATIVE/bench/khash-bench.1" ] && target_has_bench "$t"; then
		if cmp -s "$NATIVE/bench/khash-bench.1" "$build/bench/khash-bench.1"; then
			p=$((p + 1)); extra="$extra, man page identical"
		else
			f=$((f + 1)); extra="$extra, man page missing or not the native one"
		fi
	fi
	[ "$f" -gt 0 ] && extra="$extra, log $log"
	extra="$extra, $(( $(date +%s) - tstart ))s"
	report "$t" "$p" "$f" "$extra"
done

note "cross runs took $(( $(date +%s) - START ))s, build trees under $BUILD_ROOT"
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]
