/* SPDX-License-Identifier: MIT */
/*
 * khash-bench: structured key sets through every generation of the
 * kernel's integer hashes, and how evenly they fill a table.  This file
 * runs a command line: the tables and parser are commands.c's,
 * options.c's and parse_args.c's, each command its <command>_cmd.c, the
 * computations core/'s, the files and formats io/'s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <khash/lkh.h>

#include "caches.h"
#include "cli_args.h"
#include "engine.h"
#include "output.h"
#include "user_hash.h"

static void print_version(void)
{
	printf("khash-bench (libkhash) %s\n", lkh_version_string());
}

/* Every output the command line names must be writable before any work
 * is done: minutes of counting are not lost to a mistyped folder. */
static int check_outputs(const struct kb_args *a)
{
	char err[512];

	if (kb_output_check_file(a->output, err, sizeof(err)) < 0 ||
	    (a->plot && kb_output_check_dir(a->plot, err, sizeof(err)) < 0))
		return kb_fail(KB_EXIT_RUNTIME, "%s", err);
	return 0;
}

/*
 * Generation U, when the command line has it: the user's function
 * compiled and set as the generation before the command runs, so that
 * every command that takes a generation takes it alike.  Its code runs
 * only in child processes (user_hash.c).
 */
static struct kb_user_hash user_fn = { .fd = -1 };
static struct kb_user_guard user_guard;
static struct kb_user_gen user_gen;

static int load_user(const struct kb_args *a)
{
	char err[1024];
	int usage;

	if (!KB_GIVEN(a, SOURCE) || (a->cmd->flags & KB_OWN_SOURCE))
		return 0;
	if (kb_user_load(&a->user, &user_fn, &usage, err, sizeof(err)) < 0)
		return kb_fail(usage ? KB_EXIT_USAGE : KB_EXIT_RUNTIME, "%s", err);
	kb_user_gen_of(&user_fn, a->user.expr, a->timeout, &user_guard, &user_gen);
	kb_user_gen_set(&user_gen);
	return 0;
}

/* Run a parsed command line. */
static int run(const struct kb_args *a_in)
{
	struct kb_args a = *a_in;
	int rc;

	if (a.action == KB_HELP) {
		kb_command_usage(stdout, a.cmd);
		return 0;
	}
	if (a.action == KB_VERSION) {
		print_version();
		return 0;
	}
	if ((rc = check_outputs(&a)) || (rc = load_user(&a)))
		return rc;
	/* a row whose function is not linked (cli_args.h: weakly) */
	if (!a.cmd->run)
		return kb_fail(KB_EXIT_RUNTIME, "command '%s' has no implementation", a.cmd->name);
	rc = a.cmd->run(&a);
	kb_user_gen_set(NULL);
	kb_user_unload(&user_fn);
	return rc;
}

/* Whatever went to standard output must have arrived: a full disk or a
 * closed pipe is an error, not a silent success (once: commands that
 * write their own output already said so). */
static int finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (rc == 0)
			rc = kb_fail(KB_EXIT_RUNTIME, "cannot write standard output: %s",
				     strerror(errno ? errno : EIO));
		clearerr(stdout);
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct kb_args a;
	uint64_t caches[3];
	int rc;

	if (argc < 2) /* a usage error: one line, as every other */
		return kb_fail(KB_EXIT_USAGE, "no command (try --help)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		kb_usage(stdout);
		return finish(0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		print_version();
		return finish(0);
	}
	kb_output_install_signal_cleanup();
	if ((rc = kb_parse_args(argc - 1, argv + 1, &a)))
		return rc;
	kb_read_cache_bytes("", caches); /* the engine sizes its tables by them */
	kb_set_cache_bytes(caches);
	return finish(run(&a));
}
