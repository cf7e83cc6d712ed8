/*
 * Sparse checkouts (sparse.c): an index entry with the skip-worktree
 * bit lies outside the cone. Such an entry is edited or removed in the
 * index only: the work tree is neither checked nor written there, and
 * the entry keeps the bit (git apply --index would write the file and
 * drop the bit; Documentation/landing.md, "Repository shapes").
 */
#ifndef AA_LAND_SPARSE_H
#define AA_LAND_SPARSE_H

#include "land/session.h"

/*
 * 1 when the index base (default, --cached, --check) holds `path` at
 * stage 0 with the skip-worktree bit, before the landing changes it.
 */
int aa_sparse_skip(const aa_session *s, const char *path);

/*
 * Records, before the index changes, which changes of the plan touch a
 * skip-worktree entry (for aa_sparse_change after the landing).
 * 0, or -1 out of memory.
 */
int aa_sparse_record(aa_session *s, const aa_plan *plan);

/*
 * 1 when change c of plan touched (or, before the landing, touches) a
 * skip-worktree entry, in the default mode or --check: the report says
 * "index only" for it.
 */
int aa_sparse_change(const aa_session *s, const aa_plan *plan,
		     const aa_change *c);

#endif
