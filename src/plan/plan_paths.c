/*
 * Path and directory checks: walks of a directory in the overlay,
 * path syntax, links in the work tree, leading directories, a file
 * against a directory, the mode of a new file, binary content.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"
#include "util/util.h"

static int dir_walk_add(struct dir_walk *w, const char *path)
{
	if (AA_GROW(w->paths, w->n, w->cap) < 0)
		return -1;
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

int under_dir(const char *path, const char *dir)
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
int dir_walk(planner *p, const char *dir, struct dir_walk *w)
{
	aa_dir_entry *e = p->plan->dirs ? aa_dir_index_find(p->plan->dirs, dir) : NULL;
	size_t i;

	if (walk_base(p, dir, w) < 0)
		return -1;
	for (i = 0; e && i < e->nlisted; i++) {
		aa_plan_node *n = &p->plan->nodes[e->listed[i]];

		if (n->exists && dir_walk_add(w, n->path) < 0)
			return oom(p, AA_NOPOS);
	}
	return 0;
}

void dir_walk_free(struct dir_walk *w)
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
int is_directory(planner *p, const char *path, int *yes)
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

int check_path_syntax(planner *p, aa_pos pos, const char *path)
{
	const char *why = NULL;

	if (aa_path_check(path, strlen(path), &why) < 0)
		return aa_error(p->d, pos, path, "invalid path: %s", why);
	return 0;
}

/*
 * Whether the change set has already removed the base entry at `link`
 * (deleted, renamed away, replaced by a directory): the lander removes
 * it from the work tree before it writes anything under it, so the link
 * the work tree still has there blocks nothing, as in git apply (its
 * path_is_beyond_symlink_1(): a link that "goes away" does not count).
 */
static int link_goes_away(planner *p, const char *link)
{
	aa_plan_node *n = node_find(p->plan, link);

	return n && n->base_exists && !n->exists;
}

/*
 * No leading directory of `probe` may be a symbolic link in the work
 * tree, unless the change set removes it; the error names `path`.
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
	if (beyond == 1 && link && link_goes_away(p, link))
		beyond = 0;
	else if (beyond == 1)
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
int check_leading_dirs(planner *p, aa_pos pos, const char *path)
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
 * be a symbolic link in the work tree (Documentation/landing.md,
 * "Symbolic links, submodules and gitlinks").
 * Stops at the first one found, so a link holding many files gives one
 * error. Files come in walk order, so each directory is checked once.
 */
int check_dir_worktree(planner *p, aa_pos pos, const char *dir,
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

int check_not_submodule(planner *p, aa_pos pos, aa_plan_node *n)
{
	if (n->exists && n->mode == AA_MODE_GITLINK)
		return aa_error(p->d, pos, n->path, "is a submodule");
	return 0;
}

/* A path about to receive a file: no directory may live there. */
int check_no_directory(planner *p, aa_pos pos, const char *path)
{
	int dir = 0;

	if (is_directory(p, path, &dir) < 0)
		return -1;
	if (dir)
		return aa_error(p->d, pos, path, "is a directory");
	return 0;
}

int mode_for_new(planner *p, aa_pos pos, const char *path,
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

int is_binary(planner *p, const char *path, const char *data,
	      size_t len)
{
	if (p->base->attr_binary && p->base->attr_binary(p->base->ctx, path) == 1)
		return 1;
	return aa_bytes_look_binary(data, len);
}
