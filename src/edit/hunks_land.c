/*
 * The hunk engine (src/edit/hunks.c): recording a landing (re-indent,
 * warnings) and "already applied" at a place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/hunks_int.h"

/* The kind of re-indent a shift makes, as the landing records it. */
static aa_reindent shift_kind(const ishift *sh, long *by)
{
	*by = (long)sh->n;
	switch (sh->kind) {
	case SHIFT_ADD: return AA_REINDENT_DEEPER;
	case SHIFT_REMOVE: return AA_REINDENT_SHALLOWER;
	case SHIFT_TO_TABS: return AA_REINDENT_TABS;
	case SHIFT_TO_SPACES: return AA_REINDENT_SPACES;
	case SHIFT_MAP:
		*by = 0;
		return AA_REINDENT_MAPPED;
	default:
		*by = 0;
		return AA_REINDENT_NONE;
	}
}

/*
 * The re-indent try y's added lines get from sh: none unless the shift
 * changes at least one of them (a shift found on the context says
 * nothing when the hunk adds only blank lines, or none). -1: no memory.
 */
static int added_reindent(const ishift *sh, const htry *y, aa_reindent *ri,
			  long *by)
{
	aa_buf b = AA_BUF_INIT;
	size_t k;
	int changed = 0;

	*ri = AA_REINDENT_NONE;
	*by = 0;
	for (k = y->k0; k < y->k1 && !changed && sh->kind != SHIFT_NONE; k++) {
		const aa_hline *l = &y->h->lines[k];

		if (l->kind != '+')
			continue;
		if (aa_hk_shift_line(sh, l->text, l->len, &b) < 0) {
			aa_buf_free(&b);
			return -1;
		}
		changed = b.len != l->len || (b.len && memcmp(b.ptr, l->text, b.len));
	}
	aa_buf_free(&b);
	if (changed)
		*ri = shift_kind(sh, by);
	return 0;
}

/* "; added lines indented 2 blanks deeper, as the file is" into note. */
static void reindent_note(aa_reindent ri, long by, aa_buf *note)
{
	if (ri == AA_REINDENT_NONE)
		return;
	aa_buf_puts(note, "; added lines ");
	aa_reindent_describe(ri, by, note);
	if (ri != AA_REINDENT_MAPPED)
		aa_buf_puts(note, ", as the file is");
}

/* "1 blank context line(s) of the hunk not in the file": rung 5's drift. */
static void drift_what(const hrun *r, aa_ws lv, char *buf, size_t size)
{
	size_t m = r->drift_missing, e = r->drift_extra;

	if (m && e)
		snprintf(buf, size, "%zu blank context line(s) of the hunk not in the file, "
			 "%zu blank line(s) of the file not in the hunk (kept)", m, e);
	else if (m)
		snprintf(buf, size, "%zu blank context line(s) of the hunk not in the file", m);
	else if (e)
		snprintf(buf, size, "%zu blank line(s) of the file not in the hunk (kept)", e);
	else
		snprintf(buf, size, "%s", lv == AA_WS_EXACT ? "no blank line differs"
							     : "blank lines differ in blanks only");
}

/* Records where the hunk landed and warns about every non-exact landing. */
int aa_hk_record(hrun *r, const htry *y, size_t at, aa_how how, aa_ws lv,
		 aa_reindent ri, long by)
{
	const aa_hunk *h = y->h;
	long line = aa_hk_orig_line(r, at) + 1;
	/* "@@ -N,0" adds after line N: its lines start at line N + 1 */
	long expect = h->old_start + (long)y->pre_before + (h->old_count ? 0 : 1) +
		      r->skipped_delta;
	long offset = h->has_hint ? line - expect : 0;
	char off[64] = "", what[160];
	aa_buf note = AA_BUF_INIT;
	int ret;

	reindent_note(ri, by, &note);
	if (aa_buf_oom(&note)) {
		aa_buf_free(&note);
		return aa_hk_oom(r, h->pos);
	}
	if (h->has_hint && (how == AA_HOW_EXACT || how == AA_HOW_OFFSET))
		how = offset ? AA_HOW_OFFSET : AA_HOW_EXACT;
	if (h->has_hint && offset)
		snprintf(off, sizeof(off), ", %+ld lines from its header's line %ld",
			 offset, expect);
	switch (how) {
	case AA_HOW_OFFSET:
		aa_warn(r->cx->diags, h->pos, r->cx->path,
			"hunk applied at line %ld%s (rung 2: exact match elsewhere)", line, off);
		break;
	case AA_HOW_WHITESPACE:
		aa_warn(r->cx->diags, h->pos, r->cx->path,
			"hunk applied at line %ld%s ignoring whitespace (rung 3: %s)%s",
			line, off, lv == AA_WS_TRAILING ? "trailing blanks"
						       : "leading and trailing blanks",
			note.ptr ? note.ptr : "");
		break;
	case AA_HOW_REDUCED_CONTEXT:
		aa_warn(r->cx->diags, h->pos, r->cx->path,
			"hunk applied at line %ld%s with reduced context (rung 4): %zu outer context line(s) not matched%s",
			line, off, h->nlines - (y->k1 - y->k0), note.ptr ? note.ptr : "");
		break;
	case AA_HOW_BLANK_LINES:
		drift_what(r, lv, what, sizeof(what));
		aa_warn(r->cx->diags, h->pos, r->cx->path,
			"hunk applied at line %ld%s with blank-line drift (rung 5): %s%s%s",
			line, off, what,
			lv == AA_WS_EXACT ? "" : lv == AA_WS_TRAILING
				? "; its other lines matched ignoring trailing blanks"
				: "; its other lines matched ignoring leading and trailing blanks",
			note.ptr ? note.ptr : "");
		break;
	case AA_HOW_ALREADY_APPLIED:
		aa_note(r->cx->diags, h->pos, r->cx->path,
			"hunk already applied (its result is at line %ld); skipped", line);
		break;
	default:
		break;
	}
	/* the next hunk's hint drifts as this one did */
	if (h->has_hint)
		r->last_offset = offset;
	/* the next hunk of a run of identical ones goes after this one */
	r->run_floor = at + y->npost;
	/* a hunk found already applied moved the lines after it, as if applied */
	if (how == AA_HOW_ALREADY_APPLIED) {
		r->skipped_delta += (long)y->npost - (long)y->npre;
		r->next_at = at + y->npost;
	}
	aa_buf_free(&note);
	ret = aa_edit_landing_add(r->cx, h->pos, line, offset, how);
	if (!ret) {
		r->cx->landings[r->cx->nlandings - 1].reindent = ri;
		r->cx->landings[r->cx->nlandings - 1].reindent_by = by;
	}
	return ret;
}

/*
 * Already applied (Documentation/locating.md, "Re-applying is a no-op")
 * for a hunk whose new side holds its old side
 * (src/edit/applied.h): with its old side located at `at`, its
 * new side already covering that place. 1 with *start where the new
 * side stands, 0 not, -1 out of memory. Only a hunk with more new
 * lines than old: one with as many can only be covered by a new side
 * equal to its old side at level lv, a hunk that changes only what lv
 * ignores (blanks) or the final newline, which the file cannot show to
 * be done. (With lines added, a final newline the file still lacks is
 * left so: applying again would add the lines twice.) Not under
 * --strict (Documentation/format-diff.md: the contract has no such rule).
 */
int aa_hk_applied_at(hrun *r, const htry *y, size_t at, aa_ws lv, size_t *start)
{
	aa_lview v = aa_hk_run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->post, y->npost);
	long n;

	if (r->cx->strict || y->npost <= y->npre)
		return 0;
	n = aa_applied_covering(&v, at, y->npre, &nd, lv, start, 1);
	aa_needle_release(&nd);
	return n < 0 ? -1 : n > 0;
}

/* Records y as already applied, its new side standing at `start`. */
int aa_hk_skip_applied(hrun *r, const htry *y, size_t start, aa_ws lv)
{
	return aa_hk_record(r, y, start, AA_HOW_ALREADY_APPLIED, lv, AA_REINDENT_NONE, 0);
}

/* Lands y at `at`, finding the indentation shift for a blank-tolerant rung. */
int aa_hk_land_here(hrun *r, const htry *y, size_t at, aa_how how, aa_ws lv)
{
	aa_lview v = aa_hk_run_view(r);
	ishift sh;
	aa_reindent ri = AA_REINDENT_NONE;
	long by = 0;
	int ret;

	memset(&sh, 0, sizeof(sh));
	aa_hk_warn_bare_tail(r, y, at);
	if (lv != AA_WS_EXACT && (aa_hk_find_shift(&v, at, y, &sh) < 0 ||
				  added_reindent(&sh, y, &ri, &by) < 0)) {
		aa_hk_shift_release(&sh);
		return aa_hk_oom(r, y->h->pos);
	}
	/* record before applying: line numbers are those of the file before */
	ret = aa_hk_record(r, y, at, how, lv, ri, by);
	if (!ret && aa_hk_apply_at(r, at, y, &sh) < 0)
		ret = aa_hk_oom(r, y->h->pos);
	r->next_at = at + y->npost;
	aa_hk_shift_release(&sh);
	return ret;
}

/*
 * What try y changes, as its two sides show it: the lines both sides
 * start with (lead) and end with (trail) are context, whether the
 * answer marked them so (a diff) or not (a SEARCH and its REPLACE).
 * The new side's lines between are what it writes; `solid` counts the
 * ones that are not blank.
 */
typedef struct change_span {
	size_t lead, trail, solid;
} change_span;

static void change_span_of(const htry *y, change_span *c)
{
	size_t most = y->npre < y->npost ? y->npre : y->npost, i;

	memset(c, 0, sizeof(*c));
	while (c->lead < most &&
	       aa_lrec_eq(&y->pre[c->lead], &y->post[c->lead], AA_WS_EXACT))
		c->lead++;
	while (c->lead + c->trail < most &&
	       aa_lrec_eq(&y->pre[y->npre - 1 - c->trail],
			  &y->post[y->npost - 1 - c->trail], AA_WS_EXACT))
		c->trail++;
	for (i = c->lead; i < y->npost - c->trail; i++)
		c->solid += !aa_line_is_blank(y->post[i].s, y->post[i].len);
}

/*
 * Every one of y's new-side lines [lo, hi) is in the file (the count
 * table, hunks_run.c): else its change stands nowhere, and no search
 * of the file is needed.
 */
static int lines_in_file(const hrun *r, const htry *y, size_t lo, size_t hi)
{
	size_t i;

	if (!r->count_key)
		return 1;
	for (i = lo; i < hi; i++)
		if (!aa_hk_count_of(r, y->post[i].h[AA_WS_EXACT]))
			return 0;
	return 1;
}

/* The first exact place of y's new-side lines [lo, hi) other than `not`. */
static long new_lines_elsewhere(hrun *r, const htry *y, size_t lo, size_t hi,
				size_t not, size_t *where)
{
	aa_lview v = aa_hk_run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->post + lo, hi - lo);
	size_t hits[3];
	long n = aa_locate_first(&v, &nd, AA_WS_EXACT, hits, 3), i;

	aa_needle_release(&nd);
	for (i = 0; i < n; i++)
		if (hits[i] != not && !aa_hk_written(r, hits[i], hi - lo)) {
			*where = hits[i];
			return 1;
		}
	return n < 0 ? -1 : 0;
}

/*
 * A change that already stands elsewhere: try y, about to land at `at`,
 * writes lines (one or more not blank), and its whole new side stands
 * exactly at another place; or its written lines (two or more not
 * blank) stand there right after its leading context or right before
 * its trailing context. Either is a change applied already, the first
 * as written, the second with the file changed around it since (a test
 * appended to a list that later grew): landing at `at` would write its
 * lines a second time, unless the answer meant the same change at a
 * second place. 1 with *where set, 0 not, -1 out of memory.
 */
static int stands_elsewhere(hrun *r, const htry *y, size_t at, size_t *where)
{
	change_span c;
	long n;

	if (r->cx->strict)
		return 0;
	change_span_of(y, &c);
	if (!c.solid || !lines_in_file(r, y, c.lead, y->npost - c.trail))
		return 0;
	n = new_lines_elsewhere(r, y, 0, y->npost, at, where);
	if (!n && c.solid >= 2 && c.lead)
		n = new_lines_elsewhere(r, y, 0, y->npost - c.trail, at, where);
	if (!n && c.solid >= 2 && c.trail)
		n = new_lines_elsewhere(r, y, c.lead, y->npost, at + c.lead, where);
	return n < 0 ? -1 : n > 0;
}

static int report_stands_elsewhere(hrun *r, const htry *y, size_t at,
				   size_t where)
{
	return aa_error(r->cx->diags, y->h->pos, r->cx->path,
			"hunk is ambiguous: its changed lines already stand at line %ld, with "
			"the same context lines, and its old lines are at line %ld; refusing to "
			"guess whether it is applied already or meant for a second place (no "
			"earlier version of the file decides it: give more context lines or "
			"the right line numbers)",
			aa_hk_orig_line(r, where) + 1, aa_hk_orig_line(r, at) + 1);
}

/*
 * Where the change stands elsewhere (stands_elsewhere()), the order of
 * the answer's hunks decides when it can: they follow the file, so with
 * the hunk before this one between the two places, the one after it is
 * meant. Already applied when only the change stands after it, landed
 * when only the old lines do; a hunk at its header's line lands. 1
 * applied, 0 land, -1 undecided.
 */
static int order_decides(const hrun *r, const htry *y, size_t at, size_t where)
{
	size_t prev = r->next_at;

	if (y->h->has_hint && at == aa_hk_hinted_line(r, y->h, 0))
		return 0;
	if (!prev)
		return -1;
	if (where >= prev && at < prev)
		return 1;
	if (at >= prev && where < prev)
		return 0;
	return -1;
}

/*
 * Lands y at `at`, unless its new side already stands over that place
 * (skipped) or its change stands elsewhere and the order of the hunks
 * does not say which is meant (refused).
 */
int aa_hk_land(hrun *r, const htry *y, size_t at, aa_how how, aa_ws lv)
{
	size_t start;
	int k = aa_hk_applied_at(r, y, at, lv, &start);

	if (k)
		return k < 0 ? aa_hk_oom(r, y->h->pos) : aa_hk_skip_applied(r, y, start, lv);
	k = stands_elsewhere(r, y, at, &start);
	if (k < 0)
		return aa_hk_oom(r, y->h->pos);
	if (k) {
		k = order_decides(r, y, at, start);
		if (k < 0)
			return report_stands_elsewhere(r, y, at, start);
		if (k)
			return aa_hk_skip_applied(r, y, start, AA_WS_EXACT);
	}
	return aa_hk_land_here(r, y, at, how, lv);
}
