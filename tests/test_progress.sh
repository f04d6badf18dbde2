#!/bin/bash
# SPDX-License-Identifier: MIT
# Progress of long work: on a terminal (a pseudo-terminal from script(1))
# a line "done / total unit (%), rate/s, time left" is drawn with \r and
# wiped at the end; with --quiet, or when standard error is not a
# terminal, not a byte; the results on standard output are the same in
# every case.  The work is sized on this machine to last ~2.5 s.
set -u
kb=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"
command -v script >/dev/null || { echo "SKIP: no script(1) for a terminal"; exit 77; }

# sampled influence on one thread: no closed form, a steady rate
job() { "$kb" influence --func hash_64 --gen new --bits 10 --threads 1 --count "$n" "$@"; }
n=65536
while :; do
	s=$(date +%s%N)
	job --quiet >/dev/null
	ms=$((($(date +%s%N) - s) / 1000000))
	[ "$ms" -ge 600 ] && break
	n=$((n * 2))
done
n=$((n * 2500 / ms + 1))

# a terminal for stderr (script's typescript), stdout to a file
script -qec "$kb influence --func hash_64 --gen new --bits 10 --threads 1 --count $n >$tmp/tty.out" /dev/null >"$tmp/tty.err" </dev/null
check "a terminal shows progress" "$(grep -c 'keys (.*%), .*/s, .* left' "$tmp/tty.err" >/dev/null; echo $?)"
check "redrawn in place with \\r" "$(grep -q $'\r' "$tmp/tty.err"; echo $?)"
check "wiped at the end" "$(tail -c 8 "$tmp/tty.err" | grep -q $'\r\033\\[K'; echo $?)"
total=$(grep -o '/ [0-9.]* [kMG]* *keys' "$tmp/tty.err" | head -1)
check "the total is the sample count ($total)" "$([ -n "$total" ]; echo $?)"

script -qec "$kb influence --func hash_64 --gen new --bits 10 --threads 1 --count $n --quiet >$tmp/quiet.out" /dev/null >"$tmp/quiet.err" </dev/null
check "--quiet on a terminal: nothing" "$([ ! -s "$tmp/quiet.err" ]; echo $?)"

job >"$tmp/pipe.out" 2>"$tmp/pipe.err"
check "not a terminal: nothing" "$([ ! -s "$tmp/pipe.err" ]; echo $?)"
check "same results on a terminal" "$(cmp -s "$tmp/tty.out" "$tmp/pipe.out"; echo $?)"
check "same results with --quiet" "$(cmp -s "$tmp/quiet.out" "$tmp/pipe.out"; echo $?)"

# short work prints nothing even on a terminal
script -qec "$kb skew --keyset page4k --func hash_64 --gen new --bits 11 >/dev/null" /dev/null >"$tmp/short.err" </dev/null
check "short work on a terminal: nothing" "$([ ! -s "$tmp/short.err" ]; echo $?)"

echo "progress: $passed passed, $failed failed (work of $n samples)"
[ "$failed" = 0 ]
