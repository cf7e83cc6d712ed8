/*
 * Input formats. Extraction finds every change block in an input and
 * hands each to its format's parser; parsers append operations to the
 * change set. Parsers never call libgit2.
 */
#ifndef AIAPPLY_FORMAT_H
#define AIAPPLY_FORMAT_H

#include "change/changeset.h"

typedef enum aa_format {
	AA_FORMAT_AUTO,
	AA_FORMAT_COMPANION,
	AA_FORMAT_FILE_CHANGES,
	AA_FORMAT_APTIX,
	AA_FORMAT_AP,
	AA_FORMAT_DIFF,
	AA_FORMAT_V4A,
	AA_FORMAT_SEARCH_REPLACE,
	AA_FORMAT_WHOLE_FILE,
	AA_FORMAT_COUNT     /* not a format: the number of names */
} aa_format;

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

typedef struct aa_parse_opts {
	aa_format format;   /* AA_FORMAT_AUTO = detect */
	int strict;         /* --strict (Documentation/format-diff.md) */
} aa_parse_opts;

/*
 * Name <-> enum; aa_format_from_name returns -1 for an unknown name.
 * aa_format_list appends every name ("auto" first) joined by `sep`, for
 * --help, usage errors and the tests that check the manual and the
 * completion against the registry; -1 on out-of-memory.
 */
const char *aa_format_name(aa_format f);
int aa_format_from_name(const char *name);
int aa_format_list(aa_buf *b, const char *sep);

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
