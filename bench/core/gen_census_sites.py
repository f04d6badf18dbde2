#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compile the census sites table (tests/data/atlas/census-sites.tsv, its
format at its top) into C: kb_census_site_uses[] of census_sites.h, one
entry a site and kernel.  A malformed row stops the build with its
file:line.

usage: gen_census_sites.py TSV OUT.c
"""
import re
import sys

KINDS = {"chained": "KB_KIND_CHAINED", "tree": "KB_KIND_TREE", "locks": "KB_KIND_LOCKS",
         "other": "KB_SITE_OTHER", "named": "KB_SITE_NAMED"}
FIXED = ["func", "kind", "what", "feeds", "why"]
SITE = re.compile(r"^[A-Za-z0-9_./+-]+:[1-9][0-9]*$")


def c_string(text):
    if text is None:
        return "NULL"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(path, out_path):
    texts = {"@same-line": "KB_SITE_FEEDS_SAME_LINE"}
    kernels, entries, seen = None, [], set()

    def fail(lineno, msg):
        sys.exit(f"{path}:{lineno}: {msg}")

    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if line.startswith("@"):
                if len(cols) != 2 or not cols[1]:
                    fail(lineno, "a definition is '@NAME<TAB>text'")
                texts[cols[0]] = c_string(cols[1])
                continue
            if kernels is None:
                if cols[-len(FIXED):] != FIXED or len(cols) <= len(FIXED):
                    fail(lineno, "the header names the kernels, then " + " ".join(FIXED))
                kernels = cols[:-len(FIXED)]
                continue
            if len(cols) != len(kernels) + len(FIXED):
                fail(lineno, f"{len(cols)} columns, the header has {len(kernels) + len(FIXED)}")
            sites, (func, kind, what, feeds, _why) = cols[:len(kernels)], cols[len(kernels):]
            if kind not in KINDS:
                fail(lineno, f"kind '{kind}' is none of {', '.join(KINDS)}")
            if feeds != "-" and kind != "other":
                fail(lineno, "only a site of kind other feeds another hash")
            if feeds.startswith("@") and feeds not in texts:
                fail(lineno, f"{feeds} is not defined above it")
            if all(s == "-" for s in sites):
                fail(lineno, "the site is in no kernel's census")
            for kernel, site in zip(kernels, sites):
                if site == "-":
                    continue
                if not SITE.match(site):
                    fail(lineno, f"'{site}' is not file:line")
                key = (kernel, site, func)
                if key in seen:
                    fail(lineno, f"{kernel} {site} ({func}) has a row already")
                seen.add(key)
                entries.append("\t{ %s, %s, %s, %s, %s, %s }," % (
                    c_string(kernel), c_string(site), c_string(None if func == "-" else func),
                    KINDS[kind], c_string(what),
                    texts[feeds] if feeds.startswith("@") else c_string(None if feeds == "-" else feeds)))
    if kernels is None or not entries:
        sys.exit(f"{path}: no header or no rows")
    with open(out_path, "w", encoding="utf-8") as out:
        out.write("/* Made by bench/core/gen_census_sites.py from tests/data/atlas/"
                  "census-sites.tsv: edit that. */\n")
        out.write('#include "census_sites.h"\n\n#include <stddef.h>\n\n')
        out.write("const struct kb_census_site_use kb_census_site_uses[] = {\n")
        out.write("\n".join(entries) + "\n};\n\n")
        out.write("const unsigned kb_census_site_uses_count =\n"
                  "\tsizeof(kb_census_site_uses) / sizeof(kb_census_site_uses[0]);\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().split("\n")[-1])
    main(sys.argv[1], sys.argv[2])
