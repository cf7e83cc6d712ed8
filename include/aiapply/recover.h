/*
 * Recovery: what a killed run left behind is finished or undone, as
 * git ai-apply --recover does, and a program's own signal handler can
 * drop the index lock of the landing in progress (src/workflow/recover.c).
 * The repository is the caller's; the messages go to the caller's
 * diagnostics.
 */
#ifndef AIAPPLY_RECOVER_H
#define AIAPPLY_RECOVER_H

#include <git2.h>
#include "aiapply/common.h"

/*
 * Settles the suggestion refs of --branch/--each runs that were killed
 * (this host, process gone): their recorded ref locks removed, each
 * suggestion's branch and note both or neither, their pack's `.keep`
 * and journals removed, as every run of the command does first. Returns
 * how many runs it settled, or AA_FATAL (one could not be; the others
 * were).
 */
int aa_apply_recover_refs(git_repository *repo, aa_diags *d);

/*
 * --recover's landing part: takes the index lock and finishes or undoes
 * a landing a killed run left. Returns 0 when there was one, 1 when
 * there was nothing to recover, AA_FATAL on failure. Notes in d say
 * what was done.
 */
int aa_apply_recover(git_repository *repo, aa_diags *d);

/*
 * Async-signal-safe: removes the index lock (and a journal recording no
 * change yet) of the landing under way. For a program's signal handlers
 * and atexit, so that a signal that ends it leaves no lock behind.
 */
void aa_apply_emergency_cleanup(void);

#endif
