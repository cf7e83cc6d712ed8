/*
 * The revision the answer was written against: the earlier versions of
 * a path (the blob a diff's "index" line names, then the path's
 * first-parent history) and the 3-way merge of byte buffers. The
 * snapshot hands both to the planner as aa_snapshot callbacks; the
 * lander's snapshot (land/snapshot.c) calls them with an aa_history_repo
 * made from its session, so nothing here knows the lander.
 */
#ifndef AA_HISTORY_H
#define AA_HISTORY_H

#include <git2.h>

#include "plan/plan.h"

/*
 * Bounds of one search (Documentation/locating.md, "The revision the
 * answer was written against").
 */
#define AA_HISTORY_MAX_COMMITS  20000
#define AA_HISTORY_MAX_VERSIONS 1000
#define AA_HISTORY_MAX_MSEC     3000

/*
 * Where the versions come from: the repository and the commit the
 * search starts at -- base_commit (borrowed) when set, else HEAD, or
 * nothing when no_head (--branch without --base: an unborn base).
 */
typedef struct aa_history_repo {
	git_repository *repo;
	git_commit *base_commit;
	int no_head;
} aa_history_repo;

/* aa_snapshot.history (ctx is an aa_history_repo). */
int aa_history_versions(void *ctx, const char *path, const char *hint,
			const aa_oid *current, const aa_version_filter *filter,
			aa_version_fn fn, void *payload, char **bound);

/* aa_snapshot.merge3 with git_merge_file over buffers. */
int aa_history_merge3(void *ctx, const char *path, const char *base_label,
		      const char *base, size_t base_len,
		      const char *ours, size_t ours_len,
		      const char *theirs, size_t theirs_len, aa_buf *out);

/*
 * aa_snapshot.merge3_markers: the merged content with git apply --3way's
 * markers (merge.conflictStyle honoured; ctx is an aa_history_repo or
 * NULL).
 */
int aa_history_merge3_markers(void *ctx, const char *path,
			      const char *base, size_t base_len,
			      const char *ours, size_t ours_len,
			      const char *theirs, size_t theirs_len, aa_buf *out);

/*
 * Describes the first conflict of a merge result with markers labelled
 * "current" and "answer" (pure; exported for the unit tests).
 */
int aa_history_describe_conflict(const char *merged, size_t len, aa_buf *out);

#endif
