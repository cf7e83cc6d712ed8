/* The objects a lander makes (objects.c). */
#ifndef AA_LAND_OBJECTS_H
#define AA_LAND_OBJECTS_H

#include "land/session.h"

/*
 * Records a new object the lander made (in the mempack) and the object
 * it replaces (base: the same tree before the change, or NULL), which
 * --each's pack stores it as a delta against. -1 when out of memory.
 */
int aa_remember_version(aa_session *s, const git_oid *oid, const git_oid *base);
/* The blob id of a change's new content, writing it to the mempack. */
int aa_change_blob(aa_session *s, const aa_change *c, git_oid *out,
		   aa_diags *d);

/*
 * The blob of bytes in their work-tree form at `path`, written to the
 * mempack: what the clean filter makes of them when the path has a
 * filter driver (not a link), else the bytes themselves.
 */
int aa_worktree_bytes_blob(aa_session *s, const char *path, int is_link,
			   const char *data, size_t len, git_oid *out,
			   aa_diags *d);

/* The git object id of a planner's object id. */
void aa_oid_to_git(git_oid *out, const aa_oid *in);

#endif
