#!/bin/bash
# SPDX-License-Identifier: MIT
# Generation U (issue 35, item 1) in hash, influence and keys: a copy of
# today's hash_64 (tests/gallery/new_hash_64.h) must print exactly the
# buckets `hash --gen new` prints, key for key and table for table, and
# give the influence matrix --gen new gives at the same bits and seed, in
# every format and figure; expected values come from --gen new, which
# never runs the user's path.  A crash or a bucket past the table is one
# line, exit 1, no output.  keys, and every command that takes no
# --source, refuse it (exit 2), never ignore it.
set -uo pipefail
kb=$1
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"
user_hash_setup
new64=(--source "$gallery/new_hash_64.h" --call 'hash_64(x, bits)')
mis=(--source "$gallery/misbehaving.h")

# keys of every shape: slab addresses, the extremes, a run of small ones
"$kb" keys --keyset slab --size 192 --count 3000 --word 64 -o "$tmp/keys.txt"
printf '0\n0xffffffffffffffff\n0x8000000000000000\n1\n2\n3\n' >>"$tmp/keys.txt"
for bits in 1 11 32; do
	for func in hash_64 hash_long hash_ptr; do
		"$kb" hash --func $func --word 64 --bits $bits --gen new "$tmp/keys.txt" >"$tmp/want" &&
			"$kb" hash --func $func --word 64 --bits $bits "${new64[@]}" "$tmp/keys.txt" \
				>"$tmp/got" &&
			[ "$(wc -l <"$tmp/got")" = 3006 ] && cmp -s "$tmp/want" "$tmp/got"
		check "hash $func bits $bits: the copy of hash_64 prints new's buckets" $?
	done
done
# more keys than one run of the function takes (hash_cmd.c's HASH_USER_KEYS)
"$kb" keys --keyset random --count 140000 -o "$tmp/many.txt"
"$kb" hash --func hash_64 --word 64 --bits 20 --gen new "$tmp/many.txt" >"$tmp/want" &&
	"$kb" hash --func hash_64 --word 64 --bits 20 "${new64[@]}" "$tmp/many.txt" >"$tmp/got" &&
	[ "$(wc -l <"$tmp/got")" = 140000 ] && cmp -s "$tmp/want" "$tmp/got"
check "hash, 140000 keys (three runs of the function): new's buckets, in order" $?
"$kb" hash --func hash_64 --word 64 --bits 10 "${new64[@]}" - <"$tmp/keys.txt" >"$tmp/got" &&
	"$kb" hash --func hash_64 --word 64 --bits 10 --gen new <"$tmp/keys.txt" >"$tmp/want" &&
	cmp -s "$tmp/want" "$tmp/got"
check "hash - (standard input): new's buckets" $?
"$kb" hash --func hash_64 --word 64 --bits 10 "${new64[@]}" "$tmp/keys.txt" -o "$tmp/got" &&
	cmp -s "$tmp/want" "$tmp/got"
check "hash -o FILE: new's buckets" $?
# a few of them from the definition itself, as a second witness
python3 - "$tmp/keys.txt" "$tmp/got" <<'EOF'
import sys
keys = [int(l, 0) for l in open(sys.argv[1])]
got = [int(l, 16) for l in open(sys.argv[2])]
assert got == [(k * 0x61C8864680B583EB % 2**64) >> 54 for k in keys]
EOF
check "hash --source: the buckets are (x * GOLDEN_RATIO_64 mod 2^64) >> (64 - 10)" $?
# a function unlike any of hash.h's, so that a path that hashed with
# today's generation instead is seen: the key's low bits
"$kb" hash --func hash_64 --word 64 --bits 9 "${mis[@]}" --call 'crashes(x, bits)' "$tmp/keys.txt" \
	>"$tmp/got"
python3 - "$tmp/keys.txt" "$tmp/got" <<'EOF'
import sys
keys = [int(l, 0) for l in open(sys.argv[1])]
got = [int(l, 16) for l in open(sys.argv[2])]
assert got == [k % 2**9 for k in keys]
EOF
check "hash --source: the user's own function's buckets (the key's low 9 bits)" $?

# --table: the copy after the table's key transform, new's buckets where
# the table calls a 64-bit hash; a table that computes its bucket itself
# has no place for it
for table in btrfs-raid56 folio-waitqueue kvm-mmu-gfn; do
	"$kb" hash --table $table --word 64 --gen new "$tmp/keys.txt" >"$tmp/want" &&
		"$kb" hash --table $table --word 64 "${new64[@]}" "$tmp/keys.txt" >"$tmp/got" &&
		[ -s "$tmp/got" ] && cmp -s "$tmp/want" "$tmp/got"
	check "hash --table $table: the copy gives new's buckets" $?
done
expect 2 "khash-bench: inode-hash computes its bucket itself (fs/inode.c hash()): your function has no place in it" \
	hash --table inode-hash --word 64 "${new64[@]}"
expect 2 "khash-bench: futex-global computes its bucket itself (jhash2): your function has no place in it" \
	hash --table futex-global --word 64 "${new64[@]}"

# failures: one line naming the key (and the file), exit 1, no output,
# the -o file never written
printf '1\n0x40\n' >"$tmp/bad.txt"
expect 1 "khash-bench: $tmp/bad.txt: the function crashed (SIGSEGV) on key 0x40, bits 7" \
	hash --func hash_64 --bits 7 "${mis[@]}" --call 'crashes(x, bits)' "$tmp/bad.txt"
refuses 1 "khash-bench: $tmp/bad.txt: the function crashed (SIGSEGV) on key 0x40, bits 7" \
	hash --func hash_64 --bits 7 "${mis[@]}" --call 'crashes(x, bits)' "$tmp/bad.txt"
# (through a table, the key named is the table's argument, as the
# function was called with it)
"$kb" hash --table btrfs-raid56 --word 64 --bits 7 "${mis[@]}" --call 'crashes(x ^ x ^ 0x40, bits)' \
	"$tmp/bad.txt" >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	has -xE "khash-bench: $tmp/bad.txt: the function crashed \(SIGSEGV\) on key 0x[0-9a-f]+, bits 7" "$tmp/err"
check "hash --table: a crash is one line naming the file, key and bits, exit 1, no output" $?
expect 1 "khash-bench: $tmp/bad.txt: the function returned 0x40 on key 0x40, bits 6: no bucket of 2^6" \
	hash --func hash_64 --bits 6 "${mis[@]}" --call 'x' "$tmp/bad.txt"
printf '0x100000000\n' >"$tmp/wide.txt"
expect 1 "khash-bench: $tmp/wide.txt:1: 0x100000000 does not fit the 32-bit argument of hash_32 on 64-bit" \
	hash --func hash_32 --word 64 --bits 6 "${mis[@]}" --call 'x' "$tmp/wide.txt"

# one generation a line: --source is it, not one more beside --gen or K
for cmd in hash influence; do
	expect 2 "khash-bench: $cmd takes one generation: --source or --gen, not both" \
		$cmd --func hash_64 --bits 7 --gen new "${new64[@]}"
	expect 2 "khash-bench: $cmd takes one generation: --source or --multiplier, not both" \
		$cmd --func hash_64 --bits 7 --multiplier 3 "${new64[@]}"
done
# tables and census judge every generation: K and the user's both
"$kb" tables --words 64 --count 256 --multiplier 0x61C8864680B583EB "${new64[@]}" --format csv -q \
	>"$tmp/got.csv" &&
	has ',model,K,' "$tmp/got.csv" && has ',model,hash_64,' "$tmp/got.csv"
check "tables --multiplier with --source: both generations judged" $?
expect 2 "khash-bench: explain takes one generation: --source or --gen, not both" \
	explain --keyset page4k --bits 7 --gen new "${new64[@]}"
expect 2 "khash-bench: --source: jhash_1word is not a hash.h function: it has no generation" \
	hash --func jhash_1word --bits 7 "${new64[@]}"
expect 2 "khash-bench: --shift applies to a hash.h function and identity" \
	hash --func hash_64 --bits 7 --shift 3 "${new64[@]}"

# influence: the copy's matrix is new's, same bits and seed, every format
# (the generation's name aside) and the figure's data
for f in text csv json; do
	"$kb" influence --func hash_64 --word 64 --bits 12 --seed 3 --count 3000 --gen new \
		--format $f >"$tmp/want.$f"
	"$kb" influence --func hash_64 --word 64 --bits 12 --seed 3 --count 3000 "${new64[@]}" \
		--format $f >"$tmp/got.$f"
done
[ "$(sed 1d "$tmp/want.text")" = "$(sed 1d "$tmp/got.text")" ] &&
	has -x 'hash_64 hash_64 on 64-bit, 12 output bits: P(flipping input bit j flips output bit k), 3000 samples' \
		"$tmp/got.text"
check "influence text: new's map and summary under the function's name" $?
[ "$(wc -l <"$tmp/want.csv")" -gt 700 ] &&
	[ "$(cut -d, -f3 --complement "$tmp/want.csv")" = "$(cut -d, -f3 --complement "$tmp/got.csv")" ] &&
	[ "$(sed 1d "$tmp/got.csv" | cut -d, -f3 | sort -u)" = hash_64 ]
check "influence csv: every P(j, k) new's" $?
python3 - "$tmp/want.json" "$tmp/got.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert b["gen"] == "hash_64", b["gen"]
a["gen"] = b["gen"] = None
assert a == b
EOF
check "influence json: new's, the generation named after the function" $?
"$kb" influence --func hash_ptr --word 64 --bits 9 --seed 5 --count 2000 --gen new \
	--plot "$tmp/want-plot" -q >/dev/null
"$kb" influence --func hash_ptr --word 64 --bits 9 --seed 5 --count 2000 "${new64[@]}" \
	--plot "$tmp/got-plot" -q >/dev/null
cmp -s "$tmp/want-plot/influence_hash_ptr_new_w64_b9.dat" \
	"$tmp/got-plot/influence_hash_ptr_hash_64_w64_b9.dat"
check "influence --plot: the figure's data is new's" $?
# the key's low bits: input bit j < bits flips output bit j always, and
# nothing else ever
"$kb" influence --func hash_32 --bits 6 "${mis[@]}" --call 'crashes(x, bits)' --count 500 \
	--format csv >"$tmp/got.csv"
python3 - "$tmp/got.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 32 * 6, len(rows)
for r in rows:
    j, k, p = int(r["in_bit"]), int(r["out_bit"]), float(r["p_flip"])
    assert p == (1.0 if j == k else 0.0), r
EOF
check "influence --source: the user's own function's matrix (the key's low bits)" $?
# (its first seeded key, as the function was called with it)
expect 1 "khash-bench: the function crashed (SIGSEGV) on key 0x910a2dec89025cc1, bits 7" \
	influence --func hash_64 --bits 7 "${mis[@]}" --call 'crashes(x ^ x ^ 0x40, bits)' -q
expect 1 "khash-bench: the function returned 0x89025cc1 on key 0x89025cc1, bits 7: no bucket of 2^7" \
	influence --func hash_32 --bits 7 "${mis[@]}" --call 'x' -q

# keys: the adversarial set inverts a multiply; --source is refused, with
# why, before anything is compiled (the file need not exist), and by the
# other key sets too
why="khash-bench: option '--source' is not used by 'keys': its adversarial set solves hash.h's multiply for the keys of bucket 0, and your function is no multiply it can invert (its other key sets take no function)"
expect 2 "$why" keys --keyset adversarial --func hash_64 --bits 10 "${new64[@]}"
expect 2 "$why" keys --keyset page4k --source "$tmp/none.h"

# every command whose synopsis has no --source refuses it, none ignores it
"$kb" --help | sed -n 's/^  khash-bench \([a-z]*\).*/\1/p' >"$tmp/cmds"
[ "$(wc -l <"$tmp/cmds")" -ge 15 ]
check "the commands, from --help" $?
while read -r cmd; do
	"$kb" "$cmd" --help >"$tmp/help" # (not piped into head: pipefail)
	head -1 "$tmp/help" | has -e '--source' && continue
	[ "$cmd" = keys ] && continue
	expect 2 "khash-bench: option '--source' is not used by '$cmd' (see 'khash-bench $cmd --help')" \
		"$cmd" --source "$gallery/new_hash_64.h" --call x
done <"$tmp/cmds"
[ -z "$(ls -A "$TMPDIR")" ]; check "nothing left in TMPDIR" $?

echo "user_hash_influence: $passed passed, $failed failed"
[ "$failed" = 0 ]
