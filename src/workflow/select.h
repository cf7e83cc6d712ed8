/*
 * -p / --patch: the interactive selection, a stage between plan and land
 * (git add -p's questions). It walks the plan's changes file by file and
 * asks, for each, the whole operations (rename, copy, mode change,
 * creation, deletion, binary, symlink or gitlink change) and the hunks of
 * the diff base -> planned content; it then rewrites the plan to hold
 * only what was accepted: refused changes are dropped, partially accepted
 * files get their selected content, and the landings of refused hunks
 * are dropped. The result is always a subset of the answer's changes,
 * hunk-wise, and a consistent tree (a creation that needs a refused
 * deletion is dropped with a note).
 */
#ifndef AIAPPLY_SELECT_H
#define AIAPPLY_SELECT_H

#include <stdio.h>
#include "aiapply/apply.h" /* aa_select_opts */
#include "land/land.h"

/* What a selection allocated (the selected contents): freed after the land. */
typedef struct aa_selection aa_selection;

/*
 * Asks and rewrites `plan` in place. Returns AA_OK (plan->nchanges may
 * be 0: nothing was selected), AA_REJECTED when the input ended before
 * the last question (the plan is then unusable: land nothing), or
 * AA_FATAL (out of memory, an unreadable base). *sel receives what the
 * rewritten plan points into; free it with aa_selection_free() after the
 * plan is no longer used.
 */
int aa_select(aa_session *s, aa_plan *plan, const aa_select_opts *o,
	      aa_selection **sel, aa_diags *d);
void aa_selection_free(aa_selection *sel);

#endif
