#!/bin/bash
# SPDX-License-Identifier: MIT
# khash-bench conform (issue 35): other projects' copies of hash.h
# (tests/gallery, each re-implemented from its formula) judged as a porter
# needs, and every way a user's function can fail: a file that is missing,
# an expression that does not compile, a function that crashes or loops,
# undefined behaviour, a signal during the compile.  Nothing may be left
# in $TMPDIR, whatever happens.  The facts each copy is expected to show
# are computed here from the copies' definitions, not read from conform.
set -uo pipefail
kb=$1
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"
user_hash_setup
no_scratch() { [ -z "$(ls -A "$TMPDIR")" ]; }

# conform FILE EXPR ARGS...: its text in $tmp/out, its status in $status
conform() {
	local f=$1 e=$2
	shift 2
	"$kb" conform --source "$gallery/$f" --call "$e" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
}

# today's hash_64, written from its definition: conforms, on 64-bit, fast
start=$(date +%s%N)
conform new_hash_64.h 'hash_64(x, bits)' --gen new
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$status" = 0 ] && has -x 'conforms to new (--gen new)' "$tmp/out" &&
	has -x '  new      reproduces hash_64 64-bit, hash_long 64-bit, hash_ptr 64-bit' "$tmp/out" &&
	head -1 "$tmp/out" | has '^conform: hash_64 from .*new_hash_64.h' && [ ! -s "$tmp/err" ]
check "a copy of new hash_64 conforms to new (exit 0), and is not degenerate" $?
[ "$took" -lt 5000 ]; check "conform answers in seconds ($took ms; the issue asks under 1 s)" $?
no_scratch; check "nothing left in TMPDIR after a run" $?
conform new_hash_64.h 'hash_64(x, bits)' --gen old
[ "$status" = 1 ] && has -x 'does not conform to old (--gen old)' "$tmp/out"
check "new hash_64 does not conform to old (exit 1)" $?
conform new_hash_64.h 'hash_64(x, bits)' --gen new --word 32
[ "$status" = 1 ]; check "nor to new on a 32-bit kernel (--word 32)" $?

# FreeBSD's LinuxKPI: djb2 from `bits`, 8 steps of x33 + a byte, then
# >> (64 - bits).  Its state stays below 2^46, so every key is in bucket 0
# at 2^10 buckets; hash_32's 4 steps reach at most a few buckets of 1024.
read -r top64 buckets32 <<<"$(python3 -c '
s64 = 10
for _ in range(8): s64 = s64 * 33 + 255
s32 = 10
for _ in range(4): s32 = s32 * 33 + 255
print(s64 >> 54, (s32 >> 22) + 1)')"
[ "$top64" = 0 ]; check "FreeBSD hash_64: the largest state has no top 10 bits" $?
conform freebsd_linuxkpi_hash.h 'hash_64(x, bits)' --gen new
[ "$status" = 1 ] && head -1 "$tmp/out" | has '^degenerate: 1 of 1024 buckets at bits 10 ' &&
	has -x 'does not conform to new (--gen new)' "$tmp/out"
check "FreeBSD hash_64: degenerate, one bucket, in the first line" $?
conform freebsd_linuxkpi_hash.h 'hash_32(x, bits)'
used=$(head -1 "$tmp/out" | sed -n 's/^degenerate: \([0-9]*\) of 1024 buckets at bits 10 .*/\1/p')
[ -n "$used" ] && [ "$used" -le "$buckets32" ] && has -x 'input bits that never move a bucket: 32-63' "$tmp/out"
check "FreeBSD hash_32: at most $buckets32 of 1024 buckets (saw ${used:-none}), the key's top half unused" $?

# OpenBSD's drm: 0x9e3779b9 is the kernel's GOLDEN_RATIO_32 negated, so
# buckets come out mirrored; its 64-bit constant is the kernel's negated
# plus one, which is even
python3 -c '
assert 0x9e3779b9 == 2**32 - 0x61C88647
assert 0x9e3779b97f4a7c16 == 2**64 - 0x61C8864680B583EB + 1
assert 0x9e3779b97f4a7c16 % 2 == 0'
check "OpenBSD's constants: negations of the kernel's (python)" $?
conform openbsd_drm_hash.h 'hash_32(x, bits)'
[ "$status" = 1 ] && has '^  new      mirrored: hash_32 32-bit' "$tmp/out" &&
	has -x "a multiply: the key times 0x9e3779b9 mod 2^32, its top bits; the kernel's GOLDEN_RATIO_32 negated" "$tmp/out"
check "OpenBSD hash_32: new hash_32's buckets mirrored, the multiplier negated" $?
# the first difference from old: key 1 agrees until the two multipliers'
# top bits part, at bits 18 (python, from the constants)
read -r fb got want <<<"$(python3 -c '
for b in range(1, 33):
    got, want = 0x9e3779b9 >> (32 - b), 0x9e370001 >> (32 - b)
    if got != want:
        print(b, hex(got), hex(want)); break')"
has -x "  old      differs; closest hash_32 32-bit: [0-9]* of [0-9]* keys ([0-9.]*%), first 0x1 at bits $fb: $got, the kernel's $want" "$tmp/out"
check "OpenBSD hash_32 against old: first 0x1 at bits $fb, $got for the kernel's $want" $?
conform openbsd_drm_hash.h 'hash_64(x, bits)'
has "^a multiply: the key times 0x9e3779b97f4a7c16 mod 2^64, its top bits; even: the key's top bit never counts .*the kernel's GOLDEN_RATIO_64 negated, plus 1\$" "$tmp/out" &&
	has -x 'input bits that never move a bucket: 63' "$tmp/out"
check "OpenBSD hash_64: its even multiplier reported, the key's top bit dead" $?

# Lustre's gss_hash_64 (2023): the pre-4.7 chain, the old 64-bit hash alive
python3 -c '
assert 2**63 + 2**61 - 2**57 + 2**54 - 2**51 - 2**18 + 1 == 0x9e37fffffffc0001'
check "Lustre's chain sums to the old multiplier (python)" $?
conform lustre_gss_hash.h 'gss_hash_64(x, bits)' --gen old --func hash_64 --word 64
[ "$status" = 0 ] && has -x '  old      reproduces hash_64 64-bit' "$tmp/out" &&
	has "the kernel's GOLDEN_RATIO_PRIME_64\$" "$tmp/out"
check "Lustre gss_hash_64 is old hash_64 on 64-bit, bits 1..64" $?
conform lustre_gss_hash.h 'gss_hash_64(x, bits)' --gen new
[ "$status" = 1 ]; check "Lustre gss_hash_64 does not conform to new" $?

# libbpf: 11400714819323198485 is GOLDEN_RATIO_64 negated; bits 0 is 0
python3 -c 'assert 11400714819323198485 == 2**64 - 0x61C8864680B583EB'
check "libbpf's multiplier: the kernel's negated (python)" $?
conform libbpf_hashmap.h 'hash_bits(x, bits)' --gen new
[ "$status" = 1 ] && has '^  new      mirrored: hash_64 64-bit' "$tmp/out"
check "libbpf hash_bits: new hash_64's buckets mirrored" $?

# json-c: low bits kept; pages share their low 12 bits, so a page table is broken
conform jsonc_linkhash.h 'lh_ptr_hash(x) & ((1ull << bits) - 1)'
[ "$status" = 1 ] && has '^  page4k .* broken ' "$tmp/out"
check "json-c lh_ptr_hash: page addresses broken" $?

# machine output: a schema and version, the same verdict
conform new_hash_64.h 'hash_64(x, bits)' --gen new --format json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "khash-bench/conform" and d["schema_version"] >= 1
assert d["conforms"] is True and d["name"] == "hash_64"
assert any(c["gen"] == "new" and c["func"] == "hash_64" and c["word"] == 64 and c["reproduces"]
           for c in d["cells"])
assert len(d["costs"]) >= 5' "$tmp/out"
check "--format json: schema, conforms, cells and costs" $?
conform new_hash_64.h 'hash_64(x, bits)' --format csv
[ "$status" = 0 ] && head -1 "$tmp/out" | has '^schema,gen,func,word,' &&
	has '^schema,keyset,keys,' "$tmp/out"
check "--format csv: a header for each record" $?

# -I and -D reach the compiler
mkdir "$tmp/inc"
printf '#include "new_hash_64.h"\n' >"$tmp/inc/via.h"
"$kb" conform --source "$tmp/inc/via.h" --call 'hash_64(x, bits) + OFFSET' -I "$gallery" \
	-D OFFSET=0 --gen new >"$tmp/out" 2>"$tmp/err"
check "-I DIR and -D NAME=V passed through" $?

# failures: one line, the right status, nothing on stdout, nothing left
expect 2 "khash-bench: $tmp/missing.h: No such file or directory" \
	conform --source "$tmp/missing.h" --call 'x'
no_scratch; check "a missing file leaves nothing" $?
rm -f "$tmp/o"
"$kb" conform --source "$gallery/new_hash_64.h" --call 'hash_64(x, bits' -o "$tmp/o" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 2 ] && has -- '--call:' "$tmp/err" &&
	[ "$(tail -1 "$tmp/err")" = "khash-bench: $gallery/new_hash_64.h with --call 'hash_64(x, bits' does not compile (the compiler's messages are above)" ] &&
	[ ! -s "$tmp/out" ] && [ ! -e "$tmp/o" ]
check "an expression that does not compile: the compiler's messages, exit 2" $?
no_scratch; check "a failed compile leaves nothing in TMPDIR" $?
printf 'static int broken(void) { return undeclared_name; }\n' >"$tmp/bad.h"
"$kb" conform --source "$tmp/bad.h" --call 'x' >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && has "bad.h:1:" "$tmp/err"
check "a file that does not compile: its file:line shown" $?
expect 1 "khash-bench: the function crashed (SIGSEGV) on key 0x40, bits 7" \
	conform --source "$gallery/misbehaving.h" --call 'crashes(x, bits)'
EXPECT_SECONDS=20 expect 1 "khash-bench: the function took longer than 1 s (on key 0xffffffffffffffff, bits 1 when stopped)" \
	conform --source "$gallery/misbehaving.h" --call 'loops(x, bits)' --timeout 1
no_scratch; check "a crash and a loop leave nothing" $?
# code of the user's that runs at load (a constructor) runs in the child too
printf '#include <signal.h>\n__attribute__((constructor)) static void boom(void) { raise(SIGSEGV); }\n' >"$tmp/ctor.h"
expect 1 "khash-bench: the compiled file crashed (SIGSEGV) while loading, before any call" \
	conform --source "$tmp/ctor.h" --call 'x'
# a function declared and never defined: the linker says so, at compile time
printf 'unsigned long my_hash(unsigned long x);\n' >"$tmp/decl.h"
"$kb" conform --source "$tmp/decl.h" --call 'my_hash(x)' >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && has "undefined reference to .my_hash'" "$tmp/err" && [ ! -s "$tmp/out" ]
check "a function declared, never defined: the linker's message, exit 2" $?
no_scratch; check "a crash at load and a link error leave nothing" $?
CC=no-such-cc expect 1 "khash-bench: cannot run the compiler 'no-such-cc' (set CC to one): No such file or directory" \
	conform --source "$gallery/new_hash_64.h" --call 'x'
expect 2 "khash-bench: unknown function 'hash32_ptr' (hash_32, hash_64, hash_long, hash_ptr)" \
	conform --source "$gallery/new_hash_64.h" --call 'x' --func hash32_ptr
expect 2 "khash-bench: --gen K needs --multiplier K" \
	conform --source "$gallery/new_hash_64.h" --call 'x' --gen K
"$kb" conform --help | has 'with your rights'
check "--help says the compile runs the file's code with your rights" $?

# a signal during the compile: the compiler stopped, the folder removed
printf '#!/bin/sh\nexec sleep 30\n' >"$tmp/slowcc"
chmod +x "$tmp/slowcc"
CC=$tmp/slowcc "$kb" conform --source "$gallery/new_hash_64.h" --call 'x' >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ -n "$(ls -A "$TMPDIR")" ] && break
	sleep 0.05
done
[ -n "$(ls -A "$TMPDIR")" ]; check "the compile's private folder exists while it runs" $?
kill -TERM "$pid"
wait "$pid"
[ $? = 143 ] && no_scratch; check "SIGTERM during the compile: dies of it, leaves nothing" $?

# undefined behaviour, when the sanitizer links here
if echo 'int f(int x) { return x << 1; }' >"$tmp/u.c" &&
	${CC:-cc} -shared -fPIC -fsanitize=undefined "$tmp/u.c" -o "$tmp/u.so" 2>/dev/null; then
	conform misbehaving.h 'shifts_by_word(x, bits)' --ubsan
	has -x 'bits 0 (--ubsan): undefined behaviour (UBSan stopped the function)' "$tmp/out"
	check "--ubsan: bits 0 shifts by the word" $?
	# gcc's runtime names the file:line; clang's traps, silently
	if ! ${CC:-cc} -dM -E -x c /dev/null | has __clang__; then
		has 'misbehaving.h:[0-9]*:[0-9]*: runtime error: shift exponent 64' "$tmp/err"
		check "--ubsan: UBSan names the file:line" $?
	fi
	# a 32-bit function at bits 33: UB where the kernel's hash_32 stops
	conform openbsd_drm_hash.h 'hash_32(x, bits)' --ubsan
	has -x 'bits 33..64 not judged: the function hit undefined behaviour (UBSan.*) on key 0x1, bits 33' "$tmp/out" &&
		has '^  new      mirrored: hash_32 32-bit' "$tmp/out"
	check "--ubsan: a 32-bit function's UB past bits 32 named, judged at 1..32" $?
	conform libbpf_hashmap.h 'hash_bits(x, bits)' --ubsan
	has -x 'bits 0 (--ubsan): no undefined behaviour; key 1 goes to 0x0' "$tmp/out"
	check "--ubsan: libbpf's bits == 0 case is defined" $?
fi
no_scratch; check "nothing left in TMPDIR at the end" $?

echo "conform: $passed passed, $failed failed"
[ "$failed" = 0 ]
