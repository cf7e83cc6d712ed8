/*
 * Partial clones (promisor.c): a blob the clone lacks is fetched as
 * git's promisor-remote.c fetches it, through git itself.
 */
#ifndef AA_LAND_PROMISOR_H
#define AA_LAND_PROMISOR_H

#include "land/session.h"

/*
 * Makes blob `id` (needed at `path`) present: 0 when it already was or
 * a promisor remote gave it; -1 with the reason in *why when it is
 * missing and cannot be fetched -- not a partial clone, --check (which
 * writes no object: the message names the command that fetches it),
 * no_external_commands, or the fetch failed.
 */
int aa_promisor_ensure(aa_session *s, const git_oid *id, const char *path,
		       aa_buf *why);

#endif
