/*
 * -R, --reverse: a change set turned around, so that planning it lands
 * the answer backwards (Documentation/workflows.md, "Landing an answer
 * backwards").
 */
#ifndef AIAPPLY_REVERSE_H
#define AIAPPLY_REVERSE_H

#include "change/changeset.h"

/*
 * Replaces cs with its reverse: the operations in the opposite order
 * (a diff block stays one change, its operations in their order), each
 * with its sides swapped. An operation that carries no old side (a
 * whole-file block, a deletion without its content, an ap deletion)
 * cannot be reversed: each is an error in d naming its format, path and
 * input line, and cs is then left as it was. Returns 0 or -1 (out of
 * memory: cs then holds what was reversed so far).
 */
int aa_changeset_reverse(aa_changeset *cs, aa_diags *d);

#endif
