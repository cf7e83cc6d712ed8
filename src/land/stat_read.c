/*
 * The work-tree file read for the index entry's blob (stat_read.h): git's
 * rule for a clean entry, stricter where it costs nothing (nanoseconds
 * and the device always compared), so a file git would re-hash is never
 * taken for its blob.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "land/stat_read.h"
#include "land/index_read.h"
#include "land/filters.h"
#include "land/attrs.h"
#include "util/util.h"


/* The entry's stat data is the file's (git's match_stat_data). */
static int stat_matches(const git_index_entry *e, const struct stat *st)
{
	return S_ISREG(st->st_mode) &&
	       e->mtime.seconds == (int32_t)st->st_mtim.tv_sec &&
	       e->mtime.nanoseconds == (uint32_t)st->st_mtim.tv_nsec &&
	       e->ctime.seconds == (int32_t)st->st_ctim.tv_sec &&
	       e->ctime.nanoseconds == (uint32_t)st->st_ctim.tv_nsec &&
	       e->dev == (uint32_t)st->st_dev && e->ino == (uint32_t)st->st_ino &&
	       e->uid == (uint32_t)st->st_uid && e->gid == (uint32_t)st->st_gid &&
	       e->file_size == (uint32_t)st->st_size;
}

/*
 * Racily clean (git's is_racy_timestamp): a file changed in the same
 * second the index was written may hold other bytes with the same stat
 * data. Same second or later than the index file: not trusted.
 */
static int racy(const aa_session *s, const git_index_entry *e)
{
	const char *ipath;
	struct stat ist;
	long long sec;
	long nsec;

	if (s->ixr) {  /* --check: the reader's index file, as it was read */
		aa_ixread_mtime(s->ixr, &sec, &nsec);
		return sec == 0 || e->mtime.seconds >= sec;
	}
	ipath = s->index ? git_index_path(s->index) : NULL;
	if (!ipath || stat(ipath, &ist) < 0)
		return 1;
	return e->mtime.seconds >= (int32_t)ist.st_mtim.tv_sec;
}

/* No filter either way (libgit2's crlf, ident; a driver; an encoding). */
static int no_conversion(aa_session *s, const char *path)
{
	git_filter_list *fl = NULL;
	const char *enc = NULL;

	if (aa_index_attrs_for(s, path) < 0)
		return 0;
	/* no attribute set and core.autocrlf false: no filter (land/attrs.h) */
	if (aa_attrs_plain(s, path) == 1)
		return 1;
	if (git_filter_list_load(&fl, s->repo, NULL, path, GIT_FILTER_TO_WORKTREE, 0) < 0 || fl) {
		git_filter_list_free(fl);
		return 0;
	}
	if (git_filter_list_load(&fl, s->repo, NULL, path, GIT_FILTER_TO_ODB, 0) < 0 || fl) {
		git_filter_list_free(fl);
		return 0;
	}
	if (git_attr_get(&enc, s->repo, 0, path, "working-tree-encoding") < 0 ||
	    !GIT_ATTR_IS_UNSPECIFIED(enc))
		return 0;
	return aa_filter_driver(s, path, NULL) == 0;
}

/*
 * The index entry of path into *e (from libgit2's index or, under
 * --check, the reader: aa_index_get), when it may stand for the file
 * at all: 1, else 0.
 */
static int clean_candidate(aa_session *s, const char *path,
			   const aa_oid *oid, git_index_entry *e)
{
	if (!aa_index_present(s) || !s->opts->check_worktree ||
	    !git_repository_workdir(s->repo) || aa_index_get(s, path, 0, e) != 1)
		return 0;
	return !memcmp(e->id.id, oid->id, sizeof(oid->id)) &&
	       (e->mode == AA_MODE_FILE || e->mode == AA_MODE_EXEC) &&
	       !(e->flags & GIT_INDEX_ENTRY_VALID) &&
	       !(e->flags_extended & (GIT_INDEX_ENTRY_INTENT_TO_ADD |
				      GIT_INDEX_ENTRY_SKIP_WORKTREE));
}

/*
 * The open file's st_size bytes, read (not mapped: the landing may
 * rewrite the file in place while the plan still holds its bytes).
 */
static char *read_file(int fd, size_t len)
{
	char *buf = malloc(len + 1);
	size_t got = 0;

	while (buf && got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n <= 0) {
			free(buf);
			return NULL;
		}
		got += (size_t)n;
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

int aa_stat_read_lend(aa_session *s, const char *path, const aa_oid *oid,
		      const char **data, size_t *len, void **handle)
{
	git_index_entry entry;
	const git_index_entry *e = &entry;
	aa_buf full = AA_BUF_INIT;
	struct stat st;
	char *buf = NULL;
	int fd, ok;

	if (!clean_candidate(s, path, oid, &entry) || racy(s, e) ||
	    !no_conversion(s, path))
		return 1;
	if (aa_buf_printf(&full, "%s%s", git_repository_workdir(s->repo), path) < 0) {
		aa_buf_free(&full);
		return 1;
	}
	fd = open(full.ptr, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	aa_buf_free(&full);
	if (fd < 0)
		return 1;
	ok = fstat(fd, &st) == 0 && stat_matches(e, &st) &&
	     (buf = read_file(fd, (size_t)st.st_size)) != NULL;
	close(fd);
	if (!ok)
		return 1;
	*data = buf;
	*len = (size_t)st.st_size;
	*handle = buf;
	return 0;
}

void aa_stat_read_release(void *handle)
{
	free(handle);
}
