/*
 * Landing: the only code that writes. A base opens the repository's
 * base (index or tree) once, read only; a lander (aa_session) on it gives
 * the planner a snapshot, routes every new object to an in-memory odb,
 * and lands a plan atomically: objects are persisted only when
 * everything else succeeded, before any ref or index write; the work
 * tree is restored if writing it fails.
 */
#ifndef AIAPPLY_LAND_H
#define AIAPPLY_LAND_H

#include "land/session.h"

/*
 * AA_FATAL with the reason in d unless `name` is a branch name `git
 * check-ref-format --branch` accepts (aa_branch_name_check), else 0.
 * aa_lander_begin and aa_session_open check opts->branch with it.
 */
int aa_land_check_branch(const char *name, aa_diags *d);

/*
 * Opens the base for opts->mode (opts->base for --branch). Returns
 * AA_OK, AA_REJECTED or AA_FATAL (environment problem), message in d.
 */
int aa_base_open(aa_base *b, git_repository *repo, const aa_land_opts *opts,
		 aa_diags *d);
void aa_base_close(aa_base *b);
/*
 * --branch (--predictions): the open base moved to the commit
 * b->opts->base names now, keeping everything else -- the in-memory
 * store, the ref journal, the notes tip, the identities -- so that the
 * landers of many bases write one pack and land in one ref round. The
 * commit and tree moved from stay alive for the landers begun on them
 * until aa_base_release. Same return convention as aa_base_open (on
 * failure the base has no commit until the next retarget).
 */
int aa_base_retarget(aa_base *b, aa_diags *d);
/* The commits and trees aa_base_retarget moved from, released. */
void aa_base_release(aa_base *b);

/*
 * Starts a lander on an open base that stays open longer than it
 * (--branch: checks opts->branch). Same return convention.
 */
int aa_lander_begin(aa_session *s, aa_base *base, const aa_land_opts *opts,
		    aa_diags *d);

/*
 * aa_base_open and aa_lander_begin in one: a session owning its base.
 * Same return convention.
 */
int aa_session_open(aa_session *s, git_repository *repo,
		    const aa_land_opts *opts, aa_diags *d);
/*
 * Lands the plan: objects written (loose, fsynced), then the refs or
 * the index. Same return convention as aa_session_open.
 */
int aa_land(aa_session *s, const aa_plan *plan, aa_diags *d);
/* The base index's checksum (its trailer), NULL when the base is a tree. */
const git_oid *aa_base_index_checksum(const aa_base *b);
/* Ends a lander; closes the base when it is its own. */
void aa_session_close(aa_session *s);

/*
 * --each, in three steps over landers on one base. aa_land_prepare:
 * --branch only: checks the branch, builds the tree, commit and note
 * (on the note of the lander prepared before) in memory. aa_land_persist:
 * the objects of every prepared lander to disk in one pack, fsynced.
 * aa_land_finish: one prepared lander's branch and note refs in one
 * transaction (a note whose parent did not land is rebuilt on the notes
 * ref's tip). Same return convention.
 */
int aa_land_prepare(aa_session *s, const aa_plan *plan, aa_diags *d);
int aa_land_persist(aa_session *const *v, size_t n, aa_diags *d);
int aa_land_finish(aa_session *s, aa_diags *d);
/*
 * --each: aa_land_finish of every lander in v[0..n) in one ref round
 * (every branch and the notes ref in one transaction), each one still
 * all or nothing; r[k] is lander k's result, said in d[k]. A lander whose
 * branch another process holds, or every one when the notes ref stays
 * held, lands on its own (aa_land_finish, with its retries).
 */
void aa_land_finish_each(aa_session *const *v, aa_diags *const *d, int *r,
			 size_t n);
/*
 * After the last aa_land_finish of a base: the pack's `.keep` and the
 * run's ref journal removed (kept when a suggestion could not be
 * settled; the next run finishes it). 0 or AA_FATAL.
 */
int aa_land_done(aa_base *b, aa_diags *d);

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
