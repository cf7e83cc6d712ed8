/*
 * A diff block as one change, as git apply applies a patch: every old
 * path of the block names the state before it. Renames and copies
 * take their sources as they were before the block (a copy from a file
 * the block also edits copies the old file); deletions and renames free
 * their old paths before anything new is checked against them (two
 * files swapped by two renames, a file replaced by a directory and the
 * reverse); the rest then runs in the block's order, so an edit of a
 * path the block created, copied or moved there edits that new file.
 *
 * Other formats, and separate blocks of one answer, keep their meaning
 * in order: each operation sees the previous ones' result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"

/* Whether an operation frees or takes an old path (order matters). */
static int frees_or_takes(const aa_op *op)
{
	return op->kind == AA_OP_DELETE || op->kind == AA_OP_RENAME ||
	       op->kind == AA_OP_COPY;
}

/*
 * The end of the run of operations that starts at ops[i]: its diff
 * block, or i + 1 outside one. *as_one: the block is one change whose
 * meaning differs from its order (more than one operation, one of them
 * a deletion, rename or copy; or a rename or copy alone).
 */
size_t one_change_end(const aa_changeset *cs, size_t i, int *as_one)
{
	size_t block = cs->ops[i].diff_block, j;
	int any = frees_or_takes(&cs->ops[i]);

	*as_one = 0;
	if (!block)
		return i + 1;
	for (j = i + 1; j < cs->n && cs->ops[j].diff_block == block; j++)
		any |= frees_or_takes(&cs->ops[j]);
	/*
	 * One rename or copy alone is one change too: its new path is
	 * checked after its old one is freed (foo -> foo/baz, foo/baz ->
	 * foo), as git apply does.
	 */
	*as_one = any && (j > i + 1 || cs->ops[i].kind != AA_OP_DELETE);
	return j;
}

/* Whether the operation has work in this phase. */
static int runs_in(const aa_op *op, one_change_phase phase,
		   const held_file *h)
{
	switch (op->kind) {
	case AA_OP_RENAME:
		return phase == PHASE_TAKE || h->taken;
	case AA_OP_COPY:
		return phase == PHASE_TAKE || (phase == PHASE_FILL && h->taken);
	case AA_OP_DELETE:
		return phase == PHASE_FREE;
	case AA_OP_WRITE:
	case AA_OP_EDIT:
		break;
	}
	return phase == PHASE_FILL;
}

/* Whether op (of the block, held h) frees `path`, or makes it. */
static int frees(const aa_op *op, const held_file *h, const char *path)
{
	if (op->kind == AA_OP_DELETE)
		return op->path && !strcmp(op->path, path);
	return op->kind == AA_OP_RENAME && h->taken && !strcmp(h->path, path);
}

static int makes(const aa_op *op, const held_file *h, const char *path)
{
	if (op->kind == AA_OP_RENAME || op->kind == AA_OP_COPY)
		return h->taken && !strcmp(h->to, path);
	return op->kind != AA_OP_DELETE && op->path && !strcmp(op->path, path);
}

/*
 * The operation of the block that leaves an edit of `path` (the block's
 * operation i) without a file to edit, or NULL. The last earlier part
 * of the block naming the path decides, as in git apply: a deletion or
 * a rename from it (git: "has been renamed/deleted"), where a creation,
 * copy, rename to it or edit gives the file the edit changes. With no
 * earlier part, a later deletion or rename from it: git apply would
 * edit the old file and keep it beside its moved copy, which is
 * refused here.
 */
static const aa_op *freed_for_edit(const planner *p, size_t from, size_t i,
				   size_t end, const char *path)
{
	size_t k;

	for (k = i; k-- > from;) {
		const aa_op *op = &p->cs->ops[k];
		const held_file *h = &p->held[k - from];

		if (h->failed)
			continue;
		if (frees(op, h, path))
			return op;
		if (makes(op, h, path))
			return NULL;
	}
	for (k = i + 1; k < end; k++)
		if (!p->held[k - from].failed &&
		    frees(&p->cs->ops[k], &p->held[k - from], path))
			return &p->cs->ops[k];
	return NULL;
}

/* An edit of a path the block deletes or renames (freed_for_edit()). */
static int edits_freed_path(planner *p, const aa_op *op, size_t from,
			    size_t i, size_t end)
{
	const aa_op *by;

	if (op->kind != AA_OP_EDIT || !op->path ||
	    !(by = freed_for_edit(p, from, i, end, op->path)))
		return 0;
	return aa_error(p->d, op->pos, op->path,
			"the same diff %s it (%s:%ld); a diff's old paths name the files before it, so it cannot also edit it",
			by->kind == AA_OP_DELETE ? "deletes" : "renames",
			by->pos.input ? aa_qpath(by->pos.input) : "<input>",
			by->pos.line);
}

/* Runs one operation of the block in the current phase. */
static void run_in_phase(planner *p, const aa_op *op, const held_file *h)
{
	aa_op moved;

	if ((op->kind != AA_OP_RENAME && op->kind != AA_OP_COPY) ||
	    p->phase == PHASE_TAKE) {
		run_op(p, op);
		return;
	}
	/* the paths the first phase resolved, whatever is there now */
	moved = *op;
	moved.path = h->path;
	moved.to = h->to;
	p->paths_resolved = 1;
	run_op(p, &moved);
	p->paths_resolved = 0;
}

static void free_held(held_file *held, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(held[i].path);
		free(held[i].to);
		free(held[i].data);
	}
	free(held);
}

/*
 * Makes the node of a path and of its leading directories, in the
 * order the checks of an operation on it would (leading directories
 * first).
 */
static void node_and_dirs(planner *p, const char *path)
{
	char *buf, *slash;

	if (!path || aa_path_is_absolute(path) || !(buf = aa_strdup(path)))
		return;
	for (slash = strchr(buf, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		node_get(p, buf);
		*slash = '/';
	}
	node_get(p, buf);
	free(buf);
}

/*
 * Makes the nodes of the block's paths in its order, as running it in
 * order would: the changes, so the reports and the questions of -p,
 * list its files in the same order as before the block ran in phases.
 * (Paths were checked already; one that resolution renames has its
 * node made when it runs.)
 */
static void nodes_in_order(planner *p, size_t from, size_t end)
{
	size_t i;

	for (i = from; i < end; i++) {
		node_and_dirs(p, p->cs->ops[i].path);
		node_and_dirs(p, p->cs->ops[i].to);
	}
}

/* Runs ops[from..end), one diff block, as one change (phases above). */
void run_one_change(planner *p, size_t from, size_t end)
{
	held_file *held = calloc(end - from, sizeof(*held));
	one_change_phase phase;
	size_t i;

	if (!held) {
		oom(p, p->cs->ops[from].pos);
		return;
	}
	p->held = held;
	p->held_first = from;
	nodes_in_order(p, from, end);
	for (phase = PHASE_TAKE; phase <= PHASE_FILL; phase++) {
		p->phase = phase;
		for (i = from; i < end; i++) {
			const aa_op *op = &p->cs->ops[i];
			held_file *h = &held[i - from];
			size_t errors = p->d->nerrors;

			if (h->failed || !runs_in(op, phase, h))
				continue;
			p->cur = i;
			if (phase == PHASE_FILL && edits_freed_path(p, op, from, i, end) < 0)
				h->failed = 1;
			else
				run_in_phase(p, op, h);
			if (p->d->nerrors > errors)
				h->failed = 1;
		}
	}
	p->phase = PHASE_IN_ORDER;
	p->held = NULL;
	free_held(held, end - from);
}
