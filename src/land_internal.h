/* Private interfaces between the landing files. */
#ifndef AA_LAND_INTERNAL_H
#define AA_LAND_INTERNAL_H

#include "aiapply/land.h"

/* Fills s->snap for the session's base (index or tree). */
void aa_snapshot_bind(aa_session *s);

/* Work tree updates with restore on failure (worktree.c). */
typedef struct aa_wt_backup aa_wt_backup;

/*
 * Refuses (-1, error in d) when a touched path has unstaged changes or
 * an untracked file stands where a new file goes.
 */
int aa_worktree_check_clean(aa_session *s, const aa_plan *plan, aa_diags *d);
/*
 * Writes the touched paths (deletions first; ids[i] is the blob of change i) without following links;
 * on failure restores what it changed. On success *backup holds what is
 * needed to undo it (aa_worktree_restore) and stat data for the index.
 */
int aa_worktree_write(aa_session *s, const aa_plan *plan, const git_oid *ids,
		      aa_wt_backup **backup, aa_diags *d);
void aa_worktree_restore(aa_session *s, aa_wt_backup *backup);
/* Stat data of a written path for its index entry; 0 if known. */
int aa_worktree_stat(aa_wt_backup *backup, const char *path,
		     git_index_entry *entry);
void aa_worktree_backup_free(aa_wt_backup *backup);

#endif
