/*
 * The planner's directory index: for every directory prefix of a path
 * the overlay holds, how many overlay files under it were added (live,
 * not in the base) and how many base files under it were deleted, and
 * the added files themselves. With it, "is anything live under d/?" and
 * "list the files under d/" cost what the answer costs, not a scan of
 * every path the plan touched (Documentation/landing.md, "Planner
 * rules": linear planning).
 */
#ifndef AIAPPLY_PLAN_DIRS_H
#define AIAPPLY_PLAN_DIRS_H

#include <stddef.h>

typedef struct aa_dir_entry {
	char *dir;          /* "a/b" for files under "a/b/" */
	size_t added;       /* live overlay files under dir/ not in the base */
	size_t removed;     /* base files under dir/ the overlay deleted */
	long base_count;    /* base files under dir/; -1 = not counted yet */
	size_t *listed;     /* nodes ever added under dir/ (not in the base) */
	size_t nlisted, caplisted;
	int wt_clear;       /* dir and its parents are no links in the work tree */
} aa_dir_entry;

typedef struct aa_dir_index {
	aa_dir_entry *v;
	size_t n, cap;
	size_t *table;      /* open addressing: index into v, or (size_t)-1 */
	size_t tablecap;
} aa_dir_index;

/* The entry for directory `dir` (no trailing '/'), or NULL when none. */
aa_dir_entry *aa_dir_index_find(const aa_dir_index *ix, const char *dir);

/* The entry for the first `len` bytes of `path`, created when missing. */
aa_dir_entry *aa_dir_index_get(aa_dir_index *ix, const char *path, size_t len);

/*
 * Adds `added` and `removed` (each -1, 0 or +1) to every leading
 * directory of `path`, creating entries; when `list` is set, records
 * `node` in each of them. Returns -1 on out-of-memory.
 */
int aa_dir_index_update(aa_dir_index *ix, const char *path, int added,
			int removed, int list, size_t node);

void aa_dir_index_free(aa_dir_index *ix);

#endif
