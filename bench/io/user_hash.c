/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* mkdtemp, realpath, strsignal */
#include "user_hash.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WRAPPER "kb_user_wrapper"

void kb_user_name(const char *expr, char *name, size_t len)
{
	const char *p = expr;

	snprintf(name, len, "user");
	while (*p) {
		const char *start = p, *q;

		if (!(isalpha((unsigned char)*p) || *p == '_')) {
			p++;
			continue;
		}
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		for (q = p; *q == ' ' || *q == '\t'; q++)
			;
		/* a cast such as (uint32_t) is no call: only NAME( is */
		if (*q == '(') {
			snprintf(name, len, "%.*s", (int)(p - start), start);
			return;
		}
	}
}

/*
 * The private folder and what is in it, for the signal handler: a signal
 * during the compile stops the compiler and removes both files and the
 * folder before the program dies of it (unlink, rmdir, kill and waitpid
 * are async-signal-safe).
 */
static char scratch_dir[4096], scratch_c[4200], scratch_so[4200];
static volatile pid_t compiler_pid;
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
#define NSIGNALS (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))
static struct sigaction saved[NSIGNALS];

static void remove_scratch(void)
{
	if (scratch_c[0])
		unlink(scratch_c);
	if (scratch_so[0])
		unlink(scratch_so);
	if (scratch_dir[0])
		rmdir(scratch_dir);
	scratch_dir[0] = scratch_c[0] = scratch_so[0] = '\0';
}

static void on_signal(int sig)
{
	if (compiler_pid > 0) {
		kill(compiler_pid, SIGKILL);
		waitpid(compiler_pid, NULL, 0);
	}
	remove_scratch();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard_signals(int on)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSIGNALS; i++)
		if (on)
			sigaction(cleanup_signals[i], &sa, &saved[i]);
		else
			sigaction(cleanup_signals[i], &saved[i], NULL);
}

/* The wrapper: FILE included by its full path, EXPR returned.  #line
 * makes the compiler name an error in EXPR "--call:1". */
static int write_wrapper(const char *path, const char *file, const char *expr)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	fprintf(f, "#include <stddef.h>\n#include <stdint.h>\n#include \"%s\"\n", file);
	fprintf(f, "uint64_t " WRAPPER "(uint64_t x, unsigned bits);\n");
	fprintf(f, "uint64_t " WRAPPER "(uint64_t x, unsigned bits)\n{\n\t(void)x;\n\t(void)bits;\n");
	fprintf(f, "#line 1 \"--call\"\n\treturn (uint64_t)(%s\n);\n}\n", expr);
	ok = !ferror(f);
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* $CC split at blanks ("ccache cc" is two words) into argv: how many
 * words, 0 for none. */
static size_t cc_words(char *buf, size_t len, char **argv, size_t max)
{
	const char *cc = getenv("CC");
	char *tok, *save = NULL;
	size_t n = 0;

	snprintf(buf, len, "%s", cc && *cc ? cc : "cc");
	for (tok = strtok_r(buf, " \t", &save); tok && n < max; tok = strtok_r(NULL, " \t", &save))
		argv[n++] = tok;
	return n;
}

/*
 * Run argv (the compiler) to its end, its standard output to out_fd when
 * that is not -1: 0 with its wait status, or -1 with a reason (it could
 * not start: a failed exec sends its errno back through a pipe that a
 * successful one closes).
 */
static int run_compiler(char **argv, int out_fd, int *status, char *err, size_t errlen)
{
	int fds[2], exec_errno = 0;
	ssize_t got = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot start the compiler: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot start the compiler: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		size_t s;
		int e;

		for (s = 0; s < NSIGNALS; s++)
			sigaction(cleanup_signals[s], &saved[s], NULL);
		close(fds[0]);
		if (out_fd >= 0)
			dup2(out_fd, STDOUT_FILENO);
		execvp(argv[0], argv);
		e = errno;
		if (write(fds[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	compiler_pid = pid;
	close(fds[1]);
	while ((got = read(fds[0], &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	close(fds[0]);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR) {
			compiler_pid = 0;
			snprintf(err, errlen, "waiting for the compiler: %s", strerror(errno));
			return -1;
		}
	compiler_pid = 0;
	if (got == (ssize_t)sizeof(exec_errno)) {
		snprintf(err, errlen, "cannot run the compiler '%s' (set CC to one): %s", argv[0],
			 strerror(exec_errno));
		return -1;
	}
	return 0;
}

/*
 * Is $CC clang?  Its predefined macros say (__clang__).  clang's UBSan
 * runtime is no library a plain program can load, so with clang --ubsan
 * traps instead (SIGILL, no message).  Its output goes to a memory file,
 * which leaves nothing behind.
 */
static int cc_is_clang(char **words, size_t n)
{
	char *argv[64], *text;
	int fd = memfd_create("khash-bench-cc", MFD_CLOEXEC), status = 0, clang = 0;
	struct stat st;
	char err[256];
	size_t i;

	if (fd < 0)
		return 0;
	for (i = 0; i < n; i++)
		argv[i] = words[i];
	argv[n++] = "-dM";
	argv[n++] = "-E";
	argv[n++] = "-x";
	argv[n++] = "c";
	argv[n++] = "/dev/null";
	argv[n] = NULL;
	if (run_compiler(argv, fd, &status, err, sizeof(err)) == 0 && fstat(fd, &st) == 0 &&
	    st.st_size > 0 && (text = malloc((size_t)st.st_size + 1))) {
		if (pread(fd, text, (size_t)st.st_size, 0) == st.st_size) {
			text[st.st_size] = '\0';
			clang = strstr(text, "__clang__") != NULL;
		}
		free(text);
	}
	close(fd);
	return clang;
}

static int compile(const struct kb_user_source *src, int *status, char *err, size_t errlen)
{
	char ccbuf[1024], *argv[64 + 4 * KB_USER_MAX_FLAGS];
	char flags[2 * KB_USER_MAX_FLAGS][4200];
	size_t n, nw, nf = 0;
	unsigned i;

	if (!(n = nw = cc_words(ccbuf, sizeof(ccbuf), argv, 48))) {
		snprintf(err, errlen, "$CC names no compiler");
		return -1;
	}
	argv[n++] = "-shared";
	argv[n++] = "-fPIC";
	argv[n++] = "-Wl,-z,defs";
	argv[n++] = "-O2";
	if (src->ubsan) {
		argv[n++] = "-fsanitize=undefined";
		argv[n++] = "-fno-sanitize-recover=all";
		if (cc_is_clang(argv, nw))
			argv[n++] = "-fsanitize-trap=undefined";
	}
	for (i = 0; i < src->ninclude; i++) {
		snprintf(flags[nf], sizeof(flags[nf]), "-I%s", src->include[i]);
		argv[n++] = flags[nf++];
	}
	for (i = 0; i < src->ndefine; i++) {
		snprintf(flags[nf], sizeof(flags[nf]), "-D%s", src->define[i]);
		argv[n++] = flags[nf++];
	}
	argv[n++] = "-o";
	argv[n++] = scratch_so;
	argv[n++] = scratch_c;
	argv[n] = NULL;
	return run_compiler(argv, -1, status, err, errlen);
}

int kb_user_load(const struct kb_user_source *src, struct kb_user_hash *u, int *usage,
		 char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	char *file = NULL;
	struct stat st;
	int status = 0, rc = -1;

	memset(u, 0, sizeof(*u));
	u->fd = -1;
	*usage = 1;
	kb_user_name(src->expr, u->name, sizeof(u->name));
	if (stat(src->file, &st) < 0 || !(file = realpath(src->file, NULL))) {
		snprintf(err, errlen, "%s: %s", src->file, strerror(errno));
		free(file);
		return -1;
	}
	if (S_ISDIR(st.st_mode) || strpbrk(file, "\"\\\n")) {
		snprintf(err, errlen, "%s: %s", src->file,
			 S_ISDIR(st.st_mode) ? "a directory, not a source file"
					     : "a path with a quote, backslash or line break cannot be #included");
		free(file);
		return -1;
	}
	*usage = 0;
	guard_signals(1);
	snprintf(scratch_dir, sizeof(scratch_dir), "%s/khash-bench-user.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(scratch_dir)) {
		snprintf(err, errlen, "cannot make a folder in %s: %s", tmp && *tmp ? tmp : "/tmp",
			 strerror(errno));
		scratch_dir[0] = '\0';
		goto out;
	}
	snprintf(scratch_c, sizeof(scratch_c), "%s/wrapper.c", scratch_dir);
	snprintf(scratch_so, sizeof(scratch_so), "%s/wrapper.so", scratch_dir);
	if (write_wrapper(scratch_c, file, src->expr) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", scratch_c, strerror(errno));
		goto out;
	}
	if (compile(src, &status, err, errlen) < 0)
		goto out;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		*usage = 1;
		snprintf(err, errlen, "%s with --call '%s' does not compile (the compiler's messages are above)",
			 src->file, src->expr);
		goto out;
	}
	/* held open, it needs no name: the folder goes before any load */
	u->fd = open(scratch_so, O_RDONLY | O_CLOEXEC);
	remove_scratch();
	if (u->fd < 0) {
		snprintf(err, errlen, "cannot open the compiled function: %s", strerror(errno));
		goto out;
	}
	snprintf(u->path, sizeof(u->path), "/proc/self/fd/%d", u->fd);
	if (access(u->path, R_OK) < 0) {
		snprintf(err, errlen, "cannot load the compiled function from %s (is /proc mounted?): %s",
			 u->path, strerror(errno));
		kb_user_unload(u);
		goto out;
	}
	rc = 0;
out:
	remove_scratch();
	guard_signals(0);
	free(file);
	return rc;
}

/* The memory children share with the parent, kept from run to run (a
 * report runs a child for each group of cells: fresh pages each time
 * cost more than the calls) until the function is unloaded. */
static void *shared_at;
static size_t shared_len;
/* How many of the skews jobs' counts there are known to be zero (a fresh
 * area's all) */
static size_t shared_clean;

void kb_user_unload(struct kb_user_hash *u)
{
	if (shared_at)
		munmap(shared_at, shared_len);
	shared_at = NULL;
	shared_len = 0;
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What a child shares with the parent: the call under way, whether it
 * has loaded the function or why it could not, then the results. */
struct shared_head {
	struct kb_user_at at;
	volatile int loaded, no_load;
	char err[200];
};

/* A child's job once the function is loaded: eval's values, or timing's
 * ns per call. */
struct job {
	const uint64_t *keys;
	size_t n;
	unsigned lo, hi;   /* eval, skews: bits lo..hi; timing: bits lo */
	unsigned rounds;   /* timing: how many, 0: an eval or skews */
	double seconds;    /* timing: all rounds together, about */
	int skews;         /* the skews at each bits, not the values */
};

/* A skews job's results: the skews, or the first bucket past its table. */
struct skews_out {
	int past;
	unsigned past_bits;
	uint64_t past_key, past_value;
	struct kb_skew s[64];
};

/* The skews job's scratch, after its results in the shared area: 2^hi
 * counts, then the buckets of every key.  Kept from child to child, its
 * pages are there already (fresh ones in each child cost a report over
 * the user's function a fifth of its time).  Beyond 2^24 counts the child
 * takes its own, touched only where keys land. */
#define SKEWS_SHARED_BITS_MAX 24
/* 2^hi counts, an even number of them: the buckets after stay aligned */
static size_t skews_counts(unsigned hi)
{
	return hi ? (size_t)1 << hi : 2;
}

static size_t skews_scratch_bytes(size_t n, unsigned hi)
{
	if (hi > SKEWS_SHARED_BITS_MAX)
		return 0;
	return (n ? n : 1) * sizeof(uint64_t) + skews_counts(hi) * sizeof(uint32_t);
}

/* The skews job: each bits's buckets of every key, judged and dropped:
 * only the skews leave the child. */
static void child_skews(kb_user_fn fn, const struct job *j, size_t clean,
			struct kb_user_at *at, struct skews_out *o)
{
	int shared = j->hi <= SKEWS_SHARED_BITS_MAX;
	uint32_t *counts = shared ? (uint32_t *)(o + 1) : calloc((size_t)1 << j->hi, sizeof(*counts));
	uint64_t *buckets = shared ? (uint64_t *)(counts + skews_counts(j->hi))
				   : malloc((j->n ? j->n : 1) * sizeof(*buckets));
	unsigned b;
	size_t bad;

	if (!buckets || !counts)
		_exit(1);
	/* each size leaves the counts zero, but another job may have written
	 * there, or a child been stopped midway */
	if (shared && clean < (size_t)1 << j->hi)
		memset(counts, 0, ((size_t)1 << j->hi) * sizeof(*counts));
	o->past = 0;
	for (b = j->lo; b <= j->hi; b++) {
		kb_user_eval(fn, j->keys, j->n, b, b, buckets, at);
		if ((bad = kb_first_past(buckets, j->n, b)) < j->n) {
			o->past = 1;
			o->past_bits = b;
			o->past_key = j->keys[bad];
			o->past_value = buckets[bad];
			return;
		}
		kb_skew_of_buckets(buckets, j->n, b, counts, &o->s[b - j->lo]);
	}
}

/* Rounds of calls over the keys, each about seconds / rounds long, their
 * ns per call into ns[]: the function as report calls it. */
static void time_rounds(kb_user_fn fn, const struct job *j, uint64_t *scratch,
			struct kb_user_at *at, double *ns)
{
	size_t reps = 1, r;
	unsigned k;
	double t0;

	for (;;) {
		t0 = now();
		for (r = 0; r < reps; r++)
			kb_user_eval(fn, j->keys, j->n, j->lo, j->lo, scratch, at);
		if (now() - t0 >= j->seconds / j->rounds || reps > (1u << 24))
			break;
		reps *= 2;
	}
	for (k = 0; k < j->rounds; k++) {
		t0 = now();
		for (r = 0; r < reps; r++)
			kb_user_eval(fn, j->keys, j->n, j->lo, j->lo, scratch, at);
		ns[k] = (now() - t0) * 1e9 / ((double)reps * (double)j->n);
	}
}

/* The child's work: load the function, then do the job. */
static void child(const struct kb_user_hash *u, const struct job *j, size_t clean,
		  struct shared_head *h)
{
	static const int crashes[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP };
	void *handle, *sym;
	kb_user_fn fn;
	uint64_t *scratch;
	size_t i;

	/* a crash ends the child by its signal, whatever handler khash-bench
	 * carries (a sanitizer's report would exit 1 instead) */
	for (i = 0; i < sizeof(crashes) / sizeof(crashes[0]); i++)
		signal(crashes[i], SIG_DFL);
	/* what the function prints is no part of khash-bench's output */
	dup2(STDERR_FILENO, STDOUT_FILENO);
	handle = dlopen(u->path, RTLD_NOW | RTLD_LOCAL);
	sym = handle ? dlsym(handle, WRAPPER) : NULL;
	if (!sym) {
		snprintf(h->err, sizeof(h->err), "%s", dlerror());
		h->no_load = 1;
		_exit(1);
	}
	h->loaded = 1;
	memcpy(&fn, &sym, sizeof(fn));
	if (j->skews) {
		child_skews(fn, j, clean, &h->at, (struct skews_out *)(h + 1));
		_exit(0);
	}
	if (!j->rounds) {
		kb_user_eval(fn, j->keys, j->n, j->lo, j->hi, (uint64_t *)(h + 1), &h->at);
		_exit(0);
	}
	if (!(scratch = malloc(j->n * sizeof(*scratch))))
		_exit(1);
	time_rounds(fn, j, scratch, &h->at, (double *)(h + 1));
	_exit(0);
}

/* The memory a child shares with the parent, grown as needed: NULL when
 * it cannot be. */
static void *shared_area(size_t bytes)
{
	void *p;

	if (bytes <= shared_len)
		return shared_at;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (shared_at)
		munmap(shared_at, shared_len);
	shared_at = p;
	shared_len = bytes;
	shared_clean = bytes / sizeof(uint32_t);
	return p;
}

/* Run job j in a child within timeout seconds: KB_USER_OK with the
 * results' bytes copied to out, else how it ended.  scratch_bytes more
 * follow them in the shared area, for the child alone. */
static void run_guarded(const struct kb_user_hash *u, const struct job *j, void *out,
			size_t out_bytes, size_t scratch_bytes, double timeout,
			struct kb_user_run *r)
{
	size_t bytes = sizeof(struct shared_head) + out_bytes + scratch_bytes;
	/* from 50 us up to 1 ms: a report waits for a child a group, and
	 * each wait's overshoot is time lost */
	struct timespec nap = { 0, 50000 };
	struct shared_head *h;
	double deadline = now() + timeout;
	int status = 0;
	pid_t pid, done;
	void *shared;
	size_t clean;

	memset(r, 0, sizeof(*r));
	r->end = KB_USER_FAILED;
	if (!(shared = shared_area(bytes)))
		return;
	h = shared;
	memset(h, 0, sizeof(*h));
	h->at.key = j->keys[0];
	h->at.bits = j->lo;
	/* clean again only when a skews job ends as it should */
	clean = shared_clean;
	shared_clean = 0;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(u, j, clean, h);
	if (pid > 0) {
		while ((done = waitpid(pid, &status, WNOHANG)) == 0 && now() < deadline) {
			nanosleep(&nap, NULL);
			if (nap.tv_nsec < 1000000)
				nap.tv_nsec *= 2;
		}
		if (done == 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			r->end = KB_USER_TIMEOUT;
		} else if (done == pid && WIFSIGNALED(status)) {
			r->end = KB_USER_SIGNAL;
			r->sig = WTERMSIG(status);
		} else if (done == pid && h->no_load) {
			r->end = KB_USER_NO_LOAD;
			snprintf(r->err, sizeof(r->err), "%s", h->err);
		} else if (done == pid && WEXITSTATUS(status)) {
			r->end = KB_USER_EXIT;
			r->sig = WEXITSTATUS(status);
		} else if (done == pid) {
			r->end = KB_USER_OK;
			memcpy(out, h + 1, out_bytes);
			/* a skews job leaves its counts zero; one that took
			 * its own left the area as it was */
			shared_clean = !j->skews ? 0
				       : j->hi <= SKEWS_SHARED_BITS_MAX ? (size_t)1 << j->hi : clean;
		}
		r->loading = !h->loaded;
		r->key = h->at.key;
		r->bits = h->at.bits;
	}
}

void kb_user_eval_guarded(const struct kb_user_hash *u, const uint64_t *keys, size_t n,
			  unsigned lo, unsigned hi, uint64_t *out, double timeout,
			  struct kb_user_run *r)
{
	const struct job j = { keys, n, lo, hi, 0, 0, 0 };

	run_guarded(u, &j, out, n * (hi - lo + 1) * sizeof(*out), 0, timeout, r);
}

void kb_user_time_guarded(const struct kb_user_hash *u, const uint64_t *keys, size_t n,
			  unsigned bits, unsigned rounds, double seconds, double *ns,
			  double timeout, struct kb_user_run *r)
{
	const struct job j = { keys, n, bits, bits, rounds, seconds, 0 };

	run_guarded(u, &j, ns, rounds * sizeof(*ns), 0, timeout, r);
}

void kb_user_run_text(const struct kb_user_run *r, double timeout, char *out, size_t len)
{
	const char *abbrev = r->end == KB_USER_SIGNAL ? sigabbrev_np(r->sig) : NULL;

	if (r->loading && (r->end == KB_USER_SIGNAL || r->end == KB_USER_TIMEOUT ||
			   r->end == KB_USER_EXIT)) {
		/* a constructor of the user's, most likely */
		if (r->end == KB_USER_SIGNAL)
			snprintf(out, len, "the compiled file crashed (SIG%s) while loading, before any call",
				 abbrev ? abbrev : "?");
		else
			snprintf(out, len, "the compiled file %s while loading, before any call",
				 r->end == KB_USER_TIMEOUT ? "took longer than the time limit"
							   : "ended the process");
		return;
	}
	switch (r->end) {
	case KB_USER_NO_LOAD:
		snprintf(out, len, "cannot load the compiled function: %s", r->err);
		break;
	case KB_USER_SIGNAL:
		snprintf(out, len, "the function crashed (SIG%s) on key 0x%llx, bits %u",
			 abbrev ? abbrev : "?", (unsigned long long)r->key, r->bits);
		break;
	case KB_USER_TIMEOUT:
		snprintf(out, len, "the function took longer than %g s (on key 0x%llx, bits %u when stopped)",
			 timeout, (unsigned long long)r->key, r->bits);
		break;
	case KB_USER_EXIT:
		snprintf(out, len, "the function ended the process (exit status %d) on key 0x%llx, bits %u",
			 r->sig, (unsigned long long)r->key, r->bits);
		break;
	case KB_USER_FAILED:
		snprintf(out, len, "cannot run the function in a child process: %s", strerror(errno));
		break;
	default:
		snprintf(out, len, "ok");
	}
}

static int guarded_eval(void *ctx, const uint64_t *keys, size_t n, unsigned lo, unsigned hi,
			uint64_t *out, char *err, size_t errlen)
{
	const struct kb_user_guard *c = ctx;
	struct kb_user_run r;

	kb_user_eval_guarded(c->u, keys, n, lo, hi, out, c->timeout, &r);
	if (r.end == KB_USER_OK)
		return 0;
	kb_user_run_text(&r, c->timeout, err, errlen);
	return -1;
}

static int guarded_skews(void *ctx, const uint64_t *keys, size_t n, unsigned lo, unsigned hi,
			 struct kb_skew *out, char *err, size_t errlen)
{
	const struct kb_user_guard *c = ctx;
	const struct job j = { keys, n, lo, hi, 0, 0, 1 };
	struct skews_out o;
	struct kb_user_run r;

	if (hi > 32 || hi - lo >= 64) {
		snprintf(err, errlen, "bits %u..%u: at most 32, 64 sizes", lo, hi);
		return -1;
	}
	run_guarded(c->u, &j, &o, sizeof(o), skews_scratch_bytes(n, hi), c->timeout, &r);
	if (r.end != KB_USER_OK) {
		kb_user_run_text(&r, c->timeout, err, errlen);
		return -1;
	}
	if (o.past) {
		kb_past_text(o.past_value, o.past_key, o.past_bits, err, errlen);
		return -1;
	}
	memcpy(out, o.s, (hi - lo + 1) * sizeof(*out));
	return 0;
}

static int guarded_time(void *ctx, const uint64_t *keys, size_t n, unsigned bits,
			unsigned rounds, double seconds, double *ns, char *err, size_t errlen)
{
	const struct kb_user_guard *c = ctx;
	struct kb_user_run r;

	kb_user_time_guarded(c->u, keys, n, bits, rounds, seconds, ns, c->timeout + seconds, &r);
	if (r.end == KB_USER_OK)
		return 0;
	kb_user_run_text(&r, c->timeout + seconds, err, errlen);
	return -1;
}

void kb_user_gen_of(const struct kb_user_hash *u, const char *call, double timeout,
		    struct kb_user_guard *ctx, struct kb_user_gen *g)
{
	ctx->u = u;
	ctx->timeout = timeout;
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", u->name);
	g->call = call;
	g->eval = guarded_eval;
	g->time = guarded_time;
	g->skews = guarded_skews;
	g->ctx = ctx;
}
