#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate tests/golden/string_vectors.csv: the kernel's string hashes.

Independent of the C library on purpose: every value is computed here from
what each generation's kernel source does (kernel/string-hashes.md), with
Python's arbitrary-precision integers reduced modulo 2^w, words made by
int.from_bytes, rotations and top bits by multiplication and floor
division.  hashlen_string() and hash_name() walk the buffer the way the
kernel does (load a word, look for the terminator byte in it, mask what
follows), not by reducing to full_name_hash().

Columns: func,gen,word,path,salt,bits,input,expected (salt and expected in
lowercase hex; bits 0 where the function takes none; input is '=' and the
bytes in hex).
"""
import sys

GOLDEN_RATIO_PRIME_32 = 0x9E370001
GOLDEN_RATIO_PRIME_64 = 0x9E37FFFFFFFC0001
GOLDEN_RATIO_32 = 0x61C88647
GOLDEN_RATIO_64 = 0x61C8864680B583EB

# What each generation computes (kernel/string-hashes.md, section 5).
GENS = {
    #          word path        byte end    sunrpc                salted
    "sum":     ("sum-halves",   "trunc",    ("pack", "old"),      False),
    "fold":    ("sum-old64",    "trunc",    ("pack", "old"),      False),
    "minimal": ("sum-gr64",     "trunc",    ("pack", "minimal"),  False),
    "mix":     ("mix",          None,       ("stringhash", None), False),
    "salted":  ("mix",          "hash32",   ("stringhash", None), True),
    "new":     ("mix",          "hashlong", ("stringhash", None), True),
}
# Paths kept: before v4.7 only little-endian word loads are confirmed; v4.7's
# byte path's end is not established.
PATHS = {
    "sum": ("byte", "le"), "fold": ("byte", "le"), "minimal": ("byte", "le"),
    "mix": ("le", "be"), "salted": ("byte", "le", "be"), "new": ("byte", "le", "be"),
}
FUNCS = ("full_name_hash", "hashlen_string", "hash_name", "hash_str", "hash_mem")


def mod(v, w):
    return v % 2**w


def rotl(v, r, w):
    return mod(v * 2**r + v // 2 ** (w - r), w)


def hash32(v):
    return mod(v * GOLDEN_RATIO_32, 32)


# ---- word path ------------------------------------------------------------

def load(block, word, path):
    """A word's worth of bytes, missing ones zero, in the kernel's byte order."""
    block = block + bytes(word // 8 - len(block))
    return int.from_bytes(block, "little" if path == "le" else "big")


class WordState:
    def __init__(self, kind, word, salt):
        self.kind, self.w = kind, word
        self.x, self.y = 0, salt

    def full(self, a):
        w = self.w
        if self.kind != "mix":  # (hash + a) * 9
            self.x = mod(mod(self.x + a, w) * 9, w)
            return
        r1, r2 = (12, 45) if w == 64 else (7, 20)
        self.x ^= a
        self.y ^= self.x
        self.x = rotl(self.x, r1, w)
        self.x = mod(self.x + self.y, w)
        self.y = rotl(self.y, r2, w)
        self.y = mod(self.y * 9, w)

    def last(self, a):
        """The masked last word, then the fold to 32 bits."""
        w = self.w
        if self.kind != "mix":
            h = mod(self.x + a, w)
            if w == 32:
                return h
            if self.kind == "sum-halves":
                return mod(h + h // 2**32, 32)
            k = GOLDEN_RATIO_PRIME_64 if self.kind == "sum-old64" else GOLDEN_RATIO_64
            return mod(h * k, 64) // 2**32
        x = self.x ^ a
        if w == 32:
            return hash32(self.y ^ hash32(x))
        y = self.y ^ mod(x * GOLDEN_RATIO_64, 64)
        return mod(y * GOLDEN_RATIO_64, 64) // 2**32


def word_full_name_hash(kind, word, path, salt, data):
    """fs/namei.c full_name_hash: whole words mixed, the rest (0..B-1 bytes) last."""
    b = word // 8
    st = WordState(kind, word, salt)
    whole = len(data) // b
    for i in range(whole):
        st.full(load(data[i * b:(i + 1) * b], word, path))
    return st.last(load(data[whole * b:], word, path))


def word_scan(kind, word, path, salt, buf, stops):
    """hashlen_string / hash_name: load words from the buffer (past its end
    the kernel reads zeros), stop at the first word holding a terminator,
    keep only the bytes before it."""
    b = word // 8
    buf = buf + bytes(b)
    st = WordState(kind, word, salt)
    pos = 0
    while True:
        block = buf[pos:pos + b]
        cut = [i for i, c in enumerate(block) if c in stops]
        if cut:
            return st.last(load(block[:cut[0]], word, path)), pos + cut[0]
        st.full(load(block, word, path))
        pos += b


# ---- byte path ------------------------------------------------------------

def byte_hash(end, word, salt, data):
    h = salt
    for c in data:
        h = mod((h + c * 16 + c // 16) * 11, word)
    if end == "trunc":
        return mod(h, 32)
    if end == "hash32":
        return hash32(mod(h, 32))
    # hash_long(h, 32)
    return mod(h * GOLDEN_RATIO_64, 64) // 2**32 if word == 64 else hash32(h)


# ---- the functions ----------------------------------------------------------

def c_string(buf, stops):
    for i, c in enumerate(buf):
        if c in stops:
            return buf[:i]
    return buf


def name_hash(gen, word, path, salt, func, buf):
    """(hash, length) of full_name_hash / hashlen_string / hash_name."""
    kind, end, _, _ = GENS[gen]
    stops = {0} if func == "hashlen_string" else {0, ord("/")}
    if path == "byte":
        data = buf if func == "full_name_hash" else c_string(buf, stops)
        return byte_hash(end, word, salt, data), len(data)
    if func == "full_name_hash":
        return word_full_name_hash(kind, word, path, salt, buf), len(buf)
    return word_scan(kind, word, path, salt, buf, stops)


def hash_long(hgen, word, v):
    """hash_long(v, BITS_PER_LONG) of the old and v4.6 hash.h: the product."""
    if word == 32:
        return mod(v * GOLDEN_RATIO_PRIME_32, 32)
    k = GOLDEN_RATIO_PRIME_64 if hgen == "old" else GOLDEN_RATIO_64
    return mod(v * k, 64)


def rpc_pack(hgen, word, data):
    """svcauth.h before v4.7: bytes shifted into a long, first byte highest,
    the long never cleared; hash_long(hash ^ l) after each word's worth and
    after the length's low byte, which ends the string."""
    b = word // 8
    hashv = l = 0
    for count, c in enumerate(list(data) + [len(data) % 256], start=1):
        l = mod(l * 256 + c, word)
        if count % b == 0 or count == len(data) + 1:
            hashv = hash_long(hgen, word, hashv ^ l)
    return hashv


def expected(func, gen, word, path, salt, bits, buf):
    if func in ("hash_str", "hash_mem"):
        rpc, hgen = GENS[gen][2]
        data = c_string(buf, {0}) if func == "hash_str" else buf
        if rpc == "pack":
            return rpc_pack(hgen, word, data) // 2 ** (word - bits)
        inner = "hashlen_string" if func == "hash_str" else "full_name_hash"
        return name_hash(gen, word, path, 0, inner, buf)[0] // 2 ** (32 - bits)
    h, n = name_hash(gen, word, path, salt, func, buf)
    return h if func == "full_name_hash" else n * 2**32 + h


# ---- the inputs -------------------------------------------------------------

TEXT = b"abcdefghijklmnopqrstuvwxyz"
INPUTS = [b""] + [TEXT[:n] for n in range(1, 18)] + [
    TEXT[:23], TEXT[:24], TEXT[:25],
    b"\x80", b"\xff" * 9, bytes(range(0xF0, 0x100)), b"caf\xc3\xa9",
    b"usr/lib", b"abcdefgh/ijk", b"abc/", b"a\x00bc", b"abcdefgh\x00ijk",
    b"..", b"lost+found", b"vmlinuz-6.12.0-amd64", b"192.168.0.1",
]
SALTS = {32: (0, 0xC1234568), 64: (0, 0xFFFF88801234A5C0)}


def bits_list(func, gen, word):
    if func not in ("hash_str", "hash_mem"):
        return (0,)
    if GENS[gen][2][0] == "pack":
        return (1, 6, 10, 32) + ((40, 64) if word == 64 else ())
    return (1, 6, 10, 32)


def rows():
    for gen in GENS:
        for word in (32, 64):
            for path in PATHS[gen]:
                for func in FUNCS:
                    if func == "hashlen_string" and GENS[gen][0] != "mix":
                        continue  # came with v4.7
                    salted = GENS[gen][3] and func not in ("hash_str", "hash_mem")
                    for salt in SALTS[word] if salted else (0,):
                        for bits in bits_list(func, gen, word):
                            for buf in INPUTS:
                                if func == "hash_name" and (not buf or buf[0] in (0, ord("/"))):
                                    continue  # the kernel never asks
                                yield (func, gen, word, path, salt, bits, buf,
                                       expected(func, gen, word, path, salt, bits, buf))


def self_check():
    """Facts worked out by hand, not from the functions above."""
    # byte path, every generation ending in a truncation: "a" = (0x61*16 + 6) * 11
    assert byte_hash("trunc", 64, 0, b"a") == (0x61 * 16 + 6) * 11
    # the packing sunrpc, 64-bit "abc": l = 0x61626303 when hash_long runs
    assert rpc_pack("old", 64, b"abc") == (0x61626303 * GOLDEN_RATIO_PRIME_64) % 2**64
    # a name of whole words ends in an empty masked word in both readings
    for kind in ("mix", "sum-halves"):
        assert (word_full_name_hash(kind, 64, "le", 0, TEXT[:8]),
                8) == word_scan(kind, 64, "le", 0, TEXT[:8], {0})
    # big-endian loads put the first byte highest
    assert load(b"\x01", 32, "be") == 0x01000000 and load(b"\x01", 32, "le") == 1


def main():
    self_check()
    out = open(sys.argv[1], "w", encoding="ascii", newline="\n") if len(sys.argv) > 1 else sys.stdout
    out.write("func,gen,word,path,salt,bits,input,expected\n")
    for func, gen, word, path, salt, bits, buf, value in rows():
        out.write(f"{func},{gen},{word},{path},{salt:#x},{bits},={buf.hex()},{value:#x}\n")


if __name__ == "__main__":
    main()
