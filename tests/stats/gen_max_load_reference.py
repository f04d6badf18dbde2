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
         (10, 2**24), (2**24, 2**24),
         # 10^3 .. 10^9 keys a bucket: past 4096 terms the C code switches
         # to the trapezoid rule, past 10^7 keys a bucket to a normal limit
         (10**3 * 1024, 1024), (10**4 * 1024, 1024), (10**5 * 1024, 1024),
         (10**6 * 1024, 1024), (10**6 * 65536, 65536), (10**7 * 1024, 1024),
         (10**8 * 1024, 1024), (10**9 * 1024, 1024)]


def expected_max_window(lam, m):
    """Large loads: every term below lam - 14 sigma is 1 and every term
    above lam + 14 sigma under 1e-40, so sum the window only, starting from
    the Poisson CDF there (a regularized incomplete gamma)."""
    sigma = mp.sqrt(lam)
    k0 = int(mp.floor(lam - 14 * sigma))
    k1 = int(mp.ceil(lam + 14 * sigma))
    cdf = mp.gammainc(k0, lam, mp.inf, regularized=True)  # P(load <= k0-1)
    pmf = mp.exp(k0 * mp.log(lam) - lam - mp.loggamma(k0 + 1))  # P(load = k0)
    total = mp.mpf(k0 - 1)
    for k in range(k0, k1 + 1):
        total += 1 - cdf ** m  # P(max >= k), cdf = F(k - 1)
        cdf += pmf
        pmf *= lam / (k + 1)
    return total


def expected_max(n, m):
    if m == 1:
        return mp.mpf(n)
    lam = mp.mpf(n) / m
    if lam > 10**4:
        return expected_max_window(lam, m)
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
