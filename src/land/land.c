/*
 * Landing a plan through libgit2, all or nothing: new objects live in a
 * mempack until everything else succeeded; then they are copied to the
 * disk odb, and only then is a ref or the index written.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
#include <git2/sys/commit.h>

#include "land/land.h"
#include "land/rerere.h"
#include "land/refname.h"
#include "land/land_tree.h"
#include "land/objects.h"
#include "land/snapshot.h"
#include "land/worktree.h"
#include "land/journal.h"
#include "land/loose.h"
#include "land/pack.h"
#include "land/odb_view.h"
#include "land/owner.h"
#include "land/refjournal.h"
#include "land/filters.h"
#include "land/index_read.h"
#include "land/index_write.h"
#include "land/attrs.h"
#include "land/promisor.h"
#include "land/sparse.h"
#include "land/support.h"
#include "util/testhook.h"
#include "util/util.h"

static int remember_object(aa_session *s, const git_oid *oid)
{
	return aa_remember_version(s, oid, NULL);
}

struct aa_pending;
static void pending_free(struct aa_pending *p);

/* ---- opening the base ---- */

/* The object database: the disk's through a view, new objects in memory. */
static int open_objects(aa_base *b, aa_diags *d)
{
	if (aa_odb_view_open(&b->odb, &b->mempack, b->repo) < 0)
		return aa_git_fail(d, "cannot set up the object database");
	return 0;
}

/*
 * The index read in O(touched) (land/index_read.h) from `path`; the
 * repository gets an in-memory index for libgit2's attribute lookups,
 * filled with the .gitattributes they ask for (aa_index_attrs_for).
 */
static int open_index_reader(aa_base *b, const char *path, aa_diags *d)
{
	aa_buf why = AA_BUF_INIT;
	char reason[200];
	int r = aa_ixread_open(&b->ixr, path, reason, sizeof(reason));

	if (r < 0) {
		r = aa_unsupported_explain(reason, &why);
		r = aa_fatal(d, AA_NOPOS, NULL, "cannot read the index: %s",
			     r > 0 ? why.ptr : reason);
		aa_buf_free(&why);
		return r;
	}
	if (git_index_new(&b->attr_index) < 0 ||
	    git_repository_set_index(b->repo, b->attr_index) < 0)
		return aa_git_fail(d, "cannot set up the repository");
	return 0;
}

/*
 * Default and --cached: take the index lock first (recovering a landing a
 * killed run left), then read the index through the guard's private copy,
 * so nothing can change it between our reading and our writing. The
 * landing changes an in-memory index that holds the touched paths'
 * entries only (land_index), never the whole index.
 */
static int open_locked_index(aa_base *b, aa_diags *d)
{
	int recovered, r = aa_guard_open(&b->guard, b->repo, &b->fsync,
					 &recovered, d);

	if (r < 0)
		return r;
	r = open_index_reader(b, aa_guard_index_path(b->guard), d);
	if (!r && git_index_new(&b->index) < 0)
		r = aa_git_fail(d, "out of memory");
	return r;
}

/* --check: the index (GIT_INDEX_FILE, else <gitdir>/index), without the lock. */
static int open_check_index(aa_base *b, aa_diags *d)
{
	const char *env = getenv("GIT_INDEX_FILE");
	aa_buf path = AA_BUF_INIT;
	int r;

	if ((env && *env ? aa_buf_puts(&path, env) :
	     aa_buf_printf(&path, "%sindex", git_repository_path(b->repo))) < 0)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	r = open_index_reader(b, path.ptr, d);
	aa_buf_free(&path);
	return r;
}

/*
 * --check when the caller keeps the repository's index loaded and
 * current (aa_land_opts.index_current: the MCP server): looked up in
 * place, never read again (the reader still walks the whole file once).
 */
static int borrow_current_index(aa_base *b, aa_diags *d)
{
	const char *env = getenv("GIT_INDEX_FILE");

	if ((env && *env) || git_repository_index(&b->index, b->repo) < 0) {
		git_error_clear();
		b->index = NULL;
		return open_check_index(b, d);
	}
	return 0;
}

static int open_index_base(aa_base *b, aa_diags *d)
{
	int r;

	if (git_repository_is_bare(b->repo) && b->opts->mode == AA_LAND_INDEX)
		return aa_fatal(d, AA_NOPOS, NULL,
				"this is a bare repository: use --cached or --branch");
	if (b->opts->mode == AA_LAND_CHECK && b->opts->index_current)
		r = borrow_current_index(b, d);
	else if (b->opts->mode == AA_LAND_CHECK)
		r = open_check_index(b, d);
	else
		r = open_locked_index(b, d);
	if (r < 0)
		return r;
	/* a borrowed index (ixr NULL): the caller says (index_conflicts) */
	if (b->ixr ? aa_ixread_has_conflicts(b->ixr) : b->opts->index_conflicts)
		return aa_fatal(d, AA_NOPOS, NULL,
				"the index has unresolved conflicts; resolve them first");
	return 0;
}

const git_oid *aa_base_index_checksum(const aa_base *b)
{
	return b->ixr ? aa_ixread_checksum(b->ixr) : NULL;
}

int aa_recover(git_repository *repo, aa_diags *d)
{
	aa_guard *g = NULL;
	aa_fsync f;
	int recovered, r;

	aa_fsync_read(&f, repo, d);
	r = aa_guard_open(&g, repo, &f, &recovered, d);

	aa_guard_close(g);
	return r < 0 ? r : recovered ? 0 : 1;
}

/*
 * libgit2 reads and writes reference names of at most 1,023 bytes
 * (GIT_REFNAME_MAX, 1024 with the NUL); git has no limit of its own.
 */
#define AA_REFNAME_MAX 1023

/* The one check every branch name gets: --branch, --each's, generated ones. */
int aa_land_check_branch(const char *name, aa_diags *d)
{
	const char *why = NULL;

	if (!aa_branch_name_check(name, &why)) {
		if (strlen("refs/heads/") + strlen(name) <= AA_REFNAME_MAX)
			return 0;
		why = "refs/heads/<name> is longer than the 1023 bytes libgit2 can store";
	}
	return aa_fatal(d, AA_NOPOS, NULL, "%s is not a valid branch name: %s",
			aa_qtext(name, strlen(name), 200), why);
}

/*
 * --branch never reads the index, but libgit2 loads the repository's
 * index for every attribute lookup, whatever the flags (on a large
 * repository that is most of the run): give it an empty one in memory.
 */
static int hide_index(aa_base *b, aa_diags *d)
{
	git_index *empty;
	int r;

	if (git_index_new(&empty) < 0)
		return aa_git_fail(d, "out of memory");
	r = git_repository_set_index(b->repo, empty);
	git_index_free(empty);
	return r < 0 ? aa_git_fail(d, "cannot set up the repository") : 0;
}

static int open_tree_base(aa_base *b, aa_diags *d)
{
	const char *rev = b->opts->base ? b->opts->base : "HEAD";
	git_object *obj = NULL;
	int r = hide_index(b, d);

	if (r < 0)
		return r;
	r = git_revparse_single(&obj, b->repo, rev);
	if (r == GIT_ENOTFOUND && !b->opts->base &&
	    git_repository_head_unborn(b->repo) == 1)
		return 0; /* unborn HEAD: a root commit over the empty tree */
	if (r < 0)
		return aa_fatal(d, AA_NOPOS, NULL,
				"--base: '%s' is not a valid revision", rev);
	r = git_object_peel((git_object **)&b->base_commit, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (r < 0)
		return aa_fatal(d, AA_NOPOS, NULL,
				"--base: '%s' is not a commit", rev);
	if (git_commit_tree(&b->base_tree, b->base_commit) < 0)
		return aa_git_fail(d, "cannot read the base tree");
	return 0;
}

int aa_base_open(aa_base *b, git_repository *repo, const aa_land_opts *opts,
		 aa_diags *d)
{
	int r;

	memset(b, 0, sizeof(*b));
	b->repo = repo;
	b->opts = opts;
	/* read once per landing; --check writes nothing */
	if (opts->mode != AA_LAND_CHECK)
		aa_fsync_read(&b->fsync, repo, d);
	r = open_objects(b, d);
	if (!r)
		r = opts->mode == AA_LAND_BRANCH ? open_tree_base(b, d)
						 : open_index_base(b, d);
	/* ref locks recorded in the run's journal (src/land/refjournal.h) */
	if (!r && opts->mode == AA_LAND_BRANCH &&
	    aa_refjournal_attach(repo, &b->fsync) < 0)
		r = aa_git_fail(d, "cannot set up the reference database");
	return r;
}

int aa_base_retarget(aa_base *b, aa_diags *d)
{
	if (b->opts->mode != AA_LAND_BRANCH)
		return aa_fatal(d, AA_NOPOS, NULL,
				"internal error: only a --branch base moves");
	/* room for both first: a commit is either kept here or still the base's */
	if (b->nretired + 2 > b->capretired &&
	    aa_array_grow(&b->retired, &b->capretired, b->nretired + 2,
			  sizeof(*b->retired)) < 0)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	if (b->base_commit)
		b->retired[b->nretired++] = (git_object *)b->base_commit;
	if (b->base_tree)
		b->retired[b->nretired++] = (git_object *)b->base_tree;
	b->base_commit = NULL;
	b->base_tree = NULL;
	/* answers about paths: asked again on the new base (memory follows one base) */
	aa_attrs_free(b->attrs);
	b->attrs = NULL;
	return open_tree_base(b, d);
}

void aa_base_release(aa_base *b)
{
	size_t i;

	for (i = 0; i < b->nretired; i++)
		git_object_free(b->retired[i]);
	b->nretired = 0;
}

void aa_base_close(aa_base *b)
{
	aa_diags ignored = AA_DIAGS_INIT;

	/* a run that stopped early: nothing moved, the keep and journal go */
	aa_refjournal_finish(b->refs, &ignored);
	aa_diags_free(&ignored);
	git_signature_free(b->author);
	git_signature_free(b->committer);
	git_index_free(b->index);
	git_index_free(b->attr_index);
	aa_attrs_free(b->attrs);
	aa_ixread_close(b->ixr);
	aa_guard_close(b->guard);
	git_tree_free(b->base_tree);
	git_commit_free(b->base_commit);
	aa_base_release(b);
	free(b->retired);
	if (b->mempack)
		git_mempack_reset(b->mempack);
	git_odb_free(b->odb); /* frees the mempack backend too */
	memset(b, 0, sizeof(*b));
}

/* The lander's view of its base (s is zeroed but for s->own). */
static void lander_init(aa_session *s, aa_base *base, const aa_land_opts *opts)
{
	s->base = base;
	s->repo = base->repo;
	s->index = base->index;
	s->ixr = base->ixr;
	s->base_commit = base->base_commit;
	s->base_tree = base->base_tree;
	s->opts = opts;
	aa_snapshot_bind(s);
}

int aa_lander_begin(aa_session *s, aa_base *base, const aa_land_opts *opts,
		    aa_diags *d)
{
	memset(s, 0, sizeof(*s));
	s->opts = opts;
	if (opts->mode == AA_LAND_BRANCH && aa_land_check_branch(opts->branch, d) < 0)
		return AA_FATAL;
	lander_init(s, base, opts);
	return 0;
}

int aa_session_open(aa_session *s, git_repository *repo,
		    const aa_land_opts *opts, aa_diags *d)
{
	int r = 0;

	memset(s, 0, sizeof(*s));
	s->base = &s->own;
	s->opts = opts;
	if (opts->mode == AA_LAND_BRANCH)
		r = aa_land_check_branch(opts->branch, d);
	if (!r)
		r = aa_base_open(&s->own, repo, opts, d);
	if (!r)
		lander_init(s, &s->own, opts);
	return r;
}

void aa_session_close(aa_session *s)
{
	pending_free(s->pending);
	if (s->base == &s->own)
		aa_base_close(&s->own);
	free(s->created);
	free(s->bases);
	free(s->sparse);
	free(s->why);
	free(s->smudged);
	memset(s, 0, sizeof(*s));
}

/* ---- objects ---- */

int aa_change_content(aa_session *s, const aa_change *c, git_blob **blob,
		      const char **data, size_t *len)
{
	git_oid id;

	*blob = NULL;
	if (!c->has_oid) {
		*data = c->data ? c->data : "";
		*len = c->len;
		return 0;
	}
	aa_oid_to_git(&id, &c->oid);
	if (git_blob_lookup(blob, s->repo, &id) < 0)
		return -1;
	*data = git_blob_rawcontent(*blob);
	*len = (size_t)git_blob_rawsize(*blob);
	return 0;
}

/*
 * Copies the objects we created since the last time from the mempack to
 * .git/objects, each written, made durable as core.fsync says and renamed
 * into place by aa_loose_write (not git_odb_write: src/land/loose.h), so
 * that they are on disk before the journal or a ref names them and no
 * temporary file of ours stays.
 */
static int persist_objects(aa_session *s, aa_diags *d)
{
	aa_buf dir = AA_BUF_INIT;
	git_odb *disk = NULL;
	aa_loose_set set;
	size_t i;
	int r = 0;

	if (s->npersisted == s->ncreated)
		return 0;
	if (aa_buf_printf(&dir, "%sobjects", git_repository_commondir(s->repo)) < 0)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	if (git_odb_open(&disk, dir.ptr) < 0)
		r = aa_git_fail(d, "cannot open the object database");
	aa_loose_begin(&set, dir.ptr, &s->base->fsync);
	for (i = s->npersisted; !r && i < s->ncreated; i++) {
		git_odb_object *obj;

		/*
		 * packs and alternates count: git would not write it either
		 * (as just opened: no rescan of the packs per missing object)
		 */
		if (git_odb_exists_ext(disk, &s->created[i], GIT_ODB_LOOKUP_NO_REFRESH))
			continue;
		if (git_odb_read(&obj, s->base->odb, &s->created[i]) < 0) {
			r = aa_git_fail(d, "cannot read a new object");
			break;
		}
		r = aa_loose_write(&set, &s->created[i],
				   git_odb_object_type(obj),
				   git_odb_object_data(obj),
				   git_odb_object_size(obj), d);
		git_odb_object_free(obj);
	}
	/* core.fsyncMethod=batch: the one flush, then the names */
	if (aa_loose_end(&set, !r, d) < 0)
		r = AA_FATAL;
	if (!r)
		s->npersisted = s->ncreated;
	git_odb_free(disk);
	aa_buf_free(&dir);
	return r;
}

/*
 * zlib's level for --each's pack: pack.compression, else
 * core.compression, as git; unset, 0 (stored). Compressing was half of
 * the write's time; the pack is a short-lived one (git gc repacks it,
 * finding deltas and compressing those), and stored it is still smaller
 * on disk than the loose objects it replaces (one 4 KiB block each).
 */
static int pack_compression(git_repository *repo)
{
	static const char *const vars[] = { "pack.compression", "core.compression" };
	git_config *cfg = NULL;
	int32_t level = 0;
	size_t i;

	if (git_repository_config_snapshot(&cfg, repo) < 0)
		return 0;
	for (i = 0; i < 2; i++)
		if (git_config_get_int32(&level, cfg, vars[i]) == 0)
			break;
	git_config_free(cfg);
	git_error_clear();
	/* -1 is zlib's default, as for git */
	return i == 2 ? 0 : level < -1 || level > 9 ? Z_DEFAULT_COMPRESSION : level;
}

/* The pack's keep is named in the journal, written whole, before it exists. */
static int record_keep(void *ctx, const char *path, aa_diags *d)
{
	aa_refjournal *j = ctx;

	if (aa_refjournal_add_keep(j, path) < 0)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	return aa_refjournal_write(j, d);
}

static void refmove_of(const aa_session *s, const struct aa_pending *p,
		       aa_refmove *m);
static long *pending_move(struct aa_pending *p);

/* The ref journal of the base, made at the first write. */
static aa_refjournal *base_journal(aa_base *b, aa_diags *d)
{
	if (!b->refs && !(b->refs = aa_refjournal_new(b->repo, &b->fsync)))
		aa_oom(d, AA_NOPOS, NULL);
	return b->refs;
}

/* Every prepared lander's refs as moves of the journal (once each). */
static int journal_moves(aa_session *const *v, size_t n, aa_refjournal *j,
			 aa_diags *d)
{
	size_t k;

	for (k = 0; k < n; k++) {
		long *slot = v[k]->pending ? pending_move(v[k]->pending) : NULL;
		aa_refmove m;

		if (!slot || *slot >= 0)
			continue;
		refmove_of(v[k], v[k]->pending, &m);
		if ((*slot = aa_refjournal_add(j, &m)) < 0)
			return aa_fatal_oom(d, AA_NOPOS, NULL);
	}
	return 0;
}

/*
 * --branch and --each: the new objects of every lander in one pack
 * (src/land/pack.h), fsynced before any ref names one of them, and kept
 * (`pack-<sum>.keep`) until the refs are written, so that `git repack
 * -a -d` or `git gc --prune=now` running meanwhile never drops them.
 * The run's journal names the keep and every lander's ref moves before
 * the keep exists. Objects are read from the mempack, which answers
 * first: no lookup misses, so no rescan of the pack directory. One
 * pack, not loose objects: one file and one fsync, instead of a file,
 * a rename and two fsyncs an object.
 */
/*
 * One kept pack of objs[0..n) in the repository's objects/, its keep
 * naming this process; the keep's tmp_dir, record and ctx are the
 * caller's.
 */
static int write_kept_pack(aa_session *s, const aa_pack_object *objs,
			   size_t n, aa_pack_keep *keep, aa_diags *d)
{
	aa_buf dir = AA_BUF_INIT, reason = AA_BUF_INIT;
	int r;

	if (aa_buf_printf(&dir, "%sobjects", git_repository_commondir(s->repo)) < 0 ||
	    aa_buf_printf(&reason, "ai-apply %ld on %s", (long)getpid(),
			  aa_owner_host()) < 0) {
		r = aa_fatal_oom(d, AA_NOPOS, NULL);
	} else {
		keep->reason = reason.ptr;
		r = aa_pack_write(dir.ptr, s->base->odb, s->base->mempack, objs, n,
				  pack_compression(s->repo), &s->base->fsync,
				  keep, d);
	}
	aa_buf_free(&dir);
	aa_buf_free(&reason);
	return r;
}

int aa_land_persist(aa_session *const *v, size_t n, aa_diags *d)
{
	aa_refjournal *j = n ? base_journal(v[0]->base, d) : NULL;
	aa_pack_object *objs;
	aa_pack_keep keep;
	size_t k, i, count = 0;
	int r;

	if (!n)
		return 0;
	if (!j)
		return AA_FATAL;
	if ((r = journal_moves(v, n, j, d)) < 0)
		return r;
	for (k = 0; k < n; k++)
		count += v[k]->ncreated - v[k]->npersisted;
	if (!count)
		return aa_refjournal_write(j, d);
	objs = calloc(count, sizeof(*objs));
	if (!objs)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	for (k = 0, count = 0; k < n; k++)
		for (i = v[k]->npersisted; i < v[k]->ncreated; i++, count++) {
			git_oid_cpy(&objs[count].id, &v[k]->created[i]);
			git_oid_cpy(&objs[count].base, &v[k]->bases[i]);
		}
	/* the journal's directory: out of gc's reach (src/land/pack.h) */
	keep.tmp_dir = aa_refjournal_dir(j);
	(void)mkdir(keep.tmp_dir, 0777);
	keep.record = record_keep;
	keep.ctx = j;
	r = write_kept_pack(v[0], objs, count, &keep, d);
	for (k = 0; !r && k < n; k++)
		v[k]->npersisted = v[k]->ncreated;
	free(objs);
	return r;
}

int aa_land_done(aa_base *b, aa_diags *d)
{
	aa_refjournal *j = b->refs;

	b->refs = NULL;
	return aa_refjournal_finish(j, d);
}

/* ---- --branch ---- */

static int tree_updates(aa_session *s, const aa_plan *plan, int removals,
			git_tree_update **out, size_t *n, aa_diags *d)
{
	git_tree_update *u = calloc(plan->nchanges ? plan->nchanges : 1, sizeof(*u));
	size_t i;

	*out = u;
	*n = 0;
	if (!u)
		return aa_git_fail(d, "out of memory");
	for (i = 0; i < plan->nchanges; i++) {
		const aa_change *c = &plan->changes[i];

		if (removals == c->exists)
			continue;
		u[*n].path = c->path;
		if (removals) {
			u[*n].action = GIT_TREE_UPDATE_REMOVE;
		} else {
			u[*n].action = GIT_TREE_UPDATE_UPSERT;
			u[*n].filemode = (git_filemode_t)c->mode;
			if (aa_change_blob(s, c, &u[*n].id, d) < 0)
				return AA_FATAL;
		}
		(*n)++;
	}
	return 0;
}

/* Applies removals, then upserts (libgit2 refuses both kinds in one batch). */
static int build_tree(aa_session *s, const aa_plan *plan, git_oid *out,
		      aa_diags *d)
{
	git_tree *tree = s->base_tree, *mid = NULL, *empty = NULL;
	git_tree_update *u = NULL;
	size_t n;
	int pass, r = 0;

	if (!tree) {
		git_treebuilder *tb;
		git_oid eid;

		if (git_treebuilder_new(&tb, s->repo, NULL) < 0 ||
		    git_treebuilder_write(&eid, tb) < 0 ||
		    git_tree_lookup(&empty, s->repo, &eid) < 0)
			return aa_git_fail(d, "cannot create the empty tree");
		git_treebuilder_free(tb);
		tree = empty;
	}
	git_oid_cpy(out, git_tree_id(tree));
	for (pass = 1; pass >= 0 && !r; pass--) {
		r = tree_updates(s, plan, pass, &u, &n, d);
		if (!r && n && git_tree_create_updated(out, s->repo, tree, n, u) < 0)
			r = aa_git_fail(d, "cannot build the new tree");
		free(u);
		u = NULL;
		if (!r && n && pass) {
			if (git_tree_lookup(&mid, s->repo, out) < 0)
				r = aa_git_fail(d, "cannot read the new tree");
			tree = mid;
		}
	}
	git_tree_free(mid);
	git_tree_free(empty);
	return r;
}

/* Remembers the root and every tree on the way to a changed path. */
static int remember_trees(aa_session *s, const aa_plan *plan,
			  const git_oid *root, aa_diags *d)
{
	git_tree *tree;
	size_t i;
	int r = 0;

	if (aa_remember_version(s, root, s->base_tree ? git_tree_id(s->base_tree)
						      : NULL) < 0)
		return aa_git_fail(d, "out of memory");
	if (git_tree_lookup(&tree, s->repo, root) < 0)
		return aa_git_fail(d, "cannot read the new tree");
	for (i = 0; i < plan->nchanges && !r; i++) {
		char *p = aa_strdup(plan->changes[i].path), *slash;

		if (!p) {
			r = aa_git_fail(d, "out of memory");
			break;
		}
		for (slash = strchr(p, '/'); slash && !r; slash = strchr(slash + 1, '/')) {
			git_tree_entry *e;

			*slash = '\0';
			if (git_tree_entry_bypath(&e, tree, p) == 0) {
				if (git_tree_entry_type(e) == GIT_OBJECT_TREE &&
				    remember_object(s, git_tree_entry_id(e)) < 0)
					r = aa_git_fail(d, "out of memory");
				git_tree_entry_free(e);
			}
			*slash = '/';
		}
		free(p);
	}
	git_tree_free(tree);
	return r;
}

/* "1112354055 +0200" or "@1112354055 +0200" (git's raw form). */
static int parse_raw_date(const char *s, git_time_t *t, int *offset)
{
	char *end;
	long long secs;
	long tz;

	if (*s == '@')
		s++;
	errno = 0;
	secs = strtoll(s, &end, 10);
	if (errno || end == s || *end != ' ')
		return -1;
	tz = strtol(end + 1, &end, 10);
	if (*end || tz < -2400 || tz > 2400)
		return -1;
	*t = (git_time_t)secs;
	*offset = (int)((tz / 100) * 60 + (tz % 100));
	return 0;
}

static int make_signature(git_signature **out, git_repository *repo,
			  const char *who, aa_diags *d)
{
	char name_var[32], email_var[32], date_var[32];
	const char *name, *email, *date;
	git_config *cfg = NULL;
	git_buf cname = GIT_BUF_INIT, cemail = GIT_BUF_INIT;
	git_time_t t;
	int off, r;

	snprintf(name_var, sizeof(name_var), "GIT_%s_NAME", who);
	snprintf(email_var, sizeof(email_var), "GIT_%s_EMAIL", who);
	snprintf(date_var, sizeof(date_var), "GIT_%s_DATE", who);
	name = getenv(name_var);
	email = getenv(email_var);
	date = getenv(date_var);
	if ((!name || !email) && git_repository_config_snapshot(&cfg, repo) == 0) {
		if (!name && git_config_get_string_buf(&cname, cfg, "user.name") == 0)
			name = cname.ptr;
		if (!email && git_config_get_string_buf(&cemail, cfg, "user.email") == 0)
			email = cemail.ptr;
	}
	if (!name || !*name || !email) {
		r = aa_error(d, AA_NOPOS, NULL,
			     "identity unknown: set user.name and user.email (or GIT_%s_NAME and GIT_%s_EMAIL)",
			     who, who);
		r = AA_FATAL;
	} else if (date && parse_raw_date(date, &t, &off) == 0) {
		r = git_signature_new(out, name, email, t, off) < 0 ?
			aa_git_fail(d, "invalid identity") : 0;
	} else {
		r = git_signature_now(out, name, email) < 0 ?
			aa_git_fail(d, "invalid identity") : 0;
	}
	git_buf_dispose(&cname);
	git_buf_dispose(&cemail);
	git_config_free(cfg);
	return r;
}

/*
 * The author (committer: the committer) of a lander's commit: made once
 * a base (the config read once, one time for all of --each's commits).
 */
static int base_signature(aa_session *s, int committer, git_signature **out,
			  aa_diags *d)
{
	git_signature **sig = committer ? &s->base->committer : &s->base->author;
	int r = 0;

	if (!*sig)
		r = make_signature(sig, s->repo, committer ? "COMMITTER" : "AUTHOR", d);
	if (!r && git_signature_dup(out, *sig) < 0)
		r = aa_git_fail(d, "out of memory");
	return r;
}

/* "ai-apply: update a, b" or "ai-apply: change N files". */
static int default_subject(const aa_plan *plan, aa_buf *msg)
{
	size_t i;

	if (aa_buf_puts(msg, "ai-apply: ") < 0)
		return -1;
	if (plan->nchanges > 3)
		return aa_buf_printf(msg, "change %zu files\n", plan->nchanges) < 0 ?
			-1 : 0;
	for (i = 0; i < plan->nchanges; i++)
		if (aa_buf_printf(msg, "%s%s", i ? ", " : "update ",
				  plan->changes[i].path) < 0)
			return -1;
	return aa_buf_putc(msg, '\n');
}

/*
 * The subject (-m replaces only it), the files when the subject cannot
 * name them all, then the trailers after a blank line, as git's
 * interpret-trailers puts them.
 */
static int commit_message(const aa_plan *plan, const char *given,
			  const char *trailers, aa_buf *msg)
{
	size_t i;

	if (given) {
		aa_buf_puts(msg, given);
		if (msg->len && msg->ptr[msg->len - 1] != '\n')
			aa_buf_putc(msg, '\n');
	} else if (default_subject(plan, msg) < 0) {
		return -1;
	}
	if (plan->nchanges > 3) {
		aa_buf_puts(msg, "\nFiles:\n");
		for (i = 0; i < plan->nchanges; i++)
			aa_buf_printf(msg, "  %s\n", plan->changes[i].path);
	}
	if (trailers && *trailers)
		aa_buf_printf(msg, "\n%s", trailers);
	return aa_buf_oom(msg) ? -1 : 0;
}

/* ---- the answer as a note, refs updated together ---- */

#define AA_NOTES_REF "refs/notes/ai-apply"

/* A --branch landing between aa_land_prepare and aa_land_finish. */
struct aa_pending {
	aa_buf refname;            /* refs/heads/<branch> */
	aa_buf log;                /* the reflog message */
	git_signature *committer;
	git_oid old;               /* --force: where the branch was */
	int exists;
	int has_note;
	git_oid note;              /* the notes commit ... */
	git_oid note_parent;       /* ... built on this notes tip */
	int note_had_parent;       /* (0: the notes ref did not exist) */
	long move;                 /* its moves in the ref journal; -1 */
};

static long *pending_move(struct aa_pending *p)
{
	return &p->move;
}

/* What the ref journal records of a prepared lander. */
static void refmove_of(const aa_session *s, const struct aa_pending *p,
		       aa_refmove *m)
{
	memset(m, 0, sizeof(*m));
	m->refname = p->refname.ptr;
	m->had_old = p->exists;
	git_oid_cpy(&m->old, &p->old);
	git_oid_cpy(&m->new_commit, &s->commit);
	m->has_note = p->has_note;
	m->had_notes = p->note_had_parent;
	git_oid_cpy(&m->notes_old, &p->note_parent);
	git_oid_cpy(&m->notes_new, &p->note);
}

static void pending_free(struct aa_pending *p)
{
	if (!p)
		return;
	aa_buf_free(&p->refname);
	aa_buf_free(&p->log);
	git_signature_free(p->committer);
	free(p);
}

/* Where a ref points now: 1 and *id, 0 when absent, <0 on error. */
static int ref_target(git_repository *repo, const char *name, git_oid *id)
{
	int r = git_reference_name_to_id(id, repo, name);

	return r == GIT_ENOTFOUND ? 0 : r < 0 ? r : 1;
}

/* A note at the top of a notes tree: a blob named by a full commit id. */
static int flat_note(const git_tree_entry *e)
{
	const char *name = git_tree_entry_name(e);

	return git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
	       strlen(name) == GIT_OID_HEXSZ &&
	       strspn(name, "0123456789abcdef") == GIT_OID_HEXSZ;
}

/*
 * The updates that fan out the flat notes of tree (but the note of
 * `skip`, replaced anyway): removals in rm[], the same notes at
 * "xx/yyyy..." in add[] (paths in names, 42 bytes each).
 */
static size_t fan_out_updates(git_tree *tree, const char *skip,
			      git_tree_update *rm, git_tree_update *add,
			      char *names)
{
	size_t i, n = 0, count = git_tree_entrycount(tree);

	for (i = 0; i < count; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);
		char *path = names + n * (GIT_OID_HEXSZ + 2);

		if (!flat_note(e) || !strcmp(name, skip))
			continue;
		snprintf(path, GIT_OID_HEXSZ + 2, "%.2s/%s", name, name + 2);
		rm[n].action = GIT_TREE_UPDATE_REMOVE;
		rm[n].path = name;
		add[n].action = GIT_TREE_UPDATE_UPSERT;
		add[n].path = path;
		add[n].filemode = GIT_FILEMODE_BLOB;
		git_oid_cpy(&add[n].id, git_tree_entry_id(e));
		n++;
	}
	return n;
}

/*
 * Applies the nrm removals, then the nadd upserts (libgit2 refuses both
 * kinds in one batch), on tree (NULL: the empty tree); *out the result.
 */
static int update_notes_tree(aa_session *s, git_tree *tree,
			     const git_tree_update *rm, size_t nrm,
			     const git_tree_update *add, size_t nadd,
			     git_oid *out)
{
	git_tree *mid = NULL;
	int r = 0;

	if (nrm && (git_tree_create_updated(out, s->repo, tree, nrm, rm) < 0 ||
		    git_tree_lookup(&mid, s->repo, out) < 0))
		r = -1;
	if (!r && git_tree_create_updated(out, s->repo, nrm ? mid : tree, nadd,
					  add) < 0)
		r = -1;
	git_tree_free(mid);
	return r;
}

/*
 * Remembers the new notes tree and its fan-out tree `dir`, or every
 * fan-out tree when flat notes were just fanned out.
 */
static int remember_notes_trees(aa_session *s, const git_oid *root,
				const git_oid *old_root, const char *dir,
				int all, aa_diags *d)
{
	git_tree *tree = NULL;
	size_t i, n;
	int r = 0;

	if (git_tree_lookup(&tree, s->repo, root) < 0)
		return aa_git_fail(d, "cannot read the notes tree");
	n = git_tree_entrycount(tree);
	if (aa_remember_version(s, root, old_root) < 0)
		r = aa_git_fail(d, "out of memory");
	for (i = 0; !r && i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);

		if (git_tree_entry_type(e) != GIT_OBJECT_TREE ||
		    (!all && strcmp(git_tree_entry_name(e), dir)))
			continue;
		if (remember_object(s, git_tree_entry_id(e)) < 0)
			r = aa_git_fail(d, "out of memory");
	}
	git_tree_free(tree);
	return r;
}

/*
 * The notes tree: ptree (NULL: none) with the note blob at "xx/yyyy..."
 * (the id of s->commit fanned out, as git does for many notes: adding
 * one rewrites a tree of at most 256 entries and a small one, not a
 * flat tree of every note). Flat notes of an older tree are fanned out
 * on the way, once. The new trees are remembered.
 */
static int notes_tree(aa_session *s, git_tree *ptree, const git_oid *blob,
		      git_oid *out, aa_diags *d)
{
	char hex[GIT_OID_HEXSZ + 1], dir[3];
	size_t n = 0, nrm, count = ptree ? git_tree_entrycount(ptree) : 0;
	git_tree_update *rm = calloc(count + 1, sizeof(*rm));
	git_tree_update *add = calloc(count + 1, sizeof(*add));
	char *names = malloc((count + 1) * (GIT_OID_HEXSZ + 2));
	int r = 0;

	git_oid_tostr(hex, sizeof(hex), &s->commit);
	snprintf(dir, sizeof(dir), "%.2s", hex);
	if (!rm || !add || !names)
		r = aa_git_fail(d, "out of memory");
	if (!r && ptree)
		n = fan_out_updates(ptree, hex, rm, add, names);
	nrm = n;
	/* a flat note of this very commit: replaced */
	if (!r && ptree && git_tree_entry_byname(ptree, hex)) {
		rm[nrm].action = GIT_TREE_UPDATE_REMOVE;
		rm[nrm++].path = hex;
	}
	if (!r) {
		char *path = names + count * (GIT_OID_HEXSZ + 2);

		snprintf(path, GIT_OID_HEXSZ + 2, "%s/%s", dir, hex + 2);
		add[n].action = GIT_TREE_UPDATE_UPSERT;
		add[n].path = path;
		add[n].filemode = GIT_FILEMODE_BLOB;
		git_oid_cpy(&add[n].id, blob);
	}
	/* the usual case, nothing flat to move: without a tree builder */
	if (!r && !nrm) {
		r = aa_fast_put_blob(s, ptree, add[n].path, blob, out);
		if (r < 0)
			r = aa_git_fail(d, "cannot create the notes tree");
		if (r != AA_FAST_NO)
			goto done;
		r = 0;
	}
	if (!r && update_notes_tree(s, ptree, rm, nrm, add, n + 1, out) < 0)
		r = aa_git_fail(d, "cannot create the notes tree");
	if (!r)
		r = remember_notes_trees(s, out, ptree ? git_tree_id(ptree) : NULL,
					 dir, n > 0, d);
done:
	free(rm);
	free(add);
	free(names);
	return r;
}

/*
 * The notes commit adding the answer text as the note of s->commit, on
 * top of the notes commit *parent_id (had; else the first one); its
 * objects go to the mempack with the others.
 */
static int build_note(aa_session *s, const git_signature *who, int had,
		      const git_oid *parent_id, git_oid *out, aa_diags *d)
{
	git_commit *parent = NULL;
	git_tree *ptree = NULL, *tree = NULL;
	git_oid blob, tree_id;
	int r = 0;

	if (had && (git_commit_lookup(&parent, s->repo, parent_id) < 0 ||
		    git_commit_tree(&ptree, parent) < 0))
		r = aa_git_fail(d, "cannot read " AA_NOTES_REF);
	if (!r && git_blob_create_from_buffer(&blob, s->repo, s->opts->note,
					      s->opts->note_len) < 0)
		r = aa_git_fail(d, "cannot create the note");
	if (!r && remember_object(s, &blob) < 0)
		r = aa_git_fail(d, "out of memory");
	if (!r)
		r = notes_tree(s, ptree, &blob, &tree_id, d);
	if (!r && git_tree_lookup(&tree, s->repo, &tree_id) < 0)
		r = aa_git_fail(d, "cannot read the notes tree");
	if (!r && git_commit_create(out, s->repo, NULL, who, who, NULL,
				    "Notes added by 'git ai-apply'\n", tree,
				    parent ? 1 : 0, (const git_commit **)&parent) < 0)
		r = aa_git_fail(d, "cannot create the notes commit");
	if (!r && remember_object(s, out) < 0)
		r = aa_git_fail(d, "out of memory");
	git_tree_free(tree);
	git_tree_free(ptree);
	git_commit_free(parent);
	return r;
}

/*
 * The note of a prepared lander, on the note the lander prepared before
 * it on the same base (the first: on refs/notes/ai-apply as it is now),
 * so that landers landing in order need no other notes commit.
 */
static int prepare_note(aa_session *s, struct aa_pending *p, aa_diags *d)
{
	aa_base *b = s->base;

	if (!b->notes_read) {
		b->notes_had = ref_target(s->repo, AA_NOTES_REF, &b->notes_tip);
		if (b->notes_had < 0)
			return aa_git_fail(d, "cannot read " AA_NOTES_REF);
		b->notes_read = 1;
	}
	p->note_had_parent = b->notes_had;
	git_oid_cpy(&p->note_parent, &b->notes_tip);
	if (build_note(s, p->committer, b->notes_had, &b->notes_tip, &p->note, d) < 0)
		return AA_FATAL;
	p->has_note = 1;
	git_oid_cpy(&b->notes_tip, &p->note);
	b->notes_had = 1;
	return 0;
}

/*
 * Another run of ours landing at the same time holds the refs for a
 * moment: wait and try again, for about a second before giving up.
 */
#define AA_REF_ATTEMPTS 50
#define AA_REF_RETRY 1

/* The branch, once locked, still is where we read it. */
static int branch_unmoved(aa_session *s, struct aa_pending *p, aa_diags *d)
{
	const char *name = p->refname.ptr;
	git_oid now;
	int r = ref_target(s->repo, name, &now);

	if (r < 0)
		return aa_git_fail(d, "cannot read a ref");
	if (r == p->exists && (!r || git_oid_equal(&now, &p->old)))
		return 0;
	if (!p->exists)
		return aa_error(d, AA_NOPOS, NULL,
				"branch '%s' already exists (use --force to replace it)",
				name + 11);
	return aa_error(d, AA_NOPOS, NULL,
			"%s was changed by another process during the run; nothing was updated",
			name);
}

/*
 * With both refs locked: the note must go on the notes ref's tip. When
 * the tip is not the one it was built on (another run landed a note, or
 * a lander before this one did not land), it is built again on the tip
 * and its objects written (loose, fsynced) before the ref names them.
 */
static int note_on_tip(aa_session *s, struct aa_pending *p, aa_diags *d)
{
	git_oid tip;
	int had = ref_target(s->repo, AA_NOTES_REF, &tip);

	if (had < 0)
		return aa_git_fail(d, "cannot read " AA_NOTES_REF);
	if (had == p->note_had_parent &&
	    (!had || git_oid_equal(&tip, &p->note_parent)))
		return 0;
	p->note_had_parent = had;
	git_oid_cpy(&p->note_parent, &tip);
	if (build_note(s, p->committer, had, &tip, &p->note, d) < 0)
		return AA_FATAL;
	/* the journal's move follows; its objects kept as the first pack's */
	if (p->move >= 0 && s->base->refs) {
		aa_refmove *m = aa_refjournal_move(s->base->refs, (size_t)p->move);

		m->had_notes = had;
		git_oid_cpy(&m->notes_old, &tip);
		git_oid_cpy(&m->notes_new, &p->note);
	}
	return aa_land_persist(&s, 1, d);
}

/*
 * A ref that could not be locked, with its reason: a held lock in git's
 * own words (libgit2 clears the error of its existence check), anything
 * else with libgit2's message or errno.
 */
static int lock_fail(aa_session *s, const char *refname, int r, aa_diags *d)
{
	const char *why = aa_git_error(NULL);
	int err = errno;

	if (r == GIT_ELOCKED)
		return aa_fatal(d, AA_NOPOS, NULL,
				"Unable to create '%s%s.lock': File exists.\n\n"
				"Another git process seems to be running in this repository, e.g.\n"
				"another git ai-apply landing a suggestion. Please make sure all\n"
				"processes are terminated then try again.",
				git_repository_commondir(s->repo), refname);
	return aa_fatal(d, AA_NOPOS, NULL, "cannot lock %s: %s", refname,
			why ? why : err ? strerror(err) : "unknown error");
}

/*
 * A lock of ours libgit2 left behind (its unlink failed) and we could
 * not remove either: said; the journal stays and names it, so the next
 * run removes it.
 */
static int leftover_lock(aa_session *s, aa_diags *d)
{
	char *msg = s->base->refs ? aa_refjournal_take_leftover(s->base->refs) : NULL;

	if (!msg)
		return 0;
	aa_error(d, AA_NOPOS, NULL,
		 "%s; the branch %s was written; the next git ai-apply removes the lock",
		 msg, s->opts->branch);
	free(msg);
	return AA_FATAL;
}

/*
 * The transaction failed while writing (EIO, ENOSPC on a ref, its
 * reflog, the notes ref): one ref may be written and not the other. The
 * suggestion is settled at once: completed when possible, else rolled
 * back; the message says which.
 */
static int failed_commit(aa_session *s, struct aa_pending *p, aa_diags *d)
{
	char *why = aa_strdup(aa_git_error(strerror(errno)));
	int r = s->base->refs && p->move >= 0 ?
		aa_refjournal_settle(s->base->refs, (size_t)p->move, d) : 0;

	if (r == 1) {
		aa_warn(d, AA_NOPOS, NULL,
			"writing the branch and " AA_NOTES_REF " failed (%s); "
			"completed on a second try: both are written",
			why ? why : "unknown error");
		free(why);
		return 0;
	}
	aa_error(d, AA_NOPOS, NULL,
		 "cannot update the branch and " AA_NOTES_REF ": %s%s",
		 why ? why : "unknown error", r == 0 ?
		 "; rolled back: neither the branch nor its note was written" : "");
	free(why);
	return AA_FATAL;
}

/*
 * The branch and the notes ref in one transaction: both are locked and
 * checked before either is written, so a held lock or a branch that
 * appeared or moved leaves both as they were. A write failing between
 * the two renames is settled at once (failed_commit); a kill there by
 * the next run (the journal). Returns AA_REF_RETRY, with nothing said,
 * for a held lock, unless this is the last attempt.
 */
static int update_refs_with_note(aa_session *s, struct aa_pending *p,
				 int last, aa_diags *d)
{
	git_transaction *tx = NULL;
	const char *locking = p->refname.ptr;
	int r = git_transaction_new(&tx, s->repo), committing = 0;

	if (!r)
		r = git_transaction_lock_ref(tx, locking);
	if (!r)
		r = git_transaction_lock_ref(tx, locking = AA_NOTES_REF);
	if (r == GIT_ELOCKED && !last)
		r = AA_REF_RETRY;
	else if (r < 0)
		r = lock_fail(s, locking, r, d);
	if (!r)
		r = branch_unmoved(s, p, d);
	if (!r)
		r = note_on_tip(s, p, d);
	if (!r && (git_transaction_set_target(tx, p->refname.ptr, &s->commit,
					      p->committer, p->log.ptr) < 0 ||
		   git_transaction_set_target(tx, AA_NOTES_REF, &p->note, p->committer,
					      "ai-apply: the answer of a suggestion") < 0))
		r = aa_git_fail(d, "cannot update the branch and " AA_NOTES_REF);
	if (!r && git_transaction_commit(tx) < 0)
		committing = 1;
	git_transaction_free(tx);
	if (committing)
		r = failed_commit(s, p, d);
	if (r != AA_REF_RETRY && leftover_lock(s, d) < 0)
		r = AA_FATAL;
	return r;
}

static int land_note_and_branch(aa_session *s, struct aa_pending *p,
				aa_diags *d)
{
	int attempt, r = AA_REF_RETRY;

	for (attempt = 1; r == AA_REF_RETRY; attempt++) {
		if (attempt > 1) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
		r = update_refs_with_note(s, p, attempt == AA_REF_ATTEMPTS, d);
	}
	return r;
}

/* No note: the branch alone, compare-and-swap. */
static int land_branch_only(aa_session *s, struct aa_pending *p, aa_diags *d)
{
	git_reference *ref = NULL;
	int r;

	if (p->exists)
		r = git_reference_create_matching(&ref, s->repo, p->refname.ptr,
						  &s->commit, 1, &p->old, p->log.ptr);
	else
		r = git_reference_create(&ref, s->repo, p->refname.ptr,
					 &s->commit, 0, p->log.ptr);
	git_reference_free(ref);
	/* created by another process since check_branch(): as if it had been there */
	if (r == GIT_EEXISTS && !p->exists)
		return aa_error(d, AA_NOPOS, NULL,
				"branch '%s' already exists (use --force to replace it)",
				s->opts->branch);
	if (r == GIT_ELOCKED)
		return lock_fail(s, p->refname.ptr, r, d);
	r = r < 0 ? aa_git_fail(d, "cannot update the branch") : 0;
	return leftover_lock(s, d) < 0 ? AA_FATAL : r;
}

/* Refuses an existing branch without --force, or the checked-out one. */
static int check_branch(aa_session *s, const char *refname, git_oid *old,
			int *exists, aa_diags *d)
{
	git_reference *ref = NULL, *head = NULL;
	int r = git_reference_lookup(&ref, s->repo, refname);

	*exists = 0;
	if (r == GIT_ENOTFOUND)
		return 0;
	if (r < 0)
		return aa_git_fail(d, "cannot read the branch");
	*exists = 1;
	if (git_reference_resolve(&head, ref) == 0)
		git_oid_cpy(old, git_reference_target(head));
	git_reference_free(head);
	git_reference_free(ref);
	if (!s->opts->force)
		return aa_error(d, AA_NOPOS, NULL,
				"branch '%s' already exists (use --force to replace it)",
				s->opts->branch);
	if (git_repository_head(&head, s->repo) == 0) {
		int current = !strcmp(git_reference_name(head), refname);

		git_reference_free(head);
		if (current)
			return aa_error(d, AA_NOPOS, NULL,
					"branch '%s' is checked out; refusing to move it",
					s->opts->branch);
	}
	return 0;
}

/* The tree and the commit on the base, in the mempack. */
static int build_commit(aa_session *s, const aa_plan *plan,
			struct aa_pending *p, aa_diags *d)
{
	git_signature *author = NULL;
	const git_oid *parents[1];
	aa_buf msg = AA_BUF_INIT;
	git_oid tree_id;
	int r = aa_fast_build_tree(s, plan, &tree_id, d);

	if (r == AA_FAST_NO) {
		r = build_tree(s, plan, &tree_id, d);
		if (!r)
			r = remember_trees(s, plan, &tree_id, d);
	}
	if (!r)
		r = base_signature(s, 0, &author, d);
	if (!r)
		r = base_signature(s, 1, &p->committer, d);
	if (!r && commit_message(plan, s->opts->message, s->opts->trailers,
				  &msg) < 0)
		r = aa_git_fail(d, "out of memory");
	parents[0] = s->base_commit ? git_commit_id(s->base_commit) : NULL;
	/* by ids: no parse of the new root tree */
	if (!r && git_commit_create_from_ids(&s->commit, s->repo, NULL, author,
					     p->committer, NULL, msg.ptr, &tree_id,
					     s->base_commit ? 1 : 0, parents) < 0)
		r = aa_git_fail(d, "cannot create the commit");
	if (!r && remember_object(s, &s->commit) < 0)
		r = aa_git_fail(d, "out of memory");
	/* the reflog names the tool once: "ai-apply: <subject>" */
	if (!r && aa_buf_printf(&p->log, "%s%.*s",
				strncmp(msg.ptr, "ai-apply: ", 10) ? "ai-apply: " : "",
				(int)strcspn(msg.ptr, "\n"), msg.ptr) < 0)
		r = aa_git_fail(d, "out of memory");
	git_signature_free(author);
	aa_buf_free(&msg);
	return r;
}

int aa_land_prepare(aa_session *s, const aa_plan *plan, aa_diags *d)
{
	struct aa_pending *p;
	int r;

	if (s->opts->mode != AA_LAND_BRANCH || s->pending)
		return aa_fatal(d, AA_NOPOS, NULL,
				"internal error: only a new --branch landing is prepared");
	if (aa_plan_conflicts(plan))
		return aa_error(d, AA_NOPOS, NULL,
				"a branch never commits a conflict"), AA_REJECTED;
	p = calloc(1, sizeof(*p));
	if (!p)
		return aa_git_fail(d, "out of memory");
	p->move = -1;
	s->pending = p;
	if (aa_buf_printf(&p->refname, "refs/heads/%s", s->opts->branch) < 0)
		return aa_git_fail(d, "out of memory");
	r = check_branch(s, p->refname.ptr, &p->old, &p->exists, d);
	if (!r)
		r = build_commit(s, plan, p, d);
	if (!r && s->opts->note)
		r = prepare_note(s, p, d);
	return r;
}

int aa_land_finish(aa_session *s, aa_diags *d)
{
	struct aa_pending *p = s->pending;
	int r;

	if (!p || s->npersisted != s->ncreated)
		return aa_fatal(d, AA_NOPOS, NULL,
				"internal error: a landing's objects are not on disk");
	aa_test_hook("branch");
	r = p->has_note ? land_note_and_branch(s, p, d)
			: land_branch_only(s, p, d);
	pending_free(p);
	s->pending = NULL;
	return r;
}

/*
 * --each: the refs of every prepared lander in one ref transaction
 * (Documentation/landing.md, "--each: one ref round"). The notes ref is
 * locked, then every branch, each checked under its lock; the notes of
 * the landers that passed are chained on the notes ref's tip (built
 * again where a lander before did not pass or the tip moved); then every
 * ref is renamed in one commit, the notes ref once, with one reflog
 * entry, to the note of the last lander. A lander whose branch fails its
 * check fails alone (its ref is unlocked unchanged). A kill between the
 * renames is settled per suggestion by the next run, from the journal's
 * moves, which hold the chain as committed.
 */
typedef struct batch {
	aa_session *const *v;
	aa_diags *const *d;
	int *r;                  /* each lander's result; BATCH_ALONE: retry */
	size_t n;
	git_transaction *tx;
} batch;

#define BATCH_ALONE 2        /* its branch was held: it lands on its own */

static int batch_has_notes(const batch *b)
{
	size_t k;

	for (k = 0; k < b->n; k++)
		if (!b->r[k] && b->v[k]->pending->has_note)
			return 1;
	return 0;
}

/* Every error of `from` into each lander still passing, which fails. */
static void batch_fail(batch *b, const aa_diags *from)
{
	size_t k, i;

	for (k = 0; k < b->n; k++) {
		if (b->r[k])
			continue;
		for (i = 0; i < from->n; i++)
			if (from->v[i].level == AA_DIAG_ERROR)
				aa_error(b->d[k], AA_NOPOS, from->v[i].path, "%s",
					 from->v[i].msg);
		b->r[k] = AA_FATAL;
	}
}

/* The notes ref, held by another run for a moment: tried again. */
static int batch_lock_notes(batch *b)
{
	int attempt, r = GIT_ELOCKED;

	for (attempt = 1; r == GIT_ELOCKED && attempt <= AA_REF_ATTEMPTS; attempt++) {
		if (attempt > 1) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
		r = git_transaction_lock_ref(b->tx, AA_NOTES_REF);
	}
	return r;
}

/*
 * The "branch" step before each lander, as when it lands alone (the
 * first one before any lock); then the notes ref, when a lander has a
 * note, then each branch, checked under its lock. 0, or AA_REF_RETRY
 * when the notes ref stays held: nothing said yet, every lander lands
 * on its own (and says why).
 */
static int batch_lock(batch *b)
{
	int notes = batch_has_notes(b), r;
	size_t k;

	for (k = 0; k < b->n; k++) {
		aa_session *s = b->v[k];
		struct aa_pending *p = s->pending;

		if (b->r[k])
			continue;
		aa_test_hook("branch");
		if (notes && batch_lock_notes(b) < 0)
			return AA_REF_RETRY;
		notes = 0;
		r = git_transaction_lock_ref(b->tx, p->refname.ptr);
		if (r == GIT_ELOCKED)
			b->r[k] = BATCH_ALONE;
		else if (r < 0)
			b->r[k] = lock_fail(s, p->refname.ptr, r, b->d[k]);
		else
			b->r[k] = branch_unmoved(s, p, b->d[k]);
	}
	return 0;
}

/* Lander s's note built again on *tip, its journal move with it. */
static int rebuild_note(aa_session *s, int had, const git_oid *tip,
			aa_diags *d)
{
	struct aa_pending *p = s->pending;

	p->note_had_parent = had;
	git_oid_cpy(&p->note_parent, tip);
	if (build_note(s, p->committer, had, tip, &p->note, d) < 0)
		return AA_FATAL;
	if (p->move >= 0 && s->base->refs) {
		aa_refmove *m = aa_refjournal_move(s->base->refs, (size_t)p->move);

		m->had_notes = had;
		git_oid_cpy(&m->notes_old, tip);
		git_oid_cpy(&m->notes_new, &p->note);
	}
	return 0;
}

/*
 * The notes of the landers that passed, chained on the notes ref's tip;
 * the objects of those built again written (one pack) with the journal
 * as it will be committed. The last note in *tip: 1, 0 when no lander
 * that passed has a note, AA_FATAL (every lander that passed fails).
 */
static int batch_chain_notes(batch *b, git_oid *tip, const git_signature **who)
{
	aa_session **rebuilt = calloc(b->n ? b->n : 1, sizeof(*rebuilt));
	aa_diags why = AA_DIAGS_INIT;
	size_t k, nrebuilt = 0;
	int had = ref_target(b->v[0]->repo, AA_NOTES_REF, tip), any = 0, r = 0;

	if (!rebuilt)
		r = aa_oom(&why, AA_NOPOS, NULL);
	else if (had < 0)
		r = aa_git_fail(&why, "cannot read " AA_NOTES_REF);
	for (k = 0; !r && k < b->n; k++) {
		aa_session *s = b->v[k];
		struct aa_pending *p = s->pending;

		if (b->r[k] || !p->has_note)
			continue;
		if (had != p->note_had_parent ||
		    (had && !git_oid_equal(tip, &p->note_parent))) {
			r = rebuild_note(s, had, tip, &why);
			rebuilt[nrebuilt++] = s;
		}
		git_oid_cpy(tip, &p->note);
		had = any = 1;
		*who = p->committer;
	}
	if (!r && nrebuilt)
		r = aa_land_persist(rebuilt, nrebuilt, &why);
	if (r < 0)
		batch_fail(b, &why);
	free(rebuilt);
	aa_diags_free(&why);
	return r < 0 ? AA_FATAL : any;
}

/* The targets of every lander that passed, and the notes ref's. */
static int batch_set_targets(batch *b, int notes, const git_oid *tip,
			     const git_signature *who, size_t passed)
{
	aa_buf log = AA_BUF_INIT;
	size_t k;
	int r = 0;

	for (k = 0; !r && k < b->n; k++) {
		aa_session *s = b->v[k];
		struct aa_pending *p = s->pending;

		if (!b->r[k])
			r = git_transaction_set_target(b->tx, p->refname.ptr,
						       &s->commit, p->committer,
						       p->log.ptr);
	}
	if (!r && notes) {
		if (passed == 1)
			aa_buf_puts(&log, "ai-apply: the answer of a suggestion");
		else
			aa_buf_printf(&log, "ai-apply: the answers of %zu suggestions",
				      passed);
		r = aa_buf_oom(&log) ? -1 :
		    git_transaction_set_target(b->tx, AA_NOTES_REF, tip, who,
					       log.ptr);
	}
	aa_buf_free(&log);
	return r;
}

static size_t batch_passed(const batch *b)
{
	size_t k, n = 0;

	for (k = 0; k < b->n; k++)
		n += b->r[k] == 0;
	return n;
}

/*
 * A commit that failed while writing: once the transaction has released
 * its locks, every lander that passed is settled on its own (completed,
 * else rolled back), in order, as the next run would from the journal.
 */
static void batch_settle(batch *b, const char *why)
{
	size_t k;

	for (k = 0; k < b->n; k++) {
		if (b->r[k])
			continue;
		/* failed_commit says the commit's error */
		git_error_set_str(GIT_ERROR_REFERENCE, why ? why : "unknown error");
		b->r[k] = failed_commit(b->v[k], b->v[k]->pending, b->d[k]);
	}
}

/* One round for every lander; 0, or AA_REF_RETRY: each lands alone. */
static int batch_round(batch *b)
{
	const git_signature *who = NULL;
	aa_diags why = AA_DIAGS_INIT;
	char *failed = NULL;
	git_oid tip;
	int r = git_transaction_new(&b->tx, b->v[0]->repo), notes = 0;

	if (r < 0)
		return AA_REF_RETRY;
	r = batch_lock(b);
	if (!r && batch_passed(b))
		notes = batch_chain_notes(b, &tip, &who);
	if (!r && batch_passed(b) &&
	    batch_set_targets(b, notes > 0, &tip, who, batch_passed(b)) < 0) {
		aa_git_fail(&why, "cannot update the branch and " AA_NOTES_REF);
		batch_fail(b, &why);
	}
	if (!r && batch_passed(b) && git_transaction_commit(b->tx) < 0 &&
	    !(failed = aa_strdup(aa_git_error(strerror(errno)))))
		failed = aa_strdup("out of memory");
	git_transaction_free(b->tx);
	b->tx = NULL;
	if (failed)
		batch_settle(b, failed);
	free(failed);
	aa_diags_free(&why);
	return r;
}

void aa_land_finish_each(aa_session *const *v, aa_diags *const *d, int *r,
			 size_t n)
{
	batch b = { v, d, r, n, NULL };
	size_t k;
	int alone = n < 2;

	for (k = 0; k < n; k++)
		r[k] = !v[k]->pending || v[k]->npersisted != v[k]->ncreated ?
		       aa_fatal(d[k], AA_NOPOS, NULL,
				"internal error: a landing's objects are not on disk") : 0;
	if (!alone)
		alone = batch_round(&b) == AA_REF_RETRY;
	for (k = 0; k < n; k++) {
		if (!v[k]->pending)
			continue;
		if (r[k] == BATCH_ALONE || (alone && !r[k])) {
			r[k] = aa_land_finish(v[k], d[k]);
			continue;
		}
		if (!r[k] && leftover_lock(v[k], d[k]) < 0)
			r[k] = AA_FATAL;
		pending_free(v[k]->pending);
		v[k]->pending = NULL;
	}
}

static int land_branch(aa_session *s, const aa_plan *plan, aa_diags *d)
{
	int r = aa_land_prepare(s, plan, d), done;

	/* Objects first (kept, journaled): a ref never names a missing object. */
	if (!r)
		r = aa_land_persist(&s, 1, d);
	if (!r)
		r = aa_land_finish(s, d);
	done = aa_land_done(s->base, d);
	return r ? r : done;
}

/* ---- default and --cached: the index ---- */

/*
 * --3way: the blobs of a conflict's stages 1, 2 and 3. Their texts are
 * in work-tree form (a filtered path was read smudged), so each is
 * cleaned as git add would clean it.
 */
static int stage_blobs(aa_session *s, const aa_change *c, git_oid ids[3],
		       aa_diags *d)
{
	int k;

	for (k = 0; k < 3; k++)
		if ((k || c->stage[k]) &&
		    aa_worktree_bytes_blob(s, c->path, c->mode == AA_MODE_LINK,
					   c->stage[k], c->stage_len[k],
					   &ids[k], d) < 0)
			return -1;
	return 0;
}

/*
 * --3way: the path's stage 0 entry replaced by stages 1 (the version the
 * answer was written against), 2 (ours) and 3 (theirs), as git apply
 * --3way leaves it.
 */
static int add_conflict(aa_session *s, const aa_change *c,
			const git_oid ids[3], aa_diags *d)
{
	git_index_entry e[3];
	int k;

	memset(e, 0, sizeof(e));
	for (k = 0; k < 3; k++) {
		e[k].path = c->path;
		e[k].mode = k < 2 ? c->stage_mode : c->mode;
		git_oid_cpy(&e[k].id, &ids[k]);
	}
	/* add/add: no stage 1 */
	if (git_index_conflict_add(s->index, c->stage[0] ? &e[0] : NULL,
				   &e[1], &e[2]) < 0)
		return aa_git_fail(d, "cannot write the conflict into the index");
	return 0;
}

static int update_index(aa_session *s, const aa_plan *plan,
			const git_oid *ids, const git_oid (*stages)[3],
			aa_wt_backup *backup, aa_diags *d)
{
	size_t i;

	for (i = 0; i < plan->nchanges; i++) {
		const aa_change *c = &plan->changes[i];

		if (!c->exists && git_index_remove(s->index, c->path, 0) < 0 &&
		    git_index_get_bypath(s->index, c->path, 0))
			return aa_git_fail(d, "cannot update the index");
	}
	for (i = 0; i < plan->nchanges; i++) {
		const aa_change *c = &plan->changes[i];
		git_index_entry e;

		if (!c->exists)
			continue;
		if (c->conflict) {
			if (add_conflict(s, c, stages[i], d) < 0)
				return -1;
			continue;
		}
		memset(&e, 0, sizeof(e));
		e.path = c->path;
		e.mode = c->mode;
		git_oid_cpy(&e.id, &ids[i]);
		/* outside the sparse checkout it stays so (land/sparse.h) */
		if (s->sparse && s->sparse[i])
			e.flags_extended = GIT_INDEX_ENTRY_SKIP_WORKTREE;
		else if (backup)
			aa_worktree_stat(backup, i, &e);
		if (git_index_add(s->index, &e) < 0)
			return aa_git_fail(d, "cannot update the index");
	}
	return 0;
}

/* What the journal records of each path: old and new blob and mode. */
static int journal_paths(aa_session *s, const aa_plan *plan, const git_oid *ids,
			 const git_oid (*stages)[3], aa_diags *d)
{
	aa_jentry *v = calloc(plan->nchanges ? plan->nchanges : 1, sizeof(*v));
	size_t i, n = 0;
	int r;

	if (!v)
		return aa_git_fail(d, "out of memory");
	for (i = 0; i < plan->nchanges; i++) {
		const aa_change *c = &plan->changes[i];

		/*
		 * a submodule's work tree is a directory we never write, a
		 * skip-worktree entry's is not ours either (land/sparse.h)
		 */
		if (c->mode == AA_MODE_GITLINK || c->base_mode == AA_MODE_GITLINK ||
		    (s->sparse && s->sparse[i]))
			continue;
		v[n].path = c->path;
		if (c->base_exists) {
			git_oid id;

			v[n].old_mode = c->base_mode;
			aa_oid_to_git(&id, &c->base_oid);
			aa_filter_real(s, &id, &v[n].old_id); /* land/filters.h */
		}
		if (c->exists) {
			v[n].new_mode = c->mode;
			git_oid_cpy(&v[n].new_id, &ids[i]);
		}
		if (c->conflict) {
			/* the index then holds stages 1-3: stage 3 tells it */
			v[n].conflict = 1;
			git_oid_cpy(&v[n].theirs_id, &stages[i][2]);
		}
		n++;
	}
	r = aa_guard_journal(s->base->guard, v, n, d);
	free(v);
	return r;
}

/*
 * A landing with this many new objects or more writes them as one pack,
 * kept until the index names them, not as fsynced loose files (two
 * fsyncs and a file each: 100,000 new files took 200,000 fsyncs).
 */
#define AA_PACK_FROM 1000

typedef struct index_keep {
	aa_session *s;
	const aa_plan *plan;
	const git_oid *ids;
	const git_oid (*stages)[3];
	int with_worktree;
} index_keep;

/*
 * The pack's keep goes in the journal before it exists: the landing
 * journal itself (default mode), or the planning one made durable
 * (--cached).
 */
static int record_index_keep(void *ctx, const char *path, aa_diags *d)
{
	index_keep *k = ctx;
	aa_guard *g = k->s->base->guard;

	if (aa_guard_add_keep(g, path) < 0)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	return k->with_worktree ? journal_paths(k->s, k->plan, k->ids, k->stages, d)
				: aa_guard_journal(g, NULL, 0, d);
}

/*
 * The landing's new objects: loose (persist_objects) below
 * AA_PACK_FROM, else one kept pack whose keep the journal names (the
 * journal is then written: *journaled).
 */
static int persist_landing(index_keep *k, int *journaled, aa_diags *d)
{
	aa_session *s = k->s;
	aa_pack_object *objs;
	aa_pack_keep keep;
	size_t i, n = s->ncreated - s->npersisted;
	int r;

	*journaled = 0;
	if (n < AA_PACK_FROM)
		return persist_objects(s, d);
	objs = calloc(n, sizeof(*objs));
	if (!objs)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	for (i = 0; i < n; i++)
		git_oid_cpy(&objs[i].id, &s->created[s->npersisted + i]);
	keep.tmp_dir = aa_guard_dir(s->base->guard);
	keep.record = record_index_keep;
	keep.ctx = k;
	r = write_kept_pack(s, objs, n, &keep, d);
	if (!r) {
		s->npersisted = s->ncreated;
		*journaled = 1;
	}
	free(objs);
	return r;
}

/*
 * A blob the work tree gets must be here: a partial clone's that the
 * plan only moved (a rename never reads it) is fetched now.
 */
static int present_for_worktree(aa_session *s, const aa_plan *plan, size_t i,
				const git_oid *id, aa_diags *d)
{
	const aa_change *c = &plan->changes[i];
	aa_buf why = AA_BUF_INIT;
	int r = 0;

	if (c->mode == AA_MODE_GITLINK || (s->sparse && s->sparse[i]) ||
	    !c->has_oid)
		return 0;
	if (aa_promisor_ensure(s, id, c->path, &why) < 0)
		r = aa_fatal(d, AA_NOPOS, c->path, "%s", why.ptr ? why.ptr : "the blob is missing");
	aa_buf_free(&why);
	return r;
}

/* The notes of a landing that left skip-worktree paths outside the cone. */
static void note_index_only(aa_session *s, const aa_plan *plan, aa_diags *d)
{
	size_t i;

	for (i = 0; s->sparse && i < plan->nchanges; i++)
		if (s->sparse[i] && plan->changes[i].exists)
			aa_note(d, AA_NOPOS, plan->changes[i].path,
				"outside the sparse checkout (skip-worktree): changed in the index only, "
				"no file written to the work tree ('git sparse-checkout add' brings it in)");
		else if (s->sparse[i])
			aa_note(d, AA_NOPOS, plan->changes[i].path,
				"outside the sparse checkout (skip-worktree): removed from the index only, "
				"the work tree is not touched");
}

static int attrs_for_path(void *ctx, const char *path)
{
	return aa_index_attrs_for(ctx, path);
}

/*
 * The paths the landing changes in the index, their entries loaded from
 * the reader into the landing's in-memory index (s->index): the plan's
 * paths and, for a path it adds, what that path collides with. The
 * .gitattributes among them go into the attribute index now, as they
 * are before the landing (aa_index_attrs_for no longer loads a touched
 * path: attributes_after_update keeps them).
 */
static int load_touched(aa_session *s, const aa_plan *plan, aa_ixstream *st,
			aa_diags *d)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	st->old = s->ixr;
	st->now = s->index;
	st->repo = s->repo;
	st->worktree = s->opts->mode == AA_LAND_INDEX;
	st->attrs_for = attrs_for_path;
	st->attrs_ctx = s;
	for (i = 0; i < plan->nchanges; i++)
		if (aa_index_attrs_for(s, plan->changes[i].path) < 0 ||
		    aa_ixstream_touch(st, plan->changes[i].path,
				      plan->changes[i].exists) < 0)
			return aa_git_fail(d, "out of memory");
	if (aa_ixstream_load(st) < 0)
		return aa_git_fail(d, "cannot read the index");
	s->base->touched = st->paths;
	s->base->ntouched = st->npaths;
	return 0;
}

/*
 * After update_index: the attribute index gets the touched
 * .gitattributes as the landing left them, as libgit2's whole index had
 * them (the racily clean check and the review record look after it).
 */
static int attributes_after_update(aa_session *s, const aa_ixstream *st)
{
	git_index *ai = s->base->attr_index;
	size_t i;

	for (i = 0; ai && i < st->npaths; i++) {
		const char *slash = strrchr(st->paths[i], '/');
		const git_index_entry *e;

		if (strcmp(slash ? slash + 1 : st->paths[i], ".gitattributes"))
			continue;
		if (git_index_remove(ai, st->paths[i], 0) < 0)
			git_error_clear();
		if ((e = git_index_get_bypath(s->index, st->paths[i], 0)) &&
		    git_index_add(ai, e) < 0)
			return -1;
	}
	return 0;
}

static int stream_writer(void *ctx, int fd, char *why, size_t whylen)
{
	return aa_ixstream_write(ctx, fd, why, whylen);
}

/*
 * The new index into the lock and onto the index: streamed from the old
 * file with the touched paths' entries replaced by the landing's
 * (land/index_write.h).
 */
static int write_index(aa_session *s, aa_ixstream *st, aa_diags *d)
{
	if (aa_ixstream_check(st) < 0)
		return aa_fatal(d, AA_NOPOS, NULL,
				"internal error: the landing changed an index entry it did not name");
	if (attributes_after_update(s, st) < 0)
		return aa_git_fail(d, "cannot update the index");
	return aa_guard_commit_with(s->base->guard, stream_writer, st, d);
}

/*
 * Under the lock taken at open: objects to disk (every check that can
 * reject is behind us), the journal, the work tree, the new index into
 * the lock, the rename (the commit point). On failure the work tree is
 * put back; when that fails too the journal stays for --recover.
 */
static int land_index(aa_session *s, const aa_plan *plan, aa_diags *d)
{
	git_oid *ids = calloc(plan->nchanges ? plan->nchanges : 1, sizeof(*ids));
	git_oid (*stages)[3] = calloc(plan->nchanges ? plan->nchanges : 1,
				      sizeof(*stages));
	aa_wt_backup *backup = NULL;
	int with_worktree = s->opts->mode == AA_LAND_INDEX, journaled = 0;
	aa_ixstream st;
	index_keep k;
	size_t i;
	int r = 0;

	if (!ids || !stages || aa_sparse_record(s, plan) < 0) {
		free(ids);
		free(stages);
		return aa_git_fail(d, "out of memory");
	}
	r = load_touched(s, plan, &st, d);
	/* first: a clean filter (git-lfs) runs only for a landing that will happen */
	if (!r && with_worktree)
		r = aa_worktree_check_clean(s, plan, d);
	for (i = 0; !r && i < plan->nchanges; i++) {
		if (plan->changes[i].exists)
			r = aa_change_blob(s, &plan->changes[i], &ids[i], d);
		if (!r && plan->changes[i].exists && with_worktree)
			r = present_for_worktree(s, plan, i, &ids[i], d);
		if (!r && plan->changes[i].conflict)
			r = stage_blobs(s, &plan->changes[i], stages[i], d);
	}
	k.s = s;
	k.plan = plan;
	k.ids = ids;
	k.stages = (const git_oid (*)[3])stages;
	k.with_worktree = with_worktree;
	if (!r)
		r = persist_landing(&k, &journaled, d);
	if (!r && with_worktree && !journaled)
		r = journal_paths(s, plan, ids, (const git_oid (*)[3])stages, d);
	if (!r && with_worktree)
		r = aa_worktree_write(s, plan, ids, &backup, d);
	if (!r)
		r = update_index(s, plan, ids, (const git_oid (*)[3])stages, backup, d);
	if (!r)
		r = write_index(s, &st, d);
	if (!r && with_worktree)
		note_index_only(s, plan, d);
	if (r && backup && aa_worktree_restore(s, backup, d) < 0)
		aa_guard_keep_journal(s->base->guard);
	aa_worktree_backup_free(backup);
	s->base->touched = NULL;
	s->base->ntouched = 0;
	aa_ixstream_free(&st);
	free(ids);
	free(stages);
	return r;
}

/*
 * The kept attribute answers hold until the landing writes a
 * .gitattributes: from then on each is asked again (land/attrs.h).
 */
static void attrs_before_writing(aa_session *s, const aa_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nchanges; i++)
		if (aa_attrs_is_file(plan->changes[i].path))
			aa_attrs_direct(s);
}

int aa_land(aa_session *s, const aa_plan *plan, aa_diags *d)
{
	int r;

	if (!plan->nchanges || s->opts->mode == AA_LAND_CHECK)
		return 0;
	attrs_before_writing(s, plan);
	if (s->opts->mode == AA_LAND_BRANCH)
		return land_branch(s, plan, d);
	r = land_index(s, plan, d);
	if (!r)
		aa_rerere_after_landing(s, plan, d); /* --3way's conflicts, as git apply */
	return r;
}
