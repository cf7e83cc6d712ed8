/* Private interfaces between the pipeline's files (apply.c, each.c). */
#ifndef AA_APPLY_INTERNAL_H
#define AA_APPLY_INTERNAL_H

#include "aiapply/apply.h"

/* A zeroed result with empty plan and change set. */
void aa_apply_result_init(aa_apply_result *res);

/*
 * Everything before the landing: the inputs, a lander (on `base`, or on
 * a base of its own when NULL), the change set, the plan and, for
 * --branch, the provenance. 0 to go on and land; -1 when the run ends
 * there, its outcome in res->outcome.
 */
int aa_apply_plan_one(git_repository *repo, aa_base *base,
		      const aa_apply_opts *o, aa_apply_result *res);

/*
 * The outcome of a landing that went through (r = 0; a staged one is
 * recorded for --review) or failed (r < 0), also in res->outcome.
 */
aa_outcome aa_apply_landed(aa_apply_result *res, int r);

#endif
