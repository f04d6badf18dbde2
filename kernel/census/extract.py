#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a census boot's disk into tests/data/census/<kernel>-<arch>.txt[.xz].

usage: extract.py DISK ARCH KERNEL OUT_DIR [--stem NAME] [--meta 'name text' ...]
       extract.py --check FILE...
       extract.py --same-sites A B

DISK is the raw image the guest's /init wrote (kernel/census/<kernel>/
init.sh): a line "KHASH-CENSUS-DISK 1 <guest bytes> <census bytes>",
the guest's meta lines, then the census file.  The census is checked
against the format (version 1, or 2 whose module sites end in the
module's name) by khash-bench census ($KHASH_BENCH, else khash-bench in
PATH, else build/bench/khash-bench), its "meta kernel" line is replaced
by KERNEL, and the guest's and the given meta lines go after the
kernel's own.  The result is OUT_DIR/<STEM>.txt, or <STEM>.txt.xz when
the text is over 1.5 MB (the other of the two is removed); STEM is ARCH
unless --stem gives one (collect.sh gives <kernel>-<arch>, as
6.12-x86_64).  --check only checks files (plain or .xz) and prints a
summary of each.  --same-sites checks two census files and compares the
sites that ran (function, bits, file:line, module; not ids, calls or
keys): exit 0 and one line when the lists are equal, else each site
only one file has, "-" for A and "+" for B, and exit 1 (how a rerun of
collect.sh shows it reproduces the site list).
"""
import lzma
import os
import re
import shutil
import subprocess
import sys

XZ_OVER = 1_500_000
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def khash_bench():
    """$KHASH_BENCH, else khash-bench in PATH, else the build's."""
    kb = (os.environ.get("KHASH_BENCH") or shutil.which("khash-bench")
          or os.path.join(TOP, "build", "bench", "khash-bench"))
    if not os.access(kb, os.X_OK):
        sys.exit(f"extract.py: no khash-bench at {kb} (build it, or set KHASH_BENCH)")
    return kb


def check(text, name="census"):
    """Return (sites, calls, keys) or raise ValueError naming the line.

    The format has one grammar, the C reader's: khash-bench census reads
    the text and its one-line message is the reason; here lines are only
    counted for the summary."""
    r = subprocess.run([khash_bench(), "census", "-"], input=text.encode(),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode != 0:
        msg = r.stderr.decode(errors="replace").strip().splitlines()
        msg = msg[-1] if msg else f"khash-bench census exited {r.returncode}"
        if msg.startswith("khash-bench: "):
            msg = msg[len("khash-bench: "):]
        raise ValueError(msg.replace("<stdin>", name, 1))
    sites = calls = keys = 0
    for line in text.split("\n"):
        f = line.split(" ")
        if f[0] == "site":
            sites += 1
            calls += int(f[4])
        elif f[0] == "keys":
            keys += len(f) - 2
    return sites, calls, keys


def sites(text):
    """The sites that ran, as (function, bits, file:line, module) lines,
    counted with their multiplicity (a header's inline function gives one
    site per .c file that uses it, all at the header's line)."""
    out = {}
    for line in text.split("\n"):
        f = line.split(" ")
        if f[0] == "site":
            k = " ".join([f[2], f[3], f[5]] + f[6:7])
            out[k] = out.get(k, 0) + 1
    return out


def same_sites(a, b):
    sa, sb = (sites(read_any(p)) for p in (a, b))
    for p in (a, b):
        check(read_any(p), p)
    diff = [f"- {k}" + (f" (x{sa[k] - sb.get(k, 0)})" if sa[k] - sb.get(k, 0) > 1 else "")
            for k in sorted(sa) if sa[k] > sb.get(k, 0)]
    diff += [f"+ {k}" + (f" (x{sb[k] - sa.get(k, 0)})" if sb[k] - sa.get(k, 0) > 1 else "")
             for k in sorted(sb) if sb[k] > sa.get(k, 0)]
    if not diff:
        print(f"same sites: {sum(sa.values())} sites ran in both")
        return 0
    print(f"different sites: {len([d for d in diff if d[0] == '-'])} only in {a}, "
          f"{len([d for d in diff if d[0] == '+'])} only in {b}")
    print("\n".join(diff))
    return 1


def read_any(path):
    # newline="": the text as written, CRs and all, for the reader to judge
    if path.endswith(".xz"):
        with lzma.open(path, "rt", newline="") as f:
            return f.read()
    with open(path, newline="") as f:
        return f.read()


def main():
    if sys.argv[1:2] == ["--same-sites"]:
        if len(sys.argv) != 4:
            print("usage: extract.py --same-sites A B", file=sys.stderr)
            return 2
        try:
            return same_sites(sys.argv[2], sys.argv[3])
        except (ValueError, OSError, lzma.LZMAError) as e:
            print(f"extract.py: {e}", file=sys.stderr)
            return 1
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
    extra, stem = [], arch
    args = sys.argv[5:]
    while args:
        if args[0] not in ("--meta", "--stem") or len(args) < 2:
            sys.exit("usage: extract.py DISK ARCH KERNEL OUT_DIR [--stem NAME] [--meta 'name text']...")
        if args[0] == "--stem":
            stem = args[1]
        else:
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
    plain = os.path.join(outdir, stem + ".txt")
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
