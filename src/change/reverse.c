/*
 * -R, --reverse over the change set, after parsing and before planning
 * (Documentation/workflows.md, "Landing an answer backwards"): the
 * planner and the locator then land the reversed answer as any other,
 * all or nothing. What each operation becomes:
 *
 *   edit      its sides swapped: a hunk's removed and added lines (and
 *             old/new starts, counts, "\ No newline"), a SEARCH/REPLACE
 *             block's, a V4A chunk's, an aptix find and replace, an ap
 *             REPLACE's snippet and content (an ap INSERT becomes the
 *             deletion of what it inserted); modes swapped
 *   creation  a deletion that checks the file still holds exactly the
 *             content created
 *   deletion  a creation of the content it removed, when it carries it
 *             (a git diff's deletion does); without it: refused
 *   rename    the other way
 *   copy      the copy removed, once it holds the copied file again (a
 *             move back onto the identical source: git apply -R turns a
 *             copy into a copy the other way, which always fails)
 *
 * The operations run in the opposite order; a diff block (one change,
 * src/plan/plan_one_change.c) stays one, its operations in their order,
 * an edit after a rename following the file to its old name.
 *
 * Refused, naming the format and the line: what carries no old side
 * (a whole-file block, a file written whole with elisions, an ap
 * DELETE or range REPLACE, a deletion without its content) and any
 * kind of operation this file does not know (a new payload is refused
 * here until it says how it reverses).
 */
#include <stdlib.h>
#include <string.h>

#include "change/reverse.h"
#include "util/util.h"

/* The empty blob: a git deletion of an empty file shows no hunk. */
static const char empty_blob[] = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";

static const char *format_of(const aa_op *op)
{
	return op->format ? op->format : "the answer";
}

/* A deletion without hunks whose index line names the empty blob. */
static int deletes_empty_file(const aa_op *op)
{
	size_t n = strlen(op->base_blob);

	return !op->nhunks && n >= 7 && !strncmp(op->base_blob, empty_blob, n);
}

/* ---- what cannot be reversed ---- */

static int refuse(aa_diags *d, const aa_op *op, aa_pos pos, const char *why)
{
	return aa_error(d, pos, op->path, "%s (%s); -R cannot reverse it",
			why, format_of(op));
}

static int check_apmod(const aa_op *op, const aa_apmod *m, aa_diags *d)
{
	if (m->action == AA_AP_DELETE)
		return refuse(d, op, m->pos,
			      "an ap DELETE does not say where its lines stood");
	if (m->start_snippet || m->end_snippet)
		return refuse(d, op, m->pos,
			      "an ap range REPLACE carries only the ends of the old lines");
	if (m->leading_blank_lines || m->trailing_blank_lines)
		return refuse(d, op, m->pos,
			      "an ap modification that takes blank lines with it does not say how many there were");
	if (!m->content || !*m->content || (m->action == AA_AP_REPLACE && !m->snippet))
		return refuse(d, op, m->pos,
			      "an ap modification with no content leaves nothing to find");
	return 0;
}

static int check_edit(const aa_op *op, aa_diags *d)
{
	size_t i;
	int r = 0;

	switch (op->edit_kind) {
	case AA_EDIT_NONE:
	case AA_EDIT_HUNKS:
	case AA_EDIT_V4A:
	case AA_EDIT_REPLACEMENTS:
		return 0;
	case AA_EDIT_AP:
		/*
		 * ap strips the trailing blanks of every line of its result
		 * (strip_trailing_ws): the reverse does too, so blanks the
		 * forward run took off other lines stay off.
		 */
		for (i = 0; i < op->napmods; i++)
			r |= check_apmod(op, &op->apmods[i], d);
		return r;
	case AA_EDIT_ELIDE:
		return refuse(d, op, op->pos,
			      "a whole-file block carries no old content");
	case AA_EDIT_BINARY:
		break; /* check_binary(), before the kind of operation */
	}
	return refuse(d, op, op->pos, "this kind of edit cannot be reversed yet");
}

/*
 * A binary change reverses by its second hunk, which git writes after
 * the forward one ("Binary files ... differ" has neither: its result is
 * found by id either way). git: "cannot reverse-apply a binary patch
 * without the reverse hunk".
 */
static int check_binary(const aa_op *op, aa_diags *d)
{
	if (op->nbin == 1)
		return refuse(d, op, op->bin_pos,
			      "a binary patch without its reverse hunk");
	return 0;
}

/* 0 when op can be reversed, else -1 with the reason in d. */
static int check_op(const aa_op *op, aa_diags *d)
{
	/* its payload is not hunks: the checks below would misread it */
	if (op->edit_kind == AA_EDIT_BINARY)
		return check_binary(op, d);
	switch (op->kind) {
	case AA_OP_WRITE:
		if (op->exist == AA_EXIST_NEW)
			return 0;
		if (op->exist == AA_EXIST_EMPTY)
			return refuse(d, op, op->pos,
				      "a block that fills a missing or empty file does not say which it was");
		return refuse(d, op, op->pos,
			      "a whole-file block carries no old content");
	case AA_OP_DELETE:
		if (op->nhunks || deletes_empty_file(op))
			return 0;
		return refuse(d, op, op->pos,
			      "a deletion without the deleted lines cannot be restored");
	case AA_OP_RENAME:
	case AA_OP_COPY:
		return 0;
	case AA_OP_EDIT:
		return check_edit(op, d);
	}
	return refuse(d, op, op->pos, "this kind of operation cannot be reversed yet");
}

/* ---- turning each operation around ---- */

static void swap_ptr(char **a, char **b)
{
	char *t = *a;

	*a = *b;
	*b = t;
}

static void swap_size(size_t *a, size_t *b)
{
	size_t t = *a;

	*a = *b;
	*b = t;
}

static void reverse_hunk(aa_hunk *h)
{
	long t;
	int e;
	size_t k;

	for (k = 0; k < h->nlines; k++)
		if (h->lines[k].kind == '-' || h->lines[k].kind == '+')
			h->lines[k].kind = h->lines[k].kind == '-' ? '+' : '-';
	t = h->old_start, h->old_start = h->new_start, h->new_start = t;
	t = h->old_count, h->old_count = h->new_count, h->new_count = t;
	e = h->old_no_eol, h->old_no_eol = h->new_no_eol, h->new_no_eol = e;
	/*
	 * An elision in a REPLACE stood for lines the file had; reversed it
	 * would be on the side that is sought, where it is taken literally
	 * (and found nowhere: refused by the locator, never guessed).
	 */
	h->may_elide = 0;
}

/*
 * Hunks with line hints (a diff's) keep their order, sorted by line on
 * either side; hunks without (SEARCH/REPLACE blocks, V4A chunks) applied
 * one after another, so the reverse undoes the last first.
 */
static void reverse_hunks(aa_op *op)
{
	size_t i, n = op->nhunks;
	int hinted = 1;

	for (i = 0; i < n; i++) {
		reverse_hunk(&op->hunks[i]);
		hinted &= op->hunks[i].has_hint;
	}
	for (i = 0; !hinted && i < n / 2; i++) {
		aa_hunk t = op->hunks[i];

		op->hunks[i] = op->hunks[n - 1 - i];
		op->hunks[n - 1 - i] = t;
	}
}

static void reverse_repls(aa_op *op)
{
	size_t i, n = op->nrepls;

	for (i = 0; i < n; i++) {
		aa_repl *r = &op->repls[i];

		swap_ptr(&r->find, &r->replace);
		swap_size(&r->find_len, &r->replace_len);
		/*
		 * "all" replaced every occurrence then; the text written may
		 * have stood elsewhere before. Reversed, only one occurrence
		 * is put back, and several are refused as ambiguous.
		 */
		r->all = 0;
	}
	for (i = 0; i < n / 2; i++) {
		aa_repl t = op->repls[i];

		op->repls[i] = op->repls[n - 1 - i];
		op->repls[n - 1 - i] = t;
	}
}

/* REPLACE: content for snippet; an INSERT: the deletion of what it put. */
static void reverse_apmods(aa_op *op)
{
	size_t i, n = op->napmods;

	for (i = 0; i < n; i++) {
		aa_apmod *m = &op->apmods[i];

		if (m->action == AA_AP_REPLACE) {
			swap_ptr(&m->snippet, &m->content);
			continue;
		}
		free(m->snippet);
		m->snippet = m->content;
		m->content = NULL;
		m->action = AA_AP_DELETE;
	}
	for (i = 0; i < n / 2; i++) {
		aa_apmod t = op->apmods[i];

		op->apmods[i] = op->apmods[n - 1 - i];
		op->apmods[n - 1 - i] = t;
	}
}

static void swap_modes(aa_op *op)
{
	uint32_t m = op->mode;

	op->mode = op->old_mode;
	op->old_mode = m;
}

static void reverse_edit(aa_op *op)
{
	swap_modes(op);
	/* the blob named was the old side's; the new side's is not known */
	op->base_blob[0] = '\0';
	if (op->edit_kind == AA_EDIT_HUNKS || op->edit_kind == AA_EDIT_V4A)
		reverse_hunks(op);
	else if (op->edit_kind == AA_EDIT_REPLACEMENTS)
		reverse_repls(op);
	else if (op->edit_kind == AA_EDIT_AP)
		reverse_apmods(op);
}

/* A creation becomes a deletion whose removed lines are its content. */
static int creation_to_deletion(aa_op *op)
{
	const char *s = op->content ? op->content : "";
	size_t len = op->content_len, i = 0;
	aa_hunk *h;

	op->kind = AA_OP_DELETE;
	op->edit_kind = AA_EDIT_NONE;
	op->old_mode = op->mode;
	op->mode = 0;
	if (!(h = aa_op_add_hunk(op, op->pos)))
		return -1;
	h->has_hint = 1;
	h->old_start = 1;
	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) : len;
		/* a hunk line holds no line terminator: CRLF's CR neither */
		size_t cr = nl && end > i && s[end - 1] == '\r';

		if (aa_hunk_add_line(h, '-', s + i, end - i - cr) < 0)
			return -1;
		i = nl ? end + 1 : len;
		h->old_no_eol = !nl;
	}
	h->old_count = (long)h->nlines;
	free(op->content);
	op->content = NULL;
	op->content_len = 0;
	op->exist = AA_EXIST_ANY;
	return 0;
}

/* A deletion that carried its lines becomes their creation. */
static int deletion_to_creation(aa_op *op)
{
	aa_buf b = AA_BUF_INIT;
	aa_op lines = { 0 };
	size_t i, k;

	for (i = 0; i < op->nhunks; i++)
		for (k = 0; k < op->hunks[i].nlines; k++) {
			aa_buf_put(&b, op->hunks[i].lines[k].text,
				   op->hunks[i].lines[k].len);
			aa_buf_putc(&b, '\n');
		}
	if (op->nhunks && op->hunks[op->nhunks - 1].old_no_eol && b.len)
		b.ptr[--b.len] = '\0';
	if (aa_buf_oom(&b)) {
		aa_buf_free(&b);
		return -1;
	}
	/* the hunks go: freed through an op that holds only them */
	lines.edit_kind = AA_EDIT_NONE;
	lines.hunks = op->hunks;
	lines.nhunks = op->nhunks;
	aa_op_free(&lines);
	op->hunks = NULL;
	op->nhunks = 0;
	op->kind = AA_OP_WRITE;
	op->exist = AA_EXIST_NEW;
	op->mode = op->old_mode;
	op->old_mode = 0;
	op->content_len = b.len;
	op->content = aa_buf_detach(&b);
	op->base_blob[0] = '\0';
	return 0;
}

/*
 * A binary change: ids and hunks swapped (aa_op_binary_reverse), a
 * creation becomes the deletion of the blob it made and the reverse.
 */
static int reverse_binary(aa_op *op)
{
	if (aa_op_binary_reverse(op) < 0)
		return -1;
	swap_modes(op);
	if (op->kind == AA_OP_WRITE) {
		op->kind = AA_OP_DELETE;
		op->exist = AA_EXIST_ANY;
	} else if (op->kind == AA_OP_DELETE) {
		op->kind = AA_OP_WRITE;
		op->exist = AA_EXIST_NEW;
	}
	return 0;
}

/* Turns one operation around in place (copies: see add_copy_back). */
static int reverse_op(aa_op *op)
{
	if (op->edit_kind == AA_EDIT_BINARY &&
	    (op->kind == AA_OP_WRITE || op->kind == AA_OP_DELETE ||
	     op->kind == AA_OP_EDIT))
		return reverse_binary(op);
	switch (op->kind) {
	case AA_OP_WRITE:
		return creation_to_deletion(op);
	case AA_OP_DELETE:
		return deletion_to_creation(op);
	case AA_OP_RENAME:
		swap_ptr(&op->path, &op->to);
		op->onto_identical = 0;
		return 0;
	case AA_OP_COPY:
		/* the copy goes back onto its identical source: removed */
		swap_ptr(&op->path, &op->to);
		op->kind = AA_OP_RENAME;
		op->onto_identical = 1;
		return 0;
	case AA_OP_EDIT:
		reverse_edit(op);
		return 0;
	}
	return -1;
}

/* ---- the new order ---- */

/* Moves *op (reversed) to the end of out; op is left empty. */
static int move_reversed(aa_changeset *out, aa_op *op, size_t block)
{
	aa_op *dst;

	if (reverse_op(op) < 0 || !(dst = aa_changeset_add(out, op->kind, op->pos)))
		return -1;
	*dst = *op;
	dst->diff_block = block;
	memset(op, 0, sizeof(*op));
	return 0;
}

/* The copy of the block [s, e) that made `path`, or NULL. */
static const aa_op *copy_making(const aa_changeset *cs, size_t s, size_t e,
				const char *path, aa_op_kind kind)
{
	size_t i;

	for (i = s; i < e; i++)
		if (cs->ops[i].kind == kind && cs->ops[i].to &&
		    !strcmp(cs->ops[i].to, path))
			return &cs->ops[i];
	return NULL;
}

/* Two edits of one file (after the renames were followed). */
static int edit_same_file(const aa_op *a, const aa_op *b)
{
	return a->kind == AA_OP_EDIT && b->kind == AA_OP_EDIT && a->path &&
	       b->path && !strcmp(a->path, b->path);
}

/*
 * A file a diff names twice is edited twice, the second on the first's
 * result (git apply does so): reversed, the second is undone first.
 * The edits of each such file trade places, last with first, in
 * [s, e); the other operations keep theirs.
 */
static void reverse_edits_of_each_file(aa_changeset *cs, size_t s, size_t e)
{
	size_t i, k, lo, hi;

	for (i = s; i < e; i++) {
		for (k = s; k < i && !edit_same_file(&cs->ops[k], &cs->ops[i]); k++)
			;
		if (k < i || cs->ops[i].kind != AA_OP_EDIT)
			continue; /* turned with its file's first edit, or none */
		lo = i;
		hi = e - 1;
		while (hi > lo && !edit_same_file(&cs->ops[hi], &cs->ops[lo]))
			hi--;
		while (lo < hi) {
			aa_op t = cs->ops[lo];

			cs->ops[lo] = cs->ops[hi];
			cs->ops[hi] = t;
			do
				lo++;
			while (lo < hi && !edit_same_file(&cs->ops[lo], &cs->ops[hi]));
			do
				hi--;
			while (hi > lo && !edit_same_file(&cs->ops[hi], &cs->ops[lo]));
		}
	}
}

/*
 * A diff block: one change, its operations in their order. An edit of
 * a file the block renamed follows it to its old name; an edit of a
 * copy goes with the copy, which comes after the block in order (the
 * copy is first turned back into its source's content, then removed
 * once identical to it).
 */
static int move_block(aa_changeset *cs, size_t s, size_t e, aa_changeset *out)
{
	size_t i, block = cs->ops[s].diff_block;
	int r = 0;

	for (i = s; i < e; i++) {
		aa_op *op = &cs->ops[i];
		const aa_op *ren;
		char *old;

		if (op->kind != AA_OP_EDIT || !op->path ||
		    !(ren = copy_making(cs, s, e, op->path, AA_OP_RENAME)))
			continue;
		if (!(old = aa_strdup(ren->path)))
			return -1;
		free(op->path);
		op->path = old;
	}
	reverse_edits_of_each_file(cs, s, e);
	for (i = s; i < e && !r; i++) {
		aa_op *op = &cs->ops[i];

		if (op->kind == AA_OP_COPY || (op->kind == AA_OP_EDIT &&
		    copy_making(cs, s, e, op->path, AA_OP_COPY)))
			continue;
		r = move_reversed(out, op, block);
	}
	for (i = s; i < e && !r; i++) {
		aa_op *copy = &cs->ops[i];
		size_t k;

		if (copy->kind != AA_OP_COPY)
			continue;
		for (k = s; k < e && !r; k++)
			if (cs->ops[k].kind == AA_OP_EDIT && cs->ops[k].path &&
			    !strcmp(cs->ops[k].path, copy->to))
				r = move_reversed(out, &cs->ops[k], 0);
		if (!r)
			r = move_reversed(out, copy, 0);
	}
	return r;
}

/* The start of the run that ends at e: its diff block, or one operation. */
static size_t run_start(const aa_changeset *cs, size_t e)
{
	size_t s = e - 1, block = cs->ops[s].diff_block;

	while (block && s > 0 && cs->ops[s - 1].diff_block == block)
		s--;
	return s;
}

int aa_changeset_reverse(aa_changeset *cs, aa_diags *d)
{
	aa_changeset out = AA_CHANGESET_INIT;
	size_t i, e, before = d->nerrors;
	int r = 0;

	for (i = 0; i < cs->n; i++)
		check_op(&cs->ops[i], d);
	if (d->nerrors > before)
		return -1;
	for (e = cs->n; e > 0 && !r; ) {
		size_t s = run_start(cs, e);

		r = cs->ops[s].diff_block ? move_block(cs, s, e, &out)
					  : move_reversed(&out, &cs->ops[s], 0);
		e = s;
	}
	aa_changeset_free(cs);
	*cs = out;
	if (r < 0)
		return aa_oom(d, AA_NOPOS, NULL);
	return 0;
}
