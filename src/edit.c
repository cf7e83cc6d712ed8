/* Shared bookkeeping of the edit engines: where each edit landed. */
#include <stdlib.h>

#include "aiapply/edit.h"

int aa_edit_landing_add(aa_edit_ctx *cx, aa_pos pos, long line,
			long offset, aa_how how)
{
	aa_landing *l;

	if (cx->nlandings == cx->cap) {
		size_t cap = cx->cap ? cx->cap * 2 : 8;
		aa_landing *v = realloc(cx->landings, cap * sizeof(*v));

		if (!v)
			return -1;
		cx->landings = v;
		cx->cap = cap;
	}
	l = &cx->landings[cx->nlandings++];
	l->pos = pos;
	l->line = line;
	l->offset = offset;
	l->how = how;
	if (how == AA_HOW_ALREADY_APPLIED)
		cx->skipped++;
	else
		cx->applied++;
	return 0;
}

const char *aa_how_name(aa_how how)
{
	switch (how) {
	case AA_HOW_EXACT: return "exact";
	case AA_HOW_OFFSET: return "offset";
	case AA_HOW_WHITESPACE: return "whitespace";
	case AA_HOW_REDUCED_CONTEXT: return "reduced-context";
	case AA_HOW_CONTENT: return "content";
	case AA_HOW_ALREADY_APPLIED: return "already-applied";
	case AA_HOW_MERGED: return "merged";
	}
	return "?";
}

void aa_edit_ctx_release(aa_edit_ctx *cx)
{
	free(cx->landings);
	cx->landings = NULL;
	cx->nlandings = cx->cap = 0;
}
