/*
 * A pack of objects written by us, for --each: every new object of every
 * suggestion in one file instead of a loose file (create, fsync, rename,
 * directory fsync) each. No deltas and no libgit2 indexer: the objects
 * are in memory and their ids known, so the index is written alongside
 * (git's pack v2 and index v2 formats, Documentation/gitformat-pack).
 */
#ifndef AA_PACK_H
#define AA_PACK_H

#include <git2.h>
#include "aiapply/common.h"

/*
 * Writes the objects ids[0..n) (read from odb; duplicates allowed) as
 * objects/pack/pack-<sum>.pack and .idx under objects_dir: temporary
 * files, each fsynced, renamed into place (the pack first: the index
 * makes it visible), then the directory fsynced. On failure nothing of
 * ours stays; returns 0 or AA_FATAL with the reason in d.
 */
int aa_pack_write(const char *objects_dir, git_odb *odb, const git_oid *ids,
		  size_t n, aa_diags *d);

#endif
