/*
 * The base as the planner sees it: a snapshot of an index or a tree,
 * read per path through callbacks (the lander implements them, in
 * land/snapshot.c), with the earlier versions of a path and the 3-way
 * merge. Apart from plan.h so that the merge helpers can take it
 * without the planner's own header.
 */
#ifndef AIAPPLY_PLAN_SNAPSHOT_H
#define AIAPPLY_PLAN_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "aiapply/common.h"

#define AA_MODE_FILE    0100644u
#define AA_MODE_EXEC    0100755u
#define AA_MODE_LINK    0120000u
#define AA_MODE_GITLINK 0160000u
#define AA_MODE_TREE    0040000u

typedef struct aa_oid {
	unsigned char id[20];
} aa_oid;

/* Called for each base file under a directory; non-zero stops the walk. */
typedef int (*aa_each_fn)(const char *path, uint32_t mode,
			  const aa_oid *oid, void *payload);

/*
 * One earlier version of a file, offered by aa_snapshot.history: its
 * bytes (valid during the call only) and a label naming it for messages
 * ("commit 1a2b3c4"). Non-zero stops the search.
 */
typedef int (*aa_version_fn)(const char *label, const char *data,
			     size_t len, void *payload);

/* A byte string a version must hold (a hunk's old lines). */
typedef struct aa_needle {
	const char *s;
	size_t len;
} aa_needle;

/*
 * What aa_snapshot.history may skip without offering it: a version
 * whose bytes lack a needle, by the rule of aa_filter_holds()
 * (plan/history_filter.h): in a version with a CR, every non-empty
 * cr[i]; in one without, every non-empty lf[i]. A version skipped
 * counts as offered (the bound on versions). hint_only: offer the
 * hint's blob alone, no history walk. *held (when held is not NULL)
 * is set before each call of fn: 1 when the history showed that the
 * version holds every needle (fn need not test it again), else 0.
 */
typedef struct aa_version_filter {
	const aa_needle *lf;
	const aa_needle *cr;
	size_t n;
	int hint_only;
	int *held;
} aa_version_filter;

/*
 * Read access to the base (a tree or the index). Functions return 0 on
 * success, 1 for "not found" (lookup), -1 on error (with a message in
 * *err when they can).
 */
typedef struct aa_snapshot {
	void *ctx;
	/* A file (blob, link or gitlink) at exactly this path. */
	int (*lookup)(void *ctx, const char *path, uint32_t *mode, aa_oid *oid);
	int (*read)(void *ctx, const aa_oid *oid, aa_buf *out);
	/*
	 * Every base file under `dir` + "/", in order; stops on non-zero.
	 * `dir` "" walks every base file (path resolution asks it).
	 */
	int (*each_under)(void *ctx, const char *dir, aa_each_fn fn, void *payload);
	/* 1 when gitattributes of the base mark the path binary (optional). */
	int (*attr_binary)(void *ctx, const char *path);
	/*
	 * 1 when `path` lies beyond a symbolic link in the work tree (some
	 * leading directory is a link), 0 if not (optional).
	 */
	int (*worktree_beyond_link)(void *ctx, const char *path, char **link);
	/*
	 * Optional: whether the base entry of `path` is intent-to-add (git
	 * add -N: the index holds the empty blob, the content is not
	 * staged): 0 not, 1 it is and the landing writes the index only
	 * (--cached), 2 it is and the landing answers for the work tree too.
	 */
	int (*intent_to_add)(void *ctx, const char *path);
	/*
	 * Optional: lends an object's bytes without copying them; they stay
	 * valid until release(ctx, *handle), which the plan calls when it is
	 * freed (so the snapshot must outlive the plan). NULL: read() copies.
	 */
	int (*lend)(void *ctx, const aa_oid *oid, const char **data,
		    size_t *len, void **handle);
	void (*release)(void *ctx, void *handle);
	/*
	 * Optional: lend() for the base object `oid` of `path`, which may
	 * read the work-tree file instead when git would take it for the
	 * object (its stat data clean in the index, no conversion); the
	 * same release().
	 */
	int (*lend_path)(void *ctx, const char *path, const aa_oid *oid,
			 const char **data, size_t *len, void **handle);
	/*
	 * Optional: why the last call failed ("failed to read descriptor:
	 * Input/output error"), or NULL; valid until the next call.
	 */
	const char *(*last_error)(void *ctx);
	/*
	 * Optional: the earlier versions of `path`, newest first, distinct
	 * contents only: first the blob `hint` names (a hex object id, maybe
	 * abbreviated, from a diff's "index" line; NULL when none) when it
	 * exists, then the path's history from the base commit backwards.
	 * `current` (NULL if unknown) is the current content's object id:
	 * never offered. `filter` (NULL: none) names versions fn need not
	 * see. Returns 0 (done, or fn stopped it) or -1 on error.
	 * When a bound
	 * (commits, versions, time) ended the search early, *bound receives
	 * an allocated text saying which.
	 */
	int (*history)(void *ctx, const char *path, const char *hint,
		       const aa_oid *current, const aa_version_filter *filter,
		       aa_version_fn fn, void *payload, char **bound);
	/*
	 * Optional: the 3-way merge of three contents of `path` (ancestor
	 * `base`, named `base_label`). 0: clean, *out holds the result;
	 * 1: conflict, *out describes the first conflicting region, starting
	 * "conflict at line N" (N in `ours`); -1: error.
	 */
	int (*merge3)(void *ctx, const char *path, const char *base_label,
		      const char *base, size_t base_len,
		      const char *ours, size_t ours_len,
		      const char *theirs, size_t theirs_len, aa_buf *out);
	/*
	 * Optional (--3way): the same merge as merge3, but *out receives the
	 * merged content itself, conflicts written with markers as git apply
	 * --3way writes them ("<<<<<<< ours", "=======", ">>>>>>> theirs").
	 * 0: clean, 1: conflict, -1: error.
	 */
	int (*merge3_markers)(void *ctx, const char *path,
			      const char *base, size_t base_len,
			      const char *ours, size_t ours_len,
			      const char *theirs, size_t theirs_len, aa_buf *out);
	/*
	 * Optional (binary patches, which name their pre-image and result by
	 * object id): the repository's id of a blob holding data[0..len)
	 * (0, or -1) ...
	 */
	int (*blob_id)(void *ctx, const char *data, size_t len, aa_oid *out);
	/* ... and whether its object database holds the blob: 1, 0, -1. */
	int (*has_blob)(void *ctx, const aa_oid *oid);
} aa_snapshot;

#endif
