/*
 * Edits, deletes, renames and copies of files and directories.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"

/*
 * Hunks outside --strict: exactly at their headers' lines on the
 * current content; else, for a git diff whose index line names a blob
 * other than the current content, on that blob merged in (a clean merge
 * only); else exactly on the current content (rungs 1-2); else exactly
 * on the version the answer was written against, merged in; else the
 * whole ladder. Other edits: the ladder.
 */
static int plan_text_edit(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_enc enc = AA_ENC_UTF8;
	int r;

	if (op->edit_kind == AA_EDIT_HUNKS && !op->strict && n->exists) {
		r = 0;
		if (index_line_names_other(op, n)) {
			r = exact_here(p, op, n, &enc, 1);
			if (!r)
				r = from_index_line(p, op, n);
		}
		if (!r)
			r = exact_here(p, op, n, &enc, 0);
		if (!r && (enc == AA_ENC_UTF8 || enc == AA_ENC_UTF8_BOM))
			r = from_history(p, op, n);
		if (r)
			return r < 0 ? -1 : 0;
	}
	return edit_on_ladder(p, op, n);
}

/*
 * "--- a/new" "+++ b/new" and one "@@ -0,0 +1,N @@" hunk: the assistant
 * created a file without saying /dev/null. Only that shape, and only for
 * a path that does not exist, creates it.
 */
int hunk_creates_file(const aa_op *op)
{
	return op->edit_kind == AA_EDIT_HUNKS && !op->strict && op->nhunks == 1 &&
	       op->hunks[0].has_hint && !op->hunks[0].old_start &&
	       !op->hunks[0].old_count;
}

static int plan_edit_creates(planner *p, const aa_op *op, aa_plan_node *n)
{
	uint32_t mode = AA_MODE_FILE;

	if (check_no_directory(p, op->pos, op->path) < 0 ||
	    mode_for_new(p, op->pos, op->path, op->mode, &mode) < 0)
		return -1;
	aa_warn(p->d, op->pos, op->path,
		"does not exist; its hunk adds every line (@@ -0,0), so it is created");
	if (plan_text_edit(p, op, n) < 0)
		return -1;
	n->mode = mode;
	return node_sync(p, n);
}

static int plan_edit_existing(planner *p, const aa_op *op, aa_plan_node *n);

int plan_edit(planner *p, const aa_op *op)
{
	aa_plan_node *n;

	if (check_leading_dirs(p, op->pos, op->path) < 0 ||
	    !(n = node_get(p, op->path)))
		return -1;
	if (n->exists && n->mode == AA_MODE_GITLINK)
		return plan_gitlink_update(p, op, n);
	if (is_gitlink_mode(op->mode))
		return aa_error(p->d, op->pos, op->path,
				"cannot turn a file into a submodule with a mode line");
	if (!n->exists && hunk_creates_file(op))
		return plan_edit_creates(p, op, n);
	if (!n->exists)
		return aa_error(p->d, op->pos, op->path, "%s",
				op->strict ? "File must exist: no such file to patch"
					   : "does not exist; cannot edit it");
	if (op->old_mode && op->old_mode != n->mode)
		aa_warn(p->d, op->pos, op->path,
			"patch expects mode %06o, file has %06o",
			op->old_mode, n->mode);
	if (op->edit_kind == AA_EDIT_ELIDE) {
		aa_op tmp;

		return plan_edit_existing(p, without_label_line(p, op, n, &tmp), n);
	}
	return plan_edit_existing(p, op, n);
}

/*
 * A mode line and/or text edits on an existing file. A failing text edit
 * takes the mode change back: a failed operation leaves its path as it
 * was, so the later ones see what they would have seen without it.
 */
static int plan_edit_existing(planner *p, const aa_op *op, aa_plan_node *n)
{
	uint32_t was_mode = n->mode;
	int was_touched = n->touched, r;

	if (op->mode) {
		uint32_t mode = n->mode;

		if (mode_for_new(p, op->pos, op->path, op->mode, &mode) < 0)
			return -1;
		if ((mode == AA_MODE_LINK) != (n->mode == AA_MODE_LINK))
			return aa_error(p->d, op->pos, op->path,
					"cannot change a file into a symbolic link or back with a mode line");
		if (mode != n->mode) {
			n->mode = mode;
			n->touched = 1;
			if (op->edit_kind == AA_EDIT_NONE)
				p->plan->ops_applied++;
		} else if (op->edit_kind == AA_EDIT_NONE) {
			p->plan->ops_skipped++;
		}
	}
	if (op->edit_kind == AA_EDIT_NONE)
		return 0;
	r = op->edit_kind == AA_EDIT_BINARY ? plan_binary_edit(p, op, n)
					      : plan_text_edit(p, op, n);
	if (r < 0) {
		n->mode = was_mode;
		n->touched = was_touched;
	}
	if (!r && n->conflict)
		n->stage_mode = was_mode; /* stage 3 has the answer's mode */
	return r;
}

static int check_deletion_content(planner *p, const aa_op *op,
				  aa_plan_node *n)
{
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx = { 0 };
	const char *data, *why = NULL;
	size_t len;
	int r;

	if (op->edit_kind == AA_EDIT_BINARY)
		return check_binary_deletion(p, op, n);
	if (!op->nhunks || n->mode == AA_MODE_LINK)
		return 0;
	if (node_bytes(p, n, &data, &len) < 0)
		return -1;
	if (is_binary(p, n->path, data, len))
		return 0;
	if (aa_text_decode_borrowed(&t, data, len, &why) < 0)
		return aa_error(p->d, op->pos, n->path, "cannot decode: %s", why);
	cx.path = n->path;
	cx.diags = p->d;
	cx.strict = op->strict;
	r = aa_edit_check_deletion(&t, op, &cx);
	aa_text_free(&t);
	aa_edit_ctx_release(&cx);
	return r;
}

static int delete_directory(planner *p, const aa_op *op)
{
	struct dir_walk w = { 0 };
	size_t i;
	int r = 0;

	if (dir_walk(p, op->path, &w) < 0)
		return -1;
	r = check_dir_worktree(p, op->pos, op->path, &w);
	/* every check first, so a refusal leaves the directory as it was */
	for (i = 0; i < w.n && !r; i++) {
		aa_plan_node *n = node_get(p, w.paths[i]);

		if (!n)
			r = -1;
		else if (n->mode == AA_MODE_GITLINK)
			r = aa_error(p->d, op->pos, n->path,
				     "is a submodule; not deleting it");
		else
			r = check_no_conflict(p, op->pos, n);
	}
	for (i = 0; i < w.n && !r; i++) {
		aa_plan_node *n = node_find(p->plan, w.paths[i]);

		node_delete(n);
		r = node_sync(p, n);
	}
	dir_walk_free(&w);
	if (!r)
		p->plan->ops_applied++;
	return r;
}

/* aa_version_fn: any version at all is the answer. */
static int any_version(const char *label, const char *data, size_t len,
		       void *payload)
{
	(void)label;
	(void)data;
	(void)len;
	*(int *)payload = 1;
	return 1;
}

/*
 * 1 when the file at node n's path, which does not exist now, did
 * before: in the base (an earlier operation removed it), or in the
 * history the snapshot offers (the path's versions from the base commit
 * back). The evidence that a delete or move of it is already applied,
 * where a path that never existed is a mistake of the answer.
 */
int existed_before(planner *p, const aa_plan_node *n)
{
	const aa_snapshot *sn = p->base;
	char *bound = NULL;
	int found = 0;

	if (n->base_exists)
		return 1;
	if (!sn->history)
		return 0;
	if (sn->history(sn->ctx, n->path, NULL, NULL, NULL, any_version, &found,
			&bound) < 0)
		found = 0;
	free(bound);
	return found;
}

/*
 * Already applied (Documentation/locating.md, "Re-applying is a no-op")
 * for a file that is gone: a delete of a path
 * that existed before, or a move of one whose destination exists, is
 * skipped with a note. Not under --strict (format-diff.md: an error).
 */
static int gone_already(planner *p, const aa_op *op, const aa_plan_node *n,
			const char *what)
{
	if (op->strict || !existed_before(p, n))
		return 0;
	aa_note(p->d, op->pos, op->path,
		"already %s%s%s (it existed before and does not now); skipped",
		what, op->to ? " to " : "", op->to ? aa_qpath(op->to) : "");
	p->plan->ops_skipped++;
	return 1;
}

int plan_delete(planner *p, const aa_op *op)
{
	aa_plan_node *n;
	int dir = 0;

	if (check_leading_dirs(p, op->pos, op->path) < 0 ||
	    !(n = node_get(p, op->path)))
		return -1;
	if (n->exists && n->mode == AA_MODE_GITLINK && deletes_as_gitlink(op) &&
	    (!op->strict || p->opts->allow_delete))
		return plan_gitlink_delete(p, op, n);
	if (check_not_submodule(p, op->pos, n) < 0)
		return -1;
	if (op->strict && !p->opts->allow_delete)
		return aa_error(p->d, op->pos, op->path,
				"Explicit confirmation required: deletion needs confirmation (--allow-delete)");
	if (!n->exists) {
		if (is_directory(p, op->path, &dir) < 0)
			return -1;
		if (!dir && gone_already(p, op, n, "deleted"))
			return 0;
		if (!dir)
			return aa_error(p->d, op->pos, op->path, "%s",
					op->strict ? "File must exist: deleting non-existent file is an error"
						   : "does not exist; cannot delete it");
		if (!op->dir_ok)
			return aa_error(p->d, op->pos, op->path,
					"is a directory; only a file can be deleted here");
		return delete_directory(p, op);
	}
	if (check_deletion_content(p, op, n) < 0)
		return -1;
	node_delete(n);
	p->plan->ops_applied++;
	return node_sync(p, n);
}

/*
 * A move onto an existing file that already holds the moved file (same
 * bytes, same mode) is already applied there: only the source goes.
 * Other content is refused, nothing moved.
 */
static int move_onto_identical(planner *p, const aa_op *op, size_t fi,
			       aa_plan_node *dst, int check_only)
{
	const char *a, *b;
	size_t alen, blen;
	aa_plan_node *from = &p->plan->nodes[fi];

	if (node_bytes(p, from, &a, &alen) < 0 ||
	    node_bytes(p, dst, &b, &blen) < 0)
		return -1;
	if (from->mode != dst->mode || !same_bytes(a, alen, b, blen))
		return aa_error(p->d, op->pos, dst->path,
				"already exists (with other content); refusing to move %s onto it",
				aa_qpath(from->path));
	if (check_only)
		return 0;
	aa_note(p->d, op->pos, dst->path,
		"already has the moved content; only %s is removed",
		aa_qpath(from->path));
	node_delete(from);
	return node_sync(p, from);
}

/*
 * Gives dst (which does not exist) the file `from` holds: its content
 * and mode, and where it came from for the report.
 */
static int fill_moved(planner *p, const aa_op *op, aa_plan_node *dst,
		      const held_file *from, int move)
{
	dst->exists = 1;
	dst->touched = 1;
	if (node_sync(p, dst) < 0)
		return -1;
	dst->mode = from->mode;
	node_drop_data(dst);
	dst->len = 0;
	if (from->has_oid) {
		dst->has_oid = 1;
		dst->oid = from->oid;
	} else {
		dst->has_oid = 0;
		dst->data = aa_strndup(from->data ? from->data : "", from->len);
		if (!dst->data)
			return oom(p, op->pos);
		dst->len = from->len;
	}
	free(dst->renamed_from);
	dst->renamed_from = aa_strdup(from->path);
	dst->copied = !move;
	dst->has_similarity = op->has_similarity;
	dst->similarity = op->similarity;
	dst->from_exists = from->base_exists;
	dst->from_oid = from->base_oid;
	return 0;
}

/* The file a node holds now, as fill_moved() takes it (borrowed). */
static held_file held_of(const aa_plan_node *n)
{
	held_file h = { 0 };

	h.taken = 1;
	h.path = n->path;
	h.mode = n->mode;
	h.has_oid = n->has_oid;
	h.oid = n->oid;
	h.data = n->data;
	h.len = n->len;
	h.base_exists = n->base_exists;
	h.base_oid = n->base_oid;
	return h;
}

/* Moves or copies one file node's content and mode to a new path. */
static int transfer_file(planner *p, const aa_op *op, aa_plan_node *from,
			 const char *to, int move, int check_only)
{
	aa_plan_node *dst;
	held_file h;
	size_t fi = (size_t)(from - p->plan->nodes);

	if (check_leading_dirs(p, op->pos, to) < 0 ||
	    check_no_directory(p, op->pos, to) < 0 ||
	    !(dst = node_get(p, to)))
		return -1;
	from = &p->plan->nodes[fi]; /* node_get may have moved the array */
	if (check_no_conflict(p, op->pos, from) < 0)
		return -1;
	if (dst->exists && move && op->onto_identical)
		return move_onto_identical(p, op, fi, dst, check_only);
	if (dst->exists)
		return aa_error(p->d, op->pos, to,
				"already exists; refusing to %s onto it",
				move ? "rename" : "copy");
	if (check_only)
		return 0;
	if (node_settle(p, from) < 0)
		return -1;
	h = held_of(from);
	if (fill_moved(p, op, dst, &h, move) < 0)
		return -1;
	from = &p->plan->nodes[fi];
	if (move) {
		node_delete(from);
		return node_sync(p, from);
	}
	return 0;
}

static int plan_move_directory(planner *p, const aa_op *op, int move)
{
	struct dir_walk w = { 0 };
	size_t i, dl = strlen(op->path);
	int r = 0, pass;

	if (under_dir(op->to, op->path))
		return aa_error(p->d, op->pos, op->path,
				"cannot move a directory into itself (%s)", aa_qpath(op->to));
	if (dir_walk(p, op->path, &w) < 0)
		return -1;
	r = check_dir_worktree(p, op->pos, op->path, &w);
	/* pass 0 checks every file, pass 1 moves: a refusal moves nothing */
	for (pass = 0; pass < 2 && !r; pass++)
		for (i = 0; i < w.n && !r; i++) {
			char *to = aa_path_join(op->to, w.paths[i] + dl + 1);
			aa_plan_node *n = to ? node_get(p, w.paths[i]) : NULL;

			if (!to || !n)
				r = to ? -1 : oom(p, op->pos);
			else if (n->mode == AA_MODE_GITLINK)
				r = aa_error(p->d, op->pos, n->path,
					     "is a submodule; not moving it");
			else
				r = transfer_file(p, op, n, to, move, !pass);
			free(to);
		}
	dir_walk_free(&w);
	return r;
}

/* A file move whose source is gone and whose destination exists. */
int moved_already(planner *p, const aa_op *op, const aa_plan_node *n)
{
	const aa_plan_node *dst = node_find(p->plan, op->to);
	uint32_t mode;
	aa_oid oid;

	if (!dst && p->base->lookup(p->base->ctx, op->to, &mode, &oid) != 0)
		return 0;
	if (dst && !dst->exists)
		return 0;
	return gone_already(p, op, n, "moved");
}

/* The checks of a move's paths; *n receives the source's node. */
static int move_source(planner *p, const aa_op *op, aa_plan_node **n)
{
	if (check_path_syntax(p, op->pos, op->to) < 0 ||
	    check_leading_dirs(p, op->pos, op->path) < 0 ||
	    !(*n = node_get(p, op->path)) ||
	    check_not_submodule(p, op->pos, *n) < 0)
		return -1;
	if (!strcmp(op->path, op->to))
		return aa_error(p->d, op->pos, op->path,
				"source and destination are the same path");
	return 0;
}

/*
 * A move whose source is no file: a directory (moved when the op may
 * name one), or a move already applied (1: skipped with a note), or
 * an error.
 */
static int move_missing(planner *p, const aa_op *op, aa_plan_node *n, int move)
{
	int dir = 0;

	if (is_directory(p, op->path, &dir) < 0)
		return -1;
	if (!dir && move && moved_already(p, op, n))
		return 1;
	if (!dir)
		return aa_error(p->d, op->pos, op->path,
				"does not exist; cannot %s it",
				move ? "rename" : "copy");
	if (!op->dir_ok)
		return aa_error(p->d, op->pos, op->path,
				"is a directory; only a file can be %s here",
				move ? "renamed" : "copied");
	if (check_no_directory(p, op->pos, op->to) < 0)
		return -1;
	return plan_move_directory(p, op, move);
}

int plan_move(planner *p, const aa_op *op, int move)
{
	aa_plan_node *n;
	int r;

	if (move_source(p, op, &n) < 0)
		return -1;
	if (n->exists)
		r = transfer_file(p, op, n, op->to, move, 0);
	else
		r = move_missing(p, op, n, move);
	if (r < 0)
		return -1;
	if (r == 0)
		p->plan->ops_applied++;
	return 0;
}

/*
 * A diff block as one change (plan_one_change.c), first phase: the
 * move takes its source file as it is before the block (a directory
 * moves at once; a move already applied is skipped).
 */
static int take_source(planner *p, const aa_op *op, int move, held_file *h)
{
	aa_plan_node *n;
	int r;

	if (move_source(p, op, &n) < 0)
		return -1;
	if (!n->exists) {
		if ((r = move_missing(p, op, n, move)) < 0)
			return -1;
		if (r == 0)
			p->plan->ops_applied++;
		return 0;
	}
	if (check_no_conflict(p, op->pos, n) < 0 || node_settle(p, n) < 0)
		return -1;
	*h = held_of(n);
	h->taken = 0;
	h->path = aa_strdup(op->path);
	h->to = aa_strdup(op->to);
	h->data = NULL;
	if (!n->has_oid && !(h->data = aa_strndup(n->data ? n->data : "", n->len)))
		return oom(p, op->pos);
	if (!h->path || !h->to)
		return oom(p, op->pos);
	h->taken = 1;
	return 0;
}

/* Second phase: a rename frees its old path (another may take it). */
static int free_source(planner *p, const held_file *h, int move)
{
	aa_plan_node *n = node_find(p->plan, h->path);

	if (!move || !n || !n->exists) /* a deletion of it freed it too */
		return 0;
	node_delete(n);
	return node_sync(p, n);
}

/*
 * Last phase: the held file lands at its new path, which must be free
 * now that the block's deletions and renames freed theirs. (A diff
 * never asks for onto_identical.)
 */
static int put_moved(planner *p, const aa_op *op, int move, const held_file *h)
{
	aa_plan_node *dst;

	if (check_leading_dirs(p, op->pos, h->to) < 0 ||
	    check_no_directory(p, op->pos, h->to) < 0 ||
	    !(dst = node_get(p, h->to)))
		return -1;
	if (dst->exists)
		return aa_error(p->d, op->pos, h->to,
				"already exists; refusing to %s onto it",
				move ? "rename" : "copy");
	if (fill_moved(p, op, dst, h, move) < 0)
		return -1;
	p->plan->ops_applied++;
	return 0;
}

/* A move of a diff block that is one change, in the block's phase. */
int plan_move_phase(planner *p, const aa_op *op, int move)
{
	held_file *h = &p->held[p->cur - p->held_first];

	switch (p->phase) {
	case PHASE_TAKE:
		return take_source(p, op, move, h);
	case PHASE_FREE:
		return free_source(p, h, move);
	case PHASE_FILL:
		return put_moved(p, op, move, h);
	case PHASE_IN_ORDER:
		break;
	}
	return plan_move(p, op, move);
}
