/*
 * The 3-way merge of a large file by windows around the answer's hunks
 * (pure: the merge itself is the snapshot's merge3).
 */
#ifndef AA_HISTORY_MERGE_H
#define AA_HISTORY_MERGE_H

#include "plan/snapshot.h"

/* Below this many lines in the old version, the whole file is merged. */
#define AA_MERGE_WINDOW_MIN_LINES 2000
/* How far from a hunk an anchor line is looked for. */
#define AA_MERGE_WINDOW_REACH 60

/*
 * Where a hunk changed the old version: its old lines [start, start +
 * nold) (0-based) became nnew lines in `theirs`.
 */
typedef struct aa_merge_region {
	size_t start, nold, nnew;
} aa_merge_region;

/*
 * sn->merge3 of (base, ours, theirs), where theirs is base with the
 * regions replaced. For a large base, only windows around the regions
 * are merged, cut at lines that occur once in base and once in ours
 * (the rest of the result is ours); when the windows cannot be cut
 * safely, or one conflicts, the whole file is merged instead (so a
 * conflict is always described on the whole file). Same results as
 * merge3.
 */
int aa_merge_windowed(const aa_snapshot *sn, const char *path,
		      const char *label, const char *base, size_t blen,
		      const char *ours, size_t olen, const char *theirs,
		      size_t tlen, const aa_merge_region *regions,
		      size_t nregions, aa_buf *out);

#endif
