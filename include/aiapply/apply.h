/*
 * The library's entry point: read the inputs, parse them into one change
 * set, open the base, plan and land -- one call taking the options and
 * returning the outcome with every diagnostic, as git's apply.c under
 * builtin/apply.c. The command line (src/cli/cli.c) only parses options and
 * prints the result.
 */
#ifndef AIAPPLY_APPLY_H
#define AIAPPLY_APPLY_H

#include <git2.h>
#include "format/format.h"
#include "plan/plan.h"
#include "land/land.h"
#include "aiapply/report.h"
#include "workflow/select.h"

typedef struct aa_apply_opts {
	aa_land_opts land;
	aa_parse_opts parse;
	aa_plan_opts plan;
	const char *const *files; /* input files, "-" = stdin; none = stdin */
	size_t nfiles;
	/*
	 * Called once the change set is parsed, before planning, when
	 * --strict deletes files and allow_delete is not set: may set
	 * plan->allow_delete (a terminal prompt). May be NULL.
	 */
	void (*confirm_deletions)(aa_plan_opts *plan, const aa_changeset *cs,
				  void *payload);
	void *payload;
	/*
	 * -p: ask which changes to land between plan and land (src/workflow/select.c);
	 * NULL lands the whole plan.
	 */
	const aa_select_opts *select;
	/*
	 * --each: land only the alternative-th (1-based) of the change sets
	 * the one input splits into (src/format/alternatives.c); alternatives of
	 * them. 0: the whole change set.
	 */
	size_t alternative, alternatives;
} aa_apply_opts;

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
typedef struct aa_apply_result {
	aa_outcome outcome;
	aa_diags diags;
	/* The run stopped before it began: an input could not be read. */
	int stopped;
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
} aa_apply_result;

#define AA_APPLY_EXIT_REJECTED 1
#define AA_APPLY_EXIT_FATAL 128

/*
 * Opens the repository as git finds it (GIT_DIR, GIT_WORK_TREE, the
 * current directory); the default mode needs a work tree. On failure
 * *repo is NULL and the error is in d. Returns AA_OK or AA_FATAL.
 */
int aa_apply_open_repository(git_repository **repo, aa_land_mode mode,
			     aa_diags *d);

/*
 * Runs the whole pipeline; res must be zeroed (or freed) before. Returns
 * the outcome, also in res->outcome; the messages are in res->diags.
 */
aa_outcome aa_apply(git_repository *repo, const aa_apply_opts *o,
		    aa_apply_result *res);
void aa_apply_result_free(aa_apply_result *res);
/*
 * The session a report reads the base through: the landing's, or -p's
 * unlocked view when the run ended before taking the lock; NULL when
 * the run stopped before opening either.
 */
aa_session *aa_apply_result_session(aa_apply_result *res);

/*
 * --each: input i is its own suggestion, landed on <branch>-<i+1> (or,
 * when it holds alternatives, each on <branch>-<i+1>.<k>), all
 * from one base read once. Each stays all or nothing: planned and built
 * in memory, the objects of all that built written in one pack, then
 * each one's branch and note refs in a transaction of its own.
 */
typedef struct aa_each_result {
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
} aa_each_result;

/*
 * Runs --each (o->land.branch is the prefix). Returns the exit status:
 * 0 when every suggestion landed (or was already applied), else the
 * worst (128 over 1). With res->n == 0 nothing was tried: the reason is
 * in res->diags. res must be freed with aa_each_result_free().
 */
int aa_apply_each(git_repository *repo, const aa_apply_opts *o,
		  aa_each_result *res);
void aa_each_result_free(aa_each_result *res);

/*
 * How many suggestions input `file` holds: the number of alternatives it
 * splits into (src/format/alternatives.c), 1 when it is one change set or does
 * not parse (its own run reports why). The note saying so goes to d.
 */
size_t aa_apply_count_alternatives(git_repository *repo,
				   const aa_apply_opts *o, const char *file,
				   aa_diags *d);

/* The exit status of an outcome: 0, 1 (rejected or conflicted), 128. */
int aa_apply_exit_code(aa_outcome outcome);

#endif
