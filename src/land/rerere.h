/*
 * --3way's conflicts and git's rerere: after a landing that wrote
 * conflict markers into the work tree, a recorded resolution is
 * replayed as git apply --3way replays it (apply.c runs rerere when
 * not --cached). rerere is git's (its rr-cache format, its conflict
 * hashing): the tool runs `git rerere` rather than copy it.
 * Documentation/landing.md, "--3way and rerere".
 */
#ifndef AA_LAND_RERERE_H
#define AA_LAND_RERERE_H

#include "aiapply/common.h"
#include "land/session.h"
#include "plan/plan_types.h"

/*
 * After a landing of `plan` in the index and work tree: when it left
 * conflicts and rerere is enabled (rerere.enabled, or unset with an
 * rr-cache directory, git's rule), runs `git rerere` and passes on
 * what it said as notes ("Resolved 'f' using previous resolution.").
 * Never fails the landing, which is done: a rerere that could not run
 * is a warning, and with no_external_commands a note says to run it.
 */
void aa_rerere_after_landing(aa_session *s, const aa_plan *plan, aa_diags *d);

#endif
