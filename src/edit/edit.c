/* Shared bookkeeping of the edit engines: where each edit landed. */
#include <stdlib.h>
#include <string.h>

#include "edit/edit.h"
#include "util/util.h"

int aa_edit_landing_add(aa_edit_ctx *cx, aa_pos pos, long line,
			long offset, aa_how how)
{
	aa_landing *l;

	if (AA_GROW(cx->landings, cx->nlandings, cx->cap) < 0)
		return -1;
	l = &cx->landings[cx->nlandings++];
	l->pos = pos;
	l->line = line;
	l->offset = offset;
	l->how = how;
	l->reindent = AA_REINDENT_NONE;
	l->reindent_by = 0;
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
	case AA_HOW_BLANK_LINES: return "blank-lines";
	case AA_HOW_CONTENT: return "content";
	case AA_HOW_ALREADY_APPLIED: return "already-applied";
	case AA_HOW_MERGED: return "merged";
	case AA_HOW_PATH_RESOLVED: return "path-resolved";
	case AA_HOW_DEFINITIONS_REMOVED: return "definitions-removed";
	}
	return "?";
}

/*
 * Documentation/locating.md, "One list of tolerant placements": a
 * placement is tolerant only when a rung beyond
 * exact was needed, a path was resolved, or definitions were dropped. An
 * exact unique content match (SEARCH/REPLACE, V4A, ap, bare hunks) is
 * not, nor an offset git apply would take too. The one list: the
 * summary, the trailer, -p, --review and the review record ask it.
 */
int aa_how_is_tolerant(aa_how how)
{
	switch (how) {
	case AA_HOW_WHITESPACE:
	case AA_HOW_REDUCED_CONTEXT:
	case AA_HOW_BLANK_LINES:
	case AA_HOW_MERGED:
	case AA_HOW_PATH_RESOLVED:
	case AA_HOW_DEFINITIONS_REMOVED:
		return 1;
	case AA_HOW_EXACT:
	case AA_HOW_OFFSET:
	case AA_HOW_CONTENT:
	case AA_HOW_ALREADY_APPLIED:
		return 0;
	}
	return 0;
}

int aa_how_name_is_tolerant(const char *name)
{
	aa_how h;

	for (h = AA_HOW_EXACT; h <= AA_HOW_DEFINITIONS_REMOVED; h++)
		if (!strcmp(name, aa_how_name(h)))
			return aa_how_is_tolerant(h);
	return 0;
}

static const char *const reindent_names[] = {
	"none", "deeper", "shallower", "tabs", "spaces", "mapped"
};

const char *aa_reindent_name(aa_reindent r)
{
	return (unsigned)r < sizeof(reindent_names) / sizeof(*reindent_names) ?
	       reindent_names[r] : "?";
}

int aa_reindent_parse(const char *name, aa_reindent *out)
{
	size_t i;

	for (i = 0; i < sizeof(reindent_names) / sizeof(*reindent_names); i++)
		if (!strcmp(name, reindent_names[i])) {
			*out = (aa_reindent)i;
			return 0;
		}
	return -1;
}

void aa_reindent_describe(aa_reindent r, long by, aa_buf *out)
{
	switch (r) {
	case AA_REINDENT_DEEPER:
		aa_buf_printf(out, "indented %ld blank%s deeper", by, by == 1 ? "" : "s");
		break;
	case AA_REINDENT_SHALLOWER:
		aa_buf_printf(out, "indented %ld blank%s less", by, by == 1 ? "" : "s");
		break;
	case AA_REINDENT_TABS:
		aa_buf_printf(out, "indented with tabs (%ld spaces a tab)", by);
		break;
	case AA_REINDENT_SPACES:
		aa_buf_printf(out, "indented with spaces (%ld a tab)", by);
		break;
	case AA_REINDENT_MAPPED:
		aa_buf_puts(out, "re-indented to the file's indentation");
		break;
	case AA_REINDENT_NONE:
		break;
	}
}

void aa_edit_ctx_release(aa_edit_ctx *cx)
{
	free(cx->landings);
	cx->landings = NULL;
	cx->nlandings = cx->cap = 0;
}
