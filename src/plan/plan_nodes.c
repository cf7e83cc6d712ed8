/*
 * The planner's overlay: an open-addressing table of path nodes over
 * the base snapshot, their bytes (read or lent once) and the directory
 * index kept in step with them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "plan/planner.h"
#include "util/util.h"

/* ---- the overlay: an open-addressing table of nodes by path ---- */

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

aa_plan_node *node_find(aa_plan *pl, const char *path)
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

/*
 * The base could not be read (an I/O error, a corrupt object): a problem
 * of the repository, not of the answer, so the run is fatal (exit 128)
 * and the message gives the snapshot's own reason when it has one.
 */
int base_failed(planner *p, const char *path, const char *what)
{
	const char *why = p->base->last_error ?
			  p->base->last_error(p->base->ctx) : NULL;

	p->plan->fatal = 1;
	if (why && *why)
		return aa_error(p->d, AA_NOPOS, path, "%s: %s", what, why);
	return aa_error(p->d, AA_NOPOS, path, "%s", what);
}

static int snapshot_lookup(planner *p, const char *path, uint32_t *mode,
			   aa_oid *oid)
{
	int r = p->base->lookup(p->base->ctx, path, mode, oid);

	if (r < 0)
		base_failed(p, path, "cannot read the base entry");
	return r;
}

/* The node for `path`, created from the base when new; NULL on error. */
aa_plan_node *node_get(planner *p, const char *path)
{
	aa_plan *pl = p->plan;
	aa_plan_node *n = node_find(pl, path);
	size_t h;
	int r;

	if (n)
		return n;
	if ((pl->nnodes + 1) * 2 > pl->tablecap && table_grow(pl) < 0)
		return NULL;
	if (AA_GROW(pl->nodes, pl->nnodes, pl->capnodes) < 0)
		return NULL;
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
	n->counted = n->exists;
	n->mode = n->base_mode;
	n->has_oid = n->base_exists;
	n->oid = n->base_oid;
	for (h = path_hash(path) & (pl->tablecap - 1); pl->table[h] != NO_NODE;
	     h = (h + 1) & (pl->tablecap - 1))
		;
	pl->table[h] = pl->nnodes++;
	return n;
}

int oom(planner *p, aa_pos pos)
{
	return aa_oom(p->d, pos, NULL);
}

/* Reads the node's base bytes once: lent by the snapshot, or a copy. */
int read_base(planner *p, aa_plan_node *n)
{
	const aa_snapshot *sn = p->base;
	aa_buf b = AA_BUF_INIT;

	if (n->base_read)
		return 0;
	if (sn->lend && sn->release) {
		if ((sn->lend_path ?
		     sn->lend_path(sn->ctx, n->path, &n->base_oid, &n->base_data,
				   &n->base_len, &n->base_lent) :
		     sn->lend(sn->ctx, &n->base_oid, &n->base_data, &n->base_len,
			      &n->base_lent)) < 0)
			return base_failed(p, n->path, "cannot read the object");
		p->plan->lender = sn;
		n->base_read = 1;
		return 0;
	}
	if (sn->read(sn->ctx, &n->base_oid, &b) < 0) {
		aa_buf_free(&b);
		return base_failed(p, n->path, "cannot read the object");
	}
	n->base_len = b.len;
	n->base_data = aa_buf_detach(&b);
	n->base_read = 1;
	return 0;
}

/* Current bytes of an existing node (borrowed). */
int node_bytes(planner *p, aa_plan_node *n, const char **data,
	       size_t *len)
{
	if (node_settle(p, n) < 0)
		return -1;
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
			return base_failed(p, n->path, "cannot read the object");
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

void node_drop_data(aa_plan_node *n)
{
	if (!n->data_lent)
		free(n->data);
	n->data = NULL;
	n->data_lent = 0;
	if (n->pending) {
		aa_text_free(n->pending);
		free(n->pending);
		n->pending = NULL;
	}
}

/*
 * Keeps an edited text as the node's content without encoding it; the
 * text moves into the node (*t is left empty). Its lines may point into
 * base_data, which lives as long as the plan. 0, or -1 out of memory.
 */
int node_set_pending(aa_plan_node *n, aa_text *t)
{
	aa_text *keep = malloc(sizeof(*keep));
	aa_text empty = AA_TEXT_INIT;

	if (!keep)
		return -1;
	node_drop_data(n);
	*keep = *t;
	*t = empty;
	n->pending = keep;
	n->len = 0;
	n->has_oid = 0;
	n->exists = 1;
	n->touched = 1;
	return 0;
}

/* Encodes a pending text into the node's bytes (no-op without one). */
int node_settle(planner *p, aa_plan_node *n)
{
	aa_buf out = AA_BUF_INIT;
	aa_text *t = n->pending;
	const char *why = NULL;
	size_t len;

	if (!t)
		return 0;
	if (aa_text_encode_why(t, &out, &why) < 0) {
		aa_buf_free(&out);
		return aa_error(p->d, AA_NOPOS, n->path, "cannot encode the result: %s", why);
	}
	len = out.len;
	n->pending = NULL;
	node_set_data(n, aa_buf_detach(&out), len);
	aa_text_free(t);
	free(t);
	if (!n->data)
		n->data = aa_strdup("");
	return n->data ? 0 : oom(p, AA_NOPOS);
}

void node_set_data(aa_plan_node *n, char *data, size_t len)
{
	node_drop_data(n);
	n->data = data;
	n->len = len;
	n->has_oid = 0;
	n->exists = 1;
	n->touched = 1;
}

void node_delete(aa_plan_node *n)
{
	node_drop_data(n);
	n->len = 0;
	n->has_oid = 0;
	n->exists = 0;
	n->mode = 0;
	n->touched = 1;
}

/*
 * A path that an earlier operation left as a --3way conflict takes no
 * further operation: its content is the markers, and what the answer
 * meant by a later edit of it cannot be known until it is resolved.
 */
int check_no_conflict(planner *p, aa_pos pos, const aa_plan_node *n)
{
	if (!n || !n->conflict)
		return 0;
	return aa_error(p->d, pos, n->path,
			"an earlier operation of the answer left this path with conflicts (--3way); "
			"a later operation cannot build on unresolved content: apply the later "
			"operations after resolving it");
}

/* ---- directory queries over base + overlay ---- */

/*
 * Tells the directory index that the node's existence changed since it
 * last heard (call after every change of n->exists). A node that is not
 * a base file is listed under its directories the first time it lives.
 */
int node_sync(planner *p, aa_plan_node *n)
{
	aa_plan *pl = p->plan;
	int was_added = n->counted && !n->base_exists;
	int is_added = n->exists && !n->base_exists;
	int was_removed = !n->counted && n->base_exists;
	int is_removed = !n->exists && n->base_exists;
	int list = is_added && !n->listed;

	if (n->counted == n->exists)
		return 0;
	if (!pl->dirs && !(pl->dirs = calloc(1, sizeof(*pl->dirs))))
		return oom(p, AA_NOPOS);
	if (aa_dir_index_update(pl->dirs, n->path, is_added - was_added,
				is_removed - was_removed, list,
				(size_t)(n - pl->nodes)) < 0)
		return oom(p, AA_NOPOS);
	n->counted = n->exists;
	n->listed |= list;
	return 0;
}
