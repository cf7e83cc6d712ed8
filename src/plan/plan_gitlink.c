/*
 * Gitlinks (submodule entries): "Subproject commit" hunks that add,
 * update or delete a gitlink.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"

/* ---- gitlinks (submodule entries) ---- */

#define SUBPROJECT "Subproject commit "

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * "Subproject commit <40 hex>", as git diff writes a gitlink, with an
 * optional final newline: 0 and the commit id, or -1.
 */
static int parse_subproject(const char *s, size_t len, aa_oid *oid)
{
	size_t pl = strlen(SUBPROJECT), i;

	if (len && s[len - 1] == '\n')
		len--;
	if (len != pl + 40 || memcmp(s, SUBPROJECT, pl))
		return -1;
	for (i = 0; i < 20; i++) {
		int hi = hex_value(s[pl + 2 * i]), lo = hex_value(s[pl + 2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		oid->id[i] = (unsigned char)(hi * 16 + lo);
	}
	return 0;
}

int is_gitlink_mode(uint32_t mode)
{
	return (mode & 0170000) == AA_MODE_GITLINK;
}

/*
 * The commit ids a gitlink diff names: its hunks hold exactly one
 * "-Subproject commit A" line and/or one "+Subproject commit B" line and
 * nothing else. Returns 1 when the hunks have that shape (has_old/has_new
 * say which sides are there), 0 when not.
 */
static int gitlink_hunks(const aa_op *op, aa_oid *old, int *has_old,
			 aa_oid *new, int *has_new)
{
	size_t i, j;

	*has_old = *has_new = 0;
	if (op->edit_kind != AA_EDIT_HUNKS || !op->nhunks)
		return 0;
	for (i = 0; i < op->nhunks; i++)
		for (j = 0; j < op->hunks[i].nlines; j++) {
			const aa_hline *l = &op->hunks[i].lines[j];
			int *seen = l->kind == '-' ? has_old : has_new;

			if ((l->kind != '-' && l->kind != '+') || *seen ||
			    parse_subproject(l->text, l->len,
					     l->kind == '-' ? old : new) < 0)
				return 0;
			*seen = 1;
		}
	return 1;
}

static void hex_of(const aa_oid *oid, char out[41])
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < 20; i++) {
		out[2 * i] = digits[oid->id[i] >> 4];
		out[2 * i + 1] = digits[oid->id[i] & 15];
	}
	out[40] = '\0';
}

/* Points an existing or new node at a commit, as a gitlink. */
static int node_set_gitlink(planner *p, aa_plan_node *n, const aa_oid *commit)
{
	node_drop_data(n);
	n->len = 0;
	n->exists = 1;
	n->mode = AA_MODE_GITLINK;
	n->has_oid = 1;
	n->oid = *commit;
	n->touched = 1;
	p->plan->ops_applied++;
	return node_sync(p, n);
}

/*
 * A git diff adding a submodule ("new file mode 160000", "+Subproject
 * commit <id>"): a gitlink entry, no object needed (the commit lives in
 * the submodule's repository).
 */
int plan_gitlink_add(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_oid commit;

	if (parse_subproject(op->content ? op->content : "", op->content_len,
			     &commit) < 0)
		return aa_error(p->d, op->pos, op->path,
				"a submodule (mode 160000) needs one line 'Subproject commit <40-hex id>'");
	if (n->exists && n->mode == AA_MODE_GITLINK &&
	    !memcmp(&n->oid, &commit, sizeof(commit))) {
		aa_note(p->d, op->pos, op->path,
			"already is this submodule commit; skipped");
		p->plan->ops_skipped++;
		return 0;
	}
	if (n->exists)
		return aa_error(p->d, op->pos, op->path,
				"already exists; refusing to add a submodule there");
	if (check_no_directory(p, op->pos, op->path) < 0)
		return -1;
	return node_set_gitlink(p, n, &commit);
}

/* "-Subproject commit A" / "+Subproject commit B" on a gitlink. */
int plan_gitlink_update(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_oid old, new;
	int has_old, has_new;
	char cur[41], want[41];

	if (op->mode && op->mode != AA_MODE_GITLINK)
		return aa_error(p->d, op->pos, op->path,
				"is a submodule; a mode line cannot make it a file");
	if (!gitlink_hunks(op, &old, &has_old, &new, &has_new) ||
	    !has_old || !has_new)
		return aa_error(p->d, op->pos, op->path,
				"is a submodule; text edits are refused (only '-Subproject commit <id>' / '+Subproject commit <id>')");
	if (!memcmp(&n->oid, &old, sizeof(old))) {
		if (!memcmp(&old, &new, sizeof(old)))
			p->plan->ops_skipped++;
		else
			node_set_gitlink(p, n, &new);
		return 0;
	}
	if (!memcmp(&n->oid, &new, sizeof(new))) {
		aa_note(p->d, op->pos, op->path,
			"already is this submodule commit; skipped");
		p->plan->ops_skipped++;
		return 0;
	}
	hex_of(&n->oid, cur);
	hex_of(&old, want);
	return aa_error(p->d, op->pos, op->path,
			"submodule is at commit %s, the patch expects %s", cur, want);
}

/* A git diff deleting a submodule ("deleted file mode 160000"). */
int plan_gitlink_delete(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_oid old, new;
	int has_old, has_new;
	char cur[41], want[41];

	if (op->nhunks &&
	    (!gitlink_hunks(op, &old, &has_old, &new, &has_new) || has_new))
		return aa_error(p->d, op->pos, op->path,
				"is a submodule; its deletion may only remove 'Subproject commit <id>'");
	if (op->nhunks && has_old && memcmp(&n->oid, &old, sizeof(old))) {
		hex_of(&n->oid, cur);
		hex_of(&old, want);
		return aa_error(p->d, op->pos, op->path,
				"submodule is at commit %s, the patch deletes %s",
				cur, want);
	}
	node_delete(n);
	p->plan->ops_applied++;
	return node_sync(p, n);
}

/* Whether a delete names a gitlink as one: its mode line or its hunk. */
int deletes_as_gitlink(const aa_op *op)
{
	aa_oid old, new;
	int has_old, has_new;

	return op->old_mode == AA_MODE_GITLINK ||
	       (gitlink_hunks(op, &old, &has_old, &new, &has_new) && has_old &&
		!has_new);
}

/* ---- operations ---- */
