/*
 * The planner's types: its options, the plan (an overlay of path
 * nodes) and the changes it yields for landing. Apart from plan.h,
 * the header of plan.c, so that the planner's pieces (planner.h) and
 * the lander take the types without the driver's functions.
 */
#ifndef AIAPPLY_PLAN_TYPES_H
#define AIAPPLY_PLAN_TYPES_H

#include "change/changeset.h"
#include "edit/edit.h"

#include "aiapply/apply.h" /* aa_plan_opts */
#include "plan/snapshot.h"

/* One conflicting region of --3way's content: lines [start, end], 1-based. */
typedef struct aa_conflict_region {
	size_t start, end;
} aa_conflict_region;

/* One path whose content or mode the change set alters. */
typedef struct aa_change {
	char *path;
	int base_exists;
	uint32_t base_mode;
	aa_oid base_oid;
	int exists;           /* after the change set */
	uint32_t mode;
	int has_oid;          /* content is the existing object `oid` */
	aa_oid oid;
	char *data;           /* else the new bytes */
	size_t len;
	char *renamed_from;   /* for reports: the path it was moved from */
	int copied;           /* ... or copied from (the source stays) */
	int has_similarity;   /* ... with the patch's score: similarity % */
	unsigned similarity;
	int from_exists;      /* renamed_from's base entry, for reports */
	aa_oid from_oid;
	aa_landing *landings;
	size_t nlandings;
	/*
	 * --3way: the merge conflicted. `data` is the merged content with
	 * conflict markers (the work tree's); the index gets stage 1 (the
	 * version the answer was written against), 2 (the content before the
	 * operation: ours) and 3 (that version with the answer's hunks:
	 * theirs) in place of stage 0. Stages 1 and 2 have `stage_mode`,
	 * stage 3 has `mode`.
	 */
	int conflict;
	uint32_t stage_mode;
	/*
	 * A preview's binary change (aa_plan_opts.preview), reported from
	 * the patch alone: `data` is not its content; the reports print it
	 * as binary (git apply --stat's "Bin"), never land it.
	 */
	int bin_preview;
	const char *stage[3];
	size_t stage_len[3];
	aa_conflict_region *regions; /* where the markers are in `data` */
	size_t nregions;
} aa_change;

typedef struct aa_plan_node aa_plan_node;

typedef struct aa_plan {
	aa_change *changes;   /* in order of first touch */
	size_t nchanges;
	size_t ops_applied;   /* operations that changed something */
	size_t ops_skipped;   /* operations already applied */
	/* private */
	aa_plan_node *nodes;
	size_t nnodes, capnodes;
	size_t *table;
	size_t tablecap;
	const aa_snapshot *lender;  /* releases the base bytes it lent */
	struct aa_dir_index *dirs;  /* directory prefixes (src/plan/plan_dirs.h) */
	int fatal;            /* the base could not be read: exit 128, not 1 */
} aa_plan;

#define AA_PLAN_INIT { NULL, 0, 0, 0, NULL, 0, 0, NULL, 0, NULL, NULL, 0 }

#endif
