/* SPDX-License-Identifier: MIT */
/* scan fixture: 2^64 - GOLDEN_RATIO_64 + 1, which is even. */
#define EVEN_RATIO_64 0x9e3779b97f4a7c16
