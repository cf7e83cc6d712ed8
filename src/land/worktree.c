/*
 * The work tree, for the default mode: refuse touched paths with
 * unstaged changes, then write only the touched paths, never through a
 * symbolic link (every directory is opened with O_NOFOLLOW), keeping what
 * was there so a failure can put it back.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "land/worktree.h"
#include "land/attrs.h"
#include "land/sparse.h"
#include "land/filters.h"
#include "land/index_read.h"
#include "util/testhook.h"
#include "util/util.h"

typedef struct wt_entry {
	const char *path;
	int had;          /* 0 nothing, 1 regular file, 2 symbolic link */
	mode_t mode;
	char *data;
	size_t len;
	int changed;      /* we removed or wrote it */
	int restore_errno; /* why putting it back failed, 0 if it did not */
	int has_stat;
	struct stat st;
	int gitlink;      /* a submodule entry on either side (see gitlink_*) */
} wt_entry;

/*
 * The directories of the work tree opened so far, by path relative to
 * the root: each was reached from the root one component at a time with
 * O_NOFOLLOW | O_DIRECTORY, from its parent's descriptor, so it is a
 * real directory inside the work tree that no link led to. Every file
 * is then read, written and removed relative to its directory's
 * descriptor (openat, renameat, unlinkat): a directory is opened once
 * per run however many files it holds, and a link swapped in for it
 * afterwards is never followed: the descriptor still names the
 * directory that was checked.
 */
typedef struct dir_slot {
	char *path;       /* NULL: empty */
	size_t len;
	int fd;
	int attrs;        /* a .gitattributes here or above: 1, none: 0, -1 not asked */
} dir_slot;

/* Open directories kept at most (beyond them the cache starts over). */
#define DIR_FDS_MAX 256

struct aa_wt_backup {
	int root;         /* the work tree directory */
	wt_entry *v;
	size_t n;
	char **made_dirs; /* directories we created, for restore */
	size_t nmade;
	dir_slot *dirs;   /* open addressing, ndirs_cap a power of two */
	size_t ndirs, ndirs_cap;
	int root_attrs;   /* the root's dir_slot.attrs */
	int filters;      /* 1: a filter may apply anywhere (see filters_possible) */
};

static int wt_fail(aa_diags *d, const char *path, const char *what)
{
	return aa_error(d, AA_NOPOS, path, "%s: %s", what,
			strerror(errno));
}

static void remember_made_dir(aa_wt_backup *b, const char *path, size_t len)
{
	char **v = realloc(b->made_dirs, (b->nmade + 1) * sizeof(*v));

	if (!v)
		return;
	b->made_dirs = v;
	v[b->nmade] = aa_strndup(path, len);
	if (v[b->nmade])
		b->nmade++;
}

/* A submodule entry on either side of the change. */
static int is_gitlink_change(const aa_change *c)
{
	return (c->base_exists && c->base_mode == AA_MODE_GITLINK) ||
	       (c->exists && c->mode == AA_MODE_GITLINK);
}

/* A file (or link) that becomes a submodule in this change set. */
static int file_becomes_gitlink(const aa_change *c)
{
	return c->base_exists && c->base_mode != AA_MODE_GITLINK &&
	       c->exists && c->mode == AA_MODE_GITLINK;
}

static size_t dir_hash(const char *p, size_t len)
{
	size_t h = 2166136261u, i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 16777619u;
	return h;
}

/* The slot of directory p[0..len): its entry, or the empty slot for it. */
static dir_slot *dir_find(aa_wt_backup *b, const char *p, size_t len)
{
	size_t i = dir_hash(p, len) & (b->ndirs_cap - 1);

	while (b->dirs[i].path &&
	       (b->dirs[i].len != len || memcmp(b->dirs[i].path, p, len)))
		i = (i + 1) & (b->ndirs_cap - 1);
	return &b->dirs[i];
}

/* Doubles the table (the descriptors stay open). */
static int dirs_grow(aa_wt_backup *b)
{
	dir_slot *old = b->dirs;
	size_t i, cap = b->ndirs_cap;

	b->dirs = calloc(cap * 2, sizeof(*b->dirs));
	if (!b->dirs) {
		b->dirs = old;
		return -1;
	}
	b->ndirs_cap = cap * 2;
	for (i = 0; i < cap; i++)
		if (old[i].path)
			*dir_find(b, old[i].path, old[i].len) = old[i];
	free(old);
	return 0;
}

/* Enters (or updates) directory p[0..len) with descriptor fd. */
static int dir_remember(aa_wt_backup *b, const char *p, size_t len, int fd)
{
	dir_slot *slot = dir_find(b, p, len);

	if (!slot->path) {
		if (2 * (b->ndirs + 1) > b->ndirs_cap) {
			if (dirs_grow(b) < 0)
				return -1;
			slot = dir_find(b, p, len);
		}
		slot->path = aa_strndup(p, len);
		if (!slot->path)
			return -1;
		slot->len = len;
		b->ndirs++;
	}
	slot->fd = fd;
	slot->attrs = -1;
	return 0;
}

/* Closes every cached directory (the root stays). */
static void dirs_forget(aa_wt_backup *b)
{
	size_t i;

	for (i = 0; i < b->ndirs_cap; i++)
		if (b->dirs[i].path) {
			if (b->dirs[i].fd >= 0)
				close(b->dirs[i].fd);
			free(b->dirs[i].path);
			b->dirs[i].path = NULL;
		}
	b->ndirs = 0;
}

static int dirs_init(aa_wt_backup *b)
{
	b->ndirs_cap = 4 * DIR_FDS_MAX; /* grows for a path deeper than that */
	b->dirs = calloc(b->ndirs_cap, sizeof(*b->dirs));
	return b->dirs ? 0 : -1;
}

/*
 * The descriptor of directory p[0..len) (relative to the root; len 0:
 * the root), opened from its parent's without following a link, made
 * when missing and `create`. Borrowed: the cache closes it. -1 with
 * errno (ELOOP or ENOTDIR: a link or a file is in the way).
 */
static int dir_fd(aa_wt_backup *b, const char *p, size_t len, int create)
{
	const char *slash;
	dir_slot *slot;
	char comp[AA_MAX_PATH_LENGTH + 1];
	size_t n;
	int parent, fd;

	if (!len)
		return b->root;
	slot = dir_find(b, p, len);
	if (slot->path && (slot->fd >= 0 || !create)) {
		if (slot->fd < 0)
			errno = ENOENT; /* known missing (see below) */
		return slot->fd;
	}
	for (slash = p + len; slash > p && slash[-1] != '/'; slash--)
		;
	n = (size_t)(p + len - slash);
	if (n > AA_MAX_PATH_LENGTH) {
		errno = ENAMETOOLONG;
		return -1;
	}
	parent = dir_fd(b, p, slash > p ? (size_t)(slash - 1 - p) : 0, create);
	if (parent < 0)
		return -1;
	memcpy(comp, slash, n);
	comp[n] = '\0';
	fd = openat(parent, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		int made = mkdirat(parent, comp, 0777) == 0;

		if (!made && errno != EEXIST)
			return -1; /* keep mkdir's reason (EACCES, EROFS, ENOSPC) */
		if (made)
			remember_made_dir(b, p, len);
		fd = openat(parent, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0 && (errno != ENOENT || create))
		return -1;
	/*
	 * A missing directory is remembered too (fd -1): the files of a new
	 * directory cost no failed open each before it is made; making it
	 * (create) replaces the entry.
	 */
	if (dir_remember(b, p, len, fd) < 0) {
		if (fd >= 0)
			close(fd);
		errno = ENOMEM;
		return -1;
	}
	if (fd < 0)
		errno = ENOENT;
	return fd;
}

/* 1 unless `name` is surely absent from directory fd. */
static int has_entry(int fd, const char *name)
{
	struct stat st;

	return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
}

/*
 * 1 when a .gitattributes file may lie in the work tree in directory
 * p[0..len) or above it, 0 when surely not: one fstatat per directory
 * per run (its descriptor is cached, see dir_fd).
 */
static int dir_attrs(aa_wt_backup *b, const char *p, size_t len)
{
	const char *slash;
	dir_slot *slot;
	int fd, up;

	if (!len) {
		if (b->root_attrs < 0)
			b->root_attrs = has_entry(b->root, ".gitattributes");
		return b->root_attrs;
	}
	fd = dir_fd(b, p, len, 0);
	if (fd < 0)
		return 1;
	slot = dir_find(b, p, len);
	if (slot->attrs >= 0)
		return slot->attrs;
	for (slash = p + len; slash > p && slash[-1] != '/'; slash--)
		;
	up = dir_attrs(b, p, slash > p ? (size_t)(slash - 1 - p) : 0);
	slot = dir_find(b, p, len); /* the parent's insert may have grown the table */
	slot->attrs = up || has_entry(slot->fd, ".gitattributes");
	return slot->attrs;
}

/* 1 when the index holds a .gitattributes in a directory of `path`. */
static int index_attributes_above(aa_session *s, const char *path)
{
	aa_buf name = AA_BUF_INIT;
	git_index_entry e;
	const char *slash = NULL;
	int r;

	do {
		size_t dirlen = slash ? (size_t)(slash - path) : 0;

		aa_buf_clear(&name);
		r = aa_buf_printf(&name, "%.*s%s.gitattributes", (int)dirlen, path,
				  dirlen ? "/" : "") < 0 ||
		    aa_index_get(s, name.ptr, 0, &e) == 1;
		slash = strchr(slash ? slash + 1 : path, '/');
	} while (!r && slash);
	aa_buf_free(&name);
	return r;
}

/* 1 when core.autocrlf converts on checkout (true, or unreadable). */
static int autocrlf_converts(git_config *cfg)
{
	git_buf v = GIT_BUF_INIT;
	int r, b;

	r = git_config_get_string_buf(&v, cfg, "core.autocrlf");
	if (r == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	if (r < 0)
		return 1;
	r = strcmp(v.ptr, "input") && !(git_config_parse_bool(&b, v.ptr) == 0 && !b);
	git_buf_dispose(&v);
	git_error_clear();
	return r;
}

/*
 * Whether checking out a blob may convert it anywhere: 1 when
 * core.autocrlf converts, or an attributes file exists that is not a
 * work-tree directory's (system, global or core.attributesFile,
 * info/attributes), or the plan holds a .gitattributes, or the index
 * one in a directory of a path of the plan (no other can apply to it).
 * 0: then a path's conversion depends only on work-tree .gitattributes
 * files in its directories (dir_attrs), and without them libgit2's
 * filters (crlf, ident, drivers) all pass through: the blob is written
 * as it is, without one attribute lookup per file.
 */
static int filters_possible(aa_session *s, const aa_plan *plan)
{
	git_config *cfg = NULL;
	size_t i;
	int r = 1;

	for (i = 0; i < plan->nchanges; i++)
		if (aa_attrs_is_file(plan->changes[i].path) ||
		    index_attributes_above(s, plan->changes[i].path))
			return 1;
	if (git_repository_config_snapshot(&cfg, s->repo) < 0) {
		git_error_clear();
		return 1;
	}
	/* info/attributes, core.attributesFile, the XDG and system files */
	r = autocrlf_converts(cfg) || aa_attrs_global_files(s->repo, 1);
	git_error_clear();
	git_config_free(cfg);
	return r;
}

/*
 * The directory holding `path` (relative to root), see dir_fd; sets
 * *base to the last component. The descriptor is borrowed.
 */
static int open_parent(aa_wt_backup *b, const char *path, int create,
		       const char **base)
{
	const char *slash = strrchr(path, '/');

	if (b->ndirs >= DIR_FDS_MAX)
		dirs_forget(b);
	*base = slash ? slash + 1 : path;
	return dir_fd(b, path, slash ? (size_t)(slash - path) : 0, create);
}

/*
 * Removes the empty directory `path` through its parent's descriptor;
 * the cache starts over (it may hold the directory or one below it).
 */
/*
 * Whether st is a directory the command keeps although it is empty, as
 * git does since 2.36 (remove_path() and startup_info->original_cwd):
 * the directory the command was started in. That is the process's
 * current directory and, when the environment's PWD names a directory,
 * that one: chdir() does not change PWD, so it is the directory before
 * -C (git's original cwd is too), even before git's own `git -C`.
 * Its parents are never empty, so they stay anyway.
 */
static int is_kept_dir(const struct stat *st)
{
	const char *pwd = getenv("PWD");
	struct stat k;

	if (stat(".", &k) == 0 && k.st_dev == st->st_dev && k.st_ino == st->st_ino)
		return 1;
	return pwd && *pwd == '/' && stat(pwd, &k) == 0 && S_ISDIR(k.st_mode) &&
	       k.st_dev == st->st_dev && k.st_ino == st->st_ino;
}

/* Removes the empty directory path, unless is_kept_dir(); -1 if not. */
static int remove_dir(aa_wt_backup *b, const char *path)
{
	const char *base;
	int dir = open_parent(b, path, 0, &base);
	struct stat st;

	if (dir < 0)
		return -1;
	if (fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && is_kept_dir(&st)) {
		errno = EBUSY;
		return -1;
	}
	if (unlinkat(dir, base, AT_REMOVEDIR) < 0)
		return -1;
	dirs_forget(b);
	return 0;
}

/* Records what the work tree has at e->path now. */
static int backup_one(aa_wt_backup *b, wt_entry *e, aa_diags *d)
{
	const char *base;
	struct stat st;
	aa_buf buf = AA_BUF_INIT;
	int dir = open_parent(b, e->path, 0, &base), r = 0;

	if (dir < 0)
		return (errno == ENOENT || errno == ENOTDIR) ? 0 :
			wt_fail(d, e->path, "cannot open its directory");
	if (fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		r = errno == ENOENT ? 0 : wt_fail(d, e->path, "cannot stat");
	} else if (S_ISLNK(st.st_mode)) {
		char target[AA_MAX_PATH_LENGTH + 1];
		ssize_t n = readlinkat(dir, base, target, sizeof(target) - 1);

		if (n < 0)
			r = wt_fail(d, e->path, "cannot read the link");
		else {
			e->had = 2;
			e->data = aa_strndup(target, (size_t)n);
			e->len = (size_t)n;
		}
	} else if (S_ISREG(st.st_mode)) {
		int fd = openat(dir, base, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

		if (fd < 0 || aa_read_all(fd, &buf) < 0)
			r = wt_fail(d, e->path, "cannot read");
		if (fd >= 0)
			close(fd);
		if (!r) {
			e->had = 1;
			e->mode = st.st_mode & 07777;
			e->len = buf.len;
			e->data = aa_buf_detach(&buf);
		}
	} else if (!S_ISDIR(st.st_mode)) {
		r = aa_error(d, AA_NOPOS, e->path,
			     "is a directory or special file in the work tree");
	} /* else a directory the plan empties (replaces_emptied_dir): nothing */
	aa_buf_free(&buf);
	return r;
}

/*
 * The mode given is git's (0666, 0777 executable): the kernel applies
 * the umask, or a directory's default ACL, as for git's own checkout.
 */
static int write_file_at(int dir, const char *base, const char *data,
			 size_t len, int exec)
{
	char tmp[64];
	int fd, i;

	for (i = 0; i < 100; i++) {
		snprintf(tmp, sizeof(tmp), ".ai-apply-%ld-%d.tmp", (long)getpid(), i);
		fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    exec ? 0777 : 0666);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		return -1;
	if (aa_write_all(fd, data, len) < 0) {
		close(fd);
		unlinkat(dir, tmp, 0);
		return -1;
	}
	if (close(fd) < 0 || renameat(dir, tmp, dir, base) < 0) {
		int e = errno;

		unlinkat(dir, tmp, 0);
		errno = e;
		return -1;
	}
	return 0;
}

static int write_link_at(int dir, const char *base, const char *target)
{
	if (unlinkat(dir, base, 0) < 0 && errno != ENOENT)
		return -1;
	return symlinkat(target, dir, base);
}

/* ---- unstaged changes ---- */

static int full_path_in(git_repository *repo, const char *path, aa_buf *out)
{
	aa_buf_clear(out);
	return aa_buf_printf(out, "%s%s", git_repository_workdir(repo), path);
}

static int full_path(aa_session *s, const char *path, aa_buf *out)
{
	return full_path_in(s->repo, path, out);
}

/*
 * Whether the index entry's stat data still describes the file, and the
 * file is not racily clean (changed in the second the index was
 * written), so git would not look at its content (read-cache.c
 * ie_match_stat, is_racy_stat).
 */
static int stat_clean(git_repository *repo, const git_index_entry *e,
		      const struct stat *st)
{
	git_buf ipath = GIT_BUF_INIT;
	struct stat ist;
	int racy = 1;

	if (e->mtime.seconds != (int32_t)st->st_mtim.tv_sec ||
	    e->mtime.nanoseconds != (uint32_t)st->st_mtim.tv_nsec ||
	    e->ctime.seconds != (int32_t)st->st_ctim.tv_sec ||
	    e->ctime.nanoseconds != (uint32_t)st->st_ctim.tv_nsec ||
	    e->file_size != (uint32_t)st->st_size || e->ino != (uint32_t)st->st_ino)
		return 0;
	if (git_repository_item_path(&ipath, repo, GIT_REPOSITORY_ITEM_INDEX) == 0 &&
	    stat(ipath.ptr, &ist) == 0)
		racy = st->st_mtim.tv_sec > ist.st_mtim.tv_sec ||
		       (st->st_mtim.tv_sec == ist.st_mtim.tv_sec &&
			st->st_mtim.tv_nsec >= ist.st_mtim.tv_nsec);
	git_buf_dispose(&ipath);
	git_error_clear();
	return !racy;
}

/*
 * The blob id git add would make of the work-tree file at path, which
 * has a filter driver (land/filters.h): the index's stat data first, as
 * git trusts it; else the file through the clean filter.
 */
static int filtered_hash(aa_session *s, const char *path,
			 const git_index_entry *e, const struct stat *st,
			 git_oid *oid)
{
	aa_buf why = AA_BUF_INIT;
	int r = 0;

	if (stat_clean(s->repo, e, st))
		git_oid_cpy(oid, &e->id);
	else if ((r = aa_filter_run(s, AA_FILTER_HASH, path, NULL, 0, oid, NULL, &why)) < 0) {
		free(s->why); /* the reason, for aa_worktree_check_clean */
		s->why = aa_buf_detach(&why);
	}
	aa_buf_free(&why);
	return r;
}

/*
 * Whether the work tree file still holds the index entry's content and
 * mode (as git would convert it), so overwriting it loses nothing.
 */
static int matches_index(aa_session *s, const char *path,
			 const git_index_entry *e, int *same)
{
	aa_buf full = AA_BUF_INIT;
	struct stat st;
	git_oid oid;
	int r = 0;

	*same = 0;
	if (full_path(s, path, &full) < 0)
		return -1;
	if (lstat(full.ptr, &st) < 0) {
		aa_buf_free(&full);
		return 0;
	}
	if (e->mode == AA_MODE_LINK) {
		char target[AA_MAX_PATH_LENGTH + 1];
		ssize_t n = S_ISLNK(st.st_mode) ?
			readlink(full.ptr, target, sizeof(target)) : -1;

		if (n >= 0 && git_odb_hash(&oid, target, (size_t)n, GIT_OBJECT_BLOB) == 0)
			*same = git_oid_equal(&oid, &e->id);
	} else if (S_ISREG(st.st_mode)) {
		int exec = (st.st_mode & 0100) != 0;
		int want_exec = e->mode == AA_MODE_EXEC;
		int filemode = 1;
		git_config *cfg;

		if (git_repository_config_snapshot(&cfg, s->repo) == 0) {
			if (git_config_get_bool(&filemode, cfg, "core.filemode") < 0)
				filemode = 1;
			git_config_free(cfg);
		}
		r = aa_filter_driver(s, path, NULL) == 1 ?
			filtered_hash(s, path, e, &st, &oid) :
			git_repository_hashfile(&oid, s->repo, full.ptr,
						GIT_OBJECT_BLOB, path);
		if (!r)
			*same = git_oid_equal(&oid, &e->id) &&
				(!filemode || exec == want_exec);
	}
	aa_buf_free(&full);
	return r;
}

/*
 * A submodule's directory is its own business, except that a new one
 * needs a directory (or nothing) where it goes: never a file of ours.
 */
static int gitlink_check_clean(aa_session *s, const aa_change *c,
			       aa_buf *full, aa_diags *d)
{
	struct stat st;

	if (c->base_exists || !c->exists || full_path(s, c->path, full) < 0 ||
	    lstat(full->ptr, &st) < 0 || S_ISDIR(st.st_mode))
		return 0;
	return aa_error(d, AA_NOPOS, c->path,
			"already exists in the work tree (untracked); not overwriting it");
}

/* Whether the plan deletes the file at `path`. */
static int plan_deletes(const aa_plan *plan, const char *path)
{
	size_t i;

	for (i = 0; i < plan->nchanges; i++)
		if (!plan->changes[i].exists && !strcmp(plan->changes[i].path, path))
			return 1;
	return 0;
}

/*
 * Whether the work tree directory `rel` (full path in full->ptr) holds
 * only files the plan deletes, in it or below, and no directory without
 * one: removing them leaves it empty and it goes (prune_empty_dirs), so
 * a file can take its place, as git apply writes a file where a patch
 * deleted a directory.
 */
static int emptied_by_plan(const aa_plan *plan, aa_buf *full, aa_buf *rel)
{
	size_t flen = full->len, rlen = rel->len, entries = 0;
	struct dirent *de;
	struct stat here;
	DIR *dh;
	int ok;

	/* the directory the command started in stays (remove_dir) */
	if (stat(full->ptr, &here) == 0 && is_kept_dir(&here))
		return 0;
	dh = opendir(full->ptr);
	ok = dh != NULL;

	while (ok && (de = readdir(dh)) != NULL) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		entries++;
		full->len = flen;
		rel->len = rlen;
		if (aa_buf_printf(full, "/%s", de->d_name) < 0 ||
		    aa_buf_printf(rel, "/%s", de->d_name) < 0 ||
		    lstat(full->ptr, &st) < 0)
			ok = 0;
		else if (S_ISDIR(st.st_mode))
			ok = emptied_by_plan(plan, full, rel);
		else
			ok = plan_deletes(plan, rel->ptr);
	}
	if (dh)
		closedir(dh);
	full->len = flen;
	rel->len = rlen;
	if (full->ptr)
		full->ptr[flen] = '\0';
	if (rel->ptr)
		rel->ptr[rlen] = '\0';
	return ok && entries;
}

/* A new file where the work tree has a directory the plan empties. */
static int replaces_emptied_dir(const aa_plan *plan, const aa_change *c,
				const char *full)
{
	aa_buf f = AA_BUF_INIT, rel = AA_BUF_INIT;
	int ok = aa_buf_printf(&f, "%s", full) == 0 &&
		 aa_buf_printf(&rel, "%s", c->path) == 0 &&
		 emptied_by_plan(plan, &f, &rel);

	aa_buf_free(&f);
	aa_buf_free(&rel);
	return ok;
}

/*
 * Whether a leading directory of `path` (its full path in full->ptr,
 * the work tree's root `rootlen` bytes long) is a symbolic link in the
 * work tree: what lstat finds there is beyond the link, not a file at
 * the path. The planner refuses such a path unless the change set
 * removes the link, which the landing does before it writes under it
 * (git apply's check_to_create(): has_symlink_leading_path()).
 */
static int beyond_worktree_link(aa_buf *full, size_t rootlen)
{
	char *slash;
	int beyond = 0;

	for (slash = strchr(full->ptr + rootlen, '/'); slash && !beyond;
	     slash = strchr(slash + 1, '/')) {
		struct stat st;

		*slash = '\0';
		beyond = lstat(full->ptr, &st) == 0 && S_ISLNK(st.st_mode);
		*slash = '/';
	}
	return beyond;
}

int aa_worktree_check_clean(aa_session *s, const aa_plan *plan, aa_diags *d)
{
	aa_buf full = AA_BUF_INIT;
	size_t i;
	int r = 0;

	for (i = 0; i < plan->nchanges; i++) {
		const aa_change *c = &plan->changes[i];
		const git_index_entry *e = git_index_get_bypath(s->index, c->path, 0);
		struct stat st;
		int same;

		if (is_gitlink_change(c) && !file_becomes_gitlink(c)) {
			/* git leaves a submodule's checkout alone */
			if (gitlink_check_clean(s, c, &full, d) < 0)
				r = -1;
			continue;
		}
		if (aa_sparse_skip(s, c->path))
			continue; /* not in the work tree: index only (land/sparse.h) */
		if (e) {
			free(s->why);
			s->why = NULL;
			if (matches_index(s, c->path, e, &same) < 0)
				r = s->why ? aa_fatal(d, AA_NOPOS, c->path, "%s", s->why) :
				    aa_error(d, AA_NOPOS, c->path,
					     "cannot read the work tree file");
			else if (!same)
				r = aa_error(d, AA_NOPOS, c->path,
					     "has unstaged changes (commit, stash or 'git add' them first, or use --cached / --branch)");
		} else if (c->exists && full_path(s, c->path, &full) == 0 &&
			   lstat(full.ptr, &st) == 0 &&
			   !beyond_worktree_link(&full, full.len - strlen(c->path)) &&
			   !(S_ISDIR(st.st_mode) && replaces_emptied_dir(plan, c, full.ptr))) {
			r = aa_error(d, AA_NOPOS, c->path,
				     "already exists in the work tree (untracked); not overwriting it");
		}
	}
	aa_buf_free(&full);
	return r;
}

/* ---- gitlinks: a submodule is a directory git does not look into ---- */

/*
 * A gitlink's work tree, as git apply --index leaves it: an added one is
 * an empty directory (kept if a directory is there already); a changed
 * one is left alone (the submodule's checkout is not ours); a deleted
 * one is removed when it is an empty directory, else left with a warning.
 */
static int gitlink_write(aa_wt_backup *b, wt_entry *e, const aa_change *c,
			 aa_diags *d)
{
	const char *base;
	int dir, r = 0;

	if (c->base_exists == c->exists && e->gitlink != 3)
		return 0;
	dir = open_parent(b, e->path, c->exists, &base);
	if (dir < 0)
		return c->exists ? wt_fail(d, e->path, "cannot create its directory") : 0;
	/* a file becoming a submodule: the file goes (backed up), then as added */
	if (e->gitlink == 3 && e->had) {
		if (unlinkat(dir, base, 0) < 0 && errno != ENOENT)
			return wt_fail(d, e->path, "cannot remove");
		e->changed = 1;
	}
	if (c->exists) {
		struct stat st;

		if (mkdirat(dir, base, 0777) == 0)
			e->changed = 1;
		else if (errno != EEXIST)
			r = wt_fail(d, e->path, "cannot create the submodule directory");
		else if (fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			 !S_ISDIR(st.st_mode))
			r = aa_error(d, AA_NOPOS, e->path,
				     "already exists in the work tree and is not a directory; not overwriting it");
	} else if (unlinkat(dir, base, AT_REMOVEDIR) == 0) {
		e->changed = 1;
	} else if (errno != ENOENT) {
		aa_warn(d, AA_NOPOS, e->path,
			"submodule directory left in the work tree: %s",
			strerror(errno));
	}
	return r;
}

/* Undoes gitlink_write: the directory it made or removed (empty both). */
/* Puts a gitlink's directory back as it was; 0 done, -1 with errno. */
static int gitlink_restore(aa_wt_backup *b, wt_entry *e)
{
	const char *base;
	int dir = open_parent(b, e->path, 1, &base), r;

	if (dir < 0)
		return -1;
	if (e->gitlink >= 2)
		r = unlinkat(dir, base, AT_REMOVEDIR) < 0 && errno != ENOENT ? -1 : 0;
	else
		r = mkdirat(dir, base, 0777) < 0 && errno != EEXIST ? -1 : 0;
	if (!r && e->gitlink == 3 && e->had == 1)
		r = write_file_at(dir, base, e->data, e->len, (e->mode & 0100) != 0);
	else if (!r && e->gitlink == 3 && e->had == 2)
		r = write_link_at(dir, base, e->data);
	return r;
}

/* ---- writing and restoring ---- */

static int remove_path(aa_wt_backup *b, wt_entry *e, const aa_change *c,
		       aa_diags *d)
{
	const char *base;
	int dir, r = 0;

	if (e->gitlink)
		return gitlink_write(b, e, c, d);
	dir = open_parent(b, e->path, 0, &base);

	if (dir < 0)
		return errno == ENOENT ? 0 : wt_fail(d, e->path, "cannot open its directory");
	if (unlinkat(dir, base, 0) < 0 && errno != ENOENT)
		r = wt_fail(d, e->path, "cannot remove");
	else
		e->changed = 1;
	return r;
}

/* Removes the directories that deleting `path` left empty. */
static void prune_empty_dirs(aa_wt_backup *b, const char *path)
{
	char *p = aa_strdup(path), *slash;

	while (p && (slash = strrchr(p, '/'))) {
		*slash = '\0';
		if (remove_dir(b, p) < 0)
			break;
	}
	free(p);
}

/* Smudged through the path's filter driver (land/filters.h). */
static int driver_content(aa_session *s, const char *path, const git_oid *id,
			  git_buf *out)
{
	aa_buf bytes = AA_BUF_INIT, why = AA_BUF_INIT;
	int r = aa_filter_run(s, AA_FILTER_SMUDGE, path, NULL, 0, (git_oid *)id,
			      &bytes, &why);

	if (!r)
		r = git_buf_set(out, bytes.ptr ? bytes.ptr : "", bytes.len);
	aa_buf_free(&bytes);
	aa_buf_free(&why);
	return r;
}

static int filtered_content(git_repository *repo, const char *path,
			    const git_oid *id, git_buf *out)
{
	git_blob_filter_options fo;
	git_blob *blob;
	int r;

	memset(&fo, 0, sizeof(fo));
	fo.version = GIT_BLOB_FILTER_OPTIONS_VERSION;
	fo.flags = GIT_BLOB_FILTER_CHECK_FOR_BINARY;

	if (git_blob_lookup(&blob, repo, id) < 0)
		return -1;
	/*
	 * With CHECK_FOR_BINARY, git_blob_filter() leaves `out` EMPTY for a
	 * binary blob (it "does not filter" by not copying): write the raw
	 * bytes ourselves.
	 */
	if (git_blob_is_binary(blob))
		r = git_buf_set(out, git_blob_rawcontent(blob),
				(size_t)git_blob_rawsize(blob));
	else
		r = git_blob_filter(out, blob, path, &fo);
	git_blob_free(blob);
	return r;
}

/*
 * The bytes the work tree gets for blob id at path: the blob as it is
 * when no filter can apply there (filters_possible, dir_attrs), else
 * through libgit2's filters, or git's for a filter driver.
 */
static int checkout_content(aa_session *s, aa_wt_backup *b,
			    const char *path, const git_oid *id, git_buf *out)
{
	git_repository *repo = s->repo;
	const char *slash = strrchr(path, '/');
	git_blob *blob;
	int r;

	if (b->filters ||
	    dir_attrs(b, path, slash ? (size_t)(slash - path) : 0))
		return aa_filter_driver(s, path, NULL) == 1 ?
			driver_content(s, path, id, out) :
			filtered_content(repo, path, id, out);
	if (git_blob_lookup(&blob, repo, id) < 0)
		return -1;
	r = git_buf_set(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return r;
}

static int write_path(aa_session *s, aa_wt_backup *b, wt_entry *e,
		      const aa_change *c, const git_oid *id, aa_diags *d)
{
	git_buf content = GIT_BUF_INIT;
	const char *base;
	int dir, r = 0;

	if (e->gitlink)
		return gitlink_write(b, e, c, d);
	dir = open_parent(b, e->path, 1, &base);

	if (dir < 0)
		return wt_fail(d, e->path, errno == ELOOP || errno == ENOTDIR ?
			       "a leading directory is a symbolic link or a file" :
			       "cannot create its directory");
	if (c->mode == AA_MODE_LINK) {
		git_blob *blob;

		if (git_blob_lookup(&blob, s->repo, id) < 0)
			r = aa_error(d, AA_NOPOS, e->path, "cannot read the link target");
		else {
			char *target = aa_strndup(git_blob_rawcontent(blob),
						  (size_t)git_blob_rawsize(blob));

			if (!target || write_link_at(dir, base, target) < 0)
				r = wt_fail(d, e->path, "cannot create the symbolic link");
			free(target);
			git_blob_free(blob);
		}
	} else if (checkout_content(s, b, e->path, id, &content) < 0) {
		r = aa_error(d, AA_NOPOS, e->path, "cannot convert for the work tree");
	} else if (write_file_at(dir, base, content.ptr, content.size,
				 c->mode == AA_MODE_EXEC) < 0) {
		r = wt_fail(d, e->path, "cannot write");
	}
	e->changed = 1;
	if (!r && fstatat(dir, base, &e->st, AT_SYMLINK_NOFOLLOW) == 0)
		e->has_stat = 1;
	git_buf_dispose(&content);
	return r;
}

/* Puts back what e->path held; 0 done, -1 with errno. */
static int restore_one(aa_wt_backup *b, wt_entry *e)
{
	const char *base;
	int dir, r;

	if (!e->changed)
		return 0;
	if (e->gitlink)
		return gitlink_restore(b, e);
	dir = open_parent(b, e->path, e->had != 0, &base);
	if (dir < 0)
		return e->had || errno != ENOENT ? -1 : 0;
	if (e->had == 1)
		r = write_file_at(dir, base, e->data, e->len, (e->mode & 0100) != 0);
	else if (e->had == 2)
		r = write_link_at(dir, base, e->data);
	else
		r = unlinkat(dir, base, 0) < 0 && errno != ENOENT ? -1 : 0;
	return r;
}

/* "missing" or "new": where a path whose restore failed is left. */
static const char *left_state(aa_wt_backup *b, const wt_entry *e)
{
	const char *base;
	struct stat st;
	int dir = open_parent(b, e->path, 0, &base), gone;

	if (dir < 0)
		return "missing";
	gone = fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
	return gone ? (e->had ? "missing" : "old (absent)") : "new";
}

int aa_worktree_restore(aa_session *s, aa_wt_backup *b, aa_diags *d)
{
	aa_buf list = AA_BUF_INIT;
	size_t i, failed = 0;
	int pass;

	(void)s;
	/*
	 * The new paths go first, with the directories made for them, so
	 * that an old file comes back where a new directory was, and an old
	 * directory where a new file was.
	 */
	for (pass = 0; pass < 2; pass++) {
		for (i = b->n; i > 0; i--) {
			wt_entry *e = &b->v[i - 1];

			if ((e->had != 0) != pass)
				continue;
			e->restore_errno = restore_one(b, e) < 0 ? (errno ? errno : EIO) : 0;
			failed += e->restore_errno != 0;
		}
		for (i = b->nmade; i > 0 && !pass; i--)
			remove_dir(b, b->made_dirs[i - 1]);
	}
	if (!failed)
		return 0;
	for (i = 0; i < b->n; i++) {
		const wt_entry *e = &b->v[i];

		aa_buf_printf(&list, "\n    %s: %s", aa_qpath(e->path),
			      e->restore_errno ? left_state(b, e) : "old");
		if (e->restore_errno)
			aa_buf_printf(&list, " (%s)", strerror(e->restore_errno));
	}
	aa_error(d, AA_NOPOS, NULL,
		 "the work tree could not be put back; it is left so:%s\n"
		 "the index is unchanged. Once the cause is fixed, run 'git ai-apply --recover'",
		 aa_buf_oom(&list) || !list.ptr ?
		 " (out of memory while listing the paths)" : list.ptr);
	aa_buf_free(&list);
	return -1;
}

static aa_wt_backup *backup_new(aa_session *s, const aa_plan *plan)
{
	aa_wt_backup *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->root = open(git_repository_workdir(s->repo),
		       O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	b->v = calloc(plan->nchanges ? plan->nchanges : 1, sizeof(*b->v));
	b->root_attrs = -1;
	b->filters = filters_possible(s, plan);
	if (b->root < 0 || !b->v || dirs_init(b) < 0) {
		aa_worktree_backup_free(b);
		return NULL;
	}
	return b;
}

int aa_worktree_write(aa_session *s, const aa_plan *plan, const git_oid *ids,
		      aa_wt_backup **out, aa_diags *d)
{
	aa_wt_backup *b = backup_new(s, plan);
	size_t i;
	int r = 0;

	*out = NULL;
	if (!b)
		return aa_error(d, AA_NOPOS, NULL,
				"cannot open the work tree: %s", strerror(errno));
	for (i = 0; i < plan->nchanges && !r; i++) {
		b->v[i].path = plan->changes[i].path;
		b->n++;
		/*
		 * 2: a gitlink the change set adds (its restore removes it);
		 * 3: a file that becomes one (backed up: its restore puts the
		 * file back)
		 */
		b->v[i].gitlink = file_becomes_gitlink(&plan->changes[i]) ? 3 :
				  is_gitlink_change(&plan->changes[i]) ?
				  1 + !plan->changes[i].base_exists : 0;
		r = (b->v[i].gitlink && b->v[i].gitlink != 3) ||
		    aa_sparse_skip(s, b->v[i].path) ? 0 :
			backup_one(b, &b->v[i], d);
	}
	*out = b;
	for (i = 0; i < plan->nchanges && !r; i++)
		if (aa_sparse_skip(s, plan->changes[i].path))
			continue; /* index only (land/sparse.h) */
		else if (!plan->changes[i].exists) {
			r = remove_path(b, &b->v[i], &plan->changes[i], d);
			prune_empty_dirs(b, b->v[i].path);
			aa_test_hook("path");
		}
	for (i = 0; i < plan->nchanges && !r; i++)
		if (plan->changes[i].exists && !aa_sparse_skip(s, plan->changes[i].path)) {
			r = write_path(s, b, &b->v[i], &plan->changes[i], &ids[i], d);
			aa_test_hook("path");
		}
	return r ? AA_FATAL : AA_OK;
}

int aa_worktree_stat(aa_wt_backup *b, size_t i, git_index_entry *e)
{
	const struct stat *st;

	/* entry i is change i of the plan (aa_worktree_write): no search */
	if (i >= b->n || !b->v[i].has_stat)
		return -1;
	st = &b->v[i].st;
	e->ctime.seconds = (int32_t)st->st_ctim.tv_sec;
	e->ctime.nanoseconds = (uint32_t)st->st_ctim.tv_nsec;
	e->mtime.seconds = (int32_t)st->st_mtim.tv_sec;
	e->mtime.nanoseconds = (uint32_t)st->st_mtim.tv_nsec;
	e->dev = (uint32_t)st->st_dev;
	e->ino = (uint32_t)st->st_ino;
	e->uid = (uint32_t)st->st_uid;
	e->gid = (uint32_t)st->st_gid;
	e->file_size = (uint32_t)st->st_size;
	return 0;
}

void aa_worktree_backup_free(aa_wt_backup *b)
{
	size_t i;

	if (!b)
		return;
	if (b->dirs)
		dirs_forget(b);
	free(b->dirs);
	if (b->root >= 0)
		close(b->root);
	for (i = 0; i < b->n; i++)
		free(b->v[i].data);
	free(b->v);
	for (i = 0; i < b->nmade; i++)
		free(b->made_dirs[i]);
	free(b->made_dirs);
	free(b);
}

/* ---- for recovery: one path at a time, by blob id ---- */

static int open_root(git_repository *repo, aa_wt_backup *b)
{
	const char *wd = git_repository_workdir(repo);

	memset(b, 0, sizeof(*b));
	b->root = wd ? open(wd, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (b->root >= 0 && dirs_init(b) < 0) {
		close(b->root);
		b->root = -1;
	}
	return b->root < 0 ? -1 : 0;
}

static void close_root(aa_wt_backup *b)
{
	size_t i;

	if (b->dirs)
		dirs_forget(b);
	free(b->dirs);
	if (b->root >= 0)
		close(b->root);
	for (i = 0; i < b->nmade; i++)
		free(b->made_dirs[i]);
	free(b->made_dirs);
}

/*
 * Recovery, --review and --undo read and write a path outside any
 * landing: a stand-in session lets the path's filter driver run as a
 * landing runs it (land/filters.h), so a filtered path is hashed as git
 * add hashes it and written as git checkout writes it.
 */
typedef struct driver_ctx {
	aa_session s;
	aa_land_opts o;
} driver_ctx;

static void driver_ctx_init(driver_ctx *c, git_repository *repo)
{
	memset(c, 0, sizeof(*c));
	c->o.mode = AA_LAND_INDEX;
	c->s.repo = repo;
	c->s.opts = &c->o;
}

static void driver_ctx_free(driver_ctx *c)
{
	free(c->s.smudged);
	free(c->s.why);
}

/* 1: path has a filter driver; then *c is initialised (free it). */
static int has_driver(driver_ctx *c, git_repository *repo, const char *path)
{
	driver_ctx_init(c, repo);
	if (aa_filter_driver(&c->s, path, NULL) == 1)
		return 1;
	driver_ctx_free(c);
	return 0;
}

/* The blob id git add would make of the file at path, whatever filters. */
static int hash_worktree_file(git_repository *repo, const char *path,
			      const char *full, git_oid *id)
{
	aa_buf why = AA_BUF_INIT;
	driver_ctx c;
	int r;

	if (!has_driver(&c, repo, path))
		return git_repository_hashfile(id, repo, full, GIT_OBJECT_BLOB, path);
	r = aa_filter_run(&c.s, AA_FILTER_HASH, path, NULL, 0, id, NULL, &why);
	aa_buf_free(&why);
	driver_ctx_free(&c);
	return r;
}

static int probe_at(git_repository *repo, int dir, const char *base,
		    const char *path, git_oid *id, unsigned *mode)
{
	aa_buf full = AA_BUF_INIT;
	struct stat st;
	int r = -1;

	*mode = 0;
	if (fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (S_ISLNK(st.st_mode)) {
		char target[AA_MAX_PATH_LENGTH + 1];
		ssize_t n = readlinkat(dir, base, target, sizeof(target));

		if (n >= 0 && git_odb_hash(id, target, (size_t)n, GIT_OBJECT_BLOB) == 0) {
			*mode = AA_MODE_LINK;
			r = 0;
		}
	} else if (S_ISREG(st.st_mode) && full_path_in(repo, path, &full) == 0 &&
		   hash_worktree_file(repo, path, full.ptr, id) == 0) {
		*mode = (st.st_mode & 0100) ? AA_MODE_EXEC : AA_MODE_FILE;
		r = 0;
	}
	aa_buf_free(&full);
	return r;
}

int aa_worktree_probe(git_repository *repo, const char *path, git_oid *id,
		      unsigned *mode)
{
	aa_wt_backup b;
	const char *base;
	int dir, r;

	*mode = 0;
	if (open_root(repo, &b) < 0)
		return -1;
	dir = open_parent(&b, path, 0, &base);
	if (dir < 0)
		r = errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	else {
		r = probe_at(repo, dir, base, path, id, mode);
	}
	close_root(&b);
	return r;
}

/* The bytes git checkout would write for blob id at path. */
static int checkout_bytes(git_repository *repo, const char *path,
			  const git_oid *id, git_buf *out)
{
	driver_ctx c;
	int r;

	if (!has_driver(&c, repo, path))
		return filtered_content(repo, path, id, out);
	r = driver_content(&c.s, path, id, out);
	driver_ctx_free(&c);
	return r;
}

static int put_at(git_repository *repo, int dir, const char *base,
		  const char *path, const git_oid *id, unsigned mode)
{
	git_buf content = GIT_BUF_INIT;
	git_blob *blob = NULL;
	char *target = NULL;
	int r;

	if (mode == AA_MODE_LINK) {
		r = git_blob_lookup(&blob, repo, id) < 0 ||
		    !(target = aa_strndup(git_blob_rawcontent(blob),
					  (size_t)git_blob_rawsize(blob))) ? -1 :
			write_link_at(dir, base, target);
		if (r < 0 && !errno)
			errno = EIO;
	} else if (checkout_bytes(repo, path, id, &content) < 0) {
		errno = EIO;
		r = -1;
	} else {
		r = write_file_at(dir, base, content.ptr, content.size,
				  mode == AA_MODE_EXEC);
	}
	free(target);
	git_blob_free(blob);
	git_buf_dispose(&content);
	return r;
}

int aa_worktree_put(git_repository *repo, const char *path, const git_oid *id,
		    unsigned mode, aa_diags *d)
{
	aa_wt_backup b;
	const char *base;
	int dir, r = 0;

	if (open_root(repo, &b) < 0)
		return wt_fail(d, path, "cannot open the work tree");
	dir = open_parent(&b, path, mode != 0, &base);
	if (dir < 0) {
		if (mode || (errno != ENOENT && errno != ENOTDIR))
			r = wt_fail(d, path, "cannot open its directory");
	} else {
		if (!mode)
			r = unlinkat(dir, base, 0) < 0 && errno != ENOENT ?
				wt_fail(d, path, "cannot remove") : 0;
		else if (put_at(repo, dir, base, path, id, mode) < 0)
			r = wt_fail(d, path, "cannot write");
		if (!mode && !r)
			prune_empty_dirs(&b, path);
	}
	close_root(&b);
	return r;
}

void aa_worktree_remove_temps(git_repository *repo, const char *path, long pid)
{
	char prefix[64];
	aa_wt_backup b;
	const char *base;
	struct dirent *de;
	DIR *dh;
	int dir;
	size_t n;

	if (open_root(repo, &b) < 0)
		return;
	n = (size_t)snprintf(prefix, sizeof(prefix), ".ai-apply-%ld-", pid);
	dir = open_parent(&b, path, 0, &base);
	if (dir >= 0 && (dh = fdopendir(dup(dir))) != NULL) {
		while ((de = readdir(dh)) != NULL) {
			size_t len = strlen(de->d_name);

			if (!strncmp(de->d_name, prefix, n) && len > n + 4 &&
			    !strcmp(de->d_name + len - 4, ".tmp"))
				unlinkat(dir, de->d_name, 0);
		}
		closedir(dh);
	}
	close_root(&b);
}
