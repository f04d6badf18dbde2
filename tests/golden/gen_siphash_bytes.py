#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""siphash and hsiphash over bytes, computed apart from the C code.

An independent model of lib/siphash.c's siphash(data, len, key) and
hsiphash(data, len, key), the candidates `advise` ranks over names: SipHash
from its paper's definition (Aumasson and Bernstein, "SipHash: a fast
short-input PRF", 2012), c rounds per message word and d to finish, and
HalfSipHash, its 32-bit variant, returning v1 ^ v3 as the kernel does.

  gen_siphash_bytes.py                 print the CSV (tests/golden/siphash_bytes.csv)
  gen_siphash_bytes.py --check FILE    exit 1 unless FILE is what it prints

Every row hashes the bytes 00 01 .. len-1 (the paper's messages) under the
paper's key 00 01 .. 0f (64-bit kernels: two u64; a 32-bit kernel's hsiphash
key is two u32, 00 .. 07).  Before printing, the model must give the
paper's published SipHash-2-4 values, or it stops.
"""
import sys

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1


def rotl(x, r, bits):
    mask = (1 << bits) - 1
    return ((x << r) | (x >> (bits - r))) & mask


def sip_round(v, bits, rot):
    """One SipRound on v (a list of four words); rot: the six rotations."""
    mask = (1 << bits) - 1
    a, b, c, d, e, f = rot
    v[0] = (v[0] + v[1]) & mask
    v[1] = rotl(v[1], a, bits) ^ v[0]
    v[0] = rotl(v[0], e, bits)
    v[2] = (v[2] + v[3]) & mask
    v[3] = rotl(v[3], b, bits) ^ v[2]
    v[0] = (v[0] + v[3]) & mask
    v[3] = rotl(v[3], c, bits) ^ v[0]
    v[2] = (v[2] + v[1]) & mask
    v[1] = rotl(v[1], d, bits) ^ v[2]
    v[2] = rotl(v[2], f, bits)


def words(msg, size):
    """The message as the paper pads it: whole little-endian words, then
    the last one holding len mod 256 in its top byte over the tail."""
    n = len(msg) // size
    out = [int.from_bytes(msg[i * size:(i + 1) * size], 'little') for i in range(n)]
    tail = int.from_bytes(msg[n * size:], 'little')
    out.append(tail | (len(msg) & 0xff) << (8 * size - 8))
    return out


def siphash(msg, k0, k1, c, d):
    """SipHash-c-d, 64-bit output."""
    v = [0x736f6d6570736575 ^ k0, 0x646f72616e646f6d ^ k1,
         0x6c7967656e657261 ^ k0, 0x7465646279746573 ^ k1]
    for m in words(msg, 8):
        v[3] ^= m
        for _ in range(c):
            sip_round(v, 64, (13, 16, 21, 17, 32, 32))
        v[0] ^= m
    v[2] ^= 0xff
    for _ in range(d):
        sip_round(v, 64, (13, 16, 21, 17, 32, 32))
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def halfsiphash13_kernel(msg, k0, k1):
    """HalfSipHash-1-3 as a 32-bit kernel's hsiphash: v1 ^ v3."""
    v = [k0, k1, 0x6c796765 ^ k0, 0x74656462 ^ k1]
    for m in words(msg, 4):
        v[3] ^= m
        sip_round(v, 32, (5, 8, 7, 13, 16, 16))
        v[0] ^= m
    v[2] ^= 0xff
    for _ in range(3):
        sip_round(v, 32, (5, 8, 7, 13, 16, 16))
    return v[1] ^ v[3]


KEY = bytes(range(16))
K0 = int.from_bytes(KEY[:8], 'little')
K1 = int.from_bytes(KEY[8:], 'little')
# a 32-bit kernel's hsiphash_key_t: two unsigned longs, the bytes 00 .. 07
H0 = int.from_bytes(KEY[:4], 'little')
H1 = int.from_bytes(KEY[4:8], 'little')

# The paper's values for SipHash-2-4 under key 00 .. 0f: its appendix's
# 15-byte example, and the first rows of the reference's table of 64
# vectors (messages 00 .. n-1), read as little-endian u64.
PAPER = {15: 0xa129ca6149be45e5, 0: 0x726fdb47dd0e0e31, 1: 0x74f839c593dc67fd}

LENGTHS = list(range(0, 33)) + [63, 64, 65, 255]


def rows():
    for n, want in PAPER.items():
        got = siphash(bytes(range(n)), K0, K1, 2, 4)
        if got != want:
            sys.exit('model: SipHash-2-4 of %d bytes is %#x, the paper says %#x' % (n, got, want))
    yield '# tests/golden/gen_siphash_bytes.py: siphash and hsiphash of the bytes 00 01 .. len-1'
    yield 'func,word,len,expected'
    for n in LENGTHS:
        msg = bytes(i & 0xff for i in range(n))
        yield 'siphash,any,%d,%#018x' % (n, siphash(msg, K0, K1, 2, 4))
        yield 'hsiphash,64,%d,%#010x' % (n, siphash(msg, K0, K1, 1, 3) & M32)
        yield 'hsiphash,32,%d,%#010x' % (n, halfsiphash13_kernel(msg, H0, H1))


def main():
    text = ''.join(r + '\n' for r in rows())
    if len(sys.argv) == 3 and sys.argv[1] == '--check':
        with open(sys.argv[2]) as f:
            if f.read() != text:
                sys.exit('%s differs from what %s prints' % (sys.argv[2], sys.argv[0]))
        return
    if len(sys.argv) != 1:
        sys.exit('usage: %s [--check FILE]' % sys.argv[0])
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
