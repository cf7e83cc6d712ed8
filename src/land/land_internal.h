/* Private interfaces between the landing files. */
#ifndef AA_LAND_INTERNAL_H
#define AA_LAND_INTERNAL_H

#include "land/land.h"

/*
 * Records a new object the lander made (in the mempack) and the object
 * it replaces (base: the same tree before the change, or NULL), which
 * --each's pack stores it as a delta against. -1 when out of memory.
 */
int aa_remember_version(aa_session *s, const git_oid *oid, const git_oid *base);
/* The blob id of a change's new content, writing it to the mempack. */
int aa_change_blob(aa_session *s, const aa_change *c, git_oid *out,
		   aa_diags *d);

/* aa_fast_build_tree: the plan's changes are not for the fast way. */
#define AA_FAST_NO 1
/*
 * --branch: the plan's tree, written without libgit2's tree builder when
 * every change puts a blob where a blob or nothing was, under
 * directories or nothing (land_tree.c). 0 and *out (every new tree
 * remembered), AA_FAST_NO (nothing remembered), or AA_FATAL.
 */
int aa_fast_build_tree(aa_session *s, const aa_plan *plan, git_oid *out,
		       aa_diags *d);

/*
 * base (NULL: empty) with the blob at path (parent directories made as
 * needed), the fast way: 0 and *out (new trees remembered, the root with
 * base as its delta base), AA_FAST_NO (nothing remembered), or -1.
 */
int aa_fast_put_blob(aa_session *s, git_tree *base, const char *path,
		     const git_oid *blob, git_oid *out);

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
