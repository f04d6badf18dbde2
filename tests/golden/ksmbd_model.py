#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ksmbd's inode table, modelled apart from the C code, from the formulas
as fs/smb/server/vfs_cache.c (Linux 6.12) and the 2025 patch write them,
in unsigned long arithmetic of a WORD-bit x86 kernel.

Usage: ksmbd_model.py VARIANT WORD BITS [SB] < keys > buckets
  VARIANT: today  inode_hash(sb, key): (key * sb) ^ (GOLDEN_RATIO_PRIME
                  + key) / L1_CACHE_BYTES, then xor'ed with itself xor
                  the prime shifted down by BITS, masked to BITS
           patch  hash_long(key ^ sb, BITS)
           key    hash_long(key, BITS)
Reads one key a line (decimal or 0x hex, '#' comments) and prints each
key's bucket in decimal, in order; `khash-bench hash --table` must agree.
"""
import sys

# include/linux/hash.h since v4.7; GOLDEN_RATIO_PRIME is the one of the
# word, and hash_long is hash_32 on 32-bit kernels, hash_64 on 64-bit
GOLDEN = {32: 0x61C88647, 64: 0x61C8864680B583EB}
# x86's L1_CACHE_BYTES: X86_L1_CACHE_SHIFT 6 on x86_64, 5 for M686
L1 = {32: 32, 64: 64}


def hash_long(x, word, bits):
    return ((x * GOLDEN[word]) % 2**word) >> (word - bits)


def bucket(variant, word, bits, sb, key):
    m = 2**word
    if variant == "key":
        return hash_long(key, word, bits)
    if variant == "patch":
        return hash_long(key ^ sb, word, bits)
    p = GOLDEN[word]
    tmp = ((key * sb) % m) ^ (((p + key) % m) // L1[word])
    tmp ^= (tmp ^ p) >> bits
    return tmp % 2**bits


def main():
    variant, word, bits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sb = int(sys.argv[4], 0) if len(sys.argv) > 4 else 0
    for line in sys.stdin:
        line = line.split("#")[0].strip()
        if line:
            print(bucket(variant, word, bits, sb, int(line, 0)))


if __name__ == "__main__":
    main()
