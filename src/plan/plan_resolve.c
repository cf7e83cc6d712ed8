/*
 * Path resolution (Documentation/locating.md, "Which file a path
 * names"): a path that names no file
 * resolved by its tail and the operation's content.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"
#include "util/util.h"

/* ---- path resolution (locating.md, "Which file a path names") ---- */

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
const char *inside_worktree(planner *p, const char *path)
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

	(void)oid;
	if (mode == AA_MODE_LINK || mode == AA_MODE_GITLINK)
		return 0;
	if (AA_GROW(p->files, p->nfiles, p->capfiles) < 0)
		return p->files_oom = 1;
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
	if (AA_GROW(c->v, c->n, c->cap) < 0)
		return -1;
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
	/* --strict paths are exact (format-diff.md); its own errors say why */
	if (role == ROLE_NEW || role == ROLE_DEST || op->strict ||
	    op->edit_kind == AA_EDIT_BINARY) /* a binary change: its path */
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
int remember_resolved(planner *p, aa_pos pos, const char *from,
		      const char *to)
{
	size_t cap = p->capres;

	/* two arrays, one capacity: the second grows as the first did */
	if (AA_GROW(p->res_from, p->nres, cap) < 0 ||
	    AA_GROW(p->res_to, p->nres, p->capres) < 0)
		return oom(p, pos);
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
int resolve_op(planner *p, const aa_op *op, aa_op *r, char **path,
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
int mark_resolved(planner *p, const aa_op *op)
{
	aa_plan_node *n = node_find(p->plan, op->path);

	if (!n || !n->touched)
		return 0;
	return add_file_mark(p, n, op->pos, AA_HOW_PATH_RESOLVED);
}
