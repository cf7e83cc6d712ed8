/* Output: per-file summary, --stat, --diff and the --json report. */
#ifndef AIAPPLY_REPORT_H
#define AIAPPLY_REPORT_H

#include <stdio.h>
#include "land.h"
#include "list.h"
#include "color.h"

typedef enum aa_report_kind {
	AA_REPORT_SUMMARY,
	AA_REPORT_STAT,
	AA_REPORT_DIFF,
	AA_REPORT_JSON
} aa_report_kind;

typedef struct aa_report_opts {
	aa_report_kind kind;
	int quiet;            /* -q: no summary (errors still go to stderr) */
	const char *mode;     /* "index", "cached", "branch", "check" */
	const char *branch;
	const aa_color *color; /* NULL or off: no color */
} aa_report_opts;

/* Outcome of a run, for the report. */
typedef enum aa_outcome {
	AA_OUT_APPLIED,
	AA_OUT_CHECKED,
	AA_OUT_ALREADY_APPLIED,
	AA_OUT_REJECTED,
	AA_OUT_FATAL,
	AA_OUT_CONFLICTED     /* --3way: landed, with conflicts (exit 1) */
} aa_outcome;

/* Human output shows this many diagnostics of each level, then a count. */
#define AA_REPORT_MAX_DIAGS 50

/*
 * Prints diagnostics to `err`, one "level: path: input:line: msg" each,
 * at most AA_REPORT_MAX_DIAGS per level, then "... and N more errors".
 */
void aa_report_diags(FILE *err, const aa_diags *d);
/*
 * Prints the report of a plan (plan and session may be NULL when the run
 * stopped before planning). Returns 0 or -1.
 */
int aa_report(FILE *out, aa_session *s, const aa_plan *plan,
	      const aa_diags *d, aa_outcome outcome, const aa_report_opts *o);

/*
 * --list: one line per suggestion branch (name, whether it merges into
 * HEAD, answer, base and how far HEAD moved, files +/-, tolerant
 * placements), or with json one document {"status", "suggestions",
 * "errors"}. Returns 0 or -1.
 */
int aa_report_suggestions(FILE *out, const aa_suggestion *v, size_t n,
			  const aa_diags *d, int json);

#endif
