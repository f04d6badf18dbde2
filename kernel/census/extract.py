#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the disk a census boot wrote into tests/data/census/<arch>.txt[.xz].

usage: extract.py DISK ARCH KERNEL OUT_DIR [--meta 'name text' ...]
       extract.py --check FILE...

DISK is the raw image the guest's /init wrote (kernel/census/init.sh):
a line "KHASH-CENSUS-DISK 1 <guest bytes> <census bytes>", the guest's
meta lines, then the census file.  The census is checked against the
format (version 1), its "meta kernel" line is replaced by KERNEL, and the
guest's and the given meta lines go after the kernel's own.  The result
is OUT_DIR/<ARCH>.txt, or <ARCH>.txt.xz when the text is over 1.5 MB
(the other of the two is removed).  --check only checks files (plain or
.xz) and prints a summary of each.
"""
import lzma
import os
import re
import sys

FUNCS = {"hash_32", "hash_64", "hash_long", "hash_ptr", "hash32_ptr",
         "__hash_32", "inode_hash", "btrfs_inode_hash"}
PAIRS = {"inode_hash", "btrfs_inode_hash"}
HEX = re.compile(r"^[0-9a-f]+$")
SITE = re.compile(r"^site (\d+) (\S+) (\d+) (\d+) (\S+):(\d+)$")
META = re.compile(r"^meta ([A-Za-z0-9_.-]+) (.+)$")
XZ_OVER = 1_500_000


def key_bits(func, word):
    if func in ("hash_32", "__hash_32"):
        return 32
    if func == "hash_64":
        return 64
    return word  # hash_long, hash_ptr, hash32_ptr, inode_hash; btrfs below


def check(text, name="census"):
    """Return (sites, calls, keys) or raise ValueError naming the line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != "khash-census 1":
        raise ValueError(f"{name}:1: first line is not 'khash-census 1'")
    metas, sites, nkeys = {}, {}, 0
    for no, line in enumerate(lines[1:], 2):
        where = f"{name}:{no}"
        if line.startswith("#"):
            continue
        if line.startswith("meta "):
            m = META.match(line)
            if not m:
                raise ValueError(f"{where}: bad meta line")
            metas.setdefault(m.group(1), m.group(2))
            continue
        if line.startswith("site "):
            m = SITE.match(line)
            if not m:
                raise ValueError(f"{where}: bad site line")
            sid, func, bits = int(m.group(1)), m.group(2), int(m.group(3))
            if func not in FUNCS:
                raise ValueError(f"{where}: unknown func {func}")
            if sid in sites:
                raise ValueError(f"{where}: site {sid} again")
            if func == "hash_32" and not 1 <= bits <= 32:
                raise ValueError(f"{where}: hash_32 bits {bits}")
            if func == "hash_64" and not 1 <= bits <= 64:
                raise ValueError(f"{where}: hash_64 bits {bits}")
            if func in ("__hash_32", "hash32_ptr", "btrfs_inode_hash") and bits:
                raise ValueError(f"{where}: {func} takes no bits")
            if m.group(1) != str(sid) or m.group(4) != str(int(m.group(4))):
                raise ValueError(f"{where}: leading zeros")
            sites[sid] = (func, int(m.group(4)))
            continue
        if line.startswith("keys "):
            f = line.split(" ")
            if len(f) < 3 or len(f) > 18 or not f[1].isdigit():
                raise ValueError(f"{where}: bad keys line ({len(f) - 2} keys)")
            sid = int(f[1])
            if sid not in sites:
                raise ValueError(f"{where}: keys before site {sid}")
            func = sites[sid][0]
            for k in f[2:]:
                parts = k.split(":")
                if len(parts) != (2 if func in PAIRS else 1):
                    raise ValueError(f"{where}: key {k} for {func}")
                for i, p in enumerate(parts):
                    if not HEX.match(p):
                        raise ValueError(f"{where}: key {k} not lower-case hex")
                    word = int(metas.get("word", "64"))
                    limit = 64 if func == "btrfs_inode_hash" else key_bits(func, word)
                    if int(p, 16) >> limit:
                        raise ValueError(f"{where}: key {k} wider than {limit} bits")
                nkeys += 1
            continue
        raise ValueError(f"{where}: unknown record: {line[:40]!r}")
    for need in ("word", "arch", "kernel"):
        if need not in metas:
            raise ValueError(f"{name}: no meta {need}")
    if metas["word"] not in ("32", "64") or metas["arch"] not in ("x86_64", "i386"):
        raise ValueError(f"{name}: bad meta word/arch")
    return len(sites), sum(c for _, c in sites.values()), nkeys


def read_any(path):
    if path.endswith(".xz"):
        with lzma.open(path, "rt") as f:
            return f.read()
    with open(path) as f:
        return f.read()


def main():
    if sys.argv[1:2] == ["--check"]:
        rc = 0
        for p in sys.argv[2:]:
            try:
                s, c, k = check(read_any(p), p)
                print(f"{p}: OK, {s} sites, {c} calls, {k} keys")
            except ValueError as e:
                print(f"{p}: {e}")
                rc = 1
        return rc
    disk, arch, kernel, outdir = sys.argv[1:5]
    extra = []
    args = sys.argv[5:]
    while args:
        if args[0] != "--meta" or len(args) < 2:
            sys.exit("usage: extract.py DISK ARCH KERNEL OUT_DIR [--meta 'name text']...")
        extra.append("meta " + args[1])
        args = args[2:]
    with open(disk, "rb") as f:
        head = f.readline().decode()
        m = re.match(r"^KHASH-CENSUS-DISK 1 (\d+) (\d+)\n$", head)
        if not m:
            sys.exit(f"{disk}: no census written (first line {head[:40]!r})")
        guest = f.read(int(m.group(1))).decode()
        census = f.read(int(m.group(2))).decode()
    if len(census) != int(m.group(2)) or not census:
        sys.exit(f"{disk}: census short or empty ({len(census)} bytes)")
    out, done = [], False
    for line in census.split("\n"):
        if line.startswith("meta kernel "):
            line = "meta kernel " + kernel
        if not done and line.startswith(("site ", "keys ")):
            out.extend(extra)
            out.extend(l for l in guest.split("\n") if l)
            done = True
        out.append(line)
    if not done:
        out[-1:-1] = extra + [l for l in guest.split("\n") if l]
    text = "\n".join(out)
    if not text.endswith("\n"):
        text += "\n"
    s, c, k = check(text, f"{arch} census")
    if arch != re.search(r"^meta arch (\S+)$", text, re.M).group(1):
        sys.exit(f"{disk}: the kernel says another arch")
    os.makedirs(outdir, exist_ok=True)
    plain = os.path.join(outdir, arch + ".txt")
    for old in (plain, plain + ".xz"):
        if os.path.exists(old):
            os.remove(old)
    if len(text) > XZ_OVER:
        with lzma.open(plain + ".xz", "wt", preset=9 | lzma.PRESET_EXTREME) as f:
            f.write(text)
        where = plain + ".xz"
    else:
        with open(plain, "w") as f:
            f.write(text)
        where = plain
    print(f"{where}: {s} sites, {c} calls, {k} keys, {len(text)} bytes of text, "
          f"{os.path.getsize(where)} on disk")
    return 0


if __name__ == "__main__":
    sys.exit(main())
