/*
 * The planner: runs the change set over a base snapshot into an
 * in-memory overlay of path nodes, enforcing SPEC's shared rules. Pure:
 * all repository access goes through aa_snapshot.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "aiapply/plan.h"
#include "aiapply/path.h"
#include "aiapply/text.h"
#include "text_priv.h"

struct aa_plan_node {
	char *path;
	int base_exists;
	uint32_t base_mode;
	aa_oid base_oid;
	const char *base_data;  /* base bytes, once read */
	size_t base_len;
	int base_read;
	void *base_lent;        /* the snapshot's handle when it lent them */

	int exists;
	uint32_t mode;
	int has_oid;
	aa_oid oid;
	char *data;
	size_t len;
	int data_lent;          /* data points into the change set: not ours */

	int touched;
	char *renamed_from;
	int copied;             /* renamed_from stays: a copy, not a move */
	int from_exists;        /* renamed_from's base entry */
	aa_oid from_oid;
	aa_landing *landings;
	size_t nlandings;
};

typedef struct planner {
	aa_plan *plan;
	const aa_snapshot *base;
	const aa_plan_opts *opts;
	aa_diags *d;
} planner;

/* ---- the overlay: an open-addressing table of nodes by path ---- */

#define NO_NODE ((size_t)-1)

static size_t path_hash(const char *p)
{
	return (size_t)XXH3_64bits(p, strlen(p));
}

static int table_grow(aa_plan *pl)
{
	size_t cap = pl->tablecap ? pl->tablecap * 2 : 64, i;
	size_t *t = malloc(cap * sizeof(*t));

	if (!t)
		return -1;
	for (i = 0; i < cap; i++)
		t[i] = NO_NODE;
	for (i = 0; i < pl->nnodes; i++) {
		size_t h = path_hash(pl->nodes[i].path) & (cap - 1);

		while (t[h] != NO_NODE)
			h = (h + 1) & (cap - 1);
		t[h] = i;
	}
	free(pl->table);
	pl->table = t;
	pl->tablecap = cap;
	return 0;
}

static aa_plan_node *node_find(aa_plan *pl, const char *path)
{
	size_t h;

	if (!pl->tablecap)
		return NULL;
	for (h = path_hash(path) & (pl->tablecap - 1); pl->table[h] != NO_NODE;
	     h = (h + 1) & (pl->tablecap - 1))
		if (!strcmp(pl->nodes[pl->table[h]].path, path))
			return &pl->nodes[pl->table[h]];
	return NULL;
}

static int snapshot_lookup(planner *p, const char *path, uint32_t *mode,
			   aa_oid *oid)
{
	int r = p->base->lookup(p->base->ctx, path, mode, oid);

	if (r < 0)
		aa_error(p->d, (aa_pos){ NULL, 0 }, path,
			 "cannot read the base entry");
	return r;
}

/* The node for `path`, created from the base when new; NULL on error. */
static aa_plan_node *node_get(planner *p, const char *path)
{
	aa_plan *pl = p->plan;
	aa_plan_node *n = node_find(pl, path);
	size_t h;
	int r;

	if (n)
		return n;
	if ((pl->nnodes + 1) * 2 > pl->tablecap && table_grow(pl) < 0)
		return NULL;
	if (pl->nnodes == pl->capnodes) {
		size_t cap = pl->capnodes ? pl->capnodes * 2 : 16;
		aa_plan_node *v = realloc(pl->nodes, cap * sizeof(*v));

		if (!v)
			return NULL;
		pl->nodes = v;
		pl->capnodes = cap;
	}
	n = &pl->nodes[pl->nnodes];
	memset(n, 0, sizeof(*n));
	n->path = aa_strdup(path);
	if (!n->path)
		return NULL;
	r = snapshot_lookup(p, path, &n->base_mode, &n->base_oid);
	if (r < 0) {
		free(n->path);
		return NULL;
	}
	n->base_exists = (r == 0);
	n->exists = n->base_exists;
	n->mode = n->base_mode;
	n->has_oid = n->base_exists;
	n->oid = n->base_oid;
	for (h = path_hash(path) & (pl->tablecap - 1); pl->table[h] != NO_NODE;
	     h = (h + 1) & (pl->tablecap - 1))
		;
	pl->table[h] = pl->nnodes++;
	return n;
}

static int oom(planner *p, aa_pos pos)
{
	return aa_error(p->d, pos, NULL, "out of memory");
}

/* Reads the node's base bytes once: lent by the snapshot, or a copy. */
static int read_base(planner *p, aa_plan_node *n)
{
	const aa_snapshot *sn = p->base;
	aa_buf b = AA_BUF_INIT;

	if (n->base_read)
		return 0;
	if (sn->lend && sn->release) {
		if (sn->lend(sn->ctx, &n->base_oid, &n->base_data, &n->base_len,
			     &n->base_lent) < 0)
			return aa_error(p->d, (aa_pos){ NULL, 0 }, n->path,
					"cannot read the object");
		p->plan->lender = sn;
		n->base_read = 1;
		return 0;
	}
	if (sn->read(sn->ctx, &n->base_oid, &b) < 0) {
		aa_buf_free(&b);
		return aa_error(p->d, (aa_pos){ NULL, 0 }, n->path,
				"cannot read the object");
	}
	n->base_len = b.len;
	n->base_data = aa_buf_detach(&b);
	n->base_read = 1;
	return 0;
}

/* Current bytes of an existing node (borrowed). */
static int node_bytes(planner *p, aa_plan_node *n, const char **data,
		      size_t *len)
{
	if (!n->has_oid) {
		*data = n->data ? n->data : "";
		*len = n->len;
		return 0;
	}
	if (n->base_exists && !memcmp(&n->oid, &n->base_oid, sizeof(aa_oid))) {
		if (read_base(p, n) < 0)
			return -1;
		*data = n->base_data;
		*len = n->base_len;
		return 0;
	}
	{
		aa_buf b = AA_BUF_INIT;

		if (p->base->read(p->base->ctx, &n->oid, &b) < 0) {
			aa_buf_free(&b);
			return aa_error(p->d, (aa_pos){ NULL, 0 }, n->path,
					"cannot read the object");
		}
		/* A moved object: keep its bytes as the node's own data. */
		n->len = b.len;
		n->data = aa_buf_detach(&b);
		n->has_oid = 0;
		*data = n->data;
		*len = n->len;
	}
	return 0;
}

static void node_drop_data(aa_plan_node *n)
{
	if (!n->data_lent)
		free(n->data);
	n->data = NULL;
	n->data_lent = 0;
}

static void node_set_data(aa_plan_node *n, char *data, size_t len)
{
	node_drop_data(n);
	n->data = data;
	n->len = len;
	n->has_oid = 0;
	n->exists = 1;
	n->touched = 1;
}

static void node_delete(aa_plan_node *n)
{
	node_drop_data(n);
	n->len = 0;
	n->has_oid = 0;
	n->exists = 0;
	n->mode = 0;
	n->touched = 1;
}

/* ---- directory queries over base + overlay ---- */

struct dir_walk {
	planner *p;
	char **paths;
	size_t n, cap;
	int any_only;     /* stop at the first live file */
	int found;
	int failed;
};

static int dir_walk_add(struct dir_walk *w, const char *path)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->paths[i], path))
			return 0;
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		char **v = realloc(w->paths, cap * sizeof(*v));

		if (!v)
			return -1;
		w->paths = v;
		w->cap = cap;
	}
	if (!(w->paths[w->n] = aa_strdup(path)))
		return -1;
	w->n++;
	return 0;
}

static int dir_walk_base(const char *path, uint32_t mode, const aa_oid *oid,
			 void *payload)
{
	struct dir_walk *w = payload;
	aa_plan_node *n = node_find(w->p->plan, path);

	(void)mode;
	(void)oid;
	if (n && !n->exists)
		return 0;
	w->found = 1;
	if (w->any_only)
		return 1;
	if (dir_walk_add(w, path) < 0) {
		w->failed = 1;
		return 1;
	}
	return 0;
}

static int under_dir(const char *path, const char *dir)
{
	size_t l = strlen(dir);

	return !strncmp(path, dir, l) && path[l] == '/';
}

/* Lists (or, with any_only, detects) the live files under dir/. */
static int dir_walk(planner *p, const char *dir, struct dir_walk *w)
{
	aa_plan *pl = p->plan;
	size_t i;

	w->p = p;
	if (p->base->each_under(p->base->ctx, dir, dir_walk_base, w) < 0 ||
	    w->failed)
		return aa_error(p->d, (aa_pos){ NULL, 0 }, dir,
				"cannot list the directory");
	if (w->any_only && w->found)
		return 0;
	for (i = 0; i < pl->nnodes; i++) {
		aa_plan_node *n = &pl->nodes[i];

		if (!n->exists || !under_dir(n->path, dir))
			continue;
		w->found = 1;
		if (w->any_only)
			return 0;
		if (dir_walk_add(w, n->path) < 0)
			return oom(p, (aa_pos){ NULL, 0 });
	}
	return 0;
}

static void dir_walk_free(struct dir_walk *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->paths[i]);
	free(w->paths);
}

static int is_directory(planner *p, const char *path, int *yes)
{
	struct dir_walk w = { 0 };

	w.any_only = 1;
	if (dir_walk(p, path, &w) < 0)
		return -1;
	*yes = w.found;
	dir_walk_free(&w);
	return 0;
}

/* ---- rules on paths ---- */

static int check_path_syntax(planner *p, aa_pos pos, const char *path)
{
	const char *why = NULL;

	if (aa_path_check(path, strlen(path), &why) < 0)
		return aa_error(p->d, pos, path, "invalid path: %s", why);
	return 0;
}

/*
 * Every leading directory of `path` must be a directory (or absent) in
 * base + overlay: not a symbolic link, not a submodule, not a file; and
 * not a symbolic link in the work tree either.
 */
static int check_leading_dirs(planner *p, aa_pos pos, const char *path)
{
	char *buf = aa_strdup(path), *slash;
	int r = 0;

	if (!buf)
		return oom(p, pos);
	for (slash = strchr(buf, '/'); slash && !r; slash = strchr(slash + 1, '/')) {
		aa_plan_node *n;

		*slash = '\0';
		n = node_get(p, buf);
		if (!n)
			r = -1;
		else if (n->exists && n->mode == AA_MODE_LINK)
			r = aa_error(p->d, pos, path,
				     "beyond a symbolic link (%s)", aa_qpath(buf));
		else if (n->exists && n->mode == AA_MODE_GITLINK)
			r = aa_error(p->d, pos, path,
				     "inside submodule %s", aa_qpath(buf));
		else if (n->exists)
			r = aa_error(p->d, pos, path,
				     "%s is a file, not a directory", aa_qpath(buf));
		*slash = '/';
	}
	free(buf);
	if (!r && p->base->worktree_beyond_link) {
		char *link = NULL;

		if (p->base->worktree_beyond_link(p->base->ctx, path, &link) == 1)
			r = aa_error(p->d, pos, path,
				     "beyond a symbolic link in the work tree (%s)",
				     link ? aa_qpath(link) : "?");
		free(link);
	}
	return r;
}

static int check_not_submodule(planner *p, aa_pos pos, aa_plan_node *n)
{
	if (n->exists && n->mode == AA_MODE_GITLINK)
		return aa_error(p->d, pos, n->path, "is a submodule");
	return 0;
}

/* A path about to receive a file: no directory may live there. */
static int check_no_directory(planner *p, aa_pos pos, const char *path)
{
	int dir = 0;

	if (is_directory(p, path, &dir) < 0)
		return -1;
	if (dir)
		return aa_error(p->d, pos, path, "is a directory");
	return 0;
}

static int mode_for_new(planner *p, aa_pos pos, const char *path,
			uint32_t asked, uint32_t *out)
{
	if (!asked) {
		*out = AA_MODE_FILE;
		return 0;
	}
	switch (asked & 0170000) {
	case 0100000:
		*out = (asked & 0111) ? AA_MODE_EXEC : AA_MODE_FILE;
		return 0;
	case 0120000:
		*out = AA_MODE_LINK;
		return 0;
	default:
		return aa_error(p->d, pos, path, "unsupported mode %06o", asked);
	}
}

static int is_binary(planner *p, const char *path, const char *data,
		     size_t len)
{
	if (p->base->attr_binary && p->base->attr_binary(p->base->ctx, path) == 1)
		return 1;
	return aa_bytes_look_binary(data, len);
}

/* ---- operations ---- */

static int same_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && (!alen || !memcmp(a, b, alen));
}

static int plan_write(planner *p, const aa_op *op)
{
	aa_plan_node *n;
	uint32_t mode = AA_MODE_FILE;

	if (check_leading_dirs(p, op->pos, op->path) < 0 ||
	    !(n = node_get(p, op->path)) ||
	    check_not_submodule(p, op->pos, n) < 0)
		return -1;
	if (n->exists) {
		const char *cur;
		size_t len;

		mode = n->mode;
		if (op->mode && mode_for_new(p, op->pos, op->path, op->mode, &mode) < 0)
			return -1;
		if (node_bytes(p, n, &cur, &len) < 0)
			return -1;
		if (mode == n->mode &&
		    same_bytes(cur, len, op->content, op->content_len)) {
			aa_note(p->d, op->pos, op->path,
				"already has this content; skipped");
			p->plan->ops_skipped++;
			return 0;
		}
		if (op->exist == AA_EXIST_NEW)
			return aa_error(p->d, op->pos, op->path,
					"already exists (with other content)");
		if (n->mode == AA_MODE_LINK && !op->mode)
			return aa_error(p->d, op->pos, op->path,
					"is a symbolic link; refusing to write a file over it");
	} else {
		if (op->exist == AA_EXIST_MUST)
			return aa_error(p->d, op->pos, op->path,
					"does not exist; nothing to replace");
		if (check_no_directory(p, op->pos, op->path) < 0 ||
		    mode_for_new(p, op->pos, op->path, op->mode, &mode) < 0)
			return -1;
	}
	/* no copy: the change set outlives the plan (see plan.h) */
	node_set_data(n, (char *)(op->content ? op->content : ""), op->content_len);
	n->data_lent = 1;
	n->mode = mode;
	p->plan->ops_applied++;
	return 0;
}

static int append_landings(planner *p, aa_plan_node *n, const aa_edit_ctx *cx)
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
static int load_text(planner *p, const aa_op *op, aa_plan_node *n, aa_text *t)
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

static int plan_text_edit(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx = { 0 };
	aa_buf out = AA_BUF_INIT;
	const char *cur, *why = NULL;
	size_t curlen;
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
		r = append_landings(p, n, &cx);
	if (!r)
		r = node_bytes(p, n, &cur, &curlen);
	if (!r && !same_bytes(cur, curlen, out.ptr, out.len)) {
		size_t len = out.len;

		node_set_data(n, aa_buf_detach(&out), len);
		p->plan->ops_applied++;
	} else if (!r) {
		p->plan->ops_skipped++;
	}
	aa_buf_free(&out);
	aa_edit_ctx_release(&cx);
	return r;
}

/*
 * "--- a/new" "+++ b/new" and one "@@ -0,0 +1,N @@" hunk: the assistant
 * created a file without saying /dev/null. Only that shape, and only for
 * a path that does not exist, creates it.
 */
static int hunk_creates_file(const aa_op *op)
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
	return 0;
}

static int plan_edit(planner *p, const aa_op *op)
{
	aa_plan_node *n;

	if (check_leading_dirs(p, op->pos, op->path) < 0 ||
	    !(n = node_get(p, op->path)) ||
	    check_not_submodule(p, op->pos, n) < 0)
		return -1;
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
	return plan_text_edit(p, op, n);
}

static int check_deletion_content(planner *p, const aa_op *op,
				  aa_plan_node *n)
{
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx = { 0 };
	const char *data, *why = NULL;
	size_t len;
	int r;

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
	for (i = 0; i < w.n && !r; i++) {
		aa_plan_node *n = node_get(p, w.paths[i]);

		if (!n)
			r = -1;
		else if (n->mode == AA_MODE_GITLINK)
			r = aa_error(p->d, op->pos, n->path,
				     "is a submodule; not deleting it");
		else
			node_delete(n);
	}
	dir_walk_free(&w);
	if (!r)
		p->plan->ops_applied++;
	return r;
}

static int plan_delete(planner *p, const aa_op *op)
{
	aa_plan_node *n;
	int dir = 0;

	if (check_leading_dirs(p, op->pos, op->path) < 0 ||
	    !(n = node_get(p, op->path)) ||
	    check_not_submodule(p, op->pos, n) < 0)
		return -1;
	if (op->strict && !p->opts->allow_delete)
		return aa_error(p->d, op->pos, op->path,
				"Explicit confirmation required: deletion needs confirmation (--allow-delete)");
	if (!n->exists) {
		if (is_directory(p, op->path, &dir) < 0)
			return -1;
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
	return 0;
}

/* Moves or copies one file node's content and mode to a new path. */
static int transfer_file(planner *p, const aa_op *op, aa_plan_node *from,
			 const char *to, int move)
{
	aa_plan_node *dst;
	size_t fi = (size_t)(from - p->plan->nodes);

	if (check_leading_dirs(p, op->pos, to) < 0 ||
	    check_no_directory(p, op->pos, to) < 0 ||
	    !(dst = node_get(p, to)))
		return -1;
	from = &p->plan->nodes[fi]; /* node_get may have moved the array */
	if (dst->exists)
		return aa_error(p->d, op->pos, to,
				"already exists; refusing to %s onto it",
				move ? "rename" : "copy");
	dst->exists = 1;
	dst->touched = 1;
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
	dst->from_exists = from->base_exists;
	dst->from_oid = from->base_oid;
	if (move)
		node_delete(from);
	return 0;
}

static int plan_move_directory(planner *p, const aa_op *op, int move)
{
	struct dir_walk w = { 0 };
	size_t i, dl = strlen(op->path);
	int r = 0;

	if (under_dir(op->to, op->path))
		return aa_error(p->d, op->pos, op->path,
				"cannot move a directory into itself (%s)", aa_qpath(op->to));
	if (dir_walk(p, op->path, &w) < 0)
		return -1;
	for (i = 0; i < w.n && !r; i++) {
		char *to = aa_path_join(op->to, w.paths[i] + dl + 1);
		aa_plan_node *n = to ? node_get(p, w.paths[i]) : NULL;

		if (!to || !n)
			r = to ? -1 : oom(p, op->pos);
		else if (n->mode == AA_MODE_GITLINK)
			r = aa_error(p->d, op->pos, n->path,
				     "is a submodule; not moving it");
		else
			r = transfer_file(p, op, n, to, move);
		free(to);
	}
	dir_walk_free(&w);
	return r;
}

static int plan_move(planner *p, const aa_op *op, int move)
{
	aa_plan_node *n;
	int dir = 0;

	if (check_path_syntax(p, op->pos, op->to) < 0 ||
	    check_leading_dirs(p, op->pos, op->path) < 0 ||
	    !(n = node_get(p, op->path)) ||
	    check_not_submodule(p, op->pos, n) < 0)
		return -1;
	if (!strcmp(op->path, op->to))
		return aa_error(p->d, op->pos, op->path,
				"source and destination are the same path");
	if (n->exists) {
		if (transfer_file(p, op, n, op->to, move) < 0)
			return -1;
	} else {
		if (is_directory(p, op->path, &dir) < 0)
			return -1;
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
		if (plan_move_directory(p, op, move) < 0)
			return -1;
	}
	p->plan->ops_applied++;
	return 0;
}

static int plan_op(planner *p, const aa_op *op)
{
	if (!op->path)
		return aa_error(p->d, op->pos, NULL, "operation without a path");
	if (check_path_syntax(p, op->pos, op->path) < 0)
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
	size_t i;

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
	}
	return 0;
}

static int check_all_paths(planner *p, const aa_changeset *cs)
{
	size_t i;
	int r = 0;

	for (i = 0; i < cs->n; i++) {
		const aa_op *op = &cs->ops[i];

		if (op->path && check_path_syntax(p, op->pos, op->path) < 0)
			r = -1;
		if (op->to && check_path_syntax(p, op->pos, op->to) < 0)
			r = -1;
	}
	return r;
}

int aa_plan_build(aa_plan *plan, const aa_changeset *cs,
		  const aa_snapshot *base, const aa_plan_opts *o, aa_diags *d)
{
	static const aa_plan_opts no_opts = { 0 };
	planner p = { plan, base, o ? o : &no_opts, d };
	size_t i, errors = d->nerrors;

	/* Paths are validated before anything else. */
	if (check_all_paths(&p, cs) < 0)
		return -1;
	/*
	 * An operation that fails leaves its node as it was, so later
	 * operations still run and report their own errors.
	 */
	for (i = 0; i < cs->n; i++)
		plan_op(&p, &cs->ops[i]);
	if (d->nerrors > errors)
		return -1;
	return collect_changes(&p);
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
	}
	free(plan->nodes);
	free(plan->table);
	free(plan->changes);
	memset(plan, 0, sizeof(*plan));
}
