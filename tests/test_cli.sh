#!/bin/bash
# SPDX-License-Identifier: MIT
# khash-bench's command-line contract: GNU conventions, known answers, and
# every rejection path with its exact message and exit status, with no
# partial output file left behind.  (Figures: tests/test_plots.sh.)
set -u
kb=$1
version=$2 # the project's version, as meson read it: not from khash-bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh"


# expect STATUS MESSAGE ARGS...: exit status and exact stderr.
expect() {
	local want_status=$1 want_msg=$2 err status
	shift 2
	"$kb" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	err=$(cat "$tmp/err")
	if [ "$status" != "$want_status" ] || [ "$err" != "$want_msg" ]; then
		echo "FAIL: khash-bench $*"
		echo "  status $status (want $want_status)"
		echo "  stderr: $err"
		echo "  wanted: $want_msg"
		failed=$((failed + 1))
	else
		passed=$((passed + 1))
	fi
}

# --help and --version: stdout, exit 0
"$kb" --help >"$tmp/help" 2>&1; check "--help exits 0" $?
grep -q '^Usage: khash-bench COMMAND' "$tmp/help"; check "--help prints usage" $?
[ "$("$kb" --version)" = "khash-bench (libkhash) $version" ]
check "--version" $?
[ "$("$kb" skew --version)" = "khash-bench (libkhash) $version" ]
check "COMMAND --version" $?

# every command's --help: its own usage on stdout, exit 0, nothing on stderr
for c in report skew hash influence audit waittable speed keys list; do
	"$kb" "$c" --help >"$tmp/help.$c" 2>"$tmp/help.err"
	[ $? = 0 ] && [ ! -s "$tmp/help.err" ] && grep -q "^Usage: khash-bench $c" "$tmp/help.$c"
	check "$c --help" $?
done
grep -q '^  --count N  *keys per key set (default 65536)$' "$tmp/help.report"
check "report --help: what --count counts" $?
grep -q '^  --count N  *pages waited on, 2..4096 (default 100)$' "$tmp/help.waittable"
check "waittable --help: what --count counts" $?
! grep -q -- '--count' "$tmp/help.hash"; check "hash --help: no --count" $?

# known answers (the kernel's own, quoted in issue 5)
printf '0x12345678\n' >"$tmp/k.txt"
[ "$("$kb" hash --func hash_64 --gen new --word 64 --bits 32 "$tmp/k.txt")" = 0x6e79886e ]
check "hash_64 on x86_64" $?
[ "$("$kb" hash --func hash_64 --gen new --word 32 --bits 32 - <"$tmp/k.txt")" = 0x7786cb48 ]
check "hash_64 on i386, from stdin" $?
printf '\x78\x56\x34\x12\0\0\0\0' >"$tmp/k.bin"
[ "$("$kb" hash --func hash_64 --gen new --word 32 --bits 32 --binary "$tmp/k.bin")" = 0x7786cb48 ]
check "binary key file" $?
printf '0\n1\n4096\n0xffffffffffffffff\n' >"$tmp/k4.txt"
[ "$("$kb" hash --func hash_64 --gen old --word 64 --bits 64 "$tmp/k4.txt" | tr '\n' ' ')" = \
  "0x0 0x9e37fffffffc0001 0x7fffffffc0001000 0x61c800000003ffff " ]
check "old hash_64 returns 64 bits" $?

# usage errors: exit 2
expect 2 "khash-bench: unknown command 'frobnicate' (try --help)" frobnicate
expect 2 "khash-bench: unknown function 'hash_65' (hash_32, hash_64, hash_long, hash_ptr)" \
	skew --func hash_65 --gen new --bits 8 --keyset seq
expect 2 "khash-bench: unknown function 'hash32_ptr' (hash_32, hash_64, hash_long, hash_ptr)" \
	hash --func hash32_ptr --gen new --bits 8
expect 2 "khash-bench: unknown generation 'newer' (old, minimal, posted, new)" \
	skew --func hash_64 --gen newer --bits 8 --keyset seq
expect 2 "khash-bench: unknown key set 'pages' (see 'khash-bench list')" \
	skew --func hash_64 --gen new --bits 8 --keyset pages
expect 2 "khash-bench: invalid --word: '48' (32 or 64)" \
	skew --func hash_64 --gen new --word 48 --bits 8 --keyset seq
expect 2 "khash-bench: bits 0 out of range for new hash_64 on 64-bit: 1..32" \
	skew --func hash_64 --gen new --word 64 --bits 0 --keyset seq
expect 2 "khash-bench: bits 33 out of range for new hash_64 on 64-bit: 1..32" \
	hash --func hash_64 --gen new --word 64 --bits 33 "$tmp/k.txt"
expect 2 "khash-bench: bits 65 out of range for old hash_64 on 64-bit: 1..64" \
	hash --func hash_64 --gen old --word 64 --bits 65 "$tmp/k.txt"
expect 2 "khash-bench: bits 33 out of range for old hash_32 on 32-bit: 1..32" \
	skew --func hash_32 --gen old --word 32 --bits 33 --keyset seq
expect 2 "khash-bench: invalid --bits: 'ten'" \
	skew --func hash_64 --gen new --bits ten --keyset seq
expect 2 "khash-bench: --count must be at least 1" \
	skew --func hash_64 --gen new --bits 8 --keyset seq --count 0
expect 2 "khash-bench: invalid --count: '-3'" \
	skew --func hash_64 --gen new --bits 8 --keyset seq --count -3
expect 2 "khash-bench: skew needs --bits" skew --func hash_64 --gen new --keyset seq
expect 2 "khash-bench: skew needs exactly one of --keyset and --keys" \
	skew --func hash_64 --gen new --bits 8
expect 2 "khash-bench: skew needs exactly one of --keyset and --keys" \
	skew --func hash_64 --gen new --bits 8 --keyset seq --keys "$tmp/k.txt"
expect 2 "khash-bench: unknown format 'xml' (text, csv, json)" \
	report --format xml
expect 2 "khash-bench: unknown or incomplete option '--frob' (try --help)" report --frob
expect 2 "khash-bench: --bits-max 40 out of range: these functions return at most 32 bits for every generation (1..32)" \
	report --bits-max 40
expect 2 "khash-bench: 2^32 buckets need 131072 MiB of counters, over the --max-memory limit of 4096 MiB" \
	report --bits-min 30 --bits-max 32
expect 2 "khash-bench: 2^64 buckets need over 8388608 MiB of counters, over the --max-memory limit of 4096 MiB" \
	skew --func hash_64 --gen old --bits 64 --keyset seq
expect 2 "khash-bench: --count 1000000000 heap objects of up to 4096 bytes need up to 3913879 MiB, over the --max-memory limit of 4096 MiB" \
	skew --func hash_64 --gen new --bits 8 --keyset heap-glibc --count 1000000000
expect 2 "khash-bench: --count 1000000000 heap objects of up to 4096 bytes need up to 3913879 MiB, over the --max-memory limit of 4096 MiB" \
	report --count 1000000000
expect 2 "khash-bench: unexpected argument 'b' (hash takes one key file, or - for standard input)" \
	hash --func hash_64 --gen new --bits 8 a b
# a stray operand is named, not the command
expect 2 "khash-bench: unexpected argument 'extra' (skew takes no operands)" \
	skew --func hash_64 --gen new --bits 10 --keyset page4k extra
expect 2 "khash-bench: unexpected argument 'extra' (report takes no operands)" report extra
expect 2 "khash-bench: unexpected argument 'x' (list takes no operands)" list x
# an option the command does not take is an error, not ignored
expect 2 "khash-bench: option '--plot' is not used by 'list' (see 'khash-bench list --help')" \
	list --plot "$tmp/p"
[ ! -e "$tmp/p" ]; check "refused --plot made no folder" $?
expect 2 "khash-bench: option '--keyset' is not used by 'hash' (see 'khash-bench hash --help')" \
	hash --func hash_64 --gen new --bits 8 --keyset seq
expect 2 "khash-bench: option '--count' is not used by 'audit' (see 'khash-bench audit --help')" \
	audit --compare --count 5
expect 2 "khash-bench: hash writes text, not json" \
	hash --func hash_64 --gen new --bits 8 --format json "$tmp/k.txt"
expect 2 "khash-bench: speed writes text or csv, not json" speed --format json
expect 2 "khash-bench: --count applies to --keyset, not to --keys" \
	skew --func hash_64 --gen new --bits 8 --keys "$tmp/k.txt" --count 5

# runtime errors: exit 1, one line naming the problem
expect 1 "khash-bench: $tmp/none.txt: No such file or directory" \
	hash --func hash_64 --gen new --bits 8 "$tmp/none.txt"
expect 1 "khash-bench: $tmp: is a directory, not a key file" \
	skew --func hash_64 --gen new --bits 8 --keys "$tmp"
printf '1\n2\n0x1g\n' >"$tmp/bad.txt"
expect 1 "khash-bench: $tmp/bad.txt:3: not an integer: '0x1g'" \
	skew --func hash_64 --gen new --bits 8 --keys "$tmp/bad.txt"
printf '' >"$tmp/empty.txt"
expect 1 "khash-bench: $tmp/empty.txt: no keys in the file" \
	skew --func hash_64 --gen new --bits 8 --keys "$tmp/empty.txt"
printf '1\n0x100000000\n' >"$tmp/wide.txt"
expect 1 "khash-bench: $tmp/wide.txt: key 2 (0x100000000) does not fit the 32-bit argument of hash_32 on 64-bit" \
	hash --func hash_32 --gen new --word 64 --bits 8 "$tmp/wide.txt"
expect 1 "khash-bench: page4k: 4096 keys from 0xffff888000000000 exceed the 32-bit argument" \
	skew --func hash_32 --gen new --word 64 --bits 8 --keyset page4k

# no partial output: a failing run leaves no file, and keeps a good one
expect 1 "khash-bench: $tmp/bad.txt:3: not an integer: '0x1g'" \
	hash --func hash_64 --gen new --bits 8 "$tmp/bad.txt" -o "$tmp/out.txt"
[ ! -e "$tmp/out.txt" ] && [ -z "$(find "$tmp" -maxdepth 1 -name '*.tmp.*')" ]
check "failed hash leaves no output file" $?
"$kb" hash --func hash_64 --gen new --bits 8 "$tmp/k4.txt" -o "$tmp/good.txt"
cp "$tmp/good.txt" "$tmp/good.before"
expect 1 "khash-bench: $tmp/bad.txt:3: not an integer: '0x1g'" \
	hash --func hash_64 --gen new --bits 8 "$tmp/bad.txt" -o "$tmp/good.txt"
cmp -s "$tmp/good.txt" "$tmp/good.before"; check "failed run keeps the old file" $?
touch "$tmp/afile"
expect 1 "khash-bench: cannot create plot folder $tmp/afile/plots: Not a directory" \
	report --keysets seq --bits-min 6 --bits-max 8 --plot "$tmp/afile/plots"
expect 1 "khash-bench: cannot write $tmp/afile/r.csv: Not a directory" \
	report --keysets seq --bits-min 6 --bits-max 8 --format csv -o "$tmp/afile/r.csv"

# an interrupted run leaves neither its output nor a temporary file
mkfifo "$tmp/fifo"
"$kb" hash --func hash_64 --gen new --bits 8 "$tmp/fifo" -o "$tmp/int.txt" &
pid=$!
exec 3>"$tmp/fifo"
printf '1\n2\n3\n' >&3
sleep 0.3
kill -TERM "$pid"
wait "$pid"
status=$?
exec 3>&-
[ "$status" -ne 0 ] && [ ! -e "$tmp/int.txt" ] && [ -z "$(find "$tmp" -maxdepth 1 -name '*int.txt*')" ]
check "SIGTERM mid-run leaves no partial file (status $status)" $?

# a key file that vanishes mid-run: the open descriptor still reads it all
rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"
"$kb" skew --func hash_64 --gen new --word 64 --bits 4 --keys "$tmp/fifo" --format csv >"$tmp/vanish.csv" &
pid=$!
exec 3>"$tmp/fifo"
printf '1\n2\n' >&3
rm -f "$tmp/fifo"
printf '3\n4\n' >&3
exec 3>&-
wait "$pid"; check "vanished key file: run completes" $?
grep -q '^1,keys,hash_64,new,64,4,4,16,' "$tmp/vanish.csv"; check "vanished key file: all 4 keys counted" $?

# keys: a key set written as text and as binary reads back the same
"$kb" keys --keyset struct-page --word 64 --count 1000 -o "$tmp/sp.txt"
"$kb" keys --keyset struct-page --word 64 --count 1000 --binary -o "$tmp/sp.bin"
[ "$(wc -l <"$tmp/sp.txt")" = 1000 ] && [ "$(stat -c %s "$tmp/sp.bin")" = 8000 ]
check "keys writes 1000 keys as text and as 8000 bytes" $?
[ "$(head -2 "$tmp/sp.txt" | tr '\n' ' ')" = "0xffffea0000000000 0xffffea0000000040 " ]
check "keys: struct-page formula" $?
a=$("$kb" skew --func hash_ptr --gen old --word 64 --bits 10 --keys "$tmp/sp.txt" --format csv | tail -1)
b=$("$kb" skew --func hash_ptr --gen old --word 64 --bits 10 --keys "$tmp/sp.bin" --binary --format csv | tail -1)
c=$("$kb" skew --func hash_ptr --gen old --word 64 --bits 10 --keyset struct-page --count 1000 --format csv | tail -1 | sed 's/,struct-page,/,keys,/')
[ "$a" = "$b" ] && [ "$a" = "$c" ]; check "keys: text, binary and built-in agree" $?
expect 2 "khash-bench: keys needs --keyset" keys --count 3
expect 2 "khash-bench: adversarial: needs a function, generation and bits to attack" \
	keys --keyset adversarial

# the analyses: arguments checked, outputs with a schema version
expect 2 "khash-bench: audit needs one of --multiplier, --preset and --compare" audit
expect 2 "khash-bench: audit needs one of --multiplier, --preset and --compare" \
	audit --preset old64 --compare
expect 2 "khash-bench: unknown preset 'old128' (see 'khash-bench audit --compare')" \
	audit --preset old128
expect 2 "khash-bench: multiplier 0x100000000 does not fit 32 bits" \
	audit --multiplier 0x100000000 --width 32
expect 2 "khash-bench: --count (waiters) must be 2..4096" waittable --count 1
expect 2 "khash-bench: influence needs --bits" influence --func hash_32 --gen old
"$kb" audit --preset new64 --format json | grep -q '"schema_version": 1'; check "audit json" $?
"$kb" audit --compare --format csv | grep -q '^1,old64,0x9e37fffffffc0001,64,1,41,33,7,'
check "audit csv: old64 row" $?
# one multiplier, one row (it once printed a row per preset)
[ "$("$kb" audit --multiplier 0x61c88647 --format csv | tail -n +2)" = "1,,0x61c88647,32,1,13,4,11,4,12.0645,0" ]
check "audit --multiplier: exactly one row" $?
[ "$("$kb" audit --multiplier 0x61c88647 | grep -c '^multiplier ')" = 1 ]
check "audit --multiplier text: one audit" $?
"$kb" waittable --format json | grep -q '"schema": "khash-bench/waittable"'; check "waittable json" $?
[ "$("$kb" influence --func hash_32 --gen new --word 32 --bits 4 --format csv | wc -l)" = 129 ]
check "influence csv: 32 x 4 cells and a header" $?

# named kernel tables: the facts, the transforms, the rejections
[ "$(printf '0xc1000020\n' | "$kb" hash --table bit-waitqueue --gen new --word 32 --param bit=3)" = 0x27 ]
check "hash --table bit-waitqueue --param bit=3" $?
[ "$(printf '0x40000000\n' | "$kb" hash --table btrfs-raid56 --gen new --word 64)" = 0x10c ]
check "hash --table btrfs-raid56: bits from the table" $?
"$kb" skew --table btrfs-raid56-raw --gen old --word 64 --keyset btrfs-stripe --count 4096 --format csv |
	grep -q '^1,btrfs-stripe,btrfs-raid56-raw,old,64,11,4096,2048,.*,1,4096,'
check "skew --table: raw stripes into 1 bucket, the table named in the func column" $?
expect 2 "khash-bench: --table btrfs-raid56 fixes the function: drop --func" \
	skew --table btrfs-raid56 --func hash_64 --gen new --keyset seq
expect 2 "khash-bench: unknown table 'nope' (see 'khash-bench tables')" \
	skew --table nope --gen new --keyset seq
expect 2 "khash-bench: table btrfs-raid56 takes no --param" \
	skew --table btrfs-raid56 --gen new --keyset seq --param 1
expect 2 "khash-bench: table bit-waitqueue's parameter is bit, not sb" \
	skew --table bit-waitqueue --gen new --keyset struct-page --param sb=1
expect 2 "khash-bench: hash-min: key_bytes must be 4 or 8" \
	skew --table hash-min --gen new --keyset seq --param 3
"$kb" tables --format csv >"$tmp/t.csv"
[ "$(grep -c '^1,' "$tmp/t.csv")" = $((12 * 2 * 4)) ]; check "tables csv: 12 tables x 2 words x 4 generations" $?
grep -q '^1,bit-waitqueue,kernel/sched/wait_bit.c:17,model,old,64,8,4096,256,.*,3,' "$tmp/t.csv"
check "tables csv: bit-waitqueue (inodes), old, 64-bit: 3 buckets" $?
grep -q '^1,bit-wait-page,kernel/sched/wait_bit.c:17 (page locks in late 2016),model,old,64,8,4096,256,.*,2,' "$tmp/t.csv"
check "tables csv: bit-wait-page, old, 64-bit: 2 buckets" $?
"$kb" tables --format json | grep -q '"schema": "khash-bench/tables"'; check "tables json" $?

# every JSON document parses, whatever its strings hold (a reason with
# quotes, a key file whose name has a quote and a backslash)
printf '1\n2\n' >"$tmp/we\"ird\\name.txt"
jsonok() { python3 -c 'import json, sys; json.load(sys.stdin)'; }
for args in "report --count 1024 --keysets seq,page4k --bits-max 8 --words 64,32" \
	"influence --func hash_32 --gen new --bits 4 --count 1000" "audit --compare" \
	"audit --multiplier 0x61c88647" "waittable --count 10" "tables --count 256"; do
	# shellcheck disable=SC2086 # args is a list of words
	"$kb" $args --format json | jsonok; check "valid JSON: $args" $?
done
"$kb" skew --func hash_64 --gen new --bits 8 --keys "$tmp/we\"ird\\name.txt" --format json | jsonok
check "valid JSON: skew of an oddly named key file" $?
"$kb" report --count 1024 --keysets page4k --funcs hash_32 --words 64 --bits-max 8 --format json |
	python3 -c 'import json, sys; c = json.load(sys.stdin)["cells"][0]; sys.exit(c["verdict"] != "n/a" or "32-bit" not in c["why"])'
check "JSON: an n/a cell carries its reason" $?

# skew and report outputs carry the contract's fields and a schema version
"$kb" skew --func hash_64 --gen old --word 64 --bits 11 --keyset page4k --count 4096 --format json >"$tmp/s.json"
for field in '"func": "hash_64"' '"gen": "old"' '"word": 64' '"bits": 11' '"n": 4096' \
	'"buckets": 2048' '"chi2":' '"df": 2047' '"p_upper":' '"p_lower":' '"used": 2' \
	'"max_load":' '"schema_version": 1'; do
	grep -qF "$field" "$tmp/s.json"; check "skew json has $field" $?
done
"$kb" report --keysets seq,page4k --bits-min 6 --bits-max 8 --format csv >"$tmp/r.csv"
head -1 "$tmp/r.csv" | grep -q '^schema,keys,func,gen,word,bits,n,buckets,chi2,df,'
check "report csv header" $?
[ "$(grep -c '^1,' "$tmp/r.csv")" = 144 ]; check "report csv: 2 sets x 3 funcs x 2 words x 4 gens x 3 bits" $?


# threads, progress and closed forms: the options and where they apply
expect 2 "khash-bench: --threads 0 out of range: 1..64" skew --threads 0
expect 2 "khash-bench: --threads 65 out of range: 1..64" influence --threads 65
expect 2 "khash-bench: invalid --part: 'bogus' (hashes or engine)" speed --part bogus
expect 2 "khash-bench: option '--enumerate' is not used by 'hash' (see 'khash-bench hash --help')" hash --enumerate --func hash_64 --gen new --bits 8
expect 2 "khash-bench: option '--quiet' is not used by 'waittable' (see 'khash-bench waittable --help')" waittable --quiet
# floor sums and enumeration give the same report, byte for byte (the
# elapsed time aside); --threads 1 and 2 too
"$kb" skew --keyset page4k --func hash_64 --gen old --word 32 --bits 12 --count 40000000 --format csv >"$tmp/fs.csv" 2>&1
"$kb" skew --keyset page4k --func hash_64 --gen old --word 32 --bits 12 --count 40000000 --format csv --enumerate --threads 1 >"$tmp/en1.csv" 2>&1
"$kb" skew --keyset page4k --func hash_64 --gen old --word 32 --bits 12 --count 40000000 --format csv --enumerate --threads 2 -q >"$tmp/en2.csv" 2>&1
check "skew: floor sums = enumeration, 1 thread" "$(cmp -s "$tmp/fs.csv" "$tmp/en1.csv"; echo $?)"
check "skew: floor sums = enumeration, 2 threads" "$(cmp -s "$tmp/fs.csv" "$tmp/en2.csv"; echo $?)"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
