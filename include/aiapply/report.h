/*
 * Output: per-file summary, --stat, --diff and the --json report of a
 * run, its diagnostics, and --list's table. Every function here prints
 * to the caller's stream and keeps nothing: the results, diagnostics
 * and suggestions it reads stay the caller's.
 */
#ifndef AIAPPLY_REPORT_H
#define AIAPPLY_REPORT_H

#include <stdio.h>
#include "aiapply/apply.h"
#include "aiapply/list.h"
#include "aiapply/color.h"

typedef enum aa_report_kind {
	AA_REPORT_SUMMARY,    /* one line per file, or the reports in show */
	AA_REPORT_JSON
} aa_report_kind;

/*
 * The reports asked for (--stat, --numstat, --summary, --diff), any
 * together, printed in this order as git apply (then git diff -p) does.
 */
enum {
	AA_SHOW_STAT = 1,
	AA_SHOW_NUMSTAT = 2,
	AA_SHOW_SUMMARY = 4,
	AA_SHOW_DIFF = 8
};

typedef struct aa_report_opts {
	aa_report_kind kind;
	unsigned show;        /* AA_SHOW_*; 0: the per-file summary */
	int quiet;            /* -q: no summary (errors still go to stderr) */
	const char *mode;     /* "index", "cached", "branch", "check" */
	const char *branch;
	const aa_color *color; /* NULL or off: no color */
	/*
	 * The closing line (Documentation/output.md, "What happened and what
	 * next"): what was written and the next step, one line on this
	 * stream (the command line's standard error); NULL: none (-q, a
	 * preview). --json carries it as the fields "written" and "next".
	 */
	FILE *next;
	int no_advice;        /* advice.aiApplyNextStep=false: what, not next */
} aa_report_opts;

/* Human output shows this many diagnostics of each level, then a count. */
#define AA_REPORT_MAX_DIAGS 50

/*
 * Prints diagnostics to `err`, one "level: path: input:line: msg" each,
 * at most AA_REPORT_MAX_DIAGS per level, then "... and N more errors".
 */
void aa_report_diags(FILE *err, const aa_diags *d);
/*
 * The same with colors `c` (NULL or off: plain): the "error"/"warning"
 * keyword, and the "-"/"+" lines of a hunk error's closest-region
 * display. The diagnostics' text itself holds no escape codes.
 */
void aa_report_diags_color(FILE *err, const aa_diags *d, const aa_color *c);

/*
 * The report of a run (plain, --stat, --numstat, --summary, --diff or
 * --json as o says; nothing with -q but --json). Returns 0 or -1.
 */
int aa_report_result(FILE *out, aa_apply_result *res, const aa_report_opts *o);

/*
 * -v: each placement the run decided on `err` (standard error), one
 * line each, framed per file as git apply -v ("Checking patch x...",
 * "Applied patch x cleanly."). Returns 0.
 */
int aa_report_result_verbose(FILE *err, aa_apply_result *res);

/*
 * The report of a run that never began (bad options, no repository, an
 * unreadable input: the errors in d): with AA_REPORT_JSON the document
 * with status "fatal" and the errors, else nothing (the caller says the
 * errors, as git's die() does). Returns 0 or -1.
 */
int aa_report_stopped(FILE *out, const aa_diags *d, const aa_report_opts *o);

/*
 * --each's closing line for the set, on err: the branches of the n
 * suggestions that landed (names in `branches`) and the next step
 * (compare, merge one, drop them); nothing when none landed. With
 * `no_advice` what was written only.
 */
void aa_report_each_next(FILE *err, const char *const *branches, size_t n,
			 int no_advice);

/*
 * --each --json: the set's "written" and "next" fields, as the
 * members of one object (no braces: `"written": ..., "next": [...]`),
 * for the caller's document. Returns 0 or -1.
 */
int aa_report_each_next_json(FILE *out, const char *const *branches,
			     size_t n);

/*
 * --list: one line per suggestion branch (name, whether it merges into
 * HEAD, answer, base and how far HEAD moved, files +/-, tolerant
 * placements), or with json one document {"status", "suggestions",
 * "errors"}. Returns 0 or -1.
 */
int aa_report_suggestions(FILE *out, const aa_suggestion *v, size_t n,
			  const aa_diags *d, int json);

#endif
