/*
 * The hunk engine (src/edit/hunks.c): the messages: ambiguity, the
 * closest region, "does not apply".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/hunks_int.h"

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
		aa_buf_printf(b, "%ld", aa_hk_orig_line(r, at[i]) + 1);
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
int aa_hk_report_ambiguous_as(hrun *r, const htry *y, const char *as,
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

int aa_hk_report_ambiguous(hrun *r, const htry *y, aa_ws lv, const size_t *hits,
			   long count)
{
	return aa_hk_report_ambiguous_as(r, y, lv == AA_WS_EXACT ? "" : " when whitespace is ignored",
					 hits, count);
}

/* How file line f and hunk line p differ, as one line of details. */
void aa_hk_describe_line(aa_buf *b, const aa_lrec *f, const aa_lrec *p, long line)
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
	size_t total = aa_hk_run_len(r), lo, hi, n, i, shown = 0;
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
			aa_buf_printf(b, "\n  %7ld %c ", aa_hk_orig_line(r, a[i].f) + 1, a[i].op);
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
	size_t total = aa_hk_run_len(r), j, shown = 0;
	long at, same, good = 0;

	aa_hk_run_ws_ready(r);
	v = aa_hk_run_view(r);
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
			      aa_hk_orig_line(r, (size_t)first) + 1,
			      aa_hk_orig_line(r, (size_t)last) + 1, good, y->npre);
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
		aa_hk_describe_line(b, f, &y->pre[j], aa_hk_orig_line(r, (size_t)i) + 1);
		shown++;
	}
	return 0;
}

/* "; its lines are at line 12, outside it": a chunk found off its region. */
int aa_hk_elsewhere(hrun *r, const htry *y, aa_buf *b)
{
	aa_needle nd = AA_NEEDLE_INIT(y->pre, y->npre);
	aa_lview v;
	size_t hits[MAX_LISTED + 1];
	long n;

	aa_hk_run_ws_ready(r);
	v = aa_hk_run_view(r);
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

int aa_hk_report_not_found(hrun *r, const htry *y, size_t hint)
{
	aa_buf b = AA_BUF_INIT;
	int ret;

	if (r->cx->strict)
		aa_buf_printf(&b, "Context lines don't match: the hunk's lines are not at line %ld of the file",
			      y->h->old_start);
	else if (r->behind_at != SIZE_MAX)
		aa_buf_printf(&b, "hunk does not apply after the hunk before it: its context and "
			      "removed lines stand at line %ld, before that hunk's lines end (line "
			      "%ld), while its header's line and the order of the hunks put it "
			      "after them; refusing to go back (give the right line numbers or "
			      "more context)",
			      aa_hk_orig_line(r, r->behind_at) + 1,
			      aa_hk_orig_line(r, r->next_at - 1) + 1);
	else if (y->h->has_scope)
		aa_buf_puts(&b, "hunk does not apply: no place has its context and removed lines");
	else
		aa_buf_puts(&b, "hunk does not apply: no place in the file has its context and removed lines");
	put_scope(&b, y->h);
	if (y->h->has_scope && aa_hk_elsewhere(r, y, &b) < 0) {
		aa_buf_free(&b);
		return aa_hk_oom(r, y->h->pos);
	}
	if (r->behind_at == SIZE_MAX && describe_closest(r, y, hint, &b) < 0) {
		aa_buf_free(&b);
		return aa_hk_oom(r, y->h->pos);
	}
	ret = aa_error_buf(r->cx->diags, y->h->pos, r->cx->path, &b);
	aa_buf_free(&b);
	return ret;
}
