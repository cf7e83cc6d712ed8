/*
 * Loose objects written by us, not by libgit2's loose backend: libgit2
 * 1.5 ignores a failed unlink of its temporary file after linking it into
 * place (p_rename) and never fsyncs by default, so a temporary could stay
 * behind with exit 0 and an object could be lost on a crash after the
 * journal named it (Documentation/safety.md, "New objects: loose objects
 * written by us").
 */
#ifndef AA_LOOSE_H
#define AA_LOOSE_H

#include <git2.h>
#include "aiapply/common.h"
#include "land/fsync.h"

/*
 * The loose objects of one landing: each written under
 * objects_dir (the ".git/objects" directory) in git's loose format, zlib
 * of "<type> <size>\0<data>", through <objects>/<xx>/tmp_obj_XXXXXX (the
 * name git and `git prune` know), made durable as core.fsync's
 * `loose-object` says (land/fsync.h), renamed into place, its directory
 * made durable the same way. Under core.fsyncMethod=batch (as git's
 * bulk check-in) each temporary file is only written out, and
 * aa_loose_end flushes once (a full fsync of the last one) before any is
 * renamed into place, so that a name never appears before its content is
 * on disk.
 */
typedef struct aa_loose_set {
	const char *objects_dir;
	const aa_fsync *fsync;
	char **tmp, **final;    /* batch: written out, not yet in place */
	size_t n, cap;
} aa_loose_set;

void aa_loose_begin(aa_loose_set *set, const char *objects_dir,
		    const aa_fsync *f);
/*
 * Writes object `id` (type, data[0..len)). On failure its temporary file
 * is removed (the message says so when even that fails); returns 0 or
 * AA_FATAL with the reason in d.
 */
int aa_loose_write(aa_loose_set *set, const git_oid *id, git_object_t type,
		   const void *data, size_t len, aa_diags *d);
/*
 * Ends the set: when `commit`, the batch flushed and renamed into place
 * (0, or AA_FATAL with the reason in d); else, or on failure, the
 * temporary files still ours removed. Frees what set holds.
 */
int aa_loose_end(aa_loose_set *set, int commit, aa_diags *d);

#endif
