/*
 * Recovery: what a killed run left behind is finished or undone, as
 * git ai-apply --recover does, and a program's own signal handler can
 * drop the index lock of the landing in progress. The repository is the
 * caller's; the messages go to the caller's diagnostics.
 */
#ifndef AIAPPLY_RECOVER_H
#define AIAPPLY_RECOVER_H

#include <git2.h>
#include "aiapply/common.h"

/*
 * --recover: takes the index lock and finishes or undoes a landing that a
 * killed run left (notes in d say what was done). Returns 0 when there was
 * one, 1 when there was nothing to recover, AA_FATAL on failure.
 */
int aa_recover(git_repository *repo, aa_diags *d);

/*
 * Recovers the journals of --branch and --each runs that are gone (this
 * host, pid not alive): their recorded ref locks removed, each
 * suggestion settled (its branch and note both or neither), their pack's
 * `.keep` and journals removed. Notes in d say what was done. Returns
 * how many journals were recovered, or AA_FATAL (one could not be; the
 * others were). The command line runs it before every run.
 */
int aa_refs_recover(git_repository *repo, aa_diags *d);

/*
 * Async-signal-safe: removes the lock (and a journal that records no
 * work-tree change yet) of the running landing. For signal handlers and
 * atexit.
 */
void aa_guard_emergency_cleanup(void);

#endif
