/*
 * The hunk engine (src/edit/hunks.c): rungs 1 and 2, the already-applied
 * rung, insertions (a hunk's edges are in hunks_anchor.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/hunks_int.h"

/* ---- the ladder ---------------------------------------------------------------- */

/*
 * The old side at several places, hits[0..count): a refusal, unless the
 * hunk is already applied at one of them (aa_applied_among(): its new
 * side covers every place, or stands at one place only). `complete`:
 * hits holds every place the rung considered, not the first few.
 */
static rung_result ambiguous(hrun *r, const htry *y, aa_ws lv,
			     const size_t *hits, long count, int complete)
{
	aa_lview v = aa_hk_run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->post, y->npost);
	size_t start;
	int k = 0;

	if (complete && !r->cx->strict && y->npost > y->npre)
		k = aa_applied_among(&v, hits, (size_t)count, y->npre, &nd, lv, &start);
	aa_needle_release(&nd);
	if (k < 0)
		return aa_hk_oom(r, y->h->pos);
	if (!k || aa_hk_written(r, start, y->npost))
		return aa_hk_report_ambiguous(r, y, lv, hits, count);
	aa_note(r->cx->diags, y->h->pos, r->cx->path,
		"the hunk's old lines match %ld places, and its result already stands "
		"at line %ld: taken as applied there, not as ambiguous",
		count, aa_hk_orig_line(r, start) + 1);
	return aa_hk_skip_applied(r, y, start, lv) < 0 ? -1 : 1;
}

/* The current text from line `from` on. */
static aa_lview view_from(const hrun *r, size_t from)
{
	aa_lview v = aa_hk_run_view(r);

	if (from <= v.nseg[0]) {
		v.seg[0] += from;
		v.nseg[0] -= from;
	} else {
		from -= v.nseg[0];
		v.seg[1] += from;
		v.nseg[1] -= from;
		v.nseg[0] = 0;
	}
	return v;
}

/* The current text's lines [lo, hi) (hi cut to its end). */
aa_lview aa_hk_view_range(const hrun *r, size_t lo, size_t hi)
{
	size_t total = aa_hk_run_len(r), keep;
	aa_lview v;

	lo = lo > total ? total : lo;
	hi = hi > total ? total : hi < lo ? lo : hi;
	v = view_from(r, lo);
	keep = hi - lo;
	if (v.nseg[0] >= keep) {
		v.nseg[0] = keep;
		v.nseg[1] = 0;
	} else {
		v.nseg[1] = keep - v.nseg[0];
	}
	return v;
}

/*
 * Where a match of n lines may be, from line `from` on: one that starts
 * inside the hunk's window (it may run past the window's end, as a
 * chunk's last context lines run past the block its anchor opens).
 */
aa_lview aa_hk_window_view(const hrun *r, size_t from, size_t n)
{
	size_t hi = r->win_hi;

	if (from < r->win_lo)
		from = r->win_lo;
	if (hi != SIZE_MAX)
		hi += n ? n - 1 : 0;
	return aa_hk_view_range(r, from, hi < r->win_hi ? SIZE_MAX : hi);
}

/*
 * Lands y at `at`, the first of `count` places for as many hunks with
 * the same old lines, and says so unless it was found already applied
 * there instead. 1, or -1 on error.
 */
static int land_in_order(hrun *r, const htry *y, size_t at, long count, aa_how how,
			 aa_ws lv)
{
	size_t skipped = r->cx->skipped;

	if (aa_hk_land(r, y, at, how, lv) < 0)
		return -1;
	if (r->cx->skipped == skipped)
		aa_note(r->cx->diags, y->h->pos, r->cx->path,
			"this hunk and the %ld after it have the same lines, which are at %ld places: "
			"taken in order, this one at line %ld",
			count - 1, count, aa_hk_orig_line(r, at) + 1);
	return 1;
}

/*
 * A unique match of the old side at level lv, or an ambiguity. In a
 * run of k identical bare hunks, a hunk looks after the previous one's
 * place only, and k places for k hunks are unique in order: the first
 * is this one's.
 */
rung_result aa_hk_unique_rung(hrun *r, const htry *y, aa_ws lv, aa_how how)
{
	aa_lview v;
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	size_t buf[MAX_LISTED + 1], *hits = buf, from = r->run_floor;
	size_t need = r->run_left > 1 ? r->run_left : 1, max = MAX_LISTED + 1, i;
	long count;

	if (lv != AA_WS_EXACT)
		aa_hk_run_ws_ready(r);
	if (from < r->win_lo)
		from = r->win_lo;
	if (from > aa_hk_run_len(r))
		from = aa_hk_run_len(r);
	v = aa_hk_window_view(r, from, y->npre);
	/* uniqueness, or the places to list: the search stops after them */
	if (need + 1 > max) {
		max = need + 1;
		if (!(hits = malloc(max * sizeof(*hits))))
			return aa_hk_oom(r, y->h->pos);
	}
	count = aa_locate_first(&v, &nd, lv, hits, max);
	aa_needle_release(&nd);
	for (i = 0; count > 0 && i < (size_t)count; i++)
		hits[i] += from;
	if (count < 0)
		count = aa_hk_oom(r, y->h->pos);
	else if (count > 1 && (size_t)count == need)
		count = land_in_order(r, y, hits[0], count, how, lv);
	else if (count > 1)
		count = ambiguous(r, y, lv, hits, count, (size_t)count < max);
	else if (count == 1)
		count = aa_hk_land(r, y, hits[0], how, lv) < 0 ? -1 : 1;
	if (hits != buf)
		free(hits);
	return (rung_result)count;
}

/*
 * Rung 2 for a bare "@@" hunk: an exact match, which must be unique.
 * Proving that takes a pass over the whole file, for every hunk; but
 * when one of the hunk's old lines occurs once in the whole text, any
 * match holds it at a fixed place, so the first match found is the only
 * one: found by scanning outward from where the previous hunk ended
 * (bare hunks, like numbered ones, usually come in file order). A line
 * that occurs nowhere rules out an exact match at once.
 */
rung_result aa_hk_bare_exact(hrun *r, const htry *y)
{
	aa_lview v = aa_hk_run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	uint32_t fewest = UINT32_MAX;
	size_t j, at[2];
	int found;

	if (!r->count_key || r->win_lo || r->win_hi != SIZE_MAX)
		return aa_hk_unique_rung(r, y, AA_WS_EXACT, AA_HOW_CONTENT);
	for (j = 0; j < y->npre && fewest > 1; j++) {
		uint32_t c = aa_hk_count_of(r, y->pre[j].h[AA_WS_EXACT]);

		fewest = c < fewest ? c : fewest;
	}
	if (fewest == 0)
		return 0;
	if (fewest > 1)
		return aa_hk_unique_rung(r, y, AA_WS_EXACT, AA_HOW_CONTENT);
	found = aa_locate_nearest(&v, &nd, AA_WS_EXACT, r->next_at, at);
	aa_needle_release(&nd);
	if (found < 0)
		return aa_hk_oom(r, y->h->pos);
	if (!found)
		return 0;
	return aa_hk_land(r, y, at[0], AA_HOW_CONTENT, AA_WS_EXACT) < 0 ? -1 : 1;
}

/* The new side already in the file exactly once: nothing to do. */
rung_result aa_hk_already_applied(hrun *r, const htry *y, aa_ws lv)
{
	aa_lview v;
	aa_needle nd = AA_NEEDLE_INIT(y->post, y->npost);
	size_t hits[2];
	long count;

	if (!y->npost)
		return 0;
	if (lv != AA_WS_EXACT)
		aa_hk_run_ws_ready(r);
	v = aa_hk_window_view(r, r->win_lo, y->npost);
	/* "exactly once": the search stops at the second */
	count = aa_locate_first(&v, &nd, lv, hits, 2);
	aa_needle_release(&nd);
	if (count < 0)
		return aa_hk_oom(r, y->h->pos);
	if (count != 1)
		return 0;
	return aa_hk_record(r, y, hits[0] + r->win_lo, AA_HOW_ALREADY_APPLIED, lv,
			    AA_REINDENT_NONE, 0) < 0 ? -1 : 1;
}

/*
 * A numbered hunk found exactly both at its header's line and at that
 * line moved by the offset at which the earlier hunks landed: either
 * could be meant (git apply takes the first, GNU patch and jsdiff the
 * second), so neither is taken. In the exact-only tries this only fails
 * the try: the revision the answer was written against, where the two
 * are one line, may still decide it (see plan.c).
 */
static int report_two_places(hrun *r, const htry *y, size_t hint, size_t moved)
{
	return aa_error(r->cx->diags, y->h->pos, r->cx->path,
			"hunk is ambiguous: it matches exactly at line %ld, where its header says, "
			"and at line %ld, where the offset of the hunks before it (%+ld lines) puts it; "
			"refusing to guess (no earlier version of the file decides it: give more "
			"context lines or the right line numbers)",
			aa_hk_orig_line(r, hint) + 1, aa_hk_orig_line(r, moved) + 1, r->last_offset);
}

/*
 * A numbered hunk whose old lines are not at its header's line but
 * elsewhere, and whose new lines are at that line: its result stands
 * where the header places it, so it is already applied
 * (Documentation/locating.md, "Re-applying is a no-op") rather than
 * applied by rung 2 at the other place (short context: the change
 * taken a second time). With its old lines
 * nowhere, the history and the ladder decide, as before. Only
 * a hunk that adds lines: the new side of one that only removes lines
 * is context, weaker evidence (see aa_hk_ladder()).
 */
static rung_result applied_at_hint(hrun *r, const htry *y, size_t hint)
{
	aa_lview v = aa_hk_run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->post, y->npost);
	size_t k, adds = 0;
	int here;

	for (k = y->k0; k < y->k1; k++)
		adds += y->h->lines[k].kind == '+';
	here = adds && aa_locate_at(&v, hint, &nd, AA_WS_EXACT);

	aa_needle_release(&nd);
	/* not when an earlier hunk of this answer wrote them there */
	if (!here || aa_hk_written(r, hint, y->npost))
		return 0;
	return aa_hk_skip_applied(r, y, hint, AA_WS_EXACT) < 0 ? -1 : 1;
}

/*
 * Rung 2 keeps the hunks in the file's order, as GNU patch does: when
 * the nearest place is before the end of the hunk before (a header a
 * few lines off, short context that also stands earlier), a place after
 * it wins: the nearest to the header's line when that line is after it
 * too, else the only one. With several after it and the header's line
 * before them, the nearest place stands (identical hunks with
 * numbers off take the places in any order; an answer's hunks may be
 * out of order, and then their headers say so). None after it while
 * the header's line is after it, and several before: no place (0).
 * Returns found for the places in at[] (see aa_locate_nearest()), or
 * -1.
 */
static int after_previous(hrun *r, aa_needle *nd, const aa_hunk *h, int found,
			  size_t at[2])
{
	size_t hint = aa_hk_hinted_line(r, h, r->last_offset), after[2];
	aa_lview w;
	long k;

	if (!r->next_at || at[0] >= r->next_at)
		return found;
	w = aa_hk_view_range(r, r->next_at, SIZE_MAX);
	if (hint >= r->next_at)
		k = aa_locate_nearest(&w, nd, AA_WS_EXACT, hint - r->next_at, after);
	else
		k = aa_locate_first(&w, nd, AA_WS_EXACT, after, 2);
	if (k < 0)
		return -1;
	/*
	 * The header's line and the order both put the hunk after the one
	 * before, and its lines stand at several places, all before it:
	 * nothing says which is meant (GNU patch never goes back past the
	 * previous hunk). Four identical hunks, headers 120 lines off, put
	 * the last before the third. One place in the whole file still
	 * lands: the lines themselves say where.
	 */
	if (k == 0 && hint >= r->next_at) {
		aa_lview all = aa_hk_run_view(r);

		k = aa_locate_first(&all, nd, AA_WS_EXACT, after, 2);
		if (k < 0)
			return -1;
		if (k < 2)
			return found;
		r->behind_at = at[0];
		return 0;
	}
	if (k == 0 || (hint < r->next_at && k > 1))
		return found;
	at[0] = after[0] + r->next_at;
	at[1] = after[k > 1] + r->next_at;
	return (int)k;
}

/*
 * A numbered hunk of a run of k with the same old lines (see
 * identical_run()), not at its header's line: when those lines stand at
 * exactly k places after the previous hunk of the run, the first is
 * this one's, as for bare hunks. 1 when it landed, 0 when the places
 * do not decide, -1 on error.
 */
static rung_result in_order_place(hrun *r, const htry *y)
{
	aa_lview v;
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	size_t buf[MAX_LISTED + 1], *hits = buf, from = r->run_floor;
	size_t max = r->run_left + 1;
	long count;

	if (r->run_left < 2)
		return 0;
	if (from < r->next_at)
		from = r->next_at;
	if (max > MAX_LISTED + 1 && !(hits = malloc(max * sizeof(*hits))))
		return aa_hk_oom(r, y->h->pos);
	v = aa_hk_view_range(r, from, SIZE_MAX);
	count = aa_locate_first(&v, &nd, AA_WS_EXACT, hits, max);
	aa_needle_release(&nd);
	if (count < 0)
		count = aa_hk_oom(r, y->h->pos);
	else if ((size_t)count == r->run_left)
		count = land_in_order(r, y, hits[0] + from, count, AA_HOW_OFFSET, AA_WS_EXACT);
	else
		count = 0;
	if (hits != buf)
		free(hits);
	return (rung_result)count;
}

/* Rungs 1 and 2 for a hunk with a line number. */
rung_result aa_hk_exact_rungs(hrun *r, const htry *y)
{
	aa_lview v = aa_hk_run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	size_t at[2], hint = aa_hk_hinted_line(r, y->h, 0);
	int found;
	rung_result rr;

	/*
	 * "-0,N" (N > 0) names no line: aa_hk_hinted_line() takes it for line 1,
	 * which is rung 2 for aa_hk_record(); --strict has no place for it.
	 */
	if (r->cx->strict && y->h->old_count && y->h->old_start < 1)
		return 0;
	if (aa_locate_at(&v, hint, &nd, AA_WS_EXACT)) {
		size_t moved = aa_hk_hinted_line(r, y->h, r->last_offset);

		if (moved != hint && aa_locate_at(&v, moved, &nd, AA_WS_EXACT))
			return report_two_places(r, y, hint, moved);
		return aa_hk_land(r, y, hint, AA_HOW_EXACT, AA_WS_EXACT) < 0 ? -1 : 1;
	}
	if (r->cx->strict)
		return 0;
	found = aa_locate_nearest(&v, &nd, AA_WS_EXACT,
				  aa_hk_hinted_line(r, y->h, r->last_offset), at);
	if (found > 0)
		found = after_previous(r, &nd, y->h, found, at);
	aa_needle_release(&nd);
	if (found < 0)
		return aa_hk_oom(r, y->h->pos);
	if (found && (rr = applied_at_hint(r, y, hint)) != 0)
		return rr;
	if (found && (rr = in_order_place(r, y)) != 0)
		return rr;
	if (found == 2)
		return ambiguous(r, y, AA_WS_EXACT, at, 2, 1);
	if (found == 1)
		return aa_hk_land(r, y, at[0], AA_HOW_OFFSET, AA_WS_EXACT) < 0 ? -1 : 1;
	return 0;
}

/* A hunk without old lines: it adds lines at the line its header names. */
/*
 * A hunk without old lines (no context, nothing removed) says where its
 * lines go by line number alone, and assistants' line numbers are often
 * wrong; like git apply without --unidiff-zero, it is taken only where
 * the file itself confirms the place: an empty file, or right after the
 * last line (which can only be the end). At the top of a non-empty file
 * it usually means a "new" file that exists already: refused too.
 *
 * Its lines already right at that place (starting there or ending
 * there) are "already applied" (src/edit/applied.h): the
 * insertion applied once moved the end of the file past its header's
 * line. At the end of the file the header's line count is the evidence
 * that the file is the one the answer saw: the lines are added even
 * when the file ends with the same lines. A v4a chunk that only adds
 * lines goes at the end whatever the file's length (at_eof): there,
 * the file ending with its lines is what "already applied" means.
 */
int aa_hk_place_insertion(hrun *r, const htry *y)
{
	size_t total = aa_hk_run_len(r), at = aa_hk_hinted_line(r, y->h, 0), start;
	int k;

	if (!y->h->has_hint)
		return total ? aa_error(r->cx->diags, y->h->pos, r->cx->path,
					"hunk has no context or removed lines; nothing says where its lines go")
			     : aa_hk_land(r, y, 0, AA_HOW_CONTENT, AA_WS_EXACT);
	if ((long)at != y->h->old_start + r->delta + r->skipped_delta)
		return aa_error(r->cx->diags, y->h->pos, r->cx->path,
				"hunk adds lines after line %ld, but the file has %zu lines",
				y->h->old_start, total);
	if (r->cx->preimage_named && !y->h->at_eof)
		return aa_hk_land_here(r, y, at, AA_HOW_EXACT, AA_WS_EXACT);
	if (at != total || y->h->at_eof) {
		k = aa_hk_applied_at(r, y, at, AA_WS_EXACT, &start);
		if (k)
			return k < 0 ? aa_hk_oom(r, y->h->pos)
				     : aa_hk_skip_applied(r, y, start, AA_WS_EXACT);
	}
	if (at != total)
		return aa_error(r->cx->diags, y->h->pos, r->cx->path,
				"hunk adds lines %s line %ld with no context or removed lines; "
				"nothing in the file confirms the place (add context lines)",
				at ? "after" : "before", at ? y->h->old_start : 1);
	return aa_hk_land_here(r, y, at, AA_HOW_EXACT, AA_WS_EXACT);
}

size_t aa_hk_count_kind(const aa_hunk *h, char kind)
{
	size_t k, n = 0;

	for (k = 0; k < h->nlines; k++)
		n += h->lines[k].kind == kind;
	return n;
}
