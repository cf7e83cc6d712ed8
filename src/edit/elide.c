/*
 * Elisions: a whole-file replacement that skips unchanged parts with a
 * placeholder line (`// ... existing code ...`, `# ... rest of the file
 * unchanged`, a block comment of dots, `<!-- ... -->`, `...` alone) must never be
 * written literally: that is how answers gut files. Each elision stands
 * for the original lines between the lines around it. It is resolved
 * when the nearest non-blank line before it and the one after it each
 * occur exactly once in the original (exactly, else with trailing, else
 * with all surrounding white space ignored), in order; the original
 * lines between them are put back (byte for byte, each with its own line
 * ending) in place of the elision and the blank lines around it.
 * Otherwise the edit is refused, naming the elision's line and why.
 *
 * A line that occurs in the original as it stands is content, never an
 * elision. So is a placeholder only by its words (no ellipsis: "// c:
 * unchanged") that stands for nothing, its anchors adjacent in the
 * original: ordinary comments say such words too, and dropping a line
 * the answer wrote is a silent loss (resolve_one). The original's
 * lines are hashed once into a table per white space level (built on
 * first use), so resolving is linear in the size of the file and of the
 * answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "edit/edit.h"
#include "edit/locate.h"
#include "util/util.h"

#define QUOTE_MAX 80
#define MAX_LISTED 5

/* ---------- what an elision looks like ---------- */

static int ends(const char *s, size_t len, const char *p)
{
	size_t n = strlen(p);

	return len >= n && !memcmp(s + len - n, p, n);
}

/* An ellipsis in s: "..." or U+2026. */
static int has_ellipsis(const char *s, size_t len)
{
	return aa_ci_contains(s, len, "...") || aa_ci_contains(s, len, "\xe2\x80\xa6");
}

/* Only dots, ellipses and blanks, with at least one ellipsis. */
static int only_ellipsis(const char *s, size_t len)
{
	size_t i;

	if (!has_ellipsis(s, len))
		return 0;
	for (i = 0; i < len; i++) {
		if (s[i] == '.' || aa_is_blank_cr(s[i]))
			continue;
		if (i + 2 < len && !memcmp(s + i, "\xe2\x80\xa6", 3)) {
			i += 2;
			continue;
		}
		return 0;
	}
	return 1;
}

static size_t words(const char *s, size_t len)
{
	size_t i, k = 0;

	for (i = 0; i < len; i++)
		if (!aa_is_blank_cr(s[i]) && (i == 0 || aa_is_blank_cr(s[i - 1])))
			k++;
	return k;
}

/*
 * What placeholder comments say: AA_ELISION_ELLIPSIS with an ellipsis,
 * AA_ELISION_WORDS when only a phrase says it ("rest of", "unchanged"),
 * which ordinary comments say too (see aa_elision_kind).
 */
static int says_any(const char *s, size_t len, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (aa_ci_contains(s, len, list[i]))
			return 1;
	return 0;
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* One of the words in list, as a whole word ("rest", not "restore"). */
static int says_word(const char *s, size_t len, const char *const *list, size_t n)
{
	size_t i, at, w;

	for (i = 0; i < n; i++) {
		w = strlen(list[i]);
		for (at = 0; w <= len && at <= len - w; at++)
			if (aa_ci_starts_with(s + at, len - at, list[i]) &&
			    (at == 0 || !word_char(s[at - 1])) &&
			    (at + w == len || !word_char(s[at + w])))
				return 1;
	}
	return 0;
}

/* The comment's text opens with an ellipsis ("... existing code", "[...]"). */
static int opens_with_ellipsis(const char *s, size_t len)
{
	while (len && (*s == '[' || *s == '(' || aa_is_blank_cr(*s))) {
		s++;
		len--;
	}
	return (len >= 3 && !memcmp(s, "...", 3)) ||
	       (len >= 3 && !memcmp(s, "\xe2\x80\xa6", 3));
}

/*
 * An ellipsis makes a placeholder when it opens the comment ("// ...
 * handle errors ...") or the comment says what is left out ("//
 * existing code...", "# other cases..."). A sentence that trails off
 * ("// and then we wait for it...", "// (7th April 2026)...") is the
 * answer's own comment: taken for a placeholder it was dropped where
 * its neighbours were adjacent in the original (the edit then "already
 * applied") or refused where they were new lines.
 */
static int says_skipped(const char *s, size_t len)
{
	static const char *const phrases[] = {
		"existing code", "rest of", "unchanged", "remains the same",
		"remain the same", "same as before", "omitted", "previous code",
		"other methods", "other code", "keep existing", "code here",
		"as before", "no changes", "truncated",
	};
	/* with an ellipsis only: alone these words are ordinary comments */
	static const char *const with_dots[] = {
		"existing", "rest", "remaining", "other", "same", "previous",
		"more", "etc", "and so on", "similar", "snip", "skipped", "elided",
		"unchanged", "omitted", "others", "remainder",
	};
	int said;

	if (words(s, len) > 12)
		return 0;
	said = says_any(s, len, phrases, sizeof(phrases) / sizeof(*phrases));
	if (has_ellipsis(s, len) &&
	    (said || opens_with_ellipsis(s, len) ||
	     says_word(s, len, with_dots, sizeof(with_dots) / sizeof(*with_dots))))
		return AA_ELISION_ELLIPSIS;
	return said ? AA_ELISION_WORDS : AA_ELISION_NONE;
}

/* The comment's text without its markers, or 0 when it is no comment. */
static int comment_body(const char *s, size_t len, const char **b, size_t *n)
{
	static const char *const open[] = {
		"{/*", "/*", "<!--", "//", "#", "--", ";", "%", "(*", "'",
	};
	static const char *const close[] = { "*/}", "*/", "-->", "*)" };
	size_t i;

	for (i = 0; i < sizeof(open) / sizeof(*open); i++)
		if (aa_starts_with(s, len, open[i]))
			break;
	if (i == sizeof(open) / sizeof(*open))
		return 0;
	s += strlen(open[i]);
	len -= strlen(open[i]);
	for (i = 0; i < sizeof(close) / sizeof(*close); i++)
		if (ends(s, len, close[i])) {
			len -= strlen(close[i]);
			break;
		}
	while (len && (aa_is_blank_cr(*s) || *s == '/' || *s == '#' || *s == '*')) {
		s++;
		len--;
	}
	while (len && aa_is_blank_cr(s[len - 1]))
		len--;
	*b = s;
	*n = len;
	return 1;
}

/* Targets where "..." alone is content: prose, and Python's Ellipsis. */
static int bare_dots_are_content(const char *path)
{
	static const char *const exts[] = {
		".md", ".markdown", ".mdx", ".rst", ".txt", ".adoc", ".py",
		".pyi", ".ipynb",
	};
	size_t i, n = path ? strlen(path) : 0;

	for (i = 0; i < sizeof(exts) / sizeof(*exts); i++)
		if (ends(path ? path : "", n, exts[i]))
			return 1;
	return 0;
}

/* The first byte of every placeholder: a comment opener, '.', or '…'. */
static int may_open(unsigned char c)
{
	return c == '/' || c == '#' || c == '<' || c == '-' || c == ';' ||
	       c == '%' || c == '{' || c == '(' || c == '\'' || c == '.' ||
	       c == 0xe2;
}

int aa_elision_kind(const char *s, size_t len, const char *path)
{
	const char *b;
	size_t n;

	while (len && aa_is_blank_cr(*s)) {
		s++;
		len--;
	}
	/* most lines are code: out at their first byte */
	if (!len || !may_open((unsigned char)*s))
		return 0;
	while (len && aa_is_blank_cr(s[len - 1]))
		len--;
	if (only_ellipsis(s, len))
		return bare_dots_are_content(path) ? AA_ELISION_NONE :
		       AA_ELISION_ELLIPSIS;
	if (!comment_body(s, len, &b, &n) || !n)
		return AA_ELISION_NONE;
	if (only_ellipsis(b, n))
		return AA_ELISION_ELLIPSIS;
	return says_skipped(b, n);
}

int aa_is_elision(const char *s, size_t len, const char *path)
{
	return aa_elision_kind(s, len, path) != AA_ELISION_NONE;
}

int aa_has_elision(const char *s, size_t len, const char *path)
{
	const char *p = s, *e = s + len, *nl;

	for (; p < e; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			nl = e;
		if (aa_is_elision(p, (size_t)(nl - p), path))
			return 1;
	}
	return 0;
}

/* ---------- the original's lines, by hash ---------- */

typedef struct slot {
	uint32_t hash;
	uint32_t used;
	size_t first;       /* the first line with this content */
	size_t count;
} slot;

typedef struct original {
	const aa_text *t;
	aa_lrec *recs;
	slot *tab[AA_WS_LEVELS];
	size_t mask;
} original;

static void original_free(original *o)
{
	int lv;

	free(o->recs);
	for (lv = 0; lv < AA_WS_LEVELS; lv++)
		free(o->tab[lv]);
}

static int original_init(original *o, const aa_text *t)
{
	size_t cap = 16;

	memset(o, 0, sizeof(*o));
	o->t = t;
	while (cap < 2 * t->n)
		cap *= 2;
	o->mask = cap - 1;
	o->recs = aa_lrecs_of_text(t);
	return o->recs ? 0 : -1;
}

/* The slot of a line equal to r at level lv (an empty slot when none). */
static slot *probe(original *o, aa_ws lv, const aa_lrec *r)
{
	size_t i = r->h[lv] & o->mask;
	slot *tab = o->tab[lv];

	while (tab[i].used && !(tab[i].hash == r->h[lv] &&
				aa_lrec_eq(&o->recs[tab[i].first], r, lv)))
		i = (i + 1) & o->mask;
	return &tab[i];
}

static int build_table(original *o, aa_ws lv)
{
	size_t i;

	o->tab[lv] = calloc(o->mask + 1, sizeof(slot));
	if (!o->tab[lv])
		return -1;
	for (i = 0; i < o->t->n; i++) {
		slot *s = probe(o, lv, &o->recs[i]);

		if (!s->used) {
			s->used = 1;
			s->hash = o->recs[i].h[lv];
			s->first = i;
		}
		s->count++;
	}
	return 0;
}

/* ---------- resolving ---------- */

/* One answer line. */
typedef struct aline {
	const char *s;
	size_t len;
	int elision;
	int by_words;   /* a placeholder by its words only, no ellipsis */
} aline;

typedef struct resolver {
	const aa_op *op;
	aa_edit_ctx *cx;
	original o;
	aline *v;
	size_t n;
	aa_line *out;
	size_t nout, cap;
} resolver;

static int split_answer(resolver *r)
{
	const char *p = r->op->content, *e = p + r->op->content_len, *nl;
	size_t k = 0, cap = 1;

	for (nl = p; nl < e; nl++)
		cap += *nl == '\n';
	r->v = calloc(cap, sizeof(*r->v));
	if (!r->v)
		return -1;
	for (; p < e; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			nl = e;
		r->v[k].s = p;
		r->v[k].len = (size_t)(nl - p);
		k++;
	}
	r->n = k;
	return 0;
}

/* 1 when the line s[0..len) is a line of the original, byte for byte. */
static int in_original(original *o, const char *s, size_t len)
{
	aa_lrec r;
	slot *sl;

	aa_lrec_set(&r, s, len, AA_EOL_LF);
	if (!o->tab[AA_WS_EXACT] && build_table(o, AA_WS_EXACT) < 0)
		return -1;
	sl = probe(o, AA_WS_EXACT, &r);
	return sl->used != 0;
}

/* Marks the elisions: placeholder lines that are not in the original. */
static int mark_elisions(resolver *r)
{
	size_t i;
	int k, kind;

	for (i = 0; i < r->n; i++) {
		kind = aa_elision_kind(r->v[i].s, r->v[i].len, r->op->path);
		if (kind == AA_ELISION_NONE)
			continue;
		if ((k = in_original(&r->o, r->v[i].s, r->v[i].len)) < 0)
			return -1;
		r->v[i].elision = !k;
		r->v[i].by_words = !k && kind == AA_ELISION_WORDS;
	}
	return 0;
}

/* The input line of answer line i (aa_op.content_at). */
static aa_pos answer_pos(const resolver *r, size_t i)
{
	aa_pos p = r->op->pos;

	if (!p.line || r->op->content_at == AA_CONTENT_NO_LINES)
		return p;
	p.line += (long)i + (r->op->content_at == AA_CONTENT_AFTER_POS);
	return p;
}

static int push(resolver *r, aa_line l)
{
	if (AA_GROW(r->out, r->nout, r->cap) < 0)
		return -1;
	r->out[r->nout++] = l;
	return 0;
}

static int push_answer(resolver *r, size_t i)
{
	aa_line l;
	size_t len = r->v[i].len;

	l.eol = aa_line_own_eol(r->v[i].s, &len, r->o.t->dominant);
	l.s = r->v[i].s;
	l.len = (uint32_t)len;
	return push(r, l);
}

static int blank(const aline *a)
{
	return aa_line_is_blank(a->s, a->len);
}

static int elision_error(resolver *r, size_t i, const char *why,
			 size_t anchor, long count)
{
	aa_buf b = AA_BUF_INIT;
	size_t k, listed = 0;
	int ret;

	if (count > 1) {
		aa_lrec want;

		aa_lrec_set(&want, r->v[anchor].s, r->v[anchor].len, AA_EOL_LF);
		for (k = 0; k < r->o.t->n && listed < MAX_LISTED; k++)
			if (aa_lrec_eq(&r->o.recs[k], &want, AA_WS_BOTH))
				aa_buf_printf(&b, "%s%zu", listed++ ? ", " : "", k + 1);
	}
	if (count > 1)
		ret = aa_error(r->cx->diags, answer_pos(r, i), r->cx->path,
			       "the elision %s cannot be resolved: the line %s it "
			       "%s occurs %ld times in the file (lines %s%s)",
			       aa_qtext(r->v[i].s, r->v[i].len, QUOTE_MAX),
			       aa_qtext(r->v[anchor].s, r->v[anchor].len, QUOTE_MAX),
			       why, count, b.ptr ? b.ptr : "",
			       count > MAX_LISTED ? ", ..." : "");
	else
		ret = aa_error(r->cx->diags, answer_pos(r, i), r->cx->path,
			       "the elision %s cannot be resolved: %s",
			       aa_qtext(r->v[i].s, r->v[i].len, QUOTE_MAX), why);
	aa_buf_free(&b);
	return ret;
}

/*
 * Where the answer lines [from, from + cnt) are in the original: the
 * number of places at the first white-space level that has any, the
 * first in *at; -1 on out-of-memory.
 */
static long locate_run(resolver *r, size_t from, size_t cnt, size_t *at)
{
	aa_lrec *v = malloc(cnt * sizeof(*v));
	aa_needle nd = AA_NEEDLE_INIT(v, cnt);
	aa_lview view;
	size_t k, hits[1];
	long found = 0;
	int lv;

	if (!v)
		return -1;
	for (k = 0; k < cnt; k++)
		aa_lrec_set(&v[k], r->v[from + k].s, r->v[from + k].len, AA_EOL_LF);
	memset(&view, 0, sizeof(view));
	view.seg[0] = r->o.recs;
	view.nseg[0] = r->o.t->n;
	for (lv = AA_WS_EXACT; lv < AA_WS_LEVELS && !found; lv++)
		found = aa_locate_all(&view, &nd, (aa_ws)lv, hits, 1);
	if (found > 0)
		*at = hits[0];
	aa_needle_release(&nd);
	free(v);
	return found;
}

/*
 * The anchor on one side of elision e: the answer lines next to it, as
 * few as make them unique in the original (1, 2, 4, ... up to the whole
 * part of the answer on that side). `lo`..`hi` is that part; the anchor
 * lines end at `hi` (side "follows") or start at `lo` ("precedes").
 * 0 with *at = the original line next to the elision, -1 on error.
 */
static int anchor_run(resolver *r, size_t e, size_t lo, size_t hi,
		      int before, size_t *at)
{
	size_t k = 1, len = hi - lo, from, hit = 0;
	const char *side = before ? "follows" : "precedes";
	long found = 0, single = 0;

	for (;;) {
		if (k > len)
			k = len;
		from = before ? hi - k : lo;
		found = locate_run(r, from, k, &hit);
		if (found < 0)
			return aa_error(r->cx->diags, answer_pos(r, e),
					r->cx->path, "out of memory");
		if (found == 1) {
			*at = before ? hit + k - 1 : hit;
			return 0;
		}
		if (k == 1)
			single = found;
		if (!found || k == len)
			break;
		k *= 2;
	}
	if (single > 1)  /* the line itself is there, but not once */
		return elision_error(r, e, side, before ? hi - 1 : lo, single);
	if (!found) {
		aa_buf b = AA_BUF_INIT;
		int ret;

		aa_buf_printf(&b, "the line%s %s it %s %s not in the file",
			      k > 1 ? "s" : "",
			      aa_qtext(r->v[before ? hi - 1 : lo].s,
				       r->v[before ? hi - 1 : lo].len, QUOTE_MAX),
			      side, k > 1 ? "are" : "is");
		ret = elision_error(r, e, b.ptr ? b.ptr : side, 0, 0);
		aa_buf_free(&b);
		return ret;
	}
	return elision_error(r, e, side, before ? hi - 1 : lo, found);
}

/* 1 when the run [i, j) has no ellipsis line: only worded ones. */
static int only_worded(const resolver *r, size_t i, size_t j)
{
	for (; i < j; i++)
		if (r->v[i].elision && !r->v[i].by_words)
			return 0;
	return 1;
}

/* Emits the answer lines of [i, j) that are worded placeholders. */
static int push_worded(resolver *r, size_t i, size_t j)
{
	for (; i < j; i++)
		if (r->v[i].by_words && push_answer(r, i) < 0)
			return -1;
	return 0;
}

/*
 * Resolves the elision (or run of elisions and blank lines) [i, j) and
 * emits it: the original lines between the anchors around it. `*floor`
 * is the original line after the previous resolution.
 */
static int resolve_one(resolver *r, size_t i, size_t j, size_t seg,
		       size_t *floor)
{
	size_t before = i, after = j, pb = 0, qa = r->o.t->n, k, end;
	int has_before = 0, has_after = 0, nothing;

	while (before > seg && blank(&r->v[before - 1]))
		before--;
	if (before > seg) {
		has_before = 1;
		if (anchor_run(r, i, seg, before, 1, &pb) < 0)
			return -1;
	}
	while (after < r->n && blank(&r->v[after]))
		after++;
	for (end = after; end < r->n && !r->v[end].elision; end++)
		;
	while (end > after && blank(&r->v[end - 1]))
		end--;
	if (end > after) {
		has_after = 1;
		if (anchor_run(r, i, after, end, 0, &qa) < 0)
			return -1;
	}
	if (!has_before && !has_after)
		return elision_error(r, i, "nothing around it to place it by", 0, 0);
	if (has_before && pb + 1 > qa)
		return elision_error(r, i, "the lines around it are not in "
				     "that order in the file", 0, 0);
	if (has_before && pb < *floor && *floor)
		return elision_error(r, i, "the line before it lies before "
				     "an earlier part of the answer in the file", 0, 0);
	/*
	 * A run that stands for no lines of the original (its anchors are
	 * adjacent there, or it is before the first line or after the last)
	 * has nothing to put back: its lines that are placeholders only by
	 * their words ("// c: unchanged", "// keep existing behaviour") are
	 * the answer's own comments and stay as they stand. A run of those
	 * only stays whole, blank lines and all; one with an ellipsis line
	 * loses the ellipsis lines and the blank lines, as it always did.
	 */
	nothing = qa == (has_before ? pb + 1 : 0);
	if (nothing && only_worded(r, i, j)) {
		*floor = qa;
		for (k = i; k < j; k++)
			if (push_answer(r, k) < 0)
				return -1;
		return 0;
	}
	/* drop the answer's blank lines around it: the original has its own */
	while (r->nout && blank(&r->v[before]) && before < i) {
		before++;
		r->nout--;
	}
	if (nothing && push_worded(r, i, j) < 0)
		return -1;
	for (k = has_before ? pb + 1 : 0; k < qa; k++)
		if (push(r, r->o.t->lines[k]) < 0)
			return -1;
	*floor = qa;
	if (aa_edit_landing_add(r->cx, answer_pos(r, i), has_before ?
				(long)pb + 2 : 1, 0, AA_HOW_CONTENT) < 0)
		return -1;
	return (int)(after - j);
}

static int resolve_all(resolver *r)
{
	size_t i = 0, j, floor = 0, seg = 0;
	int skip, failed = 0;

	while (i < r->n) {
		if (!r->v[i].elision) {
			if (push_answer(r, i) < 0)
				return -1;
			i++;
			continue;
		}
		/* a run of elisions and blank lines is one elision */
		for (j = i + 1; j < r->n && (r->v[j].elision || blank(&r->v[j])); j++)
			;
		while (j > i + 1 && blank(&r->v[j - 1]))
			j--;
		skip = resolve_one(r, i, j, seg, &floor);
		if (skip < 0) {
			failed = 1;
			skip = 0;
		}
		i = j + (size_t)skip;
		seg = i;
	}
	return failed ? -1 : 0;
}

/*
 * An op whose unresolved elisions are content (aa_op.
 * elisions_may_be_content, the seed formats' replacements: see
 * src/format/extract.c): the reasons go out as warnings and the
 * answer's lines are used as they are.
 */
static int resolve_or_keep(resolver *r)
{
	aa_diags quiet = AA_DIAGS_INIT;
	aa_diags *real = r->cx->diags;
	size_t i;
	int ret;

	if (!r->op->elisions_may_be_content)
		return resolve_all(r);
	r->cx->diags = &quiet;
	ret = resolve_all(r);
	r->cx->diags = real;
	for (i = 0; ret < 0 && i < quiet.n; i++)
		aa_warn(real, r->op->pos, r->cx->path, "%s; the content is "
			"written as it stands", quiet.v[i].msg);
	aa_diags_free(&quiet);
	if (ret < 0) {
		r->nout = 0;
		for (i = 0; i < r->n; i++)
			if (push_answer(r, i) < 0)
				return aa_error(real, r->op->pos, r->cx->path,
						"out of memory");
	}
	return 0;
}

int aa_edit_elide(aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	resolver r;
	int ret = -1;

	memset(&r, 0, sizeof(r));
	r.op = op;
	r.cx = cx;
	if (original_init(&r.o, t) < 0 || split_answer(&r) < 0 ||
	    mark_elisions(&r) < 0) {
		aa_error(cx->diags, op->pos, cx->path, "out of memory");
		goto out;
	}
	if (resolve_or_keep(&r) < 0)
		goto out;
	/* the file keeps its final-newline state */
	if (r.nout && t->n && t->lines[t->n - 1].eol == AA_EOL_NONE &&
	    r.out[r.nout - 1].eol != AA_EOL_NONE &&
	    r.out[r.nout - 1].s != t->lines[t->n - 1].s)
		r.out[r.nout - 1].eol = AA_EOL_NONE;
	if (aa_text_splice(t, 0, t->n, r.out, r.nout) < 0) {
		aa_error(cx->diags, op->pos, cx->path, "out of memory");
		goto out;
	}
	cx->applied++;
	ret = 0;
out:
	original_free(&r.o);
	free(r.v);
	free(r.out);
	return ret;
}

/* ---- elisions in a hunk's added lines ---- */

/* The hunk's added lines become the lines of t; the others stay. */
static int set_added(aa_hunk *h, const aa_text *t)
{
	size_t k, n = 0;

	for (k = 0; k < h->nlines; k++) {
		if (h->lines[k].kind == '+')
			free(h->lines[k].text);
		else
			h->lines[n++] = h->lines[k];
	}
	h->nlines = n;
	for (k = 0; k < t->n; k++) {
		aa_buf b = AA_BUF_INIT;
		int r = aa_buf_put(&b, t->lines[k].s, t->lines[k].len);

		/* a CR that was content comes back as the line's ending */
		if (r >= 0 && t->lines[k].eol == AA_EOL_CRLF)
			r = aa_buf_putc(&b, '\r');
		if (r >= 0)
			r = aa_hunk_add_line(h, '+', b.ptr ? b.ptr : "", b.len);
		aa_buf_free(&b);
		if (r < 0)
			return -1;
	}
	h->new_count = (long)t->n;
	return 0;
}

int aa_hunk_has_elisions(const aa_hunk *h, const char *path)
{
	size_t k;

	if (!h->may_elide)
		return 0;
	for (k = 0; k < h->nlines; k++)
		if (h->lines[k].kind == '+' &&
		    aa_is_elision(h->lines[k].text, h->lines[k].len, path))
			return 1;
	return 0;
}

/*
 * The removed lines are the original the added side's elisions are
 * resolved against, as a whole file's are against the file: the same
 * resolver, on an op whose content is the added side (no format: its
 * lines are numbered from added_pos, and an elision it cannot resolve
 * is an error).
 */
int aa_hunk_resolve_elisions(aa_hunk *h, const char *path,
			     const char *shown, aa_diags *d)
{
	aa_buf removed = AA_BUF_INIT, added = AA_BUF_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx;
	aa_op tmp;
	const char *why = NULL;
	int ret = 0;

	if (!aa_hunk_has_elisions(h, path))
		return 0;
	memset(&cx, 0, sizeof(cx));
	memset(&tmp, 0, sizeof(tmp));
	cx.path = shown;
	cx.diags = d;
	tmp.path = (char *)path;
	tmp.pos = h->added_pos;
	if (aa_hunk_side_text(h, '-', &removed) < 0 ||
	    aa_hunk_side_text(h, '+', &added) < 0 ||
	    aa_text_decode(&t, removed.ptr ? removed.ptr : "", removed.len, &why) < 0) {
		ret = aa_oom(d, h->pos, shown);
		goto out;
	}
	tmp.content = added.ptr;
	tmp.content_len = added.len;
	if (aa_edit_elide(&t, &tmp, &cx) < 0)
		ret = -1;
	else if (set_added(h, &t) < 0)
		ret = aa_oom(d, h->pos, shown);
out:
	aa_edit_ctx_release(&cx);
	aa_text_free(&t);
	aa_buf_free(&removed);
	aa_buf_free(&added);
	return ret;
}

/* ---- a whole file that is only an excerpt ---- */

/* The non-blank lines of a text, blanks at both ends ignored. */
typedef struct trimmed {
	XXH64_hash_t *h;      /* hash of each line's text */
	size_t *lineno;       /* its 1-based line in the text */
	size_t n;
} trimmed;

#define EXCERPT_MIN_LINES 6   /* smaller files are often rewritten whole */

static int trimmed_init(trimmed *t, const char *s, size_t len)
{
	size_t cap = 1, i, line = 0;

	for (i = 0; i < len; i++)
		cap += s[i] == '\n';
	t->n = 0;
	t->h = malloc(cap * sizeof(*t->h));
	t->lineno = malloc(cap * sizeof(*t->lineno));
	if (!t->h || !t->lineno)
		return -1;
	while (len) {
		const char *nl = memchr(s, '\n', len);
		size_t l = nl ? (size_t)(nl - s) : len, off, n;

		line++;
		aa_ws_span(s, l, AA_WS_BOTH, &off, &n);
		if (n) {
			t->h[t->n] = XXH3_64bits(s + off, n);
			t->lineno[t->n++] = line;
		}
		s += l + (nl != NULL);
		len -= l + (nl != NULL);
	}
	return 0;
}

static void trimmed_free(trimmed *t)
{
	free(t->h);
	free(t->lineno);
}

static int cmp_hash(const void *a, const void *b)
{
	XXH64_hash_t x = *(const XXH64_hash_t *)a, y = *(const XXH64_hash_t *)b;

	return x < y ? -1 : x > y;
}

static XXH64_hash_t *sorted_copy(const XXH64_hash_t *h, size_t n)
{
	XXH64_hash_t *v = malloc((n ? n : 1) * sizeof(*v));

	if (v) {
		memcpy(v, h, n * sizeof(*v));
		qsort(v, n, sizeof(*v), cmp_hash);
	}
	return v;
}

static int has_hash(const XXH64_hash_t *sorted, size_t n, XXH64_hash_t h)
{
	return bsearch(&h, sorted, n, sizeof(*sorted), cmp_hash) != NULL;
}

/*
 * How many of the file's lines outside [a, b] the block has anyway,
 * not counting lines the span [a, b] has too (a "}" is everywhere);
 * -1: out of memory.
 */
static long dropped_in_block(const trimmed *f, size_t a, size_t b,
			     const trimmed *blk)
{
	XXH64_hash_t *in_blk = sorted_copy(blk->h, blk->n);
	XXH64_hash_t *in_span = sorted_copy(f->h + a, b - a + 1);
	size_t i;
	long found = 0;

	if (!in_blk || !in_span)
		found = -1;
	for (i = 0; found >= 0 && i < f->n; i++)
		if ((i < a || i > b) && has_hash(in_blk, blk->n, f->h[i]) &&
		    !has_hash(in_span, b - a + 1, f->h[i]))
			found++;
	free(in_blk);
	free(in_span);
	return found;
}

/* How many of the block's lines the file's span [a, b] has; -1: OOM. */
static long block_in_span(const trimmed *f, size_t a, size_t b,
			  const trimmed *blk)
{
	XXH64_hash_t *in_span = sorted_copy(f->h + a, b - a + 1);
	size_t i;
	long found = 0;

	if (!in_span)
		return -1;
	for (i = 0; i < blk->n; i++)
		found += has_hash(in_span, b - a + 1, blk->h[i]);
	free(in_span);
	return found;
}

/*
 * Where the block's last line is in the file: of its places from a on,
 * the one nearest to where a block of its length would end (a closing
 * "}" stands everywhere), the later one on a tie. SIZE_MAX: none.
 */
static size_t span_end(const trimmed *f, size_t a, const trimmed *blk)
{
	size_t want = a + blk->n - 1, best = SIZE_MAX, bestd = SIZE_MAX, j;

	for (j = a; j < f->n; j++) {
		size_t d = j > want ? j - want : want - j;

		if (f->h[j] == blk->h[blk->n - 1] && d <= bestd) {
			best = j;
			bestd = d;
		}
	}
	return best;
}

static int excerpt_of(const trimmed *f, const trimmed *blk, aa_excerpt *out)
{
	size_t a, b, dropped;
	long moved, kept;

	if (f->n < EXCERPT_MIN_LINES || !blk->n)
		return 0;
	for (a = 0; a < f->n && f->h[a] != blk->h[0]; a++)
		;
	if (a == f->n || (b = span_end(f, a, blk)) == SIZE_MAX)
		return 0;
	dropped = a + (f->n - 1 - b);
	if (!dropped || dropped * 2 <= f->n)
		return 0;
	/* a block that has most of those lines elsewhere moved them: a rewrite */
	moved = dropped_in_block(f, a, b, blk);
	kept = block_in_span(f, a, b, blk);
	if (moved < 0 || kept < 0)
		return -1;
	if ((size_t)moved * 4 > dropped)
		return 0;
	/* an excerpt copies its part of the file; a rewrite has new lines */
	if ((size_t)kept * 2 < blk->n)
		return 0;
	out->first = f->lineno[a];
	out->last = f->lineno[b];
	out->dropped = dropped;
	out->total = f->n;
	return 1;
}

int aa_looks_like_excerpt(const char *file, size_t file_len,
			  const char *block, size_t block_len, aa_excerpt *out)
{
	trimmed f, blk;
	int r = -1;

	memset(&f, 0, sizeof(f));
	memset(&blk, 0, sizeof(blk));
	if (trimmed_init(&f, file, file_len) == 0 &&
	    trimmed_init(&blk, block, block_len) == 0)
		r = excerpt_of(&f, &blk, out);
	trimmed_free(&f);
	trimmed_free(&blk);
	return r;
}
