/*
 * Sparse checkouts (sparse.h): which touched paths are skip-worktree
 * entries of the index base.
 */
#include <stdlib.h>
#include <string.h>

#include "land/sparse.h"
#include "land/index_read.h"

int aa_sparse_skip(const aa_session *s, const char *path)
{
	git_index_entry e;

	if (s->opts->mode == AA_LAND_BRANCH || !aa_index_get(s, path, 0, &e))
		return 0;
	return (e.flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0;
}

int aa_sparse_record(aa_session *s, const aa_plan *plan)
{
	size_t i;

	free(s->sparse);
	s->sparse = NULL;
	s->nsparse = 0;
	for (i = 0; i < plan->nchanges; i++) {
		if (!aa_sparse_skip(s, plan->changes[i].path))
			continue;
		if (!s->sparse && !(s->sparse = calloc(plan->nchanges, 1)))
			return -1;
		s->sparse[i] = 1;
	}
	s->nsparse = plan->nchanges;
	return 0;
}

int aa_sparse_change(const aa_session *s, const aa_plan *plan,
		     const aa_change *c)
{
	size_t i;

	/* --cached writes no work tree anywhere: nothing to say */
	if (s->opts->mode == AA_LAND_CACHED || !plan || c < plan->changes || c >= plan->changes + plan->nchanges)
		return 0;
	i = (size_t)(c - plan->changes);
	if (s->nsparse == plan->nchanges)   /* recorded at the landing */
		return s->sparse && s->sparse[i];
	return aa_sparse_skip(s, c->path);
}
