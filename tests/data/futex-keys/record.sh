#!/bin/sh
# SPDX-License-Identifier: MIT
# Records the futex words of real multi-threaded Debian programs: the
# uaddr (first argument) of every futex call strace sees, one program a
# file, sorted and unique, as khash-bench key files (xz).  Addresses vary
# run to run (ASLR); the committed files are one run.  Usage:
#   sh tests/data/futex-keys/record.sh OUTDIR
set -eu
out=${1:?usage: record.sh OUTDIR}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 32 MiB of compressible input: the same bytes for every compressor
/usr/bin/python3 -c 'import random, sys
r = random.Random(38)
words = [bytes(r.choice(b"abcdefghij") for _ in range(r.randint(2, 9))) for _ in range(5000)]
sys.stdout.buffer.write(b" ".join(r.choice(words) for _ in range(9000000)))' | head -c 33554432 >"$work/in"

trace() { # NAME COMMAND...: the futex words COMMAND's threads passed
	name=$1
	shift
	strace -f -qq -e trace=futex -o "$work/$name.strace" "$@" >/dev/null
	{
		echo "# futex uaddr of $name (README.md), strace -f -e trace=futex"
		echo "# $(uname -m), $(date -u +%Y-%m-%d)"
		sed -n 's/^\(\[pid *[0-9]*\] \)\{0,1\}[0-9]* *futex(\(0x[0-9a-f]*\),.*/\2/p' "$work/$name.strace" |
			sort -u
	} | xz -9 >"$out/$name.txt.xz"
	echo "$name: $(xz -dc "$out/$name.txt.xz" | grep -vc '^#') addresses"
}

trace xz-T4 xz -T4 -6 -c "$work/in"
trace zstd-T4 zstd -T4 -3 -c "$work/in"
trace java-version java -Xshare:off -version
trace node-pbkdf2 node -e '
const c = require("crypto");
for (let i = 0; i < 64; i++) c.pbkdf2("pw" + i, "salt", 20000, 32, "sha256", () => {});
'
trace python3-threads /usr/bin/python3 -c '
import threading, queue
q = queue.Queue()
locks = [threading.Lock() for _ in range(512)]
conds = [threading.Condition() for _ in range(64)]
def work(n):
    for i in range(2000):
        with locks[(n * 7 + i) % 512]:
            q.put(i)
        if i % 50 == 0:
            with conds[n % 64]:
                conds[n % 64].notify_all()
ts = [threading.Thread(target=work, args=(n,)) for n in range(256)]
[t.start() for t in ts]
[t.join() for t in ts]
while not q.empty():
    q.get()
'
