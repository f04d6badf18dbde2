#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The census fixture and what a census of it must find.

Writes tests/census/fixture.txt (a khash-census 1 file, 64-bit kernel) and
prints, per site and generation, the bucket counts at the judged table and
X^2/df, buckets used and the maximum load computed from them, for
tests/test_census.c and tests/test_census_cli.sh to assert.  Independent of
the C on purpose: the hashes are the kernel's formulas in Python integers
(a product modulo 2^w, divided by 2^(w - bits)), X^2 is Pearson's sum over
the counts, and the judged size follows the documented rule (the largest
at <= bits with n(n-1)/2^(at+1) >= 100), not the code.

Usage: gen_expected.py [FIXTURE_OUT]
"""
import sys
from fractions import Fraction

GRP32, GRP64 = 0x9E370001, 0x9E37FFFFFFFC0001          # GOLDEN_RATIO_PRIME, old
GR32, GR64 = 0x61C88647, 0x61C8864680B583EB            # the golden ratio
GENS = ["old", "minimal", "posted", "new"]
W = 64
SB64 = 0xFFFF888003C2A000   # the inode-hash table's super block on 64-bit
INODE_BITS = 17             # its i_hash_shift


def hash32_mult(gen):
    return GR32 if gen == "new" else GRP32


def hash64_mult(gen):       # 64-bit kernel: v4.6 took the golden ratio
    return GRP64 if gen == "old" else GR64


def grp(gen):               # GOLDEN_RATIO_PRIME on a 64-bit kernel
    return GRP64 if gen in ("old", "minimal") else GR64


def top(v, width, bits):
    return v // 2 ** (width - bits)


def inode_bucket(gen, sb, hashval, bits):
    """fs/inode.c hash(), unsigned long arithmetic on a 64-bit kernel."""
    m = 2**W
    tmp = ((hashval * sb) % m) ^ (((grp(gen) + hashval) % m) // 64)
    tmp ^= (tmp ^ grp(gen)) >> bits
    return tmp % 2**bits


def judged(n, bits):
    at = 0
    while at < bits and at < 32 and n * (n - 1) >= 200 * 2 ** (at + 1):
        at += 1
    return at


# id, func, bits as recorded, calls, file:line, keys as recorded, and the
# bucket of a key at 2^at for a generation (the fold: top bits)
SITES = []


def site(sid, func, bits, calls, where, keys, bucket, tbits=None):
    SITES.append(dict(id=sid, func=func, bits=bits, calls=calls, where=where, keys=keys,
                      bucket=bucket, tbits=tbits if tbits is not None else bits))


# 29 distinct 64 KiB-aligned values, some twice: old hash_32 keeps them in bucket 0
k = [i << 16 for i in range(29)] + [3 << 16, 7 << 16]
site(1, "hash_32", 3, 40, "kernel/census_a.c:10", k,
     lambda g, x, at: top(x * hash32_mult(g) % 2**32, 32, at))
# 45 4 KiB page numbers' addresses through the btrfs call site's hash_64
site(2, "hash_64", 11, 45, "fs/btrfs/raid56.c:178", [(i + 1) << 12 for i in range(45)],
     lambda g, x, at: top(x * hash64_mult(g) % 2**64, 64, at))
# __hash_32 takes no bits: the whole 32-bit word, judged at its top bits
site(3, "__hash_32", 0, 70, "fs/namei.c:2109", [0x1040 * (i + 1) for i in range(70)],
     lambda g, x, at: top(x * hash32_mult(g) % 2**32, 32, at), tbits=32)
# fs/inode.c hash(sb, hashval) for 25 inode numbers of one super block
site(4, "inode_hash", 0, 60, "fs/inode.c:1234",
     [(SB64, 100 + 4096 * i) for i in range(60)],
     lambda g, x, at: inode_bucket(g, x[0], x[1], INODE_BITS) >> (INODE_BITS - at),
     tbits=INODE_BITS)
# btrfs_inode_hash(objectid, root), on into fs/inode.c hash() with the
# super block and i_hash_shift of the hash() records (site 7) that hold the
# value 6.1 (new) computed for it; the 20 keys without one take the super
# block most of the others found
SB2, SHIFT2 = 0xFFFF888004D10000, 15
BTRFS = [(256 + i, 5 + i % 3) for i in range(60)]


def btrfs_hash(g, objectid, root):
    return objectid ^ (root * grp(g) % 2**64)


site(5, "btrfs_inode_hash", 0, 60, "fs/btrfs/inode.c:5866", BTRFS,
     lambda g, x, at: inode_bucket(g, SB2, btrfs_hash(g, x[0], x[1]), SHIFT2)
     >> (SHIFT2 - at), tbits=SHIFT2)
# three distinct keys: too few
site(6, "hash_32", 10, 5, "kernel/census_b.c:20", [1, 2, 3, 1, 2], None)
# hash() as btrfs_iget_locked() calls it: i_hash_shift 15, the first 40
# btrfs keys' values under 6.1
site(7, "inode_hash", SHIFT2, 40, "fs/inode.c:1520",
     [(SB2, btrfs_hash("new", o, r)) for o, r in BTRFS[:40]],
     lambda g, x, at: inode_bucket(g, x[0], x[1], SHIFT2) >> (SHIFT2 - at))


def fmt(k):
    return "%x:%x" % k if isinstance(k, tuple) else "%x" % k


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else None
    lines = ["khash-census 1", "# tests/census/gen_expected.py writes this file",
             "meta word 64", "meta arch x86_64", "meta kernel fixture", "meta cap 64"]
    for s in SITES:
        lines.append("site %d %s %d %d %s" % (s["id"], s["func"], s["bits"], s["calls"], s["where"]))
        for i in range(0, len(s["keys"]), 16):
            lines.append("keys %d %s" % (s["id"], " ".join(fmt(k) for k in s["keys"][i:i + 16])))
    if out:
        with open(out, "w") as f:
            f.write("\n".join(lines) + "\n")
    print("# id gen at distinct chi2_per_df used max_load counts")
    for s in SITES:
        keys = sorted(set(s["keys"]))
        n = len(keys)
        at = judged(n, s["tbits"])
        if at == 0:
            print(s["id"], "-", 0, n, "too few keys")
            continue
        m = 2**at
        for g in GENS:
            counts = [0] * m
            for x in keys:
                counts[s["bucket"](g, x, at)] += 1
            e = Fraction(n, m)
            chi2 = sum((c - e) ** 2 / e for c in counts)
            print(s["id"], g, at, n, "%.12g" % float(chi2 / (m - 1)),
                  sum(1 for c in counts if c), max(counts), counts)


if __name__ == "__main__":
    main()
