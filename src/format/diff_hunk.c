/*
 * The diff parser's line cursor and hunk reader: "@@ -a,b +c,d @@"
 * headers (or bare "@@"), and bodies read by their header counts, or,
 * when the body disagrees with them, recounted from the body itself.
 */
#include <stdlib.h>
#include <string.h>

#include "aiapply/common.h"
#include "change/changeset.h"
#include "format/diff_int.h"
#include "util/util.h"

/* ---- the line cursor ---------------------------------------------- */

static void read_line(const aa_dparser *P, size_t off, long lineno,
		      aa_dline *l)
{
	const char *s = P->b->data + off;
	size_t rest = P->b->len - off, len, k;
	const char *nl = memchr(s, '\n', rest);

	len = nl ? (size_t)(nl - s) : rest;
	l->next = nl ? off + len + 1 : P->b->len;
	/* "\r\n": structure ignores the "\r", a hunk line keeps it */
	l->cr = nl && len && s[len - 1] == '\r';
	len -= l->cr;
	for (k = 0; k < P->strip && k < len && s[k] == ' '; k++)
		;
	l->s = s + k;
	l->len = len - k;
	l->lineno = lineno;
}

int aa_diff_peek(const aa_dparser *P, unsigned n, aa_dline *l)
{
	size_t off = P->off;
	long lineno = P->lineno;
	unsigned i;

	for (i = 0;; i++) {
		if (off >= P->b->len)
			return 0;
		read_line(P, off, lineno, l);
		if (i == n)
			return 1;
		off = l->next;
		lineno++;
	}
}

void aa_diff_advance(aa_dparser *P, const aa_dline *l)
{
	P->off = l->next;
	P->lineno = l->lineno + 1;
}

aa_pos aa_diff_pos(const aa_dparser *P, long lineno)
{
	aa_pos pos;

	pos.input = P->b->in ? P->b->in->name : NULL;
	pos.line = lineno;
	return pos;
}

int aa_diff_take(aa_dparser *P, const aa_dline *l)
{
	if (l->len > AA_MAX_LINE_LENGTH)
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				"line too long (more than %u bytes)",
				AA_MAX_LINE_LENGTH);
	aa_diff_advance(P, l);
	return 0;
}

int aa_diff_starts(const aa_dline *l, const char *lit)
{
	size_t n = strlen(lit);

	return l->len >= n && !memcmp(l->s, lit, n);
}

/* ---- hunk header ---------------------------------------------------- */

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && aa_is_blank(*p))
		p++;
	return p;
}

int aa_diff_is_hunk_header(const aa_dparser *P, const aa_dline *l)
{
	const char *end = l->s + l->len, *p;

	if (!aa_diff_starts(l, "@@"))
		return 0;
	if (P->o->strict)
		return 1; /* the contract reads and judges every "@@" line */
	p = skip_blanks(l->s + 2, end);
	return p == end || (*p != '+' && (*p < '0' || *p > '9'));
}

/* Reads decimal digits into *v; 0, -1 (no digit) or -2 (out of range). */
static int parse_num(const char **pp, const char *end, long *v)
{
	const char *p = *pp;
	long n = 0;

	if (p == end || *p < '0' || *p > '9')
		return -1;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (*p - '0');
		/* no file we edit has more lines than bytes */
		if (n > (long)AA_MAX_TEXT_SIZE)
			return -2;
	}
	*pp = p;
	*v = n;
	return 0;
}

/* "start[,count]"; *has_count tells whether the count was written. */
static int parse_range(const char **pp, const char *end, long *start,
		       long *count, int *has_count)
{
	int r = parse_num(pp, end, start);

	if (r < 0)
		return r;
	*count = 1;
	*has_count = 0;
	if (*pp < end && **pp == ',') {
		(*pp)++;
		*has_count = 1;
		return parse_num(pp, end, count);
	}
	return 0;
}

/* The text after the closing "@@", or NULL when there is none. */
static int set_section(aa_hunk *h, const char *p, const char *end)
{
	p = skip_blanks(p, end);
	while (end > p && aa_is_blank(end[-1]))
		end--;
	if (p == end)
		return 0;
	h->section = aa_strndup(p, (size_t)(end - p));
	return h->section ? 0 : -1;
}

static int header_error(aa_dparser *P, const aa_dline *l, int r,
			const char *what)
{
	aa_pos pos = aa_diff_pos(P, l->lineno);

	if (r == -2)
		return aa_error(P->d, pos, NULL,
				"hunk header number out of range");
	if (P->o->strict)
		return aa_error(P->d, pos, NULL,
				"Invalid unified diff format: %s", what);
	return aa_error(P->d, pos, NULL, "malformed hunk header: %s", what);
}

/* "@@ -a[,b] +c[,d] @@[ section]" */
static int parse_numbered(aa_dparser *P, const aa_dline *l, aa_hunk *h,
			  const char *p)
{
	const char *end = l->s + l->len;
	int oc, nc, r;

	p++; /* '-' */
	if ((r = parse_range(&p, end, &h->old_start, &h->old_count, &oc)) < 0)
		return header_error(P, l, r, "expected '-start,count'");
	p = skip_blanks(p, end);
	if (p == end || *p++ != '+')
		return header_error(P, l, -1, "expected '+start,count'");
	if ((r = parse_range(&p, end, &h->new_start, &h->new_count, &nc)) < 0)
		return header_error(P, l, r, "expected '+start,count'");
	p = skip_blanks(p, end);
	/* "@@ -a,b +c,d" with nothing after: the closing "@@" forgotten */
	if (p == end && !P->o->strict) {
		h->has_hint = 1;
		return 0;
	}
	if (end - p < 2 || p[0] != '@' || p[1] != '@')
		return header_error(P, l, -1, "expected the closing '@@'");
	if (P->o->strict && (!oc || !nc))
		return header_error(P, l, -1,
				    "hunk header without line counts "
				    "(@@ -start,count +start,count @@ required)");
	h->has_hint = 1;
	return set_section(h, p + 2, end);
}

/* "@@" or "@@ text @@": no line numbers, the hunk is located by content. */
static int parse_bare(aa_dparser *P, const aa_dline *l, aa_hunk *h,
		      const char *p)
{
	const char *end = l->s + l->len;

	if (P->o->strict)
		return header_error(P, l, -1,
				    "bare @@ hunk header (line numbers and counts required)");
	while (end > p && aa_is_blank(end[-1]))
		end--;
	if (end - p >= 2 && end[-1] == '@' && end[-2] == '@')
		end -= 2;
	h->has_hint = 0;
	return set_section(h, p, end);
}

static int parse_hunk_header(aa_dparser *P, const aa_dline *l, aa_hunk *h)
{
	const char *end = l->s + l->len;
	const char *p = skip_blanks(l->s + 2, end);

	if (aa_diff_starts(l, "@@@"))
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				P->o->strict ? "forbidden construct: Combined diff format"
					     : "combined diffs (diff --cc, @@@) are not supported");
	if (p < end && *p == '-')
		return parse_numbered(P, l, h, p);
	return parse_bare(P, l, h, p);
}

/* ---- hunk body ------------------------------------------------------ */

typedef struct body {
	long old_seen, new_seen;
	size_t trailing_blank; /* empty input lines ending the body so far */
	int free_run;          /* reading without counts (bare, or run on) */
	int unprefixed;        /* the line read next is context without its space */
} body;

/* Lines a lost-space context line is looked for in (see below). */
#define UNPREFIXED_LOOKAHEAD 10000

static int is_hunk_like(const aa_dline *l)
{
	if (l->len == 0)
		return 1; /* a context line whose space was dropped */
	switch (l->s[0]) {
	case ' ': case '+': case '-': case '\\':
		return 1;
	}
	return 0;
}

static int satisfied(const aa_hunk *h, const body *bd)
{
	return bd->old_seen == h->old_count && bd->new_seen == h->new_count;
}

/*
 * After the counts are satisfied, does this line continue the hunk
 * anyway (a header count that is too small)? Not a following file
 * header, not a blank line, not a mail signature "-- ".
 */
static int runs_on(const aa_dline *l)
{
	if (l->len == 0 || aa_diff_starts(l, "--- ") ||
	    aa_diff_starts(l, "+++ ") || (l->len == 3 && !memcmp(l->s, "-- ", 3)))
		return 0;
	return l->s[0] == ' ' || l->s[0] == '+' || l->s[0] == '-';
}

/*
 * Is this "--- " line the start of the next file's header rather than a
 * removed line "-- x"? While counts are unsatisfied it must be a whole
 * "--- " / "+++ " / "@@" triple; without counts the pair is enough.
 */
static int starts_next_file(const aa_dparser *P, const aa_dline *l,
			    int counting)
{
	aa_dline n1, n2;

	if (!aa_diff_starts(l, "--- "))
		return 0;
	if (!aa_diff_peek(P, 1, &n1) || !aa_diff_starts(&n1, "+++ "))
		return 0;
	if (!counting)
		return 1;
	return aa_diff_peek(P, 2, &n2) && aa_diff_starts(&n2, "@@");
}

/* "\ No newline at end of file": applies to the side(s) of the last line. */
static void mark_no_eol(aa_hunk *h)
{
	char prev = h->nlines ? h->lines[h->nlines - 1].kind : 0;

	if (prev == ' ' || prev == '-')
		h->old_no_eol = 1;
	if (prev == ' ' || prev == '+')
		h->new_no_eol = 1;
}

static int add_body_line(aa_dparser *P, aa_hunk *h, const aa_dline *l,
			 body *bd)
{
	char kind = l->len ? l->s[0] : ' ';
	int r;

	if (bd->unprefixed) {
		bd->unprefixed = 0;
		aa_warn(P->d, aa_diff_pos(P, l->lineno), NULL,
			"a context line without its leading space; taken as context");
		if (aa_hunk_add_line(h, ' ', l->s, l->len + l->cr) < 0)
			return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
					"out of memory");
		h->lines[h->nlines - 1].loose = 1;
		bd->trailing_blank = 0;
		bd->old_seen++;
		bd->new_seen++;
		return 0;
	}
	if (kind == '\\') {
		mark_no_eol(h);
		bd->trailing_blank = 0;
		return 0;
	}
	r = l->len ? aa_hunk_add_line(h, kind, l->s + 1, l->len - 1 + l->cr)
		   : aa_hunk_add_line(h, ' ', "", 0);
	if (r < 0)
		return aa_error(P->d, aa_diff_pos(P, l->lineno), NULL,
				"out of memory");
	bd->trailing_blank = l->len ? 0 : bd->trailing_blank + 1;
	if (kind != '+')
		bd->old_seen++;
	if (kind != '-')
		bd->new_seen++;
	return 0;
}

/* Blank lines that ended a recounted body were not context. */
static void drop_trailing_blanks(aa_hunk *h, size_t n)
{
	while (n-- && h->nlines) {
		h->nlines--;
		free(h->lines[h->nlines].text);
	}
}

static void recount(aa_hunk *h)
{
	long o = 0, n = 0;
	size_t i;

	for (i = 0; i < h->nlines; i++) {
		if (h->lines[i].kind != '+')
			o++;
		if (h->lines[i].kind != '-')
			n++;
	}
	if (h->has_hint && (o != h->old_count || n != h->new_count))
		h->count_mismatch = 1;
	h->old_count = o;
	h->new_count = n;
}

/* Lines that end a hunk whatever its counts: headers and fences. */
static int is_structural(const aa_dline *l)
{
	return aa_diff_starts(l, "@@") || aa_diff_starts(l, "diff ") ||
	       aa_diff_starts(l, "```") || aa_diff_starts(l, "~~~");
}

/*
 * A context line that lost its leading space on a non-blank line ("int
 * main(void)" at column 0, as assistants write it) is taken as context
 * only when the header's counts then agree with the body exactly, which
 * prose after a hunk does not make them do.
 */
static int unprefixed_context_fits(const aa_dparser *P, const aa_hunk *h,
				   const body *bd)
{
	aa_dparser q = *P;
	long o = bd->old_seen, n = bd->new_seen;
	unsigned i;
	aa_dline l;

	for (i = 0; i < UNPREFIXED_LOOKAHEAD && aa_diff_peek(&q, 0, &l); i++) {
		char k = ' ';

		if (is_hunk_like(&l))
			k = l.len ? l.s[0] : ' ';
		else if (is_structural(&l))
			return 0;
		if (k != '\\') {
			o += k != '+';
			n += k != '-';
		}
		if (o == h->old_count && n == h->new_count)
			return 1;
		if (o > h->old_count || n > h->new_count)
			return 0;
		aa_diff_advance(&q, &l);
	}
	return 0;
}

/*
 * Returns 1 to read line l into the hunk, 0 to stop before it. With
 * counts, stops once they are satisfied (taking a final "\ No newline"),
 * unless more hunk lines run on.
 */
static int body_continues(const aa_dparser *P, const aa_hunk *h,
			  const aa_dline *l, body *bd)
{
	if (!bd->free_run && satisfied(h, bd)) {
		if (l->len && l->s[0] == '\\')
			return 1;
		if (!runs_on(l))
			return 0;
		bd->free_run = 1;
	}
	if (!is_hunk_like(l))
		return !bd->free_run && !P->o->strict &&
		       (bd->unprefixed = unprefixed_context_fits(P, h, bd));
	return !starts_next_file(P, l, !bd->free_run);
}

static int read_body(aa_dparser *P, aa_hunk *h)
{
	body bd = { 0, 0, 0, !h->has_hint, 0 };
	aa_dline l;

	while (aa_diff_peek(P, 0, &l) && body_continues(P, h, &l, &bd)) {
		if (aa_diff_take(P, &l) < 0 || add_body_line(P, h, &l, &bd) < 0)
			return -1;
	}
	if (bd.free_run || !satisfied(h, &bd)) {
		drop_trailing_blanks(h, bd.trailing_blank);
		recount(h);
	}
	if (!h->nlines)
		return aa_error(P->d, h->pos, NULL, "%shunk has no lines",
				P->o->strict ? INVALID : "");
	return 0;
}

int aa_diff_read_hunk(aa_dparser *P, aa_op *c)
{
	aa_dline l;
	aa_hunk *h;

	if (!aa_diff_peek(P, 0, &l))
		return 0;
	if (c->nhunks >= AA_DIFF_MAX_HUNKS)
		return aa_error(P->d, aa_diff_pos(P, l.lineno), NULL,
				"too many hunks in one file diff (limit %d)",
				AA_DIFF_MAX_HUNKS);
	h = aa_op_add_hunk(c, aa_diff_pos(P, l.lineno));
	if (!h)
		return aa_error(P->d, aa_diff_pos(P, l.lineno), NULL,
				"out of memory");
	if (aa_diff_take(P, &l) < 0 || parse_hunk_header(P, &l, h) < 0)
		return -1;
	return read_body(P, h);
}

int aa_diff_next_hunk(aa_dparser *P)
{
	aa_dparser q = *P;
	aa_dline l;

	while (aa_diff_peek(&q, 0, &l) && l.len == 0)
		aa_diff_advance(&q, &l);
	if (!aa_diff_peek(&q, 0, &l) || !aa_diff_is_hunk_header(P, &l))
		return 0;
	P->off = q.off;
	P->lineno = q.lineno;
	return 1;
}
