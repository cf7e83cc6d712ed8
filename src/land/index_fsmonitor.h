/*
 * The index's fsmonitor data (the FSMN extension) as git keeps it
 * through a change of index entries (Documentation/landing.md, "Index
 * access in O(touched)"): what git's tweak_fsmonitor and
 * refresh_fsmonitor do on reading the index (core.fsmonitor a hook: the
 * hook asked, protocol 2 then 1; `true`, the built-in daemon: what git
 * does when it does not answer), then a bit for each entry of the new
 * index that is not known clean, as fill_fsmonitor_bitmap sets it. The
 * rules are git 2.39's fsmonitor.c.
 */
#ifndef AA_LAND_INDEX_FSMONITOR_H
#define AA_LAND_INDEX_FSMONITOR_H

#include <stddef.h>
#include <stdint.h>
#include <git2.h>
#include "aiapply/common.h"

typedef struct aa_fsmn aa_fsmn;

/*
 * What git holds after reading an index of `count` entries whose FSMN
 * extension is data[0..len) (data NULL: none) in `repo`: *out NULL when
 * core.fsmonitor is off (the extension is dropped, as git drops it).
 * Runs the hook as git runs it. 0, or -1 out of memory (a hook that
 * fails is git's "everything may have changed", not an error).
 */
int aa_fsmn_read(aa_fsmn **out, git_repository *repo,
		 const unsigned char *data, size_t len, size_t count);
void aa_fsmn_free(aa_fsmn *f);

/* The old index's entry number `pos` (its path and mode) is not known clean. */
int aa_fsmn_old_dirty(const aa_fsmn *f, size_t pos, const char *path,
		      unsigned mode);

/*
 * git's add_fsmonitor ran (no usable extension before): an untracked
 * cache made for another work tree is replaced (add_untracked_cache).
 */
int aa_fsmn_added(const aa_fsmn *f);

/* The paths the monitor named, for the untracked cache (no trailing '/'). */
size_t aa_fsmn_npaths(const aa_fsmn *f);
const char *aa_fsmn_path(const aa_fsmn *f, size_t i);

/* The entries of the new index, in order: each one dirty or not. */
void aa_fsmn_mark(aa_fsmn *f, uint64_t pos, int dirty);

/* The extension's data, appended to out. 0, or -1 out of memory. */
int aa_fsmn_write(aa_fsmn *f, aa_buf *out);

#endif
