/*
 * search-replace: the SEARCH/REPLACE blocks of Aider, Cline and Roo Code.
 *
 *   path/to/file.py              Aider: the path on the line before the
 *   ```python                    fence, in its info string, or on the
 *   <<<<<<< SEARCH               first line inside it; several blocks
 *   old lines                    per fence, a path line between blocks
 *   =======                      switches the file
 *   new lines
 *   >>>>>>> REPLACE
 *   ```
 *
 *   <replace_in_file><path>p</path><diff>      Cline (or the bare blocks)
 *   ------- SEARCH / ======= / +++++++ REPLACE
 *   </diff></replace_in_file>
 *
 *   <<<<<<< SEARCH                             Roo Code (apply_diff)
 *   :start_line:12                             a line hint, like a hunk
 *   -------                                    header's
 *   old / ======= / new / >>>>>>> REPLACE
 *
 * The marker variants are those of src/format/markers.c. Roo Code's
 * conventions are followed: a marker line written as content is escaped
 * with a backslash (`\=======`, `\<<<<<<< ...`, `\:start_line:`), which
 * is dropped; `N | ` line-number prefixes (Roo's file viewer) are
 * stripped when every SEARCH line carries one, and the first gives the
 * line hint; a second divider or a `:start_line:` inside REPLACE makes
 * the block malformed.
 *
 * Each block is one operation: an edit whose one hunk removes the SEARCH
 * lines and adds the REPLACE lines, located by the hunk ladder (exact,
 * then white space ignored; unique, or refused with the closest region
 * or the places). Blocks for one file apply in order, each on the result
 * of the previous one. An empty SEARCH creates the file or fills an
 * existing empty one, as Aider does (refused on a non-empty file, unless
 * identical). Every error names its input line; then the
 * block's operations are dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "edit/text.h"
#include "format/label.h"
#include "format/lines.h"
#include "format/markers.h"
#include "format/parsers.h"
#include "util/util.h"

#define QUOTE_MAX 120

/* ---------- markers ---------- */

static int is_search(const char *s, size_t len)
{
	aa_sr_mark m = aa_sr_mark_of(s, len);

	return m == AA_SR_SEARCH || m == AA_SR_SEARCH_DASHES;
}

/* The line without its indentation is a SEARCH or REPLACE marker. */
static aa_sr_mark indented_mark(const char *s, size_t len)
{
	size_t i = aa_indent_of(s, len);
	aa_sr_mark m = aa_sr_mark_of(s + i, len - i);

	return m == AA_SR_SEARCH || m == AA_SR_SEARCH_DASHES ||
	       m == AA_SR_REPLACE ? m : AA_SR_NONE;
}

/* `<tag>` somewhere in the line. */
static const char *tag_in(const char *s, size_t len, const char *tag)
{
	size_t n = strlen(tag), i;

	for (i = 0; n <= len && i <= len - n; i++)
		if (!memcmp(s + i, tag, n))
			return s + i;
	return NULL;
}

static int is_tool_open(const char *s, size_t len)
{
	return tag_in(s, len, "<replace_in_file>") || tag_in(s, len, "<apply_diff>");
}

/* ---------- detection ---------- */

/* The next non-blank line from off on, or 0. */
static int next_nonblank(const char *s, size_t n, size_t off, aa_lspan *l)
{
	for (; off < n; off = l->next) {
		aa_lspan_at(s, n, off, l);
		if (aa_rtrim(s + l->start, l->len, aa_is_blank_cr))
			return 1;
	}
	return 0;
}

/*
 * Unfenced: a SEARCH marker at column 0, a tool call of Cline or Roo, or
 * a path line right before a SEARCH marker.
 */
int aa_sr_starts(const char *s, size_t n, size_t off)
{
	const char *p;
	size_t plen;
	aa_lspan l, m;

	aa_lspan_at(s, n, off, &l);
	if (is_search(s + l.start, l.len) || is_tool_open(s + l.start, l.len))
		return 1;
	if (l.next >= n || !aa_label_path(s + l.start, l.len, &p, &plen))
		return 0;
	aa_lspan_at(s, n, l.next, &m);
	return is_search(s + m.start, m.len);
}

/*
 * The end of the blocks that start at off: after the last REPLACE (or
 * closing tool tag) that no further block follows, a path line and
 * blank lines in between. A block left open runs to the end.
 */
size_t aa_sr_region_end(const char *s, size_t n, size_t off)
{
	size_t end = n;
	int open = 0, tool = 0;
	aa_lspan l, k;

	for (; off < n; off = l.next) {
		aa_lspan_at(s, n, off, &l);
		if (is_tool_open(s + l.start, l.len))
			tool = 1;
		switch (aa_sr_mark_of(s + l.start, l.len)) {
		case AA_SR_SEARCH:
		case AA_SR_SEARCH_DASHES:
			open = 1;
			continue;
		case AA_SR_REPLACE:
			open = 0;
			end = l.next;
			break;
		default:
			if (tool && (tag_in(s + l.start, l.len, "</replace_in_file>") ||
				     tag_in(s + l.start, l.len, "</apply_diff>"))) {
				tool = 0;
				end = l.next;
				break;
			}
			continue;
		}
		if (open || tool)
			continue;
		/* another block right after? */
		if (!next_nonblank(s, n, l.next, &k) ||
		    !aa_sr_starts(s, n, k.start))
			return end;
	}
	return open || tool ? n : end;
}

int aa_sr_fits(const aa_fence_view *fv)
{
	size_t off;
	aa_lspan l;

	for (off = 0; off < fv->len; off = l.next) {
		aa_lspan_at(fv->data, fv->len, off, &l);
		if (is_search(fv->data + l.start, l.len))
			return 1;
	}
	return 0;
}

/* ---------- parser ---------- */

typedef enum state { S_OUT, S_SEARCH, S_REPLACE } state;

typedef struct sparse {
	const aa_block *b;
	size_t first;         /* the first op of this block of input */
	aa_changeset *cs;
	aa_diags *d;
	aa_linemap lines;
	int failed;
	int nblocks;
	const char *path;     /* the current file, or NULL */
	size_t path_len;
	/* the open block */
	state st;
	size_t at;            /* its SEARCH line */
	long hint;            /* Roo's :start_line:, 0 = none */
	int hints_done;       /* past Roo's hint lines */
	int dashes;           /* opened by "------- SEARCH" (Cline) */
	aa_hunk *h;
	aa_buf replace;       /* REPLACE text (for an empty SEARCH) */
	size_t nsearch;
	int search_blank;     /* the SEARCH lines are all blank */
	size_t replace_at;    /* the first REPLACE line */
} sparse;

static aa_pos pos_of(sparse *p, size_t off)
{
	aa_pos pos = { p->b->in ? p->b->in->name : NULL, 0 };

	pos.line = aa_linemap_line(&p->lines, off);
	return pos;
}

static void fail_at(sparse *p, size_t off, const char *what)
{
	aa_lspan l;

	p->failed = 1;
	aa_lspan_at(p->b->data, p->b->len, off, &l);
	aa_error(p->d, pos_of(p, off), NULL, "search-replace: %s: %s", what,
		 aa_qtext(p->b->data + l.start, l.len, QUOTE_MAX));
}

static char *current_path(sparse *p)
{
	char *path = aa_strndup(p->path, p->path_len);

	if (!path)
		fail_at(p, p->at, "out of memory");
	return path;
}

static aa_op *add_op(sparse *p, aa_op_kind kind)
{
	char *path = current_path(p);
	aa_op *op;

	if (!path)
		return NULL;
	op = aa_changeset_add(p->cs, kind, pos_of(p, p->at));
	if (!op) {
		free(path);
		fail_at(p, p->at, "out of memory (or too many operations)");
		return NULL;
	}
	op->path = path;
	op->format = "search-replace";
	return op;
}

static void open_block(sparse *p, size_t off, const aa_lspan *l)
{
	aa_op *op;

	p->st = S_SEARCH;
	p->at = off;
	p->dashes = aa_sr_mark_of(p->b->data + l->start, l->len) ==
		    AA_SR_SEARCH_DASHES;
	p->hint = 0;
	p->hints_done = 0;
	p->h = NULL;
	p->nsearch = 0;
	p->search_blank = 1;
	aa_buf_clear(&p->replace);
	if (!p->path && p->b->carried_path) {
		/* the file of the answer's previous block (Aider) */
		p->path = p->b->carried_path;
		p->path_len = strlen(p->path);
	}
	if (!p->path) {
		fail_at(p, off, "a SEARCH block names no file (put its path on "
			"the line before the block or the fence)");
		return;
	}
	op = add_op(p, AA_OP_EDIT);
	if (!op)
		return;
	op->edit_kind = AA_EDIT_HUNKS;
	if (!(p->h = aa_op_add_hunk(op, op->pos)))
		fail_at(p, off, "out of memory");
}

/* `:start_line:` (12) or `:end_line:` (10) at s: its length, else 0. */
static size_t is_roo_line_marker(const char *s, size_t len)
{
	if (len >= 12 && !memcmp(s, ":start_line:", 12))
		return 12;
	if (len >= 10 && !memcmp(s, ":end_line:", 10))
		return 10;
	return 0;
}

/*
 * Roo Code's escapes: a content line that would read as a marker is
 * written with a backslash before it, which is not content. Returns how
 * many bytes to skip (1 or 0).
 */
static size_t roo_escape(const char *s, size_t len)
{
	static const char *const escaped[] = {
		"\\<<<<<<<", "\\=======", "\\>>>>>>>", "\\-------",
		"\\:end_line:", "\\:start_line:",
	};
	size_t i, n;

	if (!len || s[0] != '\\')
		return 0;
	for (i = 0; i < sizeof(escaped) / sizeof(*escaped); i++) {
		n = strlen(escaped[i]);
		if (len >= n && !memcmp(s, escaped[i], n))
			return 1;
	}
	return 0;
}

/* Roo's `:start_line:N` / `:end_line:N` right after SEARCH: 1 when it is one. */
static int roo_hint(sparse *p, const char *s, size_t len)
{
	long v = 0;
	size_t i, n;

	len = aa_rtrim(s, len, aa_is_blank_cr);
	if (is_roo_line_marker(s, len) == 12)
		n = 12;
	else if (is_roo_line_marker(s, len) == 10)
		n = 10;
	else
		return 0;
	for (i = n; i < len && aa_is_blank_cr(s[i]); i++)
		;
	/* models write the number in brackets too (`:start_line:[12]`) */
	if (i < len && s[i] == '[' && s[len - 1] == ']') {
		i++;
		len--;
	}
	if (i == len)
		return 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9' && v < 100000000; i++)
		v = v * 10 + (s[i] - '0');
	if (i != len)
		return 0;
	if (n == 12)
		p->hint = v;
	return 1;
}

static void add_line(sparse *p, char kind, const char *s, size_t len)
{
	if (!p->h)
		return;
	if (aa_hunk_add_line(p->h, kind, s, len) < 0) {
		p->failed = 1;
		p->h = NULL;
		aa_error(p->d, pos_of(p, p->at), NULL, "out of memory");
	}
}

/* The two hunks remove the same lines. */
static int same_search(const aa_hunk *a, const aa_hunk *b)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->nlines && a->lines[i].kind != '-')
			i++;
		while (j < b->nlines && b->lines[j].kind != '-')
			j++;
		if (i == a->nlines || j == b->nlines)
			return i == a->nlines && j == b->nlines;
		if (a->lines[i].len != b->lines[j].len ||
		    memcmp(a->lines[i].text, b->lines[j].text, a->lines[i].len))
			return 0;
		i++;
		j++;
	}
}

/*
 * Consecutive blocks for one file are one edit with a hunk each: the
 * hunk engine places each on the text as the ones before left it, which
 * is what a run of single-hunk edits does, without decoding and
 * checking the file once per block. Not when a block has a line hint
 * (hinted and bare hunks do not mix), and not after a block with the
 * same SEARCH text (the engine would take such a run as "one at each
 * place", where each block must match once).
 */
/*
 * Block h may join an edit whose hunks are prev's: both without line
 * hints, and not the same SEARCH text (two identical blocks for a text
 * that occurs twice are refused like one); or both with hints, h's
 * after prev's last (the hints tell identical blocks apart, as a diff's
 * headers do, and in the hints' order the hunk engine moves each by
 * what the blocks before it added or removed, as Roo does).
 */
static int joins(const aa_op *prev, const aa_hunk *h)
{
	const aa_hunk *last = &prev->hunks[prev->nhunks - 1];
	size_t i;

	for (i = 0; i < prev->nhunks; i++)
		if (prev->hunks[i].has_hint != h->has_hint)
			return 0;
	if (h->has_hint)
		return h->old_start > last->old_start;
	return !same_search(last, h);
}

static void merge_with_previous(sparse *p)
{
	aa_op *op = &p->cs->ops[p->cs->n - 1], *prev;
	aa_hunk *h;

	if (p->cs->n < p->first + 2)
		return;
	prev = op - 1;
	if (prev->kind != AA_OP_EDIT || prev->edit_kind != AA_EDIT_HUNKS ||
	    strcmp(prev->path, op->path) || !prev->nhunks || !joins(prev, &op->hunks[0]))
		return;
	if (!(h = aa_op_add_hunk(prev, op->hunks[0].pos)))
		return;  /* stays its own edit */
	*h = op->hunks[0];
	op->nhunks = 0;  /* the lines are the hunk's now */
	aa_op_free(op);
	p->cs->n--;
}

/*
 * Roo Code's line-number prefix, what its file viewer shows: blanks,
 * digits, blanks, '|' (not "||"), then one optional blank. Its length
 * (the number in *num), or 0.
 */
static size_t number_prefix(const char *s, size_t len, long *num)
{
	size_t i = 0, d;
	long v = 0;

	i = aa_skip(s, len, i, aa_is_blank);
	for (d = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		if (v < 100000000)
			v = v * 10 + (s[i] - '0');
	if (i == d || i == len || !aa_is_blank(s[i]))
		return 0;
	i = aa_skip(s, len, i, aa_is_blank);
	if (i == len || s[i] != '|' || (i + 1 < len && s[i + 1] == '|'))
		return 0;
	i++;
	if (i < len && aa_is_blank(s[i]))
		i++;
	*num = v;
	return i;
}

static void drop_prefix(aa_hline *l, size_t n)
{
	memmove(l->text, l->text + n, l->len - n);
	l->len -= n;
	l->text[l->len] = '\0';
}

/*
 * When every SEARCH line carries a `N | ` prefix (Roo Code: copied from
 * its file viewer), the prefixes are not content: they are dropped from
 * the SEARCH lines and from each REPLACE line that carries one, and the
 * first number is the line hint unless `:start_line:` gave one. Roo
 * strips REPLACE only when every line (or none, blank) is numbered and
 * else retries with a looser pattern after a failed match; new lines
 * written without a number are what that retry keeps.
 */
static int strip_line_numbers(sparse *p)
{
	aa_hunk *h = p->h;
	size_t k, n;
	long num, first = 0;

	for (k = 0; k < h->nlines; k++)
		if (h->lines[k].kind == '-') {
			if (!number_prefix(h->lines[k].text, h->lines[k].len, &num))
				return 0;
			if (!first)
				first = num;
		}
	for (k = 0; k < h->nlines; k++)
		if ((n = number_prefix(h->lines[k].text, h->lines[k].len, &num)))
			drop_prefix(&h->lines[k], n);
	if (!p->hint)
		p->hint = first;
	aa_buf_clear(&p->replace);
	return aa_hunk_side_text(h, '+', &p->replace);
}

/*
 * Closes the block: an edit with one hunk, or for an empty SEARCH a new
 * file made of the REPLACE lines.
 */
static void close_block(sparse *p)
{
	aa_op *op;

	p->st = S_OUT;
	p->nblocks++;
	if (!p->h)
		return;
	op = &p->cs->ops[p->cs->n - 1];
	if (p->search_blank) {
		/* an empty SEARCH: create the file, or fill an empty one (Aider) */
		aa_op_free(op);
		p->cs->n--;
		p->h = NULL;
		if (!(op = add_op(p, AA_OP_WRITE)))
			return;
		op->exist = AA_EXIST_EMPTY;
		op->content_len = p->replace.len;
		op->content = aa_buf_detach(&p->replace);
		return;
	}
	if (strip_line_numbers(p) < 0) {
		fail_at(p, p->at, "out of memory");
		return;
	}
	/* elisions in REPLACE stand for SEARCH lines: the hunk engine resolves them */
	p->h->may_elide = 1;
	p->h->added_pos = pos_of(p, p->replace_at);
	p->h->old_count = (long)p->nsearch;
	p->h->new_count = (long)(p->h->nlines - p->nsearch);
	if (p->hint > 0) {
		p->h->has_hint = 1;
		p->h->old_start = p->h->new_start = p->hint;
	}
	p->h = NULL;
	if (!p->failed)
		merge_with_previous(p);
}

/* The line's bytes with a CR before its LF (content). */
static size_t raw_len(const sparse *p, const aa_lspan *l)
{
	size_t len = l->len;

	if (l->next > l->start + len && p->b->data[l->start + len] == '\r')
		len++;
	return len;
}

/* A line outside blocks: a path, a Cline/Roo path tag, or prose. */
static void outside(sparse *p, const aa_lspan *l)
{
	const char *s = p->b->data + l->start, *t, *e, *path;
	size_t plen;

	if ((t = tag_in(s, l->len, "<path>")) != NULL &&
	    (e = tag_in(t, l->len - (size_t)(t - s), "</path>")) != NULL) {
		t += 6;
		if (aa_label_path(t, (size_t)(e - t), &path, &plen)) {
			p->path = path;
			p->path_len = plen;
		} else {
			fail_at(p, l->start, "not a valid path");
		}
		return;
	}
	if (aa_label_path(s, l->len, &path, &plen)) {
		p->path = path;
		p->path_len = plen;
		return;
	}
	switch (indented_mark(s, l->len)) {
	case AA_SR_NONE:
		break;
	case AA_SR_REPLACE:
		fail_at(p, l->start, "a REPLACE marker that closes no block");
		break;
	default:
		fail_at(p, l->start, "a SEARCH marker that does not start its "
			"line (markers start their lines)");
		break;
	}
}

/* A divider for the open block: 3 or 4 '=' only in Cline's own form. */
static int is_divider(const sparse *p, aa_sr_mark m)
{
	return m == AA_SR_DIVIDER || (m == AA_SR_DIVIDER_SHORT && p->dashes);
}

/*
 * A REPLACE line that would write an edit marker into the file: a
 * second divider, Roo's line hints, a conflict or SEARCH/REPLACE marker
 * (indented too). Roo Code rejects these blocks; a marker that is
 * content is escaped with a backslash. NULL when the line is content.
 */
static const char *marker_in_replace(const sparse *p, const char *s,
				     size_t len, aa_sr_mark m)
{
	size_t i = 0;

	if (is_divider(p, m))
		return "a second \"=======\" inside REPLACE (a malformed block; "
		       "escape it as \"\\=======\" if it is content)";
	while (i < len && aa_is_blank_cr(s[i]))
		i++;
	if (is_roo_line_marker(s + i, len - i))
		return "a line hint inside REPLACE (\":start_line:\" and "
		       "\":end_line:\" belong right after SEARCH)";
	if (indented_mark(s, len) != AA_SR_NONE)
		return "a SEARCH or REPLACE marker inside REPLACE that does not "
		       "close it (a malformed block)";
	if (len >= 7 && (!memcmp(s, "<<<<<<<", 7) || !memcmp(s, ">>>>>>>", 7)))
		return "a conflict marker inside REPLACE would be written into "
		       "the file (escape it with a backslash if it is content)";
	return NULL;
}

/* A SEARCH or REPLACE line of content (Roo's escape dropped). */
static void content_line(sparse *p, const aa_lspan *l)
{
	const char *s = p->b->data + l->start;
	size_t len = raw_len(p, l), esc = roo_escape(s, l->len);

	s += esc;
	len -= esc;
	if (p->st == S_SEARCH) {
		p->nsearch++;
		if (aa_rtrim(s, len, aa_is_blank_cr))
			p->search_blank = 0;
		add_line(p, '-', s, len);
	} else {
		if (aa_buf_put(&p->replace, s, len) < 0 ||
		    aa_buf_putc(&p->replace, '\n') < 0)
			fail_at(p, l->start, "out of memory");
		add_line(p, '+', s, len);
	}
}

static void in_block(sparse *p, const aa_lspan *l)
{
	const char *s = p->b->data + l->start, *why;
	aa_sr_mark m = aa_sr_mark_of(s, l->len);

	if (p->st == S_SEARCH && !p->hints_done) {
		if (!p->nsearch && roo_hint(p, s, l->len))
			return;
		p->hints_done = 1;
		if (m == AA_SR_ROO_SEP && !p->nsearch)
			return;
	}
	if (m == AA_SR_SEARCH || m == AA_SR_SEARCH_DASHES) {
		fail_at(p, l->start, "a SEARCH marker inside an open block");
		return;
	}
	if (p->st == S_SEARCH && is_divider(p, m)) {
		p->st = S_REPLACE;
		p->replace_at = l->next;
		return;
	}
	if (p->st == S_REPLACE && m == AA_SR_REPLACE) {
		close_block(p);
		return;
	}
	if (m == AA_SR_REPLACE) {
		fail_at(p, l->start, "REPLACE marker before the \"=======\" line");
		return;
	}
	if (p->st == S_REPLACE &&
	    (why = marker_in_replace(p, s, l->len, m)) != NULL) {
		fail_at(p, l->start, why);
		return;
	}
	content_line(p, l);
}

/* Every hunk of op is bare (no line hint). */
static int all_bare(const aa_op *op)
{
	size_t i;

	for (i = 0; i < op->nhunks; i++)
		if (op->hunks[i].has_hint)
			return 0;
	return 1;
}

/*
 * The first edit of this block of input joins the last of the block
 * before when both are SEARCH/REPLACE edits of one file (Aider fences
 * each block): one edit, its hunks in order, as merge_with_previous()
 * joins them inside a block. Run once the block parsed, so a block that
 * fails takes nothing of another with it.
 */
static void merge_across_blocks(sparse *p, size_t first)
{
	aa_changeset *cs = p->cs;
	aa_op *prev, *op;
	aa_hunk *h;
	size_t i;

	if (!first || first >= cs->n)
		return;
	prev = &cs->ops[first - 1];
	op = &cs->ops[first];
	if (prev->kind != AA_OP_EDIT || prev->edit_kind != AA_EDIT_HUNKS ||
	    !prev->format || strcmp(prev->format, op->format) ||
	    !prev->path || strcmp(prev->path, op->path) || !prev->nhunks ||
	    !op->nhunks || !all_bare(prev) || !all_bare(op) ||
	    same_search(&prev->hunks[prev->nhunks - 1], &op->hunks[0]))
		return;
	for (i = 0; i < op->nhunks; i++) {
		if (!(h = aa_op_add_hunk(prev, op->hunks[i].pos))) {
			/* the rest stays its own edit */
			memmove(op->hunks, op->hunks + i, (op->nhunks - i) * sizeof(*h));
			op->nhunks -= i;
			return;
		}
		*h = op->hunks[i];
	}
	op->nhunks = 0;  /* the lines are prev's now */
	aa_op_free(op);
	memmove(op, op + 1, (cs->n - first - 1) * sizeof(*op));
	cs->n--;
}

/* Op i is a SEARCH/REPLACE edit whose blocks have line hints. */
static int hinted_edit(const aa_changeset *cs, size_t i)
{
	const aa_op *op = &cs->ops[i];

	return op->kind == AA_OP_EDIT && op->edit_kind == AA_EDIT_HUNKS && op->path &&
	       op->nhunks && op->hunks[0].has_hint;
}

/*
 * Roo Code's line hints (`:start_line:`, the `N | ` prefixes) count the
 * lines of the file as the model read it, before any block of the call
 * applied: Roo applies the blocks in the order of their hints, each
 * hint moved by the lines the blocks before it added or removed. The
 * blocks of one edit (merge_with_previous(): hints in order) are moved
 * so by the hunk engine; an edit after another of the same file (hints
 * out of order, a bare block between) applies on its result, so each
 * of its hints is moved here by what the earlier edits' blocks above it
 * (a smaller hint) add or remove. Without it a hint below an earlier
 * block that added lines looked that many lines too high, and rung 2
 * took the nearest match there. Last to first, so the hints compared
 * are the model's own.
 */
static void hints_to_current_lines(sparse *p, size_t first)
{
	aa_changeset *cs = p->cs;
	size_t i, j, k, m;

	for (i = cs->n; i-- > first;) {
		if (!hinted_edit(cs, i))
			continue;
		for (k = 0; k < cs->ops[i].nhunks; k++) {
			aa_hunk *h = &cs->ops[i].hunks[k];
			long moved = 0;

			for (j = first; j < i; j++) {
				if (!hinted_edit(cs, j) || strcmp(cs->ops[j].path, cs->ops[i].path))
					continue;
				for (m = 0; m < cs->ops[j].nhunks; m++) {
					const aa_hunk *e = &cs->ops[j].hunks[m];

					if (e->old_start < h->old_start)
						moved += e->new_count - e->old_count;
				}
			}
			if (h->old_start + moved >= 1) {
				h->old_start += moved;
				h->new_start = h->old_start;
			}
		}
	}
}

static int finish(sparse *p, size_t first)
{
	if (p->st != S_OUT)
		fail_at(p, p->at, p->st == S_SEARCH ?
			"a SEARCH block without its \"=======\" line" :
			"a SEARCH block without its REPLACE line");
	aa_linemap_free(&p->lines);
	aa_buf_free(&p->replace);
	if (p->failed) {
		aa_changeset_truncate(p->cs, first);
		return -1;
	}
	hints_to_current_lines(p, first);
	merge_across_blocks(p, first);
	return p->nblocks;
}

static int parse(const aa_block *b, const char *path, size_t path_len,
		 aa_changeset *cs, aa_diags *d)
{
	sparse p;
	size_t off, first = cs->n;
	aa_lspan l;

	memset(&p, 0, sizeof(p));
	p.b = b;
	p.first = first;
	p.cs = cs;
	p.d = d;
	p.path = path;
	p.path_len = path_len;
	aa_linemap_init(&p.lines, b->data, b->len, b->line);
	if (b->len > AA_MAX_INPUT_SIZE) {
		fail_at(&p, 0, "block too large");
		return finish(&p, first);
	}
	for (off = 0; off < b->len; off = l.next) {
		aa_lspan_at(b->data, b->len, off, &l);
		if (p.st != S_OUT)
			in_block(&p, &l);
		else if (is_search(b->data + l.start, l.len))
			open_block(&p, off, &l);
		else
			outside(&p, &l);
	}
	return finish(&p, first);
}

int aa_parse_search_replace(const aa_block *b, const aa_parse_opts *o,
			    aa_changeset *cs, aa_diags *d)
{
	(void)o;
	return parse(b, NULL, 0, cs, d);
}

/* A fence: its path from the info string, else the line before it. */
int aa_parse_search_replace_fenced(const aa_block *b, const aa_fence_view *fv,
				   const aa_parse_opts *o, aa_changeset *cs,
				   aa_diags *d)
{
	const char *path = NULL;
	size_t len = 0;

	(void)o;
	/* a sentence's path is safe here: the SEARCH text must match in it */
	if (!aa_info_path(fv->info, fv->info_len, &path, &len) &&
	    !(fv->label && aa_label_path(fv->label, fv->label_len, &path, &len)) &&
	    !(fv->label && aa_label_sentence_path(fv->label, fv->label_len,
						  &path, &len)))
		path = NULL;
	return parse(b, path, len, cs, d);
}
