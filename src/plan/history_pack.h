/*
 * The history search's reader of the repository's packs: each version
 * of a file is made once, from the delta base it was made from last.
 * libgit2 keeps no delta base over 1 MiB, so each version it reads
 * inflates its whole base again and applies the chain of deltas on top:
 * walking 49 versions of a 5 MiB file inflated the same bases 49 times.
 * Here the objects a search made stay in a small cache (by pack and
 * offset), so a version stored as a delta against one read before costs
 * the delta alone. Anything this reader does not know (loose objects,
 * alternates, index v1, a damaged entry) is left to libgit2.
 */
#ifndef AA_HISTORY_PACK_H
#define AA_HISTORY_PACK_H

#include <stddef.h>
#include <git2.h>

typedef struct aa_hpack aa_hpack;

/* NULL when the repository's packs cannot be listed (libgit2 reads all). */
aa_hpack *aa_hpack_open(git_repository *repo);
/*
 * The object `id`: 0 with its bytes in *data (valid until the next call
 * or aa_hpack_close), 1 when this reader cannot make it (ask libgit2).
 */
int aa_hpack_read(aa_hpack *hp, const git_oid *id, const char **data,
		  size_t *len);
void aa_hpack_close(aa_hpack *hp);

#endif
