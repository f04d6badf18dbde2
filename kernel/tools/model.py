#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Offline model of the distribution cases of patch 0001: the same key
# families, table sizes and chi-squared statistic, for the current
# (golden-ratio) and the pre-v4.6 multipliers, on 64- and 32-bit kernels.
#
#   model.py                      table of every case, both generations
#   model.py 64|32 new|old        expectation file (expect/, mutations/)
#   model.py --check-log LOG 64|32 new|old
#                                 compare the chi2 a kernel printed with
#                                 the model
# Needs mpmath (for the critical values).
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
    return 2048 if fam == 'page2m' else 4096

def bits_for(fam):
    if fam == 'page2m':
        return [6, 8, 10]
    if fam == 'struct_page':
        return [6, 8, 10, 11]
    return [6, 8, 10, 11, 12]

# Names as lib/test_hash.c prints them
FAMNAME = dict(seq='sequential', page4k='page_4k', page2m='page_2m',
               struct_page='struct_page', btrfs_raid5='btrfs_raid5',
               btrfs_raid6='btrfs_raid6')
AGREE = ['test_hash_32_agreement', 'test_hash_32_raw_agreement',
         'test_hash_64_agreement', 'test_hash_long_agreement',
         'test_hash_ptr_agreement', 'test_hash32_ptr_agreement']
# Patch 0004's string cases, and whether each sees the multipliers of the
# hash.h lib/test_hash.o is built with: only end_name_hash() does (inline
# hash_long()); full_name_hash() and hashlen_string() are compiled in
# fs/namei.o, and hash_str()/hash_mem() only shift what those return.
STRING_AGREE = [('test_full_name_hash_agreement', False),
                ('test_hashlen_string_agreement', False),
                ('test_name_hash_bytes_agreement', True),
                ('test_hash_str_agreement', False),
                ('test_hash_mem_agreement', False)]


def expect(w, gen):
    """Expectation file lines for a kernel of word size w built with
    multiplier generation gen ('new' or 'old')."""
    C = {b: crit((1 << b) - 1) for b in (6, 8, 10, 11, 12)}
    out = ['pass hash.test_string_or', 'pass hash.test_hash_or']
    suite_ok = True
    for func in ('hash_32', 'hash_64', 'hash_ptr'):
        case = 'hash.test_%s_distribution' % func
        rows, case_ok = [], True
        for fam in FAM[w]:
            for b in bits_for(fam):
                x2 = stat(func, fam, b, gen, w)[0]
                ok = x2 <= C[b]
                if gen == 'new' and not ok:
                    sys.exit('new multiplier fails %s %s %d' % (func, fam, b))
                case_ok &= ok
                rows.append('%s %s.%s/bits=%d' % ('pass' if ok else 'fail', case, FAMNAME[fam], b))
        out += rows
        out.append('%s %s' % ('pass' if case_ok else 'fail', case))
        suite_ok &= case_ok
    for case in AGREE:
        # hash32_ptr() only folds, it has no multiplier to restore
        ok = gen == 'new' or case == 'test_hash32_ptr_agreement'
        out.append('%s hash.%s' % ('pass' if ok else 'fail', case))
        suite_ok &= ok
    for case, sees_multiplier in STRING_AGREE:
        ok = gen == 'new' or not sees_multiplier
        out.append('%s hash.%s' % ('pass' if ok else 'fail', case))
        suite_ok &= ok
    out.append('%s hash' % ('pass' if suite_ok else 'fail'))
    return out

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

def check_log(path, w, gen):
    """Compare every chi2 a kernel printed (failing cases only) with the
    model; return the number of mismatches."""
    import re
    inv = {v: k for k, v in FAMNAME.items()}
    pat = re.compile(r'(hash_\w+) of \d+ (\w+) keys into (\d+) buckets: '
                     r'chi2 = (\d+)\.(\d+)')
    n = bad = 0
    for m in pat.finditer(open(path, errors='replace').read()):
        func, fam, nb, whole, frac = m.groups()
        want = stat(func, inv[fam], int(nb).bit_length() - 1, gen, w)[0]
        n += 1
        if abs(want - (int(whole) + int(frac) / 1000.0)) > 0.001:
            bad += 1
            print('mismatch: %s (model %.3f)' % (m.group(0), want))
    print('%s: %d statistics compared with the model, %d mismatches' % (path, n, bad))
    return bad


if __name__ == '__main__' and len(sys.argv) == 5 and sys.argv[1] == '--check-log':
    # model.py --check-log LOG 64|32 new|old
    sys.exit(1 if check_log(sys.argv[2], int(sys.argv[3]), sys.argv[4]) else 0)
elif __name__ == '__main__' and len(sys.argv) == 3:
    # model.py 64|32 new|old: print the expectation file
    w, gen = int(sys.argv[1]), sys.argv[2]
    print('# Generated by kernel/tools/model.py %d %s; one line per KUnit result' % (w, gen))
    print('\n'.join(expect(w, gen)))
elif __name__ == '__main__':
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
