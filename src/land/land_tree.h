/* --branch: the new tree without a tree builder (land_tree.c). */
#ifndef AA_LAND_TREE_H
#define AA_LAND_TREE_H

#include "land/session.h"

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

#endif
