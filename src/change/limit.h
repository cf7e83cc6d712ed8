/*
 * --include / --exclude: which operations of a change set are used, as
 * git apply's use_patch() decides which patches of a diff are.
 */
#ifndef AIAPPLY_LIMIT_H
#define AIAPPLY_LIMIT_H

#include "aiapply/apply.h"
#include "change/changeset.h"

/*
 * The name an operation is matched by: the path it makes (a rename's or
 * copy's destination), else the one it touches (a deletion's: the path
 * deleted), as git's "new_name ? new_name : old_name". With `reverse`
 * (-R), the name of the operation reversed, as git tests its patches
 * after reversing them: a rename's or copy's source.
 */
const char *aa_op_limit_name(const aa_op *op, int reverse);

/*
 * Whether the name is used under the rules (n == 0: always): the first
 * rule whose pattern matches it decides; none matching, it is used
 * unless some rule is an --include.
 */
int aa_path_used(const char *name, const aa_path_rule *rules, size_t n);

/*
 * Drops from cs every operation not used under the rules (its name
 * as aa_op_limit_name gives it; with -R an edit of a diff's moved file
 * goes with its move), keeping the others in order. Returns how many
 * were dropped, or -1 when out of memory (cs untouched).
 */
long aa_changeset_limit(aa_changeset *cs, const aa_path_rule *rules,
			size_t n, int reverse);

#endif
