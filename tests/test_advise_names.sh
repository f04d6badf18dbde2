#!/bin/bash
# SPDX-License-Identifier: MIT
# advise over names (--table of a string hash, --names | --name-set, --sgen):
# the known-bad case, numbered names through nfsd-idmap's hash_str on a
# 32-bit kernel under the pre-4.7 sum hash, whose every row's cost and whose
# folded generations come from the Python models (golden/gen_string_tables.py
# for the string hash, golden/gen_siphash_bytes.py for siphash and hsiphash,
# keyed by the splitmix64 stream from --seed as advise keys them); the
# ranking and the advice in text, CSV and JSON; and the refusals.
set -uo pipefail
kb=$1
golden=$(dirname "$0")/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=checks.sh
. "$(dirname "$0")/checks.sh"

adv=(advise --table nfsd-idmap --name-set numbered --count 4096 --word 32 --seed 7)
"$kb" "${adv[@]}" --sgen sum --format csv >"$tmp/adv.csv"
check "advise over names: csv" $?
"$kb" "${adv[@]}" --sgen sum --format json >"$tmp/adv.json"
check "advise over names: json" $?
"$kb" "${adv[@]}" --sgen sum >"$tmp/adv.txt"
check "advise over names: text" $?

# every row's cost and the rows folded, against the models
python3 - "$golden" "$tmp/adv.csv" "$tmp/adv.json" <<'PY'
import csv, json, sys
sys.path.insert(0, sys.argv[1])
import gen_string_tables as st
import gen_siphash_bytes as sb

M, G = 2**64, 0x9e3779b97f4a7c15
def at(seed, i):  # splitmix64_at: the stream's i-th value from seed
    z = (seed + (i + 1) * G) % M
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9 % M
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb % M
    return z ^ (z >> 31)

names = [b"file%06d" % i for i in range(1, 4097)]
bits, word, k0, k1 = 8, 32, at(7, 0), at(7, 1)
def cost(buckets):  # entries compared per successful lookup, chained
    loads = {}
    for b in buckets:
        loads[b] = loads.get(b, 0) + 1
    return (sum(l * l for l in loads.values()) / len(buckets) + 1) / 2
want, rows = {}, []
# the table's own first (sum), then today's back: a generation that puts
# every name where an earlier row does is folded into that row
for g in ("sum", "new", "salted", "mix", "minimal", "fold"):
    b = [st.bucket("nfsd-idmap", g, word, bits, n)[0] for n in names]
    for r in rows:
        if r[1] == b:
            r[2].append(g)
            break
    else:
        rows.append([g, b, []])
for g, b, same in rows:
    want[("hash_str(name, 8)", g)] = (round(cost(b), 6), ", ".join(sorted(same, key=st.GENS.index)))
want[("hsiphash(name, len, &key) & 255", "siphash.c")] = (round(cost(
    [sb.halfsiphash13_kernel(n, k0 % 2**32, k1 % 2**32) % 256 for n in names]), 6), "")
want[("siphash(name, len, &key) & 255", "siphash.c")] = (round(cost(
    [sb.siphash(n, k0, k1, 2, 4) % 256 for n in names]), 6), "")
got = {(r["candidate"], r["origin"]): float(r["cost"])
       for r in csv.DictReader(open(sys.argv[2]))}
doc = json.load(open(sys.argv[3]))
same = {(c["candidate"], c["origin"]): c["same_buckets_as"] for c in doc["candidates"]}
bad = 0
if set(got) != set(want):
    print("FAIL: rows", sorted(got), "want", sorted(want)); bad = 1
for k, (c, s) in want.items():
    if k in got and (abs(got[k] - c) > 1e-6 or same.get(k) != s):
        print("FAIL:", k, got[k], same.get(k), "want", c, s); bad = 1
sys.exit(bad)
PY
check "advise over names: every row's cost and fold as the Python models give them" $?

# the ranking: the sum hash broken and last, today's advised, a change
python3 - "$tmp/adv.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["candidates"]
now = [r for r in c if r["current"]]
adv = [r for r in c if r["advised"]]
ok = (d["input"] == "names" and d["change"] is True and d["relayouts"] == 0
      and len(now) == 1 and now[0]["origin"] == "sum" and now[0]["verdict"] == "broken"
      and c[-1] is now[0] and now[0]["cost_vs_random"] > 1.5
      and len(adv) == 1 and adv[0]["origin"] == "new" and adv[0]["picked"]
      and [r["keyed"] for r in c].count(True) == 2
      and d["name_bytes_min"] == 10 and d["name_bytes_max"] == 10 and "min" not in d)
sys.exit(0 if ok else 1)
PY
check "advise over names, json: sum broken and last, new advised, a change" $?
has -x 'advice: hash_str(name, 8) (sum) costs 1.69x a random function.s entries compared per successful lookup here; hash_str(name, 8) (new) costs 0.99x: change; where a client picks the names, only a keyed hash holds: hsiphash(name, len, &key) & 255 (1.00x)' "$tmp/adv.txt"
check "advise over names, text: the advice changes to new and names the keyed row" $?
has -x '(mix, salted: every name in the bucket new puts it in) (fold, minimal: every name in the bucket sum puts it in)' "$tmp/adv.txt"
check "advise over names, text: the folded generations named" $?
has '^advise: 4096 distinct names of numbered into 2^8 buckets, 32-bit kernel, chained table$' "$tmp/adv.txt"
check "advise over names, text: the head says names" $?
# origin new, not keyed, not current, picked, advised; the current's row
[ "$(grep -c '"hash_str(name, 8)",new,0,0,1,1,' "$tmp/adv.csv")" = 1 ] &&
	[ "$(grep -c '"hash_str(name, 8)",sum,0,1,0,0,.*,broken,' "$tmp/adv.csv")" = 1 ]
check "advise over names, csv: one advised row, today's" $?
# today's hash on these names: nothing to change
"$kb" "${adv[@]}" | has 'costs 0.99x a random .* here: keep it; where a client picks the names'
check "advise over names under new: keep it" $?
# --candidates folds the families: new keeps the generations only
"$kb" "${adv[@]}" --candidates new --format csv >"$tmp/new.csv"
rc=$?
# today's row and one for the older hash_str the others fold into
[ "$rc" = 0 ] && ! has siphash "$tmp/new.csv" && has '"hash_str(name, 8)",new,0,1,' "$tmp/new.csv" &&
	[ "$(grep -c '"hash_str(name, 8)",' "$tmp/new.csv")" = 2 ]
check "advise over names --candidates new: the generations' rows, no keyed rows" $?

# refusals
expect 2 "khash-bench: advise takes one --sgen: the table's string hash now" "${adv[@]}" --sgen sum,new
expect 2 "khash-bench: --candidates: over names only new (the other generations), hsiphash and siphash apply" \
	"${adv[@]}" --candidates siphash,jhash
expect 2 "khash-bench: --multiplier: a table that reads a string hash ranks string hashes, not a multiplier" \
	"${adv[@]}" --multiplier 0x9e370001
expect 2 "khash-bench: --name-set applies to a table that reads a string hash ('khash-bench list')" \
	advise --keyset page4k --bits 10 --name-set numbered
expect 2 "khash-bench: table nfsd-idmap reads names: give --names FILE or --name-set NAME" \
	advise --table nfsd-idmap
printf '10.0.0.1\n10.0.0\n' >"$tmp/not-ip"
refuses 1 "khash-bench: $tmp/not-ip: sunrpc-ip_map: '10.0.0' is not an IPv4 or IPv6 address (name 1 of 2, sorted)" \
	advise --table sunrpc-ip_map --names "$tmp/not-ip"
expect 1 "khash-bench: numbered: 1 distinct name: nothing can collide" "${adv[@]}" --count 1
printf 'a\nb\n' >"$tmp/two"
expect 2 "khash-bench: table dcache hashes names with its own string hash: --func does not apply" \
	advise --table dcache --names "$tmp/two" --func hash_32
expect 2 "khash-bench: --count applies to --name-set, not to --names" \
	advise --table dcache --names "$tmp/two" --count 10
expect 2 "khash-bench: table dcache: give --names FILE or --name-set NAME, not both" \
	explain --table dcache --sgen new --names "$tmp/two" --name-set numbered

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
