/* SPDX-License-Identifier: MIT */
/*
 * scan fixture: a constant in a comment is reported, marked as in one:
 * the old GOLDEN_RATIO_PRIME_32 was 0x9e370001.
 */
int comment_only; // and 0x61C88647 after code
