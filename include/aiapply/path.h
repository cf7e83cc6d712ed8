/* Path validation: the first check any path gets (SPEC "Paths"). */
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

#endif
