/*
 * The landing guard of the index modes: git's index.lock, held from before
 * the index is read until the new index is renamed into place, and a
 * journal under the git dir that lets a later run finish or undo a landing
 * that was killed half way (Documentation/safety.md, "The landing
 * journal", "Recovery").
 */
#ifndef AA_JOURNAL_H
#define AA_JOURNAL_H

#include <signal.h>
#include <git2.h>
#include "aiapply/common.h"
#include "land/fsync.h"

typedef struct aa_guard aa_guard;

/* One path the landing changes: mode 0 means absent. */
typedef struct aa_jentry {
	char *path;
	unsigned old_mode, new_mode;
	git_oid old_id, new_id;
	/*
	 * --3way: the new index holds stages 1-3 for the path (no stage 0;
	 * new_id is the work tree's content with markers); theirs_id is
	 * stage 3's blob.
	 */
	int conflict;
	git_oid theirs_id;
} aa_jentry;

/*
 * Takes `<index>.lock` (O_EXCL). A journal left by a killed run is
 * recovered first (its stale lock is recognised and replaced). Returns 0,
 * or AA_FATAL (message in d). *recovered says whether a journal was
 * found (for --recover). f (copied) says what is made durable: the
 * journal (AA_FSYNC_JOURNAL) and the new index (AA_FSYNC_INDEX), each
 * with its directory.
 */
int aa_guard_open(aa_guard **out, git_repository *repo, const aa_fsync *f,
		  int *recovered, aa_diags *d);
/* The private index file to read and write through libgit2. */
const char *aa_guard_index_path(const aa_guard *g);
/* The guard's directory (<gitdir>/ai-apply). */
const char *aa_guard_dir(const aa_guard *g);
/*
 * A large landing's pack is kept (`.keep`) until the index names its
 * objects: its path goes in the next journal written, is removed after
 * the commit point, on failure, or by the recovery. -1 out of memory.
 */
int aa_guard_add_keep(aa_guard *g, const char *path);
/*
 * Records the paths about to change, durably; from here on SIGINT, SIGTERM,
 * SIGHUP and SIGPIPE are held back until aa_guard_done/aa_guard_close.
 */
int aa_guard_journal(aa_guard *g, const aa_jentry *v, size_t n, aa_diags *d);
/*
 * Copies the private index (written by libgit2) into the lock, fsyncs it
 * (core.fsync's `index`) and renames it onto the index: the commit
 * point. Removes the journal.
 */
int aa_guard_commit(aa_guard *g, aa_diags *d);
/*
 * The same, the new index written into the lock by `writer` (to the fd;
 * 0, or -1 with the reason in why[]) instead of copied from the private
 * one: the streaming write (land/index_write.h).
 */
typedef int aa_guard_writer(void *ctx, int fd, char *why, size_t whylen);
int aa_guard_commit_with(aa_guard *g, aa_guard_writer *writer, void *ctx,
			 aa_diags *d);
/*
 * Keeps the journal on disk for `git ai-apply --recover` (the work tree
 * could not be restored).
 */
void aa_guard_keep_journal(aa_guard *g);
/* Releases the lock if still held, removes what is ours; NULL is fine. */
void aa_guard_close(aa_guard *g);

/*
 * Async-signal-safe: removes the lock (and a journal that records no
 * work-tree change yet) of the running landing. For signal handlers and
 * atexit.
 */
void aa_guard_emergency_cleanup(void);

/*
 * Blocks the signals a landing's end waits for (INT, TERM, HUP, PIPE,
 * QUIT: the index landing and the ref updates finish first, then the
 * signal ends the run); the old mask in *saved. 1 when blocked.
 */
int aa_block_landing_signals(sigset_t *saved);

#endif
