/*
 * --predictions: a branch per prediction, each on its own base commit,
 * thousands in one run (Documentation/workflows.md, "## Predictions").
 * The predictions are SWE-bench's ({instance_id, model_name_or_path,
 * model_patch[, base_commit]}, a JSON list or JSON Lines) or a plain
 * manifest ({name, base, answer | answer_file}, JSON Lines). Each lands
 * as --each lands a suggestion: all or nothing, with its trailers and
 * note; one JSON Lines record per prediction says what happened.
 */
#ifndef AIAPPLY_PREDICTIONS_H
#define AIAPPLY_PREDICTIONS_H

#include <stdio.h>
#include <git2.h>
#include "aiapply/apply.h"

typedef struct aa_predictions_opts {
	/*
	 * The landing's options (format, -p<n>, -m, --force, ...): each
	 * prediction is landed with these, its own answer, base and branch.
	 * apply->land.branch is the prefix of the branches (NULL:
	 * "predictions"); apply->files and texts are not read.
	 */
	const aa_apply_opts *apply;
	const char *file;      /* the predictions; "-": standard input */
	const char *dataset;   /* --dataset: rows giving base_commit, or NULL */
	FILE *results;         /* one JSON object a line per prediction */
	/* after each prediction: how many are done out of total; may be NULL */
	void (*progress)(size_t done, size_t total, void *payload);
	void *payload;
} aa_predictions_opts;

/* Why predictions did not land, counted (the summary's lines). */
typedef enum aa_prediction_reason {
	AA_PRED_RECORD,     /* the record is malformed or names no answer */
	AA_PRED_EMPTY,      /* the model made no change (model_patch "") */
	AA_PRED_BASE,       /* its base is no commit of the repository */
	AA_PRED_DUPLICATE,  /* another prediction of the run has its branch */
	AA_PRED_INPUT,      /* its answer file cannot be read */
	AA_PRED_PARSE,      /* the answer holds no change that parses */
	AA_PRED_APPLY,      /* it does not apply to its base */
	AA_PRED_CONFLICT,   /* stale: its change meets the base's own */
	AA_PRED_BRANCH,     /* its branch exists (another answer) */
	AA_PRED_FATAL,      /* the repository failed */
	AA_PRED_NREASONS
} aa_prediction_reason;

typedef struct aa_predictions_summary {
	size_t total;
	size_t landed;           /* a new branch */
	size_t already_landed;   /* its branch holds this answer on this base */
	size_t already_applied;  /* the base holds the change already */
	size_t refused[AA_PRED_NREASONS];
} aa_predictions_summary;

/* The reason's name in the results and the summary ("does-not-apply"). */
const char *aa_prediction_reason_name(aa_prediction_reason r);

/*
 * Lands every prediction. Returns the exit status, as --each's: 0 when
 * each landed (or was landed already, or was already applied), 128
 * when one failed fatally, else 1. The run's own errors (the file
 * cannot be read, is not JSON) go to d with nothing written (128).
 */
int aa_apply_predictions(git_repository *repo, const aa_predictions_opts *o,
			 aa_predictions_summary *sum, aa_diags *d);

/* The summary: what landed, what was refused by reason, one line each. */
void aa_predictions_summary_print(FILE *out, const aa_predictions_summary *s);

#endif
