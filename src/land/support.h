/*
 * Repository shapes the libgit2 in use cannot read (support.c): a
 * message naming what is unsupported and what to do, in place of
 * libgit2's own words.
 */
#ifndef AA_LAND_SUPPORT_H
#define AA_LAND_SUPPORT_H

#include "util/util.h"

/*
 * When libgit2's error `why` (opening the repository or reading its
 * index) says the repository uses something it cannot read (an index
 * extension, a repository format extension), appends an explanation to
 * out: what it is and what to do. Returns 1 then, 0 when `why` is
 * another error (out unchanged), -1 out of memory.
 */
int aa_unsupported_explain(const char *why, aa_buf *out);

#endif
