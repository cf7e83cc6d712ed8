/*
 * Recovery as a program calls it: what the lock journal
 * (src/land/journal.c) and the ref journal (src/land/refjournal.c) left
 * of a killed run, finished or undone; and the cleanup a signal handler
 * runs. The command line reaches the land/ stage only through these.
 */
#include "aiapply/recover.h"
#include "land/journal.h"
#include "land/land.h"
#include "land/refjournal.h"

int aa_apply_recover_refs(git_repository *repo, aa_diags *d)
{
	return aa_refs_recover(repo, d);
}

int aa_apply_recover(git_repository *repo, aa_diags *d)
{
	return aa_recover(repo, d);
}

void aa_apply_emergency_cleanup(void)
{
	aa_guard_emergency_cleanup();
}
