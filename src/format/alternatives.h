/*
 * An answer's alternatives ("Option 1 ... Option 2"): one parsed change
 * set cut into several, each a suggestion of its own, only where its
 * blocks cannot form one change set. A pure stage: no libgit2, no base
 * content; the rule is in Documentation/workflows.md ("An answer's
 * alternatives").
 */
#ifndef AIAPPLY_ALTERNATIVES_H
#define AIAPPLY_ALTERNATIVES_H

#include "change/changeset.h"

/*
 * The split: `n` change sets in answer order. Each owns deep copies of
 * its operations (the input change set is left as it was), so each is
 * freed on its own with aa_changeset_free, or all with
 * aa_alternatives_free. Operation positions (aa_pos.input) still point
 * at the input's name, as the parsed change set's do.
 */
typedef struct aa_alternatives {
	aa_changeset *sets;
	size_t n;
} aa_alternatives;

#define AA_ALTERNATIVES_INIT { NULL, 0 }

/*
 * More alternatives than this in one answer: left as one change set,
 * with a warning (one branch each would flood the repository).
 */
#define AA_MAX_ALTERNATIVES 100

/*
 * Splits `cs` (one answer's change set) into its alternatives.
 * Returns the number of alternatives (>= 2) with `out` filled and a note
 * in `d` naming the input, each alternative's lines and the reason;
 * 0 when `cs` is one change set, or holds more than AA_MAX_ALTERNATIVES
 * (a warning in `d`) (`out` stays empty: use `cs` as it is);
 * AA_FATAL (-2) when out of memory (an error in `d`, `out` empty).
 * `out` must be empty (AA_ALTERNATIVES_INIT) on entry.
 */
int aa_split_alternatives(const aa_changeset *cs, aa_alternatives *out,
			  aa_diags *d);

/* Frees every change set not taken out of `a` (a taken one: zero it). */
void aa_alternatives_free(aa_alternatives *a);

#endif
