#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate tests/golden/vectors.csv: expected kernel hash values.

Independent of the C library on purpose: every value is computed here from
the definitions with Python's arbitrary-precision integers (a product reduced
modulo 2^w, then floor-divided by 2^(w - bits)), never with the library's
shifts, masks or shift-and-add chain.

Columns: func,gen,word,bits,input,expected  (bits is 0 for functions that
take none; input and expected are lowercase hex).
"""
import random
import sys

GOLDEN_RATIO_PRIME_32 = 0x9E370001
GOLDEN_RATIO_PRIME_64 = 0x9E37FFFFFFFC0001
GOLDEN_RATIO_32 = 0x61C88647
GOLDEN_RATIO_64 = 0x61C8864680B583EB

# The old 64-bit multiplier as the comment beside it defines it.
assert GOLDEN_RATIO_PRIME_64 == 2**63 + 2**61 - 2**57 + 2**54 - 2**51 - 2**18 + 1
assert GOLDEN_RATIO_PRIME_32 == 2**31 + 2**29 - 2**25 + 2**22 - 2**19 - 2**16 + 1


def top(value, width, bits):
    """The top `bits` of a `width`-bit value, by division."""
    assert 0 <= value < 2**width and 1 <= bits <= width
    return value // 2 ** (width - bits)


def mul(a, k, width):
    return (a * k) % 2**width


def raw32(gen, x):
    k = GOLDEN_RATIO_32 if gen == "new" else GOLDEN_RATIO_PRIME_32
    return mul(x, k, 32)


def hash64_word(gen, word, x):
    """hash_64 before the shift: (value, width)."""
    hi, lo = divmod(x, 2**32)
    # v4.6 (minimal) changed only 64-bit kernels' hash_64
    if gen == "old" or (gen == "minimal" and word == 32):
        return mul(x, GOLDEN_RATIO_PRIME_64, 64), 64
    if word == 64:
        return mul(x, GOLDEN_RATIO_64, 64), 64
    if gen == "posted":
        return mul((mul(hi, GOLDEN_RATIO_32, 32) + lo) % 2**32, GOLDEN_RATIO_32, 32), 32
    return mul(lo ^ mul(hi, GOLDEN_RATIO_32, 32), GOLDEN_RATIO_32, 32), 32


def bits_max(func, gen, word):
    """Width of what the kernel returned (the valid range of bits)."""
    if func in ("__hash_32", "hash32_ptr"):
        return 0
    if func == "hash_32" or (func in ("hash_long", "hash_ptr") and word == 32):
        return 32
    if func == "hash_ptr" and gen not in ("old", "minimal"):
        return 32  # hash_ptr returned unsigned long until v4.6, u32 from the fix on
    if gen in ("old", "minimal") or (gen == "posted" and word == 64):
        return 64
    return 32


def expected(func, gen, word, bits, x):
    if func == "__hash_32":
        return raw32(gen, x)
    if func == "hash32_ptr":
        return (x ^ (x >> 32)) % 2**32 if word == 64 else x
    if func == "hash_32" or (func in ("hash_long", "hash_ptr") and word == 32):
        return top(raw32(gen, x), 32, bits)
    value, width = hash64_word(gen, word, x)
    return top(value, width, bits)


def input_width(func, word):
    if func in ("hash_32", "__hash_32"):
        return 32
    if func == "hash_64":
        return 64
    return word


def inputs(width, rng):
    """(sweep, extra): sweep inputs get every bits value, extra a few."""
    mask = 2**width - 1
    if width == 64:
        sweep = [0, 1, mask, 2**63, 2**32 - 1, 0x0123456789ABCDEF,
                 0xFFFF888000001000, 0xFFFFEA0000000040,
                 0x40000000 + 7 * 3 * 65536]
        extra = [1 << i for i in range(64)]
        extra += [0xFFFF888000000000 + k * 4096 for k in (2, 3, 17, 255, 4095)]
        extra += [0xFFFF888000000000 + k * 2**21 for k in (1, 2, 511)]
        extra += [0xFFFFEA0000000000 + k * 64 for k in (2, 3, 4097)]
        extra += [0xC0000000 + k * 4096 for k in (0, 1, 777)]
        extra += [0x1_0000_0000 + k * 4 * 65536 for k in (1, 2, 100)]
        extra += [3, 2**63 - 1, 2**32, 0x12345678, 4096 * 12345,
                  0xFFFF888000200000, 0xFFFFEA00000FA000]
        extra += [rng.getrandbits(64) for _ in range(24)]
    else:
        sweep = [0, 1, mask, 2**31, 0x12345678, 0xC0001000, 0xF7000020]
        extra = [1 << i for i in range(32)]
        extra += [0xC0000000 + k * 4096 for k in (2, 3, 17, 255, 4095)]
        extra += [0xF7000000 + k * 32 for k in (1, 2, 4097)]
        extra += [k * 512 for k in (1, 3, 1000)]
        extra += [2, 3, 2**31 - 1, 0x9E370001, 0x61C88647, 0xC0200000]
        extra += [rng.getrandbits(32) for _ in range(24)]
    extra = [v for i, v in enumerate(extra) if v not in sweep and v not in extra[:i]]
    assert all(0 <= v <= mask for v in sweep + extra)
    return sweep, extra


FUNCS = ("hash_32", "__hash_32", "hash_64", "hash_long", "hash_ptr", "hash32_ptr")
GENS = ("old", "minimal", "posted", "new")  # release order
EXTRA_BITS = (1, 11, 20, 32, 33, 64)


def main(out):
    rng = random.Random(20160502)  # the date of the posted fix
    sets = {w: inputs(w, rng) for w in (32, 64)}
    rows = 0
    out.write("func,gen,word,bits,input,expected\n")
    for func in FUNCS:
        for gen in GENS:
            for word in (32, 64):
                sweep, extra = sets[input_width(func, word)]
                bmax = bits_max(func, gen, word)
                for x in sweep + extra:
                    if bmax == 0:
                        chosen = [0]
                    elif x in sweep:
                        chosen = range(1, bmax + 1)
                    else:
                        chosen = [b for b in EXTRA_BITS if b <= bmax]
                    for bits in chosen:
                        y = expected(func, gen, word, bits, x)
                        out.write(f"{func},{gen},{word},{bits},{x:#x},{y:#x}\n")
                        rows += 1
    return rows


if __name__ == "__main__":
    with open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout as f:
        n = main(f)
    print(f"{n} vectors", file=sys.stderr)
