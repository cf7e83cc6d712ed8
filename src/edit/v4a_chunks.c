/*
 * v4a chunks (Codex apply_patch) on decoded text: the "@@ context"
 * anchors are resolved here, against the file, and the chunks then go
 * through the hunk engine and its ladder like any hunk.
 *
 *   - A chunk's first anchor must occur exactly once after the previous
 *     chunk's last anchor (or in the whole file), or be one of the
 *     previous chunk's own anchor lines (two edits in one function both
 *     name it, as git's hunk headers do); each further anchor of
 *     the same chunk (class, then method) must occur once inside the
 *     region the one before it opens. Anchors match exactly, else with
 *     trailing, else with all surrounding white space ignored (as Codex
 *     matches them).
 *   - An anchor names a region, not a line (aa_scope_end(): the block
 *     the anchor line opens, by indentation and brackets). An anchored
 *     chunk is a hunk sought by content inside the region of its last
 *     anchor (cut to the regions of the ones before): every rung of the
 *     ladder must find it there once, else it is refused with the places.
 *   - "*** End of File": a hunk hinted at the end of the file.
 *   - A chunk that only adds lines goes at the end of the file, as Codex
 *     puts it.
 *   - Any other chunk is a bare hunk: located by content, unique.
 * Refusals name the chunk's input line and the path.
 */
#include <stdlib.h>
#include <string.h>

#include "edit/edit.h"
#include "edit/locate.h"

#define MAX_LISTED 5
#define QUOTE_MAX 80
#define MAX_NESTED 8

typedef struct anchors {
	aa_lrec *recs;       /* the file's lines */
	size_t n;
	size_t floor;        /* the next chunk's anchors lie from here on */
	size_t last[MAX_NESTED]; /* the previous chunk's anchor lines */
	size_t nlast;
	aa_edit_ctx *cx;
} anchors;

/*
 * Every occurrence of the line s[0..len) in lines [from, to), at the
 * first white-space level that has one: stores up to `max` positions
 * in hits and returns their number (0: none), -1 on out-of-memory.
 */
static long find_line(anchors *a, size_t from, size_t to, const char *s,
		      size_t len, size_t *hits, size_t max)
{
	aa_lrec want;
	aa_needle nd = AA_NEEDLE_INIT(&want, 1);
	aa_lview v;
	long k = 0, i;
	int lv;

	memset(&v, 0, sizeof(v));
	v.seg[0] = a->recs + from;
	v.nseg[0] = to - from;
	aa_lrec_set(&want, s, len, AA_EOL_LF);
	for (lv = AA_WS_EXACT; lv < AA_WS_LEVELS && !k; lv++)
		k = aa_locate_all(&v, &nd, (aa_ws)lv, hits, max);
	aa_needle_release(&nd);
	for (i = 0; i < k && (size_t)i < max; i++)
		hits[i] += from;
	return k;
}

/* Where the anchor before this one was, and its region: for messages. */
typedef struct outer {
	const char *s;
	size_t len;
	size_t at, end;      /* its line and its region's end (0-based) */
} outer;

static int anchor_missing(anchors *a, const aa_hunk *h, const char *s,
			  size_t len, size_t from, const outer *o)
{
	if (o)
		return aa_error(a->cx->diags, h->pos, a->cx->path,
				"v4a: the chunk's context line %s is not inside the region "
				"that %s (line %zu) opens, lines %zu-%zu",
				aa_qtext(s, len, QUOTE_MAX), aa_qtext(o->s, o->len, QUOTE_MAX),
				o->at + 1, o->at + 1, o->end);
	if (!from)
		return aa_error(a->cx->diags, h->pos, a->cx->path,
				"v4a: the chunk's context line %s is not in the file",
				aa_qtext(s, len, QUOTE_MAX));
	return aa_error(a->cx->diags, h->pos, a->cx->path,
			"v4a: the chunk's context line %s is not in the file "
			"after line %zu (where the previous context was)",
			aa_qtext(s, len, QUOTE_MAX), from);
}

static int anchor_ambiguous(anchors *a, const aa_hunk *h, const char *s,
			    size_t len, const size_t *hits, long k,
			    const outer *o)
{
	aa_buf b = AA_BUF_INIT, where = AA_BUF_INIT;
	long i;
	int r;

	for (i = 0; i < k && i < MAX_LISTED; i++)
		aa_buf_printf(&b, "%s%zu", i ? ", " : "", hits[i] + 1);
	if (k > MAX_LISTED)
		aa_buf_puts(&b, " and more");
	if (o)
		aa_buf_printf(&where, " inside the region that %s (line %zu) opens",
			      aa_qtext(o->s, o->len, QUOTE_MAX), o->at + 1);
	r = aa_error(a->cx->diags, h->pos, a->cx->path,
		     "v4a: the chunk's context line %s occurs %ld times%s "
		     "(lines %s); add a context line that tells them apart",
		     aa_qtext(s, len, QUOTE_MAX), k, where.ptr ? where.ptr : "",
		     b.ptr ? b.ptr : "");
	aa_buf_free(&b);
	aa_buf_free(&where);
	return r;
}

/*
 * The previous chunk's anchor line that reads s[0..len), if any: a
 * chunk that names the function the chunk before it was in again is
 * in that function, not in a later one (which does not exist).
 */
static int repeated_anchor(anchors *a, const char *s, size_t len,
			   size_t *at)
{
	size_t i, hit;

	for (i = 0; i < a->nlast; i++)
		if (find_line(a, a->last[i], a->last[i] + 1, s, len, &hit, 1) == 1) {
			*at = a->last[i];
			return 1;
		}
	return 0;
}

/*
 * Resolves hunk h's anchors: 0 with *line = the 0-based line of the
 * last one and *end = the end of the region they open, 1 when it has
 * none, -1 on error (reported). The first anchor must occur once after
 * the previous chunk's anchors; each further one names a region inside
 * the one before (Codex's "@@ class A" then "@@ def f"): it must occur
 * once there, and the region is the part of its own inside that one.
 */
static int resolve_anchors(anchors *a, const aa_hunk *h, size_t *line,
			   size_t *end)
{
	const char *s = h->section, *nl;
	size_t from = a->floor, to = a->n, hits[MAX_LISTED + 1], at = 0;
	aa_lview v;
	outer o = { NULL, 0, 0, 0 }, *prev = NULL;
	size_t nlines = 0, lines[MAX_NESTED];
	long k;

	if (!s || !*s)
		return 1;
	memset(&v, 0, sizeof(v));
	v.seg[0] = a->recs;
	v.nseg[0] = a->n;
	for (; s; s = nl ? nl + 1 : NULL) {
		size_t len, e;

		nl = strchr(s, '\n');
		len = nl ? (size_t)(nl - s) : strlen(s);
		k = find_line(a, from, to, s, len, hits, MAX_LISTED + 1);
		if (k < 0)
			return aa_error(a->cx->diags, h->pos, a->cx->path,
					"out of memory");
		if (!k && !prev && repeated_anchor(a, s, len, &hits[0]))
			k = 1;
		if (!k)
			return anchor_missing(a, h, s, len, from, prev);
		if (k > 1)
			return anchor_ambiguous(a, h, s, len, hits, k, prev);
		at = hits[0];
		if (nlines < MAX_NESTED)
			lines[nlines++] = at;
		e = aa_scope_end(&v, at);
		to = e < to ? e : to;
		from = at + 1;
		o.s = s;
		o.len = len;
		o.at = at;
		o.end = to;
		prev = &o;
	}
	*line = at;
	*end = to;
	a->floor = from > a->floor ? from : a->floor;
	memcpy(a->last, lines, nlines * sizeof(*lines));
	a->nlast = nlines;
	return 0;
}

static void set_hint(aa_hunk *h, long old_start)
{
	h->has_hint = 1;
	h->old_start = old_start;
	h->new_start = old_start;
}

/*
 * Gives hunk h (a copy) its hint or its region, from its anchors and
 * its shape. An anchored chunk is sought by its lines, only inside the
 * region its anchors open (from the last anchor's line on): it must be
 * there once, else the hunk engine refuses it, listing the places.
 */
static int place_chunk(anchors *a, aa_hunk *h)
{
	size_t line = 0, end = 0;
	int r = resolve_anchors(a, h, &line, &end);

	h->has_hint = 0;
	h->has_scope = 0;
	if (r < 0)
		return -1;
	if (h->at_eof) {
		long at = (long)a->n - h->old_count + 1;

		set_hint(h, !h->old_count ? (long)a->n : at < 1 ? 1 : at);
	} else if (!h->old_count) {
		/* pure addition: at the end, whatever the file's length */
		set_hint(h, (long)a->n);
		h->at_eof = 1;
	} else if (!r) {
		h->has_scope = 1;
		h->scope_lo = line;
		h->scope_hi = end;
	}
	return 0;
}

static int build_recs(const aa_text *t, anchors *a)
{
	a->n = t->n;
	a->recs = aa_lrecs_of_text(t);
	return a->recs ? 0 : -1;
}

int aa_edit_v4a(aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	anchors a;
	aa_op hunks_op = *op;
	aa_hunk *hunks;
	size_t i;
	int ret = 0;

	memset(&a, 0, sizeof(a));
	a.cx = cx;
	hunks = malloc((op->nhunks ? op->nhunks : 1) * sizeof(*hunks));
	if (!hunks || build_recs(t, &a) < 0) {
		free(hunks);
		free(a.recs);
		return aa_error(cx->diags, op->pos, cx->path, "out of memory");
	}
	/* shallow copies: the lines stay the op's */
	if (op->nhunks)
		memcpy(hunks, op->hunks, op->nhunks * sizeof(*hunks));
	for (i = 0; i < op->nhunks; i++)
		if (place_chunk(&a, &hunks[i]) < 0)
			ret = -1;
	free(a.recs);
	if (!ret) {
		hunks_op.edit_kind = AA_EDIT_HUNKS;
		hunks_op.hunks = hunks;
		ret = aa_edit_hunks(t, &hunks_op, cx);
	}
	free(hunks);
	return ret;
}
