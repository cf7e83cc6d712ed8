/*
 * The hunk engine (src/edit/hunks.c): indentation shifts of added
 * lines, and applying a hunk at a place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/hunks_int.h"
#include "util/util.h"

/* ---- indentation ------------------------------------------------------------ */

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
		size_t pi = aa_indent_of(p->s, p->len), fi = aa_indent_of(f->s, f->len);
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
		size_t bi = aa_indent_of(big->s, big->len);
		size_t si = aa_indent_of(small->s, small->len), k;

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
			size_t ai = aa_indent_of(a->s, a->len), bi = aa_indent_of(b->s, b->len);
			size_t ti = aa_indent_of(sh->to[i]->s, sh->to[i]->len);
			size_t tj = aa_indent_of(sh->to[j]->s, sh->to[j]->len);

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
int aa_hk_find_shift(const aa_lview *v, size_t at, const htry *y, ishift *sh)
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
		size_t pi = aa_indent_of(p->s, p->len), fi = aa_indent_of(f->s, f->len);

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

void aa_hk_shift_release(ishift *sh)
{
	free(sh->from);
	free(sh->to);
}

/* An added line re-indented by the shift, into b. */
int aa_hk_shift_line(const ishift *sh, const char *s, size_t len, aa_buf *b)
{
	size_t in = aa_indent_of(s, len), best = 0, i;
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
		size_t fi = aa_indent_of(f->s, f->len);

		if (fi <= in && fi >= best && !memcmp(f->s, s, fi)) {
			best = fi;
			to = sh->to[i];
		}
	}
	if (!to)
		return aa_buf_put(b, s, len);
	return aa_buf_put(b, to->s, aa_indent_of(to->s, to->len)) |
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
	size_t k, fi = 0, n = 0, total = aa_hk_run_len(r);
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
			aa_hk_count_add(r, aa_lview_at(v, at + fi++)->h[AA_WS_EXACT], -1);
		} else {
			if (aa_hk_shift_line(sh, l->text, l->len, &b) < 0 ||
			    !(s = aa_text_store(r->t, b.ptr ? b.ptr : "", b.len))) {
				aa_buf_free(&b);
				free(nv);
				return -1;
			}
			aa_lrec_set(&nv[n], s, b.len, dom);
			aa_hk_count_add(r, nv[n++].h[AA_WS_EXACT], 1);
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
int aa_hk_apply_at(hrun *r, size_t at, const htry *y, const ishift *sh)
{
	aa_lview v = aa_hk_run_view(r);
	aa_lrec *nv;
	size_t n, total = aa_hk_run_len(r);
	int r2;

	if (build_new(r, &v, at, y, sh, &nv, &n) < 0)
		return -1;
	/* lines appended after a last line that had no newline: give it one */
	if (n && at == total && at > 0 && !y->npre &&
	    aa_lview_at(&v, at - 1)->eol == AA_EOL_NONE) {
		if (aa_hk_out_pull(r, at) < 0) {
			free(nv);
			return -1;
		}
		r->out[at - 1].eol = r->t->dominant == AA_EOL_NONE ? AA_EOL_LF
								  : r->t->dominant;
	}
	r2 = aa_hk_out_splice(r, at, y->npre, nv, n);
	free(nv);
	if (r2 < 0)
		return -1;
	return aa_hk_remember_placed(r, at, y->npre, (long)n - (long)y->npre);
}
