/* Output: per-file summary, --stat, --diff and the --json report. */
#ifndef AIAPPLY_REPORT_H
#define AIAPPLY_REPORT_H

#include <stdio.h>
#include "land/land.h"
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
 * The same with colors `c` (NULL or off: plain): the "error"/"warning"
 * keyword, and the "-"/"+" lines of a hunk error's closest-region
 * display. The diagnostics' text itself holds no escape codes.
 */
void aa_report_diags_color(FILE *err, const aa_diags *d, const aa_color *c);

/*
 * Coloring one file's patch as git diff --color does. blank-at-eof needs
 * the whole of both sides (aa_report_color_file); the line counters
 * follow the hunks.
 */
typedef struct aa_diff_colors {
	const aa_color *color; /* NULL or off: plain */
	long pre_blank;        /* git's blank_at_eof_in_preimage, 0: none */
	long post_blank;       /* git's blank_at_eof_in_postimage */
	long pre_line;         /* git's lno_in_preimage */
	long post_line;        /* git's lno_in_postimage */
} aa_diff_colors;

/*
 * Starts a file whose sides are old and new (either may be NULL: no
 * blank-at-eof check): blank lines added at the end of a file that had
 * fewer are whitespace errors, as git's default core.whitespace says.
 */
void aa_report_color_file(aa_diff_colors *dc, const aa_color *c,
			  const char *old, size_t old_len,
			  const char *new_data, size_t new_len);

/*
 * Appends one line of a patch to out as git diff --color prints it: a
 * diff header line (origin GIT_DIFF_LINE_FILE_HDR, one line of it) in
 * meta, a hunk header's "@@ ... @@" in frag and its function context in
 * func, '-' old, '+' new with git's default whitespace errors
 * (blank-at-eol, space-before-tab, blank-at-eof) in whitespace, ' '
 * context, each "<color>text<reset>" before the newline. `origin` is
 * libgit2's (GIT_DIFF_LINE_*); `s` is the line without its sign.
 * Returns 0 or -1 (out of memory).
 */
int aa_report_color_line(aa_diff_colors *dc, aa_buf *out, char origin,
			 const char *s, size_t len);

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
