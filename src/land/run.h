/*
 * Running git (run.c): the one place the library starts a process, for
 * what only git itself does exactly -- a repository's filter drivers
 * (filters.c), a partial clone's fetch (promisor.c) and rerere after a
 * --3way conflict (rerere.c) -- and the one hook git runs on reading the
 * index, core.fsmonitor's (index_fsmonitor.c).
 */
#ifndef AA_LAND_RUN_H
#define AA_LAND_RUN_H

#include <git2.h>
#include "util/util.h"

/*
 * Runs `git --git-dir=<repo's> [--work-tree=<repo's>] args...` in the
 * work tree (the git dir when bare), `env` (NULL or "NAME=value"
 * strings, NULL-ended) added to the environment, `in` (len bytes) on
 * its standard input, its standard output into *out (when out is not
 * NULL) and its standard error into *err (the last 4 KiB). Returns the
 * exit status (0 success), or -1 when git could not be run (errno).
 */
int aa_run_git(git_repository *repo, const char *const *args,
	       const char *const *env, const char *in, size_t len,
	       aa_buf *out, aa_buf *err);

/* The same for argv (argv[0] found as execvp finds it), in the work tree. */
int aa_run_argv(git_repository *repo, const char *const *argv,
		const char *const *env, const char *in, size_t len,
		aa_buf *out, aa_buf *err);

#endif
