/*
 * The planner: runs the change set over a base snapshot into an
 * in-memory overlay of path nodes, enforcing the shared rules
 * (Documentation/landing.md, "Planner rules"). Pure:
 * all repository access goes through aa_snapshot. This file holds the
 * driver (one operation after another, failures and what follows
 * from them, the result) and the edit step (an edit engine's ladder
 * on a node's text); planner.h names the other pieces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"

int append_landings(planner *p, aa_plan_node *n, const aa_edit_ctx *cx)
{
	aa_landing *v;

	if (!cx->nlandings)
		return 0;
	v = realloc(n->landings, (n->nlandings + cx->nlandings) * sizeof(*v));
	if (!v)
		return oom(p, (aa_pos){ NULL, 0 });
	memcpy(v + n->nlandings, cx->landings, cx->nlandings * sizeof(*v));
	n->landings = v;
	n->nlandings += cx->nlandings;
	return 0;
}

/* Decodes the node's text for an edit, refusing links and binaries. */
int load_text(planner *p, const aa_op *op, aa_plan_node *n, aa_text *t)
{
	const char *data, *why = NULL;
	size_t len;

	if (n->mode == AA_MODE_LINK)
		return aa_error(p->d, op->pos, n->path,
				"is a symbolic link; text edits are refused");
	if (node_bytes(p, n, &data, &len) < 0)
		return -1;
	if (is_binary(p, n->path, data, len))
		return aa_error(p->d, op->pos, n->path,
				op->strict ? "Binary file targeted: binary files cannot be modified via diff"
					   : "binary file; text edits are refused");
	if (len > AA_MAX_TEXT_SIZE)
		return aa_error(p->d, op->pos, n->path,
				"file too large for a text edit (%zu bytes)", len);
	/* the node's bytes outlive the text: it is freed before they change */
	if (aa_text_decode_borrowed(t, data, len, &why) < 0)
		return aa_error(p->d, op->pos, n->path, "cannot decode: %s", why);
	return 0;
}

static int run_edit_engine(aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	switch (op->edit_kind) {
	case AA_EDIT_HUNKS:
		return aa_edit_hunks(t, op, cx);
	case AA_EDIT_REPLACEMENTS:
		return aa_edit_replacements(t, op, cx);
	case AA_EDIT_AP:
		return aa_edit_ap(t, op, cx);
	case AA_EDIT_V4A:
		return aa_edit_v4a(t, op, cx);
	case AA_EDIT_ELIDE:
		return aa_edit_elide(t, op, cx);
	case AA_EDIT_NONE:
		break;
	}
	return 0;
}

/* Keeps an edit's result as the node's content (or counts it skipped). */
int commit_result(planner *p, aa_plan_node *n, aa_buf *out,
		  const aa_edit_ctx *cx)
{
	const char *cur;
	size_t curlen;

	if (append_landings(p, n, cx) < 0 || node_bytes(p, n, &cur, &curlen) < 0)
		return -1;
	if (!same_bytes(cur, curlen, out->ptr, out->len)) {
		size_t len = out->len;

		node_set_data(n, aa_buf_detach(out), len);
		p->plan->ops_applied++;
	} else {
		p->plan->ops_skipped++;
	}
	return 0;
}

/* The whole ladder of the op's engine on the current content. */
int edit_on_ladder(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx = { 0 };
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;
	int r;

	if (load_text(p, op, n, &t) < 0) {
		aa_text_free(&t);
		return -1;
	}
	cx.path = n->path;
	cx.diags = p->d;
	cx.strict = op->strict;
	r = run_edit_engine(&t, op, &cx);
	if (!r && aa_text_encode_why(&t, &out, &why) < 0)
		r = aa_error(p->d, op->pos, n->path, "cannot encode the result: %s", why);
	aa_text_free(&t);
	if (!r)
		r = commit_result(p, n, &out, &cx);
	aa_buf_free(&out);
	aa_edit_ctx_release(&cx);
	return r;
}

/* ---- hunks and the revision the answer was written against ---- */
/* The op's edits land on the text without an error (a trial: nothing kept). */
int edit_fits(const aa_op *op, aa_plan_node *n, const char *data,
	      size_t len)
{
	aa_diags scratch = AA_DIAGS_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx = { 0 };
	const char *why = NULL;
	int r = -1;

	if (aa_text_decode_borrowed(&t, data, len, &why) == 0) {
		cx.path = n->path;
		cx.diags = &scratch;
		cx.strict = op->strict;
		r = run_edit_engine(&t, op, &cx);
	}
	aa_text_free(&t);
	aa_edit_ctx_release(&cx);
	aa_diags_free(&scratch);
	return r == 0;
}


static int plan_op(planner *p, const aa_op *op)
{
	if (!op->path)
		return aa_error(p->d, op->pos, NULL, "operation without a path");
	if (check_path_syntax(p, op->pos, op->path) < 0)
		return -1;
	if (check_no_conflict(p, op->pos, node_find(p->plan, op->path)) < 0 ||
	    (op->to && check_no_conflict(p, op->pos, node_find(p->plan, op->to)) < 0))
		return -1;
	switch (op->kind) {
	case AA_OP_WRITE:
		return plan_write(p, op);
	case AA_OP_EDIT:
		return plan_edit(p, op);
	case AA_OP_DELETE:
		return plan_delete(p, op);
	case AA_OP_RENAME:
	case AA_OP_COPY:
		if (!op->to)
			return aa_error(p->d, op->pos, op->path,
					"%s without a destination",
					aa_op_kind_name(op->kind));
		return plan_move(p, op, op->kind == AA_OP_RENAME);
	}
	return aa_error(p->d, op->pos, op->path, "unknown operation");
}

/* ---- the result ---- */

/* Whether a touched node ends up different from its base. */
static int node_changed(planner *p, aa_plan_node *n, int *changed)
{
	const char *base;
	size_t len;

	if (n->exists != n->base_exists) {
		*changed = 1;
		return 0;
	}
	if (!n->exists) {
		*changed = 0;
		return 0;
	}
	if (n->mode != n->base_mode) {
		*changed = 1;
		return 0;
	}
	if (n->has_oid) {
		*changed = memcmp(&n->oid, &n->base_oid, sizeof(aa_oid)) != 0;
		return 0;
	}
	if (read_base(p, n) < 0)
		return -1;
	base = n->base_data;
	len = n->base_len;
	*changed = !same_bytes(base, len, n->data, n->len);
	return 0;
}

static int collect_changes(planner *p)
{
	aa_plan *pl = p->plan;
	size_t i, k;

	pl->changes = calloc(pl->nnodes ? pl->nnodes : 1, sizeof(*pl->changes));
	if (!pl->changes)
		return oom(p, (aa_pos){ NULL, 0 });
	for (i = 0; i < pl->nnodes; i++) {
		aa_plan_node *n = &pl->nodes[i];
		aa_change *c;
		int changed = 0;

		if (!n->touched)
			continue;
		if (node_changed(p, n, &changed) < 0)
			return -1;
		if (!changed)
			continue;
		if (n->base_exists && n->exists &&
		    (n->base_mode == AA_MODE_GITLINK) != (n->mode == AA_MODE_GITLINK))
			return aa_error(p->d, (aa_pos){ NULL, 0 }, n->path,
					"a submodule cannot become a file (or a file a submodule) in one change set");
		c = &pl->changes[pl->nchanges++];
		c->path = n->path;
		c->base_exists = n->base_exists;
		c->base_mode = n->base_mode;
		c->base_oid = n->base_oid;
		c->exists = n->exists;
		c->mode = n->mode;
		c->has_oid = n->has_oid;
		c->oid = n->oid;
		c->data = n->data;
		c->len = n->len;
		c->renamed_from = n->exists ? n->renamed_from : NULL;
		c->copied = n->copied;
		c->from_exists = n->from_exists;
		c->from_oid = n->from_oid;
		c->landings = n->landings;
		c->nlandings = n->nlandings;
		c->conflict = n->conflict;
		c->stage_mode = n->stage_mode;
		for (k = 0; k < 3; k++) {
			c->stage[k] = n->stage[k];
			c->stage_len[k] = n->stage_len[k];
		}
		c->regions = n->regions;
		c->nregions = n->nregions;
	}
	return 0;
}

/* A path as an answer wrote it: valid, absolute ones inside the work tree. */
static int check_answer_path(planner *p, aa_pos pos, const char *path)
{
	const char *rel = path;

	if (aa_path_is_absolute(path) && !(rel = inside_worktree(p, path)))
		return aa_error(p->d, pos, path, "invalid path: %s",
				p->opts->worktree ? "absolute path outside the work tree"
						  : "absolute path (no work tree)");
	return check_path_syntax(p, pos, rel);
}

static int check_all_paths(planner *p, const aa_changeset *cs)
{
	size_t i;
	int r = 0;

	for (i = 0; i < cs->n; i++) {
		const aa_op *op = &cs->ops[i];

		if (op->path && check_answer_path(p, op->pos, op->path) < 0)
			r = -1;
		if (op->to && check_answer_path(p, op->pos, op->to) < 0)
			r = -1;
	}
	return r;
}

/* ---- one run, every error: failures and what follows from them ---- */

/*
 * The failed path an operation depends on: one of its paths, or a
 * directory holding one, that an earlier failed operation should have
 * changed. NULL when there is none.
 */
static aa_plan_node *failed_dependency(planner *p, const char *path)
{
	char *buf;
	char *slash;
	aa_plan_node *n = NULL;

	if (!path || !p->plan->nnodes || !(buf = aa_strdup(path)))
		return NULL;
	for (slash = strchr(buf, '/'); slash && !n; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		n = node_find(p->plan, buf);
		if (n && !n->failed)
			n = NULL;
		*slash = '/';
	}
	if (!n && (n = node_find(p->plan, buf)) && !n->failed)
		n = NULL;
	free(buf);
	return n;
}

/* Forgets the diagnostics from index `from` on (a follow-on failure's). */
static void drop_diags(aa_diags *d, size_t from)
{
	while (d->n > from) {
		aa_diag *dg = &d->v[--d->n];

		if (dg->level == AA_DIAG_ERROR && d->nerrors)
			d->nerrors--;
		free(dg->path);
		free(dg->input);
		free(dg->msg);
	}
}

/* Marks a path failed; returns the root failure's node (NO_NODE: none). */
static size_t mark_failed(planner *p, const char *path, aa_pos at, size_t root)
{
	aa_plan_node *n;

	if (!path)
		return root;
	/* paths were validated before any operation ran */
	n = node_find(p->plan, path);
	if (!n) {
		size_t errs = p->d->n;

		n = node_get(p, path);
		drop_diags(p->d, errs); /* its failure was reported already */
	}
	if (n && !n->failed) {
		n->failed = 1;
		n->failed_at = at;
		n->failed_root = root == NO_NODE ? (size_t)(n - p->plan->nodes) : root;
	}
	return n ? n->failed_root : root;
}

/*
 * Runs one operation. When it fails because an earlier failed operation
 * did not make the path what it expected (a file it should have created,
 * a directory it should have moved), its own errors are follow-ons: they
 * are replaced by one note per failed path, and its paths count as
 * failed too, so that a chain of operations on a path that was never
 * created gives one error and one note, not one error each.
 */
static void run_op(planner *p, const aa_op *given)
{
	size_t before = p->d->n, errors = p->d->nerrors;
	aa_op resolved;
	const aa_op *op = &resolved;
	char *path, *to;
	int by_content;
	aa_plan_node *cause;
	aa_pos at = given->pos;
	size_t root_index = NO_NODE;

	if (resolve_op(p, given, &resolved, &path, &to, &by_content) < 0)
		op = given;
	cause = failed_dependency(p, op->path);
	if (!cause)
		cause = failed_dependency(p, op->to);
	if (op == &resolved)
		plan_op(p, op);
	if (p->d->nerrors == errors) {
		if (by_content)
			if (mark_resolved(p, op) == 0)
				remember_resolved(p, op->pos, given->path, op->path);
		free(path);
		free(to);
		return;
	}
	if (cause) {
		aa_plan_node *root = &p->plan->nodes[cause->failed_root];

		at = cause->failed_at;
		root_index = cause->failed_root;
		/* the cause's own error stays: the set still fails */
		drop_diags(p->d, before);
		if (!root->cascade_noted) {
			root->cascade_noted = 1;
			aa_note(p->d, op->pos, op->path,
				"not checked: it depends on %s, which the failed operation at %s:%ld should have changed (later operations that follow from it are not checked either)",
				aa_qpath(root->path), at.input ? aa_qpath(at.input) : "<input>", at.line);
		}
	}
	root_index = mark_failed(p, op->path, at, root_index);
	mark_failed(p, op->to, at, root_index);
	free(path);
	free(to);
}

/*
 * An edit of a path that the next operation moves (v4a "*** Update
 * File" with "*** Move to"), when the path is gone, existed before and
 * the destination exists: the move is already applied (moved_already()),
 * and the edit goes to the destination, where its changes are now (and
 * usually already applied too). Else the operation itself.
 */
static const aa_op *edit_of_moved(planner *p, const aa_changeset *cs,
				  size_t i, aa_op *tmp)
{
	const aa_op *op = &cs->ops[i], *next = i + 1 < cs->n ? &cs->ops[i + 1] : NULL;
	const aa_plan_node *src = NULL, *dst = NULL;
	size_t errs = p->d->n;

	if (op->kind != AA_OP_EDIT || op->strict || !next || next->kind != AA_OP_RENAME ||
	    !op->path || !next->path || !next->to || strcmp(op->path, next->path))
		return op;
	if (check_path_syntax(p, op->pos, next->to) == 0 &&
	    (src = node_get(p, op->path)) != NULL && !src->exists)
		dst = node_get(p, next->to);
	/* the checks' own errors are the operations' to report */
	drop_diags(p->d, errs);
	if (!dst || !dst->exists || !existed_before(p, node_find(p->plan, op->path)))
		return op;
	*tmp = *op;
	tmp->path = next->to;
	return tmp;
}

int aa_plan_build(aa_plan *plan, const aa_changeset *cs,
		  const aa_snapshot *base, const aa_plan_opts *o, aa_diags *d)
{
	static const aa_plan_opts no_opts = { 0 };
	planner p = { plan, base, o ? o : &no_opts, d, NULL, 0, 0, 0, 0, cs, 0,
		      NULL, NULL, 0, 0 };
	size_t i, errors = d->nerrors;
	int r;

	/* Paths are validated before anything else. */
	if (check_all_paths(&p, cs) < 0)
		return -1;
	/*
	 * An operation that fails leaves its node as it was, so later
	 * operations still run and report their own errors.
	 */
	for (i = 0; i < cs->n; i++) {
		aa_op moved;

		p.cur = i;
		run_op(&p, edit_of_moved(&p, cs, i, &moved));
	}
	for (i = 0; i < p.nfiles; i++)
		free(p.files[i]);
	free(p.files);
	for (i = 0; i < p.nres; i++) {
		free(p.res_from[i]);
		free(p.res_to[i]);
	}
	free(p.res_from);
	free(p.res_to);
	if (d->nerrors > errors)
		return -1;
	r = collect_changes(&p);
	return r;
}

size_t aa_plan_conflicts(const aa_plan *plan)
{
	size_t i, n = 0;

	for (i = 0; plan && i < plan->nchanges; i++)
		n += plan->changes[i].conflict != 0;
	return n;
}

void aa_plan_free(aa_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nnodes; i++) {
		aa_plan_node *n = &plan->nodes[i];

		free(n->path);
		if (n->base_lent)
			plan->lender->release(plan->lender->ctx, n->base_lent);
		else
			free((char *)n->base_data);
		node_drop_data(n);
		free(n->renamed_from);
		free(n->landings);
		free(n->stage[0]);
		free(n->stage[1]);
		free(n->stage[2]);
		free(n->regions);
	}
	free(plan->nodes);
	free(plan->table);
	free(plan->changes);
	if (plan->dirs)
		aa_dir_index_free(plan->dirs);
	free(plan->dirs);
	memset(plan, 0, sizeof(*plan));
}
