/* SPDX-License-Identifier: MIT */
/* scan fixture: near misses, none of which is a finding. */
#include <stdint.h>

typedef uint64_t u64;

u64 hash_64(u64 val, unsigned bits);

#define NOT_A_KERNEL_CONSTANT 0x9e3779b1
#define ONE_OFF_GOLDEN 0x61C88646
#define ONE_OFF_PRIME 0x9e370003
#define LONGER 0x9e3700011
#define HASH_BITS 10
#define NEGATED_PLUS_THREE 0x9e3779b97f4a7c18

/* an asm template's operand is no multiply, its % no modulo */
static const char insn[] = "callq *0x12345678(%rax,%rcx,8)";

static u64 near_misses(u64 x, unsigned bits)
{
	u64 h = hash_64(x, bits);
	u64 page = (x * 4096) >> 3;
	u64 small = (x * 0x10) & 3;
	u64 power = (x * 0x80000) & 1023;
	u64 fixed = h >> (64 - 10);
	u64 named = h >> (64 - HASH_BITS);
	u64 odd = (x * 0xc6a4a7935bd1e995ull) >> 32;
	u64 top = ((x * 0x9e3779b1u) >> 7) & 1023;

	return page + small + power + fixed + named + odd + top + (x * 0x9e3779b1u >> (32 - 10));
}
