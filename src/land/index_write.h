/*
 * The new index streamed from the old one (Documentation/landing.md,
 * "Index access in O(touched)"): the old file's entries copied, those of
 * the touched paths replaced by what the landing's in-memory index holds
 * for them, the extensions kept or dropped as the section says, the
 * SHA-1 trailer from OpenSSL's libcrypto.
 */
#ifndef AA_LAND_INDEX_WRITE_H
#define AA_LAND_INDEX_WRITE_H

#include <stddef.h>
#include <git2.h>
#include "land/index_read.h"

typedef struct aa_ixstream {
	aa_ixread *old;           /* the index as it was read */
	git_index *now;           /* the touched paths' entries (all stages), nothing else */
	char **paths;             /* the touched paths (owned), sorted as the index is, unique */
	size_t npaths, cappaths;
	git_repository *repo;     /* racily clean entries are checked in its work tree */
	int worktree;             /* the landing wrote the touched files (fsmonitor: clean) */
	/* before a racily clean entry's file is hashed: its attributes ready */
	int (*attrs_for)(void *ctx, const char *path);
	void *attrs_ctx;
} aa_ixstream;

/*
 * Names `path` a touched path. `added`: the landing gives it an entry,
 * so what it collides with in the old index (a file where one of its
 * directories goes, entries under it where it becomes a file) is
 * touched too, as git's add_index_entry replaces them. 0, or -1 out of
 * memory.
 */
int aa_ixstream_touch(aa_ixstream *st, const char *path, int added);

/*
 * Sorts and dedups the touched paths, then copies their entries (all
 * stages) from the old index into st->now, the in-memory index the
 * landing changes. 0, or -1 (libgit2's error or out of memory).
 */
int aa_ixstream_load(aa_ixstream *st);

/* 1 when `path` is a touched path (after aa_ixstream_load). */
int aa_ixstream_touched(const aa_ixstream *st, const char *path);

/*
 * 0 when st->now holds entries of touched paths only (what the stream
 * writes from it), else -1: the landing changed a path it did not name.
 */
int aa_ixstream_check(const aa_ixstream *st);

/* Frees the touched paths (not old, now or repo). */
void aa_ixstream_free(aa_ixstream *st);

/*
 * How many entries the new index will hold.
 */
size_t aa_ixstream_count(const aa_ixstream *st);

/*
 * Writes the new index to fd from its current position. 0, or -1 with
 * the reason in why[] (errno for a failed write).
 */
int aa_ixstream_write(const aa_ixstream *st, int fd, char *why, size_t whylen);

#endif
