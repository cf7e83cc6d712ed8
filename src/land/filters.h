/*
 * Filter drivers (filters.c): a path whose gitattributes say
 * filter=<name>, with filter.<name>.clean, .smudge or .process
 * configured (git-lfs is one), is held in the index in its clean form
 * and in the work tree in its smudged form. libgit2 runs only its own
 * filters (crlf, ident): a driver runs here through git itself, so that
 * every driver, the long-running .process ones included, runs exactly
 * as git runs it. Only such paths pay for it: one git process each way.
 */
#ifndef AA_LAND_FILTERS_H
#define AA_LAND_FILTERS_H

#include "land/session.h"

typedef enum aa_filter_way {
	AA_FILTER_SMUDGE, /* blob `id` -> *out, the bytes the work tree gets */
	AA_FILTER_CLEAN,  /* data -> blob *id (in the lander's memory), its bytes in *out */
	AA_FILTER_HASH    /* the work-tree file at path -> *id, as git add would make it */
} aa_filter_way;

/*
 * 1 when `path` has a filter driver (its name in *name when name is not
 * NULL), 0 when not, as git decides: the attribute from the base (the
 * work tree's and the index's .gitattributes; --branch: the base
 * commit's), the driver from the configuration. Costs nothing when the
 * configuration names no driver at all.
 */
int aa_filter_driver(aa_session *s, const char *path, aa_buf *name);

/*
 * The one function that runs a filter driver (through git: `git
 * cat-file --filters`, `git hash-object`). 0, or -1 with the reason in
 * *why (the driver failed, or s->opts->no_external_commands refuses to
 * run it). AA_FILTER_CLEAN writes no object to the repository: git
 * writes the cleaned blob into a temporary object directory, from where
 * it goes into the lander's memory (the caller remembers it, so that it
 * is persisted with the landing, and only then).
 */
int aa_filter_run(aa_session *s, aa_filter_way way, const char *path,
		  const char *data, size_t len, git_oid *id, aa_buf *out,
		  aa_buf *why);

/*
 * The planner reads a filtered path in its smudged (work-tree) form:
 * aa_filter_smudged gives the id under which those bytes stand (a blob
 * kept in memory only; the real id when smudging changes nothing) for
 * the base blob `real` at path. aa_filter_real maps such an id back to
 * the blob the index or tree holds (other ids unchanged).
 */
int aa_filter_smudged(aa_session *s, const char *path, const git_oid *real,
		      git_oid *smudged, aa_buf *why);
void aa_filter_real(const aa_session *s, const git_oid *id, git_oid *real);

#endif
