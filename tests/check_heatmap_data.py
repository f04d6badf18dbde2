#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Read a report heatmap back through gnuplot and compare it, cell by cell,
with the report's CSV: each cell at its own (bits, key set) place in its
generation's panel, coloured by log10(X^2/df) of that very cell, and no
colour where the CSV has no verdict (n/a, too few keys).

Usage: check_heatmap_data.py REPORT.csv PLOT-DIR FUNC WORD
Exit 0 when every cell matches; otherwise 1, naming the first few that do not.
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

NO_VERDICT = ("n/a", "too few keys")


def main():
    csv_path, plot_dir, func, word = sys.argv[1:5]
    base = f"heatmap_{func}_w{word}"
    gp = open(os.path.join(plot_dir, base + ".gp"), encoding="utf-8").read()
    tics = re.search(r'set ytics \((.*)\)', gp).group(1)
    rows = {int(n): name for name, n in re.findall(r'"([^"]+)" (\d+)', tics)}
    gens = re.findall(r'^  set title "(\w+)"$', gp, re.M)

    want = {}
    with open(csv_path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["func"] != func or r["word"] != word:
                continue
            v = None if r["verdict"] in NO_VERDICT else \
                math.log10(max(float(r["chi2_per_df"]), 1e-3))
            want[(r["gen"], r["keys"], int(r["bits"]))] = v

    # gnuplot's own reading of the script: what it would paint, as numbers
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "table.txt")
        subprocess.run(["gnuplot", "-e", f"set table '{table}'", base + ".gp"],
                       cwd=plot_dir, check=True, capture_output=True)
        text = open(table, encoding="utf-8").read()
    panels = [c for c in re.split(r"^# Curve ", text, flags=re.M) if "pixel" in c.split("\n")[1]]
    # the script renders PNG and then SVG: the first len(gens) are one picture
    panels = panels[:len(gens)]
    seen, bad = set(), []
    if len(panels) != len(gens):
        bad.append(f"{len(panels)} image panels for generations {gens}")
    for gen, panel in zip(gens, panels):
        for line in panel.split("\n")[2:]:
            parts = line.split()
            if len(parts) != 4 or parts[3] != "i":
                continue
            bits, row, val = int(float(parts[0])), int(float(parts[1])), float(parts[2])
            key = (gen, rows.get(row, f"row {row}"), bits)
            seen.add(key)
            if key not in want:
                bad.append(f"{key}: painted, but not in the CSV")
                continue
            exp = want[key]
            if exp is None:
                if not math.isnan(val):
                    bad.append(f"{key}: no verdict in the CSV, painted {val}")
            elif math.isnan(val) or abs(val - exp) > 0.002:
                bad.append(f"{key}: painted {val}, the CSV's log10(X^2/df) is {exp:.4f}")
    for key in sorted(set(want) - seen):
        bad.append(f"{key}: in the CSV, not painted")
    for b in bad[:10]:
        print(f"{base}: {b}")
    if not bad:
        print(f"{base}: {len(seen)} cells as in the CSV")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
