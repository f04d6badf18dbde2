#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Extract the khash-keys blocks from a console log into key files.

usage: extract.py LOG ARCH OUTDIR KERNEL_VERSION

The log is what kunit.py --raw_output=all printed for a kernel with
kernel/keys/0001-*.patch.  Each block

    [time] khash-keys: begin <kind> <machine> <count>
    [time] khash-keys: 0x...
    [time] khash-keys: end <kind>

becomes OUTDIR/<kind>.txt: a '#' header, then one 0x key per line, in the
order the kernel allocated the objects.  Fails on a missing or short
block, or a machine name that is not ARCH (i386 kernels say i686).
"""
import re
import sys

KINDS = {
    "page": "page_address() of 4096 pages from alloc_page(GFP_KERNEL), "
            "all held at once (direct-map addresses)",
    "struct_page": "the struct page pointers of the same 4096 pages",
    "kmalloc_192": "4096 objects from kmalloc(192, GFP_KERNEL) (kmalloc-192), "
                   "all held at once",
    "kmalloc_256": "4096 objects from kmalloc(256, GFP_KERNEL) (kmalloc-256), "
                   "all held at once",
    "cache_104": "4096 objects from kmem_cache_create(\"khash_keys_104\", 104, "
                 "0, 0, NULL), all held at once",
    "inode": "file->f_inode of 1024 files from shmem_file_setup(), "
             "all held at once",
    "dentry": "file->f_path.dentry of the same 1024 shmem files",
    "file": "the struct file pointers of the same 1024 shmem files",
}

MACHINES = {"i386": ("i386", "i486", "i586", "i686")}

LINE = re.compile(r"khash-keys: (.*)$")


def main():
    log, arch, outdir, kver = sys.argv[1:5]
    blocks = {}
    cur = None
    with open(log, errors="replace") as f:
        for raw in f:
            m = LINE.search(raw.rstrip("\r\n"))
            if not m:
                continue
            words = m.group(1).split()
            if words[0] == "begin":
                kind, machine, count = words[1], words[2], int(words[3])
                # utsname machine: x86_64, and i686 for an i386 build
                if machine not in MACHINES.get(arch, (arch,)):
                    sys.exit(f"{log}: block {kind} is from {machine}, not {arch}")
                cur = (kind, count, [])
            elif words[0] == "end":
                if cur is None or words[1] != cur[0]:
                    sys.exit(f"{log}: unmatched end {words[1]}")
                kind, count, keys = cur
                if len(keys) != count:
                    sys.exit(f"{log}: {kind}: {len(keys)} keys, announced {count}")
                blocks[kind] = keys
                cur = None
            elif cur is not None:
                cur[2].append(int(words[0], 16))
    missing = [k for k in KINDS if k not in blocks]
    if missing:
        sys.exit(f"{log}: no block for {' '.join(missing)}")
    width = 16 if arch == "x86_64" else 8
    for kind, keys in blocks.items():
        with open(f"{outdir}/{kind}.txt", "w") as out:
            out.write(f"# Linux {kver} {arch} {kind}: {KINDS.get(kind, kind)}; "
                      f"printed during a QEMU boot by kernel/keys/0001-*.patch, "
                      f"extracted by kernel/keys/collect.sh; "
                      f"{len(keys)} keys, {len(set(keys))} distinct, "
                      f"in allocation order\n")
            for k in keys:
                out.write(f"0x{k:0{width}x}\n")
        print(f"{arch}/{kind}: {len(keys)} keys")


if __name__ == "__main__":
    main()
