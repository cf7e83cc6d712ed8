/*
 * The hunk engine (src/edit/hunks.c): a hunk's edges -- what its
 * context pins at the start and end of the file -- and the warning for
 * a bare hunk that appends away from the end. Used by the ladder and by
 * the landing, so it stands apart from both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/hunks_int.h"

/* ---- anchoring ------------------------------------------------------------------ */

static int only_adds(const aa_hunk *h, size_t from, size_t to, int step)
{
	size_t k;

	for (k = from; k != to && h->lines[k].kind != ' '; k += (size_t)step)
		if (h->lines[k].kind == '-')
			return 0;
	return 1;
}

void aa_hk_hunk_edges(const aa_hunk *h, size_t k1, edges *e)
{
	size_t a = 0, b = 0;

	while (a < k1 && h->lines[a].kind == ' ')
		a++;
	while (a < k1 && b < k1 - a && h->lines[k1 - 1 - b].kind == ' ')
		b++;
	e->lead = a;
	e->trail = b;
	e->adds_first = a < k1 && only_adds(h, a, k1, 1);
	e->adds_last = a < k1 && only_adds(h, k1 - 1 - b, (size_t)-1, -1);
}

/*
 * The edge hunk lines [0, k1) are cut at. `wide`: git apply's rule (no
 * context after the changes: the end; at line 1 with none before them:
 * the start); else only where the changes next to that edge add lines
 * (aa_hk_hunk_anchor()).
 */
static int edge_of(const aa_hunk *h, size_t k1, int wide)
{
	edges e;

	if (!h->has_hint || !k1)
		return ANCHOR_NONE;
	aa_hk_hunk_edges(h, k1, &e);
	if (e.lead == k1)
		return ANCHOR_NONE;
	if (e.lead && !e.trail && (wide || e.adds_last))
		return ANCHOR_END;
	if (!e.lead && e.trail && (wide || e.adds_first) && h->old_start <= 1)
		return ANCHOR_START;
	return ANCHOR_NONE;
}

/*
 * The anchor of hunk lines [0, k1). Only numbered hunks: their header
 * says where they were cut, and a diff tool leaves out context only at
 * the file's edges. Only lines added at a bare edge are in doubt (right
 * after the last line shown, or at the end of the file?): a context
 * line on that side pins them, and so does a removed line next to them,
 * and a hunk with no context at all is pinned by what it removes.
 */
int aa_hk_hunk_anchor(const aa_hunk *h, size_t k1)
{
	return edge_of(h, k1, 0);
}

/*
 * git apply's own anchors (match_beginning, match_end), wider than
 * aa_hk_hunk_anchor(): a numbered hunk with no context after its changes ends
 * the file, one at line 1 with none before them starts it, whatever its
 * changes. Assistants often end a hunk on its changed line, so the
 * ladder cannot insist on this; but a hunk that is off its header's line
 * may have been cut at the edge of the file the answer saw, with lines
 * added upstream since right next to it. In the exact-only tries (the
 * current content first, then the versions history offers) such a hunk
 * is taken at its header's line or at the edge only, so a version where
 * the edge holds is found and the merge decides; when none is, the
 * ladder places it as before.
 */
int aa_hk_hunk_edge(const aa_hunk *h, size_t k1)
{
	return edge_of(h, k1, 1);
}

/*
 * A bare hunk says nothing of the end of the file: it lands where its
 * lines are, but one that appends after the last line it shows, away
 * from the end, gets a warning (files grow at their end, so that is
 * where an answer written before upstream appended goes wrong).
 */
void aa_hk_warn_bare_tail(hrun *r, const htry *y, size_t at)
{
	const aa_hunk *h = y->h;
	size_t total = aa_hk_run_len(r);
	edges e;

	if (h->has_hint || y->k1 != h->nlines || !y->npre || at + y->npre >= total)
		return;
	aa_hk_hunk_edges(h, h->nlines, &e);
	if (!e.lead || e.trail || !e.adds_last)
		return;
	aa_warn(r->cx->diags, h->pos, r->cx->path,
		"hunk has no context lines after its added lines; they go after line %ld, "
		"which is not the end of the file (%zu more lines follow): check that they belong there",
		aa_hk_orig_line(r, at + y->npre - 1) + 1, total - at - y->npre);
}
