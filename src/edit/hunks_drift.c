/*
 * The hunk engine (src/edit/hunks.c): rung 5: blank-line drift.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/hunks_int.h"

/* ---- rung 5: blank-line drift ------------------------------------------------ */

/*
 * A hunk's side as rung 5 sees it: its lines [k0, k1) of kinds other
 * than `skip` ('+' for the old side, '-' for the new one). The side's
 * lines of kind `fixed` ('-' on the old side) are never dropped: a
 * removed blank line must be in the file. Only blank context lines
 * drift.
 */
typedef struct dside {
	const aa_hunk *h;
	size_t k0, k1;
	char skip, fixed;
} dside;

static int d_in(const dside *s, size_t k)
{
	return s->h->lines[k].kind != s->skip;
}

static int d_blank(const dside *s, size_t k)
{
	return aa_line_is_blank(s->h->lines[k].text, s->h->lines[k].len);
}

/* The side's next non-blank line from hunk line k on (k1: none). */
static size_t d_next(const dside *s, size_t k)
{
	while (k < s->k1 && !(d_in(s, k) && !d_blank(s, k)))
		k++;
	return k;
}

/* The side's blank lines among hunk lines [a, b): all, and the fixed ones. */
static void d_count(const dside *s, size_t a, size_t b, size_t *all, size_t *fixed)
{
	*all = *fixed = 0;
	for (; a < b; a++)
		if (d_in(s, a) && d_blank(s, a)) {
			(*all)++;
			*fixed += s->h->lines[a].kind == s->fixed;
		}
}

static int v_blank(const aa_lview *v, size_t i)
{
	return aa_line_is_blank(aa_lview_at(v, i)->s, aa_lview_at(v, i)->len);
}

/* The view's next non-blank line from i on (its length: none). */
static size_t v_next(const aa_lview *v, size_t i)
{
	while (i < aa_lview_len(v) && v_blank(v, i))
		i++;
	return i;
}

/* The view's blank lines that end right before line i. */
static size_t v_blanks_before(const aa_lview *v, size_t i)
{
	size_t k = 0;

	while (k < i && v_blank(v, i - 1 - k))
		k++;
	return k;
}

/*
 * A gap: hunk lines [a, b) between two of the side's non-blank lines
 * (or before the first, or after the last), holding r of the side's
 * blank lines where the file has s.
 */
typedef struct dgap {
	size_t a, b, r, s;
	int lead;                /* before the first line: drops the first ones */
} dgap;

/*
 * Appends the lines of gap g to out[*n..] with g->s of the side's blank
 * lines instead of g->r: blank context lines dropped (the last ones;
 * the first ones before the first line, where the file's blank lines
 * are the ones next to it), or blank context lines added after the
 * gap's own lines.
 */
static void d_emit_gap(const dside *s, const dgap *g, aa_hline *out, size_t *n)
{
	size_t drop = g->r > g->s ? g->r - g->s : 0, k, i, first = *n;
	static const aa_hline blank_context = { .kind = ' ', .text = "", .len = 0 };

	for (i = 0; i < g->b - g->a; i++) {
		k = g->lead ? g->a + i : g->b - 1 - i;
		if (drop && d_in(s, k) && d_blank(s, k) && s->h->lines[k].kind == ' ') {
			drop--;
			continue;
		}
		out[(*n)++] = s->h->lines[k];
	}
	/* walked backwards: put the gap's lines back in order */
	for (i = 0; !g->lead && first + i + 1 < *n - i; i++) {
		aa_hline t = out[first + i];

		out[first + i] = out[*n - 1 - i];
		out[*n - 1 - i] = t;
	}
	for (k = g->r; k < g->s; k++)
		out[(*n)++] = blank_context;
}

/* What rung 5 looks for, and the places it found. */
typedef struct dsearch {
	hrun *r;
	const htry *y;
	dside side;
	aa_lview v;              /* the window searched */
	size_t base;             /* its first line in the current text */
	size_t start[MAX_LISTED + 1], first[MAX_LISTED + 1];
	int anchored[MAX_LISTED + 1]; /* the place keeps the hunk's anchor */
	size_t found;
	int oom;
} dsearch;

/*
 * Fills gap g of a match and checks it: the file's blank lines there
 * (s) hold every fixed blank line of the side. `avail`: for an outer
 * gap, the blank lines the file has next to the match (SIZE_MAX for an
 * inner gap, whose s is set).
 */
static int d_gap(const dside *s, dgap *g, size_t avail)
{
	size_t fixed;

	d_count(s, g->a, g->b, &g->r, &fixed);
	if (avail != SIZE_MAX)
		g->s = g->r < avail ? g->r : avail;
	return g->s >= fixed;
}

/*
 * The match whose first non-blank side line is view line f0: 1 with
 * *start (its first view line) and its gaps (at most k1 - k0 + 1) set,
 * 0 when the file's blank lines do not allow it.
 */
static int d_match(const dsearch *d, size_t f0, size_t *start, dgap *gaps,
		   size_t *ngaps, size_t *end)
{
	const dside *s = &d->side;
	size_t k = d_next(s, s->k0), f = f0, g = 0, next, fn;

	gaps[g] = (dgap){ s->k0, k, 0, 0, 1 };
	if (!d_gap(s, &gaps[g], v_blanks_before(&d->v, f0)))
		return 0;
	*start = f0 - gaps[g++].s;
	while ((next = d_next(s, k + 1)) < s->k1) {
		fn = v_next(&d->v, f + 1);
		gaps[g] = (dgap){ k + 1, next, 0, fn - f - 1, 0 };
		if (!d_gap(s, &gaps[g++], SIZE_MAX))
			return 0;
		f = fn;
		k = next;
	}
	gaps[g] = (dgap){ k + 1, s->k1, 0, 0, 0 };
	if (!d_gap(s, &gaps[g], v_next(&d->v, f + 1) - f - 1))
		return 0;
	f += gaps[g++].s;
	*ngaps = g;
	if (end)
		*end = f + 1;
	return 1;
}

/*
 * An anchored hunk keeps its place: the start or the end of the text.
 * Checked on the one place the rung finds, never used to pick one of
 * several (a drift match at the edge is no better than one elsewhere).
 */
static int d_at_anchor(const dsearch *d, size_t start, size_t end)
{
	if (d->y->anchor == ANCHOR_START)
		return d->base + start == 0;
	if (d->y->anchor == ANCHOR_END)
		return d->base + end == aa_hk_run_len(d->r);
	return 1;
}

static dgap *d_gaps(const dside *s)
{
	return malloc((s->k1 - s->k0 + 2) * sizeof(dgap));
}

/* aa_hit_fn: keeps the places the blank lines allow, up to one too many. */
static int d_hit(size_t f0, void *arg)
{
	dsearch *d = arg;
	size_t start, ngaps, end = 0;
	dgap *gaps = d_gaps(&d->side);
	int ok;

	if (!gaps) {
		d->oom = 1;
		return 1;
	}
	ok = d_match(d, f0, &start, gaps, &ngaps, &end);
	free(gaps);
	/* inside the window: starting before its end */
	if (!ok || (d->r->win_hi != SIZE_MAX && start + d->base >= d->r->win_hi))
		return 0;
	d->start[d->found] = start + d->base;
	d->anchored[d->found] = d_at_anchor(d, start, end);
	d->first[d->found++] = f0;
	return d->found > MAX_LISTED;
}

/*
 * The try that fits the file at the match whose first non-blank line
 * is view line f0: the hunk's lines with blank context lines dropped or
 * added (into *h2, its lines in *lines, the caller's to free). Sets the
 * drift counts. -1: no memory.
 */
static int d_build(dsearch *d, size_t f0, aa_hunk *h2, aa_hline **lines,
		   htry *out)
{
	const dside *s = &d->side;
	size_t start, ngaps = 0, g, n = 0, extra = 0, missing = 0;
	dgap *gaps = d_gaps(s);

	*lines = NULL;
	if (!gaps || !d_match(d, f0, &start, gaps, &ngaps, NULL))
		goto fail;
	for (g = 0; g < ngaps; g++) {
		extra += gaps[g].s > gaps[g].r ? gaps[g].s - gaps[g].r : 0;
		missing += gaps[g].r > gaps[g].s ? gaps[g].r - gaps[g].s : 0;
	}
	*lines = malloc((s->k1 - s->k0 + extra + 1) * sizeof(**lines));
	if (!*lines)
		goto fail;
	for (g = 0; g < ngaps; g++) {
		d_emit_gap(s, &gaps[g], *lines, &n);
		/* the side's non-blank line after the gap */
		if (gaps[g].b < s->k1)
			(*lines)[n++] = s->h->lines[gaps[g].b];
	}
	*h2 = *s->h;
	h2->lines = *lines;
	h2->nlines = n;
	/* a cut try (its loose tail left out) does not end the hunk */
	if (s->k1 != s->h->nlines)
		h2->new_no_eol = h2->old_no_eol = 0;
	d->r->drift_missing = missing;
	d->r->drift_extra = extra;
	free(gaps);
	return aa_hk_try_build(out, h2, 0, n);
fail:
	free(gaps);
	return -1;
}

/* Lands try y at the one place rung 5 found (d->first[0], d->start[0]). */
static rung_result d_land(dsearch *d, aa_ws lv)
{
	aa_hunk h2;
	aa_hline *lines = NULL;
	htry fit;
	int ret;

	if (d_build(d, d->first[0], &h2, &lines, &fit) < 0) {
		free(lines);
		return aa_hk_oom(d->r, d->y->h->pos);
	}
	fit.anchor = d->y->anchor;
	ret = aa_hk_land(d->r, &fit, d->start[0], AA_HOW_BLANK_LINES, lv) < 0 ? -1 : 1;
	aa_hk_try_release(&fit);
	free(lines);
	return ret;
}

/*
 * Rung 5 on one side of try y: its old lines, or (new_side) its new
 * lines, found once means already applied. At the first blank level
 * with a place (exact, then trailing, then leading and trailing blanks
 * ignored). 1 landed or skipped, 0 no place, -1 error reported.
 */
static rung_result drift_side(hrun *r, const htry *y, int new_side)
{
	dsearch d;
	aa_needle nd = AA_NEEDLE_INIT(new_side ? y->post : y->pre,
				      new_side ? y->npost : y->npre);
	size_t from = r->run_floor > r->win_lo ? r->run_floor : r->win_lo;
	int lv;

	memset(&d, 0, sizeof(d));
	d.r = r;
	d.y = y;
	d.side = (dside){ y->h, y->k0, y->k1, new_side ? '-' : '+', new_side ? 0 : '-' };
	aa_hk_run_ws_ready(r);
	d.base = from > aa_hk_run_len(r) ? aa_hk_run_len(r) : from;
	d.v = aa_hk_view_range(r, d.base, SIZE_MAX);
	for (lv = AA_WS_EXACT; lv <= AA_WS_BOTH; lv++) {
		if (aa_locate_drift(&d.v, &nd, (aa_ws)lv, d_hit, &d) < 0 || d.oom)
			return aa_hk_oom(r, y->h->pos);
		if (d.found)
			break;
	}
	if (!d.found)
		return 0;
	if (d.found > 1)
		return aa_hk_report_ambiguous_as(r, y, " when blank lines may be missing or extra",
						 d.start, (long)d.found);
	if (!d.anchored[0])
		return 0;
	if (new_side)
		return aa_hk_record(r, y, d.start[0], AA_HOW_ALREADY_APPLIED, (aa_ws)lv,
				    AA_REINDENT_NONE, 0) < 0 ? -1 : 1;
	return d_land(&d, (aa_ws)lv);
}

/* The hunk adds a line that is not blank: its new side is evidence. */
static int adds_text(const aa_hunk *h)
{
	size_t k;

	for (k = 0; k < h->nlines; k++)
		if (h->lines[k].kind == '+' &&
		    !aa_line_is_blank(h->lines[k].text, h->lines[k].len))
			return 1;
	return 0;
}

static int same_hline(const aa_hline *a, const aa_hline *b)
{
	return a->len == b->len && !memcmp(a->text, b->text, a->len);
}

/*
 * Hunk lines [k0, k1) with each run of changes written as a diff tool
 * would: its removed lines, then its added ones, the lines both start
 * and end with taken as context (a SEARCH/REPLACE block removes every
 * line and adds them back). The same old and new sides, so the same
 * result; but a blank line the file has between two lines kept this
 * way stays between them. *out: the copy, its lines in *lines.
 */
static int drift_normalize(const aa_hunk *h, size_t k0, size_t k1,
			   aa_hunk *out, aa_hline **lines)
{
	size_t k = k0, n = 0, i;
	aa_hline *v = malloc((k1 - k0 + 1) * 2 * sizeof(*v)), *minus, *plus;

	*lines = v;
	if (!v)
		return -1;
	minus = v + (k1 - k0 + 1);
	while (k < k1) {
		size_t nm = 0, np = 0, pre = 0, suf = 0, run = k;

		if (h->lines[k].kind == ' ') {
			v[n++] = h->lines[k++];
			continue;
		}
		for (; k < k1 && h->lines[k].kind != ' '; k++)
			if (h->lines[k].kind == '-')
				minus[nm++] = h->lines[k];
		plus = minus + nm;
		for (i = run; i < k; i++)
			if (h->lines[i].kind == '+')
				plus[np++] = h->lines[i];
		while (pre < nm && pre < np && same_hline(&minus[pre], &plus[pre]))
			pre++;
		while (suf < nm - pre && suf < np - pre &&
		       same_hline(&minus[nm - 1 - suf], &plus[np - 1 - suf]))
			suf++;
		for (i = 0; i < pre; i++) {
			v[n] = minus[i];
			v[n++].kind = ' ';
		}
		for (i = pre; i < nm - suf; i++)
			v[n++] = minus[i];
		for (i = pre; i < np - suf; i++)
			v[n++] = plus[i];
		for (i = nm - suf; i < nm; i++) {
			v[n] = minus[i];
			v[n++].kind = ' ';
		}
	}
	*out = *h;
	out->lines = v;
	out->nlines = n;
	/* a cut try (its loose tail left out) does not end the hunk */
	if (k1 != h->nlines)
		out->new_no_eol = out->old_no_eol = 0;
	return 0;
}

/*
 * Rung 5: blank context lines may be missing from the file or extra in
 * it; unique or refused. As on the rungs before, a hunk whose new side
 * is there is already applied: checked first when it adds text (a hunk
 * applied once would match again), else after its old side.
 */
rung_result aa_hk_drift_rung(hrun *r, const htry *y)
{
	int text = adds_text(y->h);
	aa_hunk hn;
	aa_hline *lines;
	htry ny;
	rung_result rr = 0;

	if (drift_normalize(y->h, y->k0, y->k1, &hn, &lines) < 0 ||
	    aa_hk_try_build(&ny, &hn, 0, hn.nlines) < 0) {
		free(lines);
		return aa_hk_oom(r, y->h->pos);
	}
	ny.anchor = y->anchor;
	if (text)
		rr = drift_side(r, &ny, 1);
	if (!rr)
		rr = drift_side(r, &ny, 0);
	if (!rr && !text)
		rr = drift_side(r, &ny, 1);
	aa_hk_try_release(&ny);
	free(lines);
	return rr;
}
