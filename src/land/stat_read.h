/*
 * The base's bytes of a path read from the work tree instead of inflated
 * from the object database, where git itself would take the file for
 * the index entry's blob: the entry's stat data matches the file (git's
 * ie_match_stat), the entry is not racily clean, and no conversion
 * stands between the two (no crlf/eol, ident, filter driver or
 * working-tree-encoding). See Documentation/locating.md, "Cost of
 * locating".
 */
#ifndef AA_LAND_STAT_READ_H
#define AA_LAND_STAT_READ_H

#include "land/session.h"

/*
 * 0: *data and *len hold the file's bytes (read into memory),
 * released with aa_stat_read_release(*handle); 1: not here (read the
 * blob). Never an error: anything unexpected is 1.
 */
int aa_stat_read_lend(aa_session *s, const char *path, const aa_oid *oid,
		      const char **data, size_t *len, void **handle);
void aa_stat_read_release(void *handle);

#endif
