/*
 * Private interfaces between the pipeline's files (apply.c, each.c,
 * review.c): the insides of the opaque results of include/aiapply/apply.h
 * and the provenance a landing records.
 */
#ifndef AA_APPLY_INTERNAL_H
#define AA_APPLY_INTERNAL_H

#include "aiapply/apply.h"
#include "format/format.h"
#include "plan/plan.h"
#include "land/land.h"
#include "workflow/select.h"

/* One input as read: the name is borrowed from the options. */
typedef struct aa_apply_inputs {
	aa_input *v;
	char **bufs;
	char **dirs;
	size_t n;
} aa_apply_inputs;

/*
 * What a run did. The session and plan stay open for the report (the
 * per-file output reads blobs through them); aa_apply_result_free()
 * releases everything.
 */
struct aa_apply_result {
	aa_outcome outcome;
	aa_diags diags;
	int stopped;           /* options or an input refused: nothing tried */
	aa_session session;
	int opened;            /* session is open */
	aa_plan plan;
	aa_changeset cs;
	aa_apply_inputs inputs;
	aa_land_opts land;     /* the session points here */
	aa_buf trailers;       /* --branch: the commit's provenance */
	aa_buf note;           /* --branch: the answer text, as a note */
	aa_selection *selection; /* -p: the selected contents the plan holds */
	/*
	 * -p on the index: the questions are asked over this unlocked view
	 * of it (the plan reads its base through it); `session` takes the
	 * lock after the last answer, and lands only if the index is still
	 * the one the questions were about.
	 */
	aa_session peek;
	int peek_opened;
	aa_land_opts peek_land;  /* peek points here */
};

/* --each's run: the suggestions' results on one base. */
struct aa_each_result {
	aa_apply_result *v;   /* one per input, in order (sessions open) */
	aa_buf *branches;     /* their branch names */
	size_t n;
	size_t failed;        /* suggestions that did not land */
	aa_land_opts land;    /* the base's options */
	aa_base base;
	int base_opened;
	aa_outcome base_outcome; /* when the base did not open ... */
	aa_diags base_diags;  /* ... why (said again in each suggestion) */
	aa_diags diags;       /* the run's own errors: nothing was tried, or
				 the pack's keep and journal not removed */
	int done_failed;      /* ... the latter (exit 128) */
};

/*
 * The parsed change set as the options shape it (src/workflow/
 * apply_opts.c): --include/--exclude leave operations out (every one
 * left out: a note, and cs empty), then -R turns it around. 0, or -1
 * with the refusal in d.
 */
int aa_apply_shape_changes(const aa_apply_opts *o, aa_changeset *cs,
			   aa_diags *d);

/* A zeroed result with empty plan and change set. */
void aa_apply_result_init(aa_apply_result *res);
/* Releases what res holds, not res itself (an element of aa_each_result). */
void aa_apply_result_clear(aa_apply_result *res);

/*
 * Everything before the landing: the inputs, a lander (on `base`, or on
 * a base of its own when NULL), the change set, the plan and, for
 * --branch, the provenance. 0 to go on and land; -1 when the run ends
 * there, its outcome in res->outcome.
 */
int aa_apply_plan_one(git_repository *repo, aa_base *base,
		      const aa_apply_opts *o, aa_apply_result *res);

/*
 * The outcome of a landing that went through (r = 0; a staged one is
 * recorded for --review) or failed (r < 0), also in res->outcome.
 */
aa_outcome aa_apply_landed(aa_apply_result *res, int r);

/*
 * The session a report reads the base through: the landing's, or -p's
 * unlocked view when the run ended before taking the lock; NULL when
 * the run stopped before opening either.
 */
aa_session *aa_apply_result_session(aa_apply_result *res);

/*
 * How many suggestions input `input` (0-based) holds: the number of
 * alternatives it splits into (src/format/alternatives.c), 1 when it is
 * one change set or does not parse (its own run reports why). The note
 * saying so goes to d.
 */
size_t aa_apply_count_alternatives(git_repository *repo,
				   const aa_apply_opts *o, size_t input,
				   aa_diags *d);

/* The number of inputs: the texts when there are, else the files. */
size_t aa_apply_ninputs(const aa_apply_opts *o);
/* o with input i (0-based) its only one, into *one. */
void aa_apply_opts_one_input(const aa_apply_opts *o, size_t i,
			     aa_apply_opts *one);

/* ---- provenance and the review record (review.c) ---- */

/*
 * Writes the record of a staged landing (default mode or --cached) that
 * has put its index in place. Never fails the landing: a record that
 * cannot be written is a warning in res->diags.
 */
void aa_review_record(git_repository *repo, aa_apply_result *res);

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
