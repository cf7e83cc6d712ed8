/*
 * Literal find/replace edits (aptix structured patches) on decoded text.
 *
 * `find` and `replace` are written with "\n" line breaks. The text is
 * matched as one flat string in which every line terminator reads "\n",
 * so a CRLF (or mixed) file matches. Splicing keeps terminators: each
 * untouched line keeps its own; the k-th line break of `replace` takes
 * the terminator of the k-th line break that `find` matched (so an edit
 * that keeps the line count keeps every terminator), and any extra line
 * break takes the file's dominant terminator.
 *
 * Every replacement costs O(file): one flat copy, memmem searches, and
 * one splice of the lines between the first and the last match.
 */
/* memmem (glibc declares it for _GNU_SOURCE only) */
#define _GNU_SOURCE 1
#include <stdlib.h>
#include <string.h>

#include "edit/applied.h"
#include "edit/edit.h"
#include "edit/explain.h"
#include "util/util.h"

/* How much of a line an error message quotes. */
#define QUOTE_MAX 80

/* The text as one string, every terminator read as "\n". */
typedef struct flat {
	char *s;
	size_t len;
	size_t *off;   /* off[i]: start of line i; off[n] == len */
	size_t n;
} flat;

static void flat_free(flat *f)
{
	free(f->s);
	free(f->off);
	memset(f, 0, sizeof(*f));
}

static int flat_build(const aa_text *t, flat *f)
{
	size_t i, len = 0, at = 0;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < t->n; i++) {
		len += t->lines[i].len + (t->lines[i].eol != AA_EOL_NONE);
		if (len > AA_MAX_TEXT_SIZE)
			return -1;
	}
	f->s = malloc(len + 1);
	f->off = malloc((t->n + 1) * sizeof(*f->off));
	if (!f->s || !f->off) {
		flat_free(f);
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		f->off[i] = at;
		if (t->lines[i].len)
			memcpy(f->s + at, t->lines[i].s, t->lines[i].len);
		at += t->lines[i].len;
		if (t->lines[i].eol != AA_EOL_NONE)
			f->s[at++] = '\n';
	}
	f->s[at] = '\0';
	f->off[t->n] = at;
	f->len = at;
	f->n = t->n;
	return 0;
}

/* The line holding byte x (x < f->len). */
static size_t flat_line_of(const flat *f, size_t x)
{
	size_t lo = 0, hi = f->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->off[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * memmem over windows that double in size: the cost of finding the next
 * match stays proportional to the distance to it, also where memmem is
 * instrumented to check its whole haystack (ASan), which would make
 * "all" with many matches quadratic.
 */
static const char *search(const flat *f, size_t from, const char *needle,
			  size_t nlen)
{
	size_t win = nlen > 128 ? nlen * 2 : 256;

	while (from <= f->len && f->len - from >= nlen) {
		size_t avail = f->len - from, w = win < avail ? win : avail;
		const char *p = memmem(f->s + from, w, needle, nlen);

		if (p || w == avail)
			return p;
		from += w - nlen + 1;
		if (win < AA_MAX_INPUT_SIZE)
			win *= 2;
	}
	return NULL;
}

/* A copy of s with "\r\n" and a lone "\r" turned into "\n". */
static char *normalize_breaks(const char *s, size_t len, size_t *out_len)
{
	char *out = malloc(len + 1);
	size_t i, n = 0;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		if (s[i] == '\r') {
			out[n++] = '\n';
			if (i + 1 < len && s[i + 1] == '\n')
				i++;
		} else {
			out[n++] = s[i];
		}
	}
	out[n] = '\0';
	*out_len = n;
	return out;
}

static size_t count_breaks(const char *s, size_t len)
{
	size_t n = 0;
	const char *p = s, *end = s + len;

	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

/* ---------- building the replaced lines ---------- */

typedef struct lrec {
	size_t start, len;
	aa_eol eol;
} lrec;

typedef struct lbuild {
	aa_buf bytes;
	lrec *v;
	size_t n, cap;
	size_t open;   /* where the line being built starts in bytes */
} lbuild;

static int lb_end_line(lbuild *lb, aa_eol eol)
{
	if (AA_GROW(lb->v, lb->n, lb->cap) < 0)
		return -1;
	lb->v[lb->n].start = lb->open;
	lb->v[lb->n].len = lb->bytes.len - lb->open;
	lb->v[lb->n].eol = eol;
	lb->n++;
	lb->open = lb->bytes.len;
	return 0;
}

/*
 * Appends s[0..len), ending a line at every "\n"; the k-th line break
 * gets eol_of(k). Returns the number of breaks or -1.
 */
static int lb_put_lines(lbuild *lb, const char *s, size_t len,
			const aa_text *t, size_t first_line, size_t own_breaks)
{
	const char *p = s, *end = s + len, *nl;
	size_t k = 0;

	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		aa_eol eol = t->dominant != AA_EOL_NONE ? t->dominant : AA_EOL_LF;

		if (k < own_breaks)
			eol = t->lines[first_line + k].eol;
		if (aa_buf_put(&lb->bytes, p, (size_t)(nl - p)) < 0 ||
		    lb_end_line(lb, eol) < 0)
			return -1;
		k++;
		p = nl + 1;
	}
	return aa_buf_put(&lb->bytes, p, (size_t)(end - p));
}

/* Splices the built lines over text lines [at, at+del). */
static int lb_splice(lbuild *lb, aa_text *t, size_t at, size_t del)
{
	aa_line *lines = NULL;
	size_t i;
	int r;

	if (lb->open < lb->bytes.len && lb_end_line(lb, AA_EOL_NONE) < 0)
		return -1;
	if (lb->n) {
		lines = malloc(lb->n * sizeof(*lines));
		if (!lines)
			return -1;
	}
	for (i = 0; i < lb->n; i++) {
		lines[i].s = lb->bytes.ptr ? lb->bytes.ptr + lb->v[i].start : "";
		lines[i].len = lb->v[i].len;
		lines[i].eol = lb->v[i].eol;
	}
	r = aa_text_splice(t, at, del, lines, lb->n);
	free(lines);
	return r;
}

static void lb_free(lbuild *lb)
{
	aa_buf_free(&lb->bytes);
	free(lb->v);
}

/* ---------- one replacement ---------- */

typedef struct repl_job {
	aa_text *t;
	const aa_repl *r;
	size_t idx;          /* 1-based number, for messages */
	aa_edit_ctx *cx;
	flat f;
	char *find, *rep;    /* normalized */
	size_t flen, rlen;
	size_t find_breaks;
	int keeps_find;      /* the replace text holds the find text */
} repl_job;

/*
 * With a replace text that holds the find text, a match that an
 * occurrence of the replace text already covers is done
 * (src/edit/applied.h): the next match from `a` on that is not
 * (overlapping ones count); NULL when there is none.
 * Limit "all" is done when no match is left; with some left, every
 * match is replaced, covered or not: a covered one among them is as
 * likely the file's own text, which the answer means to change too.
 */
static const char *next_uncovered(const repl_job *j, const char *a)
{
	size_t st;

	while (a && j->keeps_find &&
	       aa_applied_covering_bytes(j->f.s, j->f.len, (size_t)(a - j->f.s),
					 j->flen, j->rep, j->rlen, &st, 1))
		a = search(&j->f, (size_t)(a - j->f.s) + 1, j->find, j->flen);
	return a;
}

/*
 * Replaces the match at `first` (and, for "all", every later
 * non-overlapping one) with one splice of the lines they span.
 * *count receives the number of replacements.
 */
static int replace_matches(repl_job *j, const char *first, size_t *count)
{
	const flat *f = &j->f;
	lbuild lb = { AA_BUF_INIT, NULL, 0, 0, 0 };
	size_t start_line = flat_line_of(f, (size_t)(first - f->s));
	size_t cur = start_line, pos = f->off[start_line], end_line;
	size_t size = f->len;
	const char *a = first;

	*count = 0;
	while (a) {
		size_t at = (size_t)(a - f->s);

		/* original text up to the match: its lines keep their eol */
		if (lb_put_lines(&lb, f->s + pos, at - pos, j->t, cur,
				 (size_t)-1) < 0)
			goto oom;
		cur += count_breaks(f->s + pos, at - pos);
		if (lb_put_lines(&lb, j->rep, j->rlen, j->t, cur,
				 j->find_breaks) < 0)
			goto oom;
		cur += j->find_breaks;
		pos = at + j->flen;
		(*count)++;
		size = size - j->flen + j->rlen;
		if (size > AA_MAX_TEXT_SIZE) {
			aa_error(j->cx->diags, j->r->pos, j->cx->path,
				 "replacement %zu: the result would be too large",
				 j->idx);
			goto fail;
		}
		a = j->r->all ? search(f, pos, j->find, j->flen) : NULL;
	}
	/* the rest of the line where the last match ended */
	end_line = f->n;
	if (pos < f->len) {
		end_line = cur + 1;
		if (lb_put_lines(&lb, f->s + pos, f->off[end_line] - pos, j->t,
				 cur, (size_t)-1) < 0)
			goto oom;
	}
	if (lb_splice(&lb, j->t, start_line, end_line - start_line) < 0)
		goto oom;
	lb_free(&lb);
	return 0;
oom:
	aa_error(j->cx->diags, j->r->pos, j->cx->path, "out of memory");
fail:
	lb_free(&lb);
	return -1;
}

/* Occurrences of the find text from `first` on (non-overlapping). */
/* Lines of the places a "once" find names, listed in a refusal. */
#define PLACES_SHOWN 6

/*
 * Limit "once" needs one place. Every match counts, overlapping ones
 * too ("aa" in "aaa" is two places). When there are several the
 * replacement is refused with their lines (Documentation/format-aptix.md:
 * a unique find is the answer's duty; replacing the first put edits in
 * the wrong place).
 */
static int refuse_several(const repl_job *j, const char *first)
{
	aa_buf m = AA_BUF_INIT;
	size_t n = 0, line = 0;
	const char *a;
	int ret;

	for (a = first; a; a = search(&j->f, (size_t)(a - j->f.s) + 1,
				      j->find, j->flen)) {
		size_t l = flat_line_of(&j->f, (size_t)(a - j->f.s)) + 1;

		if (n < PLACES_SHOWN && l != line)
			aa_buf_printf(&m, "%s%zu", line ? ", " : "", l);
		line = l;
		n++;
	}
	if (n < 2) {
		aa_buf_free(&m);
		return 0;
	}
	if (aa_buf_oom(&m)) {
		aa_buf_free(&m);
		return aa_oom(j->cx->diags, j->r->pos, j->cx->path);
	}
	ret = aa_error(j->cx->diags, j->r->pos, j->cx->path,
		       "replacement %zu: limit \"once\" but find matches %zu "
		       "places (lines %s%s); make find name one place, or use "
		       "limit \"all\"", j->idx, n, m.ptr ? m.ptr : "",
		       n > PLACES_SHOWN ? ", ..." : "");
	aa_buf_free(&m);
	return ret;
}

/*
 * The find text is not in the file and the replace text is, exactly
 * once: the replacement was already applied (Documentation/locating.md,
 * "Re-applying is a no-op").
 */
static const char *unique_result(const repl_job *j)
{
	const char *p;

	if (!j->rlen)
		return NULL;
	p = search(&j->f, 0, j->rep, j->rlen);
	if (!p || search(&j->f, (size_t)(p - j->f.s) + 1, j->rep, j->rlen))
		return NULL;
	return p;
}

/* Places of a "once" find weighed for "already applied", at most. */
#define PLACES_WEIGHED 64

/*
 * A replace text that holds the find text (an append, a find that the
 * replacement keeps): the find is still there once applied. Limit
 * "once": applied when the replace text covers the find's place, or,
 * with several places, covers one of them and either all or from one
 * place only (aa_applied_among_bytes()). Limit "all": when it covers
 * every match. Returns where the replace text stands, or NULL.
 */
static const char *covering_result(const repl_job *j, const char *first)
{
	size_t hits[PLACES_WEIGHED], n = 0, st;
	const char *a;

	if (!j->keeps_find)
		return NULL;
	if (j->r->all) {
		if (next_uncovered(j, first))
			return NULL;
		aa_applied_covering_bytes(j->f.s, j->f.len, (size_t)(first - j->f.s),
					  j->flen, j->rep, j->rlen, &st, 1);
		return j->f.s + st;
	}
	for (a = first; a; a = search(&j->f, (size_t)(a - j->f.s) + 1,
				      j->find, j->flen)) {
		if (n == PLACES_WEIGHED)
			return NULL;
		hits[n++] = (size_t)(a - j->f.s);
	}
	if (!aa_applied_among_bytes(j->f.s, j->f.len, hits, n, j->flen,
				    j->rep, j->rlen, &st))
		return NULL;
	return j->f.s + st;
}

static int already_applied(repl_job *j, const char *p)
{
	long line = (long)flat_line_of(&j->f, (size_t)(p - j->f.s)) + 1;

	aa_note(j->cx->diags, j->r->pos, j->cx->path,
		"replacement %zu already applied (its replace text is at line %ld)",
		j->idx, line);
	if (aa_edit_landing_add(j->cx, j->r->pos, line, 0,
				AA_HOW_ALREADY_APPLIED) < 0)
		return aa_error(j->cx->diags, j->r->pos, j->cx->path, "out of memory");
	return 0;
}

/* ---------- explaining a miss ---------- */

static void trim(const char **s, size_t *len)
{
	size_t a = 0, z = *len;

	aa_trim(*s, &a, &z, aa_is_blank);
	*s += a;
	*len = z - a;
}

static void quote(aa_buf *m, const char *s, size_t len)
{
	aa_buf_put_quoted(m, s, len, QUOTE_MAX);
}

/* Line k (0-based) of a "\n"-separated string; NULL past its end. */
static const char *nth_line(const char *s, size_t len, size_t k, size_t *llen)
{
	const char *end = s + len, *nl;

	while (k--) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			return NULL;
		s = nl + 1;
	}
	nl = memchr(s, '\n', (size_t)(end - s));
	*llen = nl ? (size_t)(nl - s) : (size_t)(end - s);
	return s;
}

/* The first find line with something on it (its index in *k). */
static const char *first_content_line(const repl_job *j, size_t *k, size_t *len)
{
	const char *s;

	for (*k = 0; (s = nth_line(j->find, j->flen, *k, len)) != NULL; (*k)++) {
		const char *t = s;
		size_t tl = *len;

		trim(&t, &tl);
		if (tl)
			return s;
	}
	return NULL;
}

/* When the find's lines from k0 on all match from file line `at`, trimmed. */
static void explain_from(const repl_job *j, aa_buf *m, size_t at, size_t k0)
{
	const aa_text *t = j->t;
	size_t k, flen;
	const char *fl;

	for (k = k0; (fl = nth_line(j->find, j->flen, k, &flen)) != NULL; k++) {
		size_t i = at + (k - k0), tl;
		const char *ts;

		if (!flen && fl == j->find + j->flen)
			break;  /* the empty rest after a final line break */

		if (i >= t->n) {
			aa_buf_printf(m, "; the file ends (line %zu) before the find text does",
				      t->n);
			return;
		}
		ts = t->lines[i].s;
		tl = t->lines[i].len;
		trim(&ts, &tl);
		trim(&fl, &flen);
		if (tl != flen || (tl && memcmp(ts, fl, tl))) {
			aa_buf_printf(m, "; line %zu is ", i + 1);
			aa_explain_differs(m, t->lines[i].s, t->lines[i].len,
					   "find text", fl, flen);
			return;
		}
	}
	if (k - k0 > 1)
		aa_buf_printf(m, "; lines %zu-%zu match when whitespace is ignored",
			      at + 1, at + (k - k0));
	else
		aa_buf_printf(m, "; line %zu matches when whitespace is ignored",
			      at + 1);
}

/* Line i of the text without its outer blanks (aa_likest_line). */
static void trimmed_line(const void *arg, size_t i, const char **s, size_t *len)
{
	const aa_text *t = arg;

	*s = t->lines[i].s;
	*len = t->lines[i].len;
	trim(s, len);
}

/* "closest line" details for a find text that is not in the file. */
static void explain_miss(const repl_job *j, aa_buf *m)
{
	size_t k0, flen, i, best, score, prefix;
	const char *fl = first_content_line(j, &k0, &flen);

	if (!fl)
		return;
	trim(&fl, &flen);
	/* a line equal but for blanks: where the find text stops matching */
	for (i = 0; i < j->t->n; i++) {
		const char *ts;
		size_t tl;

		trimmed_line(j->t, i, &ts, &tl);
		if (tl == flen && aa_line_likeness(ts, tl, fl, flen, NULL) >= flen) {
			explain_from(j, m, i, k0);
			return;
		}
	}
	if (!aa_likest_line(trimmed_line, j->t, 0, j->t->n, fl, flen, &best,
			    &score, &prefix))
		return;
	aa_buf_printf(m, "; closest is line %zu: ", best + 1);
	quote(m, j->t->lines[best].s, j->t->lines[best].len);
	aa_buf_printf(m, " (differs from the find text's line %zu at column %zu)",
		      k0 + 1, prefix + 1);
}

static int not_found(repl_job *j)
{
	aa_buf m = AA_BUF_INIT;
	size_t flen;
	const char *fl = nth_line(j->find, j->flen, 0, &flen);
	size_t nlines = count_breaks(j->find, j->flen) +
			(j->find[j->flen - 1] != '\n');

	aa_buf_printf(&m, "replacement %zu: find text not found: ", j->idx);
	quote(&m, fl, flen);
	if (nlines > 1)
		aa_buf_printf(&m, " (first of %zu lines)", nlines);
	explain_miss(j, &m);
	aa_error_buf(j->cx->diags, j->r->pos, j->cx->path, &m);
	aa_buf_free(&m);
	return -1;
}

static int run_job(repl_job *j)
{
	const char *first, *done;
	size_t line, count;

	if (!j->flen)
		return aa_error(j->cx->diags, j->r->pos, j->cx->path,
				"replacement %zu: empty find text", j->idx);
	first = search(&j->f, 0, j->find, j->flen);
	done = first ? covering_result(j, first) : unique_result(j);
	if (done)
		return already_applied(j, done);
	if (!first)
		return not_found(j);
	line = flat_line_of(&j->f, (size_t)(first - j->f.s)) + 1;
	if (!j->r->all && refuse_several(j, first) < 0)
		return -1;
	if (replace_matches(j, first, &count) < 0)
		return -1;
	if (aa_edit_landing_add(j->cx, j->r->pos, (long)line, 0,
				AA_HOW_CONTENT) < 0)
		return aa_error(j->cx->diags, j->r->pos, j->cx->path, "out of memory");
	return 0;
}

static int apply_one(aa_text *t, const aa_repl *r, size_t idx, aa_edit_ctx *cx)
{
	repl_job j;
	int ret = -1;

	memset(&j, 0, sizeof(j));
	j.t = t;
	j.r = r;
	j.idx = idx;
	j.cx = cx;
	j.find = normalize_breaks(r->find ? r->find : "", r->find_len, &j.flen);
	j.rep = normalize_breaks(r->replace ? r->replace : "", r->replace_len,
				 &j.rlen);
	if (!j.find || !j.rep || flat_build(t, &j.f) < 0) {
		aa_error(cx->diags, r->pos, cx->path,
			 "out of memory (or text too large) for replacement %zu", idx);
		goto out;
	}
	j.find_breaks = count_breaks(j.find, j.flen);
	j.keeps_find = j.flen && memmem(j.rep, j.rlen, j.find, j.flen) != NULL;
	ret = run_job(&j);
out:
	flat_free(&j.f);
	free(j.find);
	free(j.rep);
	return ret;
}

int aa_edit_replacements(aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	size_t i;

	for (i = 0; i < op->nrepls; i++)
		if (apply_one(t, &op->repls[i], i + 1, cx) < 0)
			return -1;
	return 0;
}
