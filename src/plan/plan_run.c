/*
 * Running one operation of the change set: its paths resolved, the
 * rule of its kind applied (plan_ops.c, plan_write.c), and when it
 * fails, the nodes it should have changed marked failed, so that what
 * depends on them is noted, not checked. The driver (plan.c) and a
 * diff block run as one change (plan_one_change.c) both call run_op().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"

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
		return p->phase ? plan_move_phase(p, op, op->kind == AA_OP_RENAME)
				: plan_move(p, op, op->kind == AA_OP_RENAME);
	}
	return aa_error(p->d, op->pos, op->path, "unknown operation");
}

/* ---- the result ---- */

/* Whether a touched node ends up different from its base. */
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
void drop_diags(aa_diags *d, size_t from)
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
void run_op(planner *p, const aa_op *given)
{
	size_t before = p->d->n, errors = p->d->nerrors;
	aa_op resolved;
	const aa_op *op = &resolved;
	char *path, *to;
	int by_content;
	aa_plan_node *cause;
	aa_pos at = given->pos;
	size_t root_index = NO_NODE;

	if (p->paths_resolved) {
		resolved = *given;
		path = to = NULL;
		by_content = 0;
	} else if (resolve_op(p, given, &resolved, &path, &to, &by_content) < 0) {
		op = given;
	}
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
