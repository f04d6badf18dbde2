#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference tail probabilities of the chi-squared distribution.

Writes tests/stats/chi2_reference.csv: df,x,log10_sf,log10_cdf computed with
mpmath's regularized incomplete gamma functions at 60 significant digits, so
the C implementation (bench/core/stats.c) is checked against an independent,
far more precise computation.  log10 is stored so tails far below the
smallest double (1e-308) are still checked.
"""
import sys

import mpmath as mp

mp.mp.dps = 60

DFS = [1, 2, 3, 7, 31, 63, 255, 1023, 2047, 4095, 65535, 2**20 - 1, 2**24 - 1]
ZS = [-12, -8, -5, -3, -1, -0.25, 0, 0.25, 1, 3, 5, 8, 12, 40]
RATIOS = [1e-4, 0.01, 0.2, 5, 30, 1000]


def lower_by_series(a, x):
    """P(a, x) from its power series, summed at 60 digits."""
    term = total = mp.mpf(1)
    n = 0
    while term > total * mp.mpf(10) ** -40:
        n += 1
        term *= x / (a + n)
        total += term
    return mp.exp(a * mp.log(x) - x - mp.loggamma(a + 1)) * total


def upper_by_fraction(a, x):
    """Q(a, x) from its continued fraction (Lentz), at 60 digits."""
    tiny = mp.mpf(10) ** -200
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    i = 0
    while True:
        i += 1
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < mp.mpf(10) ** -40:
            break
    return mp.exp(a * mp.log(x) - x - mp.loggamma(a)) * h


def tails(a, x):
    """(sf, cdf): mpmath's own gammainc where it converges, else our sums
    at 60 digits (mpmath gives up on big a far out in a tail)."""
    try:
        return (mp.gammainc(a, x, mp.inf, regularized=True),
                mp.gammainc(a, 0, x, regularized=True))
    except mp.libmp.libhyper.NoConvergence:
        pass
    if x < a + 1:
        p = lower_by_series(a, x)
        return 1 - p, p
    q = upper_by_fraction(a, x)
    return q, 1 - q


def row(df, x):
    a = mp.mpf(df) / 2
    half = mp.mpf(x) / 2
    sf, cdf = tails(a, half)
    return f"{df},{mp.nstr(mp.mpf(x), 17)},{mp.nstr(mp.log10(sf), 17)},{mp.nstr(mp.log10(cdf), 17)}"


def main(out):
    out.write("df,x,log10_sf,log10_cdf\n")
    for df in DFS:
        xs = set()
        for z in ZS:
            x = df + z * mp.sqrt(2 * df)
            if x > 0:
                xs.add(mp.nstr(x, 17))
        for r in RATIOS:
            xs.add(mp.nstr(mp.mpf(df) * r, 17))
        for x in sorted(xs, key=float):
            out.write(row(df, mp.mpf(x)) + "\n")


if __name__ == "__main__":
    with open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout as f:
        main(f)
