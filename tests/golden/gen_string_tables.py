#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate tests/golden/string_tables.csv: the bucket each table that reads
a string hash (khash-bench's bench/core/names.c) puts a few names in.

Independent of the C code: the string hashes are gen_string_vectors.py's
Python model; what each table does with them is written here from the
call sites in Linux 6.12 (fs/dcache.c d_hash(), svcauth_gss.c rsc_hash(),
svcauth_unix.c's ip_map lookup, nfs4idmap.c nametoid_hash(),
dns_resolve.c nfs_dns_hash()), hashed as x86 does: a word at a time,
little-endian.  The dcache's parent is the salt from v4.8 (salted, new)
and not used before.  ipv6_addr_hash() XORs the address's four 32-bit
words as x86 loads them; IPv4 is v4-mapped (::ffff:a.b.c.d).

Columns: table,sgen,word,bits,param,input,bucket (param and bucket in
lowercase hex; input is '=' and the name's bytes in hex).
With --check FILE: exit 1 unless FILE is what this prints.
"""
import ipaddress
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_string_vectors as sv  # noqa: E402

GENS = ("sum", "fold", "minimal", "mix", "salted", "new")
# hash.h's generation behind each string generation's hash_32
HASH_GEN = {"sum": "old", "fold": "old", "minimal": "minimal",
            "mix": "new", "salted": "new", "new": "new"}
# the dcache's parent: a dentry in the direct map (tables.h KB_DCACHE_PARENT*)
PARENT = {32: 0xC0000000 + 0x3A4E0C0, 64: 0xFFFF888000000000 + 0x3A4E0C0}


def hash_32(hgen, v, bits):
    k = 0x9E370001 if hgen in ("old", "minimal") else 0x61C88647
    return (v * k % 2**32) >> (32 - bits)


def dcache(gen, word, bits, name):
    salt = PARENT[word] if sv.GENS[gen][3] else 0
    hashlen = sv.expected("hash_name", gen, word, "le", salt, 0, name)
    return (hashlen % 2**32) >> (32 - bits), salt


def ipv6_addr_hash(text):
    addr = ipaddress.ip_address(text)
    if addr.version == 4:
        addr = ipaddress.IPv6Address("::ffff:" + text)
    raw = addr.packed
    h = 0
    for i in range(0, 16, 4):
        h ^= int.from_bytes(raw[i:i + 4], "little")
    return h


def bucket(table, gen, word, bits, name):
    """(bucket, param) of one name."""
    if table == "dcache":
        return dcache(gen, word, bits, name)
    if table == "sunrpc-rsc":
        return sv.expected("hash_mem", gen, word, "le", 0, bits, name), 0
    if table == "sunrpc-ip_map":
        cls = sv.expected("hash_str", gen, word, "le", 0, bits, b"nfsd")
        return cls ^ hash_32(HASH_GEN[gen], ipv6_addr_hash(name.decode()), bits), 0
    return sv.expected("hash_str", gen, word, "le", 0, bits, name), 0


NAMES = {
    "dcache": [b"file000001", b"file000002", b"vmlinuz-6.12.0-amd64", b"a", b"lost+found",
               b"abcdefgh"],
    "sunrpc-rsc": [(1).to_bytes(8, "little"), (2).to_bytes(8, "little"),
                   (65536).to_bytes(8, "little"), b"text-handle"],
    "sunrpc-ip_map": [b"10.0.0.1", b"10.0.0.2", b"192.168.0.1", b"2001:db8::1", b"fe80::1"],
    "nfsd-idmap": [b"asmith", b"bsmith", b"root@example.org"],
    "nfs-dns": [b"node0001.example.org", b"node0002.example.org"],
}
BITS = {"dcache": (10, 18), "sunrpc-rsc": (10,), "sunrpc-ip_map": (8,),
        "nfsd-idmap": (8,), "nfs-dns": (4,)}


def self_check():
    """Facts worked out by hand."""
    # 10.0.0.1 v4-mapped: words 0, 0, 0xffff0000, 0x0100000a (as x86 loads them)
    assert ipv6_addr_hash("10.0.0.1") == 0xFFFF0000 ^ 0x0100000A
    # hash_32 of v4.7 on: the product's top bits
    assert hash_32("new", 1, 8) == 0x61
    # before v4.8 the dcache's hash has no salt
    assert dcache("mix", 64, 10, b"a")[1] == 0


def rows():
    for table, names in NAMES.items():
        for gen in GENS:
            for word in (32, 64):
                for bits in BITS[table]:
                    for name in names:
                        b, param = bucket(table, gen, word, bits, name)
                        yield f"{table},{gen},{word},{bits},{param:#x},={name.hex()},{b:#x}\n"


def main():
    self_check()
    text = "table,sgen,word,bits,param,input,bucket\n" + "".join(rows())
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2], encoding="ascii") as f:
            if f.read() != text:
                print(f"FAIL: {sys.argv[2]} is not what {sys.argv[0]} prints")
                sys.exit(1)
        print(f"ok: {sys.argv[2]}")
        return
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
