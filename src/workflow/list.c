/*
 * --list: the suggestion branches and whether each merges into HEAD
 * (include/aiapply/list.h). Reads only: the merges run with an
 * in-memory object store in front of the repository's, as the landing
 * session does, so the blobs a merge makes never reach the disk.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include "aiapply/list.h"
#include "util/util.h"

/* The paths (files, links, gitlinks) one tree pair changes, sorted. */
typedef struct path_set {
	char **v;
	size_t n, cap;
} path_set;

typedef struct lister {
	git_repository *repo;
	git_commit *head;     /* NULL when unborn */
	git_odb *odb;
	git_odb_backend *mempack;
	aa_suggestion *v;
	size_t n, cap;
	aa_diags *d;
	/* the paths base..HEAD changes, for the last base asked about */
	git_oid moved_base;
	int has_moved;
	path_set moved;
} lister;

/* AI-Answer values joined, and AI-Tolerant-Placements; 0 if not ours. */
static int read_trailers(const char *message, aa_suggestion *sg)
{
	git_message_trailer_array arr = { 0 };
	aa_buf answers = AA_BUF_INIT;
	size_t i;
	int ours = 0;

	sg->tolerant = -1;
	if (git_message_trailers(&arr, message) < 0)
		return 0;
	for (i = 0; i < arr.count; i++) {
		if (!strcmp(arr.trailers[i].key, "AI-Answer")) {
			aa_buf_printf(&answers, "%s%s", ours ? ", " : "",
				      arr.trailers[i].value);
			ours = 1;
		} else if (!strcmp(arr.trailers[i].key, "AI-Tolerant-Placements")) {
			sg->tolerant = strtol(arr.trailers[i].value, NULL, 10);
		}
	}
	git_message_trailer_array_free(&arr);
	if (ours)
		sg->answers = aa_buf_detach(&answers);
	aa_buf_free(&answers);
	return ours && sg->answers ? 1 : 0;
}

/* ---- files and lines base..tip ---- */

static int tree_stats(git_repository *repo, git_tree *old, git_tree *new,
		      aa_suggestion *sg);

/* The lines a blob pair adds and removes, as git_diff_get_stats counts
 * them (a binary blob: none). From buffers: no attribute lookup, which
 * in libgit2 1.5 reads the whole index. */
static int blob_stats(git_repository *repo, const git_tree_entry *o,
		      const git_tree_entry *n, aa_suggestion *sg)
{
	git_blob *ob = NULL, *nb = NULL;
	git_patch *patch = NULL;
	size_t add = 0, del = 0;
	int r = 0;

	if (o && git_tree_entry_type(o) == GIT_OBJECT_BLOB &&
	    git_blob_lookup(&ob, repo, git_tree_entry_id(o)) < 0)
		r = -1;
	if (!r && n && git_tree_entry_type(n) == GIT_OBJECT_BLOB &&
	    git_blob_lookup(&nb, repo, git_tree_entry_id(n)) < 0)
		r = -1;
	if (!r && (ob || nb) &&
	    (git_patch_from_buffers(&patch,
				    ob ? git_blob_rawcontent(ob) : NULL,
				    ob ? (size_t)git_blob_rawsize(ob) : 0, NULL,
				    nb ? git_blob_rawcontent(nb) : NULL,
				    nb ? (size_t)git_blob_rawsize(nb) : 0, NULL,
				    NULL) < 0 ||
	     git_patch_line_stats(NULL, &add, &del, patch) < 0))
		r = -1;
	sg->files++;
	sg->added += add;
	sg->removed += del;
	git_patch_free(patch);
	git_blob_free(ob);
	git_blob_free(nb);
	return r;
}

static int is_tree(const git_tree_entry *e)
{
	return e && git_tree_entry_type(e) == GIT_OBJECT_TREE;
}

/* One name in either tree: a subtree pair is walked only when it differs. */
static int entry_stats(git_repository *repo, const git_tree_entry *o,
		       const git_tree_entry *n, aa_suggestion *sg)
{
	git_tree *ot = NULL, *nt = NULL;
	int r = 0;

	if (o && n && git_oid_equal(git_tree_entry_id(o), git_tree_entry_id(n)) &&
	    git_tree_entry_filemode(o) == git_tree_entry_filemode(n))
		return 0;
	if (!is_tree(o) && !is_tree(n))
		return blob_stats(repo, o, n, sg);
	/* a tree on one side: the other side's file is a delete or an add */
	if (o && !is_tree(o) && (r = blob_stats(repo, o, NULL, sg)) < 0)
		return r;
	if (n && !is_tree(n) && (r = blob_stats(repo, NULL, n, sg)) < 0)
		return r;
	if (is_tree(o) && git_tree_lookup(&ot, repo, git_tree_entry_id(o)) < 0)
		r = -1;
	if (!r && is_tree(n) && git_tree_lookup(&nt, repo, git_tree_entry_id(n)) < 0)
		r = -1;
	if (!r)
		r = tree_stats(repo, ot, nt, sg);
	git_tree_free(ot);
	git_tree_free(nt);
	return r;
}

/* Either tree may be NULL (all added, all deleted). */
static int tree_stats(git_repository *repo, git_tree *old, git_tree *new,
		      aa_suggestion *sg)
{
	size_t i, n;
	int r = 0;

	n = new ? git_tree_entrycount(new) : 0;
	for (i = 0; !r && i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(new, i);

		r = entry_stats(repo, old ? git_tree_entry_byname(old,
				git_tree_entry_name(e)) : NULL, e, sg);
	}
	n = old ? git_tree_entrycount(old) : 0;
	for (i = 0; !r && i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(old, i);

		if (!new || !git_tree_entry_byname(new, git_tree_entry_name(e)))
			r = entry_stats(repo, e, NULL, sg);
	}
	return r;
}

/* Files and lines the suggestion changes over its base. */
static int diff_stats(lister *l, git_commit *tip, aa_suggestion *sg)
{
	git_commit *parent = NULL;
	git_tree *old = NULL, *new = NULL;
	int r = 0;

	if (sg->has_base && git_commit_parent(&parent, tip, 0) < 0)
		r = -1;
	if (!r && parent && git_commit_tree(&old, parent) < 0)
		r = -1;
	if (!r && git_commit_tree(&new, tip) < 0)
		r = -1;
	if (!r)
		r = tree_stats(l->repo, old, new, sg);
	git_tree_free(new);
	git_tree_free(old);
	git_commit_free(parent);
	return r < 0 ? aa_git_fail(l->d, "cannot compare a suggestion with its base") : 0;
}

/* Where the base stands to HEAD: an ancestor, and how far behind. */
static int base_to_head(lister *l, aa_suggestion *sg)
{
	const git_oid *head = git_commit_id(l->head);
	size_t behind = 0;
	int r;

	if (!sg->has_base)
		return 0;
	r = git_oid_equal(head, &sg->base) ? 1 :
	    git_graph_descendant_of(l->repo, head, &sg->base);
	if (r < 0)
		return aa_git_fail(l->d, "cannot walk the history");
	sg->base_in_head = r;
	if (git_graph_ahead_behind(&sg->head_ahead, &behind, l->repo, head,
				   &sg->base) < 0)
		return aa_git_fail(l->d, "cannot walk the history");
	return 0;
}

/* ---- which paths a tree pair changes ---- */

static void path_set_free(path_set *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		free(ps->v[i]);
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

static int path_set_add(path_set *ps, const char *dir, const char *name)
{
	aa_buf p = AA_BUF_INIT;

	if (AA_GROW(ps->v, ps->n, ps->cap) < 0)
		return -1;
	if (aa_buf_printf(&p, "%s%s%s", dir, *dir ? "/" : "", name) < 0) {
		aa_buf_free(&p);
		return -1;
	}
	ps->v[ps->n++] = aa_buf_detach(&p);
	return ps->v[ps->n - 1] ? 0 : -1;
}

static int changed_paths(git_repository *repo, git_tree *old, git_tree *new,
			 const char *dir, path_set *ps);

/* Every file under a tree that only one side has. */
static int entry_paths(git_repository *repo, const git_tree_entry *o,
		       const git_tree_entry *n, const char *dir, path_set *ps)
{
	const git_tree_entry *e = o ? o : n;
	git_tree *ot = NULL, *nt = NULL;
	aa_buf sub = AA_BUF_INIT;
	int r = 0;

	if (o && n && git_oid_equal(git_tree_entry_id(o), git_tree_entry_id(n)) &&
	    git_tree_entry_filemode(o) == git_tree_entry_filemode(n))
		return 0;
	/* a file on either side: its own path changed */
	if ((o && !is_tree(o)) || (n && !is_tree(n)))
		r = path_set_add(ps, dir, git_tree_entry_name(e));
	if (r || (!is_tree(o) && !is_tree(n)))
		return r;
	if (aa_buf_printf(&sub, "%s%s%s", dir, *dir ? "/" : "",
			  git_tree_entry_name(e)) < 0)
		r = -1;
	if (!r && is_tree(o) && git_tree_lookup(&ot, repo, git_tree_entry_id(o)) < 0)
		r = -1;
	if (!r && is_tree(n) && git_tree_lookup(&nt, repo, git_tree_entry_id(n)) < 0)
		r = -1;
	if (!r)
		r = changed_paths(repo, ot, nt, sub.ptr, ps);
	git_tree_free(ot);
	git_tree_free(nt);
	aa_buf_free(&sub);
	return r;
}

/* As tree_stats: equal subtrees are skipped; either tree may be NULL. */
static int changed_paths(git_repository *repo, git_tree *old, git_tree *new,
			 const char *dir, path_set *ps)
{
	size_t i, n;
	int r = 0;

	n = new ? git_tree_entrycount(new) : 0;
	for (i = 0; !r && i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(new, i);

		r = entry_paths(repo, old ? git_tree_entry_byname(old,
				git_tree_entry_name(e)) : NULL, e, dir, ps);
	}
	n = old ? git_tree_entrycount(old) : 0;
	for (i = 0; !r && i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(old, i);

		if (!new || !git_tree_entry_byname(new, git_tree_entry_name(e)))
			r = entry_paths(repo, e, NULL, dir, ps);
	}
	return r;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The paths between two commits' trees, sorted. */
static int commit_paths(git_repository *repo, const git_oid *from,
			const git_oid *to, path_set *ps)
{
	git_commit *a = NULL, *b = NULL;
	git_tree *ta = NULL, *tb = NULL;
	int r = 0;

	if (git_commit_lookup(&a, repo, from) < 0 ||
	    git_commit_lookup(&b, repo, to) < 0 ||
	    git_commit_tree(&ta, a) < 0 || git_commit_tree(&tb, b) < 0)
		r = -1;
	if (!r)
		r = changed_paths(repo, ta, tb, "", ps);
	if (!r && ps->n)
		qsort(ps->v, ps->n, sizeof(*ps->v), by_path);
	git_tree_free(ta);
	git_tree_free(tb);
	git_commit_free(a);
	git_commit_free(b);
	return r;
}

/* `p` is in the sorted set, or a directory of one in it, or under one. */
static int path_set_touches(const path_set *ps, const char *p)
{
	size_t lo = 0, hi = ps->n, len = strlen(p), i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ps->v[mid], p) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* p itself, or a path under the directory p ("p/..." sorts after "p") */
	for (i = lo; i < ps->n && !strncmp(ps->v[i], p, len); i++)
		if (ps->v[i][len] == '\0' || ps->v[i][len] == '/')
			return 1;
	/* a file where p has a directory: each leading directory of p */
	for (i = len; i-- > 0;) {
		char *dir;
		size_t k;
		int hit = 0;

		if (p[i] != '/')
			continue;
		dir = aa_strndup(p, i);
		if (!dir)
			return 1; /* unsure: let the full merge decide */
		lo = 0;
		hi = ps->n;
		while (lo < hi) {
			k = lo + (hi - lo) / 2;
			if (strcmp(ps->v[k], dir) < 0)
				lo = k + 1;
			else
				hi = k;
		}
		hit = lo < ps->n && !strcmp(ps->v[lo], dir);
		free(dir);
		if (hit)
			return 1;
	}
	return 0;
}

/*
 * HEAD moved on from the base, which is one of its ancestors (so the
 * base is the merge base): when no path the suggestion changes is one
 * HEAD changed since (nor a directory of one, nor under one), the merge
 * takes every side's change as it is and cannot conflict -- libgit2's
 * rename detection pairs paths of one side only, so it needs a path of
 * both sets to change the outcome. 1: decided (clean), 0: ask the full
 * merge, -1: error.
 */
static int disjoint_changes(lister *l, git_commit *tip, aa_suggestion *sg)
{
	path_set mine = { NULL, 0, 0 };
	size_t i;
	int r;

	if (!sg->has_base || !sg->base_in_head)
		return 0;
	if (!l->has_moved || !git_oid_equal(&l->moved_base, &sg->base)) {
		path_set_free(&l->moved);
		l->has_moved = 0;
		if (commit_paths(l->repo, &sg->base, git_commit_id(l->head),
				 &l->moved) < 0)
			return -1;
		git_oid_cpy(&l->moved_base, &sg->base);
		l->has_moved = 1;
	}
	r = commit_paths(l->repo, &sg->base, git_commit_id(tip), &mine);
	for (i = 0; !r && i < mine.n; i++)
		if (path_set_touches(&l->moved, mine.v[i]))
			r = 2;
	if (!r)
		sg->merge = mine.n ? AA_MERGE_CLEAN : AA_MERGE_APPLIED;
	path_set_free(&mine);
	return r < 0 ? -1 : r == 2 ? 0 : 1;
}

/* Merged, already applied, merges or conflicts, all in memory. */
static int merge_state(lister *l, git_commit *tip, aa_suggestion *sg)
{
	const git_oid *head = git_commit_id(l->head);
	git_index *index = NULL;
	git_oid tree;
	int r;

	r = git_oid_equal(head, &sg->tip) ? 1 :
	    git_graph_descendant_of(l->repo, head, &sg->tip);
	if (r < 0)
		return aa_git_fail(l->d, "cannot walk the history");
	if (r) {
		sg->merge = AA_MERGE_MERGED;
		return 0;
	}
	/*
	 * HEAD still at the base: the merge is a fast-forward to the tip, so
	 * its tree is the tip's. Saves a full-tree merge (100,000 index
	 * entries, ~150 ms) per branch in the common case.
	 */
	if (sg->has_base && git_oid_equal(head, &sg->base)) {
		sg->merge = git_oid_equal(git_commit_tree_id(tip),
					  git_commit_tree_id(l->head)) ?
			    AA_MERGE_APPLIED : AA_MERGE_CLEAN;
		return 0;
	}
	r = disjoint_changes(l, tip, sg);
	if (r < 0)
		return aa_git_fail(l->d, "cannot compare a suggestion with HEAD");
	if (r)
		return 0;
	if (git_merge_commits(&index, l->repo, l->head, tip, NULL) < 0)
		return aa_git_fail(l->d, "cannot merge a suggestion in memory");
	if (git_index_has_conflicts(index))
		sg->merge = AA_MERGE_CONFLICTS;
	else if (git_index_write_tree_to(&tree, index, l->repo) < 0)
		r = aa_git_fail(l->d, "cannot merge a suggestion in memory");
	else
		sg->merge = git_oid_equal(&tree, git_commit_tree_id(l->head)) ?
			    AA_MERGE_APPLIED : AA_MERGE_CLEAN;
	git_index_free(index);
	git_mempack_reset(l->mempack);
	return r < 0 ? r : 0;
}

static int add_suggestion(lister *l, const char *name, git_commit *tip)
{
	aa_suggestion sg;
	int r;

	memset(&sg, 0, sizeof(sg));
	if (!read_trailers(git_commit_message(tip), &sg))
		return 0;
	if (AA_GROW(l->v, l->n, l->cap) < 0) {
		free(sg.answers);
		return aa_fatal_oom(l->d, AA_NOPOS, NULL);
	}
	sg.branch = aa_strdup(name);
	git_oid_cpy(&sg.tip, git_commit_id(tip));
	sg.has_base = git_commit_parentcount(tip) > 0;
	if (sg.has_base)
		git_oid_cpy(&sg.base, git_commit_parent_id(tip, 0));
	sg.merge = AA_MERGE_NO_HEAD;
	l->v[l->n++] = sg;
	if (!sg.branch)
		return aa_fatal_oom(l->d, AA_NOPOS, NULL);
	r = diff_stats(l, tip, &l->v[l->n - 1]);
	if (!r && l->head)
		r = base_to_head(l, &l->v[l->n - 1]);
	if (!r && l->head)
		r = merge_state(l, tip, &l->v[l->n - 1]);
	return r;
}

static int each_branch(lister *l, const char *pattern)
{
	git_branch_iterator *it = NULL;
	git_reference *ref;
	git_branch_t type;
	int r = 0, next;

	if (git_branch_iterator_new(&it, l->repo, GIT_BRANCH_LOCAL) < 0)
		return aa_git_fail(l->d, "cannot list the branches");
	while (!r && (next = git_branch_next(&ref, &type, it)) == 0) {
		const char *name = git_reference_shorthand(ref);
		git_commit *tip = NULL;

		/*
		 * The branch checked out is no suggestion any more (a
		 * suggestion fast-forwarded into it leaves its trailers on
		 * its tip): it is where suggestions go.
		 */
		if (git_branch_is_head(ref) == 1) {
			git_reference_free(ref);
			continue;
		}
		git_error_clear();
		if (!pattern || !fnmatch(pattern, name, 0)) {
			if (git_reference_peel((git_object **)&tip, ref,
					       GIT_OBJECT_COMMIT) < 0)
				r = aa_git_fail(l->d, "cannot read a branch");
			else
				r = add_suggestion(l, name, tip);
		}
		git_commit_free(tip);
		git_reference_free(ref);
	}
	git_branch_iterator_free(it);
	if (!r && next != GIT_ITEROVER)
		r = aa_git_fail(l->d, "cannot list the branches");
	return r;
}

static int open_lister(lister *l, aa_diags *d)
{
	git_reference *head = NULL;
	int r = git_repository_head(&head, l->repo);

	l->d = d;
	if (r == 0 && git_reference_peel((git_object **)&l->head, head,
					 GIT_OBJECT_COMMIT) < 0)
		r = -1;
	git_reference_free(head);
	if (r < 0 && r != GIT_EUNBORNBRANCH && r != GIT_ENOTFOUND)
		return aa_git_fail(d, "cannot read HEAD");
	if (git_repository_odb(&l->odb, l->repo) < 0 ||
	    git_mempack_new(&l->mempack) < 0)
		return aa_git_fail(d, "cannot set up the object database");
	/* every object a merge makes stays in memory */
	if (git_odb_add_backend(l->odb, l->mempack, 1000) < 0) {
		l->mempack->free(l->mempack);
		l->mempack = NULL;
		return aa_git_fail(d, "cannot set up the in-memory object store");
	}
	return 0;
}

static int by_branch(const void *a, const void *b)
{
	return strcmp(((const aa_suggestion *)a)->branch,
		      ((const aa_suggestion *)b)->branch);
}

int aa_list_suggestions(git_repository *repo, const char *pattern,
			aa_suggestion **out, size_t *n, aa_diags *d)
{
	lister l;
	int r;

	memset(&l, 0, sizeof(l));
	l.repo = repo;
	r = open_lister(&l, d);
	if (!r)
		r = each_branch(&l, pattern);
	if (l.mempack)
		git_mempack_reset(l.mempack);
	git_odb_free(l.odb);
	git_commit_free(l.head);
	path_set_free(&l.moved);
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), by_branch);
	*out = l.v;
	*n = l.n;
	return r;
}

void aa_suggestions_free(aa_suggestion *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].branch);
		free(v[i].answers);
	}
	free(v);
}
