/*
 * --review: the staged AI change, from the review record a staged
 * landing (default mode or --cached) keeps under the git dir as
 * "ai-apply/review", with its tolerant placements marked. Format and
 * lifetime: Documentation/workflows.md, "Review record and --review".
 * The stream, colors and diagnostics are the caller's.
 */
#ifndef AIAPPLY_REVIEW_H
#define AIAPPLY_REVIEW_H

#include <stdio.h>
#include <git2.h>
#include "aiapply/common.h"
#include "aiapply/color.h"

/*
 * --review: prints the recorded change (json: one JSON document, never
 * colored) to out, in the colors `color` (NULL or off: plain). Drops the
 * record when none of its staged blobs is in the index any more.
 * Returns 0, or -1 with the error in d.
 */
int aa_review_show(git_repository *repo, FILE *out, int json,
		   const aa_color *color, aa_diags *d);

#endif
