/*
 * --include / --exclude on the change set (Documentation/workflows.md,
 * "Limiting the paths"): git apply's use_patch() over every format's
 * operations, not only a diff's. The patterns match as git's
 * wildmatch(pattern, name, 0): no WM_PATHNAME, so "*" and "?" match a
 * "/" too, and a leading "." is not special -- fnmatch() with no flags.
 * It runs before -R turns the change set around (so that an operation
 * left out is never refused for not reversing), on the names the
 * operations will have once reversed, as git filters its reversed
 * patches.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "change/limit.h"

const char *aa_op_limit_name(const aa_op *op, int reverse)
{
	if ((op->kind == AA_OP_RENAME || op->kind == AA_OP_COPY) && op->to &&
	    !reverse)
		return op->to;
	return op->path ? op->path : "";
}

int aa_path_used(const char *name, const aa_path_rule *rules, size_t n)
{
	size_t i;
	int any_include = 0;

	for (i = 0; i < n; i++) {
		if (rules[i].pattern && !fnmatch(rules[i].pattern, name, 0))
			return rules[i].include != 0;
		any_include |= rules[i].include != 0;
	}
	return !any_include;
}

/*
 * A diff's rename or copy with edits is one patch in git, two
 * operations here (the move, then the edit of its new path): the edit
 * goes with its move's name. Forward both are the new path; reversed,
 * the move's name is its source, and so is the edit's.
 */
static const char *name_in_block(const aa_changeset *cs, size_t i, int reverse)
{
	const aa_op *op = &cs->ops[i];
	size_t j;

	if (!reverse || op->kind != AA_OP_EDIT || !op->diff_block || !op->path)
		return aa_op_limit_name(op, reverse);
	/* a block's operations are together: its move is before the edit */
	for (j = i; j-- > 0 && cs->ops[j].diff_block == op->diff_block; ) {
		const aa_op *m = &cs->ops[j];

		if ((m->kind == AA_OP_RENAME || m->kind == AA_OP_COPY) &&
		    m->to && !strcmp(m->to, op->path))
			return aa_op_limit_name(m, reverse);
	}
	return aa_op_limit_name(op, reverse);
}

long aa_changeset_limit(aa_changeset *cs, const aa_path_rule *rules,
			size_t n, int reverse)
{
	size_t i, kept = 0;
	long dropped = 0;
	char *used;

	if (!n || !cs->n)
		return 0;
	/* decided for every operation first: an edit looks at its move */
	if (!(used = malloc(cs->n)))
		return -1;
	for (i = 0; i < cs->n; i++)
		used[i] = (char)aa_path_used(name_in_block(cs, i, reverse), rules, n);
	for (i = 0; i < cs->n; i++) {
		if (used[i]) {
			if (kept != i)
				cs->ops[kept] = cs->ops[i];
			kept++;
			continue;
		}
		aa_op_free(&cs->ops[i]);
		dropped++;
	}
	cs->n = kept;
	free(used);
	return dropped;
}
