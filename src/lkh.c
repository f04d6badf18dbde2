/* SPDX-License-Identifier: MIT */
/*
 * The exported copies of the inline hash functions: the header's own bodies,
 * compiled once more as external definitions.
 */
#define LKH_EXPORT_HOT
#include "khash/lkh.h"
