/*
 * The journal of a --branch or --each run's ref updates
 * (Documentation/safety.md, "Suggestion refs: journal and recovery").
 * Before the pack of the new objects becomes visible and before the
 * first ref lock, the run records, fsynced with its
 * directory: its pid and host, the `.keep` of its pack, and each
 * suggestion's moves (its branch from old to new, the notes ref from old
 * to new). While it runs it appends (not fsynced) each ref lock it takes
 * (device and inode) and releases. A later run, finding the journal of a
 * process that is gone, removes the locks recorded as still held, brings
 * each suggestion to both its branch and its note or neither, removes
 * the `.keep` and the journal.
 *
 * The journal is <commondir>/ai-apply/refs-<pid>@<host>.
 */
#ifndef AA_REFJOURNAL_H
#define AA_REFJOURNAL_H

#include <git2.h>
#include "aiapply/common.h"
#include "land/fsync.h"

/* One suggestion's refs: its branch and, when has_note, the notes ref. */
typedef struct aa_refmove {
	char *refname;          /* refs/heads/<branch> */
	int had_old;            /* the branch existed (--force) ... */
	git_oid old;            /* ... here */
	git_oid new_commit;
	int has_note;
	int had_notes;          /* the notes ref existed ... */
	git_oid notes_old;      /* ... here */
	git_oid notes_new;
} aa_refmove;

typedef struct aa_refjournal aa_refjournal;

/*
 * A journal for this run (nothing on disk yet); it becomes the one the
 * refdb wrapper (aa_refjournal_attach) records locks into. f (copied):
 * whether the journal is made durable (AA_FSYNC_JOURNAL). NULL when out
 * of memory.
 */
aa_refjournal *aa_refjournal_new(git_repository *repo, const aa_fsync *f);
/* Adds a move (copied); its index, or -1 when out of memory. */
long aa_refjournal_add(aa_refjournal *j, const aa_refmove *m);
aa_refmove *aa_refjournal_move(aa_refjournal *j, size_t i);
/* Adds a `.keep` file (full path) the run is about to create. */
int aa_refjournal_add_keep(aa_refjournal *j, const char *path);
/* The journal's directory (<commondir>/ai-apply). */
const char *aa_refjournal_dir(const aa_refjournal *j);
/*
 * Writes the journal whole, fsynced with its directory (not with
 * core.fsync=none). 0 or AA_FATAL.
 */
int aa_refjournal_write(aa_refjournal *j, aa_diags *d);
/*
 * After a failed update of move i (its locks released): completes it
 * (both refs) when its objects exist and the refs allow, else rolls it
 * back (neither). 1 completed, 0 rolled back (or nothing had moved),
 * AA_FATAL when neither was possible (the journal is then kept for the
 * next run); notes in d say which.
 */
int aa_refjournal_settle(aa_refjournal *j, size_t i, aa_diags *d);
/*
 * A lock of ours that could not be removed after a ref update: the error
 * of the last ref update, or NULL; cleared by the call.
 */
char *aa_refjournal_take_leftover(aa_refjournal *j);
/*
 * The run is over: the `.keep` files removed, then the journal (both
 * kept when a move could not be settled, or a lock of ours is left).
 * Frees j. 0 or AA_FATAL.
 */
int aa_refjournal_finish(aa_refjournal *j, aa_diags *d);

/*
 * Puts in front of the repository's refdb a wrapper that records, in the
 * current journal, each ref lock taken and released, removes a lock of
 * ours that libgit2 failed to remove (its unlink's error is ignored
 * there), and calls the test hook "ref" after each ref written. Refs and
 * reflogs are fsynced (by libgit2) when f has core.fsync's `reference`.
 * 0 or -1.
 */
int aa_refjournal_attach(git_repository *repo, const aa_fsync *f);

/*
 * Recovers the journals of runs that are gone (this host, pid not
 * alive): their recorded locks removed, each suggestion settled (both
 * or neither), their `.keep` files and journals removed. Notes in d say
 * what was done. Returns how many journals were recovered, or AA_FATAL
 * (one could not be; the others were).
 */
int aa_refs_recover(git_repository *repo, aa_diags *d);

#endif
