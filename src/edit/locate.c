/*
 * The locator (see src/edit/locate.h): hash arrays searched with
 * KMP or outward from a hint, every hit confirmed byte for byte.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "edit/locate.h"
#include "util/util.h"

/*
 * How far aa_locate_nearest() scans outward, line by line, before it
 * falls back to one linear KMP pass over the whole text: a hint is
 * usually right within a few lines, and the scan stops at the first hit.
 */
#define NEAR_WINDOW 1024

int aa_line_is_blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!aa_is_hspace(s[i]))
			return 0;
	return 1;
}

void aa_ws_span(const char *s, size_t len, aa_ws lv, size_t *off, size_t *n)
{
	size_t b = 0, e = len;

	if (lv != AA_WS_EXACT)
		while (e > 0 && aa_is_hspace(s[e - 1]))
			e--;
	if (lv == AA_WS_BOTH)
		while (b < e && aa_is_hspace(s[b]))
			b++;
	*off = b;
	*n = e - b;
}

void aa_lrec_set_exact(aa_lrec *r, const char *s, size_t len, aa_eol eol)
{
	r->s = s;
	r->len = (uint32_t)len;
	r->eol = (uint8_t)eol;
	r->ws_ready = 0;
	r->h[AA_WS_EXACT] = (uint32_t)XXH3_64bits(s, len);
	r->h[AA_WS_TRAILING] = r->h[AA_WS_BOTH] = 0;
}

aa_lrec *aa_lrecs_of_text(const aa_text *t)
{
	aa_lrec *v = malloc((t->n ? t->n : 1) * sizeof(*v));
	size_t i;

	for (i = 0; v && i < t->n; i++)
		aa_lrec_set(&v[i], t->lines[i].s, t->lines[i].len, t->lines[i].eol);
	return v;
}

void aa_lrec_ws(aa_lrec *r)
{
	int lv;

	if (r->ws_ready)
		return;
	for (lv = AA_WS_TRAILING; lv < AA_WS_LEVELS; lv++) {
		size_t off, n;

		aa_ws_span(r->s, r->len, (aa_ws)lv, &off, &n);
		/* most lines have no outer blanks: reuse the exact hash */
		r->h[lv] = n == r->len ? r->h[AA_WS_EXACT]
				   : (uint32_t)XXH3_64bits(r->s + off, n);
	}
	r->ws_ready = 1;
}

void aa_lrec_set(aa_lrec *r, const char *s, size_t len, aa_eol eol)
{
	/* a hunk line "x\r" is x with its own CRLF ending (text.h) */
	if (eol != AA_EOL_NONE)
		eol = aa_line_own_eol(s, &len, eol);
	aa_lrec_set_exact(r, s, len, eol);
	aa_lrec_ws(r);
}

int aa_lrec_eq(const aa_lrec *a, const aa_lrec *b, aa_ws lv)
{
	size_t ao, an, bo, bn;

	if (a->h[lv] != b->h[lv])
		return 0;
	aa_ws_span(a->s, a->len, lv, &ao, &an);
	aa_ws_span(b->s, b->len, lv, &bo, &bn);
	return an == bn && !memcmp(a->s + ao, b->s + bo, an);
}

void aa_needle_release(aa_needle *nd)
{
	int lv;

	for (lv = 0; lv < AA_WS_LEVELS; lv++) {
		free(nd->fail[lv]);
		nd->fail[lv] = NULL;
	}
}

int aa_locate_at(const aa_lview *v, size_t at, const aa_needle *nd, aa_ws lv)
{
	size_t j;

	if (!nd->n || at > aa_lview_len(v) || nd->n > aa_lview_len(v) - at)
		return 0;
	/* hashes first: a miss is almost always decided by the first line */
	for (j = 0; j < nd->n; j++)
		if (aa_lview_at(v, at + j)->h[lv] != nd->v[j].h[lv])
			return 0;
	for (j = 0; j < nd->n; j++)
		if (!aa_lrec_eq(aa_lview_at(v, at + j), &nd->v[j], lv))
			return 0;
	return 1;
}

/* The KMP failure function of the needle's hashes at level lv. */
static const size_t *needle_fail(aa_needle *nd, aa_ws lv)
{
	size_t *f, i, k = 0;

	if (nd->fail[lv])
		return nd->fail[lv];
	f = malloc(nd->n * sizeof(*f));
	if (!f)
		return NULL;
	f[0] = 0;
	for (i = 1; i < nd->n; i++) {
		while (k && nd->v[i].h[lv] != nd->v[k].h[lv])
			k = f[k - 1];
		if (nd->v[i].h[lv] == nd->v[k].h[lv])
			k++;
		f[i] = k;
	}
	nd->fail[lv] = f;
	return f;
}

typedef aa_hit_fn hit_fn;

/*
 * Calls fn for every confirmed match, in order, until it returns
 * non-zero. Returns 0, or -1 on out-of-memory.
 */
static int kmp_scan(const aa_lview *v, aa_needle *nd, aa_ws lv,
		    hit_fn fn, void *arg)
{
	const size_t *f;
	size_t i, k = 0, n = aa_lview_len(v), m = nd->n;

	if (!m || m > n)
		return 0;
	if (!(f = needle_fail(nd, lv)))
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t h = aa_lview_at(v, i)->h[lv];

		while (k && h != nd->v[k].h[lv])
			k = f[k - 1];
		if (h == nd->v[k].h[lv])
			k++;
		if (k == m) {
			size_t at = i + 1 - m;

			if (aa_locate_at(v, at, nd, lv) && fn(at, arg))
				return 0;
			k = f[k - 1];
		}
	}
	return 0;
}

struct all_hits {
	size_t *hits, max, count;
};

static int collect_hit(size_t at, void *arg)
{
	struct all_hits *a = arg;

	if (a->count < a->max)
		a->hits[a->count] = at;
	a->count++;
	return 0;
}

long aa_locate_all(const aa_lview *v, aa_needle *nd, aa_ws lv,
		   size_t *hits, size_t max)
{
	struct all_hits a = { hits, max, 0 };

	if (kmp_scan(v, nd, lv, collect_hit, &a) < 0)
		return -1;
	return (long)a.count;
}

static int first_hits(size_t at, void *arg)
{
	struct all_hits *a = arg;

	a->hits[a->count++] = at;
	return a->count == a->max;
}

long aa_locate_first(const aa_lview *v, aa_needle *nd, aa_ws lv,
		     size_t *hits, size_t max)
{
	struct all_hits a = { hits, max, 0 };

	if (!max)
		return 0;
	if (kmp_scan(v, nd, lv, first_hits, &a) < 0)
		return -1;
	return (long)a.count;
}

struct nearest {
	size_t hint;
	size_t best[2];
	size_t dist;
	int found;
};

static int nearer_hit(size_t at, void *arg)
{
	struct nearest *s = arg;
	size_t d = at > s->hint ? at - s->hint : s->hint - at;

	if (!s->found || d < s->dist) {
		s->best[0] = at;
		s->dist = d;
		s->found = 1;
	} else if (d == s->dist && at != s->best[0]) {
		s->best[1] = at;
		s->found = 2;
	}
	/* hits come in order: once past the hint and farther, stop */
	return at > s->hint && d > s->dist;
}

int aa_locate_nearest(const aa_lview *v, aa_needle *nd, aa_ws lv,
		      size_t hint, size_t at[2])
{
	size_t n = aa_lview_len(v), m = nd->n, last, d;
	struct nearest s = { 0, { 0, 0 }, 0, 0 };

	if (!m || m > n)
		return 0;
	last = n - m;
	if (hint > last)
		hint = last;
	for (d = 0; d <= NEAR_WINDOW; d++) {
		int lo = d <= hint && aa_locate_at(v, hint - d, nd, lv);
		int hi = d && d <= last - hint && aa_locate_at(v, hint + d, nd, lv);

		if (lo || hi) {
			at[0] = lo ? hint - d : hint + d;
			at[1] = hint + d;
			return lo && hi ? 2 : 1;
		}
		if (d > hint && d > last - hint)
			return 0;
	}
	s.hint = hint;
	if (kmp_scan(v, nd, lv, nearer_hit, &s) < 0)
		return -1;
	at[0] = s.best[0];
	at[1] = s.best[1];
	return s.found;
}

/* ---- blank-line drift ----------------------------------------------------- */

struct drift_scan {
	const size_t *idx;       /* the text line of each non-blank line */
	aa_hit_fn fn;
	void *arg;
};

static int drift_hit(size_t at, void *arg)
{
	struct drift_scan *d = arg;

	return d->fn(d->idx[at], d->arg);
}

static int is_blank_rec(const aa_lrec *l)
{
	return aa_line_is_blank(l->s, l->len);
}

int aa_locate_drift(const aa_lview *v, const aa_needle *nd, aa_ws lv,
		    aa_hit_fn fn, void *arg)
{
	size_t n = aa_lview_len(v), i, q = 0, c = 0;
	aa_lrec *sk = malloc((nd->n ? nd->n : 1) * sizeof(*sk));
	aa_lrec *rec = malloc((n ? n : 1) * sizeof(*rec));
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	struct drift_scan d = { idx, fn, arg };
	aa_needle skn = AA_NEEDLE_INIT(sk, 0);
	aa_lview cv;
	int ret = -1;

	if (!sk || !rec || !idx)
		goto out;
	/* both sides without their blank lines: a match there is a place */
	for (i = 0; i < nd->n; i++)
		if (!is_blank_rec(&nd->v[i]))
			sk[q++] = nd->v[i];
	for (i = 0; i < n; i++) {
		const aa_lrec *l = aa_lview_at(v, i);

		if (!is_blank_rec(l)) {
			rec[c] = *l;
			idx[c++] = i;
		}
	}
	memset(&cv, 0, sizeof(cv));
	cv.seg[0] = rec;
	cv.nseg[0] = c;
	skn.n = q;
	ret = q ? kmp_scan(&cv, &skn, lv, drift_hit, &d) : 0;
out:
	aa_needle_release(&skn);
	free(sk);
	free(rec);
	free(idx);
	return ret;
}

/* ---- the closest place, for error messages ------------------------------ */

/* Needle lines by hash (level AA_WS_BOTH): an open-addressed table. */
typedef struct line_table {
	size_t mask;
	long *slot;    /* first needle line with this hash, -1 = empty */
	long *next;    /* next needle line with the same hash, -1 = none */
} line_table;

static void table_free(line_table *lt)
{
	free(lt->slot);
	free(lt->next);
}

static int table_build(line_table *lt, const aa_needle *nd)
{
	size_t cap = 16, j;

	while (cap < 2 * nd->n)
		cap *= 2;
	lt->mask = cap - 1;
	lt->slot = malloc(cap * sizeof(long));
	lt->next = malloc(nd->n * sizeof(long));
	if (!lt->slot || !lt->next)
		return -1;
	memset(lt->slot, 0xff, cap * sizeof(long));
	for (j = nd->n; j-- > 0;) {
		size_t i = nd->v[j].h[AA_WS_BOTH] & lt->mask;

		lt->next[j] = -1;
		/* blank lines match everywhere; they would only add noise */
		if (aa_line_is_blank(nd->v[j].s, nd->v[j].len))
			continue;
		while (lt->slot[i] >= 0 &&
		       nd->v[lt->slot[i]].h[AA_WS_BOTH] != nd->v[j].h[AA_WS_BOTH])
			i = (i + 1) & lt->mask;
		lt->next[j] = lt->slot[i];
		lt->slot[i] = (long)j;
	}
	return 0;
}

static long table_first(const line_table *lt, const aa_needle *nd, uint32_t h)
{
	size_t i = h & lt->mask;

	while (lt->slot[i] >= 0) {
		if (nd->v[lt->slot[i]].h[AA_WS_BOTH] == h)
			return lt->slot[i];
		i = (i + 1) & lt->mask;
	}
	return -1;
}

/* Votes for every alignment: votes[i - j + m - 1] counts matching lines. */
static int count_votes(const aa_lview *v, const aa_needle *nd,
		       const line_table *lt, unsigned *votes)
{
	size_t i, n = aa_lview_len(v), m = nd->n;

	for (i = 0; i < n; i++) {
		const aa_lrec *r = aa_lview_at(v, i);
		long j;

		for (j = table_first(lt, nd, r->h[AA_WS_BOTH]); j >= 0; j = lt->next[j])
			if (aa_lrec_eq(r, &nd->v[j], AA_WS_BOTH))
				votes[i + m - 1 - (size_t)j]++;
	}
	return 0;
}

long aa_locate_closest(const aa_lview *v, const aa_needle *nd, size_t hint,
		       long *at)
{
	size_t n = aa_lview_len(v), m = nd->n, k, best = 0;
	unsigned *votes, top = 0;
	line_table lt = { 0, NULL, NULL };

	*at = (long)hint;
	if (!m || !n)
		return 0;
	votes = calloc(n + m, sizeof(*votes));
	if (!votes || table_build(&lt, nd) < 0) {
		free(votes);
		table_free(&lt);
		return -1;
	}
	count_votes(v, nd, &lt, votes);
	for (k = 0; k < n + m - 1; k++) {
		long pos = (long)k - (long)m + 1;
		long dk = labs(pos - (long)hint);
		long db = labs((long)best - (long)m + 1 - (long)hint);

		if (votes[k] > top || (votes[k] == top && top && dk < db)) {
			top = votes[k];
			best = k;
		}
	}
	free(votes);
	table_free(&lt);
	if (top)
		*at = (long)best - (long)m + 1;
	return top;
}

/* ---- the region an anchor opens ------------------------------------------- */

/* The width of a line's indentation, a tab to the next multiple of 8. */
static size_t indent_width(const aa_lrec *l)
{
	size_t i, w = 0;

	for (i = 0; i < l->len && aa_is_blank(l->s[i]); i++)
		w = l->s[i] == '\t' ? (w / 8 + 1) * 8 : w + 1;
	return w;
}

/* The line without its outer blanks: s[*b .. *e). */
static void trimmed(const aa_lrec *l, size_t *b, size_t *e)
{
	aa_ws_span(l->s, l->len, AA_WS_BOTH, b, e);
	*e += *b;
}

static int is_closer(char c)
{
	return c == '}' || c == ']' || c == ')';
}

static int starts_with_closer(const aa_lrec *l)
{
	size_t b, e;

	trimmed(l, &b, &e);
	return b < e && is_closer(l->s[b]);
}

/* Only closing brackets, with the ";" or "," that may end them. */
static int is_lone_closer(const aa_lrec *l)
{
	size_t b, e;

	trimmed(l, &b, &e);
	if (b == e || !is_closer(l->s[b]))
		return 0;
	for (; b < e; b++)
		if (!is_closer(l->s[b]) && l->s[b] != ';' && l->s[b] != ',')
			return 0;
	return 1;
}

static int ends_with_opener(const aa_lrec *l)
{
	size_t b, e;

	trimmed(l, &b, &e);
	return b < e && (l->s[e - 1] == '{' || l->s[e - 1] == '[' || l->s[e - 1] == '(');
}

static int is_lone_brace(const aa_lrec *l)
{
	size_t b, e;

	trimmed(l, &b, &e);
	return e == b + 1 && l->s[b] == '{';
}

static size_t next_nonblank(const aa_lview *v, size_t i)
{
	size_t n = aa_lview_len(v);

	while (i < n && aa_line_is_blank(aa_lview_at(v, i)->s, aa_lview_at(v, i)->len))
		i++;
	return i;
}

size_t aa_scope_end(const aa_lview *v, size_t at)
{
	size_t n = aa_lview_len(v), base, first, i;
	int brackets;

	if (at >= n)
		return n;
	base = indent_width(aa_lview_at(v, at));
	brackets = ends_with_opener(aa_lview_at(v, at));
	first = next_nonblank(v, at + 1);
	if (first == n)
		return n;
	if (!brackets && indent_width(aa_lview_at(v, first)) == base &&
	    is_lone_brace(aa_lview_at(v, first)))
		brackets = 1;
	else if (!brackets && indent_width(aa_lview_at(v, first)) <= base)
		return n;  /* no block: a place, from which the rest follows */
	for (i = first; i < n; i = next_nonblank(v, i + 1)) {
		const aa_lrec *l = aa_lview_at(v, i);
		size_t w = indent_width(l);

		if (w > base || (i == first && is_lone_brace(l)))
			continue;
		/*
		 * Brackets delimit the block: a line left of the anchor ends
		 * it only when it closes a bracket (a preprocessor line, a
		 * label or a string's line at the margin stays inside).
		 */
		if (w < base && (!brackets || starts_with_closer(l)))
			return i;
		if (w < base)
			continue;
		if (brackets ? starts_with_closer(l) : is_lone_closer(l))
			return i + 1;
		if (!brackets)
			return i;
	}
	return n;
}
