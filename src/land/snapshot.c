/*
 * Snapshots of the base for the planner: a tree (--branch) or the index
 * (default, --cached). Lookups are per path, never a scan of the whole
 * repository.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "land/snapshot.h"
#include "land/objects.h"
#include "land/filters.h"
#include "land/attrs.h"
#include "land/index_read.h"
#include "land/promisor.h"
#include "land/stat_read.h"
#include "plan/history.h"
#include "util/util.h"

static void to_aa_oid(aa_oid *out, const git_oid *in)
{
	memcpy(out->id, in->id, sizeof(out->id));
}

/*
 * The blob `id` of the base: a partial clone's missing one fetched as
 * git would (land/promisor.h), else -1 with the reason in s->why.
 */
static int base_blob(aa_session *s, const git_oid *id, git_blob **blob)
{
	aa_buf why = AA_BUF_INIT;
	int r = git_blob_lookup(blob, s->repo, id);

	free(s->why);
	s->why = NULL;
	if (r != GIT_ENOTFOUND)
		return r < 0 ? -1 : 0;
	if (aa_promisor_ensure(s, id, NULL, &why) == 0)
		r = git_blob_lookup(blob, s->repo, id);
	else
		s->why = aa_buf_detach(&why);
	aa_buf_free(&why);
	return r < 0 ? -1 : 0;
}

static int read_blob(void *ctx, const aa_oid *oid, aa_buf *out)
{
	aa_session *s = ctx;
	git_blob *blob;
	git_oid id;
	int r;

	aa_oid_to_git(&id, oid);
	if (base_blob(s, &id, &blob) < 0)
		return -1;
	r = aa_buf_put(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return r;
}

/* What a lend holds: the blob, or the work-tree file's bytes (stat_read.h). */
typedef struct lent {
	git_blob *blob;
	void *file;
} lent;

/* Lends a blob's bytes: the git_blob is kept, freed on release. */
static int lend_blob(void *ctx, const aa_oid *oid, const char **data,
		     size_t *len, void **handle)
{
	aa_session *s = ctx;
	lent *l = calloc(1, sizeof(*l));
	git_oid id;

	aa_oid_to_git(&id, oid);
	if (!l || base_blob(s, &id, &l->blob) < 0) {
		free(l);
		return -1;
	}
	*data = git_blob_rawcontent(l->blob);
	*len = (size_t)git_blob_rawsize(l->blob);
	if (!*data)
		*data = "";
	*handle = l;
	return 0;
}

/*
 * The same for the blob of `path` in the index: the work-tree file when
 * git would take it for the blob (no inflating), else the blob.
 */
static int lend_path(void *ctx, const char *path, const aa_oid *oid,
		     const char **data, size_t *len, void **handle)
{
	lent *l = calloc(1, sizeof(*l));

	if (l && aa_stat_read_lend(ctx, path, oid, data, len, &l->file) == 0) {
		*handle = l;
		return 0;
	}
	free(l);
	return lend_blob(ctx, oid, data, len, handle);
}

static void release_blob(void *ctx, void *handle)
{
	lent *l = handle;

	(void)ctx;
	if (!l)
		return;
	git_blob_free(l->blob);
	aa_stat_read_release(l->file);
	free(l);
}

/*
 * A file under a filter driver reads in its smudged form, the work
 * tree's, which the answer was written against (land/filters.h).
 */
static int smudged_id(aa_session *s, const char *path, uint32_t mode,
		      const git_oid *id, aa_oid *oid)
{
	aa_buf why = AA_BUF_INIT;
	git_oid sm;
	int r = 0;

	to_aa_oid(oid, id);
	if ((mode != AA_MODE_FILE && mode != AA_MODE_EXEC) ||
	    aa_filter_driver(s, path, NULL) != 1)
		return 0;
	free(s->why);
	s->why = NULL;
	if (aa_filter_smudged(s, path, id, &sm, &why) < 0) {
		s->why = aa_buf_detach(&why);
		r = -1;
	} else {
		to_aa_oid(oid, &sm);
	}
	aa_buf_free(&why);
	return r;
}

/* ---- tree base ---- */

static int tree_lookup(void *ctx, const char *path, uint32_t *mode, aa_oid *oid)
{
	aa_session *s = ctx;
	git_tree_entry *e;
	int r;

	if (!s->base_tree)
		return 1;
	r = git_tree_entry_bypath(&e, s->base_tree, path);
	if (r == GIT_ENOTFOUND)
		return 1;
	if (r < 0)
		return -1;
	if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
		git_tree_entry_free(e);
		return 1;
	}
	*mode = (uint32_t)git_tree_entry_filemode(e);
	r = smudged_id(s, path, *mode, git_tree_entry_id(e), oid);
	git_tree_entry_free(e);
	return r;
}

struct tree_walk {
	const char *dir;
	aa_each_fn fn;
	void *payload;
	int stopped;
	aa_buf path;
};

static int tree_walk_cb(const char *root, const git_tree_entry *e, void *p)
{
	struct tree_walk *w = p;
	aa_oid oid;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
		return 0;
	aa_buf_clear(&w->path);
	if (aa_buf_printf(&w->path, "%s%s%s%s", w->dir, *w->dir ? "/" : "",
			  root, git_tree_entry_name(e)) < 0)
		return -1;
	to_aa_oid(&oid, git_tree_entry_id(e));
	if (w->fn(w->path.ptr, (uint32_t)git_tree_entry_filemode(e), &oid,
		  w->payload)) {
		w->stopped = 1;
		return -1;
	}
	return 0;
}

static int tree_each_under(void *ctx, const char *dir, aa_each_fn fn,
			   void *payload)
{
	aa_session *s = ctx;
	struct tree_walk w = { dir, fn, payload, 0, AA_BUF_INIT };
	git_tree_entry *e;
	git_tree *sub;
	int r;

	if (!s->base_tree)
		return 0;
	if (!*dir) { /* the whole tree */
		r = git_tree_walk(s->base_tree, GIT_TREEWALK_PRE, tree_walk_cb, &w);
		aa_buf_free(&w.path);
		return (r < 0 && !w.stopped) ? -1 : 0;
	}
	r = git_tree_entry_bypath(&e, s->base_tree, dir);
	if (r == GIT_ENOTFOUND)
		return 0;
	if (r < 0)
		return -1;
	if (git_tree_entry_type(e) != GIT_OBJECT_TREE) {
		git_tree_entry_free(e);
		return 0;
	}
	r = git_tree_lookup(&sub, s->repo, git_tree_entry_id(e));
	git_tree_entry_free(e);
	if (r < 0)
		return -1;
	r = git_tree_walk(sub, GIT_TREEWALK_PRE, tree_walk_cb, &w);
	git_tree_free(sub);
	aa_buf_free(&w.path);
	return (r < 0 && !w.stopped) ? -1 : 0;
}

/* ---- index base ---- */

static int index_lookup(void *ctx, const char *path, uint32_t *mode, aa_oid *oid)
{
	aa_session *s = ctx;
	git_index_entry e;

	if (!aa_index_get(s, path, 0, &e))
		return 1;
	*mode = e.mode;
	return smudged_id(s, path, e.mode, &e.id, oid);
}

static int index_intent_to_add(void *ctx, const char *path)
{
	aa_session *s = ctx;
	git_index_entry e;

	if (!aa_index_get(s, path, 0, &e) ||
	    !(e.flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD))
		return 0;
	return s->opts->mode == AA_LAND_CACHED ? 1 : 2;
}

/* The stage-0 entries under `prefix` ("" the whole index) to fn, in order. */
static void each_entry_under(const char *prefix, size_t plen,
			     const git_index_entry *e, aa_each_fn fn,
			     void *payload, int *stop)
{
	aa_oid oid;

	if (plen && strncmp(e->path, prefix, plen)) {
		*stop = 1;
		return;
	}
	if (git_index_entry_stage(e) != 0)
		return;
	to_aa_oid(&oid, &e->id);
	if (fn(e->path, e->mode, &oid, payload))
		*stop = 1;
}

static int reader_each_under(aa_session *s, const aa_buf *prefix,
			     aa_each_fn fn, void *payload)
{
	aa_ixiter it;
	git_index_entry e;
	int stop = 0;

	if (aa_ixiter_start(&it, s->ixr, prefix->ptr) < 0)
		return -1;
	while (!stop && aa_ixiter_next(&it, &e) > 0)
		each_entry_under(prefix->ptr, prefix->len, &e, fn, payload, &stop);
	aa_ixiter_free(&it);
	return 0;
}

static int index_each_under(void *ctx, const char *dir, aa_each_fn fn,
			    void *payload)
{
	aa_session *s = ctx;
	aa_buf prefix = AA_BUF_INIT;
	size_t pos, n;
	int r = 0, stop = 0;

	if (aa_buf_printf(&prefix, "%s%s", dir, *dir ? "/" : "") < 0)
		return -1;
	if (s->ixr) {
		r = reader_each_under(s, &prefix, fn, payload);
		aa_buf_free(&prefix);
		return r;
	}
	n = git_index_entrycount(s->index);
	if (!*dir) {
		pos = 0; /* the whole index */
	} else if (git_index_find_prefix(&pos, s->index, prefix.ptr) < 0) {
		aa_buf_free(&prefix);
		return 0;
	}
	for (; !stop && pos < n; pos++) {
		const git_index_entry *e = git_index_get_byindex(s->index, pos);

		if (!e)
			break;
		each_entry_under(prefix.ptr, prefix.len, e, fn, payload, &stop);
	}
	aa_buf_free(&prefix);
	return r;
}

/* ---- attributes and the work tree ---- */

static int attr_binary(void *ctx, const char *path)
{
	aa_session *s = ctx;
	git_attr_options ao;
	const char *names[] = { "binary", "text", "diff" };
	const char *values[3];

	memset(&ao, 0, sizeof(ao));
	ao.version = GIT_ATTR_OPTIONS_VERSION;
	if (!aa_index_present(s) && s->base_commit) {
		/*
		 * Source 3 reads neither the work tree nor the index: only
		 * the base commit's .gitattributes (verified on libgit2 1.5).
		 */
		ao.flags = 3 | GIT_ATTR_CHECK_NO_SYSTEM |
			   GIT_ATTR_CHECK_INCLUDE_COMMIT;
		git_oid_cpy(&ao.attr_commit_id, git_commit_id(s->base_commit));
	} else {
		ao.flags = GIT_ATTR_CHECK_INDEX_ONLY | GIT_ATTR_CHECK_NO_SYSTEM;
	}
	if (aa_attrs_get(s, &ao, path, 3, names, values) < 0)
		return 0;
	if (GIT_ATTR_IS_TRUE(values[0]) || GIT_ATTR_IS_FALSE(values[2]))
		return 1;
	/*
	 * -text under a filter driver is about the clean form (git lfs
	 * track writes "filter=lfs diff=lfs merge=lfs -text": no eol
	 * conversion of the pointer); the answer edits the smudged form,
	 * whose bytes decide.
	 */
	return GIT_ATTR_IS_FALSE(values[1]) && aa_filter_driver(s, path, NULL) != 1;
}

static int worktree_beyond_link(void *ctx, const char *path, char **link)
{
	aa_session *s = ctx;
	const char *wd = git_repository_workdir(s->repo);
	aa_buf full = AA_BUF_INIT;
	const char *slash;
	int r = 0;

	if (!wd)
		return 0;
	for (slash = strchr(path, '/'); slash && !r; slash = strchr(slash + 1, '/')) {
		struct stat st;

		aa_buf_clear(&full);
		if (aa_buf_puts(&full, wd) < 0 ||
		    aa_buf_put(&full, path, (size_t)(slash - path)) < 0) {
			r = -1;
			break;
		}
		if (lstat(full.ptr, &st) < 0)
			break;
		if (S_ISLNK(st.st_mode)) {
			*link = aa_strndup(path, (size_t)(slash - path));
			r = 1;
		} else if (!S_ISDIR(st.st_mode)) {
			break;
		}
	}
	aa_buf_free(&full);
	return r;
}

/* libgit2's reason for the last failure (the planner's messages give it). */
static const char *last_error(void *ctx)
{
	aa_session *s = ctx;

	return s->why ? s->why : aa_git_error(NULL);
}

/* ---- history and 3-way merges (plan/history.c) over the session ---- */

static aa_history_repo history_repo(const aa_session *s)
{
	aa_history_repo h = { s->repo, s->base_commit,
			      s->opts->mode == AA_LAND_BRANCH };

	return h;
}

static int history(void *ctx, const char *path, const char *hint,
		   const aa_oid *current, const aa_version_filter *filter,
		   aa_version_fn fn, void *payload, char **bound)
{
	aa_history_repo h = history_repo(ctx);

	return aa_history_versions(&h, path, hint, current, filter, fn, payload,
				   bound);
}

static int merge3(void *ctx, const char *path, const char *base_label,
		  const char *base, size_t base_len,
		  const char *ours, size_t ours_len,
		  const char *theirs, size_t theirs_len, aa_buf *out)
{
	aa_history_repo h = history_repo(ctx);

	return aa_history_merge3(&h, path, base_label, base, base_len, ours,
				 ours_len, theirs, theirs_len, out);
}

static int merge3_markers(void *ctx, const char *path,
			  const char *base, size_t base_len,
			  const char *ours, size_t ours_len,
			  const char *theirs, size_t theirs_len, aa_buf *out)
{
	aa_history_repo h = history_repo(ctx);

	return aa_history_merge3_markers(&h, path, base, base_len, ours,
					 ours_len, theirs, theirs_len, out);
}

/* ---- object ids, for binary patches ---- */

static int blob_id(void *ctx, const char *data, size_t len, aa_oid *out)
{
	git_oid id;

	(void)ctx;
	if (git_odb_hash(&id, data, len, GIT_OBJECT_BLOB) < 0)
		return -1;
	to_aa_oid(out, &id);
	return 0;
}

static int has_blob(void *ctx, const aa_oid *oid)
{
	aa_session *s = ctx;
	git_odb *odb;
	git_oid id;
	git_object_t type;
	size_t len;
	int r;

	aa_oid_to_git(&id, oid);
	if (git_repository_odb(&odb, s->repo) < 0)
		return -1;
	r = git_odb_read_header(&len, &type, odb, &id);
	git_odb_free(odb);
	if (r == GIT_ENOTFOUND)
		return 0;
	return r < 0 ? -1 : type == GIT_OBJECT_BLOB;
}

void aa_snapshot_bind(aa_session *s)
{
	aa_snapshot *sn = &s->snap;

	memset(sn, 0, sizeof(*sn));
	sn->ctx = s;
	sn->read = read_blob;
	sn->lend = lend_blob;
	sn->release = release_blob;
	sn->last_error = last_error;
	if (aa_index_present(s)) {
		sn->lookup = index_lookup;
		sn->each_under = index_each_under;
		sn->intent_to_add = index_intent_to_add;
		sn->lend_path = lend_path;
	} else {
		sn->lookup = tree_lookup;
		sn->each_under = tree_each_under;
	}
	sn->attr_binary = attr_binary;
	sn->history = history;
	sn->merge3 = merge3;
	sn->merge3_markers = merge3_markers;
	sn->blob_id = blob_id;
	sn->has_blob = has_blob;
	if (s->opts->check_worktree)
		sn->worktree_beyond_link = worktree_beyond_link;
}
