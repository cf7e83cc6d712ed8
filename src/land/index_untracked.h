/*
 * The index's untracked cache (the UNTR extension) kept as git keeps it
 * through a change of index entries (Documentation/landing.md, "Index
 * access in O(touched)"): parsed whole, each touched path's directories
 * invalidated as git's untracked_cache_invalidate_path does, written
 * again as write_untracked_extension writes it; core.untrackedCache
 * honoured as git's tweak_untracked_cache honours it. The rules are
 * git 2.39's dir.c.
 */
#ifndef AA_LAND_INDEX_UNTRACKED_H
#define AA_LAND_INDEX_UNTRACKED_H

#include <stddef.h>
#include <git2.h>
#include "aiapply/common.h"

typedef struct aa_untr aa_untr;

/*
 * Parses the extension's data[0..len) (which must outlive the result).
 * 0 with *out, NULL when the data does not parse (git drops such an
 * extension), or -1 out of memory.
 */
int aa_untr_parse(aa_untr **out, const unsigned char *data, size_t len);
void aa_untr_free(aa_untr *u);

/*
 * git's untracked_cache_invalidate_path: the directories of `path` that
 * can have changed lose their untracked names and their validity.
 * `checked`: the path is known to be valid (the index's own paths);
 * else it is checked as git's verify_path does first. -1 out of memory.
 */
int aa_untr_invalidate(aa_untr *u, const char *path, int checked);

/* The extension's data, appended to out. 0, or -1 out of memory. */
int aa_untr_write(const aa_untr *u, aa_buf *out);

/*
 * What the index written for `repo` holds, from the old index's cache
 * (*u, NULL when it had none or it did not parse), as git's
 * tweak_untracked_cache decides with core.untrackedCache (and
 * feature.manyFiles): false drops it; true keeps one made for this work
 * tree and system, and otherwise puts a new empty one in its place;
 * "keep" (or unset, or any other word) leaves it as it is.
 * `fsmonitor_start`: git's add_fsmonitor instead, which replaces a cache
 * made for another work tree and adds none. 0, or -1 out of memory or
 * libgit2's error.
 */
int aa_untr_configure(aa_untr **u, git_repository *repo, int fsmonitor_start);

#endif
