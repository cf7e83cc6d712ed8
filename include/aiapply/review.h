/*
 * The review record: what a staged landing put in the
 * index, kept under the git dir as "ai-apply/review", and --review, which
 * prints the staged AI change with its tolerant placements marked.
 * Format and lifetime: Documentation/workflows.md, "Review record and
 * --review".
 */
#ifndef AIAPPLY_REVIEW_H
#define AIAPPLY_REVIEW_H

#include <stdio.h>
#include <git2.h>
#include "aiapply/apply.h"
#include "aiapply/color.h"

/*
 * Writes the record of a staged landing (default mode or --cached) that
 * has put its index in place. Never fails the landing: a record that
 * cannot be written is a warning in res->diags.
 */
void aa_review_record(git_repository *repo, aa_apply_result *res);

/*
 * --review: prints the recorded change (json: one JSON document, never
 * colored) to out, in the colors `color` (NULL or off: plain). Drops the
 * record when none of its staged blobs is in the index any more.
 * Returns 0, or -1 with the error in d.
 */
int aa_review_show(git_repository *repo, FILE *out, int json,
		   const aa_color *color, aa_diags *d);

/* The trailer key when ai-apply.trailer is not set. */
#define AA_TRAILER_KEY "Assisted-by"

/*
 * The formats the change set's operations came in, each once, in the
 * order the answer used them: "diff, companion".
 */
void aa_formats_used(const aa_changeset *cs, aa_buf *out);

/*
 * The Assisted-by trailer's value, "git-ai-apply (diff, answer
 * 0123456789ab)" (several answers: "answers <id> <id>"; ids are the
 * answers' text hashed as blobs, shortened as --review shows them), into
 * out. The --branch commit carries it; the review record keeps it for
 * the contrib prepare-commit-msg hook. 0, or -1 when out of memory.
 */
int aa_assisted_by(const aa_apply_inputs *in, const aa_changeset *cs,
		   aa_buf *out);

/*
 * The trailer key from ai-apply.trailer (AA_TRAILER_KEY when unset)
 * into key: 1 with the key, 0 when it is "off", -1 with an error in d
 * when it is no trailer key.
 */
int aa_trailer_key(git_repository *repo, aa_buf *key, aa_diags *d);

#endif
