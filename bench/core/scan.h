/* SPDX-License-Identifier: MIT */
/*
 * khash-bench scan's matching: a line of C text in, the dangerous hash
 * constants and idioms on it out.  A text scan, not a parse: it sees one
 * line at a time, with a little memory of the lines before it (whether a
 * block comment is open, the function it is in, the last few lines for a
 * `bits == 0` guard).  Walking folders and reading files is io/scan_tree.c.
 */
#ifndef KB_SCAN_H
#define KB_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* What a finding is; each kind's name, meaning and judge: kb_scan_kinds. */
enum kb_scan_kind {
	KB_SCAN_OLD_PRIME,     /* GOLDEN_RATIO_PRIME_32/64, the pre-4.7 multipliers */
	KB_SCAN_GOLDEN,        /* today's GOLDEN_RATIO_32/64, as they are */
	KB_SCAN_NEGATED,       /* a kernel multiplier negated (or plus 2): mirrored buckets */
	KB_SCAN_EVEN_CONSTANT, /* a kernel multiplier negated plus one: even */
	KB_SCAN_EVEN_MULTIPLY, /* `* K` with K even, then `>>` */
	KB_SCAN_LOW_BITS,      /* `* K` then `&` or `%`, no `>>`: a product's low bits kept */
	KB_SCAN_SHIFT_WIDTH,   /* `>> (64 - bits)`, no guard against bits 0 seen */
	KB_SCAN_HASH64_IN_32,  /* hash_64()'s result stored in a 32-bit variable */
	KB_SCAN_KIND_COUNT
};

/* How the judging command is built from a finding. */
enum kb_scan_judge {
	KB_JUDGE_AUDIT,       /* khash-bench audit --multiplier K --width W */
	KB_JUDGE_CONFORM,     /* khash-bench conform --source FILE --call 'FUNC(x, bits)' */
	KB_JUDGE_CONFORM_UB,  /* the same with --ubsan, which tries bits 0 */
};

struct kb_scan_kind_row {
	const char *name;  /* as the outputs write it */
	const char *what;  /* what it is and why it matters, briefly */
	enum kb_scan_judge judge;
};
extern const struct kb_scan_kind_row kb_scan_kinds[KB_SCAN_KIND_COUNT];

struct kb_scan_finding {
	enum kb_scan_kind kind;
	unsigned column;        /* 1-based, where the match starts */
	uint64_t value;         /* the constant, for the constant kinds and multiplies */
	unsigned width;         /* its word: 32 or 64 (0: no constant) */
	const char *k_name;     /* the kernel constant it derives from, or NULL */
	int delta;              /* kb_conform_known_k's: -1 as it is, 0..2 negated plus delta */
	int in_comment;         /* the match lies in a comment */
	char var[48];           /* the shift's count ("64 - bits"), a multiplier's name, or "" */
};

/* A multiplier looks like a hash's with KB_SCAN_HASHLIKE_POPCOUNT set
 * bits and at least 2^KB_SCAN_HASHLIKE_BITS (an even one, without a name
 * of the kernel's, 2^KB_SCAN_EVEN_BITS); less is taken for arithmetic
 * (x * 0x80000 & mask, x * 4096 >> 3). */
#define KB_SCAN_HASHLIKE_BITS 16
#define KB_SCAN_EVEN_BITS 24
#define KB_SCAN_HASHLIKE_POPCOUNT 8

/* What the matcher remembers between the lines of one file. */
#define KB_SCAN_MEMORY 4
#define KB_SCAN_MEMORY_CHARS 256
struct kb_scan_state {
	int in_block_comment;
	char func[64];          /* the function (or function-like macro) the line is in */
	char recent[KB_SCAN_MEMORY][KB_SCAN_MEMORY_CHARS]; /* the lines before, newest last */
	unsigned nrecent;
};

/* A fresh state, for a file's first line. */
void kb_scan_start(struct kb_scan_state *s);

/* The findings on line[0..len) (no line break needed), at most max of
 * them into out, in the order they start on the line; returns how many.
 * Updates s for the next line. */
size_t kb_scan_line(struct kb_scan_state *s, const char *line, size_t len,
		    struct kb_scan_finding *out, size_t max);

/* A finding's meaning as one phrase ("0x9e370001: GOLDEN_RATIO_PRIME_32,
 * ..."), and the command that judges it, with path shell-quoted where it
 * needs it and func the function the line was in ("" if none seen). */
void kb_scan_describe(const struct kb_scan_finding *f, char *out, size_t len);
void kb_scan_judge_command(const struct kb_scan_finding *f, const char *path, const char *func,
			   char *out, size_t len);

#endif
