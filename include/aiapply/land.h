/*
 * Landing: the only code that writes. A session opens the repository's
 * base (index or tree) as a snapshot for the planner, routes every new
 * object to an in-memory odb, and lands a plan atomically: objects are
 * persisted only when everything else succeeded, before any ref or index
 * write; the work tree is restored if writing it fails.
 */
#ifndef AIAPPLY_LAND_H
#define AIAPPLY_LAND_H

#include <git2.h>
#include "plan.h"

typedef enum aa_land_mode {
	AA_LAND_INDEX,   /* default: index + work tree */
	AA_LAND_CACHED,  /* --cached: index only */
	AA_LAND_BRANCH,  /* --branch=<name>: a commit on a new branch */
	AA_LAND_CHECK    /* --check: nothing written */
} aa_land_mode;

typedef struct aa_land_opts {
	aa_land_mode mode;
	const char *branch;   /* --branch */
	const char *base;     /* --base (default HEAD) */
	const char *message;  /* -m: the commit's subject (and body) */
	/*
	 * --branch: trailer lines ("AI-Answer: a.md\n...") that end the
	 * commit message after a blank line, or NULL (src/apply.c).
	 */
	const char *trailers;
	/*
	 * --branch: the answer text, stored as the new commit's note under
	 * refs/notes/ai-apply, the two refs updated in one transaction;
	 * NULL: no note.
	 */
	const char *note;
	size_t note_len;
	int force;            /* --force */
	int check_worktree;   /* refuse paths beyond work-tree links */
} aa_land_opts;

typedef struct aa_session {
	git_repository *repo;
	git_odb *odb;
	git_odb_backend *mempack;
	git_index *index;        /* index-based modes */
	struct aa_guard *guard;  /* default, --cached: index lock and journal */
	git_oid index_checksum;
	git_commit *base_commit; /* --branch: the parent (NULL when unborn) */
	git_tree *base_tree;     /* --branch: the base tree (NULL = empty) */
	aa_snapshot snap;
	const aa_land_opts *opts;
	git_oid *created;        /* objects written to the mempack */
	size_t ncreated, capcreated;
	git_oid commit;          /* --branch: the new commit */
	int hold_error;          /* the last error came from the environment */
} aa_session;

/*
 * Opens the base for opts->mode. Returns AA_OK, AA_REJECTED (message in d)
 * or AA_FATAL (environment problem, message in d).
 */
int aa_session_open(aa_session *s, git_repository *repo,
		    const aa_land_opts *opts, aa_diags *d);
/* Lands the plan. Same return convention as aa_session_open. */
int aa_land(aa_session *s, const aa_plan *plan, aa_diags *d);
void aa_session_close(aa_session *s);

/*
 * --recover: takes the index lock and finishes or undoes a landing that a
 * killed run left (notes in d say what was done). Returns 0 when there was
 * one, 1 when there was nothing to recover, AA_FATAL on failure.
 */
int aa_recover(git_repository *repo, aa_diags *d);

/* New-file content of a change, borrowed (reads the blob if needed). */
int aa_change_content(aa_session *s, const aa_change *c, git_blob **blob,
		      const char **data, size_t *len);

#endif
