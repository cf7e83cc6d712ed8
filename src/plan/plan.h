/*
 * The planner: applies a change set, in order, over a base snapshot into
 * an in-memory overlay and enforces the shared rules (paths, modes,
 * binary, symlinks, submodules, existence, file/directory conflicts:
 * Documentation/landing.md, "Planner rules").
 * It never writes: the result is a list of changed paths for landing.
 */
#ifndef AIAPPLY_PLAN_H
#define AIAPPLY_PLAN_H

#include "change/changeset.h"
#include "edit/edit.h"

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
	 * Optional: lends an object's bytes without copying them; they stay
	 * valid until release(ctx, *handle), which the plan calls when it is
	 * freed (so the snapshot must outlive the plan). NULL: read() copies.
	 */
	int (*lend)(void *ctx, const aa_oid *oid, const char **data,
		    size_t *len, void **handle);
	void (*release)(void *ctx, void *handle);
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
	 * never offered. Returns 0 (done, or fn stopped it) or -1 on error.
	 * When a bound
	 * (commits, versions, time) ended the search early, *bound receives
	 * an allocated text saying which.
	 */
	int (*history)(void *ctx, const char *path, const char *hint,
		       const aa_oid *current, aa_version_fn fn, void *payload,
		       char **bound);
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
} aa_snapshot;

typedef struct aa_plan_opts {
	int allow_delete;     /* --allow-delete (needed by --strict deletions) */
	int threeway;         /* --3way: write a conflicting merge, do not refuse */
	/*
	 * The work tree's root (absolute), as the repository gives it and
	 * with its links resolved; NULL when there is none. An absolute path
	 * in an answer is taken relative to it, or refused outside it.
	 */
	const char *worktree;
	const char *worktree_real;
} aa_plan_opts;

/* One conflicting region of --3way's content: lines [start, end], 1-based. */
typedef struct aa_conflict_region {
	size_t start, end;
} aa_conflict_region;

/* One path whose content or mode the change set alters. */
typedef struct aa_change {
	char *path;
	int base_exists;
	uint32_t base_mode;
	aa_oid base_oid;
	int exists;           /* after the change set */
	uint32_t mode;
	int has_oid;          /* content is the existing object `oid` */
	aa_oid oid;
	char *data;           /* else the new bytes */
	size_t len;
	char *renamed_from;   /* for reports: the path it was moved from */
	int copied;           /* ... or copied from (the source stays) */
	int from_exists;      /* renamed_from's base entry, for reports */
	aa_oid from_oid;
	aa_landing *landings;
	size_t nlandings;
	/*
	 * --3way: the merge conflicted. `data` is the merged content with
	 * conflict markers (the work tree's); the index gets stage 1 (the
	 * version the answer was written against), 2 (the content before the
	 * operation: ours) and 3 (that version with the answer's hunks:
	 * theirs) in place of stage 0. Stages 1 and 2 have `stage_mode`,
	 * stage 3 has `mode`.
	 */
	int conflict;
	uint32_t stage_mode;
	const char *stage[3];
	size_t stage_len[3];
	aa_conflict_region *regions; /* where the markers are in `data` */
	size_t nregions;
} aa_change;

typedef struct aa_plan_node aa_plan_node;

typedef struct aa_plan {
	aa_change *changes;   /* in order of first touch */
	size_t nchanges;
	size_t ops_applied;   /* operations that changed something */
	size_t ops_skipped;   /* operations already applied */
	/* private */
	aa_plan_node *nodes;
	size_t nnodes, capnodes;
	size_t *table;
	size_t tablecap;
	const aa_snapshot *lender;  /* releases the base bytes it lent */
	struct aa_dir_index *dirs;  /* directory prefixes (src/plan/plan_dirs.h) */
	int fatal;            /* the base could not be read: exit 128, not 1 */
} aa_plan;

#define AA_PLAN_INIT { NULL, 0, 0, 0, NULL, 0, 0, NULL, 0, NULL, NULL, 0 }

/*
 * Plans the whole change set. The plan may point into the change set's
 * contents (whole-file writes are not copied): free the plan first. Returns 0 (plan->changes filled; it may be
 * empty when everything was already applied) or -1 with errors in d.
 */
int aa_plan_build(aa_plan *plan, const aa_changeset *cs,
		  const aa_snapshot *base, const aa_plan_opts *o, aa_diags *d);
void aa_plan_free(aa_plan *plan);
/* How many changes of the plan are written as conflicts (--3way). */
size_t aa_plan_conflicts(const aa_plan *plan);

#endif
