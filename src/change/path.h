/*
 * Path validation: the first check any path gets (Documentation/safety.md,
 * "Paths an answer may name").
 */
#ifndef AIAPPLY_PATH_H
#define AIAPPLY_PATH_H

#include <stddef.h>

/*
 * Returns 0 when `path` (len bytes, no NUL required) is a safe relative
 * repository path, else -1 with *why set to a static reason such as
 * "absolute path" or "'.git' component". Rejects: empty, absolute,
 * drive letters, UNC, backslashes, '.'/'..' and empty components,
 * control characters, a trailing '/', every spelling of ".git" (any
 * case, "git~1", trailing dots/spaces, NTFS streams, HFS-ignorable code
 * points), overlong paths.
 */
int aa_path_check(const char *path, size_t len, const char **why);

/*
 * Joins a repository-relative directory prefix (may be "" or NULL) and
 * a relative path into a newly allocated string; NULL on OOM.
 */
char *aa_path_join(const char *dir, const char *path);

/*
 * A path as an answer wrote it, made ready for the planner (the pure
 * part of Documentation/locating.md, "Which file a path names", the same
 * for every format): leading
 * "./" components are dropped ("./pkg/x.py" -> "pkg/x.py"); an absolute
 * POSIX path ("/home/u/repo/x.py") is kept whole, for the planner to
 * make relative to the work tree or refuse (aa_path_in_root). Returns 0
 * with the path in [*out, *out + *out_len) (a part of `path`), or -1
 * with *why set as aa_path_check sets it.
 */
int aa_path_answer(const char *path, size_t len, const char **out,
		   size_t *out_len, const char **why);

/* 1 when `path` (NUL-terminated) is absolute as aa_path_answer keeps it. */
int aa_path_is_absolute(const char *path);

/*
 * The part of the absolute `path` below the directory `root` (absolute,
 * with or without a trailing '/'): "x/y.py" for "/r/x/y.py" under "/r".
 * NULL when `path` does not lie strictly inside `root`. Points into
 * `path`; no file system access.
 */
const char *aa_path_in_root(const char *path, const char *root);

#endif
