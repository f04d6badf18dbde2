#!/bin/bash
# SPDX-License-Identifier: MIT
# The futex story of bench/FINDINGS.md (issue 38): the same futex words
# through the 2016 private hash under the old hash_long and under the
# fix, today's global table and 6.16's private one, priced as locks:
# the other futexes a waiter meets on its bucket's lock, and that over a
# random function's at the same load.  Prints the markdown table
# FINDINGS.md holds (tests/test_futex.sh compares them).
#
# Usage: bench/futex-story.sh KHASH_BENCH [KEYS_DIR]
set -euo pipefail
kb=$1
keys=${2:-$(dirname "$0")/../tests/data/futex-keys}

# cell TABLE GEN BITS SOURCE...: "others met (x random)" of one skew run
cell() {
	local t=$1 g=$2 b=$3
	shift 3
	"$kb" skew --table "$t" --gen "$g" --bits "$b" --word 64 --format csv "$@" |
		awk -F, 'NR == 2 { printf "%.3g (%.2fx)", $23, $24 }'
}

echo "| keys (x86_64) | n | 2016, old \`hash_long\`, 2^8 | 2016, fixed, 2^8 | 6.12 global, 2^11 | 6.16 private, 16 | 6.16 private, 2^10 |"
echo "|---|---|---|---|---|---|---|"
row() { # LABEL N SOURCE...
	local label=$1 n=$2 old2016 new2016 global p16 p1024
	shift 2
	# one assignment each, so that a run that fails stops the script
	old2016=$(cell futex-2016-private old 8 "$@")
	new2016=$(cell futex-2016-private new 8 "$@")
	global=$(cell futex-global new 11 "$@")
	p16=$(cell futex-6.16-private new 4 "$@")
	p1024=$(cell futex-6.16-private new 10 "$@")
	echo "| $label | $n | $old2016 | $new2016 | $global | $p16 | $p1024 |"
}
row "threads' tid words (\`futex-thread\`)" 256 --keyset futex-thread --count 256
row "\`pthread_mutex_t\` array (\`futex-mutex\`)" 1024 --keyset futex-mutex --count 1024
row "\`pthread_cond_t\` array (\`futex-cond\`)" 1024 --keyset futex-cond --count 1024
for f in "$keys"/*.txt.xz; do
	n=$(xz -dc "$f" | grep -vc '^#')
	row "$(basename "$f" .txt.xz) (strace)" "$n" --keys "$f"
done
