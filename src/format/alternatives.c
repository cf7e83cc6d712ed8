/*
 * An answer's alternatives: where one answer's blocks cannot form one
 * change set, cut it into several (Documentation/workflows.md, "An
 * answer's alternatives", has the rule and its examples).
 *
 * Each operation may have a "rival": an earlier operation of the same
 * answer that it redoes rather than builds on.
 *   - a whole-file write of a path the answer already wrote whole, with
 *     no delete, move or copy of that path in between and different
 *     content or mode (a repeated identical block is no rival);
 *   - a unified diff with line numbers of a path an earlier such diff
 *     changed, from the same base (no write, move or other kind of edit
 *     between; the same "index" blob when both name one), whose old side
 *     holds, at the same base line, a line the earlier diff removes (and
 *     does not add back): the second does not apply after the first. A
 *     hunk that makes the same change as the earlier one is a repeat
 *     (the planner skips it as already applied), not a rival.
 * A new alternative starts at an operation whose rival lies inside the
 * current alternative. The operations of the first alternative before
 * the first one that any later operation redoes are shared setup and
 * are copied into every alternative.
 *
 * Nothing here reads the base: what cannot be decided without it (two
 * diffs without line numbers, an edit then a whole-file write, directory
 * moves in between) is left as one change set for the planner.
 */
#include <stdlib.h>
#include <string.h>

#include "format/alternatives.h"
#include "util/util.h"

#define NO_OP ((size_t)-1)
/* Earlier diffs of one path compared with a diff, at most (no hang). */
#define MAX_DIFFS_COMPARED 64
/* Longer hunks are not compared (the check is quadratic in lines). */
#define MAX_HUNK_LINES_COMPARED 4096
/* Hunk pairs and lines compared over a whole answer, at most (no hang). */
#define MAX_DIFF_WORK ((size_t)64 * 1024 * 1024)

typedef enum rival_kind {
	RIVAL_NONE,
	RIVAL_WRITTEN,  /* written whole again */
	RIVAL_CREATED,  /* created again (both "new file") */
	RIVAL_DIFFED    /* diffed again from the same base */
} rival_kind;

/* One mention of a path by an operation: as its `path` or its `to`. */
typedef struct mention {
	const char *path;
	size_t op;
	int is_to;
	size_t prev;     /* the mention of the same path before it, or NO_OP */
} mention;

typedef struct scan {
	const aa_changeset *cs;
	mention *m;
	size_t nm;
	size_t *path_mention;  /* op -> index in m of its `path` (or NO_OP) */
	size_t *dir_ops;       /* dir_ops[i]: directory-capable ops before op i */
	size_t *rival;         /* op -> its rival op, or NO_OP */
	rival_kind *why;
	size_t work_left;      /* comparisons of diffs still allowed */
} scan;

/* ---- which operations mention which paths ---- */

static int mention_cmp(const void *a, const void *b)
{
	const mention *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	return x->is_to - y->is_to;
}

static void add_mention(scan *s, const char *path, size_t op, int is_to)
{
	mention *e = &s->m[s->nm++];

	e->path = path;
	e->op = op;
	e->is_to = is_to;
	e->prev = NO_OP;
}

/*
 * Sorts the mentions by path then operation, links each to the one
 * before it on the same path, and records where each op's `path` went.
 */
static void link_mentions(scan *s)
{
	size_t i;

	qsort(s->m, s->nm, sizeof(*s->m), mention_cmp);
	for (i = 0; i < s->nm; i++) {
		if (i && !strcmp(s->m[i - 1].path, s->m[i].path))
			s->m[i].prev = i - 1;
		if (!s->m[i].is_to)
			s->path_mention[s->m[i].op] = i;
	}
}

static int scan_init(scan *s, const aa_changeset *cs)
{
	size_t i, n = cs->n;

	memset(s, 0, sizeof(*s));
	s->cs = cs;
	s->work_left = MAX_DIFF_WORK;
	s->m = calloc(2 * n, sizeof(*s->m));
	s->path_mention = calloc(n, sizeof(*s->path_mention));
	s->dir_ops = calloc(n + 1, sizeof(*s->dir_ops));
	s->rival = calloc(n, sizeof(*s->rival));
	s->why = calloc(n, sizeof(*s->why));
	if (!s->m || !s->path_mention || !s->dir_ops || !s->rival || !s->why)
		return -1;
	for (i = 0; i < n; i++) {
		const aa_op *op = &cs->ops[i];

		s->path_mention[i] = NO_OP;
		s->rival[i] = NO_OP;
		s->dir_ops[i + 1] = s->dir_ops[i] + (op->dir_ok != 0);
		if (op->path)
			add_mention(s, op->path, i, 0);
		if (op->to)
			add_mention(s, op->to, i, 1);
	}
	link_mentions(s);
	return 0;
}

static void scan_free(scan *s)
{
	free(s->m);
	free(s->path_mention);
	free(s->dir_ops);
	free(s->rival);
	free(s->why);
}

/* A delete or move of a directory between ops j and i: undecidable here. */
static int dir_op_between(const scan *s, size_t j, size_t i)
{
	return s->dir_ops[i] - s->dir_ops[j + 1] > 0;
}

/* ---- whole-file writes ---- */

static int same_write(const aa_op *a, const aa_op *b)
{
	return a->mode == b->mode && a->content_len == b->content_len &&
	       (!a->content_len || !memcmp(a->content, b->content, a->content_len));
}

/*
 * The rival of whole-file write i: the last whole-file write of its path
 * when only edits of it (or copies from it) come between.
 */
static size_t write_rival(const scan *s, size_t i, rival_kind *why)
{
	const aa_op *op = &s->cs->ops[i];
	size_t e = s->m[s->path_mention[i]].prev;

	for (; e != NO_OP; e = s->m[e].prev) {
		const mention *m = &s->m[e];
		const aa_op *prev = &s->cs->ops[m->op];

		if (prev->kind == AA_OP_EDIT ||
		    (prev->kind == AA_OP_COPY && !m->is_to))
			continue;
		if (prev->kind != AA_OP_WRITE || same_write(prev, op) ||
		    dir_op_between(s, m->op, i))
			return NO_OP;
		*why = prev->exist == AA_EXIST_NEW && op->exist == AA_EXIST_NEW
		       ? RIVAL_CREATED : RIVAL_WRITTEN;
		return m->op;
	}
	return NO_OP;
}

/* ---- diffs of the same base ---- */

static int is_line_diff(const aa_op *op)
{
	size_t k;

	if (op->kind != AA_OP_EDIT || op->edit_kind != AA_EDIT_HUNKS ||
	    !op->nhunks)
		return 0;
	for (k = 0; k < op->nhunks; k++)
		if (!op->hunks[k].has_hint)
			return 0;
	return 1;
}

/* Both name an "index" blob and the names differ (abbreviations allowed). */
static int other_base(const aa_op *a, const aa_op *b)
{
	size_t la = strlen(a->base_blob), lb = strlen(b->base_blob);

	return la && lb && strncmp(a->base_blob, b->base_blob, la < lb ? la : lb);
}

static int line_is(const aa_hline *l, const aa_hline *r)
{
	return l->len == r->len && (!l->len || !memcmp(l->text, r->text, l->len));
}

/* The hunks remove and add the same lines in the same order. */
static int same_change(const aa_hunk *a, const aa_hunk *b)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->nlines && a->lines[i].kind == ' ')
			i++;
		while (j < b->nlines && b->lines[j].kind == ' ')
			j++;
		if (i == a->nlines || j == b->nlines)
			return i == a->nlines && j == b->nlines;
		if (a->lines[i].kind != b->lines[j].kind ||
		    !line_is(&a->lines[i], &b->lines[j]))
			return 0;
		i++;
		j++;
	}
}

/* Takes n from the comparisons allowed: -1 (and none left) when short. */
static int spend(size_t *left, size_t n)
{
	if (*left < n) {
		*left = 0;
		return -1;
	}
	*left -= n;
	return 0;
}

static int adds_back(const aa_hunk *h, const aa_hline *l)
{
	size_t k;

	for (k = 0; k < h->nlines; k++)
		if (h->lines[k].kind == '+' && line_is(&h->lines[k], l))
			return 1;
	return 0;
}

/* Index of the k-th old-side line of h (context or removed), from `from`. */
static size_t skip_old(const aa_hunk *h, size_t from, long k)
{
	size_t i = from;

	for (; i < h->nlines; i++) {
		if (h->lines[i].kind == '+')
			continue;
		if (k-- == 0)
			return i;
	}
	return h->nlines;
}

/* A line with a letter or a digit: not a lone brace or a blank. */
static int is_telling(const aa_hline *l)
{
	size_t i;

	for (i = 0; i < l->len; i++) {
		unsigned char c = (unsigned char)l->text[i];

		if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
		    c >= 0x80)
			return 1;
	}
	return 0;
}

/*
 * Hunk b (of a later diff) reads, over the base lines both hunks cover,
 * exactly what hunk a reads there, including a telling line that a
 * removes (and does not add back): b was written against the base a
 * changes, so it does not apply after a. A repeat of a's change is not.
 */
static int hunk_needs_removed(const aa_hunk *a, const aa_hunk *b,
			      size_t *work_left)
{
	long lo = a->old_start > b->old_start ? a->old_start : b->old_start;
	long hi_a = a->old_start + a->old_count, hi_b = b->old_start + b->old_count;
	long hi = hi_a < hi_b ? hi_a : hi_b, n;
	size_t i, j;
	int telling = 0;

	if (lo >= hi || a->nlines > MAX_HUNK_LINES_COMPARED ||
	    b->nlines > MAX_HUNK_LINES_COMPARED ||
	    spend(work_left, a->nlines + b->nlines) < 0 || same_change(a, b))
		return 0;
	i = skip_old(a, 0, lo - a->old_start);
	j = skip_old(b, 0, lo - b->old_start);
	for (n = lo; n < hi; n++) {
		const aa_hline *la, *lb;

		if (i >= a->nlines || j >= b->nlines)
			return 0;
		la = &a->lines[i];
		lb = &b->lines[j];
		if (!line_is(la, lb))
			return 0;
		if (!telling && la->kind == '-' && is_telling(la)) {
			if (spend(work_left, a->nlines) < 0)
				return 0;
			telling = !adds_back(a, la);
		}
		i = skip_old(a, i + 1, 0);
		j = skip_old(b, j + 1, 0);
	}
	return telling;
}

/*
 * Hunks a and b read the same base text over the lines both cover (so
 * they were written against one base).
 */
static int same_base_text(const aa_hunk *a, const aa_hunk *b)
{
	long lo = a->old_start > b->old_start ? a->old_start : b->old_start;
	long hi_a = a->old_start + a->old_count, hi_b = b->old_start + b->old_count;
	long hi = hi_a < hi_b ? hi_a : hi_b, n;
	size_t i = skip_old(a, 0, lo - a->old_start), j = skip_old(b, 0, lo - b->old_start);

	for (n = lo; n < hi; n++) {
		if (i >= a->nlines || j >= b->nlines ||
		    !line_is(&a->lines[i], &b->lines[j]))
			return 0;
		i = skip_old(a, i + 1, 0);
		j = skip_old(b, j + 1, 0);
	}
	return 1;
}

/* Base line n is one that h removes (a telling one when `telling`). */
static int removes_line(const aa_hunk *h, long n, int telling)
{
	long at = h->old_start;
	size_t i;

	for (i = 0; i < h->nlines && at <= n; i++) {
		if (h->lines[i].kind == '+')
			continue;
		if (at == n)
			return h->lines[i].kind == '-' &&
			       (!telling || is_telling(&h->lines[i]));
		at++;
	}
	return 0;
}

/*
 * Hunk a only inserts lines at some place between two base lines, and
 * hunk b (of a later diff) removes both of those lines, one of them
 * telling: b rewrites the very spot a adds to, reading it as the base
 * has it, so it does not apply after a ("Option 1: add a line here;
 * Option 2: replace these lines").
 */
static int hunk_rewrites_insertion(const aa_hunk *a, const aa_hunk *b,
				   size_t *work_left)
{
	long at = a->old_start;
	size_t i;

	if (a->nlines > MAX_HUNK_LINES_COMPARED ||
	    b->nlines > MAX_HUNK_LINES_COMPARED ||
	    spend(work_left, 2 * (a->nlines + b->nlines)) < 0 ||
	    !same_base_text(a, b))
		return 0;
	for (i = 0; i < a->nlines; i++) {
		int pure = a->lines[i].kind == '+' &&
			   (i == 0 || a->lines[i - 1].kind == ' ') &&
			   (i + 1 >= a->nlines || a->lines[i + 1].kind != '-');

		if (a->lines[i].kind != '+') {
			at++;
			continue;
		}
		/* the inserted run sits between base lines at-1 and at */
		if (pure && at > 1 && removes_line(b, at - 1, 0) &&
		    removes_line(b, at, 0) &&
		    (removes_line(b, at - 1, 1) || removes_line(b, at, 1)))
			return 1;
	}
	return 0;
}

static int diff_needs_removed(scan *s, const aa_op *first,
			      const aa_op *second)
{
	size_t i, j;

	if (other_base(first, second))
		return 0;
	for (i = 0; i < first->nhunks; i++)
		for (j = 0; j < second->nhunks; j++) {
			if (spend(&s->work_left, 1) < 0)
				return 0;
			if (hunk_needs_removed(&first->hunks[i], &second->hunks[j],
					       &s->work_left) ||
			    hunk_rewrites_insertion(&first->hunks[i],
						    &second->hunks[j],
						    &s->work_left))
				return 1;
		}
	return 0;
}

/*
 * The rival of line-numbered diff i: an earlier one of its path, with
 * only such diffs (or copies from the path) between, that it conflicts
 * with as above.
 */
static size_t diff_rival(scan *s, size_t i, rival_kind *why)
{
	const aa_op *op = &s->cs->ops[i];
	size_t e = s->m[s->path_mention[i]].prev;
	size_t budget = MAX_DIFFS_COMPARED;

	for (; e != NO_OP && budget; e = s->m[e].prev) {
		const mention *m = &s->m[e];
		const aa_op *prev = &s->cs->ops[m->op];

		if (prev->kind == AA_OP_COPY && !m->is_to)
			continue;
		if (!is_line_diff(prev) || dir_op_between(s, m->op, i))
			return NO_OP;
		budget--;
		if (diff_needs_removed(s, prev, op)) {
			*why = RIVAL_DIFFED;
			return m->op;
		}
	}
	return NO_OP;
}

static void find_rivals(scan *s)
{
	size_t i;

	for (i = 0; i < s->cs->n; i++) {
		const aa_op *op = &s->cs->ops[i];

		if (s->path_mention[i] == NO_OP)
			continue;
		if (op->kind == AA_OP_WRITE)
			s->rival[i] = write_rival(s, i, &s->why[i]);
		else if (is_line_diff(op))
			s->rival[i] = diff_rival(s, i, &s->why[i]);
	}
}

/* ---- cutting ---- */

/* All operations come from one input (the split is per answer). */
static int one_input(const aa_changeset *cs)
{
	const char *in = cs->ops[0].pos.input;
	size_t i;

	for (i = 1; i < cs->n; i++) {
		const char *x = cs->ops[i].pos.input;

		if (x != in && (!x || !in || strcmp(x, in)))
			return 0;
	}
	return 1;
}

/*
 * The starts of the alternatives: op i starts one when its rival lies in
 * the current one. starts[0] = 0; returns how many.
 */
static size_t cut(const scan *s, size_t *starts)
{
	size_t i, k = 1;

	starts[0] = 0;
	for (i = 1; i < s->cs->n; i++)
		if (s->rival[i] != NO_OP && s->rival[i] >= starts[k - 1])
			starts[k++] = i;
	return k;
}

/* The first op of the first alternative that a later op redoes. */
static size_t shared_end(const scan *s, size_t first_end)
{
	size_t i, end = first_end;

	for (i = first_end; i < s->cs->n; i++)
		if (s->rival[i] < end)
			end = s->rival[i];
	return end;
}

static int clone_range(aa_changeset *dst, const aa_changeset *src,
		       size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (aa_op_clone(dst, &src->ops[i]) < 0)
			return -1;
	return 0;
}

/* Alternative a: the shared ops (for a > 0), then its own. */
static int build(aa_alternatives *out, const aa_changeset *cs,
		 const size_t *starts, size_t k, size_t shared)
{
	size_t a;

	out->sets = calloc(k, sizeof(*out->sets));
	if (!out->sets)
		return -1;
	out->n = k;
	for (a = 0; a < k; a++) {
		size_t end = a + 1 < k ? starts[a + 1] : cs->n;

		if ((a && clone_range(&out->sets[a], cs, 0, shared) < 0) ||
		    clone_range(&out->sets[a], cs, starts[a], end) < 0)
			return -1;
	}
	return 0;
}

/* ---- the note ---- */

static void put_lines(aa_buf *b, long first, long last)
{
	if (first == last)
		aa_buf_printf(b, "line %ld", first);
	else
		aa_buf_printf(b, "lines %ld-%ld", first, last);
}

static const char *why_text(rival_kind k)
{
	switch (k) {
	case RIVAL_CREATED: return "is created again";
	case RIVAL_DIFFED: return "is diffed again from the same base, over "
				  "lines the diff";
	default: return "is written whole again";
	}
}

static void put_reason(aa_buf *b, const scan *s, size_t i)
{
	const aa_op *op = &s->cs->ops[i], *was = &s->cs->ops[s->rival[i]];

	if (s->why[i] == RIVAL_DIFFED)
		aa_buf_printf(b, "the path %s %s at line %ld changes (at line %ld)",
			      aa_qpath(op->path), why_text(s->why[i]),
			      was->pos.line, op->pos.line);
	else
		aa_buf_printf(b, "the path %s %s at line %ld (first at line %ld)",
			      aa_qpath(op->path), why_text(s->why[i]),
			      op->pos.line, was->pos.line);
}

/*
 * "2 alternatives (lines 3-9, line 20): the path x.py is written whole
 * again at line 20 (first at line 3); lines 3-5 are shared, copied into
 * each", the lines being those where each alternative's blocks start.
 */
static int note_split(aa_diags *d, const scan *s, const size_t *starts,
		      size_t k, size_t shared)
{
	const aa_changeset *cs = s->cs;
	aa_buf b = AA_BUF_INIT;
	aa_pos pos = { cs->ops[0].pos.input, 0 };
	size_t a;

	aa_buf_printf(&b, "%zu alternatives (", k);
	for (a = 0; a < k; a++) {
		size_t end = a + 1 < k ? starts[a + 1] : cs->n;

		aa_buf_puts(&b, a ? ", " : "");
		put_lines(&b, cs->ops[starts[a]].pos.line, cs->ops[end - 1].pos.line);
	}
	aa_buf_puts(&b, "): ");
	for (a = 1; a < k; a++) {
		aa_buf_puts(&b, a > 1 ? "; " : "");
		put_reason(&b, s, starts[a]);
	}
	if (shared) {
		aa_buf_puts(&b, "; the blocks at ");
		put_lines(&b, cs->ops[0].pos.line, cs->ops[shared - 1].pos.line);
		aa_buf_puts(&b, " are shared, copied into each");
	}
	aa_buf_puts(&b, "; each is a suggestion of its own");
	if (aa_buf_oom(&b)) {
		aa_buf_free(&b);
		return aa_oom(d, pos, NULL);
	}
	aa_note(d, pos, NULL, "%s", b.ptr);
	aa_buf_free(&b);
	return 0;
}

/* ---- the entry point ---- */

static int split(const scan *s, aa_alternatives *out, aa_diags *d)
{
	size_t *starts = malloc(s->cs->n * sizeof(*starts));
	size_t k, shared;
	int r = 0;

	if (!starts)
		return -1;
	k = cut(s, starts);
	if (k > AA_MAX_ALTERNATIVES) {
		aa_pos pos = { s->cs->ops[0].pos.input, 0 };

		aa_warn(d, pos, NULL, "%zu alternatives (more than %d): left as one "
			"change set", k, AA_MAX_ALTERNATIVES);
	} else if (k > 1) {
		shared = shared_end(s, starts[1]);
		if (build(out, s->cs, starts, k, shared) < 0 ||
		    note_split(d, s, starts, k, shared) < 0)
			r = -1;
		else
			r = (int)k;
	}
	free(starts);
	return r;
}

int aa_split_alternatives(const aa_changeset *cs, aa_alternatives *out,
			  aa_diags *d)
{
	aa_pos pos = { cs->n ? cs->ops[0].pos.input : NULL, 0 };
	scan s;
	int r;

	out->sets = NULL;
	out->n = 0;
	if (cs->n < 2 || cs->n > (size_t)AA_MAX_OPS || !one_input(cs))
		return 0;
	if (scan_init(&s, cs) < 0) {
		scan_free(&s);
		return aa_fatal_oom(d, pos, NULL);
	}
	find_rivals(&s);
	r = split(&s, out, d);
	scan_free(&s);
	if (r < 0) {
		aa_alternatives_free(out);
		if (!d->nerrors)
			aa_oom(d, pos, NULL);
		return AA_FATAL;
	}
	return r;
}

void aa_alternatives_free(aa_alternatives *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		aa_changeset_free(&a->sets[i]);
	free(a->sets);
	a->sets = NULL;
	a->n = 0;
}
