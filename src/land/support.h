/*
 * Repository shapes the libgit2 in use cannot read (support.c): a
 * message naming what is unsupported and what to do, in place of
 * libgit2's own words.
 */
#ifndef AA_LAND_SUPPORT_H
#define AA_LAND_SUPPORT_H

#include <git2.h>
#include "util/util.h"

/*
 * When libgit2's error `why` (opening the repository or reading its
 * index) says the repository uses something it cannot read (an index
 * extension, a repository format extension), appends an explanation to
 * out: what it is and what to do. Returns 1 then, 0 when `why` is
 * another error (out unchanged), -1 out of memory.
 */
int aa_unsupported_explain(const char *why, aa_buf *out);

/*
 * extensions.worktreeConfig (git sparse-checkout and git worktree turn
 * it on; libgit2 1.5 refuses a repository of format version 1 that has
 * it): aa_worktree_config_prepare, before opening, says libgit2 may
 * open such a repository; aa_worktree_config_add, after, reads its
 * $GIT_DIR/config.worktree over the repository's own configuration, as
 * git does (level AA_CONFIG_LEVEL_WORKTREE, below the command line's
 * git -c at AA_CONFIG_LEVEL_COMMAND). 0, or -1 with libgit2's error.
 */
#define AA_CONFIG_LEVEL_WORKTREE GIT_CONFIG_LEVEL_APP
#define AA_CONFIG_LEVEL_COMMAND ((git_config_level_t)(GIT_CONFIG_LEVEL_APP + 1))
int aa_worktree_config_prepare(void);
int aa_worktree_config_add(git_repository *repo);

#endif
