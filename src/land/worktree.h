/*
 * The work tree (worktree.c): updates with restore on failure, and one
 * path by blob id for recovery. Never through a symbolic link.
 */
#ifndef AA_LAND_WORKTREE_H
#define AA_LAND_WORKTREE_H

#include "land/session.h"

typedef struct aa_wt_backup aa_wt_backup;

/*
 * Refuses (-1, error in d) when a touched path has unstaged changes or
 * an untracked file stands where a new file goes.
 */
int aa_worktree_check_clean(aa_session *s, const aa_plan *plan, aa_diags *d);
/*
 * Writes the touched paths (deletions first; ids[i] is the blob of change
 * i) without following links. *backup (set even on failure) holds what is
 * needed to undo it (aa_worktree_restore) and stat data for the index.
 */
int aa_worktree_write(aa_session *s, const aa_plan *plan, const git_oid *ids,
		      aa_wt_backup **backup, aa_diags *d);
/*
 * Puts back every path aa_worktree_write changed, checking each; 0 when
 * all are back, else -1 with an error listing where each path is left.
 */
int aa_worktree_restore(aa_session *s, aa_wt_backup *backup, aa_diags *d);
/* Stat data of change i's written path for its index entry; 0 if known. */
int aa_worktree_stat(aa_wt_backup *backup, size_t i, git_index_entry *entry);
void aa_worktree_backup_free(aa_wt_backup *backup);

/*
 * For recovery, one path by blob id. probe: the blob id and mode (as git
 * would add it; mode 0 = absent) at path; -1 when it cannot tell (a
 * directory, beyond a link). put: writes blob id with mode at path, or
 * removes it (mode 0), never through a link. remove_temps: the
 * .ai-apply-<pid>-*.tmp files beside path.
 */
int aa_worktree_probe(git_repository *repo, const char *path, git_oid *id,
		      unsigned *mode);
int aa_worktree_put(git_repository *repo, const char *path, const git_oid *id,
		    unsigned mode, aa_diags *d);
void aa_worktree_remove_temps(git_repository *repo, const char *path, long pid);

#endif
