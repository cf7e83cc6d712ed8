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

#include "aiapply/edit.h"
#include "aiapply/format.h"
#include "aiapply/text.h"
#include "format/registry.h"

#define QUOTE_MAX 120

/* ---------- markers ---------- */

typedef enum mark {
	M_NONE,
	M_SEARCH,     /* <<<<<<< SEARCH, ------- SEARCH */
	M_DIVIDER,    /* ======= */
	M_REPLACE,    /* >>>>>>> REPLACE, +++++++ REPLACE */
	M_ROO_SEP     /* ------- (after Roo's hints) */
} mark;

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Length of s[0..len) without trailing blanks. */
static size_t rtrim(const char *s, size_t len)
{
	while (len && is_blank(s[len - 1]))
		len--;
	return len;
}

/* A run of 5 to 9 c at s[0], then `word` (after one space) or nothing. */
static int run_then(const char *s, size_t len, char c, size_t min,
		    const char *word)
{
	size_t i = 0, n = word ? strlen(word) : 0;

	len = rtrim(s, len);
	while (i < len && s[i] == c)
		i++;
	if (i < min || i > 9)
		return 0;
	if (!word)
		return i == len;
	return len == i + 1 + n && s[i] == ' ' && !memcmp(s + i + 1, word, n);
}

static mark mark_of(const char *s, size_t len)
{
	/* most lines are content: out at their first byte */
	if (!len || (s[0] != '<' && s[0] != '-' && s[0] != '=' &&
		     s[0] != '>' && s[0] != '+'))
		return M_NONE;
	if (run_then(s, len, '<', 5, "SEARCH") || run_then(s, len, '-', 3, "SEARCH"))
		return M_SEARCH;
	if (run_then(s, len, '=', 5, NULL))
		return M_DIVIDER;
	if (run_then(s, len, '>', 5, "REPLACE") || run_then(s, len, '+', 3, "REPLACE"))
		return M_REPLACE;
	if (run_then(s, len, '-', 5, NULL))
		return M_ROO_SEP;
	return M_NONE;
}

static int is_search(const char *s, size_t len)
{
	return mark_of(s, len) == M_SEARCH;
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
		if (rtrim(s + l->start, l->len))
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
		switch (mark_of(s + l.start, l.len)) {
		case M_SEARCH:
			open = 1;
			continue;
		case M_REPLACE:
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

static void open_block(sparse *p, size_t off)
{
	aa_op *op;

	p->st = S_SEARCH;
	p->at = off;
	p->hint = 0;
	p->hints_done = 0;
	p->h = NULL;
	p->nsearch = 0;
	p->search_blank = 1;
	aa_buf_clear(&p->replace);
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

/* Roo's `:start_line:N` / `:end_line:N` right after SEARCH: 1 when it is one. */
static int roo_hint(sparse *p, const char *s, size_t len)
{
	long v = 0;
	size_t i, n;

	len = rtrim(s, len);
	if (len > 12 && !memcmp(s, ":start_line:", 12))
		n = 12;
	else if (len > 10 && !memcmp(s, ":end_line:", 10))
		n = 10;
	else
		return 0;
	for (i = n; i < len && s[i] >= '0' && s[i] <= '9' && v < 100000000; i++)
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

/* The hunk's lines of one kind as text, each with "\n". */
static int hunk_text(const aa_hunk *h, char kind, aa_buf *out)
{
	size_t k;

	for (k = 0; k < h->nlines; k++)
		if (h->lines[k].kind == kind &&
		    (aa_buf_put(out, h->lines[k].text, h->lines[k].len) < 0 ||
		     aa_buf_putc(out, '\n') < 0))
			return -1;
	return 0;
}

/* Replaces the hunk's '+' lines by the lines of t. */
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
	return 0;
}

/*
 * Elisions in REPLACE ("# ... existing code ...") stand for the SEARCH
 * lines between the unique lines around them, as in a whole file: the
 * SEARCH text is the original they are resolved against.
 */
static void resolve_replace_elisions(sparse *p, aa_op *op)
{
	aa_buf search = AA_BUF_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx;
	aa_op tmp;
	const char *why = NULL;

	if (!aa_has_elision(p->replace.ptr, p->replace.len, op->path))
		return;
	memset(&cx, 0, sizeof(cx));
	memset(&tmp, 0, sizeof(tmp));
	cx.path = op->path;
	cx.diags = p->d;
	tmp.path = op->path;
	tmp.pos = pos_of(p, p->replace_at);
	tmp.content = p->replace.ptr;
	tmp.content_len = p->replace.len;
	if (hunk_text(p->h, '-', &search) < 0 ||
	    aa_text_decode(&t, search.ptr ? search.ptr : "", search.len, &why) < 0)
		fail_at(p, p->at, "out of memory");
	else if (aa_edit_elide(&t, &tmp, &cx) < 0)
		p->failed = 1;
	else if (set_added(p->h, &t) < 0)
		fail_at(p, p->at, "out of memory");
	aa_edit_ctx_release(&cx);
	aa_text_free(&t);
	aa_buf_free(&search);
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
static void merge_with_previous(sparse *p)
{
	aa_op *op = &p->cs->ops[p->cs->n - 1], *prev;
	aa_hunk *h;
	size_t i;

	if (p->cs->n < p->first + 2 || op->hunks[0].has_hint)
		return;
	prev = op - 1;
	if (prev->kind != AA_OP_EDIT || prev->edit_kind != AA_EDIT_HUNKS ||
	    strcmp(prev->path, op->path) ||
	    same_search(&prev->hunks[prev->nhunks - 1], &op->hunks[0]))
		return;
	for (i = 0; i < prev->nhunks; i++)
		if (prev->hunks[i].has_hint)
			return;
	if (!(h = aa_op_add_hunk(prev, op->hunks[0].pos)))
		return;  /* stays its own edit */
	*h = op->hunks[0];
	op->nhunks = 0;  /* the lines are the hunk's now */
	aa_op_free(op);
	p->cs->n--;
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
	resolve_replace_elisions(p, op);
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
	}
}

static void in_block(sparse *p, const aa_lspan *l)
{
	const char *s = p->b->data + l->start;
	mark m = mark_of(s, l->len);
	size_t len = raw_len(p, l);

	if (p->st == S_SEARCH && !p->hints_done) {
		if (!p->nsearch && roo_hint(p, s, l->len))
			return;
		p->hints_done = 1;
		if (m == M_ROO_SEP && !p->nsearch)
			return;
	}
	if (m == M_SEARCH) {
		fail_at(p, l->start, "a SEARCH marker inside an open block");
		return;
	}
	if (p->st == S_SEARCH && m == M_DIVIDER) {
		p->st = S_REPLACE;
		p->replace_at = l->next;
		return;
	}
	if (p->st == S_REPLACE && m == M_REPLACE) {
		close_block(p);
		return;
	}
	if (m == M_REPLACE) {
		fail_at(p, l->start, "REPLACE marker before the \"=======\" line");
		return;
	}
	if (p->st == S_SEARCH) {
		p->nsearch++;
		if (rtrim(s, len))
			p->search_blank = 0;
		add_line(p, '-', s, len);
	} else {
		if (aa_buf_put(&p->replace, s, len) < 0 ||
		    aa_buf_putc(&p->replace, '\n') < 0)
			fail_at(p, l->start, "out of memory");
		add_line(p, '+', s, len);
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
		while (p->cs->n > first)
			aa_op_free(&p->cs->ops[--p->cs->n]);
		return -1;
	}
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
			open_block(&p, off);
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
	if (!aa_info_path(fv->info, fv->info_len, &path, &len) &&
	    !(fv->label && aa_label_path(fv->label, fv->label_len, &path, &len)))
		path = NULL;
	return parse(b, path, len, cs, d);
}
