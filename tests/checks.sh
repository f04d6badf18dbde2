# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2154 # tmp and kb are the sourcing test's
# Sourced by the shell tests: check NAME RESULT counts a result (0 passes)
# and names every failure; the caller prints the tally and exits by it.
# LKH_FAIL_FAST=1 (the mutation harness) stops at the first failure: one
# is enough to kill a mutant, and the rest of a slow script is wasted.
passed=0 failed=0
count_failure() {
	failed=$((failed + 1))
	[ "${LKH_FAIL_FAST:-}" = 1 ] && exit 1
	return 0
}
# has GREP_ARGS...: grep -q that reads all its input, so that under
# pipefail the command feeding it never dies of SIGPIPE for an early match
has() { grep "$@" >/dev/null; }
check() { # name, condition result
	if [ "$2" = 0 ]; then passed=$((passed + 1)); else
		echo "FAIL: $1"; count_failure; fi
}
# expect STATUS MESSAGE ARGS...: khash-bench ($kb) ARGS... with no input
# exits STATUS with exactly MESSAGE on stderr and nothing on stdout, within
# EXPECT_SECONDS (default 60: a regression fails, never hangs).
expect() {
	local want_status=$1 want_msg=$2 err status
	shift 2
	timeout "${EXPECT_SECONDS:-60}" "$kb" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	err=$(cat "$tmp/err")
	if [ "$status" != "$want_status" ] || [ "$err" != "$want_msg" ] || [ -s "$tmp/out" ]; then
		echo "FAIL: khash-bench $*"
		echo "  status $status (want $want_status)"
		echo "  stderr: $err"
		echo "  wanted: $want_msg"
		count_failure
	else
		passed=$((passed + 1))
	fi
}
# refused WHAT STATUS WANT_STATUS WANT_MESSAGE: the run that wrote
# $tmp/err (and was told -o $tmp/out) exited WANT_STATUS with exactly
# WANT_MESSAGE on stderr, leaving neither its -o file nor a temporary
refused() {
	local err
	err=$(cat "$tmp/err")
	if [ "$2" != "$3" ] || [ "$err" != "$4" ] || [ -e "$tmp/out" ] ||
	   [ -n "$(find "$tmp" -name '*.tmp.*')" ]; then
		echo "FAIL: $1"
		echo "  status $2 (want $3)"
		echo "  stderr: $err"
		echo "  wanted: $4"
		count_failure
		return 1
	fi
	passed=$((passed + 1))
}
# refuses STATUS MESSAGE COMMAND ARGS...: khash-bench ($kb) COMMAND -o
# $tmp/out ARGS..., with no input, is refused as refused() checks
refuses() {
	local want_status=$1 want_msg=$2 cmd=$3
	shift 3
	rm -f "$tmp/out"
	"$kb" "$cmd" -o "$tmp/out" "$@" >/dev/null 2>"$tmp/err" </dev/null
	refused "khash-bench $cmd $*" $? "$want_status" "$want_msg"
}
# doc_rows DOC MARKER: the table rows ('|' lines) a document holds between
# <!-- MARKER: ... --> and <!-- /MARKER -->
doc_rows() { sed -n "/^<!-- $2:/,/^<!-- \/$2 -->/p" "$1" | grep '^|'; }
# rows_within WHAT PART WHOLE: every line of file PART (3 or more) is a
# line of file WHOLE: a document's short table cut from a command's
rows_within() {
	[ "$(wc -l <"$2")" -ge 3 ] && ! grep -vxFf "$3" "$2" >"$tmp/rows_within.out"
	check "$1" $?
	[ -s "$tmp/rows_within.out" ] && sed 's/^/  not in the command'"'"'s table: /' "$tmp/rows_within.out"
	return 0
}

# user_hash_setup: for the tests that compile a user's function: $gallery
# (tests/gallery), a $tmp removed at exit, and $TMPDIR an empty folder in
# it, where the compiles' scratch must not stay.
user_hash_setup() {
	# shellcheck disable=SC2034 # the caller's
	gallery=$(cd "$(dirname "$0")/gallery" && pwd)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	export TMPDIR=$tmp/scratch
	mkdir "$TMPDIR"
}
