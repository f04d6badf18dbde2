#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Read khash-bench's figures back as a reader sees them: what gnuplot
really drew (its axis ranges and plot areas, panel by panel, and the points
and labels it plotted) against the figure's own data, and every text of the
SVG inside the canvas.

Usage:
  check_figures.py text SVG...        no text runs past the canvas
  check_figures.py hist DIR BASE      bucket-load histogram
  check_figures.py heatmap DIR BASE   report heatmap (panels side by side)
  check_figures.py audit DIR BASE     audit's worst stride by table size
  check_figures.py waittable DIR BASE wait tables' spurious wake-ups
Exit 0 when the figure holds; otherwise 1, naming what does not.
"""
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

# A character's advance as a fraction of the font size.  gnuplot's PNGs
# (pngcairo, the documents' figures) measure about 0.66 on these titles; the
# estimate errs wide, so a text close to the edge in the SVG is cut in a PNG.
CHAR_WIDTH = 0.7
ASCENT, DESCENT = 0.8, 0.3  # of the font size, above and below the baseline


def svg_texts(path):
    """[(text, x0, x1, y0, y1)] of every text of a gnuplot SVG, and the
    canvas (width, height)."""
    root = ET.parse(path).getroot()
    width, height = float(root.get("width")), float(root.get("height"))
    out = []

    def walk(el, size, anchor, transform):
        size = float(el.get("font-size", size))
        anchor = el.get("text-anchor", anchor)
        transform = el.get("transform", transform)
        for child in el:
            tag = child.tag.split("}")[-1]
            if tag == "text":
                text = "".join(child.itertext())
                if text.strip():
                    out.append(box(text, size, anchor, transform))
            else:
                walk(child, size, anchor,
                     child.get("transform", transform) if tag == "g" else transform)

    def box(text, size, anchor, transform):
        m = re.search(r"translate\(([-0-9.]+),\s*([-0-9.]+)\)", transform or "")
        x, y = (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)
        r = re.search(r"rotate\(([-0-9.]+)", transform or "")
        angle = float(r.group(1)) % 360 if r else 0.0
        w = len(text) * size * CHAR_WIDTH
        lo = {"start": 0.0, "middle": -w / 2, "end": -w}[anchor or "start"]
        if angle in (90.0, 270.0):
            # runs up (270) or down (90) from the anchor; its height across
            along = (y - lo - w, y - lo) if angle == 270.0 else (y + lo, y + lo + w)
            return (text, x - ASCENT * size, x + ASCENT * size, along[0], along[1])
        return (text, x + lo, x + lo + w, y - ASCENT * size, y + DESCENT * size)

    walk(root, 12.0, "start", None)
    return out, (width, height)


def check_text(paths, bad):
    n = 0
    for path in paths:
        try:
            texts, (width, height) = svg_texts(path)
        except ET.ParseError as e:
            bad.append(f"{path}: not a whole SVG ({e})")
            continue
        for text, x0, x1, y0, y1 in texts:
            n += 1
            if x0 < 0 or x1 > width or y0 < 0 or y1 > height:
                bad.append(f"{os.path.basename(path)}: '{text}' runs past the "
                           f"{width:g}x{height:g} canvas ({x0:.0f}..{x1:.0f}, {y0:.0f}..{y1:.0f})")
    return n


def probe(plot_dir, base, tmp):
    """Render BASE.gp again as it is (PNG and SVG into tmp), printing after
    each plot what gnuplot drew: [{area: (x0, x1, y0, y1) in SVG pixels,
    x: (min, max), y: (min, max), logy}] for the SVG's panels, and the SVG."""
    lines = open(os.path.join(plot_dir, base + ".gp"), encoding="utf-8").read().split("\n")
    out, logy, in_plot = [], False, False
    for line in lines:
        out.append(line)
        s = line.strip()
        if re.match(r"set logscale( x \d+)? y|set logscale y", s) or s == "set logscale y":
            logy = True
        elif s == "unset logscale y":
            logy = False
        if s.startswith("plot ") or in_plot:
            in_plot = s.endswith("\\")
            if not in_plot:
                out.append('  print sprintf("PANEL %g %g %g %g %g %g %g %g %d", '
                           "GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, "
                           f"GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX, {int(logy)})")
    gp = os.path.join(tmp, base + ".gp")
    open(gp, "w", encoding="utf-8").write("\n".join(out))
    r = subprocess.run(["gnuplot", "-e", f"out='{tmp}/{base}'; data='{plot_dir}/{base}.dat'", gp],
                       capture_output=True, text=True, check=True)
    rows = [l.split()[1:] for l in r.stderr.splitlines() if l.startswith("PANEL ")]
    svg = os.path.join(tmp, base + ".svg")
    height = float(ET.parse(svg).getroot().get("height"))
    panels = []
    for v in rows[len(rows) // 2:]:  # the PNG's, then the SVG's
        f = [float(x) for x in v]
        # the SVG's y runs down from the top
        panels.append({"area": (f[0], f[1], height - f[3], height - f[2]),
                       "x": (f[4], f[5]), "y": (f[6], f[7]), "logy": bool(f[8])})
    return panels, svg


def table(plot_dir, base):
    """gnuplot's own table of what the script plots: [(title, [rows])] a
    curve, each row its fields (x, y, then a label or a point type)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "table.txt")
        subprocess.run(["gnuplot", "-e", f"set table '{path}'; out='{tmp}/{base}'", base + ".gp"],
                       cwd=plot_dir, check=True, capture_output=True)
        text = open(path, encoding="utf-8").read()
    curves = []
    for curve in re.split(r"^# Curve (?=\d+ of)", text, flags=re.M)[1:]:
        lines = curve.split("\n")
        m = re.search(r'^# Curve title: "(.*)"$', curve, re.M)
        rows = [l.split(None, 2) for l in lines[1:] if l.strip() and not l.startswith("#")]
        curves.append((m.group(1) if m else "", rows))
    return curves[:len(curves) // 2]  # the PNG's pass; the SVG's repeats it


def where(v, lo, hi, log):
    """v's place on an axis from lo (0) to hi (1)."""
    if log:
        return (math.log(v) - math.log(lo)) / (math.log(hi) - math.log(lo))
    return (v - lo) / (hi - lo)


def inside(name, v, rng, log, bad, room=0.03):
    """v drawn inside the frame, clear of both edges."""
    f = where(v, rng[0], rng[1], log)
    if not room <= f <= 1 - room:
        bad.append(f"{name} {v:g} at {f:.3f} of the axis {rng[0]:g}..{rng[1]:g}"
                   f"{' (log)' if log else ''}: on or past the frame")


def aligned(panels, bad):
    """Panels one above the other share their left and right edges, side
    by side their top and bottom; all have one width and one height."""
    for p in panels[1:]:
        a, b = panels[0]["area"], p["area"]
        same = [abs(a[i] - b[i]) <= 0.5 for i in range(4)]
        if not ((same[0] and same[1]) or (same[2] and same[3])) or \
           abs((a[1] - a[0]) - (b[1] - b[0])) > 0.5 or abs((a[3] - a[2]) - (b[3] - b[2])) > 0.5:
            bad.append(f"panel plot areas do not line up: {a} and {b}")


def key_outside(svg, panels, starts, bad):
    """Every key entry (a text starting with one of starts) right of the
    plot area of its panel: the key covers no data."""
    texts, _ = svg_texts(svg)
    for text, x0, _x1, y0, y1 in texts:
        if not text.startswith(starts):
            continue
        for p in panels:
            ax0, ax1, ay0, ay1 = p["area"]
            if y1 > ay0 and y0 < ay1 and x0 < ax1:
                bad.append(f"key '{text}' at x {x0:.0f}, inside the plot area {ax0:.0f}..{ax1:.0f}")


def expected_max(n, m):
    """The fullest of m buckets a random function fills with n keys:
    E[max] = sum over k >= 1 of 1 - P(Poisson(n/m) < k)^m."""
    lam, total, k, cdf, term = n / m, 0.0, 0, 0.0, math.exp(-n / m)
    while True:
        cdf += term  # P(load <= k)
        k += 1
        term *= lam / k
        p = 1 - cdf ** m
        total += p
        if p < 1e-12 and k > lam:
            return total


def check_hist(plot_dir, base, bad):
    rows = [l.split() for l in open(os.path.join(plot_dir, base + ".dat"), encoding="utf-8")
            if not l.startswith("#")]
    cols = len(rows[0]) - 1
    m = len(rows)
    with tempfile.TemporaryDirectory() as tmp:
        panels, svg = probe(plot_dir, base, tmp)
        if len(panels) != cols:
            bad.append(f"{len(panels)} panels for {cols} data columns")
            return 0
        aligned(panels, bad)
        key_outside(svg, panels, ("random function", "fuller than"), bad)
    # labels by panel: a panel's label curves follow its impulses
    curves, panel = table(plot_dir, base), -1
    labels = [dict() for _ in range(cols)]
    for title, curve in curves:
        if not title and curve and len(curve[0]) >= 3 and curve[0][2].strip() in ("i", "o"):
            panel += 1  # the impulses: bucket, load, in or out of range
            continue
        for r in curve:
            if len(r) == 3 and r[2].startswith('"') and r[2].strip('"'):
                labels[panel][int(float(r[0]))] = (float(r[1]), r[2].strip('"'))
    for c in range(cols):
        loads = [int(r[c + 1]) for r in rows]
        n = sum(loads)
        used = [b for b, v in enumerate(loads) if v]
        p = panels[c]
        name = f"panel {c + 1}"
        pad = 0.005 * (p["x"][1] - p["x"][0])
        if used and (min(used) < p["x"][0] + pad or max(used) > p["x"][1] - pad):
            bad.append(f"{name}: buckets {min(used)}..{max(used)} on or past the frame "
                       f"{p['x'][0]:g}..{p['x'][1]:g}")
        emax = expected_max(n, m)
        for what, v in (("mean load", n / m), ("fullest bucket", emax)):
            inside(f"{name}: a random function's {what}", v, p["y"], p["logy"], bad)
        if max(loads) > p["y"][1]:
            bad.append(f"{name}: max load {max(loads)} above the axis's {p['y'][1]:g}")
        fuller = {b: v for b, v in enumerate(loads) if v > emax}
        want = {b: (v, f"{b}: {v}") for b, v in fuller.items()} if len(fuller) <= 8 else {}
        got = {b: (y, t) for b, (y, t) in labels[c].items()}
        if got != {b: (float(v), t) for b, (v, t) in want.items()}:
            bad.append(f"{name}: labels {sorted(got.items())[:4]}, the data's buckets past "
                       f"{emax:.3g} keys are {sorted(want.items())[:4]}")
    return cols


def check_heatmap(plot_dir, base, bad):
    gp = open(os.path.join(plot_dir, base + ".gp"), encoding="utf-8").read()
    tics = re.search(r"set cbtics \((.*)\)", gp).group(1)
    for label, pos in re.findall(r'"([^"]*)" ([-0-9.]+)', tics):
        # a log scale's tics at powers of ten, labelled with their value
        if float(pos) != round(float(pos)) or \
           label.lstrip(">=") != f"{10 ** float(pos):g}":
            bad.append(f"colour-bar tic '{label}' at {pos}: not a power of ten labelled as one")
    with tempfile.TemporaryDirectory() as tmp:
        panels, _ = probe(plot_dir, base, tmp)
        aligned(panels, bad)
    return len(panels)


def check_audit(plot_dir, base, bad):
    lines = open(os.path.join(plot_dir, base + ".dat"), encoding="utf-8").read().split("\n")
    names = lines[0].split()[1:]
    data = [[float(v) for v in l.split()[1:]] for l in lines[1:] if l.strip()]
    gp = open(os.path.join(plot_dir, base + ".gp"), encoding="utf-8").read()
    styles = {}
    for col, lc, dt, pt, ps, title in re.findall(
            r'data using 1:(\d+) with linespoints .*?lc rgb "([^"]+)" dt (\d+) pt (\d+) ps ([0-9.]+) title "([^"]*)"', gp):
        styles[int(col) - 2] = (lc, dt, pt, ps, title)
    if sorted(styles) != list(range(len(names))):
        bad.append(f"series drawn {sorted(styles)}, the data has {len(names)}")
        return 0
    colours = [st[0] for st in styles.values()]
    if len(set(colours)) < min(len(colours), 12):
        bad.append(f"{len(colours)} series in {len(set(colours))} colours")
    seen = {}
    for i, (lc, dt, pt, ps, title) in styles.items():
        if (lc, dt, pt) in seen:
            bad.append(f"{names[i]} drawn as {names[seen[(lc, dt, pt)]]} is (colour, dashes, point)")
        seen[(lc, dt, pt)] = i
        # on another's line: within 5% at every table size
        on = [j for j in range(i) if all(abs(math.log(r[i] / r[j])) <= math.log(1.05) for r in data)]
        says = re.search(r"on (\S+)'s line", title)
        if on and not (says and says.group(1) == names[on[0]] and float(ps) > 1.5):
            bad.append(f"{names[i]} lies on {names[on[0]]}'s line: its legend '{title}' "
                       "must say so and its points ring the other's")
        if says and not on:
            bad.append(f"{names[i]}: legend '{title}', but it lies on no other's line")
    with tempfile.TemporaryDirectory() as tmp:
        panels, _ = probe(plot_dir, base, tmp)
    for v, what in ((1, "the random function's line"), (10, "the broken line")):
        inside(what, v, panels[0]["y"], True, bad)
    for r in data:
        for v in r:
            inside("a worst X^2/df", v, panels[0]["y"], True, bad, room=0.0)
    return len(names)


def check_waittable(plot_dir, base, bad):
    rows = [[float(v) for v in l.split()] for l in
            open(os.path.join(plot_dir, base + ".dat"), encoding="utf-8") if not l.startswith("#")]
    gp = open(os.path.join(plot_dir, base + ".gp"), encoding="utf-8").read()
    tic = re.search(r'set ytics add \("0" ([-0-9.e]+)\)', gp)
    with tempfile.TemporaryDirectory() as tmp:
        panels, svg = probe(plot_dir, base, tmp)
        key_outside(svg, panels, ("old,", "new,", "random function", "0: none"), bad)
    p = panels[0]
    positive = min(v for r in rows for v in r[1:] if v > 0)
    zeros = {c: [r[0] for r in rows if r[c] == 0] for c in range(1, 5)}
    if not any(zeros.values()):
        return len(rows)
    if not tic:
        bad.append("zeros in the data, and no tic labelled 0 on the y axis")
        return len(rows)
    floor = float(tic.group(1))
    inside("the zero floor", floor, p["y"], True, bad)
    if floor >= positive:
        bad.append(f"the zero floor {floor:g} not below the least mean {positive:g}")
    marks = {}
    for title, curve in table(plot_dir, base):
        for r in curve:
            if len(r) >= 3 and r[2].strip() == "i" and float(r[1]) == floor:
                marks.setdefault(title, []).append(float(r[0]))
    heads = ["old, random pages", "new, random pages", "old, a run of pages", "new, a run of pages"]
    for c, xs in zeros.items():
        got = marks.get(f"{heads[c - 1]}: 0", [])
        if sorted(got) != sorted(xs):
            bad.append(f"{heads[c - 1]}: zeros at {xs}, marked at the floor at {got}")
    return len(rows)


def main():
    mode, args, bad = sys.argv[1], sys.argv[2:], []
    if mode == "text":
        n, name = check_text(args, bad), "texts"
    elif mode in ("hist", "heatmap", "audit", "waittable"):
        n = globals()["check_" + mode](args[0], args[1], bad)
        name = f"{args[1]}: {mode}"
    else:
        sys.exit(f"check_figures.py: unknown check '{mode}'")
    for b in bad[:10]:
        print(b)
    if not bad:
        print(f"{name}: {n} as drawn")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
