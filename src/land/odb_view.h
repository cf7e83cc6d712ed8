/*
 * The object database a base reads and a lander writes through: the
 * repository's objects read through a backend that never rescans the
 * pack directory on a miss (libgit2 checks that an object is absent
 * before writing it, and every such miss re-read objects/pack: a new
 * object is always a miss), and an in-memory store in front that every
 * write goes to (git2/sys/mempack.h). A read that misses still rescans
 * (the inner odb does), so objects packed meanwhile are found.
 */
#ifndef AA_ODB_VIEW_H
#define AA_ODB_VIEW_H

#include <git2.h>

/*
 * Puts the view in place as repo's object database; *out (a reference
 * for the caller) and *mempack (owned by *out). 0, or -1 with libgit2's
 * error set.
 */
int aa_odb_view_open(git_odb **out, git_odb_backend **mempack,
		     git_repository *repo);

#endif
