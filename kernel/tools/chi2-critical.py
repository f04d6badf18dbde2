#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Print hash_dist_limit_milli[] of lib/test_hash.c (patch 0001): the upper
# ALPHA quantile of the chi-squared distribution with 2^bits - 1 degrees
# of freedom, times 1000, rounded up.  Needs mpmath.
import sys

import mpmath

from model import ALPHA, crit

BITS = [int(b) for b in sys.argv[1:]] or [6, 8, 10, 11, 12]
print('/* alpha = %s */' % mpmath.nstr(ALPHA, 3))
for b in BITS:
    print('\t[%d] = %d,' % (b, int(mpmath.ceil(crit((1 << b) - 1) * 1000))))
