/*
 * --undo: puts back what the last staged landing (default mode or
 * --cached) changed -- its index entries and, for the default mode, its
 * work-tree files -- from the review record, all or nothing, under the
 * index lock and journal a landing takes (a kill is recovered by
 * --recover as a landing's). Documentation/workflows.md, "Undo".
 */
#ifndef AIAPPLY_UNDO_H
#define AIAPPLY_UNDO_H

#include <stdio.h>
#include <git2.h>
#include "aiapply/common.h"

/*
 * Undoes the recorded landing; check: says what would be put back and
 * writes nothing. Prints a line per path and a closing line to out
 * (NULL: nothing). A path changed since the landing (its index entry,
 * or its work-tree file after a default landing) is refused, named in
 * d, and nothing is written. The record is consumed: a second --undo
 * and --review find none.
 * Returns AA_OK (undone, or would be), 1 (nothing to undo: no record,
 * or every path is as before the landing; notes in d say what a
 * --branch landing needs), AA_REJECTED (a path changed since; nothing
 * written) or AA_FATAL.
 */
int aa_undo(git_repository *repo, int check, FILE *out, aa_diags *d);

#endif
