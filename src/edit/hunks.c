/*
 * Unified-diff hunks on a decoded text: SPEC "Locating edits".
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
 *      other lines matching as in 1 or 3, uniquely (drift_rung()).
 *
 * A numbered hunk exact both at its header's line and at that line
 * moved by the earlier hunks' offset is refused (report_two_places()).
 * A v4a chunk's region (aa_hunk.has_scope) bounds every search: the
 * match must start inside it. --strict (seed 004) allows rung 1 only.
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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/applied.h"
#include "edit/edit.h"
#include "edit/locate.h"

/*
 * Candidate places listed in an ambiguity error. The search stops at
 * the one after them ("and more"): counting every match of a line that
 * fills the file would cost a pass for nothing.
 */
#define MAX_LISTED 5
/* Differing lines shown under a "not found" error. */
#define MAX_SHOWN 6
/* Bytes of a line quoted in a message. */
#define QUOTE_MAX 72

/*
 * A hunk applied so far: where (current line) and what it changed, kept
 * sorted by place with the running sum of the changes, so that a line's
 * number in the original file is a binary search away; hunks in file
 * order only ever append.
 */
typedef struct placed {
	size_t at;
	size_t old_n;            /* the lines it replaced */
	long delta;
	long sum;                /* delta of this and every earlier entry */
} placed;

struct hrun;

typedef struct hrun {
	aa_text *t;
	const aa_op *op;
	aa_edit_ctx *cx;
	aa_lrec *out;            /* the rebuilt part, at the array's start */
	size_t nout;
	aa_lrec *src;            /* the original at its end; src[cur..] not yet moved */
	size_t nsrc, cur;
	long delta;              /* lines added minus removed so far */
	long skipped_delta;      /* ... by the hunks found already applied */
	long last_offset;        /* the previous hunk's offset from its header */
	placed *placed;
	size_t nplaced, capplaced;
	int ws_ready;            /* every line's blank-tolerant hashes are set */
	/*
	 * With bare "@@" hunks: how many lines of the current text have
	 * each exact hash (see bare_exact()); NULL otherwise.
	 */
	uint32_t *count_key, *count_val;
	size_t count_cap;
	size_t next_at;          /* where the previous hunk's new lines end */
	/*
	 * Bare hunks with the same old lines, one after the other, go to
	 * the places of those lines in order (see identical_run()): the
	 * hunks of the run still to place, this one included, and where
	 * the previous one's new lines end (0 for the first).
	 */
	size_t run_left, run_floor;
	/*
	 * The lines the current hunk may be found in, [win_lo, win_hi):
	 * a v4a chunk's region (aa_hunk.has_scope), else the whole text
	 * (win_hi SIZE_MAX).
	 */
	size_t win_lo, win_hi;
	/* rung 5's landing: blank context lines dropped and added */
	size_t drift_missing, drift_extra;
} hrun;

/* One try at a place: hunk lines [k0, k1) with their old side `pre`. */
typedef struct htry {
	const aa_hunk *h;
	size_t k0, k1;
	aa_lrec *pre, *post;
	size_t npre, npost;
	size_t pre_before;       /* old-side lines of the hunk before k0 */
	int anchor;              /* an anchor_kind: where the try must lie */
} htry;

/*
 * Where a numbered hunk must lie (git apply's match_beginning and
 * match_end, as GNU patch): one that shows lines before its first
 * change but none after its last was cut at the end of the file it was
 * written for; one that starts at line 1 and shows lines after its
 * changes but none before, at its start. See place_anchored().
 */
enum anchor_kind { ANCHOR_NONE, ANCHOR_START, ANCHOR_END };

static void warn_bare_tail(struct hrun *r, const htry *y, size_t at);

/* How added lines are re-indented to follow the file. */
typedef struct ishift {
	enum {
		SHIFT_NONE, SHIFT_ADD, SHIFT_REMOVE,
		SHIFT_TO_TABS,       /* the hunk indents with n spaces a tab */
		SHIFT_TO_SPACES,     /* ... with tabs, the file with n spaces */
		SHIFT_MAP
	} kind;
	const char *s;           /* the prefix added or removed */
	size_t n;
	/* SHIFT_MAP: the hunk's indentation -> the file's, per line pair */
	const aa_lrec **from, **to;
	size_t npairs;
} ishift;

static int oom(hrun *r, aa_pos pos)
{
	return aa_oom(r->cx->diags, pos, r->cx->path);
}

static aa_lview run_view(const hrun *r)
{
	aa_lview v;

	v.seg[0] = r->out;
	v.nseg[0] = r->nout;
	v.seg[1] = r->src + r->cur;
	v.nseg[1] = r->nsrc - r->cur;
	return v;
}

static size_t run_len(const hrun *r)
{
	return r->nout + r->nsrc - r->cur;
}

/* ---- the line of the original file -------------------------------------- */

/* The line (0-based) of the original file that current line `at` was. */
/* Entries placed before current line `at` (sorted: a binary search). */
static size_t placed_before(const hrun *r, size_t at)
{
	size_t lo = 0, hi = r->nplaced;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->placed[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The line (0-based) of the original file that current line `at` was. */
static long orig_line(const hrun *r, size_t at)
{
	size_t k = placed_before(r, at);
	long line = (long)at - (k ? r->placed[k - 1].sum : 0);

	return line < 0 ? 0 : line;
}

static int remember_placed(hrun *r, size_t at, size_t old_n, long delta)
{
	size_t k = placed_before(r, at + 1), i;

	if (r->nplaced == r->capplaced) {
		size_t cap = r->capplaced ? 2 * r->capplaced : 16;
		placed *v = realloc(r->placed, cap * sizeof(*v));

		if (!v)
			return -1;
		r->placed = v;
		r->capplaced = cap;
	}
	/* the ones after it move with the lines it added or removed */
	memmove(r->placed + k + 1, r->placed + k,
		(r->nplaced - k) * sizeof(*r->placed));
	r->nplaced++;
	r->placed[k].at = at;
	r->placed[k].old_n = old_n;
	r->placed[k].delta = delta;
	for (i = k; i < r->nplaced; i++) {
		if (i > k) {
			long moved = (long)r->placed[i].at + delta;

			r->placed[i].at = moved < (long)at ? at : (size_t)moved;
		}
		r->placed[i].sum = (i ? r->placed[i - 1].sum : 0) + r->placed[i].delta;
	}
	r->delta += delta;
	return 0;
}

/*
 * The current line that line `line` (0-based) of the original file is
 * now: moved by the hunks placed wholly before it.
 */
static size_t cur_line(const hrun *r, size_t line)
{
	long shift = 0, at;
	size_t k;

	for (k = 0; k < r->nplaced; k++) {
		long o = (long)r->placed[k].at - shift;

		if (o + (long)r->placed[k].old_n > (long)line)
			break;
		shift = r->placed[k].sum;
	}
	at = (long)line + shift;
	return at < 0 ? 0 : (size_t)at;
}

/* ---- the rebuilt text ---------------------------------------------------- */

/*
 * Room for `extra` more lines in out, up to the first src line not yet
 * moved. The room left for every added line makes this hold; -1 would
 * be a bug, never an input's doing.
 */
static int out_reserve(hrun *r, size_t extra)
{
	return r->nout + extra <= (size_t)(r->src + r->cur - r->out) ? 0 : -1;
}

/* Moves original lines to the rebuilt part until it holds `upto` lines. */
static int out_pull(hrun *r, size_t upto)
{
	size_t k;

	if (upto <= r->nout)
		return 0;
	/* moving lines from src to out keeps the room between them */
	k = upto - r->nout;
	if (k > r->nsrc - r->cur)
		return -1;
	memmove(r->out + r->nout, r->src + r->cur, k * sizeof(aa_lrec));
	r->nout += k;
	r->cur += k;
	return 0;
}

/* Replaces current lines [at, at + del) with ins[0..nins). */
static int out_splice(hrun *r, size_t at, size_t del,
		      const aa_lrec *ins, size_t nins)
{
	if (out_pull(r, at + del) < 0 || (nins > del && out_reserve(r, nins - del) < 0))
		return -1;
	memmove(r->out + at + nins, r->out + at + del,
		(r->nout - at - del) * sizeof(aa_lrec));
	memcpy(r->out + at, ins, nins * sizeof(aa_lrec));
	r->nout = r->nout - del + nins;
	return 0;
}

/* Lines the op's hunks add: the rebuilt part never holds more than n + that. */
static size_t lines_added(const aa_op *op)
{
	size_t i, k, n = 0;

	for (i = 0; i < op->nhunks; i++)
		for (k = 0; k < op->hunks[i].nlines; k++)
			n += op->hunks[i].lines[k].kind == '+';
	return n;
}

/* ---- line counts, for bare hunks ----------------------------------------- */

/*
 * The slot of hash h in the count table. Keys are never removed (a count
 * drops to 0), so a probe stops at the key or at an empty slot.
 */
static size_t count_slot(const hrun *r, uint32_t h)
{
	/* the mixed hash scaled onto the table (no power-of-two size) */
	size_t i = (size_t)(((uint64_t)(uint32_t)(h * 2654435761u) *
			     r->count_cap) >> 32);

	while (r->count_val[i] != UINT32_MAX && r->count_key[i] != h)
		i = i + 1 == r->count_cap ? 0 : i + 1;
	return i;
}

static void count_add(hrun *r, uint32_t h, int delta)
{
	size_t i;

	if (!r->count_key)
		return;
	i = count_slot(r, h);
	if (r->count_val[i] == UINT32_MAX) {
		r->count_key[i] = h;
		r->count_val[i] = 0;
	}
	r->count_val[i] += (uint32_t)delta;
}

static uint32_t count_of(const hrun *r, uint32_t h)
{
	size_t i = count_slot(r, h);

	return r->count_val[i] == UINT32_MAX ? 0 : r->count_val[i];
}

/* Counts every line, when a hunk will need it: room for all added lines. */
static int counts_build(hrun *r)
{
	size_t cap, i, room = lines_added(r->op);

	for (i = 0; i < r->op->nhunks && r->op->hunks[i].has_hint; i++)
		;
	if (i == r->op->nhunks)
		return 0;
	/* at most two thirds full, whatever the lines */
	cap = (r->nsrc + room) / 2 * 3 + 64;
	r->count_key = malloc(cap * sizeof(uint32_t));
	r->count_val = malloc(cap * sizeof(uint32_t));
	if (!r->count_key || !r->count_val)
		return -1;
	memset(r->count_val, 0xff, cap * sizeof(uint32_t));
	r->count_cap = cap;
	for (i = 0; i < r->nsrc; i++)
		count_add(r, r->src[i].h[AA_WS_EXACT], 1);
	return 0;
}

_Static_assert(sizeof(aa_line) <= sizeof(aa_lrec),
	       "run_init() and run_finish() turn lines and records in place");

/*
 * The text's lines become the records, in the text's own array grown to
 * hold them and the room: from the last line back, record i lands at or
 * after line i's bytes, so it only covers lines already turned.
 */
static int run_init(hrun *r, aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	size_t room = lines_added(op), n = t->n, i;
	aa_lrec *v;

	memset(r, 0, sizeof(*r));
	r->t = t;
	r->op = op;
	r->cx = cx;
	if (n + room > SIZE_MAX / sizeof(aa_lrec) - 1)
		return -1;
	v = realloc(t->lines, (n + room + 1) * sizeof(aa_lrec));
	if (!v)
		return -1;
	/* the array is the run's now; run_finish() gives the text its lines */
	t->lines = NULL;
	t->n = t->cap = 0;
	r->out = v;
	r->src = v + room;
	for (i = n; i-- > 0;) {
		aa_line l = ((aa_line *)v)[i];

		aa_lrec_set_exact(&r->src[i], l.s, l.len, l.eol);
	}
	r->nsrc = n;
	return counts_build(r);
}

/* Before the first search with blanks ignored: hash every line for it. */
static void run_ws_ready(hrun *r)
{
	size_t i;

	if (r->ws_ready)
		return;
	for (i = 0; i < r->nout; i++)
		aa_lrec_ws(&r->out[i]);
	for (i = r->cur; i < r->nsrc; i++)
		aa_lrec_ws(&r->src[i]);
	r->ws_ready = 1;
}

/*
 * Hands the rebuilt lines back to the text, in the same array: an
 * aa_line is smaller than an aa_lrec, so line i, written after record i
 * was read, only covers records already read.
 */
static int run_finish(hrun *r)
{
	size_t n = run_len(r), i;
	aa_line *lines = (aa_line *)r->out, *v;

	if (out_pull(r, n) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		aa_lrec l = r->out[i];

		lines[i].s = l.s;
		lines[i].len = l.len;
		lines[i].eol = (aa_eol)l.eol;
	}
	v = realloc(lines, (n ? n : 1) * sizeof(*v));
	free(r->t->lines);
	r->t->lines = v ? v : lines;
	r->t->n = r->t->cap = n;
	r->out = r->src = NULL;
	r->nout = r->nsrc = r->cur = 0;
	return 0;
}

static void run_release(hrun *r)
{
	free(r->out);
	free(r->placed);
	free(r->count_key);
	free(r->count_val);
}

/* ---- hunk sides ------------------------------------------------------------ */

static void try_release(htry *y)
{
	free(y->pre);
	free(y->post);
	y->pre = y->post = NULL;
}

/* Builds the old and new sides of hunk lines [k0, k1). */
static int try_build(htry *y, const aa_hunk *h, size_t k0, size_t k1)
{
	size_t k, n = k1 - k0 ? k1 - k0 : 1;

	memset(y, 0, sizeof(*y));
	y->h = h;
	y->k0 = k0;
	y->k1 = k1;
	y->pre = malloc(n * sizeof(aa_lrec));
	y->post = malloc(n * sizeof(aa_lrec));
	if (!y->pre || !y->post) {
		try_release(y);
		return -1;
	}
	for (k = 0; k < k0; k++)
		if (h->lines[k].kind != '+')
			y->pre_before++;
	for (k = k0; k < k1; k++) {
		const aa_hline *l = &h->lines[k];

		if (l->kind != '+')
			aa_lrec_set(&y->pre[y->npre++], l->text, l->len, AA_EOL_LF);
		if (l->kind != '-')
			aa_lrec_set(&y->post[y->npost++], l->text, l->len, AA_EOL_LF);
	}
	return 0;
}

static int is_change(const aa_hunk *h, size_t k)
{
	return k < h->nlines && h->lines[k].kind != ' ';
}

/*
 * Rung 4's core: from the first to the last line that is a change or a
 * context line next to one. 0 when there is no smaller core.
 */
static int reduced_core(const aa_hunk *h, size_t to, size_t *k0, size_t *k1)
{
	size_t k, first = to, last = 0, old_lines = 0;

	for (k = 0; k < to; k++) {
		int keep = is_change(h, k) || (k && is_change(h, k - 1)) ||
			   (k + 1 < to && is_change(h, k + 1));

		if (keep) {
			if (first == to)
				first = k;
			last = k + 1;
		}
	}
	if (first == to || (first == 0 && last == to))
		return 0;
	for (k = first; k < last; k++)
		if (h->lines[k].kind != '+')
			old_lines++;
	if (!old_lines)
		return 0;
	*k0 = first;
	*k1 = last;
	return 1;
}

/* ---- indentation ------------------------------------------------------------ */

static size_t indent_len(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* Does the file's indentation `f` equal prefix + the hunk's `p`? */
static int split_prefix(const char *big, size_t nbig, const char *small,
			size_t nsmall, size_t *npre)
{
	if (nbig < nsmall || memcmp(big + nbig - nsmall, small, nsmall))
		return 0;
	*npre = nbig - nsmall;
	return 1;
}

/* Counts c at the start of s; the whole indentation must be c. */
static int only(const char *s, size_t n, char c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != c)
			return 0;
	return 1;
}

/*
 * Tabs for spaces: every pair's indentation is spaces on one side and
 * tabs on the other, the same number of spaces a tab throughout (the
 * assistant turned the file's tabs into spaces, or back).
 */
static int find_tab_width(ishift *sh, size_t np)
{
	size_t i, width = 0;
	int to_tabs = -1;

	for (i = 0; i < np; i++) {
		const aa_lrec *p = sh->from[i], *f = sh->to[i];
		size_t pi = indent_len(p->s, p->len), fi = indent_len(f->s, f->len);
		int dir;

		if (!pi && !fi)
			continue;
		if (!pi || !fi)
			return 0;
		if (only(p->s, pi, ' ') && only(f->s, fi, '\t'))
			dir = 1;
		else if (only(p->s, pi, '\t') && only(f->s, fi, ' '))
			dir = 0;
		else
			return 0;
		if ((dir ? pi % fi : fi % pi) || (to_tabs >= 0 && dir != to_tabs) ||
		    (width && width != (dir ? pi / fi : fi / pi)))
			return 0;
		to_tabs = dir;
		width = dir ? pi / fi : fi / pi;
	}
	if (!width)
		return 0;
	sh->kind = to_tabs ? SHIFT_TO_TABS : SHIFT_TO_SPACES;
	sh->n = width;
	return 1;
}

/*
 * A prefix that the file adds to every paired line's indentation
 * (`file_longer`), or that it drops from every one: 1 with sh set.
 */
static int find_prefix_shift(ishift *sh, size_t np, int file_longer)
{
	const char *ps = NULL;
	size_t pn = 0, i;

	for (i = 0; i < np; i++) {
		const aa_lrec *p = sh->from[i], *f = sh->to[i];
		const aa_lrec *big = file_longer ? f : p, *small = file_longer ? p : f;
		size_t bi = indent_len(big->s, big->len);
		size_t si = indent_len(small->s, small->len), k;

		if (!split_prefix(big->s, bi, small->s, si, &k) ||
		    (ps && (k != pn || memcmp(ps, big->s, k))))
			return 0;
		if (!ps) {
			ps = big->s;
			pn = k;
		}
	}
	if (!pn)
		return 0;
	sh->kind = file_longer ? SHIFT_ADD : SHIFT_REMOVE;
	sh->s = ps;
	sh->n = pn;
	return 1;
}

/* Each indentation of the hunk has one in the file: 1 with sh set. */
static int find_map(ishift *sh, size_t np)
{
	size_t i, j;

	for (i = 0; i < np; i++)
		for (j = 0; j < i; j++) {
			const aa_lrec *a = sh->from[i], *b = sh->from[j];
			size_t ai = indent_len(a->s, a->len), bi = indent_len(b->s, b->len);
			size_t ti = indent_len(sh->to[i]->s, sh->to[i]->len);
			size_t tj = indent_len(sh->to[j]->s, sh->to[j]->len);

			if (ai == bi && !memcmp(a->s, b->s, ai) &&
			    (ti != tj || memcmp(sh->to[i]->s, sh->to[j]->s, ti)))
				return 0;
		}
	sh->kind = SHIFT_MAP;
	sh->npairs = np;
	return 1;
}

/*
 * Finds a consistent indentation shift between the hunk's old lines
 * and the file lines they matched (blank lines aside): the file adds a
 * prefix to every one, or drops one, or has tabs for the hunk's spaces
 * (or back), or at least maps each of the hunk's indentations to one of
 * its own. No shift when the indentations agree or nothing is consistent.
 */
static int find_shift(const aa_lview *v, size_t at, const htry *y, ishift *sh)
{
	size_t j, np = 0;
	int same = 1;

	memset(sh, 0, sizeof(*sh));
	sh->from = malloc((y->npre ? y->npre : 1) * sizeof(*sh->from));
	sh->to = malloc((y->npre ? y->npre : 1) * sizeof(*sh->to));
	if (!sh->from || !sh->to)
		return -1;
	for (j = 0; j < y->npre; j++) {
		const aa_lrec *p = &y->pre[j], *f = aa_lview_at(v, at + j);
		size_t pi = indent_len(p->s, p->len), fi = indent_len(f->s, f->len);

		if (pi == p->len || fi == f->len)
			continue;
		sh->from[np] = p;
		sh->to[np++] = f;
		if (pi != fi || memcmp(p->s, f->s, pi))
			same = 0;
	}
	if (!same && np && !find_prefix_shift(sh, np, 1) &&
	    !find_prefix_shift(sh, np, 0) && !find_tab_width(sh, np))
		find_map(sh, np);
	return 0;
}

static void shift_release(ishift *sh)
{
	free(sh->from);
	free(sh->to);
}

/* An added line re-indented by the shift, into b. */
static int shift_line(const ishift *sh, const char *s, size_t len, aa_buf *b)
{
	size_t in = indent_len(s, len), best = 0, i;
	const aa_lrec *to = NULL;

	aa_buf_clear(b);
	if (in == len || sh->kind == SHIFT_NONE)
		return aa_buf_put(b, s, len);
	switch (sh->kind) {
	case SHIFT_ADD:
		return aa_buf_put(b, sh->s, sh->n) | aa_buf_put(b, s, len);
	case SHIFT_REMOVE:
		if (in >= sh->n && !memcmp(s, sh->s, sh->n))
			return aa_buf_put(b, s + sh->n, len - sh->n);
		return aa_buf_put(b, s, len);
	case SHIFT_TO_TABS:
		if (!only(s, in, ' '))
			return aa_buf_put(b, s, len);
		for (i = 0; i < in / sh->n; i++)
			aa_buf_putc(b, '\t');
		for (i = 0; i < in % sh->n; i++)
			aa_buf_putc(b, ' ');
		return aa_buf_put(b, s + in, len - in);
	case SHIFT_TO_SPACES:
		if (!only(s, in, '\t'))
			return aa_buf_put(b, s, len);
		for (i = 0; i < in * sh->n; i++)
			aa_buf_putc(b, ' ');
		return aa_buf_put(b, s + in, len - in);
	default:
		break;
	}
	/* the longest of the hunk's indentations that starts this one */
	for (i = 0; i < sh->npairs; i++) {
		const aa_lrec *f = sh->from[i];
		size_t fi = indent_len(f->s, f->len);

		if (fi <= in && fi >= best && !memcmp(f->s, s, fi)) {
			best = fi;
			to = sh->to[i];
		}
	}
	if (!to)
		return aa_buf_put(b, s, len);
	return aa_buf_put(b, to->s, indent_len(to->s, to->len)) |
	       aa_buf_put(b, s + best, len - best);
}

/* ---- applying ---------------------------------------------------------------- */

/*
 * The new lines for try y at current line `at`: the file's own context
 * lines, the added lines (re-indented, the file's dominant ending),
 * and the final newline settled.
 */
/*
 * Whether the hunk's last new-side line ends in a CR of its own: with
 * "\ No newline at end of file" after it, that CR is the file's last
 * byte (a CRLF file without a final LF), which the text model holds as
 * a CR terminator.
 */
static int last_new_ends_in_cr(const aa_hunk *h)
{
	size_t k = h->nlines;

	while (k > 0 && h->lines[k - 1].kind == '-')
		k--;
	return k > 0 && h->lines[k - 1].len &&
	       h->lines[k - 1].text[h->lines[k - 1].len - 1] == '\r';
}

static int build_new(hrun *r, const aa_lview *v, size_t at, const htry *y,
		     const ishift *sh, aa_lrec **res, size_t *nres)
{
	const aa_hunk *h = y->h;
	aa_eol dom = r->t->dominant == AA_EOL_NONE ? AA_EOL_LF : r->t->dominant;
	size_t k, fi = 0, n = 0, total = run_len(r);
	aa_lrec *nv = malloc((y->npost ? y->npost : 1) * sizeof(*nv));
	aa_buf b = AA_BUF_INIT;
	int at_end = at + y->npre == total;
	int last_none = total && aa_lview_at(v, total - 1)->eol == AA_EOL_NONE;
	aa_eol last_eol = total ? aa_lview_at(v, total - 1)->eol : AA_EOL_NONE;
	int last_newline = last_eol == AA_EOL_LF || last_eol == AA_EOL_CRLF;

	if (!nv)
		return -1;
	for (k = y->k0; k < y->k1; k++) {
		const aa_hline *l = &h->lines[k];
		const char *s;

		if (l->kind == ' ') {
			nv[n++] = *aa_lview_at(v, at + fi++);
		} else if (l->kind == '-') {
			count_add(r, aa_lview_at(v, at + fi++)->h[AA_WS_EXACT], -1);
		} else {
			if (shift_line(sh, l->text, l->len, &b) < 0 ||
			    !(s = aa_text_store(r->t, b.ptr ? b.ptr : "", b.len))) {
				aa_buf_free(&b);
				free(nv);
				return -1;
			}
			aa_lrec_set(&nv[n], s, b.len, dom);
			count_add(r, nv[n++].h[AA_WS_EXACT], 1);
		}
	}
	aa_buf_free(&b);
	for (k = 0; k + 1 < n; k++)
		if (nv[k].eol == AA_EOL_NONE)
			nv[k].eol = dom;
	if (n && !at_end && nv[n - 1].eol == AA_EOL_NONE)
		nv[n - 1].eol = dom;
	if (n && at_end) {
		/*
		 * The final newline: as the hunk says, else as the file had
		 * it. A hunk whose both sides end without one changes no
		 * newline: on a file that ends in a line feed, it is kept.
		 */
		if (h->new_no_eol && y->k1 == h->nlines && (!h->old_no_eol || !last_newline))
			nv[n - 1].eol = last_new_ends_in_cr(h) ? AA_EOL_CR : AA_EOL_NONE;
		else if (h->old_no_eol || !last_none)
			nv[n - 1].eol = nv[n - 1].eol == AA_EOL_NONE ? dom : nv[n - 1].eol;
		else
			nv[n - 1].eol = AA_EOL_NONE;
	}
	*res = nv;
	*nres = n;
	return 0;
}

/* Lands try y at current line `at` (re-indenting by sh). */
static int apply_at(hrun *r, size_t at, const htry *y, const ishift *sh)
{
	aa_lview v = run_view(r);
	aa_lrec *nv;
	size_t n, total = run_len(r);
	int r2;

	if (build_new(r, &v, at, y, sh, &nv, &n) < 0)
		return -1;
	/* lines appended after a last line that had no newline: give it one */
	if (n && at == total && at > 0 && !y->npre &&
	    aa_lview_at(&v, at - 1)->eol == AA_EOL_NONE) {
		if (out_pull(r, at) < 0) {
			free(nv);
			return -1;
		}
		r->out[at - 1].eol = r->t->dominant == AA_EOL_NONE ? AA_EOL_LF
								  : r->t->dominant;
	}
	r2 = out_splice(r, at, y->npre, nv, n);
	free(nv);
	if (r2 < 0)
		return -1;
	return remember_placed(r, at, y->npre, (long)n - (long)y->npre);
}

/* ---- messages ---------------------------------------------------------------- */

static void put_quoted(aa_buf *b, const char *s, size_t len)
{
	aa_buf_put_quoted(b, s, len, QUOTE_MAX);
}

/*
 * "lines 12, 40 and 77" (original line numbers, 1-based); with `more`,
 * "lines 1, 2, 3, 4, 5 and more".
 */
static void put_places(aa_buf *b, const hrun *r, const size_t *at, size_t n,
		       int more)
{
	size_t i;

	aa_buf_puts(b, n > 1 ? "lines " : "line ");
	for (i = 0; i < n; i++) {
		if (i)
			aa_buf_puts(b, i + 1 == n && !more ? " and " : ", ");
		aa_buf_printf(b, "%ld", orig_line(r, at[i]) + 1);
	}
	if (more)
		aa_buf_puts(b, " and more");
}

/*
 * " inside the region that \"class Writer:\" (line 3) opens, lines 3-40":
 * a v4a chunk's region, named by its last anchor (the last line of
 * the hunk's section).
 */
static void put_scope(aa_buf *b, const aa_hunk *h)
{
	const char *s = h->section ? h->section : "", *nl;

	if (!h->has_scope)
		return;
	while ((nl = strchr(s, '\n')) && nl[1])
		s = nl + 1;
	aa_buf_puts(b, " inside the region that ");
	put_quoted(b, s, nl ? (size_t)(nl - s) : strlen(s));
	aa_buf_printf(b, " (line %zu) opens, lines %zu-%zu", h->scope_lo + 1,
		      h->scope_lo + 1, h->scope_hi);
}

/*
 * hits: the first `count` places, at most MAX_LISTED + 1 of them; `as`
 * says how they match (" when whitespace is ignored", or "").
 */
static int report_ambiguous_as(hrun *r, const htry *y, const char *as,
			       const size_t *hits, long count)
{
	aa_buf b = AA_BUF_INIT;
	int more = count > MAX_LISTED;
	int ret;

	if (more)
		aa_buf_printf(&b, "hunk is ambiguous: it matches more than %d places%s, at ",
			      MAX_LISTED, as);
	else
		aa_buf_printf(&b, "hunk is ambiguous: it matches %ld places%s, at ", count, as);
	put_places(&b, r, hits, more ? MAX_LISTED : (size_t)count, more);
	put_scope(&b, y->h);
	if (r->run_left > 1)
		aa_buf_printf(&b, " (for the %zu hunks in a row with these lines, this one included: "
			      "not one place each)", r->run_left);
	aa_buf_puts(&b, "; refusing to guess (give more context or the right line numbers)");
	ret = aa_error_buf(r->cx->diags, y->h->pos, r->cx->path, &b);
	aa_buf_free(&b);
	return ret;
}

static int report_ambiguous(hrun *r, const htry *y, aa_ws lv, const size_t *hits,
			    long count)
{
	return report_ambiguous_as(r, y, lv == AA_WS_EXACT ? "" : " when whitespace is ignored",
				   hits, count);
}

/* How file line f and hunk line p differ, as one line of details. */
static void describe_line(aa_buf *b, const aa_lrec *f, const aa_lrec *p, long line)
{
	if (aa_lrec_eq(f, p, AA_WS_BOTH)) {
		aa_buf_printf(b, "\n  line %ld differs only in whitespace: file has ", line);
		put_quoted(b, f->s, f->len);
		aa_buf_puts(b, ", hunk has ");
		put_quoted(b, p->s, p->len);
		return;
	}
	aa_buf_printf(b, "\n  line %ld differs: file has ", line);
	put_quoted(b, f->s, f->len);
	aa_buf_puts(b, ", hunk has ");
	put_quoted(b, p->s, p->len);
}

/* Hunks up to this many old lines get the aligned view of a miss. */
#define MAX_ALIGN 400
/* Lines of the file looked at beyond the closest place, each side. */
#define ALIGN_PAD 3
/* Lines the aligned view prints at most. */
#define MAX_ALIGN_SHOWN 24

/* One line of the aligned view: ' ' both, '-' the file only, '+' the hunk only. */
typedef struct aline {
	char op;
	size_t f, p;             /* current file line, hunk old-side line */
} aline;

/*
 * The longest common subsequence of the hunk's old side and file lines
 * [lo, hi), as a list of aligned lines from the first to the last line
 * of the hunk (file lines outside that span left out). NULL on
 * out-of-memory.
 */
static aline *align(const aa_lview *v, const htry *y, size_t lo, size_t hi,
		    long at, size_t *nout)
{
	size_t m = y->npre, n = hi - lo, i, j, k = 0, w = n + 1;
	uint32_t *t = calloc((m + 1) * w, sizeof(*t));
	aline *res = malloc((m + n + 1) * sizeof(*res));

	if (!t || !res) {
		free(t);
		free(res);
		return NULL;
	}
	for (i = m; i-- > 0;)
		for (j = n; j-- > 0;)
			t[i * w + j] = aa_lrec_eq(aa_lview_at(v, lo + j), &y->pre[i], AA_WS_EXACT)
				? t[(i + 1) * w + j + 1] + 1
				: t[(i + 1) * w + j] > t[i * w + j + 1] ? t[(i + 1) * w + j]
									  : t[i * w + j + 1];
	for (i = j = 0; i < m || j < n;) {
		if (i < m && j < n && aa_lrec_eq(aa_lview_at(v, lo + j), &y->pre[i], AA_WS_EXACT)) {
			res[k++] = (aline){ ' ', lo + j++, i++ };
		} else if (j < n && (i == m || t[i * w + j + 1] >= t[(i + 1) * w + j])) {
			/*
			 * File lines shown: those of the closest place, and
			 * those between two lines the hunk has.
			 */
			if (((long)(lo + j) >= at && (long)(lo + j) < at + (long)m) ||
			    (i > 0 && t[i * w + j]))
				res[k++] = (aline){ '-', lo + j, i };
			j++;
		} else {
			res[k++] = (aline){ '+', lo + j, i++ };
		}
	}
	free(t);
	*nout = k;
	return res;
}

/* Is aligned line i next to one that is not common? */
static int near_change(const aline *a, size_t n, size_t i)
{
	return a[i].op != ' ' || (i && a[i - 1].op != ' ') ||
	       (i + 1 < n && a[i + 1].op != ' ');
}

/*
 * The closest region against the hunk, line by line: "  N   text" for a
 * line both have, "  N - text" for a file line the hunk lacks, "    +
 * text" for a hunk line the file lacks (N: the file's line); runs of
 * common lines away from a difference are shown as "...".
 */
static int aligned_diff(hrun *r, const aa_lview *v, const htry *y, long at, aa_buf *b)
{
	size_t total = run_len(r), lo, hi, n, i, shown = 0;
	long l0 = at - ALIGN_PAD, l1 = at + (long)y->npre + ALIGN_PAD;
	int gap = 0;
	aline *a;

	lo = l0 < 0 ? 0 : (size_t)l0;
	hi = l1 < 0 ? 0 : (size_t)l1 > total ? total : (size_t)l1;
	if (hi < lo)
		hi = lo;
	if (!(a = align(v, y, lo, hi, at, &n)))
		return -1;
	aa_buf_puts(b, "\n  the file there against the hunk (\"-\": only in the file, \"+\": only in the hunk):");
	for (i = 0; i < n && shown < MAX_ALIGN_SHOWN; i++) {
		const aa_lrec *l = a[i].op == '+' ? &y->pre[a[i].p] : aa_lview_at(v, a[i].f);

		if (!near_change(a, n, i)) {
			if (!gap)
				aa_buf_puts(b, "\n  ...");
			gap = 1;
			continue;
		}
		gap = 0;
		if (a[i].op == '+')
			aa_buf_puts(b, "\n          + ");
		else
			aa_buf_printf(b, "\n  %7ld %c ", orig_line(r, a[i].f) + 1, a[i].op);
		put_quoted(b, l->s, l->len);
		if (a[i].op == '+' && i && a[i - 1].op == '-' &&
		    aa_lrec_eq(aa_lview_at(v, a[i - 1].f), l, AA_WS_BOTH))
			aa_buf_puts(b, " (differs only in whitespace)");
		shown++;
	}
	if (i < n)
		aa_buf_puts(b, "\n  ...");
	free(a);
	return 0;
}

/* The closest region of the file and how it differs from the hunk. */
static int describe_closest(hrun *r, const htry *y, size_t hint, aa_buf *b)
{
	aa_lview v;
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	size_t total = run_len(r), j, shown = 0;
	long at, same, good = 0;

	run_ws_ready(r);
	v = run_view(r);
	same = aa_locate_closest(&v, &nd, hint, &at);
	if (same < 0)
		return -1;
	if (!same) {
		aa_buf_puts(b, "\n  not one of its lines is anywhere in the file");
		return 0;
	}
	for (j = 0; j < y->npre; j++) {
		long i = at + (long)j;

		if (i >= 0 && (size_t)i < total &&
		    aa_lrec_eq(aa_lview_at(&v, (size_t)i), &y->pre[j], AA_WS_EXACT))
			good++;
	}
	{
		long first = at < 0 ? 0 : at;
		long last = at + (long)y->npre - 1;

		if ((size_t)last >= total)
			last = (long)total - 1;
		aa_buf_printf(b, "\n  closest: lines %ld-%ld, where %ld of the hunk's %zu lines match",
			      orig_line(r, (size_t)first) + 1,
			      orig_line(r, (size_t)last) + 1, good, y->npre);
	}
	if (y->npre <= MAX_ALIGN)
		return aligned_diff(r, &v, y, at, b);
	for (j = 0; j < y->npre && shown < MAX_SHOWN; j++) {
		long i = at + (long)j;
		const aa_lrec *f;

		if (i < 0 || (size_t)i >= total) {
			aa_buf_puts(b, "\n  hunk line ");
			put_quoted(b, y->pre[j].s, y->pre[j].len);
			aa_buf_puts(b, i < 0 ? " would be before the start of the file"
					     : " would be past the end of the file");
			shown++;
			continue;
		}
		f = aa_lview_at(&v, (size_t)i);
		if (aa_lrec_eq(f, &y->pre[j], AA_WS_EXACT))
			continue;
		describe_line(b, f, &y->pre[j], orig_line(r, (size_t)i) + 1);
		shown++;
	}
	return 0;
}

/* "; its lines are at line 12, outside it": a chunk found off its region. */
static int elsewhere(hrun *r, const htry *y, aa_buf *b)
{
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	aa_lview v;
	size_t hits[MAX_LISTED + 1];
	long n;

	run_ws_ready(r);
	v = run_view(r);
	n = aa_locate_first(&v, &nd, AA_WS_EXACT, hits, MAX_LISTED + 1);
	if (n == 0)
		n = aa_locate_first(&v, &nd, AA_WS_BOTH, hits, MAX_LISTED + 1);
	aa_needle_release(&nd);
	if (n < 0)
		return -1;
	if (n == 0)
		return 0;
	aa_buf_puts(b, "; its lines are at ");
	put_places(b, r, hits, n > MAX_LISTED ? MAX_LISTED : (size_t)n, n > MAX_LISTED);
	aa_buf_puts(b, ", outside it");
	return 0;
}

static int report_not_found(hrun *r, const htry *y, size_t hint)
{
	aa_buf b = AA_BUF_INIT;
	int ret;

	if (r->cx->strict)
		aa_buf_printf(&b, "Context lines don't match: the hunk's lines are not at line %ld of the file",
			      y->h->old_start);
	else if (y->h->has_scope)
		aa_buf_puts(&b, "hunk does not apply: no place has its context and removed lines");
	else
		aa_buf_puts(&b, "hunk does not apply: no place in the file has its context and removed lines");
	put_scope(&b, y->h);
	if (y->h->has_scope && elsewhere(r, y, &b) < 0) {
		aa_buf_free(&b);
		return oom(r, y->h->pos);
	}
	if (describe_closest(r, y, hint, &b) < 0) {
		aa_buf_free(&b);
		return oom(r, y->h->pos);
	}
	ret = aa_error_buf(r->cx->diags, y->h->pos, r->cx->path, &b);
	aa_buf_free(&b);
	return ret;
}

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
		if (shift_line(sh, l->text, l->len, &b) < 0) {
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
static int record(hrun *r, const htry *y, size_t at, aa_how how, aa_ws lv,
		  aa_reindent ri, long by)
{
	const aa_hunk *h = y->h;
	long line = orig_line(r, at) + 1;
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
		return oom(r, h->pos);
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
	if (how == AA_HOW_ALREADY_APPLIED)
		r->skipped_delta += (long)y->npost - (long)y->npre;
	aa_buf_free(&note);
	ret = aa_edit_landing_add(r->cx, h->pos, line, offset, how);
	if (!ret) {
		r->cx->landings[r->cx->nlandings - 1].reindent = ri;
		r->cx->landings[r->cx->nlandings - 1].reindent_by = by;
	}
	return ret;
}

/*
 * SPEC "Already applied" for a hunk whose new side holds its old side
 * (src/edit/applied.h): with its old side located at `at`, its
 * new side already covering that place. 1 with *start where the new
 * side stands, 0 not, -1 out of memory. Only a hunk with more new
 * lines than old: one with as many can only be covered by a new side
 * equal to its old side at level lv, a hunk that changes only what lv
 * ignores (blanks) or the final newline, which the file cannot show to
 * be done. (With lines added, a final newline the file still lacks is
 * left so: applying again would add the lines twice.) Not under
 * --strict (seed 004 has no such rule).
 */
static int applied_at(hrun *r, const htry *y, size_t at, aa_ws lv, size_t *start)
{
	aa_lview v = run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->post, y->npost);
	long n;

	if (r->cx->strict || y->npost <= y->npre)
		return 0;
	n = aa_applied_covering(&v, at, y->npre, &nd, lv, start, 1);
	aa_needle_release(&nd);
	return n < 0 ? -1 : n > 0;
}

/* Records y as already applied, its new side standing at `start`. */
static int skip_applied(hrun *r, const htry *y, size_t start, aa_ws lv)
{
	int ret = record(r, y, start, AA_HOW_ALREADY_APPLIED, lv, AA_REINDENT_NONE, 0);

	r->next_at = start + y->npost;
	return ret;
}

/* Lands y at `at`, finding the indentation shift for a blank-tolerant rung. */
static int land_here(hrun *r, const htry *y, size_t at, aa_how how, aa_ws lv)
{
	aa_lview v = run_view(r);
	ishift sh;
	aa_reindent ri = AA_REINDENT_NONE;
	long by = 0;
	int ret;

	memset(&sh, 0, sizeof(sh));
	warn_bare_tail(r, y, at);
	if (lv != AA_WS_EXACT && (find_shift(&v, at, y, &sh) < 0 ||
				  added_reindent(&sh, y, &ri, &by) < 0)) {
		shift_release(&sh);
		return oom(r, y->h->pos);
	}
	/* record before applying: line numbers are those of the file before */
	ret = record(r, y, at, how, lv, ri, by);
	if (!ret && apply_at(r, at, y, &sh) < 0)
		ret = oom(r, y->h->pos);
	r->next_at = at + y->npost;
	shift_release(&sh);
	return ret;
}

/* Lands y at `at`, unless its new side already stands over that place. */
static int land(hrun *r, const htry *y, size_t at, aa_how how, aa_ws lv)
{
	size_t start;
	int k = applied_at(r, y, at, lv, &start);

	if (k)
		return k < 0 ? oom(r, y->h->pos) : skip_applied(r, y, start, lv);
	return land_here(r, y, at, how, lv);
}

/* ---- anchoring ------------------------------------------------------------------ */

/*
 * Context lines before the first change and after the last in [0, k1),
 * and whether the changes next to each edge only add lines.
 */
typedef struct edges {
	size_t lead, trail;
	int adds_first, adds_last;
} edges;

static int only_adds(const aa_hunk *h, size_t from, size_t to, int step)
{
	size_t k;

	for (k = from; k != to && h->lines[k].kind != ' '; k += (size_t)step)
		if (h->lines[k].kind == '-')
			return 0;
	return 1;
}

static void hunk_edges(const aa_hunk *h, size_t k1, edges *e)
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
 * (hunk_anchor()).
 */
static int edge_of(const aa_hunk *h, size_t k1, int wide)
{
	edges e;

	if (!h->has_hint || !k1)
		return ANCHOR_NONE;
	hunk_edges(h, k1, &e);
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
static int hunk_anchor(const aa_hunk *h, size_t k1)
{
	return edge_of(h, k1, 0);
}

/*
 * git apply's own anchors (match_beginning, match_end), wider than
 * hunk_anchor(): a numbered hunk with no context after its changes ends
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
static int hunk_edge(const aa_hunk *h, size_t k1)
{
	return edge_of(h, k1, 1);
}

/*
 * A bare hunk says nothing of the end of the file: it lands where its
 * lines are, but one that appends after the last line it shows, away
 * from the end, gets a warning (files grow at their end, so that is
 * where an answer written before upstream appended goes wrong).
 */
static void warn_bare_tail(hrun *r, const htry *y, size_t at)
{
	const aa_hunk *h = y->h;
	size_t total = run_len(r);
	edges e;

	if (h->has_hint || y->k1 != h->nlines || !y->npre || at + y->npre >= total)
		return;
	hunk_edges(h, h->nlines, &e);
	if (!e.lead || e.trail || !e.adds_last)
		return;
	aa_warn(r->cx->diags, h->pos, r->cx->path,
		"hunk has no context lines after its added lines; they go after line %ld, "
		"which is not the end of the file (%zu more lines follow): check that they belong there",
		orig_line(r, at + y->npre - 1) + 1, total - at - y->npre);
}

/* ---- the ladder ---------------------------------------------------------------- */

/* Result of one rung: 1 landed, 0 try the next, -1 error reported. */
typedef int rung_result;

/*
 * The old side at several places, hits[0..count): a refusal, unless the
 * hunk is already applied at one of them (aa_applied_among(): its new
 * side covers every place, or stands at one place only). `complete`:
 * hits holds every place the rung considered, not the first few.
 */
static rung_result ambiguous(hrun *r, const htry *y, aa_ws lv,
			     const size_t *hits, long count, int complete)
{
	aa_lview v = run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->post, y->npost);
	size_t start;
	int k = 0;

	if (complete && !r->cx->strict && y->npost > y->npre)
		k = aa_applied_among(&v, hits, (size_t)count, y->npre, &nd, lv, &start);
	aa_needle_release(&nd);
	if (k < 0)
		return oom(r, y->h->pos);
	if (!k)
		return report_ambiguous(r, y, lv, hits, count);
	aa_note(r->cx->diags, y->h->pos, r->cx->path,
		"the hunk's old lines match %ld places, and its result already stands "
		"at line %ld: taken as applied there, not as ambiguous",
		count, orig_line(r, start) + 1);
	return skip_applied(r, y, start, lv) < 0 ? -1 : 1;
}

/* The current text from line `from` on. */
static aa_lview view_from(const hrun *r, size_t from)
{
	aa_lview v = run_view(r);

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
static aa_lview view_range(const hrun *r, size_t lo, size_t hi)
{
	size_t total = run_len(r), keep;
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
static aa_lview window_view(const hrun *r, size_t from, size_t n)
{
	size_t hi = r->win_hi;

	if (from < r->win_lo)
		from = r->win_lo;
	if (hi != SIZE_MAX)
		hi += n ? n - 1 : 0;
	return view_range(r, from, hi < r->win_hi ? SIZE_MAX : hi);
}

static void note_in_order(hrun *r, const htry *y, size_t at, long count)
{
	aa_note(r->cx->diags, y->h->pos, r->cx->path,
		       "this hunk and the %ld after it have the same lines, which are at %ld places: "
		       "taken in order, this one at line %ld",
		       count - 1, count, orig_line(r, at) + 1);
}

/*
 * A unique match of the old side at level lv, or an ambiguity. In a
 * run of k identical bare hunks, a hunk looks after the previous one's
 * place only, and k places for k hunks are unique in order: the first
 * is this one's.
 */
static rung_result unique_rung(hrun *r, const htry *y, aa_ws lv, aa_how how)
{
	aa_lview v;
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	size_t buf[MAX_LISTED + 1], *hits = buf, from = r->run_floor;
	size_t need = r->run_left > 1 ? r->run_left : 1, max = MAX_LISTED + 1, i;
	long count;

	if (lv != AA_WS_EXACT)
		run_ws_ready(r);
	if (from < r->win_lo)
		from = r->win_lo;
	if (from > run_len(r))
		from = run_len(r);
	v = window_view(r, from, y->npre);
	/* uniqueness, or the places to list: the search stops after them */
	if (need + 1 > max) {
		max = need + 1;
		if (!(hits = malloc(max * sizeof(*hits))))
			return oom(r, y->h->pos);
	}
	count = aa_locate_first(&v, &nd, lv, hits, max);
	aa_needle_release(&nd);
	for (i = 0; count > 0 && i < (size_t)count; i++)
		hits[i] += from;
	if (count < 0)
		count = oom(r, y->h->pos);
	else if (count > 1 && (size_t)count == need) {
		note_in_order(r, y, hits[0], count);
		count = land(r, y, hits[0], how, lv) < 0 ? -1 : 1;
	}
	else if (count > 1)
		count = ambiguous(r, y, lv, hits, count, (size_t)count < max);
	else if (count == 1)
		count = land(r, y, hits[0], how, lv) < 0 ? -1 : 1;
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
static rung_result bare_exact(hrun *r, const htry *y)
{
	aa_lview v = run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	uint32_t fewest = UINT32_MAX;
	size_t j, at[2];
	int found;

	if (!r->count_key || r->win_lo || r->win_hi != SIZE_MAX)
		return unique_rung(r, y, AA_WS_EXACT, AA_HOW_CONTENT);
	for (j = 0; j < y->npre && fewest > 1; j++) {
		uint32_t c = count_of(r, y->pre[j].h[AA_WS_EXACT]);

		fewest = c < fewest ? c : fewest;
	}
	if (fewest == 0)
		return 0;
	if (fewest > 1)
		return unique_rung(r, y, AA_WS_EXACT, AA_HOW_CONTENT);
	found = aa_locate_nearest(&v, &nd, AA_WS_EXACT, r->next_at, at);
	aa_needle_release(&nd);
	if (found < 0)
		return oom(r, y->h->pos);
	if (!found)
		return 0;
	return land(r, y, at[0], AA_HOW_CONTENT, AA_WS_EXACT) < 0 ? -1 : 1;
}

/* The new side already in the file exactly once: nothing to do. */
static rung_result already_applied(hrun *r, const htry *y, aa_ws lv)
{
	aa_lview v;
	aa_needle nd = AA_NEEDLE_INIT(y->post, y->npost);
	size_t hits[2];
	long count;

	if (!y->npost)
		return 0;
	if (lv != AA_WS_EXACT)
		run_ws_ready(r);
	v = window_view(r, r->win_lo, y->npost);
	/* "exactly once": the search stops at the second */
	count = aa_locate_first(&v, &nd, lv, hits, 2);
	aa_needle_release(&nd);
	if (count < 0)
		return oom(r, y->h->pos);
	if (count != 1)
		return 0;
	return record(r, y, hits[0] + r->win_lo, AA_HOW_ALREADY_APPLIED, lv,
		      AA_REINDENT_NONE, 0) < 0 ? -1 : 1;
}

/* Where the header says the hunk's old lines start, in current lines. */
static size_t hinted_line(const hrun *r, const aa_hunk *h, long extra)
{
	long at = h->old_start - (h->old_count ? 1 : 0) + r->delta +
		  r->skipped_delta + extra;
	long total = (long)run_len(r);

	if (at < 0)
		at = 0;
	return (size_t)(at > total ? total : at);
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
			orig_line(r, hint) + 1, orig_line(r, moved) + 1, r->last_offset);
}

/*
 * A numbered hunk whose old lines are not at its header's line but
 * elsewhere, and whose new lines are at that line: its result stands
 * where the header places it, so it is already applied (SPEC "Already
 * applied") rather than applied by rung 2 at the other place (short
 * context: the change taken a second time). With its old lines
 * nowhere, the history and the ladder decide, as before. Only
 * a hunk that adds lines: the new side of one that only removes lines
 * is context, weaker evidence (see ladder()).
 */
static rung_result applied_at_hint(hrun *r, const htry *y, size_t hint)
{
	aa_lview v = run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->post, y->npost);
	size_t k, adds = 0;
	int here;

	for (k = y->k0; k < y->k1; k++)
		adds += y->h->lines[k].kind == '+';
	here = adds && aa_locate_at(&v, hint, &nd, AA_WS_EXACT);

	aa_needle_release(&nd);
	if (!here)
		return 0;
	return skip_applied(r, y, hint, AA_WS_EXACT) < 0 ? -1 : 1;
}

/* Rungs 1 and 2 for a hunk with a line number. */
static rung_result exact_rungs(hrun *r, const htry *y)
{
	aa_lview v = run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	size_t at[2], hint = hinted_line(r, y->h, 0);
	int found;
	rung_result rr;

	/*
	 * "-0,N" (N > 0) names no line: hinted_line() takes it for line 1,
	 * which is rung 2 for record(); --strict has no place for it.
	 */
	if (r->cx->strict && y->h->old_count && y->h->old_start < 1)
		return 0;
	if (aa_locate_at(&v, hint, &nd, AA_WS_EXACT)) {
		size_t moved = hinted_line(r, y->h, r->last_offset);

		if (moved != hint && aa_locate_at(&v, moved, &nd, AA_WS_EXACT))
			return report_two_places(r, y, hint, moved);
		return land(r, y, hint, AA_HOW_EXACT, AA_WS_EXACT) < 0 ? -1 : 1;
	}
	if (r->cx->strict)
		return 0;
	found = aa_locate_nearest(&v, &nd, AA_WS_EXACT,
				  hinted_line(r, y->h, r->last_offset), at);
	aa_needle_release(&nd);
	if (found < 0)
		return oom(r, y->h->pos);
	if (found && (rr = applied_at_hint(r, y, hint)) != 0)
		return rr;
	if (found == 2)
		return ambiguous(r, y, AA_WS_EXACT, at, 2, 1);
	if (found == 1)
		return land(r, y, at[0], AA_HOW_OFFSET, AA_WS_EXACT) < 0 ? -1 : 1;
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
static int place_insertion(hrun *r, const htry *y)
{
	size_t total = run_len(r), at = hinted_line(r, y->h, 0), start;
	int k;

	if (!y->h->has_hint)
		return total ? aa_error(r->cx->diags, y->h->pos, r->cx->path,
					"hunk has no context or removed lines; nothing says where its lines go")
			     : land(r, y, 0, AA_HOW_CONTENT, AA_WS_EXACT);
	if ((long)at != y->h->old_start + r->delta + r->skipped_delta)
		return aa_error(r->cx->diags, y->h->pos, r->cx->path,
				"hunk adds lines after line %ld, but the file has %zu lines",
				y->h->old_start, total);
	if (at != total || y->h->at_eof) {
		k = applied_at(r, y, at, AA_WS_EXACT, &start);
		if (k)
			return k < 0 ? oom(r, y->h->pos)
				     : skip_applied(r, y, start, AA_WS_EXACT);
	}
	if (at != total)
		return aa_error(r->cx->diags, y->h->pos, r->cx->path,
				"hunk adds lines %s line %ld with no context or removed lines; "
				"nothing in the file confirms the place (add context lines)",
				at ? "after" : "before", at ? y->h->old_start : 1);
	return land_here(r, y, at, AA_HOW_EXACT, AA_WS_EXACT);
}

static size_t count_kind(const aa_hunk *h, char kind)
{
	size_t k, n = 0;

	for (k = 0; k < h->nlines; k++)
		n += h->lines[k].kind == kind;
	return n;
}

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
		return d->base + end == run_len(d->r);
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
	return try_build(out, h2, 0, n);
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
		return oom(d->r, d->y->h->pos);
	}
	fit.anchor = d->y->anchor;
	ret = land(d->r, &fit, d->start[0], AA_HOW_BLANK_LINES, lv) < 0 ? -1 : 1;
	try_release(&fit);
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
	run_ws_ready(r);
	d.base = from > run_len(r) ? run_len(r) : from;
	d.v = view_range(r, d.base, SIZE_MAX);
	for (lv = AA_WS_EXACT; lv <= AA_WS_BOTH; lv++) {
		if (aa_locate_drift(&d.v, &nd, (aa_ws)lv, d_hit, &d) < 0 || d.oom)
			return oom(r, y->h->pos);
		if (d.found)
			break;
	}
	if (!d.found)
		return 0;
	if (d.found > 1)
		return report_ambiguous_as(r, y, " when blank lines may be missing or extra",
					   d.start, (long)d.found);
	if (!d.anchored[0])
		return 0;
	if (new_side)
		return record(r, y, d.start[0], AA_HOW_ALREADY_APPLIED, (aa_ws)lv,
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
static rung_result drift_rung(hrun *r, const htry *y)
{
	int text = adds_text(y->h);
	aa_hunk hn;
	aa_hline *lines;
	htry ny;
	rung_result rr = 0;

	if (drift_normalize(y->h, y->k0, y->k1, &hn, &lines) < 0 ||
	    try_build(&ny, &hn, 0, hn.nlines) < 0) {
		free(lines);
		return oom(r, y->h->pos);
	}
	ny.anchor = y->anchor;
	if (text)
		rr = drift_side(r, &ny, 1);
	if (!rr)
		rr = drift_side(r, &ny, 0);
	if (!rr && !text)
		rr = drift_side(r, &ny, 1);
	try_release(&ny);
	free(lines);
	return rr;
}

/* ---- the anchored ladder ------------------------------------------------------ */

/* The one place an anchored try's side of n lines may start; SIZE_MAX: none. */
static size_t anchor_at(const hrun *r, const htry *y, size_t n)
{
	size_t total = run_len(r);

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
		run_ws_ready(r);
	v = run_view(r);
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
		run_ws_ready(r);
	if (from > run_len(r))
		from = run_len(r);
	v = window_view(r, from, n);
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
	aa_lview v = run_view(r);
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
	if (r->cx->strict && at != hinted_line(r, y->h, 0))
		return 0;
	return land(r, y, at, how, lv) < 0 ? -1 : 1;
}

/* How many of the n lines `side`, put at line `start`, are there (blanks ignored). */
static size_t support_at(hrun *r, const aa_lrec *side, size_t n, long start)
{
	aa_lview v = run_view(r);
	size_t i, total = run_len(r), k = 0;

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
	v = run_view(r);
	count = aa_locate_all(&v, &nd, AA_WS_BOTH, NULL, 0);
	if (count > 0 && !(hits = malloc((size_t)count * sizeof(*hits))))
		count = -1;
	if (count > 0)
		count = aa_locate_all(&v, &nd, AA_WS_BOTH, hits, (size_t)count);
	aa_needle_release(&nd);
	if (count < 0) {
		free(hits);
		return oom(r, y->h->pos);
	}
	best = support_at(r, ys, yn, (long)at - (long)off);
	for (i = 0; edge_best && i < (size_t)count; i++)
		if (hits[i] != at && support_at(r, ys, yn, (long)hits[i] - (long)off) >= best)
			edge_best = 0;
	free(hits);
	if (!edge_best)
		return 0;
	if (new_side)
		return record(r, core, at, AA_HOW_ALREADY_APPLIED, AA_WS_BOTH,
			      AA_REINDENT_NONE, 0) < 0 ? -1 : 1;
	return land(r, core, at, AA_HOW_REDUCED_CONTEXT, AA_WS_BOTH) < 0 ? -1 : 1;
}

static rung_result anchored_applied(hrun *r, const htry *y, aa_ws lv)
{
	size_t at;

	if (!at_anchor(r, y, y->post, y->npost, lv, &at))
		return 0;
	if (lv != AA_WS_EXACT && !edge_only_place(r, y->post, y->npost, lv, at))
		return 0;
	return record(r, y, at, AA_HOW_ALREADY_APPLIED, lv, AA_REINDENT_NONE, 0) < 0 ? -1 : 1;
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
	if (count_kind(h, '+'))
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
		return n < 0 ? oom(r, h->pos) : 0;
	/* the core keeps the anchored side: it has no context there */
	if (!rr && reduced_core(h, y->k1, &k0, &k1)) {
		if (try_build(&core, h, k0, k1) < 0)
			return oom(r, h->pos);
		core.anchor = y->anchor;
		/* applied once on this rung: its new side is at the edge */
		if (count_kind(h, '+'))
			rr = anchored_core(r, y, &core, 1);
		if (!rr)
			rr = anchored_core(r, y, &core, 0);
		try_release(&core);
	}
	if (!rr)
		rr = drift_rung(r, y);
	return rr;
}

/*
 * Exact-only, for an edge hunk (hunk_edge()) that hunk_anchor() leaves
 * free: at its header's line, else at the edge, else nowhere.
 */
static rung_result exact_at_edge(hrun *r, const htry *y, int edge)
{
	aa_lview v = run_view(r);
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	size_t hint = hinted_line(r, y->h, 0), at;
	htry e = *y;
	int here = aa_locate_at(&v, hint, &nd, AA_WS_EXACT);

	aa_needle_release(&nd);
	if (here)
		return land(r, y, hint, AA_HOW_EXACT, AA_WS_EXACT) < 0 ? -1 : 1;
	e.anchor = edge;
	if (!at_anchor(r, &e, e.pre, e.npre, AA_WS_EXACT, &at))
		return 0;
	return land(r, y, at, AA_HOW_OFFSET, AA_WS_EXACT) < 0 ? -1 : 1;
}

/* Rungs 1 to 4 and "already applied" for try y: 0 when none gives a place. */
static rung_result ladder(hrun *r, const htry *y)
{
	const aa_hunk *h = y->h;
	htry core;
	size_t k0, k1;
	rung_result rr;
	aa_ws lv;

	if (y->anchor != ANCHOR_NONE)
		return anchored_ladder(r, y);
	if (r->cx->exact_only && !r->cx->strict) {
		int edge = hunk_edge(h, y->k1);

		if (edge != ANCHOR_NONE)
			return exact_at_edge(r, y, edge);
	}
	rr = h->has_hint ? exact_rungs(r, y) : bare_exact(r, y);
	if (r->cx->exact_only)
		return rr;
	/*
	 * The new side found exactly means "already applied" before the
	 * blank-tolerant rungs get a say: a re-indenting hunk applied once
	 * would match them again and indent twice. A hunk that only removes
	 * lines has only context on its new side, which is weaker evidence:
	 * it waits until the old side is absent with blanks ignored too.
	 */
	if (!rr && !r->cx->strict && count_kind(h, '+'))
		rr = already_applied(r, y, AA_WS_EXACT);
	for (lv = AA_WS_TRAILING; !rr && !r->cx->strict && lv <= AA_WS_BOTH; lv++)
		rr = unique_rung(r, y, lv, AA_HOW_WHITESPACE);
	if (!rr && !r->cx->strict)
		rr = already_applied(r, y, AA_WS_EXACT);
	if (!rr && !r->cx->strict)
		rr = already_applied(r, y, AA_WS_BOTH);
	if (!rr && !r->cx->strict && reduced_core(h, y->k1, &k0, &k1)) {
		if (try_build(&core, h, k0, k1) < 0)
			return oom(r, h->pos);
		rr = unique_rung(r, &core, AA_WS_BOTH, AA_HOW_REDUCED_CONTEXT);
		try_release(&core);
	}
	if (!rr && !r->cx->strict)
		rr = drift_rung(r, y);
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
 * elsewhere (exactly or with blanks ignored), say that and why it is
 * refused; else the usual report.
 */
static int report_anchored(hrun *r, const htry *y, size_t hint)
{
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	size_t at, total = run_len(r);
	aa_lview v;
	edges e;
	long n;

	run_ws_ready(r);
	v = run_view(r);
	n = aa_locate_first(&v, &nd, AA_WS_EXACT, &at, 1);
	if (n == 0)
		n = aa_locate_first(&v, &nd, AA_WS_BOTH, &at, 1);
	aa_needle_release(&nd);
	if (n < 0)
		return oom(r, y->h->pos);
	if (n == 0)
		return report_not_found(r, y, hint);
	hunk_edges(y->h, y->k1, &e);
	if (y->anchor == ANCHOR_END)
		return aa_error(r->cx->diags, y->h->pos, r->cx->path,
				"hunk is anchored to the end of the file: it adds lines after the last of the "
				"%zu line(s) it shows and shows none after them, so it was cut at the end of the file "
				"it was written for; its lines are at line %ld, but %zu more line(s) follow "
				"them; refusing to put its changes before them (add the context lines that "
				"follow, or write the hunk against the current file)",
				e.lead, orig_line(r, at) + 1, total - at - y->npre);
	return aa_error(r->cx->diags, y->h->pos, r->cx->path,
			"hunk is anchored to the start of the file: it starts at line 1 and adds lines "
			"before the first of the %zu line(s) it shows, with none before them; its lines are "
			"at line %ld, after %zu other line(s); refusing to put its changes after them "
			"(add the context lines that come before, or write the hunk against the "
			"current file)",
			e.trail, orig_line(r, at) + 1, at);
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

/*
 * How many bare hunks, from hunk i on, have hunk i's old lines: hunks
 * of a file apply in order, so k of them for k places of those lines
 * are placed one to each, in order. Numbered hunks have their header's
 * line to tell identical places apart.
 */
static size_t identical_run(const aa_op *op, size_t i)
{
	size_t k = i + 1;

	if (op->hunks[i].has_hint || op->hunks[i].has_scope)
		return 1;
	while (k < op->nhunks && !op->hunks[k].has_hint && !op->hunks[k].has_scope &&
	       same_old_side(&op->hunks[i], &op->hunks[k]))
		k++;
	return k - i;
}

static int place_hunk(hrun *r, const aa_hunk *h)
{
	htry y, cut;
	size_t hint, tail;
	rung_result rr;

	if (try_build(&y, h, 0, h->nlines) < 0)
		return oom(r, h->pos);
	r->win_lo = h->has_scope ? cur_line(r, h->scope_lo) : 0;
	r->win_hi = h->has_scope ? cur_line(r, h->scope_hi) : SIZE_MAX;
	y.anchor = hunk_anchor(h, h->nlines);
	if (!y.npre) {
		rr = place_insertion(r, &y);
		try_release(&y);
		return rr < 0 ? -1 : 0;
	}
	hint = h->has_scope ? r->win_lo : hinted_line(r, h, r->last_offset);
	rr = ladder(r, &y);
	/* lines taken for context that are not in the file: without them */
	if (!rr && (tail = loose_tail(h)) > 0) {
		if (try_build(&cut, h, 0, tail) < 0) {
			try_release(&y);
			return oom(r, h->pos);
		}
		cut.anchor = hunk_anchor(h, tail);
		if (cut.npre && (rr = ladder(r, &cut)) > 0)
			aa_warn(r->cx->diags, h->pos, r->cx->path,
				"the hunk's last %zu line(s) were not context after all; left out",
				h->nlines - tail);
		try_release(&cut);
	}
	/* a hunk that fails changes nothing: the later headers stay right */
	if (!rr)
		rr = y.anchor != ANCHOR_NONE ? report_anchored(r, &y, hint)
					     : report_not_found(r, &y, hint);
	try_release(&y);
	return rr < 0 ? -1 : 0;
}

/* --strict: seed 004's encoding rule, before any context is looked at. */
static int strict_encoding(const aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	if (t->enc != AA_ENC_UTF16LE && t->enc != AA_ENC_UTF16BE)
		return 0;
	return aa_error(cx->diags, op->pos, cx->path,
			"Encoding mismatch: the file is %s, the diff is UTF-8",
			aa_enc_name(t->enc));
}

/* --strict: seed 004's hunk validation, after every context matched. */
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
	if (run_init(&r, t, op, cx) < 0)
		return oom(&r, op->pos);
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
	if (!ret && run_finish(&r) < 0)
		ret = oom(&r, op->pos);
	run_release(&r);
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
					describe_line(&b, &f, &p, (long)line + 1);
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
