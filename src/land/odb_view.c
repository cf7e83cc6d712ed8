/*
 * The base's object database (src/land/odb_view.h): the repository's, read
 * through a backend that never rescans the pack directory, behind the
 * in-memory store every new object goes to.
 */
#include <stdlib.h>
#include <string.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/mempack.h>
#include <git2/sys/repository.h>

#include "land/odb_view.h"

typedef struct disk_view {
	git_odb_backend parent;
	git_odb *disk;
} disk_view;

static git_odb *disk_of(git_odb_backend *b)
{
	return ((disk_view *)b)->disk;
}

/* A copy of an object in memory the odb owns (the backend contract). */
static int copy_out(git_odb_backend *b, git_odb_object *o, void **buf,
		    size_t *len, git_object_t *type)
{
	size_t n = git_odb_object_size(o);

	*buf = git_odb_backend_data_alloc(b, n + 1);
	if (!*buf)
		return -1;
	memcpy(*buf, git_odb_object_data(o), n);
	((char *)*buf)[n] = '\0';
	*len = n;
	*type = git_odb_object_type(o);
	return 0;
}

/*
 * One read through the disk odb's own backends, in its order: the
 * backend allocates the object with git_odb_backend_data_alloc(), the
 * allocator every odb frees with, so its buffer is handed on as ours.
 * Going through git_odb_read() made a git_odb_object that copy_out()
 * copied: a second copy of every blob read, the size of the largest
 * file at the peak of a run (the memory regression of 088f982).
 */
static int read_backends(void **buf, size_t *len, git_object_t *type,
			 git_odb *disk, const git_oid *id)
{
	size_t i, n = git_odb_num_backends(disk);
	int r = GIT_ENOTFOUND;

	for (i = 0; i < n && r == GIT_ENOTFOUND; i++) {
		git_odb_backend *b;

		if (git_odb_get_backend(&b, disk, i) < 0 || !b->read)
			continue;
		r = b->read(buf, len, type, b, id);
		if (r == GIT_PASSTHROUGH)
			r = GIT_ENOTFOUND;
	}
	return r;
}

static int view_read(void **buf, size_t *len, git_object_t *type,
		     git_odb_backend *b, const git_oid *id)
{
	git_odb *disk = disk_of(b);
	int r = read_backends(buf, len, type, disk, id);

	/* as git_odb_read(): a miss rescans the packs once */
	if (r == GIT_ENOTFOUND && git_odb_refresh(disk) == 0)
		r = read_backends(buf, len, type, disk, id);
	return r;
}

static int view_read_prefix(git_oid *out, void **buf, size_t *len,
			    git_object_t *type, git_odb_backend *b,
			    const git_oid *short_id, size_t n)
{
	git_odb_object *o;
	int r = git_odb_read_prefix(&o, disk_of(b), short_id, n);

	if (r < 0)
		return r;
	git_oid_cpy(out, git_odb_object_id(o));
	r = copy_out(b, o, buf, len, type);
	git_odb_object_free(o);
	return r;
}

static int view_read_header(size_t *len, git_object_t *type,
			    git_odb_backend *b, const git_oid *id)
{
	return git_odb_read_header(len, type, disk_of(b), id);
}

/*
 * Existence without a rescan of the pack directory (a miss would
 * rescan it); the writes ask view_freshen instead.
 */
static int view_exists(git_odb_backend *b, const git_oid *id)
{
	return git_odb_exists_ext(disk_of(b), id, GIT_ODB_LOOKUP_NO_REFRESH);
}

/*
 * libgit2 asks before every write whether the object is there already
 * (git_odb_write skips the write then): the view answers no without
 * looking, so every new object goes to the in-memory store. Looking
 * cost an access() of the loose path and a search of every pack index
 * an object (12 a suggestion for --each), and an object we make is
 * nearly always new; one the disk has is written again (a pack of ours
 * or a loose file that persist_objects skips), never lost, and
 * never needs freshening: what we write names it.
 */
static int view_freshen(git_odb_backend *b, const git_oid *id)
{
	(void)b;
	(void)id;
	return GIT_ENOTFOUND;
}

static int view_exists_prefix(git_oid *out, git_odb_backend *b,
			      const git_oid *short_id, size_t n)
{
	return git_odb_exists_prefix(out, disk_of(b), short_id, n);
}

static void view_free(git_odb_backend *b)
{
	git_odb_free(disk_of(b));
	free(b);
}

static int new_disk_view(git_odb_backend **out, git_odb *disk)
{
	disk_view *v = calloc(1, sizeof(*v));

	if (!v)
		return -1;
	git_odb_init_backend(&v->parent, GIT_ODB_BACKEND_VERSION);
	v->parent.read = view_read;
	v->parent.read_prefix = view_read_prefix;
	v->parent.read_header = view_read_header;
	v->parent.exists = view_exists;
	v->parent.freshen = view_freshen;
	v->parent.exists_prefix = view_exists_prefix;
	v->parent.free = view_free;
	v->disk = disk;
	*out = &v->parent;
	return 0;
}

int aa_odb_view_open(git_odb **out, git_odb_backend **mempack,
		     git_repository *repo)
{
	git_odb *disk = NULL, *view = NULL;
	git_odb_backend *dv = NULL;

	*out = NULL;
	*mempack = NULL;
	if (git_repository_odb(&disk, repo) < 0)
		return -1;
	if (git_odb_new(&view) < 0 || new_disk_view(&dv, disk) < 0) {
		git_odb_free(view);
		git_odb_free(disk);
		return -1;
	}
	if (git_odb_add_backend(view, dv, 1) < 0) {
		view_free(dv);
		git_odb_free(view);
		return -1;
	}
	/* every write lands in memory first */
	if (git_mempack_new(mempack) < 0 ||
	    git_odb_add_backend(view, *mempack, 1000) < 0 ||
	    git_repository_set_odb(repo, view) < 0) {
		if (*mempack && !(*mempack)->odb)
			(*mempack)->free(*mempack);
		*mempack = NULL;
		git_odb_free(view);
		return -1;
	}
	*out = view;
	return 0;
}
