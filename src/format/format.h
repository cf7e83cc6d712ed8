/*
 * Input formats. Extraction finds every change block in an input and
 * hands each to its format's parser; parsers append operations to the
 * change set. Parsers never call libgit2.
 */
#ifndef AIAPPLY_FORMAT_H
#define AIAPPLY_FORMAT_H

#include "aiapply/apply.h" /* aa_format, aa_parse_opts, the names */
#include "change/changeset.h"

/* One input: a file named on the command line, or standard input. */
typedef struct aa_input {
	const char *name;   /* "answer.md", "<stdin>" */
	const char *data;
	size_t len;
	/*
	 * Repository-relative directory of the input file when it lies
	 * inside the work tree ("" at the top), else NULL: ap file_path
	 * is relative to it (Documentation/format-ap.md).
	 */
	const char *dir_in_worktree;
} aa_input;

/* A region of an input: data[0..len) starting at input line `line`. */
typedef struct aa_block {
	const aa_input *in;
	const char *data;
	size_t len;
	long line;
	/*
	 * The file the answer's previous SEARCH/REPLACE block edited, or
	 * NULL: a SEARCH/REPLACE block naming no file edits it, as Aider
	 * does (its SEARCH text must still match there, once). No other
	 * format reads it: a whole file never lands on a carried path.
	 */
	const char *carried_path;
} aa_block;

/*
 * Parses a whole input into ops appended to cs. Returns the number of
 * change blocks found (>= 0), or -1 with errors in d. Zero blocks is
 * not an error here; the caller reports "no change found".
 */
int aa_parse_input(const aa_input *in, const aa_parse_opts *o,
		   aa_changeset *cs, aa_diags *d);

/*
 * Per-format parsers, each over one block. They return the number of
 * operations/blocks parsed (>= 0) or -1 with errors in d.
 * aa_parse_diff also finds diffs inside prose and code fences.
 * `only_path`, when not NULL, is the one path the diff may touch
 * (companion START-PATCH, file-changes FILE_PATCH); hunks without a
 * header then apply to it.
 */
int aa_parse_diff(const aa_block *b, const aa_parse_opts *o,
		  const char *only_path, aa_changeset *cs, aa_diags *d);
int aa_parse_companion(const aa_block *b, const aa_parse_opts *o,
		       aa_changeset *cs, aa_diags *d);
int aa_parse_file_changes(const aa_block *b, const aa_parse_opts *o,
			  aa_changeset *cs, aa_diags *d);
int aa_parse_aptix(const aa_block *b, const aa_parse_opts *o,
		   aa_changeset *cs, aa_diags *d);
int aa_parse_ap(const aa_block *b, const aa_parse_opts *o,
		aa_changeset *cs, aa_diags *d);

#endif
