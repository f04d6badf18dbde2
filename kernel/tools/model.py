#!/usr/bin/env python3
# Offline model of the distribution cases: which ones pass with the
# current multipliers and which fail with the pre-4.6 ones.
import sys
M32 = (1 << 32) - 1
M64 = (1 << 64) - 1
NEW32, NEW64 = 0x61C88647, 0x61C8864680B583EB
OLD32, OLD64 = 0x9e370001, 0x9e37fffffffc0001

def h32(v, b, gen):
    m = NEW32 if gen == 'new' else OLD32
    return ((v & M32) * m & M32) >> (32 - b)

def h64(v, b, gen, w):
    v &= M64
    if gen == 'old' or w == 64:
        m = NEW64 if gen == 'new' else OLD64
        return (v * m & M64) >> (64 - b)
    return h32((v & M32) ^ ((v >> 32) * NEW32 & M32), b, gen)

def hptr(v, b, gen, w):
    return h64(v, b, gen, 64) if w == 64 else h32(v, b, gen)

FAM = {
  64: dict(seq=(0, 1), page4k=(0xffff888000000000, 4096), page2m=(0xffff888000000000, 2 << 20),
           struct_page=(0xffffea0000000000, 64), btrfs_raid5=(0x221500000, 2 << 16), btrfs_raid6=(0x221500000, 3 << 16)),
  32: dict(seq=(0, 1), page4k=(0xc0000000, 4096), page2m=(0xc0000000, 2 << 20),
           struct_page=(0xc2000000, 32), btrfs_raid5=(0x221500000, 2 << 16), btrfs_raid6=(0x221500000, 3 << 16)),
}

import mpmath
mpmath.mp.dps = 40
ALPHA = mpmath.mpf('1e-6')

def crit(df):
    # upper-tail quantile of chi-squared with df degrees of freedom
    q = lambda x: mpmath.gammainc(mpmath.mpf(df) / 2, x / 2, mpmath.inf, regularized=True)
    lo, hi = mpmath.mpf(df), mpmath.mpf(df) + 40 * mpmath.sqrt(2 * df) + 40
    for _ in range(200):
        mid = (lo + hi) / 2
        if q(mid) > ALPHA:
            lo = mid
        else:
            hi = mid
    return hi

def nkeys(fam):
    return 2048 if fam == 'page2m' else 8192

def bits_for(fam):
    return [6, 8, 10] if fam == 'page2m' else [6, 8, 10, 11, 12]

def stat(func, fam, b, gen, w):
    base, stride = FAM[w][fam]
    n = nkeys(fam)
    cnt = [0] * (1 << b)
    for i in range(n):
        k = (base + i * stride) & M64
        if func == 'hash_32':
            h = h32(k, b, gen)
        elif func == 'hash_64':
            h = h64(k, b, gen, w)
        else:
            h = hptr(k & (M64 if w == 64 else M32), b, gen, w)
        cnt[h] += 1
    B = 1 << b
    T = B * sum(c * c for c in cnt) - n * n      # = n * chi2
    return T / n, sum(1 for c in cnt if c), max(cnt)

if __name__ == '__main__':
    C = {}
    for b in range(6, 13):
        C[b] = crit((1 << b) - 1)
        print('bits', b, 'df', (1 << b) - 1, 'crit', mpmath.nstr(C[b], 12))
    for w in (64, 32):
        for func in ('hash_32', 'hash_64', 'hash_ptr'):
            for fam in FAM[w]:
                for b in bits_for(fam):
                    r = []
                    for gen in ('new', 'old'):
                        x2, used, mx = stat(func, fam, b, gen, w)
                        r.append('%s %s x2=%.1f used=%d max=%d' % (gen, 'FAIL' if x2 > C[b] else 'ok  ', x2, used, mx))
                    print('w%d %-8s %-12s b=%-2d | %s | %s' % (w, func, fam, b, r[0], r[1]))
