/* SPDX-License-Identifier: MIT */
/*
 * A user's hash, loaded: --source FILE --call 'EXPR' compiled with the
 * system compiler into a shared object and loaded, then run in a child
 * process with a time limit, so that a crash or an endless loop is a
 * report, not the end of the program.  The compile runs the user's own
 * code with the user's rights (a hostile FILE is the user's own).
 */
#ifndef KB_USER_HASH_H
#define KB_USER_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "conform.h"
#include "hashspec.h"

/* What to compile: FILE, EXPR, -I and -D as given, --ubsan. */
#define KB_USER_MAX_FLAGS 16
struct kb_user_source {
	const char *file, *expr;
	const char *include[KB_USER_MAX_FLAGS], *define[KB_USER_MAX_FLAGS];
	unsigned ninclude, ndefine;
	int ubsan; /* -fsanitize=undefined -fno-sanitize-recover */
};

/* The compiled function, held as an open file whose name is gone: each
 * child loads it from /proc/self/fd, so that no code of the user's (a
 * constructor included) ever runs in khash-bench's own process. */
struct kb_user_hash {
	char name[64];  /* the function EXPR calls first, else "user" */
	int fd;         /* the shared object, unlinked; -1: none */
	char path[48];  /* /proc/self/fd/FD */
};

/* The name EXPR's function goes by: its first identifier followed by '(',
 * else "user". */
void kb_user_name(const char *expr, char *name, size_t len);

/*
 * Compile src into a shared object in a private folder of $TMPDIR (else
 * /tmp) with $CC (else cc; -Wl,-z,defs, so that a function declared but
 * never defined is the linker's error), open it and remove the folder at
 * once: nothing is left behind, on success, on errors, or when a signal
 * stops the program during the compile.  The compiler's diagnostics go to
 * standard error as it writes them.  0, or -1 with a one-line reason in
 * err: *usage set when the fault is the user's (a missing file, an EXPR
 * or FILE that does not compile), clear when it is the machine's.
 */
int kb_user_load(const struct kb_user_source *src, struct kb_user_hash *u, int *usage,
		 char *err, size_t errlen);
void kb_user_unload(struct kb_user_hash *u);

/* How a guarded run ended. */
enum kb_user_end {
	KB_USER_OK,
	KB_USER_SIGNAL,  /* killed by a signal */
	KB_USER_TIMEOUT, /* stopped at the time limit */
	KB_USER_EXIT,    /* the process exited before the end (UBSan, exit()) */
	KB_USER_NO_LOAD, /* the child could not load the function: err says why */
	KB_USER_FAILED   /* no child: errno says why */
};
struct kb_user_run {
	enum kb_user_end end;
	int sig;        /* KB_USER_SIGNAL: which; KB_USER_EXIT: the status */
	int loading;    /* it ended while loading, before any call */
	uint64_t key;   /* the call under way when it ended */
	unsigned bits;
	char err[200];  /* KB_USER_NO_LOAD: dlopen's or dlsym's message */
};

/*
 * kb_user_eval(the function, keys, n, lo, hi, out) in a child process
 * that loads it first, within
 * timeout seconds: KB_USER_OK with out filled, else how it ended and the
 * call under way then (out untouched).
 */
void kb_user_eval_guarded(const struct kb_user_hash *u, const uint64_t *keys, size_t n,
			  unsigned lo, unsigned hi, uint64_t *out, double timeout,
			  struct kb_user_run *r);

/*
 * The function's time as report pays it (kb_user_eval over keys at bits,
 * in a child within timeout seconds): rounds rounds of about seconds /
 * rounds each, ns per call of each into ns[rounds].  r as for
 * kb_user_eval_guarded.
 */
void kb_user_time_guarded(const struct kb_user_hash *u, const uint64_t *keys, size_t n,
			  unsigned bits, unsigned rounds, double seconds, double *ns,
			  double timeout, struct kb_user_run *r);

/* r's end as one line: "the function crashed (SIGSEGV) on key 0x.., bits
 * N", "took longer than T s on key ..". */
void kb_user_run_text(const struct kb_user_run *r, double timeout, char *out, size_t len);

/* Generation U of a loaded function (call: its --call): g's eval runs u's function in a
 * child process (kb_user_eval_guarded), timeout seconds a run, and says a
 * crash, a loop or an exit in one line naming the key and bits.  g keeps
 * ctx, which keeps u: both must outlive g's use. */
struct kb_user_guard {
	const struct kb_user_hash *u;
	double timeout;
};
void kb_user_gen_of(const struct kb_user_hash *u, const char *call, double timeout,
		    struct kb_user_guard *ctx, struct kb_user_gen *g);

#endif
