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

/*
 * Writes object `id` (type, data[0..len)) under objects_dir (the
 * ".git/objects" directory) in git's loose format: zlib of "<type>
 * <size>\0<data>", through <objects>/<xx>/tmp_obj_XXXXXX (the name git
 * and `git prune` know), fsynced, renamed into place, its directory
 * fsynced. On failure the temporary file is removed (the message says so
 * when even that fails); returns 0 or AA_FATAL with the reason in d.
 */
int aa_loose_write(const char *objects_dir, const git_oid *id,
		   git_object_t type, const void *data, size_t len,
		   aa_diags *d);

#endif
