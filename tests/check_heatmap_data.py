#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Read a heatmap back through gnuplot and compare it, cell by cell, with
the CSV of the same run: each cell at its own place, coloured by
log10(X^2/df) of that very cell, no colour where the CSV has no verdict
(n/a, too few keys), and lettered B or S exactly where the CSV says broken
or skewed.

Usage:
  check_heatmap_data.py report REPORT.csv PLOT-DIR FUNC WORD
  check_heatmap_data.py tables TABLES.csv PLOT-DIR WORD
  check_heatmap_data.py census CENSUS.csv PLOT-DIR
(census: each cell's colour class is its verdict's, even, ok, skewed,
broken or no bucket; its label X^2/df; every row name unique)
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
LETTER = {"broken": "B", "skewed": "S"}
GENS = ["old", "minimal", "posted", "new"]


def expected(r):
    """(log10(X^2/df) or None, letter) a CSV row asks of its cell."""
    v = None if r["verdict"] in NO_VERDICT else \
        math.log10(max(float(r["chi2_per_df"]), 1e-3))
    return v, LETTER.get(r["verdict"], "")


def painted(plot_dir, base):
    """gnuplot's own reading of the script, as numbers: a list of panels
    (one a `plot`), each {(x, y): [pixel value, letter]}."""
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "table.txt")
        # the images to the scratch folder: the figure's own stay whole
        subprocess.run(["gnuplot", "-e", f"set table '{table}'; out='{tmp}/{base}'", base + ".gp"],
                       cwd=plot_dir, check=True, capture_output=True)
        text = open(table, encoding="utf-8").read()
    panels, cur = [], None
    for curve in re.split(r"^# Curve ", text, flags=re.M)[1:]:
        lines = curve.split("\n")
        head = lines[1]
        if "pixel" in head:
            cur = {}
            panels.append(cur)
        for line in lines[2:]:
            parts = line.split()
            if len(parts) < 3 or cur is None or not ("pixel" in head or "label" in head):
                continue
            if not all(math.isfinite(float(p)) for p in parts[:2]):
                continue
            xy = (int(float(parts[0])), int(float(parts[1])))
            if "pixel" in head and parts[-1] == "i":
                cur.setdefault(xy, [None, ""])[0] = float(parts[2])
            elif "label" in head and xy in cur:
                cur[xy][1] = parts[2].strip('"')
    return panels


def compare(name, want, got, bad):
    """want and got: {key: (value or None, letter)}; failures into bad."""
    for key in sorted(set(got) - set(want)):
        bad.append(f"{name} {key}: painted, but not in the CSV")
    for key in sorted(want):
        if key not in got:
            bad.append(f"{name} {key}: in the CSV, not painted")
            continue
        (exp, exp_l), (val, letter) = want[key], got[key]
        if exp is None:
            if val is not None and not math.isnan(val):
                bad.append(f"{name} {key}: no verdict in the CSV, painted {val}")
        elif val is None or math.isnan(val) or abs(val - exp) > 0.002:
            bad.append(f"{name} {key}: painted {val}, the CSV's log10(X^2/df) is {exp:.4f}")
        if letter != exp_l:
            bad.append(f"{name} {key}: lettered '{letter}', the CSV's verdict wants '{exp_l}'")


def row_names(plot_dir, base):
    """The figure's y tic labels: the second block of its data file."""
    text = open(os.path.join(plot_dir, base + ".dat"), encoding="utf-8").read()
    block = text.split("\n\n\n")[1]
    return {int(m.group(1)): m.group(2)
            for m in re.finditer(r'^(\d+) "(.*)"$', block, re.M)}


def check_report(csv_path, plot_dir, func, word, bad):
    base = f"heatmap_{func}_w{word}"
    gp = open(os.path.join(plot_dir, base + ".gp"), encoding="utf-8").read()
    tics = re.search(r'set ytics \((.*)\)', gp).group(1)
    rows = {int(n): name for name, n in re.findall(r'"([^"]+)" (\d+)', tics)}
    gens = re.findall(r'^  set title "(\w+)"$', gp, re.M)
    want = {}
    with open(csv_path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["func"] == func and r["word"] == word:
                want[(r["gen"], r["keys"], int(r["bits"]))] = expected(r)
    # the script renders PNG and then SVG: the first len(gens) are one picture
    panels = painted(plot_dir, base)[:len(gens)]
    if len(panels) != len(gens):
        bad.append(f"{len(panels)} image panels for generations {gens}")
    got = {}
    for gen, panel in zip(gens, panels):
        for (bits, row), cell in panel.items():
            got[(gen, rows.get(row, f"row {row}"), bits)] = tuple(cell)
    compare(base, want, got, bad)
    return base, len(got)


def check_gen_heatmap(base, plot_dir, rows, top, bad):
    """A figure of generations across and rows of cells: rows is the CSV's
    [(name, {generation: expected})], in the figure's order of rows, and
    rows[top] the CSV's first, drawn at the top as in the text."""
    gp = open(os.path.join(plot_dir, base + ".gp"), encoding="utf-8").read()
    lo, hi = (float(v) for v in
              re.search(r'set yrange \[([-0-9.]+):([-0-9.]+)\]', gp).groups())
    # gnuplot draws the range's second end at the top, half a row past it
    drawn = round(hi - 0.5 if hi > lo else hi + 0.5)
    if drawn != top:
        bad.append(f"yrange [{lo}:{hi}] puts row {drawn} at the top, not the CSV's first (row {top})")
    names = row_names(plot_dir, base)
    want = {}
    for row, (name, gens) in enumerate(rows):
        if names.get(row) != name:
            bad.append(f"row {row}: named '{names.get(row)}', the CSV's is '{name}'")
        for gen, v in gens.items():
            want[(gen, row)] = v
    panels = painted(plot_dir, base)
    got = {}
    for (g, row), cell in (panels[0] if panels else {}).items():
        got[(GENS[g], row)] = tuple(cell)
    compare(base, want, got, bad)
    return base, len(got)


def csv_rows(csv_path, keep, site, name):
    """The CSV's cells grouped by site, in the CSV's order."""
    order, cells = [], {}
    with open(csv_path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if not keep(r):
                continue
            k = site(r)
            if k not in cells:
                order.append(k)
                cells[k] = (name(r), {})
            cells[k][1][r["gen"]] = expected(r)
    return [cells[k] for k in order]


def check_tables(csv_path, plot_dir, word, bad):
    # the first table of the CSV on top (row 0), as in the text
    rows = csv_rows(csv_path, lambda r: r["word"] == word,
                    lambda r: (r["table"], r["keys"]),
                    lambda r: f'{r["table"]} ({r["keys"]})')
    return check_gen_heatmap(f"tables_w{word}", plot_dir, rows, 0, bad)


# The census figure colours a cell by its verdict's class, not by X^2/df:
# one colour a class, so the colour can never disagree with the verdict.
CENSUS_CLASS = {"even": 0, "ok": 1, "skewed": 2, "broken": 3,
                "feeds another hash": 4, "no bucket": 4}
CENSUS_MARK = {"broken": "B", "skewed": "S", "feeds another hash": "F",
               "no bucket": "N"}


def census_cells(plot_dir):
    """The figure's data block 0: {(generation, row): (class, verdict, label)}."""
    text = open(os.path.join(plot_dir, "census.dat"), encoding="utf-8").read()
    cells = {}
    for m in re.finditer(r'^(\d+) (\d+) (\d+) \S+ (\S+) "([^"]*)" "([^"]*)"$',
                         text.split("\n\n\n")[0], re.M):
        g, row, cls, mark, verdict, label = m.groups()
        cells[(GENS[int(g)], int(row))] = (int(cls), verdict, label, mark)
    return cells


def check_census(csv_path, plot_dir, bad):
    # judged sites only, the CSV's first at the top: rows count up from the
    # bottom
    order, cells = [], {}
    with open(csv_path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["verdict"] == "too few keys":
                continue
            k = (r["file"], r["id"])
            if k not in cells:
                order.append(k)
                cells[k] = {}
            cells[k][r["gen"]] = r
    n = len(order)
    names = row_names(plot_dir, "census")
    if len(set(names.values())) != len(names):
        dup = sorted(v for v in names.values() if list(names.values()).count(v) > 1)
        bad.append(f"row names repeat: {dup[:2]}")
    if len(names) != n:
        bad.append(f"{len(names)} row names for {n} judged sites")
    data = census_cells(plot_dir)
    # gnuplot's own reading of the image: the pixel value is the class + 0.5
    panels = painted(plot_dir, "census")
    got = panels[0] if panels else {}
    for i, k in enumerate(order):
        row = n - 1 - i
        for gen, r in cells[k].items():
            want = CENSUS_CLASS[r["verdict"]]
            cell = data.get((gen, row))
            if cell is None:
                bad.append(f"{k} {gen}: in the CSV, not in the figure's data")
                continue
            cls, verdict, label, mark = cell
            if verdict != r["verdict"] or cls != want:
                bad.append(f"{k} {gen}: class {cls} '{verdict}', the CSV's verdict is '{r['verdict']}'")
            if mark != CENSUS_MARK.get(r["verdict"], "-"):
                bad.append(f"{k} {gen}: marked '{mark}' for '{r['verdict']}'")
            x2 = float(r["chi2_per_df"])
            num = label.split()[0].strip("()")
            if num != "<.01" and abs(float(num) - x2) > 0.0051 * max(1, x2):
                bad.append(f"{k} {gen}: labelled {label}, the CSV's X^2/df is {x2}")
            pix = got.get((GENS.index(gen), row), [None])[0]
            if pix is None or math.isnan(pix) or int(pix) != want:
                bad.append(f"{k} {gen}: painted {pix}, the class of '{r['verdict']}' is {want}")
    return "census", len(data)


def main():
    mode, args, bad = sys.argv[1], sys.argv[2:], []
    if mode == "report":
        base, n = check_report(*args[:4], bad)
    elif mode == "tables":
        base, n = check_tables(*args[:3], bad)
    elif mode == "census":
        base, n = check_census(*args[:2], bad)
    else:
        sys.exit(f"check_heatmap_data.py: unknown figure '{mode}'")
    for b in bad[:10]:
        print(f"{base}: {b}")
    if not bad:
        print(f"{base}: {n} cells as in the CSV")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
