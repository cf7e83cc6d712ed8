/*
 * ap modifications (Documentation/format-ap.md) on a decoded text.
 *
 * Location is the seed's normalised search: the sought text (anchor,
 * snippet, start/end snippet) is split into lines, blank lines dropped,
 * each line trimmed; the file is seen the same way (its blank lines
 * skipped, its lines trimmed), and the sought lines must equal a run of
 * consecutive non-blank file lines. Whole lines only: a snippet that is
 * part of a line never matches.
 *
 * The searches run on the shared locator (aiapply/locate.h): the file's
 * non-blank lines and the sought lines become aa_lrec records of their
 * TRIMMED bytes, compared at AA_WS_EXACT (so the trimming above is the
 * whole normalisation), and every hash hit is confirmed byte for byte.
 * Each search is one KMP pass over the hashes that stops at the last
 * occurrence it needs. Blanks are the locator's: space, tab, CR, VT, FF.
 *
 * Modifications run in order, each on the result of the previous one,
 * and each checks first whether its result is already there (§3.1), so
 * applying the same patch twice changes nothing the second time.
 */
#define _GNU_SOURCE /* memmem (glibc; the BSDs and macOS have it anyway) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/applied.h"
#include "edit/edit.h"
#include "edit/explain.h"
#include "edit/locate.h"
#include "util/util.h"

/* Occurrences listed in an ambiguity error. */
#define MAX_LISTED 5
/* Bytes of a file or snippet line quoted in a message. */
#define QUOTE_MAX 80

/* A sought text (anchor, snippet, ...) as its non-blank trimmed lines. */
typedef struct needle {
	const char *name;  /* "snippet", "anchor", ... for messages */
	aa_lrec *v;        /* s/len: the trimmed line */
	size_t n, cap;
} needle;

/* The file's non-blank lines: their trimmed bytes and file line index. */
typedef struct fview {
	aa_lrec *v;
	size_t *at;
	size_t n;
} fview;

/* Everything one modification works with. */
typedef struct modrun {
	aa_text *t;
	const aa_apmod *m;
	aa_edit_ctx *cx;
	const char *action;  /* "REPLACE", ... */
	fview f;
	needle anchor, primary, end, content;
	size_t scope;        /* first non-blank index searched (after the anchor) */
	long anchor_line;    /* 1-based last line of the anchor, 0 = none */
	size_t next_after_anchor; /* a second occurrence in scope, or SIZE_MAX */
} modrun;

/* ---------- lines ---------- */

/* Drops leading and trailing blanks, as the locator counts them. */
static void trim(const char **s, size_t *len)
{
	size_t off, n;

	aa_ws_span(*s, *len, AA_WS_BOTH, &off, &n);
	*s += off;
	*len = n;
}

static int line_is_blank(const aa_line *l)
{
	return aa_line_is_blank(l->s, l->len);
}

/*
 * Splits a NUL-terminated text into lines: "\n", "\r\n" and "\r" end a
 * line; a final terminator ends the last line without adding an empty
 * one. Calls fn for each line; stops at the first nonzero return.
 */
typedef int (*line_fn)(void *arg, const char *s, size_t len);

static int each_line(const char *s, line_fn fn, void *arg)
{
	while (*s) {
		size_t n = strcspn(s, "\r\n");
		int r = fn(arg, s, n);

		if (r)
			return r;
		s += n;
		if (!*s)
			break;
		s += (s[0] == '\r' && s[1] == '\n') ? 2 : 1;
	}
	return 0;
}

/* ---------- needles ---------- */

static void needle_free(needle *nd)
{
	free(nd->v);
	memset(nd, 0, sizeof(*nd));
}

static int needle_add(void *arg, const char *s, size_t len)
{
	needle *nd = arg;

	trim(&s, &len);
	if (!len)
		return 0;
	if (AA_GROW(nd->v, nd->n, nd->cap) < 0)
		return -1;
	aa_lrec_set_exact(&nd->v[nd->n++], s, len, AA_EOL_NONE);
	return 0;
}

static int needle_init(needle *nd, const char *name, const char *text)
{
	memset(nd, 0, sizeof(*nd));
	nd->name = name;
	if (!text)
		return 0;
	if (each_line(text, needle_add, nd) < 0) {
		needle_free(nd);
		return -1;
	}
	return 0;
}

/* ---------- the file view ---------- */

static void fview_free(fview *f)
{
	free(f->v);
	free(f->at);
	memset(f, 0, sizeof(*f));
}

static int fview_build(fview *f, const aa_text *t)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->v = malloc((t->n ? t->n : 1) * sizeof(*f->v));
	f->at = malloc((t->n ? t->n : 1) * sizeof(*f->at));
	if (!f->v || !f->at) {
		fview_free(f);
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		const char *s = t->lines[i].s;
		size_t len = t->lines[i].len;

		trim(&s, &len);
		if (!len)
			continue;
		aa_lrec_set_exact(&f->v[f->n], s, len, t->lines[i].eol);
		f->at[f->n] = i;
		f->n++;
	}
	return 0;
}

/* ---------- search ---------- */

/* The non-blank lines [from, to) as a locator view (positions from 0). */
static aa_lview view_of(const modrun *r, size_t from, size_t to)
{
	aa_lview v = { { NULL, NULL }, { 0, 0 } };

	if (to > r->f.n)
		to = r->f.n;
	if (from < to) {
		v.seg[0] = r->f.v + from;
		v.nseg[0] = to - from;
	}
	return v;
}

/*
 * The first `max` occurrences of lines v[0..m) among the non-blank lines
 * [from, to), in order (overlapping ones included): one linear pass of
 * the shared locator that stops at the max-th.
 */
static long find_lines(const modrun *r, const aa_lrec *v, size_t m,
		       size_t from, size_t to, size_t *hits, size_t max)
{
	aa_needle nd = AA_NEEDLE_INIT(v, m);
	aa_lview view = view_of(r, from, to);
	long n = aa_locate_first(&view, &nd, AA_WS_EXACT, hits, max), i;

	aa_needle_release(&nd);
	for (i = 0; i < n; i++)
		hits[i] += from;
	return n;
}

static long find_hits(const modrun *r, const needle *nd, size_t from,
		      size_t to, size_t *hits, size_t max)
{
	return find_lines(r, nd->v, nd->n, from, to, hits, max);
}

/* 1-based file line of non-blank line k. */
static long line_of(const modrun *r, size_t k)
{
	return (long)r->f.at[k] + 1;
}

/* ---------- messages ---------- */

/* Appends s quoted (common.h: control bytes escaped), cut at QUOTE_MAX. */
static int put_quoted(aa_buf *b, const char *s, size_t len)
{
	return aa_buf_put_quoted(b, s, len, QUOTE_MAX);
}

static int contains(const char *hay, size_t hlen, const char *s, size_t len)
{
	return len && len <= hlen && memmem(hay, hlen, s, len) != NULL;
}

/*
 * The place in [from, n) where the longest prefix of the needle (short
 * of the whole, which is not there) matches first: a binary search on
 * the prefix length, since a prefix that matches somewhere has every
 * shorter one matching there too, so log m searches. Returns the number
 * of lines matched (0 = not even the first) and sets *best; -1 on
 * out-of-memory.
 */
static long longest_prefix(const modrun *r, const needle *nd, size_t from,
			   size_t *best)
{
	size_t lo = 0, hi = nd->n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2, at;
		long n = find_lines(r, nd->v, mid, from, r->f.n, &at, 1);

		if (n < 0)
			return -1;
		if (n) {
			lo = mid;
			*best = at;
		} else {
			hi = mid - 1;
		}
	}
	return (long)lo;
}

/* The line in [from, n) holding the needle's first line as a part. */
static int describe_partial(const modrun *r, const needle *nd, size_t from,
			    aa_buf *b)
{
	size_t k;

	for (k = from; k < r->f.n; k++) {
		const aa_lrec *l = &r->f.v[k];

		if (contains(l->s, l->len, nd->v[0].s, nd->v[0].len)) {
			if (aa_buf_printf(b, "; line %ld ", line_of(r, k)) < 0 ||
			    put_quoted(b, l->s, l->len) < 0)
				return -1;
			return aa_buf_printf(b, " holds the %s's first line only as "
					     "part of a line (snippets must match "
					     "whole lines)", nd->name) < 0 ? -1 : 1;
		}
	}
	return 0;
}

/* The trimmed non-blank line i of the file view (aa_likest_line). */
static void fview_line(const void *arg, size_t i, const char **s, size_t *len)
{
	const fview *f = arg;

	*s = f->v[i].s;
	*len = f->v[i].len;
}

static int describe_similar(const modrun *r, const needle *nd, size_t from,
			    aa_buf *b)
{
	size_t best, score;

	if (!aa_likest_line(fview_line, &r->f, from, r->f.n, nd->v[0].s,
			    nd->v[0].len, &best, &score, NULL) ||
	    score * 2 < nd->v[0].len)
		return 0;
	if (aa_buf_printf(b, "; the closest line is %ld ", line_of(r, best)) < 0 ||
	    aa_explain_differs(b, r->f.v[best].s, r->f.v[best].len, nd->name,
			       nd->v[0].s, nd->v[0].len) < 0)
		return -1;
	return 1;
}

/* Appends where the needle nearly matched in [from, n). */
static int describe_miss(const modrun *r, const needle *nd, size_t from, aa_buf *b)
{
	size_t best = 0, p;
	long lp = longest_prefix(r, nd, from, &best);
	const aa_lrec *l;
	int done;

	if (lp < 0)
		return -1;
	p = (size_t)lp;
	if (p == 0) {
		done = describe_partial(r, nd, from, b);
		if (done)
			return done < 0 ? -1 : 0;
		return describe_similar(r, nd, from, b) < 0 ? -1 : 0;
	}
	if (aa_buf_printf(b, "; closest at line %ld: %zu of %zu line%s match, then ",
			  line_of(r, best), p, nd->n, nd->n == 1 ? "" : "s") < 0)
		return -1;
	if (best + p >= r->f.n)
		return aa_buf_puts(b, "the file ends");
	l = &r->f.v[best + p];
	if (aa_buf_printf(b, "line %ld is ", line_of(r, best + p)) < 0 ||
	    aa_explain_differs(b, l->s, l->len, nd->name, nd->v[p].s,
			       nd->v[p].len) < 0)
		return -1;
	if (contains(l->s, l->len, nd->v[p].s, nd->v[p].len))
		return aa_buf_puts(b, " (only part of the line; snippets must "
				   "match whole lines)");
	return 0;
}

static int oom(const modrun *r)
{
	return aa_oom(r->cx->diags, r->m->pos, r->cx->path);
}

/* "<ACTION>: <what> not found [after the anchor (line N)]; closest ..." */
static int not_found(const modrun *r, const needle *nd, size_t from,
		     const char *after)
{
	aa_buf b = AA_BUF_INIT;
	int rc;

	if (aa_buf_printf(&b, "%s: %s not found", r->action, nd->name) < 0 ||
	    (after && aa_buf_puts(&b, after) < 0) ||
	    describe_miss(r, nd, from, &b) < 0) {
		aa_buf_free(&b);
		return oom(r);
	}
	rc = aa_error(r->cx->diags, r->m->pos, r->cx->path, "%s", b.ptr);
	aa_buf_free(&b);
	return rc;
}

static int ambiguous(const modrun *r, const needle *nd, const size_t *hits,
		     size_t n, const char *hint)
{
	aa_buf b = AA_BUF_INIT;
	size_t i;
	int rc = 0;

	rc |= aa_buf_printf(&b, "%s: %s is ambiguous (lines", r->action, nd->name);
	for (i = 0; i < n && i < MAX_LISTED; i++)
		rc |= aa_buf_printf(&b, "%s %ld", i ? "," : "", line_of(r, hits[i]));
	rc |= aa_buf_printf(&b, "%s)%s", n > MAX_LISTED ? ", ..." : "", hint);
	if (rc) {
		aa_buf_free(&b);
		return oom(r);
	}
	rc = aa_error(r->cx->diags, r->m->pos, r->cx->path, "%s", b.ptr);
	aa_buf_free(&b);
	return rc;
}

/* ---------- locating ---------- */

/* The anchor: exactly one occurrence in the file; the scope follows it. */
static int locate_anchor(modrun *r)
{
	size_t hits[MAX_LISTED + 1];
	long n = find_hits(r, &r->anchor, 0, r->f.n, hits, MAX_LISTED + 1);

	if (n < 0)
		return oom(r);
	if (n == 0)
		return not_found(r, &r->anchor, 0, NULL);
	if (n > 1)
		return ambiguous(r, &r->anchor, hits, (size_t)n,
				 "; the anchor must be unique");
	r->scope = hits[0] + r->anchor.n;
	r->anchor_line = line_of(r, r->scope - 1);
	return 0;
}

/*
 * A snippet by §3.2: after an anchor, its first occurrence in scope;
 * without one, its only occurrence in the file. Returns 1 found (*k),
 * 0 not found, -1 ambiguous (error reported).
 */
static int locate_snippet(modrun *r, const needle *nd, size_t *k)
{
	size_t hits[MAX_LISTED + 1];
	long n;

	if (r->m->anchor) {
		n = find_hits(r, nd, r->scope, r->f.n, hits, 2);
		if (n < 0)
			return oom(r);
		if (n)
			*k = hits[0];
		r->next_after_anchor = n == 2 ? hits[1] : SIZE_MAX;
		return n != 0;
	}
	n = find_hits(r, nd, 0, r->f.n, hits, MAX_LISTED + 1);
	if (n < 0)
		return oom(r);
	if (n > 1)
		return ambiguous(r, nd, hits, (size_t)n, "; add an anchor to choose one");
	if (n == 1)
		*k = hits[0];
	return (int)n;
}

static int primary_not_found(const modrun *r)
{
	char after[64];

	if (!r->m->anchor)
		return not_found(r, &r->primary, 0, NULL);
	snprintf(after, sizeof(after), " after the anchor (line %ld)", r->anchor_line);
	return not_found(r, &r->primary, r->scope, after);
}

/*
 * The region a located snippet covers, as file lines [*first, *last]:
 * for a range, up to the first end_snippet after the start_snippet;
 * then widened by the requested blank lines.
 */
static int locate_region(const modrun *r, size_t k, size_t *first, size_t *last)
{
	size_t lastk = k + r->primary.n - 1, e;
	long i, n;

	if (r->m->start_snippet) {
		n = find_hits(r, &r->end, k + r->primary.n, r->f.n, &e, 1);
		if (n < 0)
			return oom(r);
		if (n != 1) {
			char after[64];

			snprintf(after, sizeof(after), " after line %ld",
				 line_of(r, lastk));
			return not_found(r, &r->end, k + r->primary.n, after);
		}
		lastk = e + r->end.n - 1;
	}
	*first = r->f.at[k];
	*last = r->f.at[lastk];
	for (i = 0; i < r->m->leading_blank_lines && *first > 0 &&
		    line_is_blank(&r->t->lines[*first - 1]); i++)
		(*first)--;
	for (i = 0; i < r->m->trailing_blank_lines && *last + 1 < r->t->n &&
		    line_is_blank(&r->t->lines[*last + 1]); i++)
		(*last)++;
	return 0;
}

/* ---------- already applied (§3.1) ---------- */

static int skip(const modrun *r, long line, const char *why)
{
	aa_note(r->cx->diags, r->m->pos, r->cx->path,
		"%s already applied (%s); skipped", r->action, why);
	if (aa_edit_landing_add(r->cx, r->m->pos, line, 0, AA_HOW_ALREADY_APPLIED) < 0)
		return oom(r);
	return 0;
}

/*
 * The modification's result: `a` then `b` (snippet and content, in the
 * order the action puts them; REPLACE: the content alone), standing
 * over the located snippet, non-blank lines [k, k + primary.n)
 * (src/edit/applied.h: the rule every engine shares). An empty
 * content is there wherever the snippet is. 1 with the result's first
 * line in *at, 0 none, -1 out of memory (reported).
 */
static const needle no_lines;

static int result_covers(const modrun *r, size_t k, const needle *a,
			 const needle *b, size_t *at)
{
	aa_lview view = view_of(r, 0, r->f.n);
	aa_lrec *v = malloc((a->n + b->n ? a->n + b->n : 1) * sizeof(*v));
	aa_needle nd = AA_NEEDLE_INIT(v, a->n + b->n);
	long n;

	if (!v)
		return oom(r);
	if (a->n)
		memcpy(v, a->v, a->n * sizeof(*v));
	if (b->n)
		memcpy(v + a->n, b->v, b->n * sizeof(*v));
	n = aa_applied_covering(&view, k, r->primary.n, &nd, AA_WS_EXACT, at, 1);
	aa_needle_release(&nd);
	free(v);
	return n < 0 ? oom(r) : (int)n;
}

/* ---------- editing ---------- */

typedef struct content_lines {
	const modrun *r;
	const char *indent;
	size_t ilen;
	aa_buf bytes;
	size_t *off;   /* start of each line in bytes */
	size_t *len;
	size_t n, cap;
	int too_long;
} content_lines;

static int content_add(void *arg, const char *s, size_t len)
{
	content_lines *cl = arg;
	size_t ilen = cl->ilen, i, cap;
	const char *t = s;
	size_t tlen = len;

	trim(&t, &tlen);
	if (!tlen)
		ilen = len = 0; /* a blank line stays empty */
	if (len + ilen > AA_MAX_LINE_LENGTH) {
		cl->too_long = 1;
		return -1;
	}
	/* two arrays, one capacity: the second grows as the first did */
	cap = cl->cap;
	if (AA_GROW(cl->off, cl->n, cap) < 0 || AA_GROW(cl->len, cl->n, cl->cap) < 0)
		return -1;
	i = cl->n++;
	cl->off[i] = cl->bytes.len;
	cl->len[i] = ilen + len;
	if (aa_buf_put(&cl->bytes, cl->indent, ilen) < 0 ||
	    aa_buf_put(&cl->bytes, s, len) < 0)
		return -1;
	return 0;
}

static void content_lines_free(content_lines *cl)
{
	aa_buf_free(&cl->bytes);
	free(cl->off);
	free(cl->len);
}

/* The indentation (leading spaces and tabs) of file line i. */
static size_t indent_of(const aa_line *l)
{
	return aa_indent_of(l->s, l->len);
}

/*
 * Splices the modification's content (indented like file line
 * `indent_line`) in place of file lines [at, at+del). New lines take
 * the file's dominant terminator; the final-newline state is kept.
 */
static int splice_content(const modrun *r, size_t at, size_t del,
			  size_t indent_line, int with_content)
{
	aa_text *t = r->t;
	const aa_line *il = &t->lines[indent_line];
	content_lines cl;
	aa_line *ins = NULL;
	int had_final = aa_text_has_final_newline(t), rc = 0;
	aa_eol eol = t->dominant == AA_EOL_NONE ? AA_EOL_LF : t->dominant;
	size_t i;

	memset(&cl, 0, sizeof(cl));
	cl.r = r;
	cl.indent = il->s;
	cl.ilen = indent_of(il);
	if (with_content && each_line(r->m->content, content_add, &cl) < 0) {
		rc = cl.too_long ? aa_error(r->cx->diags, r->m->pos, r->cx->path,
					    "%s: content line too long", r->action)
				 : oom(r);
		goto out;
	}
	if (cl.n && !(ins = malloc(cl.n * sizeof(*ins)))) {
		rc = oom(r);
		goto out;
	}
	for (i = 0; i < cl.n; i++) {
		ins[i].s = cl.bytes.ptr + cl.off[i];
		ins[i].len = cl.len[i];
		ins[i].eol = eol;
	}
	if (aa_text_splice(t, at, del, ins, cl.n) < 0) {
		rc = oom(r);
		goto out;
	}
	/* A line that was last without terminator may be last no more. */
	if (at > 0 && at - 1 < t->n - 1 && t->lines[at - 1].eol == AA_EOL_NONE)
		t->lines[at - 1].eol = eol;
	if (t->n && !had_final)
		t->lines[t->n - 1].eol = AA_EOL_NONE;
out:
	free(ins);
	content_lines_free(&cl);
	return rc;
}

static int landed(const modrun *r, size_t k)
{
	/*
	 * A first-of-several match is allowed after an anchor, not silent
	 * (Documentation/format-ap.md, "How the tool reads it").
	 */
	if (r->m->anchor && r->next_after_anchor != SIZE_MAX)
		aa_warn(r->cx->diags, r->m->pos, r->cx->path,
			"%s: %s occurs more than once after the anchor; used the "
			"first (line %ld), not line %ld", r->action, r->primary.name,
			line_of(r, k), line_of(r, r->next_after_anchor));
	if (aa_edit_landing_add(r->cx, r->m->pos, line_of(r, k), 0, AA_HOW_CONTENT) < 0)
		return oom(r);
	return 0;
}

/* ---------- actions ---------- */

static int do_delete(const modrun *r, int found, size_t k)
{
	size_t first, last;

	if (!found)
		return skip(r, 0, "its snippet is not in the file");
	if (locate_region(r, k, &first, &last) < 0 ||
	    splice_content(r, first, last - first + 1, first, 0) < 0)
		return -1;
	return landed(r, k);
}

/* REPLACE whose snippet is gone: done when the content is where it went. */
static int replace_missing(const modrun *r)
{
	size_t hits[2];
	long n;

	if (!r->content.n)
		return skip(r, 0, "its snippet is not in the file and its content is empty");
	if (r->m->anchor)
		n = find_hits(r, &r->content, r->scope, r->f.n, hits, 1);
	else
		n = find_hits(r, &r->content, 0, r->f.n, hits, 2);
	if (n < 0)
		return oom(r);
	if (n == 1)
		return skip(r, line_of(r, hits[0]),
			    "its snippet is not in the file and its content is");
	return primary_not_found(r);
}

static int do_replace(const modrun *r, int found, size_t k)
{
	size_t first, last, c;
	int covered;

	if (!found)
		return replace_missing(r);
	covered = r->content.n ? result_covers(r, k, &r->content, &no_lines, &c) : 0;
	if (covered < 0)
		return -1;
	if (covered)
		return skip(r, line_of(r, c), "the content is already there");
	if (locate_region(r, k, &first, &last) < 0 ||
	    splice_content(r, first, last - first + 1, r->f.at[k], 1) < 0)
		return -1;
	return landed(r, k);
}

static int do_insert(const modrun *r, int found, size_t k, int after)
{
	size_t first, last, c;
	int done;

	if (!found)
		return primary_not_found(r);
	done = after ? result_covers(r, k, &r->primary, &r->content, &c)
		     : result_covers(r, k, &r->content, &r->primary, &c);
	if (done < 0)
		return -1;
	if (done)
		return skip(r, line_of(r, k), after ? "the content already follows the snippet"
						    : "the content already precedes the snippet");
	if (locate_region(r, k, &first, &last) < 0 ||
	    splice_content(r, after ? last + 1 : first, 0, r->f.at[k], 1) < 0)
		return -1;
	return landed(r, k);
}

/* ---------- one modification ---------- */

static const char *action_name(aa_ap_action a)
{
	switch (a) {
	case AA_AP_REPLACE: return "REPLACE";
	case AA_AP_INSERT_AFTER: return "INSERT_AFTER";
	case AA_AP_INSERT_BEFORE: return "INSERT_BEFORE";
	case AA_AP_DELETE: return "DELETE";
	}
	return "?";
}

/* What the parser guarantees, checked again: ops may come from elsewhere. */
static int check_fields(const modrun *r)
{
	const aa_apmod *m = r->m;
	const char *why = NULL;

	if (!m->snippet && !(m->start_snippet && m->end_snippet))
		why = "no snippet";
	else if (m->snippet && (m->start_snippet || m->end_snippet))
		why = "both a snippet and a range";
	else if (m->action != AA_AP_DELETE && !m->content)
		why = "no content";
	else if (m->leading_blank_lines < 0 || m->trailing_blank_lines < 0)
		why = "a negative blank-line count";
	else if ((unsigned)m->action > AA_AP_DELETE)
		why = "an unknown action";
	if (why)
		return aa_error(r->cx->diags, m->pos, r->cx->path,
				"%s: modification has %s", r->action, why);
	return 0;
}

static int empty_needle(const modrun *r, const needle *nd)
{
	return aa_error(r->cx->diags, r->m->pos, r->cx->path,
			"%s: %s is empty (only blank lines)", r->action, nd->name);
}

static int prepare(modrun *r)
{
	const aa_apmod *m = r->m;

	if (fview_build(&r->f, r->t) < 0 ||
	    needle_init(&r->anchor, "anchor", m->anchor) < 0 ||
	    needle_init(&r->primary, m->snippet ? "snippet" : "start_snippet",
			m->snippet ? m->snippet : m->start_snippet) < 0 ||
	    needle_init(&r->end, "end_snippet", m->snippet ? NULL : m->end_snippet) < 0 ||
	    needle_init(&r->content, "content", m->content) < 0)
		return oom(r);
	if (m->anchor && !r->anchor.n)
		return empty_needle(r, &r->anchor);
	if (!r->primary.n)
		return empty_needle(r, &r->primary);
	if (m->start_snippet && !r->end.n)
		return empty_needle(r, &r->end);
	return 0;
}

static int apply_mod(aa_text *t, const aa_apmod *m, aa_edit_ctx *cx)
{
	modrun r;
	size_t k = 0;
	int found, rc = -1;

	memset(&r, 0, sizeof(r));
	r.t = t;
	r.m = m;
	r.cx = cx;
	r.action = action_name(m->action);
	if (check_fields(&r) < 0 || prepare(&r) < 0)
		goto out;
	if (m->anchor && locate_anchor(&r) < 0)
		goto out;
	found = locate_snippet(&r, &r.primary, &k);
	if (found < 0)
		goto out;
	switch (m->action) {
	case AA_AP_DELETE:
		rc = do_delete(&r, found, k);
		break;
	case AA_AP_REPLACE:
		rc = do_replace(&r, found, k);
		break;
	case AA_AP_INSERT_AFTER:
	case AA_AP_INSERT_BEFORE:
		rc = do_insert(&r, found, k, m->action == AA_AP_INSERT_AFTER);
		break;
	}
out:
	fview_free(&r.f);
	needle_free(&r.anchor);
	needle_free(&r.primary);
	needle_free(&r.end);
	needle_free(&r.content);
	return rc;
}

static size_t text_size(const aa_text *t)
{
	size_t i, total = 0;

	for (i = 0; i < t->n; i++)
		total += t->lines[i].len + 2;
	return total;
}

int aa_edit_ap(aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	size_t i;

	for (i = 0; i < op->napmods; i++) {
		if (apply_mod(t, &op->apmods[i], cx) < 0)
			return -1;
		if (text_size(t) > AA_MAX_TEXT_SIZE)
			return aa_error(cx->diags, op->apmods[i].pos, cx->path,
					"the result is too large for a text edit");
	}
	if (op->strip_trailing_ws)
		return aa_text_strip_trailing_ws(t);
	return 0;
}

int aa_text_strip_trailing_ws(aa_text *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		t->lines[i].len = aa_rtrim(t->lines[i].s, t->lines[i].len,
					   aa_is_blank);
	return 0;
}
