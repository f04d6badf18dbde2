/* SPDX-License-Identifier: MIT */
/* scan fixture: today's multipliers, which a copy should use as they are. */
#define MY_GOLDEN_RATIO_32 0x61C88647
#define MY_GOLDEN_RATIO_64 0x61c8864680b583ebull
