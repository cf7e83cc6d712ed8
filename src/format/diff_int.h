/*
 * Private to the diff parser (src/format/diff*.c): the line cursor and
 * the hunk reader shared by the file-level parser in diff.c.
 */
#ifndef AA_FORMAT_DIFF_INT_H
#define AA_FORMAT_DIFF_INT_H

#include "change/changeset.h"
#include "format/format.h"

/* Most hunks one file diff may have. */
#define AA_DIFF_MAX_HUNKS 1000000

/*
 * One input line: its text without the terminator ("\n"), after the
 * indentation of an enclosing indented code fence was removed. A "\r"
 * before the "\n" is left out of `len` (header and structure lines
 * tolerate it) and counted in `cr`: a hunk line keeps it as content (an
 * answer that is CRLF throughout was turned into LF before parsing).
 */
typedef struct aa_dline {
	const char *s;
	size_t len;
	size_t cr;     /* 1 when a "\r" follows s[len - 1] before the "\n" */
	size_t next;   /* offset of the following line */
	long lineno;   /* 1-based line in the input */
} aa_dline;

typedef struct aa_dparser {
	const aa_block *b;
	const aa_parse_opts *o;
	const char *only_path;
	aa_changeset *cs;
	aa_diags *d;
	size_t off;      /* start of the current line in b->data */
	long lineno;     /* its input line */
	long first_line; /* the block's first line */
	/* Markdown fence state: lines inside an indented fence lose `strip` spaces. */
	char fence_ch;   /* '`' or '~' inside a fence, else 0 */
	size_t fence_len;
	size_t strip;
} aa_dparser;

/* The current line (n == 0) or the n-th after it; 0 at the end. */
int aa_diff_peek(const aa_dparser *P, unsigned n, aa_dline *l);
/* Moves past line l (which must be the current one). */
void aa_diff_advance(aa_dparser *P, const aa_dline *l);
/* Same, for a line that belongs to the diff: enforces the line limit. */
int aa_diff_take(aa_dparser *P, const aa_dline *l);
int aa_diff_starts(const aa_dline *l, const char *lit);
aa_pos aa_diff_pos(const aa_dparser *P, long lineno);

/*
 * Does line l start a hunk? "@@ -a,b +c,d @@", and outside --strict
 * the bare "@@" / "@@ text @@" this tool also reads; not a numbered
 * line whose first range is not "-a" (Subversion's "@@ +1 0,0 @@"):
 * git's parse_fragment reads only "@@ -" lines, so such a line ends
 * the file's hunks and git skips it as text between patches.
 */
int aa_diff_is_hunk_header(const aa_dparser *P, const aa_dline *l);

/*
 * Reads the hunk whose "@@" line is current and appends it to c (a
 * container op). Returns 0 or -1 with an error.
 */
int aa_diff_read_hunk(aa_dparser *P, aa_op *c);
/*
 * After a hunk: 1 when another hunk of the same file follows (blank
 * lines before its "@@" are skipped), else 0.
 */
int aa_diff_next_hunk(aa_dparser *P);

/*
 * diff_stamp.c: the timestamp that may end a "---" / "+++" name line
 * (s[0..len), the text after "--- "). Returns the bytes it takes with
 * the TAB or the run of spaces before it, 0 when there is none; *sep
 * is the separator's length.
 */
size_t aa_diff_stamp_len(const char *s, size_t len, size_t *sep);
/* 1 when the stamp s[0..len) (no separator) is GNU diff -N's epoch. */
int aa_diff_stamp_is_epoch(const char *s, size_t len);

/*
 * diff_binary.c: the "GIT binary patch" whose line is current, for the
 * file `name` (messages): its forward hunk into bin[0] and its reverse
 * one, when there is one, into bin[1] (*nbin: 1 or 2), each decoded and
 * inflated to the size it states. 0, or -1 with an error naming the
 * line ("corrupt binary patch: ...").
 */
int aa_diff_read_binary(aa_dparser *P, const char *name, aa_binhunk bin[2],
			size_t *nbin);
/*
 * The ids of an "index <old>..<new>[ <mode>]" line (s: after "index "):
 * as written (hex, up to 40 digits each, "" when unreadable); 1 when
 * both are full (40 digits), as a binary patch needs them.
 */
int aa_diff_index_ids(const char *s, size_t len, char old_id[41],
		      char new_id[41]);

/*
 * --strict: the start of every message of the contract's first rule
 * (Documentation/format-diff.md, "--strict").
 */
#define INVALID "Invalid unified diff format: "
/* git apply's words for a git diff whose ---/+++ pair is cut short */
#define LACKS_NAME "git diff header lacks filename information: "

#endif
