/*
 * --include / --exclude on the change set (Documentation/workflows.md,
 * "Limiting the paths"): git apply's use_patch() over every format's
 * operations, not only a diff's. The patterns match as git's
 * wildmatch(pattern, name, 0): no WM_PATHNAME, so "*" and "?" match a
 * "/" too, and a leading "." is not special -- fnmatch() with no flags.
 */
#include <fnmatch.h>
#include <string.h>

#include "change/limit.h"

const char *aa_op_limit_name(const aa_op *op)
{
	if ((op->kind == AA_OP_RENAME || op->kind == AA_OP_COPY) && op->to)
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

size_t aa_changeset_limit(aa_changeset *cs, const aa_path_rule *rules,
			  size_t n)
{
	size_t i, kept = 0, dropped = 0;

	if (!n)
		return 0;
	for (i = 0; i < cs->n; i++) {
		if (aa_path_used(aa_op_limit_name(&cs->ops[i]), rules, n)) {
			if (kept != i)
				cs->ops[kept] = cs->ops[i];
			kept++;
			continue;
		}
		aa_op_free(&cs->ops[i]);
		dropped++;
	}
	cs->n = kept;
	return dropped;
}
