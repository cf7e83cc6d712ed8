/*
 * The planner: runs the change set over a base snapshot into an
 * in-memory overlay of path nodes, enforcing SPEC's shared rules. Pure:
 * all repository access goes through aa_snapshot.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "plan/plan.h"
#include "change/path.h"
#include "edit/text.h"
#include "edit/text_priv.h"
#include "plan/plan_dirs.h"
#include "plan/history_merge.h"
#include "plan/resolve.h"

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

	int counted;            /* the `exists` the directory index knows */
	int listed;             /* recorded in its directories' lists */

	aa_pos written_at;      /* the last whole-file write of it (line 0: none) */

	int failed;             /* an operation on this path failed ... */
	aa_pos failed_at;       /* ... here (the first failure) */
	size_t failed_root;     /* the node of the path that failed first */
	int cascade_noted;      /* (on a root) its follow-on note was given */

	int conflict;           /* --3way: data holds conflict markers */
	uint32_t stage_mode;    /* ... stages 1 and 2's mode */
	char *stage[3];         /* ... stages 1, 2, 3 (owned) */
	size_t stage_len[3];
	aa_conflict_region *regions;
	size_t nregions;
};

typedef struct planner {
	aa_plan *plan;
	const aa_snapshot *base;
	const aa_plan_opts *opts;
	aa_diags *d;
	/* every base file's path, read once when a path must be resolved */
	char **files;
	size_t nfiles, capfiles;
	int files_read, files_oom;
	const aa_changeset *cs; /* the operations, and the one running */
	size_t cur;
	/* paths resolved by content so far: from[i] was taken as to[i] */
	char **res_from, **res_to;
	size_t nres, capres;
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

/*
 * The base could not be read (an I/O error, a corrupt object): a problem
 * of the repository, not of the answer, so the run is fatal (exit 128)
 * and the message gives the snapshot's own reason when it has one.
 */
static int base_failed(planner *p, const char *path, const char *what)
{
	const char *why = p->base->last_error ?
			  p->base->last_error(p->base->ctx) : NULL;

	p->plan->fatal = 1;
	if (why && *why)
		return aa_error(p->d, (aa_pos){ NULL, 0 }, path, "%s: %s", what, why);
	return aa_error(p->d, (aa_pos){ NULL, 0 }, path, "%s", what);
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

static int oom(planner *p, aa_pos pos)
{
	return aa_oom(p->d, pos, NULL);
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

/*
 * A path that an earlier operation left as a --3way conflict takes no
 * further operation: its content is the markers, and what the answer
 * meant by a later edit of it cannot be known until it is resolved.
 */
static int check_no_conflict(planner *p, aa_pos pos, const aa_plan_node *n)
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
static int node_sync(planner *p, aa_plan_node *n)
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
		return oom(p, (aa_pos){ NULL, 0 });
	if (aa_dir_index_update(pl->dirs, n->path, is_added - was_added,
				is_removed - was_removed, list,
				(size_t)(n - pl->nodes)) < 0)
		return oom(p, (aa_pos){ NULL, 0 });
	n->counted = n->exists;
	n->listed |= list;
	return 0;
}

struct dir_walk {
	planner *p;
	char **paths;
	size_t n, cap;
	int any_only;     /* stop at the first live file */
	int count_all;    /* count every base file, live or not */
	size_t count;
	int found;
	int failed;
};

static int dir_walk_add(struct dir_walk *w, const char *path)
{
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
	aa_plan_node *n;

	(void)mode;
	(void)oid;
	if (w->count_all) {
		w->count++;
		return 0;
	}
	n = node_find(w->p->plan, path);
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

static int walk_base(planner *p, const char *dir, struct dir_walk *w)
{
	w->p = p;
	if (p->base->each_under(p->base->ctx, dir, dir_walk_base, w) < 0 ||
	    w->failed)
		return base_failed(p, dir, "cannot list the directory");
	return 0;
}

/*
 * Lists the live files under dir/: the base's (less those deleted) then
 * the ones the overlay added, which the directory index holds. The two
 * sets are disjoint, so no path is listed twice.
 */
static int dir_walk(planner *p, const char *dir, struct dir_walk *w)
{
	aa_dir_entry *e = p->plan->dirs ? aa_dir_index_find(p->plan->dirs, dir) : NULL;
	size_t i;

	if (walk_base(p, dir, w) < 0)
		return -1;
	for (i = 0; e && i < e->nlisted; i++) {
		aa_plan_node *n = &p->plan->nodes[e->listed[i]];

		if (n->exists && dir_walk_add(w, n->path) < 0)
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

/* How many base files lie under dir/, counted once per directory. */
static int base_count(planner *p, aa_dir_entry *e, size_t *count)
{
	struct dir_walk w = { 0 };

	if (e->base_count < 0) {
		w.count_all = 1;
		if (walk_base(p, e->dir, &w) < 0)
			return -1;
		e->base_count = (long)w.count;
	}
	*count = (size_t)e->base_count;
	return 0;
}

/*
 * Whether a live file lies under path/. The overlay's counts answer
 * unless it deleted base files there; then the base's count, taken once,
 * does; with no deletion, the first base file found does.
 */
static int is_directory(planner *p, const char *path, int *yes)
{
	aa_dir_entry *e = p->plan->dirs ? aa_dir_index_find(p->plan->dirs, path) : NULL;
	struct dir_walk w = { 0 };
	size_t count;

	if (e && e->added) {
		*yes = 1;
		return 0;
	}
	if (e && e->removed) {
		if (base_count(p, e, &count) < 0)
			return -1;
		*yes = count > e->removed;
		return 0;
	}
	w.any_only = 1;
	if (walk_base(p, path, &w) < 0)
		return -1;
	*yes = w.found;
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
 * No leading directory of `probe` may be a symbolic link in the work
 * tree; the error names `path`.
 */
static int check_worktree_link(planner *p, aa_pos pos, const char *path,
			       const char *probe)
{
	const char *slash = strrchr(probe, '/');
	aa_dir_entry *e = NULL;
	char *link = NULL;
	int r = 0, beyond;

	if (!p->base->worktree_beyond_link || !slash)
		return 0;
	/*
	 * Planning writes nothing, so a directory once found free of links
	 * (with its parents) stays so: one lstat per directory, not per op.
	 */
	if (!p->plan->dirs && !(p->plan->dirs = calloc(1, sizeof(*p->plan->dirs))))
		return oom(p, pos);
	e = aa_dir_index_get(p->plan->dirs, probe, (size_t)(slash - probe));
	if (!e)
		return oom(p, pos);
	if (e->wt_clear)
		return 0;
	beyond = p->base->worktree_beyond_link(p->base->ctx, probe, &link);
	if (beyond == 1)
		r = aa_error(p->d, pos, path,
			     "beyond a symbolic link in the work tree (%s)",
			     link ? aa_qpath(link) : "?");
	else if (beyond == 0)
		e->wt_clear = 1;
	free(link);
	return r;
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
	if (!r)
		r = check_worktree_link(p, pos, path, path);
	return r;
}

/* Length of the directory part of a path ("a/b" for "a/b/c"; 0 for "c"). */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

/*
 * A directory operation reaches every file under `dir`: neither the
 * directory itself nor any directory on the way to one of its files may
 * be a symbolic link in the work tree (SPEC: nothing beyond a link).
 * Stops at the first one found, so a link holding many files gives one
 * error. Files come in walk order, so each directory is checked once.
 */
static int check_dir_worktree(planner *p, aa_pos pos, const char *dir,
			      const struct dir_walk *w)
{
	char *inside;
	const char *last = NULL;
	size_t i, lastlen = 0;
	int r;

	if (!p->base->worktree_beyond_link)
		return 0;
	if (!(inside = malloc(strlen(dir) + 2)))
		return oom(p, pos);
	strcpy(inside, dir);
	strcat(inside, "/");
	/* "dir/": its own lstat, as for any leading directory */
	r = check_worktree_link(p, pos, dir, inside);
	free(inside);
	for (i = 0; i < w->n && !r; i++) {
		size_t l = dir_len(w->paths[i]);

		if (last && l == lastlen && !strncmp(last, w->paths[i], l))
			continue;
		r = check_worktree_link(p, pos, w->paths[i], w->paths[i]);
		last = w->paths[i];
		lastlen = l;
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

static int is_gitlink_mode(uint32_t mode)
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
static int plan_gitlink_add(planner *p, const aa_op *op, aa_plan_node *n)
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
static int plan_gitlink_update(planner *p, const aa_op *op, aa_plan_node *n)
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
static int plan_gitlink_delete(planner *p, const aa_op *op, aa_plan_node *n)
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
static int deletes_as_gitlink(const aa_op *op)
{
	aa_oid old, new;
	int has_old, has_new;

	return op->old_mode == AA_MODE_GITLINK ||
	       (gitlink_hunks(op, &old, &has_old, &new, &has_new) && has_old &&
		!has_new);
}

/* ---- operations ---- */

static int same_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && (!alen || !memcmp(a, b, alen));
}

/* A labelled block that is one part of the file, not all of it. */
static int refuse_excerpt(planner *p, const aa_op *op, const char *cur,
			  size_t len, const char *content, size_t clen)
{
	aa_excerpt ex;
	int r = aa_looks_like_excerpt(cur, len, content, clen, &ex);

	if (r <= 0)
		return r < 0 ? oom(p, op->pos) : 0;
	return aa_error(p->d, op->pos, op->path,
			"the block looks like an excerpt of the file, not all of it: "
			"it runs from the file's line %zu to its line %zu and leaves out "
			"%zu of its %zu non-blank lines; nothing written (give the whole "
			"file, mark left-out parts with \"... existing code ...\", or "
			"answer with a diff or SEARCH/REPLACE)",
			ex.first, ex.last, ex.dropped, ex.total);
}

/*
 * A second whole-file write of one path in one answer throws the first
 * away: often two alternatives ("Option 1 ... Option 2") for the same
 * file. It applies in order as SPEC says, but not silently.
 */
static void warn_written_twice(planner *p, const aa_op *op, aa_plan_node *n)
{
	if (n->written_at.line)
		aa_warn(p->d, op->pos, op->path,
			"is written whole a second time in this change set "
			"(first at %s:%ld); this content replaces that one "
			"entirely (alternatives? --each --branch=<name> lands each on a branch of its own)",
			n->written_at.input ? aa_qpath(n->written_at.input) : "<input>",
			n->written_at.line);
	n->written_at = op->pos;
}

/* The first lines of a and b, without their line endings, are equal. */
static int same_first_line(const char *a, size_t alen, const char *b,
			   size_t blen)
{
	const char *ea = memchr(a, '\n', alen), *eb = memchr(b, '\n', blen);
	size_t la = ea ? (size_t)(ea - a) : alen, lb = eb ? (size_t)(eb - b) : blen;

	if (la && a[la - 1] == '\r')
		la--;
	if (lb && b[lb - 1] == '\r')
		lb--;
	return la == lb && (!la || !memcmp(a, b, la));
}

/*
 * A whole-file block whose first line is a comment naming the path
 * ("# app/x.py") was labelled by it: when the existing file does not
 * start with that line, it is the answer's label, not content, and is
 * left out (writing it would add a line the file never had). Returns
 * the op to use: `op` itself, or `tmp` without the line.
 */
static const aa_op *without_label_line(planner *p, const aa_op *op,
				       aa_plan_node *n, aa_op *tmp)
{
	const char *cur;
	size_t len;

	if (!op->label_line_len || !n->exists ||
	    op->label_line_len > op->content_len ||
	    node_bytes(p, n, &cur, &len) < 0)
		return op;
	if (same_first_line(cur, len, op->content, op->content_len))
		return op;
	aa_note(p->d, op->pos, op->path,
		"the block's first line %s names the file; it is not written "
		"into it (the file does not start with it)",
		aa_qtext(op->content, op->label_line_len -
			 (op->content[op->label_line_len - 1] == '\n'), 200));
	*tmp = *op;
	tmp->content += op->label_line_len;
	tmp->content_len -= op->label_line_len;
	tmp->label_line_len = 0;
	if (tmp->pos.line)
		tmp->pos.line++;
	return tmp;
}

/* Whether a whole write may replace the existing file n (of len bytes). */
static int check_overwrite(planner *p, const aa_op *op, aa_plan_node *n,
			   size_t len)
{
	if (op->exist == AA_EXIST_NEW)
		return aa_error(p->d, op->pos, op->path,
				"already exists (with other content)");
	if (op->exist == AA_EXIST_EMPTY && len)
		return aa_error(p->d, op->pos, op->path,
				"already exists and is not empty (an empty SEARCH only creates a file or fills an empty one)");
	if (n->mode == AA_MODE_LINK && !op->mode)
		return aa_error(p->d, op->pos, op->path,
				"is a symbolic link; refusing to write a file over it");
	return 0;
}

/*
 * A whole replacement of an existing text file keeps the file's
 * conventions (SPEC "Text fidelity"), which a chat answer cannot carry:
 * its encoding and BOM, and its line endings -- each new line ending in
 * LF takes the file's dominant ending; a line whose own CR stood before
 * its LF (a CRLF answer, a real diff of a CRLF file) keeps CRLF. The
 * final newline is the content's. Content that brings its own BOM or
 * UTF-16, and binary files, are written as they are. Returns 0 with
 * *out set (NULL: no change needed, else allocated bytes in *outlen),
 * or -1 (out of memory).
 */
static int keep_conventions(planner *p, const aa_op *op, aa_plan_node *n,
			    const char *cur, size_t len, const char *content,
			    size_t clen, char **out, size_t *outlen)
{
	aa_text file = AA_TEXT_INIT, t = AA_TEXT_INIT;
	aa_buf b = AA_BUF_INIT;
	const char *why = NULL;
	size_t i;
	int r = 0;

	*out = NULL;
	if (!len || n->mode == AA_MODE_LINK || is_binary(p, n->path, cur, len) ||
	    aa_bytes_look_binary(content, clen) ||
	    aa_text_decode_borrowed(&file, cur, len, &why) < 0)
		goto done;
	if (file.enc == AA_ENC_UTF8 && file.dominant == AA_EOL_LF)
		goto done; /* the common case: nothing to carry over */
	if (aa_text_decode_borrowed(&t, content, clen, &why) < 0 ||
	    t.enc != AA_ENC_UTF8)
		goto done;
	t.enc = file.enc;
	if (file.dominant != AA_EOL_LF)
		for (i = 0; i < t.n; i++)
			if (t.lines[i].eol == AA_EOL_LF)
				t.lines[i].eol = file.dominant;
	if (aa_text_encode(&t, &b) < 0 || aa_buf_oom(&b)) {
		r = oom(p, op->pos);
		goto done;
	}
	if (!same_bytes(b.ptr, b.len, content, clen)) {
		*outlen = b.len;
		*out = aa_buf_detach(&b);
	}
done:
	aa_buf_free(&b);
	aa_text_free(&t);
	aa_text_free(&file);
	return r;
}

/* Nothing but blanks and line ends. */
static int only_blanks(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n' &&
		    s[i] != '\f' && s[i] != '\v')
			return 0;
	return 1;
}

/*
 * SPEC "No silent loss", before a whole write replaces the existing
 * file n (cur, len bytes): a text block never replaces a binary file,
 * an empty block never empties a file (a deletion is said explicitly).
 */
static int check_no_loss(planner *p, const aa_op *op, aa_plan_node *n,
			 const char *cur, size_t len, const char *content,
			 size_t clen)
{
	if (!len || n->mode == AA_MODE_LINK)
		return 0;
	if (is_binary(p, n->path, cur, len) && !aa_bytes_look_binary(content, clen))
		return aa_error(p->d, op->pos, op->path,
				"is a binary file (%zu bytes); a text block does not replace it: "
				"nothing written (to replace it, delete it and create it "
				"explicitly)", len);
	if (only_blanks(content, clen))
		return aa_error(p->d, op->pos, op->path,
				"the block is empty and would empty the file (%zu bytes): "
				"nothing written (a deletion is said explicitly: a delete "
				"operation or a diff that removes every line)", len);
	return 0;
}

/*
 * A mark on the whole file n (line 0): a tolerant placement that is no
 * rung of the ladder (a resolved path, dropped definitions).
 */
static int add_file_mark(planner *p, aa_plan_node *n, aa_pos pos, aa_how how)
{
	aa_landing *v = realloc(n->landings, (n->nlandings + 1) * sizeof(*v));

	if (!v)
		return oom(p, pos);
	memset(&v[n->nlandings], 0, sizeof(*v));
	v[n->nlandings].pos = pos;
	v[n->nlandings].how = how;
	n->landings = v;
	n->nlandings++;
	return 0;
}

/*
 * A whole replacement that drops top-level definitions of the file
 * (aa_removed_definitions: functions, classes, ... at column 0) names
 * them in a warning and counts as a tolerant placement: a partial file
 * given as the whole ("Option 1" of two) loses code that way.
 */
static int note_removed_definitions(planner *p, const aa_op *op,
				    aa_plan_node *n, const char *cur,
				    size_t len, const char *content,
				    size_t clen)
{
	aa_buf names = AA_BUF_INIT;
	size_t count = 0;

	if (is_binary(p, n->path, cur, len) || aa_bytes_look_binary(content, clen))
		return 0;
	if (aa_removed_definitions(cur, len, content, clen, 8, &names, &count) < 0) {
		aa_buf_free(&names);
		return oom(p, op->pos);
	}
	if (count)
		aa_warn(p->d, op->pos, op->path,
			"the whole-file block drops %zu top-level definition%s of the "
			"file: %s (a tolerant placement: check the block is the whole "
			"file, not a part of it)", count, count == 1 ? "" : "s",
			names.ptr ? names.ptr : "");
	aa_buf_free(&names);
	return count ? add_file_mark(p, n, op->pos, AA_HOW_DEFINITIONS_REMOVED) : 0;
}

/* A whole write over the existing file n; *mode: its mode after. */
static int write_existing(planner *p, const aa_op *op, aa_plan_node *n,
			  uint32_t *mode)
{
	aa_op tmp;
	const aa_op *w = without_label_line(p, op, n, &tmp);
	const char *cur, *content = w->content;
	size_t len, clen = w->content_len, keptlen = 0;
	char *kept = NULL;

	*mode = n->mode;
	if (op->mode && mode_for_new(p, op->pos, op->path, op->mode, mode) < 0)
		return -1;
	if (node_bytes(p, n, &cur, &len) < 0 ||
	    keep_conventions(p, op, n, cur, len, content, clen, &kept,
			     &keptlen) < 0)
		return -1;
	if (kept) {
		content = kept;
		clen = keptlen;
	}
	if (*mode == n->mode && same_bytes(cur, len, content, clen)) {
		free(kept);
		aa_note(p->d, op->pos, op->path, "already has this content; skipped");
		p->plan->ops_skipped++;
		return 1;
	}
	if (check_overwrite(p, op, n, len) < 0 ||
	    check_no_loss(p, op, n, cur, len, content, clen) < 0 ||
	    (op->may_be_excerpt &&
	     refuse_excerpt(p, op, cur, len, content, clen) < 0) ||
	    note_removed_definitions(p, op, n, cur, len, content, clen) < 0) {
		free(kept);
		return -1;
	}
	warn_written_twice(p, op, n);
	/* no copy: the change set outlives the plan (see plan.h) */
	node_set_data(n, kept ? kept : (char *)(content ? content : ""), clen);
	n->data_lent = !kept;
	return 0;
}

static int plan_write(planner *p, const aa_op *op)
{
	aa_plan_node *n;
	uint32_t mode = AA_MODE_FILE;
	int r;

	if (check_leading_dirs(p, op->pos, op->path) < 0 ||
	    !(n = node_get(p, op->path)))
		return -1;
	if (is_gitlink_mode(op->mode) && op->exist == AA_EXIST_NEW)
		return plan_gitlink_add(p, op, n);
	if (check_not_submodule(p, op->pos, n) < 0)
		return -1;
	if (n->exists) {
		if ((r = write_existing(p, op, n, &mode)) != 0)
			return r < 0 ? -1 : 0;
	} else {
		if (op->exist == AA_EXIST_MUST)
			return aa_error(p->d, op->pos, op->path,
					"does not exist; nothing to replace");
		if (check_no_directory(p, op->pos, op->path) < 0 ||
		    mode_for_new(p, op->pos, op->path, op->mode, &mode) < 0)
			return -1;
		warn_written_twice(p, op, n);
		node_set_data(n, (char *)(op->content ? op->content : ""),
			      op->content_len);
		n->data_lent = 1;
	}
	n->mode = mode;
	p->plan->ops_applied++;
	return node_sync(p, n);
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
	const aa_engine *e = aa_engine_of(op->edit_kind);

	return e && e->apply ? e->apply(t, op, cx) : 0;
}

/* Keeps an edit's result as the node's content (or counts it skipped). */
static int commit_result(planner *p, aa_plan_node *n, aa_buf *out,
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
static int edit_on_ladder(planner *p, const aa_op *op, aa_plan_node *n)
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

/*
 * A numbered hunk fits an earlier version only this close to the line
 * its header names: an exact match farther off is more likely chance.
 */
#define HISTORY_NEAR 50

/* Moves every diagnostic of `from` to the end of `to`. */
static void diags_take(aa_diags *to, aa_diags *from)
{
	size_t i;

	if (from->n && to->n + from->n > to->cap) {
		size_t cap = to->n + from->n;
		aa_diag *v = realloc(to->v, cap * sizeof(*v));

		if (!v) {
			aa_diags_free(from);
			return;
		}
		to->v = v;
		to->cap = cap;
	}
	for (i = 0; i < from->n; i++)
		to->v[to->n++] = from->v[i];
	to->nerrors += from->nerrors;
	free(from->v);
	memset(from, 0, sizeof(*from));
}

/*
 * Rungs 1 and 2 on the current content: 1 landed, 0 not (the reasons
 * are dropped: history or the ladder will say), -1 error reported.
 * *enc receives the file's encoding.
 */
static int exact_here(planner *p, const aa_op *op, aa_plan_node *n,
		      aa_enc *enc)
{
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx = { 0 };
	aa_diags scratch = AA_DIAGS_INIT;
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;
	int r;

	if (load_text(p, op, n, &t) < 0) {
		aa_text_free(&t);
		return -1;
	}
	*enc = t.enc;
	cx.path = n->path;
	cx.diags = &scratch;
	cx.exact_only = 1;
	r = aa_edit_hunks(&t, op, &cx);
	if (!r && aa_text_encode_why(&t, &out, &why) < 0)
		r = aa_error(p->d, op->pos, n->path, "cannot encode the result: %s", why);
	aa_text_free(&t);
	if (!r) {
		diags_take(p->d, &scratch);
		r = commit_result(p, n, &out, &cx) < 0 ? -1 : 1;
	} else {
		r = scratch.nerrors ? 0 : -1;
	}
	aa_diags_free(&scratch);
	aa_buf_free(&out);
	aa_edit_ctx_release(&cx);
	return r;
}

/* The search for the version the answer was written against. */
typedef struct hsearch {
	planner *p;
	const aa_op *op;
	const char *path;
	const char *cur;         /* the current content */
	size_t curlen;
	int found;               /* a version took every hunk */
	char *label;             /* ... which */
	int merge;               /* merge3's result */
	aa_buf result;           /* the merge, or its conflict */
	aa_edit_ctx cx;          /* the landings on that version */
	aa_buf *blocks;          /* each hunk's old lines, for the filter */
	size_t last_failed;      /* the hunk the filter stopped at last */
	int keep_sides;          /* --3way: keep the version and theirs */
	aa_buf version;          /* ... the version's bytes (stage 1) */
	aa_buf theirs;           /* ... with the answer's hunks (stage 3) */
} hsearch;

/* Where a hunk's trailing run of "loose" lines (which may be cut) starts. */
static size_t firm_lines(const aa_hunk *h)
{
	size_t k = h->nlines;

	while (k > 0 && h->lines[k - 1].loose)
		k--;
	return k;
}

/* Each hunk's old side as one block of LF-joined lines (the filter's needles). */
static int build_blocks(hsearch *hs)
{
	const aa_op *op = hs->op;
	size_t i, k;

	hs->blocks = calloc(op->nhunks ? op->nhunks : 1, sizeof(*hs->blocks));
	if (!hs->blocks)
		return -1;
	for (i = 0; i < op->nhunks; i++) {
		const aa_hunk *h = &op->hunks[i];
		size_t firm = firm_lines(h);
		aa_buf *b = &hs->blocks[i];

		for (k = 0; k < firm; k++) {
			if (h->lines[k].kind == '+')
				continue;
			if ((b->len && aa_buf_putc(b, '\n') < 0) ||
			    aa_buf_put(b, h->lines[k].text, h->lines[k].len) < 0)
				return -1;
		}
	}
	return 0;
}

static void free_blocks(hsearch *hs)
{
	size_t i;

	for (i = 0; hs->blocks && i < hs->op->nhunks; i++)
		aa_buf_free(&hs->blocks[i]);
	free(hs->blocks);
}

/* The longest line of a block (a needle for files with CRs). */
static void longest_line(const aa_buf *b, const char **s, size_t *len)
{
	const char *p = b->ptr, *end = b->ptr + b->len;

	*s = p;
	*len = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)((nl ? nl : end) - p);

		if (l > *len) {
			*s = p;
			*len = l;
		}
		p = nl ? nl + 1 : end;
	}
}

/*
 * A cheap necessary condition before decoding a version: each hunk's
 * old lines are in its bytes, one after the other (in a file without
 * CRs; else each hunk's longest line). The hunk that failed last is
 * tried first: versions next to each other fail alike.
 */
static int old_lines_present(hsearch *hs, const char *data, size_t len)
{
	int has_cr = memchr(data, '\r', len) != NULL;
	size_t n = hs->op->nhunks, j;

	for (j = 0; j < n; j++) {
		size_t i = (hs->last_failed + j) % n;
		const aa_buf *b = &hs->blocks[i];
		const char *s = b->ptr;
		size_t l = b->len;

		if (has_cr)
			longest_line(b, &s, &l);
		if (l && !memmem(data, len, s, l)) {
			hs->last_failed = i;
			return 0;
		}
	}
	return 1;
}

/* Every numbered hunk landed near its header's line. */
static int landed_near(const aa_edit_ctx *cx)
{
	size_t i;

	for (i = 0; i < cx->nlandings; i++)
		if (cx->landings[i].offset > HISTORY_NEAR ||
		    cx->landings[i].offset < -HISTORY_NEAR)
			return 0;
	return 1;
}

/* The op's hunks applied exactly to one version: 0, or -1 if they do not fit. */
static int apply_to_version(hsearch *hs, const char *data, size_t len,
			    aa_buf *theirs)
{
	aa_text t = AA_TEXT_INIT;
	aa_diags scratch = AA_DIAGS_INIT;
	const char *why = NULL;
	int r;

	memset(&hs->cx, 0, sizeof(hs->cx));
	if (aa_text_decode_borrowed(&t, data, len, &why) < 0) {
		aa_text_free(&t);
		return -1;
	}
	hs->cx.path = hs->path;
	hs->cx.diags = &scratch;
	hs->cx.exact_only = 1;
	r = aa_edit_hunks(&t, hs->op, &hs->cx);
	if (!r && !landed_near(&hs->cx))
		r = -1;
	if (!r && aa_text_encode_why(&t, theirs, &why) < 0)
		r = -1;
	aa_text_free(&t);
	aa_diags_free(&scratch);
	if (r < 0)
		aa_edit_ctx_release(&hs->cx);
	return r;
}

/*
 * Merges from the version the hunks took: only around the places they
 * landed when the file is large (see history_merge.c).
 */
static int merge_from_version(hsearch *hs, const char *label,
			      const char *data, size_t len, const aa_buf *theirs)
{
	const aa_op *op = hs->op;
	aa_merge_region *rg = NULL;
	size_t i, k, n = 0;
	int r;

	if (hs->cx.nlandings == op->nhunks)
		rg = calloc(op->nhunks ? op->nhunks : 1, sizeof(*rg));
	for (i = 0; rg && i < op->nhunks; i++, n++) {
		rg[i].start = (size_t)(hs->cx.landings[i].line > 0 ?
				       hs->cx.landings[i].line - 1 : 0);
		for (k = 0; k < op->hunks[i].nlines; k++) {
			rg[i].nold += op->hunks[i].lines[k].kind != '+';
			rg[i].nnew += op->hunks[i].lines[k].kind != '-';
		}
	}
	/*
	 * A hunk found already applied in that version changed nothing
	 * there: the regions would not map it to theirs; merge whole.
	 */
	for (i = 0; i < n; i++)
		if (hs->cx.landings[i].how == AA_HOW_ALREADY_APPLIED)
			n = 0;
	r = aa_merge_windowed(hs->p->base, hs->path, label, data, len, hs->cur, hs->curlen,
			      theirs->ptr ? theirs->ptr : "", theirs->len, rg, n,
			      &hs->result);
	free(rg);
	return r;
}

/* aa_version_fn: tries one version; 1 (stop) once one takes every hunk. */
static int try_version(const char *label, const char *data, size_t len,
		       void *payload)
{
	hsearch *hs = payload;
	aa_buf theirs = AA_BUF_INIT;

	if (same_bytes(data, len, hs->cur, hs->curlen) || len > AA_MAX_TEXT_SIZE ||
	    aa_bytes_look_binary(data, len) || !old_lines_present(hs, data, len))
		return 0;
	if (apply_to_version(hs, data, len, &theirs) < 0) {
		aa_buf_free(&theirs);
		return 0;
	}
	hs->found = 1;
	hs->label = aa_strdup(label);
	hs->merge = merge_from_version(hs, label, data, len, &theirs);
	if (hs->merge == 1 && hs->keep_sides) {
		/* a conflict to write: the sides outlive this call */
		if (aa_buf_put(&hs->version, data, len) < 0)
			hs->merge = -1;
		hs->theirs = theirs;
		memset(&theirs, 0, sizeof(theirs));
	}
	aa_buf_free(&theirs);
	return 1;
}

/* A clean merge: the result lands, every hunk counted as merged. */
static int land_merged(planner *p, const aa_op *op, aa_plan_node *n,
		       hsearch *hs)
{
	size_t i;

	for (i = 0; i < hs->cx.nlandings; i++) {
		hs->cx.landings[i].how = AA_HOW_MERGED;
		hs->cx.landings[i].line = 0;
		hs->cx.landings[i].offset = 0;
	}
	if (same_bytes(hs->cur, hs->curlen, hs->result.ptr, hs->result.len))
		aa_note(p->d, op->pos, n->path,
			"the change is already in the current content "
			"(merged from %s, the version the answer was written against); skipped",
			hs->label);
	else
		aa_note(p->d, op->pos, n->path,
			"hunks applied to %s, the version the answer was written against, "
			"and merged into the current content", hs->label);
	return commit_result(p, n, &hs->result, &hs->cx);
}

/* A marker line: `marker` then the end of the line (LF or CRLF). */
static int is_marker_line(const char *s, size_t len, const char *marker)
{
	size_t n = strlen(marker);

	if (len && s[len - 1] == '\r')
		len--;
	return len == n && !memcmp(s, marker, n);
}

/* Where merge3_markers put "<<<<<<< ours" ... ">>>>>>> theirs" in `m`. */
static int find_regions(const aa_buf *m, aa_conflict_region **out, size_t *n)
{
	const char *p = m->ptr, *end = m->ptr + m->len;
	size_t line = 0, start = 0, cap = 0;

	*out = NULL;
	*n = 0;
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);

		line++;
		if (!start && is_marker_line(p, len, "<<<<<<< ours")) {
			start = line;
		} else if (start && is_marker_line(p, len, ">>>>>>> theirs")) {
			if (*n == cap) {
				aa_conflict_region *v;

				cap = cap ? cap * 2 : 4;
				v = realloc(*out, cap * sizeof(*v));
				if (!v)
					return -1;
				*out = v;
			}
			(*out)[*n].start = start;
			(*out)[(*n)++].end = line;
			start = 0;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/*
 * --3way: keeps the three sides for the index and the merged content
 * with markers as the node's content.
 */
static int keep_conflict(planner *p, aa_plan_node *n, hsearch *hs,
			 aa_buf *markers)
{
	size_t len = markers->len, i;

	if (find_regions(markers, &n->regions, &n->nregions) < 0)
		return -1;
	n->stage_len[0] = hs->version.len;
	n->stage[0] = aa_buf_detach(&hs->version);
	n->stage[1] = aa_strndup(hs->cur, hs->curlen);
	n->stage_len[1] = hs->curlen;
	n->stage_len[2] = hs->theirs.len;
	n->stage[2] = aa_buf_detach(&hs->theirs);
	for (i = 0; i < 3; i++)
		if (!n->stage[i])
			return -1;
	n->stage_mode = n->mode;
	n->conflict = 1;
	for (i = 0; i < hs->cx.nlandings; i++) {
		hs->cx.landings[i].how = AA_HOW_MERGED;
		hs->cx.landings[i].line = 0;
		hs->cx.landings[i].offset = 0;
	}
	if (append_landings(p, n, &hs->cx) < 0)
		return -1;
	node_set_data(n, aa_buf_detach(markers), len);
	p->plan->ops_applied++;
	return 0;
}

static aa_pos conflict_pos(const aa_op *op, const hsearch *hs);

/*
 * --3way: the conflicting merge is written as git apply --3way writes
 * it instead of refused (0), or -1 with an error.
 */
static int land_conflict(planner *p, const aa_op *op, aa_plan_node *n,
			 hsearch *hs)
{
	const aa_snapshot *sn = p->base;
	aa_buf markers = AA_BUF_INIT;
	int r;

	r = sn->merge3_markers(sn->ctx, n->path, hs->version.ptr ? hs->version.ptr : "",
			       hs->version.len, hs->cur, hs->curlen,
			       hs->theirs.ptr ? hs->theirs.ptr : "", hs->theirs.len,
			       &markers);
	if (r < 0) {
		aa_buf_free(&markers);
		return aa_error(p->d, op->pos, n->path, "cannot merge from %s; nothing written",
				hs->label);
	}
	if (r == 0) {
		/* windows and the whole file disagree: trust the whole file */
		aa_buf_free(&hs->result);
		hs->result = markers;
		return land_merged(p, op, n, hs);
	}
	if (keep_conflict(p, n, hs, &markers) < 0) {
		aa_buf_free(&markers);
		return oom(p, op->pos);
	}
	aa_buf_free(&markers);
	aa_warn(p->d, conflict_pos(op, hs), n->path,
		"applied with conflicts: the hunks apply exactly to %s, the version the answer "
		"was written against, and %zu region%s conflict%s with the current content "
		"(first at line %zu); written with conflict markers, stages 1, 2 and 3 in the index (--3way)",
		hs->label, n->nregions, n->nregions == 1 ? "" : "s",
		n->nregions == 1 ? "s" : "", n->nregions ? n->regions[0].start : 0);
	return 0;
}

/*
 * Where to report a conflict: the hunk that landed (on the old version)
 * nearest the conflict's line in the current content, a good guess when
 * the lines between did not move much.
 */
static aa_pos conflict_pos(const aa_op *op, const hsearch *hs)
{
	long at = 0, best = -1;
	size_t i, pick = 0;

	if (!hs->result.ptr || sscanf(hs->result.ptr, "conflict at line %ld", &at) != 1)
		return op->pos;
	for (i = 0; i < hs->cx.nlandings; i++) {
		long d = hs->cx.landings[i].line - at;

		d = d < 0 ? -d : d;
		if (best < 0 || d < best) {
			best = d;
			pick = i;
		}
	}
	return best < 0 ? op->pos : hs->cx.landings[pick].pos;
}

/*
 * Finds the version the hunks apply to exactly and merges the change
 * into the current content: 1 done, 0 no version fits (use the ladder),
 * -1 error reported (a conflict).
 */
static int from_history(planner *p, const aa_op *op, aa_plan_node *n)
{
	const aa_snapshot *sn = p->base;
	hsearch hs;
	char *bound = NULL;
	int r;

	if (!sn->history || !sn->merge3)
		return 0;
	memset(&hs, 0, sizeof(hs));
	hs.p = p;
	hs.op = op;
	hs.path = n->path;
	hs.keep_sides = p->opts->threeway && sn->merge3_markers;
	if (node_bytes(p, n, &hs.cur, &hs.curlen) < 0)
		return -1;
	if (build_blocks(&hs) < 0) {
		free_blocks(&hs);
		return oom(p, op->pos);
	}
	r = sn->history(sn->ctx, n->path, op->base_blob[0] ? op->base_blob : NULL,
			n->has_oid ? &n->oid : NULL, try_version, &hs, &bound);
	if (r < 0)
		aa_warn(p->d, op->pos, n->path,
			"cannot search the file's history; trying the current content only");
	else if (!hs.found && bound)
		aa_note(p->d, op->pos, n->path,
			"%s: no earlier version found that takes every hunk exactly", bound);
	r = 0;
	if (hs.found && hs.merge < 0)
		aa_warn(p->d, op->pos, n->path, "cannot merge from %s", hs.label);
	else if (hs.found && hs.merge == 1 && hs.keep_sides)
		r = land_conflict(p, op, n, &hs) < 0 ? -1 : 1;
	else if (hs.found && hs.merge == 1)
		r = aa_error(p->d, conflict_pos(op, &hs), n->path,
			     "the hunks apply exactly to %s, the version the answer was written against, "
			     "but its change conflicts with the current content: %s; nothing written",
			     hs.label, hs.result.ptr ? hs.result.ptr : "");
	else if (hs.found)
		r = land_merged(p, op, n, &hs) < 0 ? -1 : 1;
	free(bound);
	free(hs.label);
	free_blocks(&hs);
	aa_buf_free(&hs.result);
	aa_buf_free(&hs.version);
	aa_buf_free(&hs.theirs);
	aa_edit_ctx_release(&hs.cx);
	return r;
}

/*
 * Hunks outside --strict: exactly on the current content (rungs 1-2);
 * else exactly on the version the answer was written against, merged
 * in; else the whole ladder. Other edits: the ladder.
 */
static int plan_text_edit(planner *p, const aa_op *op, aa_plan_node *n)
{
	aa_enc enc = AA_ENC_UTF8;
	int r;

	if (op->edit_kind == AA_EDIT_HUNKS && !op->strict && n->exists) {
		r = exact_here(p, op, n, &enc);
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
	return node_sync(p, n);
}

static int plan_edit_existing(planner *p, const aa_op *op, aa_plan_node *n);

static int plan_edit(planner *p, const aa_op *op)
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
	r = plan_text_edit(p, op, n);
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
static int existed_before(planner *p, const aa_plan_node *n)
{
	const aa_snapshot *sn = p->base;
	char *bound = NULL;
	int found = 0;

	if (n->base_exists)
		return 1;
	if (!sn->history)
		return 0;
	if (sn->history(sn->ctx, n->path, NULL, NULL, any_version, &found, &bound) < 0)
		found = 0;
	free(bound);
	return found;
}

/*
 * SPEC "Already applied" for a file that is gone: a delete of a path
 * that existed before, or a move of one whose destination exists, is
 * skipped with a note. Not under --strict (seed 004: an error).
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

static int plan_delete(planner *p, const aa_op *op)
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

/* Moves or copies one file node's content and mode to a new path. */
static int transfer_file(planner *p, const aa_op *op, aa_plan_node *from,
			 const char *to, int move, int check_only)
{
	aa_plan_node *dst;
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
	dst->exists = 1;
	dst->touched = 1;
	if (node_sync(p, dst) < 0)
		return -1;
	from = &p->plan->nodes[fi];
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
static int moved_already(planner *p, const aa_op *op, const aa_plan_node *n)
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
		if (transfer_file(p, op, n, op->to, move, 0) < 0)
			return -1;
	} else {
		if (is_directory(p, op->path, &dir) < 0)
			return -1;
		if (!dir && move && moved_already(p, op, n))
			return 0;
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

/* ---- path resolution (SPEC "Path resolution") ---- */

/*
 * What an operation's path is to it: a path its content can confirm
 * (an edit, a whole-file block), an explicit creation (START-FILE, Add
 * File, /dev/null, "@@ -0,0"), which names its path exactly once the
 * prefix rules ran, an existing file with no content to confirm it
 * (delete, rename, a mode change), or a rename's destination.
 */
typedef enum path_role {
	ROLE_CONTENT,
	ROLE_NEW,
	ROLE_SOURCE,
	ROLE_DEST
} path_role;

static path_role role_of(const aa_op *op)
{
	if (op->kind == AA_OP_WRITE)
		return op->exist == AA_EXIST_NEW ? ROLE_NEW : ROLE_CONTENT;
	if (op->kind != AA_OP_EDIT || op->edit_kind == AA_EDIT_NONE)
		return ROLE_SOURCE;
	return hunk_creates_file(op) ? ROLE_NEW : ROLE_CONTENT;
}

/* The work-tree-relative part of an absolute path; NULL: outside. */
static const char *inside_worktree(planner *p, const char *path)
{
	const char *rel = aa_path_in_root(path, p->opts->worktree);

	return rel ? rel : aa_path_in_root(path, p->opts->worktree_real);
}

/* A file (not a directory) lives at path in the overlay: 1, 0, -1. */
static int file_lives(planner *p, const char *path)
{
	aa_plan_node *n = node_get(p, path);

	return n ? n->exists : -1;
}

/* What the op's path may be taken as: a file, or a directory it may name. */
static int path_lives(planner *p, const aa_op *op, const char *path,
		      path_role role)
{
	int r = file_lives(p, path), yes = 0;

	if (r || role != ROLE_SOURCE || !op->dir_ok)
		return r;
	return is_directory(p, path, &yes) < 0 ? -1 : yes;
}

static int collect_base_file(const char *path, uint32_t mode,
			     const aa_oid *oid, void *payload)
{
	planner *p = payload;
	char **v;

	(void)oid;
	if (mode == AA_MODE_LINK || mode == AA_MODE_GITLINK)
		return 0;
	if (p->nfiles == p->capfiles) {
		size_t cap = p->capfiles ? p->capfiles * 2 : 256;

		if (!(v = realloc(p->files, cap * sizeof(*v))))
			return p->files_oom = 1;
		p->files = v;
		p->capfiles = cap;
	}
	if (!(p->files[p->nfiles] = aa_strdup(path)))
		return p->files_oom = 1;
	p->nfiles++;
	return 0;
}

/* Every base file's path, read once per plan (links and gitlinks left out). */
static int read_base_files(planner *p, aa_pos pos)
{
	if (p->files_read)
		return 0;
	p->files_read = 1;
	if (!p->base->each_under)
		return 0;
	if (p->base->each_under(p->base->ctx, "", collect_base_file, p) < 0)
		return base_failed(p, NULL, "cannot list the base's files");
	return p->files_oom ? oom(p, pos) : 0;
}

typedef struct candidate {
	const char *path;
	size_t tail;        /* trailing components shared with the op's path */
} candidate;

typedef struct candidates {
	candidate *v;
	size_t n, cap;
} candidates;

static int candidate_add(candidates *c, const char *path, size_t tail)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		candidate *v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			return -1;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n].path = path;
	c->v[c->n++].tail = tail;
	return 0;
}

static int by_tail(const void *a, const void *b)
{
	const candidate *x = a, *y = b;

	if (x->tail != y->tail)
		return x->tail > y->tail ? -1 : 1;
	return strcmp(x->path, y->path);
}

/*
 * A later operation deletes or moves `path` away: the answer moves that
 * file ("src/app.py" written whole, then "app.py" deleted), so it is
 * not the one a path naming no file was meant to be.
 */
static int moved_later(const planner *p, const char *path)
{
	size_t i;

	for (i = p->cur + 1; p->cs && i < p->cs->n; i++) {
		const aa_op *op = &p->cs->ops[i];

		if ((op->kind == AA_OP_DELETE || op->kind == AA_OP_RENAME) &&
		    op->path && !strcmp(op->path, path))
			return 1;
	}
	return 0;
}

static size_t components(const char *path)
{
	size_t n = 1;

	for (; *path; path++)
		n += *path == '/';
	return n;
}

/*
 * How closely `file` is related to `path`: the trailing components they
 * share (0: none, another file name). With suffix_only, only when one
 * ends the other ("models.py" and "inventory/models.py", or
 * "a/inventory/models.py" and "inventory/models.py"), not sideways
 * ("tests/test_x.py" and "src/test_x.py").
 */
static size_t related(const char *path, const char *file, int suffix_only)
{
	size_t tail = aa_path_common_tail(path, file);

	if (suffix_only && tail != components(path) && tail != components(file))
		return 0;
	return tail;
}

/*
 * The live files sharing at least the file name with `path` (base files
 * the overlay did not delete, files the change set created, none that a
 * later operation moves away), the most trailing components shared
 * first.
 */
static int find_candidates(planner *p, aa_pos pos, const char *path,
			   int suffix_only, candidates *c)
{
	size_t i, tail;

	if (read_base_files(p, pos) < 0)
		return -1;
	for (i = 0; i < p->nfiles; i++) {
		aa_plan_node *n;

		if (!(tail = related(path, p->files[i], suffix_only)) ||
		    !strcmp(path, p->files[i]))
			continue;
		n = node_find(p->plan, p->files[i]);
		if ((n && !n->exists) || moved_later(p, p->files[i]))
			continue;
		if (candidate_add(c, p->files[i], tail) < 0)
			return oom(p, pos);
	}
	for (i = 0; i < p->plan->nnodes; i++) {
		aa_plan_node *n = &p->plan->nodes[i];

		if (!n->exists || n->base_exists || n->mode == AA_MODE_LINK ||
		    n->mode == AA_MODE_GITLINK ||
		    !(tail = related(path, n->path, suffix_only)) ||
		    moved_later(p, n->path))
			continue;
		if (candidate_add(c, n->path, tail) < 0)
			return oom(p, pos);
	}
	if (c->n)
		qsort(c->v, c->n, sizeof(*c->v), by_tail);
	return 0;
}

/* The op's edits land on the text without an error (a trial: nothing kept). */
static int edit_fits(const aa_op *op, aa_plan_node *n, const char *data,
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

/* 1 when the op's content confirms the file at `path`; 0 not; -1 error. */
static int content_confirms(planner *p, const aa_op *op, const char *path)
{
	aa_plan_node *n = node_get(p, path);
	const char *data;
	size_t len;

	if (!n)
		return -1;
	if (!n->exists || n->mode == AA_MODE_LINK || n->mode == AA_MODE_GITLINK)
		return 0;
	if (node_bytes(p, n, &data, &len) < 0)
		return -1;
	if (len > AA_MAX_TEXT_SIZE || is_binary(p, path, data, len))
		return 0;
	if (op->kind == AA_OP_WRITE) {
		int r = aa_lines_confirm(op->content ? op->content : "",
					 op->content_len, data, len);

		return r < 0 ? oom(p, op->pos) : r;
	}
	return edit_fits(op, n, data, len);
}

/* "a, b and c" of the candidates from..to into b. */
static void list_candidates(aa_buf *b, const candidate *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		aa_buf_printf(b, "%s%s", i ? (i + 1 == n ? " and " : ", ") : "",
			      aa_qpath(v[i].path));
}

/*
 * The candidate the op's content confirms, tier by tier (the most
 * trailing components shared first): *out is it, or NULL when none
 * does; -1 (reported) when several of one tier do.
 */
static int confirmed_candidate(planner *p, const aa_op *op,
			       const candidates *c, const char **out)
{
	size_t i = 0, j, k;

	*out = NULL;
	while (i < c->n) {
		candidate *fit = NULL;
		size_t nfit = 0;
		aa_buf b = AA_BUF_INIT;

		for (j = i; j < c->n && c->v[j].tail == c->v[i].tail; j++)
			;
		if (!(fit = malloc((j - i) * sizeof(*fit))))
			return oom(p, op->pos);
		for (k = i; k < j; k++) {
			int r = content_confirms(p, op, c->v[k].path);

			if (r < 0) {
				free(fit);
				return -1;
			}
			if (r)
				fit[nfit++] = c->v[k];
		}
		if (nfit == 1)
			*out = fit[0].path;
		if (nfit > 1) {
			list_candidates(&b, fit, nfit);
			aa_error(p->d, op->pos, op->path,
				 "names no file, and the block's content fits several files of "
				 "that name: %s; not applied (name the file in full)",
				 b.ptr ? b.ptr : "");
			aa_buf_free(&b);
		}
		free(fit);
		if (nfit)
			return nfit == 1 ? 0 : -1;
		i = j;
	}
	return 0;
}

/*
 * No file at the op's path: a file of the same name its content
 * confirms takes it (tolerant: *by_content set), several are refused,
 * none leaves the path as written -- a creation said so in a warning
 * (never silently beside a file it was probably meant to be), an edit
 * or a deletion refused naming the files of that name.
 */
static int resolve_by_content(planner *p, const aa_op *op, path_role role,
			      char **path, int *by_content)
{
	candidates c = { NULL, 0, 0 };
	const char *found = NULL;
	aa_buf list = AA_BUF_INIT;
	int r = 0;

	/* a whole file may be new: only a file its path shortens or lengthens */
	if (find_candidates(p, op->pos, *path, op->kind == AA_OP_WRITE, &c) < 0) {
		free(c.v);
		return -1;
	}
	if (!c.n) {
		free(c.v);
		return 0;
	}
	if (role == ROLE_CONTENT &&
	    (r = confirmed_candidate(p, op, &c, &found)) < 0)
		goto done;
	if (found) {
		aa_warn(p->d, op->pos, *path,
			"names no file; taken as %s, the one file of that name where %s "
			"(a tolerant placement: check it is the file meant)",
			aa_qpath(found), op->kind == AA_OP_WRITE ?
			"most of the block's lines are" : "the block's edits apply");
		free(*path);
		if (!(*path = aa_strdup(found)))
			r = oom(p, op->pos);
		*by_content = 1;
		goto done;
	}
	list_candidates(&list, c.v, c.n < 5 ? c.n : 5);
	if (c.n > 5)
		aa_buf_printf(&list, " and %zu more", c.n - 5);
	if (role == ROLE_CONTENT && op->kind == AA_OP_WRITE)
		aa_warn(p->d, op->pos, *path,
			"is a new file, created beside %s of the same name: the block "
			"is not that content (check it is the file meant)",
			list.ptr ? list.ptr : "");
	else if (role == ROLE_CONTENT || role == ROLE_SOURCE)
		r = aa_error(p->d, op->pos, *path,
			     "does not exist; %s: %s (name the file in full)",
			     role == ROLE_CONTENT ? "the edit does not fit the files of "
			     "that name either" : "with no content to confirm one, "
			     "a file of that name is not guessed",
			     list.ptr ? list.ptr : "");
done:
	aa_buf_free(&list);
	free(c.v);
	return r;
}

/*
 * "a/x" or "b/x": the diff prefix, when the tree says so -- x lives and
 * a/x does not, or there is no directory "a" (or "b") to hold it.
 */
static int drop_diff_prefix(planner *p, const aa_op *op, path_role role,
			    char **path)
{
	char top[2] = { (*path)[0], '\0' }, *rest = *path + 2;
	int there, yes = 0, file = 0;

	if (op->diff_names || strlen(*path) < 3 ||
	    (top[0] != 'a' && top[0] != 'b') || (*path)[1] != '/')
		return 0;
	if ((there = path_lives(p, op, rest, role)) < 0)
		return -1;
	if (!there) {
		if (is_directory(p, top, &yes) < 0 || (file = file_lives(p, top)) < 0)
			return -1;
		if (yes || file)
			return 0;
	}
	aa_note(p->d, op->pos, *path, "taken as %s: the leading '%s/' is a diff "
		"prefix (%s)", aa_qpath(rest), top, there ?
		"the file is there, not under it" : "the tree has no such directory");
	memmove(*path, rest, strlen(rest) + 1);
	return 1;
}

/*
 * A plain diff whose "---" and "+++" name different files, the one
 * taken (*path) naming none: the other, when a file lives there (GNU
 * patch edits the file that exists). 1 when *path was replaced.
 */
static int use_other_name(planner *p, const aa_op *op, const char *given,
			  char **path)
{
	const char *why;
	char *other;
	int r;

	/* an invalid other name is never looked up, nor refused: unused */
	if (!op->other_name || given != op->path || op->kind != AA_OP_EDIT ||
	    op->strict || aa_path_check(op->other_name, strlen(op->other_name),
					&why) < 0)
		return 0;
	if ((r = path_lives(p, op, op->other_name, ROLE_CONTENT)) <= 0)
		return r;
	if (!(other = aa_strdup(op->other_name)))
		return oom(p, op->pos);
	aa_note(p->d, op->pos, other, "edited: the diff's other name %s names "
		"no file", aa_qpath(*path));
	free(*path);
	*path = other;
	return 1;
}

/*
 * The op's path as the tree resolves it (the one resolution of every
 * format): absolute inside the work tree made relative; the path as
 * written when a file (or, for a source, a directory) lives there; else
 * "a/" or "b/" dropped where the tree says so; else, for a path whose
 * content can confirm it, resolve_by_content. *out: allocated, or NULL
 * for the path unchanged.
 */
static int resolve_path(planner *p, const aa_op *op, const char *given,
			path_role role, char **out, int *by_content)
{
	const char *rel = given;
	size_t i;
	int r;

	*out = NULL;
	if (aa_path_is_absolute(given)) {
		rel = inside_worktree(p, given);
		if (!rel) /* check_all_paths said so */
			return -1;
		aa_note(p->d, op->pos, given, "taken as %s, relative to the work tree",
			aa_qpath(rel));
	}
	if (!(*out = aa_strdup(rel)))
		return oom(p, op->pos);
	if ((r = path_lives(p, op, *out, role)) != 0)
		return r < 0 ? -1 : 0;
	if ((r = use_other_name(p, op, given, out)) != 0)
		return r < 0 ? -1 : 0;
	if ((r = drop_diff_prefix(p, op, role, out)) < 0)
		return -1;
	if (r && (r = path_lives(p, op, *out, role)) != 0)
		return r < 0 ? -1 : 0;
	/* seed 004: --strict paths are exact, its own errors say why */
	if (role == ROLE_NEW || role == ROLE_DEST || op->strict)
		return 0;
	/* one path, one file: as an earlier operation's content resolved it */
	for (i = 0; i < p->nres; i++)
		if ((!strcmp(p->res_from[i], given) || !strcmp(p->res_from[i], *out)) &&
		    file_lives(p, p->res_to[i]) > 0) {
			char *to = aa_strdup(p->res_to[i]);

			if (!to)
				return oom(p, op->pos);
			free(*out);
			*out = to;
			*by_content = role == ROLE_CONTENT;
			return 0;
		}
	return resolve_by_content(p, op, role, out, by_content);
}

/* Remembers that `from` was resolved by content to `to` (for later ops). */
static int remember_resolved(planner *p, aa_pos pos, const char *from,
			     const char *to)
{
	if (p->nres == p->capres) {
		size_t cap = p->capres ? p->capres * 2 : 8;
		char **f = realloc(p->res_from, cap * sizeof(*f)), **t;

		if (!f)
			return oom(p, pos);
		p->res_from = f;
		if (!(t = realloc(p->res_to, cap * sizeof(*t))))
			return oom(p, pos);
		p->res_to = t;
		p->capres = cap;
	}
	p->res_from[p->nres] = aa_strdup(from);
	p->res_to[p->nres] = aa_strdup(to);
	if (!p->res_from[p->nres] || !p->res_to[p->nres]) {
		free(p->res_from[p->nres]);
		free(p->res_to[p->nres]);
		return oom(p, pos);
	}
	p->nres++;
	return 0;
}

/* The op's paths resolved into `r` (a copy of op); paths owned by *path, *to. */
static int resolve_op(planner *p, const aa_op *op, aa_op *r, char **path,
		      char **to, int *by_content)
{
	*r = *op;
	*path = *to = NULL;
	*by_content = 0;
	if (!op->path)
		return 0;
	if (resolve_path(p, op, op->path, role_of(op), path, by_content) < 0)
		return -1;
	r->path = *path;
	if (op->to) {
		int ignored = 0;

		if (resolve_path(p, op, op->to, ROLE_DEST, to, &ignored) < 0)
			return -1;
		r->to = *to;
	}
	return 0;
}

/* A resolved path is a tolerant placement: one mark on the file. */
static int mark_resolved(planner *p, const aa_op *op)
{
	aa_plan_node *n = node_find(p->plan, op->path);

	if (!n || !n->touched)
		return 0;
	return add_file_mark(p, n, op->pos, AA_HOW_PATH_RESOLVED);
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
