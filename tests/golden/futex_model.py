#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The futex tables' buckets, modelled apart from the C code: lookup3's
hashword (Bob Jenkins' definition, 2006, as the kernel's jhash2 takes it:
JHASH_INITVAL 0xdeadbeef) over the words of union futex_key as
kernel/futex/core.c (6.12) fills them, on little-endian x86.

Usage: futex_model.py TABLE WORD BITS MM < keys > buckets
       futex_model.py selfcheck
  TABLE: global or private (6.16); MM: the mm pointer (global only).
Reads one key a line (decimal or 0x hex, '#' comments) and prints each
key's bucket in decimal, in order; `khash-bench hash --table` must agree.
"""
import sys

M = 0xFFFFFFFF


def rot(x, k):
    return ((x << k) | (x >> (32 - k))) & M


def mix(a, b, c):
    # lookup3's mix(): six rounds of subtract, xor-rotate, add
    for r, (x, y, z) in zip((4, 6, 8, 16, 19, 4),
                            ("abc", "bca", "cab", "abc", "bca", "cab")):
        v = {"a": a, "b": b, "c": c}
        v[x] = (v[x] - v[z]) & M
        v[x] ^= rot(v[z], r)
        v[z] = (v[z] + v[y]) & M
        a, b, c = v["a"], v["b"], v["c"]
    return a, b, c


def final(a, b, c):
    # lookup3's final(): seven xor-then-subtract-rotated steps
    for x, y, r in (("c", "b", 14), ("a", "c", 11), ("b", "a", 25),
                    ("c", "b", 16), ("a", "c", 4), ("b", "a", 14),
                    ("c", "b", 24)):
        v = {"a": a, "b": b, "c": c}
        v[x] ^= v[y]
        v[x] = (v[x] - rot(v[y], r)) & M
        a, b, c = v["a"], v["b"], v["c"]
    return c


def lookup3(seed, w, n, per_block):
    """Mix blocks of three words while more than per_block units (words
    or bytes) remain, then the last block, zero-padded, through final."""
    a = b = c = seed & M
    i = 0
    while n > per_block:
        a, b, c = mix((a + w[i]) & M, (b + w[i + 1]) & M, (c + w[i + 2]) & M)
        i, n = i + 3, n - per_block
    if n == 0:
        return c
    return final((a + w[i]) & M, (b + w[i + 1]) & M, (c + w[i + 2]) & M)


def hashword(k, initval):
    """lookup3's hashword: the kernel's jhash2(k, len(k), initval)."""
    return lookup3(0xDEADBEEF + (len(k) << 2) + initval, list(k) + [0] * 3,
                   len(k), 3)


def hashlittle(data, initval):
    """lookup3's byte hash on a little-endian machine: the same mix and
    final, whose published values selfcheck compares."""
    p = data + bytes(12)
    w = [int.from_bytes(p[j:j + 4], "little") for j in range(0, len(p) - 3, 4)]
    return lookup3(0xDEADBEEF + len(data) + initval, w, len(data), 12)


def selfcheck():
    """lookup3.c's driver5 prints these (Bob Jenkins, 2006)."""
    text = b"Four score and seven years ago"
    got = (hashlittle(b"", 0), hashlittle(b"", 0xDEADBEEF),
           hashlittle(text, 0), hashlittle(text, 1))
    want = (0xDEADBEEF, 0xBD5B7DDE, 0x17770551, 0xCD628161)
    if got != want:
        sys.exit("lookup3 model: %s, not %s" % ([hex(x) for x in got],
                                                [hex(x) for x in want]))
    print("lookup3 model: published values agree")


def words(value, nbytes):
    """The little-endian u32 words of an nbytes-wide integer."""
    return [(value >> (32 * j)) & M for j in range(nbytes // 4)]


def bucket(table, word, bits, mm, uaddr):
    page, offset = uaddr & ~0xFFF, uaddr & 0xFFF
    k = words(mm, 8) if table == "global" else []  # the mm: a u64 slot
    k += words(page, word // 8)                     # an unsigned long
    return hashword(k, offset) & ((1 << bits) - 1)


def main():
    if sys.argv[1:] == ["selfcheck"]:
        selfcheck()
        return
    table, word, bits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    mm = int(sys.argv[4], 0) if len(sys.argv) > 4 else 0
    for line in sys.stdin:
        line = line.split("#")[0].strip()
        if line:
            print(bucket(table, word, bits, mm, int(line, 0)))


if __name__ == "__main__":
    main()
