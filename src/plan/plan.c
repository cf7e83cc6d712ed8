/*
 * The planner: runs the change set over a base snapshot into an
 * in-memory overlay of path nodes, enforcing the shared rules
 * (Documentation/landing.md, "Planner rules"). Pure:
 * all repository access goes through aa_snapshot. This file holds the
 * driver: one operation after another, failures and what follows
 * from them, the result (the edit step is plan_edit.c; planner.h
 * names the other pieces).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "plan/planner.h"
#include "util/util.h"

static int node_changed(planner *p, aa_plan_node *n, int *changed)
{
	const char *base;
	size_t len;

	if (n->exists != n->base_exists || n->bin_preview) {
		*changed = 1;
		return 0;
	}
	if (!n->exists) {
		*changed = 0;
		return 0;
	}
	/* a conflict changes the index (stages), whatever the work tree keeps */
	if (n->mode != n->base_mode || n->conflict) {
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
	if (n->pending && p->opts->no_content &&
	    aa_text_same_bytes(n->pending, base, len) >= 0) {
		*changed = !aa_text_same_bytes(n->pending, base, len);
		return 0;
	}
	if (node_settle(p, n) < 0)
		return -1;
	*changed = !same_bytes(base, len, n->data, n->len);
	return 0;
}

static int collect_changes(planner *p)
{
	aa_plan *pl = p->plan;
	size_t i, k;

	pl->changes = calloc(pl->nnodes ? pl->nnodes : 1, sizeof(*pl->changes));
	if (!pl->changes)
		return oom(p, AA_NOPOS);
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
		/*
		 * A file may become a submodule (git apply --index: the file
		 * goes, an empty directory comes); a submodule becoming a
		 * file would lose its checkout (git's own test says that
		 * must fail: t4137, "replace submodule with a file").
		 */
		if (n->base_exists && n->exists &&
		    n->base_mode == AA_MODE_GITLINK && n->mode != AA_MODE_GITLINK)
			return aa_error(p->d, AA_NOPOS, n->path,
					"a submodule cannot become a file in one change set "
					"(its checkout would be lost): remove the submodule first");
		c = &pl->changes[pl->nchanges++];
		c->path = n->path;
		c->base_exists = n->base_exists;
		c->base_mode = n->base_mode;
		c->base_oid = n->base_oid;
		c->exists = n->exists;
		c->mode = n->mode;
		c->has_oid = n->has_oid;
		c->oid = n->oid;
		/* NULL for a pending text: no_content, nothing reads it */
		c->data = n->data;
		c->len = n->len;
		c->renamed_from = n->exists ? n->renamed_from : NULL;
		c->copied = n->copied;
		c->has_similarity = n->has_similarity;
		c->similarity = n->similarity;
		c->from_exists = n->from_exists;
		c->from_oid = n->from_oid;
		c->landings = n->landings;
		c->nlandings = n->nlandings;
		c->conflict = n->conflict;
		c->bin_preview = n->bin_preview;
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
	planner p = { .plan = plan, .base = base, .opts = o ? o : &no_opts,
		      .d = d, .cs = cs };
	size_t i, errors = d->nerrors;
	int r;

	/* Paths are validated before anything else. */
	if (check_all_paths(&p, cs) < 0)
		return -1;
	/*
	 * An operation that fails leaves its node as it was, so later
	 * operations still run and report their own errors.
	 */
	for (i = 0; i < cs->n;) {
		int as_one;
		size_t end = one_change_end(cs, i, &as_one);
		aa_op moved;

		if (as_one) { /* a diff block that is one change */
			run_one_change(&p, i, end);
			i = end;
			continue;
		}
		for (; i < end; i++) {
			p.cur = i;
			run_op(&p, edit_of_moved(&p, cs, i, &moved));
		}
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
