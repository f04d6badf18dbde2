#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference expected maximum bucket load, n keys in m buckets.

Writes tests/stats/max_load_reference.csv: n,m,expected_max under the model
bench/core/stats.c documents (bucket loads independent Poisson(n/m)):
E[max] = sum_{k>=1} 1 - F(k-1)^m, F the Poisson CDF, summed term by term
at 50 digits with mpmath.  Also a few exact small cases (m = 1).
"""
import sys

import mpmath as mp

mp.mp.dps = 50

CASES = [(1, 1), (1000, 1), (16, 16), (100, 64), (4096, 2048), (4096, 65536),
         (65536, 65536), (10**6, 1024), (2**20, 2**20), (2**24, 2**16),
         (10, 2**24), (2**24, 2**24)]


def expected_max(n, m):
    if m == 1:
        return mp.mpf(n)
    lam = mp.mpf(n) / m
    total = mp.mpf(0)
    cdf = mp.mpf(0)  # F(k-1)
    pmf = mp.exp(-lam)  # P(load = k-1)
    k = 1
    while True:
        cdf += pmf
        term = 1 - cdf ** m
        total += term
        if k > lam and term < mp.mpf(10) ** -30:
            return total
        pmf *= lam / k
        k += 1


def main(out):
    out.write("n,m,expected_max\n")
    for n, m in CASES:
        out.write(f"{n},{m},{mp.nstr(expected_max(n, m), 17)}\n")


if __name__ == "__main__":
    with open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout as f:
        main(f)
