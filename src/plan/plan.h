/*
 * The planner: applies a change set, in order, over a base snapshot into
 * an in-memory overlay and enforces the shared rules (paths, modes,
 * binary, symlinks, submodules, existence, file/directory conflicts:
 * Documentation/landing.md, "Planner rules").
 * It never writes: the result is a list of changed paths for landing.
 */
#ifndef AIAPPLY_PLAN_H
#define AIAPPLY_PLAN_H

#include "plan/plan_types.h"

/*
 * Plans the whole change set. The plan may point into the change set's
 * contents (whole-file writes are not copied): free the plan first. Returns 0 (plan->changes filled; it may be
 * empty when everything was already applied) or -1 with errors in d.
 */
int aa_plan_build(aa_plan *plan, const aa_changeset *cs,
		  const aa_snapshot *base, const aa_plan_opts *o, aa_diags *d);
void aa_plan_free(aa_plan *plan);
/* How many changes of the plan are written as conflicts (--3way). */
size_t aa_plan_conflicts(const aa_plan *plan);

#endif
