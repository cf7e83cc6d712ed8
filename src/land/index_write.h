/*
 * The new index streamed from the old one (Documentation/landing.md,
 * "Index access in O(touched)"): the old file's entries copied, those of
 * the touched paths replaced by what the landing's in-memory index holds
 * for them, the extensions kept or dropped as the section says, the
 * SHA-1 trailer from OpenSSL's libcrypto.
 */
#ifndef AA_LAND_INDEX_WRITE_H
#define AA_LAND_INDEX_WRITE_H

#include <stddef.h>
#include <git2.h>
#include "land/index_read.h"

typedef struct aa_ixstream {
	aa_ixread *old;           /* the index as it was read */
	git_index *now;           /* the touched paths' entries (all stages) */
	const char **paths;       /* the touched paths, sorted as the index is, unique */
	size_t npaths;
	git_repository *repo;     /* racily clean entries are checked in its work tree */
} aa_ixstream;

/*
 * Sorts and dedups v[0..*n) in the index's order (path bytes), in place.
 */
void aa_ixstream_sort_paths(const char **v, size_t *n);

/*
 * How many entries the new index will hold: the landing's index must
 * hold as many, else it changed a path outside st->paths.
 */
size_t aa_ixstream_count(const aa_ixstream *st);

/*
 * Writes the new index to fd from its current position. 0, or -1 with
 * the reason in why[] (errno for a failed write).
 */
int aa_ixstream_write(const aa_ixstream *st, int fd, char *why, size_t whylen);

#endif
