/*
 * --branch: the new tree without a tree builder (land_tree.h).
 *
 * git_tree_create_updated copies every entry of each tree it changes
 * into a tree builder (a root of 1,000 entries: 1,000 allocations), a
 * large share of a suggestion. The usual change -- blobs replaced or
 * added under directories that exist -- is written here instead: each
 * changed tree serialized from its base's entries with the new ones.
 * Anything else (removals, a directory replacing a file or the other
 * way, no base) takes libgit2's way.
 */
#include <stdlib.h>
#include <string.h>
#include <git2.h>

#include "land/land_tree.h"
#include "land/objects.h"
#include "util/util.h"

static int tree_fail(aa_diags *d)
{
	return aa_git_fail(d, "cannot build the new tree");
}

/* One entry of a tree being written; the name is borrowed. */
typedef struct raw_ent {
	const char *name;
	size_t name_len;
	unsigned mode;
	git_oid id;
} raw_ent;

/* One blob to put, its path relative to the tree at hand. */
typedef struct fast_upd {
	const char *path;
	unsigned mode;
	git_oid id;
} fast_upd;

/* git's order of tree entries: a directory's name sorts as "name/". */
static int raw_order(const void *pa, const void *pb)
{
	const raw_ent *a = pa, *b = pb;
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(a->name, b->name, n);
	unsigned ca, cb;

	if (c)
		return c;
	ca = n < a->name_len ? (unsigned char)a->name[n] :
	     a->mode == GIT_FILEMODE_TREE ? '/' : 0;
	cb = n < b->name_len ? (unsigned char)b->name[n] :
	     b->mode == GIT_FILEMODE_TREE ? '/' : 0;
	return ca < cb ? -1 : ca > cb;
}

static int cmp_upd(const void *a, const void *b)
{
	return strcmp(((const fast_upd *)a)->path, ((const fast_upd *)b)->path);
}

/* "<mode> " as git writes it (octal, no leading zero); NULL: unknown. */
static const char *mode_text(unsigned mode)
{
	switch (mode) {
	case GIT_FILEMODE_TREE: return "40000 ";
	case GIT_FILEMODE_BLOB: return "100644 ";
	case GIT_FILEMODE_BLOB_EXECUTABLE: return "100755 ";
	case GIT_FILEMODE_LINK: return "120000 ";
	case GIT_FILEMODE_COMMIT: return "160000 ";
	default: return NULL;
	}
}

/*
 * "<mode> <name>\0<id>" for each entry, hashed and written. Sized first
 * and copied in one buffer: a root tree of 1,000 entries put piece by
 * piece was 7% of a 100-suggestion --each.
 */
static int write_raw_tree(aa_session *s, const raw_ent *v, size_t n,
			  git_oid *out)
{
	size_t i, size = 0;
	char *buf, *at;
	int r = 0;

	for (i = 0; i < n; i++) {
		if (!mode_text(v[i].mode))
			return AA_FAST_NO;
		size += strlen(mode_text(v[i].mode)) + v[i].name_len + 1 + GIT_OID_RAWSZ;
	}
	if (!(buf = malloc(size ? size : 1)))
		return -1;
	for (i = 0, at = buf; i < n; i++) {
		const char *mode = mode_text(v[i].mode);
		size_t len = strlen(mode);

		memcpy(at, mode, len);
		at += len;
		memcpy(at, v[i].name, v[i].name_len);
		at += v[i].name_len;
		*at++ = '\0';
		memcpy(at, v[i].id.id, GIT_OID_RAWSZ);
		at += GIT_OID_RAWSZ;
	}
	if (git_odb_write(out, s->base->odb, buf, size, GIT_OBJECT_TREE) < 0)
		r = -1;
	free(buf);
	return r;
}

/* The entry named name[0..len) of the entries v[0..n) (tree order). */
static raw_ent *find_raw(raw_ent *v, size_t n, const char *name, size_t len,
			 unsigned mode)
{
	raw_ent key;

	key.name = name;
	key.name_len = len;
	key.mode = mode;
	return bsearch(&key, v, n, sizeof(*v), raw_order);
}

static int fast_tree(aa_session *s, git_tree *base, fast_upd *u, size_t n,
		     int root, git_oid *out);

/*
 * The directory name[0..len) with the updates u[0..n) below it (paths
 * start "name/"): its new id in *id. AA_FAST_NO when a blob stands there.
 */
static int fast_subtree(aa_session *s, git_tree *base, const char *name,
			size_t len, fast_upd *u, size_t n, git_oid *id,
			int *existed)
{
	char *dir = aa_strndup(name, len);
	const git_tree_entry *e = dir && base ? git_tree_entry_byname(base, dir) : NULL;
	git_tree *sub = NULL;
	size_t k;
	int r = dir ? 0 : -1;

	*existed = e != NULL;
	if (!r && e && git_tree_entry_type(e) != GIT_OBJECT_TREE)
		r = AA_FAST_NO;
	if (!r && e && git_tree_lookup(&sub, s->repo, git_tree_entry_id(e)) < 0)
		r = -1;
	if (!r) {
		for (k = 0; k < n; k++)
			u[k].path += len + 1;
		r = fast_tree(s, sub, u, n, 0, id);
		for (k = 0; k < n; k++)
			u[k].path -= len + 1;
	}
	git_tree_free(sub);
	free(dir);
	return r;
}

/* base's entries into v; *n their number. */
static raw_ent *base_entries(git_tree *base, size_t extra, size_t *n)
{
	size_t i, count = base ? git_tree_entrycount(base) : 0;
	raw_ent *v = malloc((count + extra + 1) * sizeof(*v));

	for (i = 0; v && i < count; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(base, i);

		v[i].name = git_tree_entry_name(e);
		v[i].name_len = strlen(v[i].name);
		v[i].mode = git_tree_entry_filemode(e);
		git_oid_cpy(&v[i].id, git_tree_entry_id(e));
	}
	*n = count;
	return v;
}

/*
 * base (NULL: none) with the blobs u[0..n) (sorted, distinct, relative
 * to it) put: 0 and *out (remembered, the root with its base for a
 * delta), AA_FAST_NO, or -1.
 */
static int fast_tree(aa_session *s, git_tree *base, fast_upd *u, size_t n,
		     int root, git_oid *out)
{
	size_t count, nv, i = 0;
	raw_ent *v = base_entries(base, n, &count), *hit;
	int r = v ? 0 : -1, added = 0;

	nv = count;
	while (!r && i < n) {
		const char *slash = strchr(u[i].path, '/');
		size_t len = slash ? (size_t)(slash - u[i].path) : strlen(u[i].path);
		size_t j = i + 1;
		unsigned mode = slash ? GIT_FILEMODE_TREE : u[i].mode;
		git_oid id;
		int existed = 0;

		if (slash) {
			while (j < n && !strncmp(u[j].path, u[i].path, len + 1))
				j++;
			r = fast_subtree(s, base, u[i].path, len, &u[i], j - i, &id,
					 &existed);
		} else {
			/* a directory of that name: not a blob's place */
			hit = find_raw(v, count, u[i].path, len, GIT_FILEMODE_TREE);
			r = hit ? AA_FAST_NO : 0;
			git_oid_cpy(&id, &u[i].id);
		}
		hit = r ? NULL : find_raw(v, count, u[i].path, len, mode);
		if (!r && !hit && slash && existed)
			r = AA_FAST_NO;
		if (!r && hit) {
			hit->mode = mode;
			git_oid_cpy(&hit->id, &id);
		} else if (!r) {
			v[nv].name = u[i].path;
			v[nv].name_len = len;
			v[nv].mode = mode;
			git_oid_cpy(&v[nv++].id, &id);
			added = 1;
		}
		i = j;
	}
	if (!r && added)
		qsort(v, nv, sizeof(*v), raw_order);
	if (!r)
		r = write_raw_tree(s, v, nv, out);
	if (!r && aa_remember_version(s, out, root && base ? git_tree_id(base) : NULL) < 0)
		r = -1;
	free(v);
	return r;
}

/*
 * The plan's tree the fast way: 0 and *out, AA_FAST_NO (nothing written
 * that matters: objects made stay unnamed in memory), or -1.
 */
int aa_fast_build_tree(aa_session *s, const aa_plan *plan, git_oid *out,
		       aa_diags *d)
{
	size_t i, before = s->ncreated;
	fast_upd *u;
	int r = 0;

	if (!s->base_tree)
		return AA_FAST_NO;
	for (i = 0; i < plan->nchanges; i++)
		if (!plan->changes[i].exists)
			return AA_FAST_NO;
	u = calloc(plan->nchanges ? plan->nchanges : 1, sizeof(*u));
	if (!u)
		return aa_fatal_oom(d, AA_NOPOS, NULL);
	for (i = 0; !r && i < plan->nchanges; i++) {
		u[i].path = plan->changes[i].path;
		u[i].mode = (unsigned)plan->changes[i].mode;
		r = aa_change_blob(s, &plan->changes[i], &u[i].id, d);
	}
	if (!r) {
		qsort(u, plan->nchanges, sizeof(*u), cmp_upd);
		r = fast_tree(s, s->base_tree, u, plan->nchanges, 1, out);
		if (r < 0)
			r = tree_fail(d);
	}
	/* libgit2's way instead: what was made here is not to be written */
	if (r == AA_FAST_NO)
		s->ncreated = before;
	free(u);
	return r;
}

int aa_fast_put_blob(aa_session *s, git_tree *base, const char *path,
		     const git_oid *blob, git_oid *out)
{
	size_t before = s->ncreated;
	fast_upd u;
	int r;

	u.path = path;
	u.mode = GIT_FILEMODE_BLOB;
	git_oid_cpy(&u.id, blob);
	r = fast_tree(s, base, &u, 1, 1, out);
	if (r == AA_FAST_NO)
		s->ncreated = before;
	return r < 0 ? -1 : r;
}
