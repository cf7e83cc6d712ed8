/*
 * The merge of a large file by windows. A 3-way merge diffs the whole
 * old version against the current content and against the answer's
 * result: on a file of 200,000 lines that costs several times a fresh
 * landing. But `theirs` differs from `base` only where the hunks landed,
 * so outside those places the merge's result is `ours`. Each place gets
 * a window reaching out to the nearest lines that occur exactly once in
 * base and once in ours (anchors, as patience diff uses them); only the
 * windows are merged, and ours fills the rest.
 *
 * Every assumption is checked (theirs equals base outside the windows,
 * the anchors come in the same order in ours); when one fails, or a
 * window conflicts, the whole file is merged as before.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "plan/history_merge.h"
#include "util/util.h"

/* A buffer's lines: line i is buf[at[i], at[i + 1]), terminator included. */
typedef struct lines {
	const char *buf;
	size_t *at;
	size_t n;
} lines;

static int split_lines(lines *l, const char *buf, size_t len)
{
	size_t n = 0, off = 0, cap = 0;
	const char *nl;

	l->buf = buf;
	l->at = NULL;
	if (aa_array_grow(&l->at, &cap, 1024, sizeof(*l->at)) < 0)
		return -1;
	while (off < len) {
		if (n + 2 > cap && aa_array_grow(&l->at, &cap, n + 2, sizeof(*l->at)) < 0)
			return -1;
		l->at[n++] = off;
		nl = memchr(buf + off, '\n', len - off);
		off = nl ? (size_t)(nl - buf) + 1 : len;
	}
	l->at[n] = len;
	l->n = n;
	return 0;
}

static uint64_t line_hash(const lines *l, size_t i)
{
	uint64_t h = XXH3_64bits(l->buf + l->at[i], l->at[i + 1] - l->at[i]);

	return h ? h : 1;
}

static int same_line(const lines *a, size_t i, const lines *b, size_t j)
{
	size_t la = a->at[i + 1] - a->at[i];

	return la == b->at[j + 1] - b->at[j] &&
	       !memcmp(a->buf + a->at[i], b->buf + b->at[j], la);
}

/*
 * How often the hash of each line that can be an anchor (a base line
 * within the reach of a region) occurs in base and in ours (2 = more
 * than once), and where in ours first. Only those lines are kept: a
 * table of every line of both files cost more than the rest of the
 * merge (two tables of 200,000 lines, each slot touched at random).
 */
typedef struct ltab {
	uint64_t *key;
	uint8_t *in_base, *in_ours;
	size_t *pos;
	size_t mask;
} ltab;

static void ltab_free(ltab *t)
{
	free(t->key);
	free(t->in_base);
	free(t->in_ours);
	free(t->pos);
}

static size_t ltab_slot(const ltab *t, uint64_t h)
{
	size_t s = (size_t)h & t->mask;

	while (t->key[s] && t->key[s] != h)
		s = (s + 1) & t->mask;
	return s;
}

/* The base lines an anchor can be: within the reach of each region. */
static size_t each_candidate(const lines *b, const aa_merge_region *r, size_t nr,
			     ltab *t)
{
	size_t k, n = 0;

	for (k = 0; k < nr; k++) {
		size_t lo = r[k].start > AA_MERGE_WINDOW_REACH ?
			    r[k].start - AA_MERGE_WINDOW_REACH : 0;
		size_t hi = r[k].start + r[k].nold + AA_MERGE_WINDOW_REACH, i;

		for (i = lo; i < hi && i < b->n; i++, n++)
			if (t) {
				uint64_t h = line_hash(b, i);

				t->key[ltab_slot(t, h)] = h;
			}
	}
	return n;
}

/* Counts the lines of l whose hash is in the table. */
static void ltab_count(ltab *t, const lines *l, uint8_t *count, int keep_pos)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		uint64_t h = line_hash(l, i);
		size_t s = ltab_slot(t, h);

		if (!t->key[s])
			continue;
		if (keep_pos && !count[s])
			t->pos[s] = i;
		if (count[s] < 2)
			count[s]++;
	}
}

static int ltab_build(ltab *t, const lines *b, const lines *o,
		      const aa_merge_region *r, size_t nr)
{
	size_t cap = 64, n = each_candidate(b, r, nr, NULL);

	while (cap < n * 2)
		cap *= 2;
	t->mask = cap - 1;
	t->key = calloc(cap, sizeof(*t->key));
	t->in_base = calloc(cap, 1);
	t->in_ours = calloc(cap, 1);
	t->pos = calloc(cap, sizeof(*t->pos));
	if (!t->key || !t->in_base || !t->in_ours || !t->pos)
		return -1;
	each_candidate(b, r, nr, t);
	ltab_count(t, b, t->in_base, 0);
	ltab_count(t, o, t->in_ours, 1);
	return 0;
}

typedef struct wctx {
	lines b, o, t;
	ltab tab;
	aa_merge_region *r;
	size_t nr;
} wctx;

/* Base line i occurs once in base and once in ours: its line in ours, else -1. */
static long anchor_in_ours(const wctx *w, size_t i)
{
	uint64_t h = line_hash(&w->b, i);
	size_t s = ltab_slot(&w->tab, h);

	if (!w->tab.key[s] || w->tab.in_base[s] != 1 || w->tab.in_ours[s] != 1)
		return -1;
	if (!same_line(&w->b, i, &w->o, w->tab.pos[s]))
		return -1;
	return (long)w->tab.pos[s];
}

/* Where base line x (outside every region) is in theirs. */
static long in_theirs(const wctx *w, long x)
{
	long shift = 0;
	size_t k;

	for (k = 0; k < w->nr; k++)
		if ((long)(w->r[k].start + w->r[k].nold) <= x)
			shift += (long)w->r[k].nnew - (long)w->r[k].nold;
	return x + shift;
}

/* One window: the lines strictly between two anchors, in each buffer. */
typedef struct window {
	long b0, b1;  /* base anchors (-1: file start, b.n: file end) */
	long o0, o1;  /* the same lines in ours */
	long t0, t1;  /* ... and in theirs */
} window;

static int region_cmp(const void *a, const void *b)
{
	const aa_merge_region *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The nearest anchor at or before `from`, not before `stop` (-1: none). */
static long head_anchor(const wctx *w, long from, long stop, long *ours)
{
	long i;

	for (i = from; i >= stop && i >= 0; i--)
		if ((*ours = anchor_in_ours(w, (size_t)i)) >= 0)
			return i;
	return -1;
}

/*
 * Cuts the windows: 0, or -1 when they cannot be cut safely (then the
 * whole file is merged).
 */
static int cut_windows(wctx *w, window *win, size_t *nwin)
{
	long prev = -1, prev_o = -1;
	size_t i = 0, n = 0;

	while (i < w->nr) {
		window *x = &win[n];
		long from = (long)w->r[i].start - 1, end, ours = -1;
		long lo = (long)w->r[i].start - AA_MERGE_WINDOW_REACH;

		/* head: an anchor after the previous window's tail */
		x->b0 = head_anchor(w, from, lo > prev + 1 ? lo : prev + 1, &ours);
		if (x->b0 < 0 && lo > prev + 1)
			return -1;
		if (x->b0 < 0) {
			x->b0 = prev;
			ours = prev_o;
		}
		x->o0 = ours;
		/* tail: the first anchor after the region, taking in any region it meets */
		end = (long)(w->r[i].start + w->r[i].nold);
		for (x->b1 = -1; x->b1 < 0;) {
			long k, stop = end + AA_MERGE_WINDOW_REACH;

			for (k = end; k < (long)w->b.n && k < stop; k++) {
				if (i + 1 < w->nr && k >= (long)w->r[i + 1].start)
					break;
				if ((ours = anchor_in_ours(w, (size_t)k)) >= 0) {
					x->b1 = k;
					break;
				}
			}
			if (x->b1 >= 0)
				break;
			if (k >= (long)w->b.n) {
				x->b1 = (long)w->b.n;
				ours = (long)w->o.n;
			} else if (i + 1 < w->nr && k >= (long)w->r[i + 1].start) {
				i++;
				if ((long)(w->r[i].start + w->r[i].nold) > end)
					end = (long)(w->r[i].start + w->r[i].nold);
			} else {
				return -1;
			}
		}
		x->o1 = ours;
		if (x->o0 >= x->o1 || x->o0 < prev_o || (n && x->o0 < win[n - 1].o1))
			return -1;
		x->t0 = x->b0 < 0 ? -1 : in_theirs(w, x->b0);
		x->t1 = x->b1 >= (long)w->b.n ? (long)w->t.n : in_theirs(w, x->b1);
		prev = x->b1;
		prev_o = x->o1;
		n++;
		i++;
		if (x->b1 >= (long)w->b.n)
			break;
	}
	*nwin = n;
	return i == w->nr ? 0 : -1;
}

/* Bytes of lines [from, to) of l (from may be -1: start; to up to n). */
static size_t span_off(const lines *l, long i)
{
	if (i < 0)
		return 0;
	return l->at[(size_t)i > l->n ? l->n : (size_t)i];
}

/* Theirs equals base outside the windows (anchors included). */
static int outside_equal(const wctx *w, const window *win, size_t n)
{
	long bprev = 0, tprev = 0;
	size_t k;

	for (k = 0; k <= n; k++) {
		long bend = k < n ? win[k].b0 + 1 : (long)w->b.n;
		long tend = k < n ? win[k].t0 + 1 : (long)w->t.n;
		size_t bo = span_off(&w->b, bprev), bl = span_off(&w->b, bend) - bo;
		size_t to = span_off(&w->t, tprev), tl = span_off(&w->t, tend) - to;

		if (bend < bprev || tend < tprev || bl != tl ||
		    memcmp(w->b.buf + bo, w->t.buf + to, bl))
			return 0;
		if (k < n) {
			bprev = win[k].b1;
			tprev = win[k].t1;
		}
	}
	return 1;
}

/* Merges each window; 0 clean (out holds the file), else not. */
static int merge_windows(const aa_snapshot *sn, const char *path,
			 const char *label, const wctx *w, const window *win,
			 size_t n, aa_buf *out)
{
	aa_buf m = AA_BUF_INIT;
	size_t k, done = 0;
	int r = 0;

	for (k = 0; k < n && !r; k++) {
		const window *x = &win[k];
		size_t b0 = span_off(&w->b, x->b0 + 1), b1 = span_off(&w->b, x->b1);
		size_t o0 = span_off(&w->o, x->o0 + 1), o1 = span_off(&w->o, x->o1);
		size_t t0 = span_off(&w->t, x->t0 + 1), t1 = span_off(&w->t, x->t1);

		aa_buf_clear(&m);
		r = sn->merge3(sn->ctx, path, label, w->b.buf + b0, b1 - b0,
			       w->o.buf + o0, o1 - o0, w->t.buf + t0, t1 - t0, &m);
		if (!r && (aa_buf_put(out, w->o.buf + done, o0 - done) < 0 ||
			   aa_buf_put(out, m.ptr ? m.ptr : "", m.len) < 0))
			r = -1;
		done = o1;
	}
	if (!r && aa_buf_put(out, w->o.buf + done, span_off(&w->o, (long)w->o.n) - done) < 0)
		r = -1;
	aa_buf_free(&m);
	return r;
}

static int try_windows(const aa_snapshot *sn, const char *path,
		       const char *label, wctx *w, aa_buf *out)
{
	window *win;
	size_t n = 0;
	int r = -1;

	if (ltab_build(&w->tab, &w->b, &w->o, w->r, w->nr) < 0)
		return -1;
	win = calloc(w->nr, sizeof(*win));
	if (win && !cut_windows(w, win, &n) && outside_equal(w, win, n))
		r = merge_windows(sn, path, label, w, win, n, out);
	free(win);
	return r;
}

int aa_merge_windowed(const aa_snapshot *sn, const char *path,
		      const char *label, const char *base, size_t blen,
		      const char *ours, size_t olen, const char *theirs,
		      size_t tlen, const aa_merge_region *regions,
		      size_t nregions, aa_buf *out)
{
	wctx w;
	size_t k;
	int r = -1;

	memset(&w, 0, sizeof(w));
	if (nregions && split_lines(&w.b, base, blen) == 0 &&
	    w.b.n >= AA_MERGE_WINDOW_MIN_LINES &&
	    split_lines(&w.o, ours, olen) == 0 &&
	    split_lines(&w.t, theirs, tlen) == 0 &&
	    (w.r = malloc(nregions * sizeof(*w.r)))) {
		memcpy(w.r, regions, nregions * sizeof(*w.r));
		qsort(w.r, nregions, sizeof(*w.r), region_cmp);
		w.nr = nregions;
		for (k = 0; k + 1 < nregions; k++)
			if (w.r[k].start + w.r[k].nold > w.r[k + 1].start)
				w.nr = 0; /* overlapping: not hunks as expected */
		if (w.nr && w.r[w.nr - 1].start + w.r[w.nr - 1].nold <= w.b.n)
			r = try_windows(sn, path, label, &w, out);
	}
	free(w.b.at);
	free(w.o.at);
	free(w.t.at);
	ltab_free(&w.tab);
	free(w.r);
	if (r == 0)
		return 0;
	aa_buf_clear(out);
	return sn->merge3(sn->ctx, path, label, base, blen, ours, olen, theirs,
			  tlen, out);
}
