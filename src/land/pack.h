/*
 * A pack of objects written by us, for --each: every new object of every
 * suggestion in one file instead of a loose file (create, fsync, rename,
 * directory fsync) each. No delta search and no libgit2 indexer: the
 * objects are in memory and their ids known, so the index is written
 * alongside (git's pack v2 and index v2 formats, gitformat-pack(5)). A
 * tree whose older version is known is stored as a delta against it
 * (a root tree of 1,000 entries with 3 changed: ~150 bytes, not 30 KiB).
 */
#ifndef AA_PACK_H
#define AA_PACK_H

#include <git2.h>
#include "aiapply/common.h"
#include "land/fsync.h"

typedef struct aa_pack_object {
	git_oid id;
	git_oid base; /* its older version, a delta base; zero: none */
} aa_pack_object;

/*
 * Writes the objects v[0..n) (read from the backend mem when it has
 * them, else from odb; duplicates allowed) as
 * objects/pack/pack-<sum>.pack and .idx under objects_dir: temporary
 * files, each made durable as f says (core.fsync's `pack` and
 * `pack-metadata`), renamed into place (the pack first: the index makes
 * it visible), then the directory made durable when either is. A tree with a base is
 * a delta against it, the base then written whole in the same pack
 * (deltas are one level deep: a base that is itself a delta is replaced
 * by its own base). level: zlib's, 0 (stored) to 9. keep: NULL, or the
 * pack is kept (below). On failure nothing of ours stays; returns 0 or AA_FATAL with the reason in d.
 */
/*
 * Keeping the pack until the refs that reach it are written
 * (Documentation/safety.md, "Kept packs"):
 * `record` is told the path of `pack-<sum>.keep` before it is created
 * (the run's journal names it, so that a kill leaves nothing unnamed);
 * the keep, holding `reason` (a line, as git's index-pack --keep=<msg>
 * writes it), is created before the pack and its index are renamed into
 * place, so that `git repack -a -d` and `git gc` never see the pack
 * without it. The caller removes it once the refs are written. It is
 * never fsynced (nor is git's index-pack's): it guards against a `git
 * gc` running meanwhile, which a crash of the machine ends too, and the
 * journal that names it has the next run remove it.
 */
typedef struct aa_pack_keep {
	const char *reason;
	/*
	 * Where the temporary files are written before they are renamed into
	 * objects/pack (NULL: there): out of the reach of `git gc
	 * --prune=now`, which removes every tmp_* file of objects/pack. Used
	 * only when on the same file system.
	 */
	const char *tmp_dir;
	int (*record)(void *ctx, const char *keep_path, aa_diags *d);
	void *ctx;
} aa_pack_keep;

int aa_pack_write(const char *objects_dir, git_odb *odb, git_odb_backend *mem,
		  const aa_pack_object *v, size_t n, int level,
		  const aa_fsync *f, const aa_pack_keep *keep, aa_diags *d);

#endif
