/*
 * The report stage's interfaces inside the library: the report of a
 * plan read through its session (aa_report_result in include/ is this
 * over a run's result), and coloring a patch as git diff --color does
 * (the report, -p's hunks and --review).
 */
#ifndef AA_REPORT_REPORT_H
#define AA_REPORT_REPORT_H

#include "aiapply/report.h"
#include "land/land.h"

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

#endif
