/*
 * Unified-diff hunks on a decoded text: the ladder of
 * Documentation/locating.md, "Locating hunks".
 *
 * Each hunk goes down one ladder and stops at the first rung that gives
 * a place; it never applies at an ambiguous one:
 *
 *   1. exact, at the line its header names (shifted by what the hunks
 *      before it added or removed);
 *   2. exact elsewhere: the nearest to that line (bare "@@" hunks, which
 *      have no line, must match exactly once);
 *   -  the hunk's result already there exactly once: skipped (a note);
 *   3. blanks ignored, trailing then leading and trailing: must be
 *      unique; added lines follow a consistent indentation shift;
 *   4. reduced context: the outer context lines may differ, the removed
 *      lines and the context next to each change must match as in 3,
 *      uniquely in the file;
 *   5. blank-line drift: blank context lines may be missing from the
 *      file or extra in it (removed blank lines must be there), the
 *      other lines matching as in 1 or 3, uniquely (aa_hk_drift_rung()).
 *
 * A numbered hunk exact both at its header's line and at that line
 * moved by the earlier hunks' offset is refused (report_two_places()).
 * A v4a chunk's region (aa_hunk.has_scope) bounds every search: the
 * match must start inside it. --strict (Documentation/format-diff.md)
 * allows rung 1 only.
 *
 * The text is rebuilt in one pass: the lines before a hunk's place move
 * from the original ("src") to the result ("out") as hunks land, so
 * hunks in file order cost O(file + hunks) in all. A hunk that lands in
 * the part already rebuilt is spliced there. Searches see out + the
 * rest of src as one text (aa_lview), so each hunk sees the result of
 * the ones before it. Both live in one array, out at its start and src
 * at its end, with room between for every line the hunks add: out can
 * never reach the src lines not yet moved, so the edit of a large file
 * needs one record per line, not two.
 *
 * The file's own lines are kept byte for byte: only removed lines go,
 * only added lines come in (with the file's dominant line ending).
 *
 * The engine's files (internals in hunks_int.h): hunks_run.c, the run
 * and a hunk's sides; hunks_anchor.c, a hunk's edges; hunks_ladder.c,
 * rungs 1 and 2; hunks_drift.c, rung 5; hunks_indent.c, re-indenting
 * added lines and applying at a place; hunks_land.c, recording a landing and "already
 * applied"; hunks_explain.c, the messages; this file, the anchored
 * ladder, the ladder of one hunk, the entry points and deletions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/hunks_int.h"

/* ---- the anchored ladder ------------------------------------------------------ */

/* The one place an anchored try's side of n lines may start; SIZE_MAX: none. */
static size_t anchor_at(const hrun *r, const htry *y, size_t n)
{
	size_t total = aa_hk_run_len(r);

	if (y->anchor == ANCHOR_START)
		return 0;
	return n <= total ? total - n : SIZE_MAX;
}

/* 1 when the n lines `side` are at the anchored place at level lv. */
static int at_anchor(hrun *r, const htry *y, const aa_lrec *side, size_t n,
		     aa_ws lv, size_t *at)
{
	aa_needle nd = AA_NEEDLE_INIT(side, n);
	aa_lview v;
	int found;

	*at = anchor_at(r, y, n);
	if (!n || *at == SIZE_MAX)
		return 0;
	if (lv != AA_WS_EXACT)
		aa_hk_run_ws_ready(r);
	v = aa_hk_run_view(r);
	found = aa_locate_at(&v, *at, &nd, lv);
	aa_needle_release(&nd);
	return found;
}

/* How many places (0, 1, 2: more) have the n lines `side` at level lv. */
static long count_in_window(hrun *r, const aa_lrec *side, size_t n, aa_ws lv)
{
	aa_needle nd = AA_NEEDLE_INIT(side, n);
	size_t from = r->run_floor, hits[2];
	aa_lview v;
	long count;

	if (lv != AA_WS_EXACT)
		aa_hk_run_ws_ready(r);
	if (from > aa_hk_run_len(r))
		from = aa_hk_run_len(r);
	v = aa_hk_window_view(r, from, n);
	count = aa_locate_first(&v, &nd, lv, hits, 2);
	aa_needle_release(&nd);
	return count;
}

/*
 * A tolerant rung (blanks ignored, context reduced) lands an anchored
 * hunk at its edge `at` only when no other place has its lines as well:
 * at the strictest level the edge has them, they are there only. The
 * anchor restricts where a hunk may go; it never picks one of several
 * places a looser match allows (a hunk that appends to a function in
 * the middle, its context changed upstream, would otherwise land after
 * the file's last "}"). Rung 1 is git apply's match_end: exact lines at
 * the edge are the place even when they are elsewhere too.
 */
static int edge_only_place(hrun *r, const aa_lrec *side, size_t n, aa_ws lv, size_t at)
{
	aa_needle nd = AA_NEEDLE_INIT(side, n);
	aa_lview v = aa_hk_run_view(r);
	aa_ws l = AA_WS_EXACT;

	while (l < lv && !aa_locate_at(&v, at, &nd, l))
		l++;
	aa_needle_release(&nd);
	return count_in_window(r, side, n, l) == 1;
}

static rung_result anchored_rung(hrun *r, const htry *y, aa_ws lv, aa_how how)
{
	size_t at;

	if (!at_anchor(r, y, y->pre, y->npre, lv, &at))
		return 0;
	if (how != AA_HOW_EXACT && !edge_only_place(r, y->pre, y->npre, lv, at))
		return 0;
	/* --strict: rung 1, at the header's line only */
	if (r->cx->strict && at != aa_hk_hinted_line(r, y->h, 0))
		return 0;
	return aa_hk_land(r, y, at, how, lv) < 0 ? -1 : 1;
}

/* How many of the n lines `side`, put at line `start`, are there (blanks ignored). */
static size_t support_at(hrun *r, const aa_lrec *side, size_t n, long start)
{
	aa_lview v = aa_hk_run_view(r);
	size_t i, total = aa_hk_run_len(r), k = 0;

	for (i = 0; i < n; i++) {
		aa_needle nd = AA_NEEDLE_INIT(&side[i], 1);
		long at = start + (long)i;

		if (at >= 0 && (size_t)at < total)
			k += (size_t)aa_locate_at(&v, (size_t)at, &nd, AA_WS_BOTH);
		aa_needle_release(&nd);
	}
	return k;
}

/*
 * Rung 4 for an anchored try y: its core at the edge, its old side
 * (landed) or, `new_side`, its new side (already applied: a hunk landed
 * once on this rung is found again this way). The core keeps one
 * context line next to the changes, often a "}" or a blank line that is
 * at many places; the edge is taken only when y's whole side, laid over
 * each place of the core's, has more of its lines there than anywhere
 * else: the context the core left out still says where the hunk goes.
 */
static rung_result anchored_core(hrun *r, const htry *y, const htry *core, int new_side)
{
	const aa_lrec *cs = new_side ? core->post : core->pre;
	const aa_lrec *ys = new_side ? y->post : y->pre;
	size_t cn = new_side ? core->npost : core->npre;
	size_t yn = new_side ? y->npost : y->npre;
	size_t *hits = NULL, at, i, best, off = 0;
	aa_needle nd = AA_NEEDLE_INIT(cs, cn);
	aa_lview v;
	long count;
	int edge_best = 1;

	/* the core's first line is y's line off on that side */
	for (i = y->k0; i < core->k0; i++)
		off += y->h->lines[i].kind != (new_side ? '-' : '+');
	if (!at_anchor(r, core, cs, cn, AA_WS_BOTH, &at))
		return 0;
	v = aa_hk_run_view(r);
	count = aa_locate_all(&v, &nd, AA_WS_BOTH, NULL, 0);
	if (count > 0 && !(hits = malloc((size_t)count * sizeof(*hits))))
		count = -1;
	if (count > 0)
		count = aa_locate_all(&v, &nd, AA_WS_BOTH, hits, (size_t)count);
	aa_needle_release(&nd);
	if (count < 0) {
		free(hits);
		return aa_hk_oom(r, y->h->pos);
	}
	best = support_at(r, ys, yn, (long)at - (long)off);
	for (i = 0; edge_best && i < (size_t)count; i++)
		if (hits[i] != at && support_at(r, ys, yn, (long)hits[i] - (long)off) >= best)
			edge_best = 0;
	free(hits);
	if (!edge_best)
		return 0;
	if (new_side)
		return aa_hk_record(r, core, at, AA_HOW_ALREADY_APPLIED, AA_WS_BOTH,
				    AA_REINDENT_NONE, 0) < 0 ? -1 : 1;
	return aa_hk_land(r, core, at, AA_HOW_REDUCED_CONTEXT, AA_WS_BOTH) < 0 ? -1 : 1;
}

static rung_result anchored_applied(hrun *r, const htry *y, aa_ws lv)
{
	size_t at;

	if (!at_anchor(r, y, y->post, y->npost, lv, &at))
		return 0;
	if (lv != AA_WS_EXACT && !edge_only_place(r, y->post, y->npost, lv, at))
		return 0;
	return aa_hk_record(r, y, at, AA_HOW_ALREADY_APPLIED, lv, AA_REINDENT_NONE, 0) < 0 ? -1 : 1;
}

/*
 * The ladder of an anchored hunk: the same rungs in the same order, at
 * its one place (the start or the end of the text as it stands). Where
 * its lines are elsewhere, report_anchored() says so.
 */
static rung_result anchored_ladder(hrun *r, const htry *y)
{
	const aa_hunk *h = y->h;
	rung_result rr = anchored_rung(r, y, AA_WS_EXACT, AA_HOW_EXACT);
	size_t k0, k1;
	htry core;
	aa_ws lv;
	long n;

	if (rr || r->cx->exact_only || r->cx->strict)
		return rr;
	if (aa_hk_count_kind(h, '+'))
		rr = anchored_applied(r, y, AA_WS_EXACT);
	for (lv = AA_WS_TRAILING; !rr && lv <= AA_WS_BOTH; lv++)
		rr = anchored_rung(r, y, lv, AA_HOW_WHITESPACE);
	if (!rr)
		rr = anchored_applied(r, y, AA_WS_EXACT);
	if (!rr)
		rr = anchored_applied(r, y, AA_WS_BOTH);
	/*
	 * Its whole old side elsewhere, blanks ignored: that is where its
	 * context is, and it is not the edge; a part of it (rung 4) or a
	 * drift of its blank lines (rung 5) at the edge is no place for it.
	 * report_anchored() names the line.
	 */
	if (!rr && (n = count_in_window(r, y->pre, y->npre, AA_WS_BOTH)) != 0)
		return n < 0 ? aa_hk_oom(r, h->pos) : 0;
	/* the core keeps the anchored side: it has no context there */
	if (!rr && aa_hk_reduced_core(h, y->k1, &k0, &k1)) {
		if (aa_hk_try_build(&core, h, k0, k1) < 0)
			return aa_hk_oom(r, h->pos);
		core.anchor = y->anchor;
		/* applied once on this rung: its new side is at the edge */
		if (aa_hk_count_kind(h, '+'))
			rr = anchored_core(r, y, &core, 1);
		if (!rr)
			rr = anchored_core(r, y, &core, 0);
		aa_hk_try_release(&core);
	}
	if (!rr)
		rr = aa_hk_drift_rung(r, y);
	return rr;
}

/*
 * Exact-only, for an edge hunk (aa_hk_hunk_edge()) that aa_hk_hunk_anchor() leaves
 * free: at its header's line, else at the edge, else nowhere.
 */
static rung_result exact_at_edge(hrun *r, const htry *y, int edge)
{
	aa_lview v = aa_hk_run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	size_t hint = aa_hk_hinted_line(r, y->h, 0), at;
	htry e = *y;
	int here = aa_locate_at(&v, hint, &nd, AA_WS_EXACT);

	aa_needle_release(&nd);
	if (here)
		return aa_hk_land(r, y, hint, AA_HOW_EXACT, AA_WS_EXACT) < 0 ? -1 : 1;
	e.anchor = edge;
	if (!at_anchor(r, &e, e.pre, e.npre, AA_WS_EXACT, &at))
		return 0;
	return aa_hk_land(r, y, at, AA_HOW_OFFSET, AA_WS_EXACT) < 0 ? -1 : 1;
}

/* Rungs 1 to 4 and "already applied" for try y: 0 when none gives a place. */
rung_result aa_hk_ladder(hrun *r, const htry *y)
{
	const aa_hunk *h = y->h;
	htry core;
	size_t k0, k1;
	rung_result rr;
	aa_ws lv;

	if (y->anchor != ANCHOR_NONE)
		return anchored_ladder(r, y);
	if (r->cx->exact_only && !r->cx->strict) {
		int edge = aa_hk_hunk_edge(h, y->k1);

		if (edge != ANCHOR_NONE)
			return exact_at_edge(r, y, edge);
	}
	rr = h->has_hint ? aa_hk_exact_rungs(r, y) : aa_hk_bare_exact(r, y);
	if (r->cx->exact_only)
		return rr;
	/*
	 * The new side found exactly means "already applied" before the
	 * blank-tolerant rungs get a say: a re-indenting hunk applied once
	 * would match them again and indent twice. A hunk that only removes
	 * lines has only context on its new side, which is weaker evidence:
	 * it waits until the old side is absent with blanks ignored too.
	 */
	if (!rr && !r->cx->strict && aa_hk_count_kind(h, '+'))
		rr = aa_hk_already_applied(r, y, AA_WS_EXACT);
	/*
	 * Its exact lines stand only before the hunk before it (rung 2's
	 * behind_at): the tolerant rungs would find the same places and
	 * call them ambiguous ignoring whitespace; the refusal says why.
	 */
	if (r->behind_at != SIZE_MAX)
		return rr;
	for (lv = AA_WS_TRAILING; !rr && !r->cx->strict && lv <= AA_WS_BOTH; lv++)
		rr = aa_hk_unique_rung(r, y, lv, AA_HOW_WHITESPACE);
	if (!rr && !r->cx->strict)
		rr = aa_hk_already_applied(r, y, AA_WS_EXACT);
	if (!rr && !r->cx->strict)
		rr = aa_hk_already_applied(r, y, AA_WS_BOTH);
	if (!rr && !r->cx->strict && aa_hk_reduced_core(h, y->k1, &k0, &k1)) {
		if (aa_hk_try_build(&core, h, k0, k1) < 0)
			return aa_hk_oom(r, h->pos);
		rr = aa_hk_unique_rung(r, &core, AA_WS_BOTH, AA_HOW_REDUCED_CONTEXT);
		aa_hk_try_release(&core);
	}
	if (!rr && !r->cx->strict)
		rr = aa_hk_drift_rung(r, y);
	return rr;
}

/*
 * Where the hunk's run of last lines that the parser took for context
 * without their leading space starts; 0 when there is none. Prose right
 * after an unfenced hunk looks just like them.
 */
static size_t loose_tail(const aa_hunk *h)
{
	size_t k = h->nlines;

	while (k > 0 && h->lines[k - 1].loose)
		k--;
	return k < h->nlines ? k : 0;
}

/*
 * An anchored hunk that is not at its place: where its lines are
 * aa_hk_elsewhere (exactly or with blanks ignored), say that and why it is
 * refused; else the usual report.
 */
static int report_anchored(hrun *r, const htry *y, size_t hint)
{
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	size_t at, total = aa_hk_run_len(r);
	aa_lview v;
	edges e;
	long n;

	aa_hk_run_ws_ready(r);
	v = aa_hk_run_view(r);
	n = aa_locate_first(&v, &nd, AA_WS_EXACT, &at, 1);
	if (n == 0)
		n = aa_locate_first(&v, &nd, AA_WS_BOTH, &at, 1);
	aa_needle_release(&nd);
	if (n < 0)
		return aa_hk_oom(r, y->h->pos);
	if (n == 0)
		return aa_hk_report_not_found(r, y, hint);
	aa_hk_hunk_edges(y->h, y->k1, &e);
	if (y->anchor == ANCHOR_END)
		return aa_error(r->cx->diags, y->h->pos, r->cx->path,
				"hunk is anchored to the end of the file: it adds lines after the last of the "
				"%zu line(s) it shows and shows none after them, so it was cut at the end of the file "
				"it was written for; its lines are at line %ld, but %zu more line(s) follow "
				"them; refusing to put its changes before them (add the context lines that "
				"follow, or write the hunk against the current file)",
				e.lead, aa_hk_orig_line(r, at) + 1, total - at - y->npre);
	return aa_error(r->cx->diags, y->h->pos, r->cx->path,
			"hunk is anchored to the start of the file: it starts at line 1 and adds lines "
			"before the first of the %zu line(s) it shows, with none before them; its lines are "
			"at line %ld, after %zu other line(s); refusing to put its changes after them "
			"(add the context lines that come before, or write the hunk against the "
			"current file)",
			e.trail, aa_hk_orig_line(r, at) + 1, at);
}

/* The old sides of two hunks are the same lines. */
static int same_old_side(const aa_hunk *a, const aa_hunk *b)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->nlines && a->lines[i].kind == '+')
			i++;
		while (j < b->nlines && b->lines[j].kind == '+')
			j++;
		if (i == a->nlines || j == b->nlines)
			return i == a->nlines && j == b->nlines;
		if (a->lines[i].kind != b->lines[j].kind ||
		    a->lines[i].len != b->lines[j].len ||
		    memcmp(a->lines[i].text, b->lines[j].text, a->lines[i].len))
			return 0;
		i++;
		j++;
	}
}

/* Hunk b may follow hunk a in a run of identical hunks. */
static int runs_on(const aa_hunk *a, const aa_hunk *b)
{
	if (b->has_scope || b->has_hint != a->has_hint || !same_old_side(a, b))
		return 0;
	/* numbered ones in the order of their headers' lines */
	return !a->has_hint || b->old_start > a->old_start;
}

/*
 * How many hunks, from hunk i on, have hunk i's old lines: hunks of a
 * file apply in order, so k of them for k places of those lines are
 * placed one to each, in order. Bare hunks have nothing else to tell
 * the places apart; numbered ones have their headers' lines, which
 * decide while they hold (rung 1), but a header off by more than the
 * distance between two of the places took the same place for several
 * hunks (each header moved by the offset of the one before): there
 * k places for k hunks in the headers' order decide too (see
 * aa_hk_exact_rungs()).
 */
static size_t identical_run(const aa_op *op, size_t i)
{
	size_t k = i + 1;

	if (op->hunks[i].has_scope)
		return 1;
	while (k < op->nhunks && runs_on(&op->hunks[k - 1], &op->hunks[k]))
		k++;
	return k - i;
}

static int place_hunk(hrun *r, const aa_hunk *h)
{
	htry y, cut;
	size_t hint, tail;
	rung_result rr;

	if (aa_hk_try_build(&y, h, 0, h->nlines) < 0)
		return aa_hk_oom(r, h->pos);
	r->behind_at = SIZE_MAX;
	r->win_lo = h->has_scope ? aa_hk_cur_line(r, h->scope_lo) : 0;
	r->win_hi = h->has_scope ? aa_hk_cur_line(r, h->scope_hi) : SIZE_MAX;
	y.anchor = aa_hk_hunk_anchor(h, h->nlines);
	if (!y.npre) {
		rr = aa_hk_place_insertion(r, &y);
		aa_hk_try_release(&y);
		return rr < 0 ? -1 : 0;
	}
	hint = h->has_scope ? r->win_lo : aa_hk_hinted_line(r, h, r->last_offset);
	rr = aa_hk_ladder(r, &y);
	/* lines taken for context that are not in the file: without them */
	if (!rr && (tail = loose_tail(h)) > 0) {
		if (aa_hk_try_build(&cut, h, 0, tail) < 0) {
			aa_hk_try_release(&y);
			return aa_hk_oom(r, h->pos);
		}
		cut.anchor = aa_hk_hunk_anchor(h, tail);
		if (cut.npre && (rr = aa_hk_ladder(r, &cut)) > 0)
			aa_warn(r->cx->diags, h->pos, r->cx->path,
				"the hunk's last %zu line(s) were not context after all; left out",
				h->nlines - tail);
		aa_hk_try_release(&cut);
	}
	/*
	 * A hunk that fails changes nothing: the later headers stay right.
	 * An exact-only try's caller drops the reason (the ladder or the
	 * history says its own): no explanation is built, whose closest
	 * region and blank-tolerant line hashes cost a pass over the text.
	 */
	if (!rr && r->cx->exact_only)
		rr = aa_error(r->cx->diags, h->pos, r->cx->path,
			      "hunk does not apply exactly");
	else if (!rr)
		rr = y.anchor != ANCHOR_NONE ? report_anchored(r, &y, hint)
					     : aa_hk_report_not_found(r, &y, hint);
	aa_hk_try_release(&y);
	return rr < 0 ? -1 : 0;
}

/*
 * --strict: the encoding rule (Documentation/format-diff.md, "--strict"),
 * before any context is looked at.
 */
static int strict_encoding(const aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	if (t->enc != AA_ENC_UTF16LE && t->enc != AA_ENC_UTF16BE)
		return 0;
	return aa_error(cx->diags, op->pos, cx->path,
			"Encoding mismatch: the file is %s, the diff is UTF-8",
			aa_enc_name(t->enc));
}

/*
 * --strict: the hunk counts (Documentation/format-diff.md, "--strict"),
 * after every context matched.
 */
static int strict_counts(const aa_op *op, aa_edit_ctx *cx)
{
	size_t i;

	for (i = 0; i < op->nhunks; i++)
		if (op->hunks[i].count_mismatch)
			return aa_error(cx->diags, op->hunks[i].pos, cx->path,
					"Hunk line counts incorrect: the body has %ld old and %ld new lines, not what the header says",
					op->hunks[i].old_count, op->hunks[i].new_count);
	return 0;
}

static int place_all(aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	hrun r;
	size_t i;
	int ret = 0;

	if (cx->strict && strict_encoding(t, op, cx) < 0)
		return -1;
	if (aa_hk_run_init(&r, t, op, cx) < 0)
		return aa_hk_oom(&r, op->pos);
	/*
	 * A hunk that fails fails the op, but the later ones are still
	 * placed (against the text as it stands) so that one run reports
	 * every hunk that does not apply.
	 */
	for (i = 0; i < op->nhunks; i++) {
		if (!r.run_left) {
			r.run_left = identical_run(op, i);
			r.run_floor = 0;
		}
		if (place_hunk(&r, &op->hunks[i]) < 0)
			ret = -1;
		r.run_left--;
	}
	if (!ret && cx->strict)
		ret = strict_counts(op, cx);
	if (!ret && aa_hk_run_finish(&r) < 0)
		ret = aa_hk_oom(&r, op->pos);
	aa_hk_run_release(&r);
	return ret;
}

/* ---- deletions ------------------------------------------------------------------ */

/*
 * Hunks whose added lines elide removed ones (aa_hunk.may_elide) are
 * placed as a copy with the elisions resolved: the parser only records
 * that they may be there.
 */
int aa_edit_hunks(aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	aa_changeset copy = AA_CHANGESET_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < op->nhunks; i++)
		if (aa_hunk_has_elisions(&op->hunks[i], op->path))
			break;
	if (i == op->nhunks)
		return place_all(t, op, cx);
	if (aa_op_clone(&copy, op) < 0) {
		aa_changeset_free(&copy);
		return aa_oom(cx->diags, op->pos, cx->path);
	}
	for (i = 0; i < copy.ops[0].nhunks; i++)
		if (aa_hunk_resolve_elisions(&copy.ops[0].hunks[i], op->path,
					     cx->path, cx->diags) < 0)
			ret = -1;
	if (!ret)
		ret = place_all(t, &copy.ops[0], cx);
	aa_changeset_free(&copy);
	return ret;
}

int aa_edit_check_deletion(const aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	size_t i, k, line = 0;
	int ws_only = 0;

	for (i = 0; i < op->nhunks; i++) {
		const aa_hunk *h = &op->hunks[i];

		for (k = 0; k < h->nlines; k++) {
			const aa_hline *l = &h->lines[k];
			aa_lrec f, p;

			if (l->kind == '+')
				return aa_error(cx->diags, h->pos, cx->path,
						"a deletion's hunk adds lines");
			if (line >= t->n)
				return aa_error(cx->diags, h->pos, cx->path,
						"the deletion removes more lines than the file has (%zu)",
						t->n);
			aa_lrec_set(&f, t->lines[line].s, t->lines[line].len, AA_EOL_LF);
			aa_lrec_set(&p, l->text, l->len, AA_EOL_LF);
			if (!aa_lrec_eq(&f, &p, AA_WS_EXACT)) {
				if (cx->strict || !aa_lrec_eq(&f, &p, AA_WS_TRAILING)) {
					aa_buf b = AA_BUF_INIT;
					int ret;

					aa_buf_puts(&b, "the deletion does not match the file; it would lose lines the patch did not show:");
					aa_hk_describe_line(&b, &f, &p, (long)line + 1);
					ret = aa_error_buf(cx->diags, h->pos, cx->path, &b);
					aa_buf_free(&b);
					return ret;
				}
				ws_only = 1;
			}
			line++;
		}
	}
	if (op->nhunks && line != t->n)
		return aa_error(cx->diags, op->hunks[0].pos, cx->path,
				"the deletion removes %zu lines, the file has %zu; it would lose lines the patch did not show",
				line, t->n);
	if (ws_only)
		aa_warn(cx->diags, op->pos, cx->path,
			"the deleted file differs from the patch in trailing blanks only");
	return 0;
}
