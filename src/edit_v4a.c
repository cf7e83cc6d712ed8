/*
 * v4a chunks (Codex apply_patch) on decoded text: the "@@ context"
 * anchors are resolved here, against the file, and the chunks then go
 * through the hunk engine and its ladder like any hunk.
 *
 *   - A chunk's first anchor must occur exactly once after the previous
 *     chunk's last anchor (or in the whole file); each further anchor of
 *     the same chunk (class, then method) is the nearest occurrence after
 *     the one before it. Anchors match exactly, else with trailing, else
 *     with all surrounding white space ignored (as Codex matches them).
 *   - An anchored chunk is a hunk with a line hint just after its last
 *     anchor: the ladder takes the exact match there, else the one
 *     nearest to it, and refuses a tie.
 *   - "*** End of File": a hunk hinted at the end of the file.
 *   - A chunk that only adds lines goes at the end of the file, as Codex
 *     puts it.
 *   - Any other chunk is a bare hunk: located by content, unique.
 * Refusals name the chunk's input line and the path.
 */
#include <stdlib.h>
#include <string.h>

#include "aiapply/edit.h"
#include "aiapply/locate.h"

#define MAX_LISTED 5
#define QUOTE_MAX 80

typedef struct anchors {
	aa_lrec *recs;       /* the file's lines */
	size_t n;
	size_t floor;        /* the next chunk's anchors lie from here on */
	aa_edit_ctx *cx;
} anchors;

/*
 * Every occurrence of the line s[0..len) from line `from` on, at the
 * first white-space level that has one: stores up to `max` positions
 * in hits and returns their number (0: none), -1 on out-of-memory.
 */
static long find_line(anchors *a, size_t from, const char *s, size_t len,
		      size_t *hits, size_t max)
{
	aa_lrec want;
	aa_needle nd = AA_NEEDLE_INIT(&want, 1);
	aa_lview v;
	long k = 0, i;
	int lv;

	memset(&v, 0, sizeof(v));
	v.seg[0] = a->recs + from;
	v.nseg[0] = a->n - from;
	aa_lrec_set(&want, s, len, AA_EOL_LF);
	for (lv = AA_WS_EXACT; lv < AA_WS_LEVELS && !k; lv++)
		k = aa_locate_all(&v, &nd, (aa_ws)lv, hits, max);
	aa_needle_release(&nd);
	for (i = 0; i < k && (size_t)i < max; i++)
		hits[i] += from;
	return k;
}

static int anchor_missing(anchors *a, const aa_hunk *h, const char *s,
			  size_t len, size_t from)
{
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
			    size_t len, const size_t *hits, long k)
{
	aa_buf b = AA_BUF_INIT;
	long i;
	int r;

	for (i = 0; i < k && i < MAX_LISTED; i++)
		aa_buf_printf(&b, "%s%zu", i ? ", " : "", hits[i] + 1);
	if (k > MAX_LISTED)
		aa_buf_puts(&b, " and more");
	r = aa_error(a->cx->diags, h->pos, a->cx->path,
		     "v4a: the chunk's context line %s occurs %ld times "
		     "(lines %s); add a context line that tells them apart",
		     aa_qtext(s, len, QUOTE_MAX), k, b.ptr ? b.ptr : "");
	aa_buf_free(&b);
	return r;
}

/*
 * Resolves hunk h's anchors: 0 with *line = the 0-based line after the
 * last one, 1 when it has none, -1 on error (reported).
 */
static int resolve_anchors(anchors *a, const aa_hunk *h, size_t *line)
{
	const char *s = h->section, *nl;
	size_t from = a->floor, hits[MAX_LISTED + 1];
	int first = 1;
	long k;

	if (!s || !*s)
		return 1;
	for (; s; s = nl ? nl + 1 : NULL, first = 0) {
		size_t len;

		nl = strchr(s, '\n');
		len = nl ? (size_t)(nl - s) : strlen(s);
		k = find_line(a, from, s, len, hits, MAX_LISTED + 1);
		if (k < 0)
			return aa_error(a->cx->diags, h->pos, a->cx->path,
					"out of memory");
		if (!k)
			return anchor_missing(a, h, s, len, from);
		if (first && k > 1)
			return anchor_ambiguous(a, h, s, len, hits, k);
		from = hits[0] + 1;
	}
	*line = from;
	a->floor = from;
	return 0;
}

/*
 * The hunk engine pins a numbered hunk that ends with added lines and
 * no context after them to the end of the file (git apply's match_end).
 * An anchored chunk of that shape is no end-of-file chunk: it stays bare.
 */
static int ends_with_bare_adds(const aa_hunk *h)
{
	size_t k = h->nlines, lead = 0;

	while (lead < k && h->lines[lead].kind == ' ')
		lead++;
	if (!lead || lead == k || h->lines[k - 1].kind == ' ')
		return 0;
	/* the last run of changes only adds */
	while (k > lead && h->lines[k - 1].kind != ' ')
		if (h->lines[--k].kind == '-')
			return 0;
	return 1;
}

static void set_hint(aa_hunk *h, long old_start)
{
	h->has_hint = 1;
	h->old_start = old_start;
	h->new_start = old_start;
}

/* Gives hunk h (a copy) its hint, from its anchors and its shape. */
static int place_chunk(anchors *a, aa_hunk *h)
{
	size_t line = 0;
	int r = resolve_anchors(a, h, &line);

	h->has_hint = 0;
	if (r < 0)
		return -1;
	if (h->at_eof) {
		long at = (long)a->n - h->old_count + 1;

		set_hint(h, !h->old_count ? (long)a->n : at < 1 ? 1 : at);
	} else if (!h->old_count) {
		/* pure addition: at the end, whatever the file's length */
		set_hint(h, (long)a->n);
		h->at_eof = 1;
	} else if (!r && !ends_with_bare_adds(h)) {
		set_hint(h, (long)line + 1);
	}
	return 0;
}

static int build_recs(const aa_text *t, anchors *a)
{
	size_t i;

	a->n = t->n;
	a->recs = malloc((t->n ? t->n : 1) * sizeof(*a->recs));
	if (!a->recs)
		return -1;
	for (i = 0; i < t->n; i++)
		aa_lrec_set(&a->recs[i], t->lines[i].s, t->lines[i].len,
			    t->lines[i].eol);
	return 0;
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
