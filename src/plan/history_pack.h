/*
 * The history search's reader of the repository's packs: each version
 * of a file is made once, from the delta base it was made from last.
 * libgit2 keeps no delta base over 1 MiB, so each version it reads
 * inflates its whole base again and applies the chain of deltas on top:
 * walking 49 versions of a 5 MiB file inflated the same bases 49 times.
 * Here a whole object is inflated once and kept, a delta is kept as its
 * instructions (never made unless a caller asks for its bytes, then
 * read through the chain into one buffer), within a budget of bytes,
 * least recently used out. Anything this reader does not know (loose objects,
 * alternates, index v1, a damaged entry) is left to libgit2.
 */
#ifndef AA_HISTORY_PACK_H
#define AA_HISTORY_PACK_H

#include <stddef.h>
#include <git2.h>

#include "plan/snapshot.h"

typedef struct aa_hpack aa_hpack;

/* NULL when the repository's packs cannot be listed (libgit2 reads all). */
aa_hpack *aa_hpack_open(git_repository *repo);
/*
 * The object `id`: 0 with its bytes in *data (valid until the next call
 * or aa_hpack_close), 1 when this reader cannot make it (ask libgit2).
 */
int aa_hpack_read(aa_hpack *hp, const git_oid *id, const char **data,
		  size_t *len);
/*
 * The object `id` of any type (git's numbers: 1 commit, 2 tree, 3 blob):
 * 0 with its type and bytes (valid until the next call), 1 when this
 * reader cannot make it.
 */
int aa_hpack_object(aa_hpack *hp, const git_oid *id, int *type,
		    const char **data, size_t *len);
/*
 * Whether the blob `id` holds the filter's needles (aa_filter_holds()'s
 * rule), decided from the places of each needle in the delta bases and
 * the few bytes around each delta's inserts and boundaries, without
 * making the version: 1 it holds them, 0 it lacks one, -1 this reader
 * cannot tell (make the bytes and test them). One filter per reader.
 */
int aa_hpack_holds(aa_hpack *hp, const git_oid *id, const aa_version_filter *f);
void aa_hpack_close(aa_hpack *hp);

#endif
