/*
 * The change set: the one intermediate form every format parses into.
 * An ordered list of operations, each with its input position. Parsers
 * build it (no libgit2), the planner consumes it (no text parsing).
 */
#ifndef AIAPPLY_CHANGESET_H
#define AIAPPLY_CHANGESET_H

#include "aiapply/common.h"

typedef enum aa_op_kind {
	AA_OP_WRITE,   /* create or replace a whole file with `content` */
	AA_OP_DELETE,  /* delete a file (or a directory when dir_ok) */
	AA_OP_RENAME,  /* move `path` to `to` (file, or directory when dir_ok) */
	AA_OP_COPY,    /* copy file `path` to `to` (git "copy from/to") */
	AA_OP_EDIT     /* text edits of an existing file (see edit_kind) */
} aa_op_kind;

/* What AA_OP_WRITE requires of the existing path. */
typedef enum aa_exist {
	AA_EXIST_ANY,  /* create or overwrite */
	AA_EXIST_NEW,  /* must not exist; identical content = already applied */
	AA_EXIST_MUST, /* must exist (replace) */
	AA_EXIST_EMPTY /* must not exist, or be an empty file (filled) */
} aa_exist;

typedef enum aa_edit_kind {
	AA_EDIT_NONE,         /* mode change only */
	AA_EDIT_HUNKS,        /* unified-diff hunks (with or without line hints) */
	AA_EDIT_REPLACEMENTS, /* literal find/replace (aptix) */
	AA_EDIT_AP,           /* ap modifications (format-ap.md) */
	AA_EDIT_V4A,          /* v4a chunks: hunks with "@@ context" anchors */
	AA_EDIT_ELIDE,        /* `content` replaces the file; its elisions
				 stand for the original's lines */
	AA_EDIT_BINARY        /* a git binary patch: bytes to bytes, checked
				 by object ids (aa_binhunk below) */
} aa_edit_kind;

/* Where the first line of an op's content is in the input. */
typedef enum aa_content_at {
	AA_CONTENT_AT_POS,      /* on the op's own line */
	AA_CONTENT_AFTER_POS,   /* on the line after it (an opening tag) */
	AA_CONTENT_NO_LINES     /* not input lines (a JSON string): pos for all */
} aa_content_at;

/* One line of a hunk body, without its line terminator. */
typedef struct aa_hline {
	char kind;      /* ' ' context, '-' removed, '+' added */
	char *text;
	size_t len;
	/*
	 * A context line that had lost its leading space: the parser's
	 * guess, which the hunk engine may take back (src/edit/hunks.c).
	 */
	int loose;
} aa_hline;

typedef struct aa_hunk {
	aa_pos pos;          /* the @@ line */
	int has_hint;        /* 0 for bare "@@" (locate by content) */
	long old_start, old_count;
	long new_start, new_count;
	aa_hline *lines;
	size_t nlines;
	int old_no_eol;      /* "\ No newline" after the last old-side line */
	int new_no_eol;      /* ... after the last new-side line */
	char *section;       /* text after the closing @@, or NULL */
	/*
	 * The header's counts disagreed with the body, which was recounted
	 * (old_count/new_count now hold the body's counts). --strict
	 * rejects this after context validation (the order of
	 * Documentation/format-diff.md, "--strict").
	 */
	int count_mismatch;
	/*
	 * v4a: `section` holds the chunk's "@@ context" anchor lines,
	 * "\n"-separated; at_eof: "*** End of File" (the chunk ends the file).
	 */
	int at_eof;
	/*
	 * Set on the v4a engine's own copies: the chunk is sought only in
	 * lines [scope_lo, scope_hi) (0-based, of the file before the op),
	 * the region its "@@" anchors open (src/edit/v4a_chunks.c).
	 */
	int has_scope;
	size_t scope_lo, scope_hi;
	/*
	 * The added lines may hold elisions ("// ... existing code ...")
	 * standing for removed lines between the lines around them (a
	 * SEARCH/REPLACE block's REPLACE): the hunk engine resolves them
	 * against the removed lines before it places the hunk. added_pos:
	 * the input position of the first added line, for its messages.
	 */
	int may_elide;
	aa_pos added_pos;
} aa_hunk;

typedef struct aa_repl {
	aa_pos pos;
	char *find;
	size_t find_len;
	char *replace;
	size_t replace_len;
	int all;             /* limit "all" (default "once") */
} aa_repl;

typedef enum aa_ap_action {
	AA_AP_REPLACE,
	AA_AP_INSERT_AFTER,
	AA_AP_INSERT_BEFORE,
	AA_AP_DELETE
} aa_ap_action;

/* One ap modification; strings are NULL when the key is absent. */
typedef struct aa_apmod {
	aa_pos pos;
	aa_ap_action action;
	char *snippet;
	char *start_snippet;
	char *end_snippet;
	char *anchor;
	char *content;
	long leading_blank_lines;
	long trailing_blank_lines;
} aa_apmod;

/* How a hunk of a "GIT binary patch" gives its result. */
typedef enum aa_bin_method {
	AA_BIN_LITERAL,  /* "literal <size>": data is the result itself */
	AA_BIN_DELTA     /* "delta <size>": data is git's delta against the pre-image */
} aa_bin_method;

/* One hunk of a "GIT binary patch", base85-decoded and inflated. */
typedef struct aa_binhunk {
	aa_pos pos;              /* its "literal" / "delta" line */
	aa_bin_method method;
	unsigned char *data;     /* exactly the size the line states (owned) */
	size_t len;
} aa_binhunk;

typedef struct aa_op {
	aa_op_kind kind;
	aa_pos pos;
	char *path;          /* target (source for RENAME/COPY) */
	char *to;            /* RENAME/COPY destination */

	/* AA_OP_WRITE */
	char *content;
	size_t content_len;
	aa_exist exist;

	/*
	 * Modes: 0 = not stated. `mode` is the mode to give the result
	 * (new file mode, new mode); `old_mode` the mode the patch expects.
	 */
	uint32_t mode;
	uint32_t old_mode;

	/* AA_OP_DELETE / AA_OP_RENAME may name a directory. */
	int dir_ok;
	/*
	 * AA_OP_RENAME of a file: the destination may already exist when it
	 * holds exactly the moved file (bytes and mode); then only the
	 * source goes (Documentation/format-v4a.md: Move onto an existing path
	 * is refused unless identical).
	 */
	int onto_identical;
	/*
	 * AA_OP_WRITE of a whole file whose block may show only part of
	 * it (a labelled block of a chat answer is often an excerpt):
	 * the planner refuses one that looks like it (aa_looks_like_excerpt)
	 * rather than gut the file.
	 */
	int may_be_excerpt;
	/*
	 * Such a write whose path only a sentence gave ("Update `x.py` as
	 * follows:", src/format/label.c): over an existing file it must
	 * keep at least half of the file's non-blank lines, or the block
	 * is taken for a part of the file and refused.
	 */
	int label_in_prose;
	/*
	 * AA_OP_WRITE or AA_EDIT_ELIDE whose content starts with a line
	 * naming the path ("# app/x.py", the block's label): that line's
	 * bytes, newline included; 0 when there is none. The planner leaves
	 * it out of an existing file that does not start with it.
	 */
	size_t label_line_len;
	/*
	 * AA_EDIT_ELIDE: where the lines of `content` are in the input, for
	 * messages about one of them (line 0 at pos, or on the line after
	 * it, or no line of its own: a JSON string's lines all at pos) ...
	 */
	aa_content_at content_at;
	/*
	 * ... and an elision that cannot be resolved is content, written as
	 * it stands with a warning (the seed formats' own examples use such
	 * lines), instead of a refusal.
	 */
	int elisions_may_be_content;

	/*
	 * The edits: one payload, tagged by edit_kind, that the engine of
	 * that kind applies (src/edit/engines.c); its memory is the change
	 * set's (aa_op_free, aa_op_clone). Only the member of the kind is
	 * meaningful: hunks for AA_EDIT_HUNKS and AA_EDIT_V4A, and for an
	 * AA_OP_DELETE whose removed lines must be the whole file
	 * (edit_kind AA_EDIT_NONE; nhunks == 0 means no content check).
	 */
	aa_edit_kind edit_kind;
	union {
		struct {
			aa_hunk *hunks;
			size_t nhunks;
		};
		struct {
			aa_repl *repls;
			size_t nrepls;
		};
		struct {
			aa_apmod *apmods;
			size_t napmods;
			/* strip trailing blanks of every line of the result */
			int strip_trailing_ws;
		};
		/*
		 * AA_EDIT_BINARY, on an AA_OP_EDIT (a modification), an
		 * AA_OP_WRITE (a creation: the pre-image is empty) or an
		 * AA_OP_DELETE (the file must be base_blob): base_blob holds
		 * the full id of the pre-image and new_blob that of the
		 * result (40 hex digits each, all zeros for "no file").
		 * bin[0] is the forward hunk (pre-image to result), bin[1]
		 * the optional reverse one (result to pre-image), nbin how
		 * many there are: 0 for "Binary files a/x and b/x differ",
		 * whose result must be in the repository by new_blob.
		 * Reversing the change (-R) swaps base_blob with new_blob
		 * and bin[0] with bin[1]: aa_op_binary_reverse().
		 */
		struct {
			aa_binhunk bin[2];
			size_t nbin;
			char new_blob[41];
			aa_pos bin_pos; /* "GIT binary patch" / "Binary files" line */
		};
	};

	/*
	 * Read hunks and paths as git apply does (the --strict contract
	 * of Documentation/format-diff.md): rung 1 only, no path
	 * resolution, its messages.
	 */
	int strict;
	/*
	 * The paths are a diff's names, whose a/ and b/ prefixes the diff
	 * parser took off by the diff convention: the planner does not
	 * take off another one (a new file "a/x.txt" stays there).
	 */
	int diff_names;
	/*
	 * AA_OP_EDIT whose input names two files for one edit (a plain
	 * diff's "---" and "+++" differ): the name not taken as path
	 * (owned; NULL otherwise). When path names no file and this one
	 * does, the planner edits this one, as GNU patch edits the file
	 * that exists.
	 */
	char *other_name;
	/* Which format produced it, for reports ("diff", "ap", ...). */
	const char *format;
	/*
	 * AA_OP_EDIT: the blob the edits were written against (hex, maybe
	 * abbreviated; "" when the input names none), as a git diff's
	 * "index <old>..<new>" line names it.
	 */
	char base_blob[41];
	/*
	 * AA_OP_RENAME / AA_OP_COPY from a git diff with a "similarity
	 * index N%" line (has_similarity set): N, which the reports print
	 * as git apply prints the patch's score.
	 */
	int has_similarity;
	unsigned similarity;
	/*
	 * Operations with the same non-zero value came from one diff block
	 * (one aa_parse_diff call) and apply as one change, as git apply
	 * applies a patch: old paths name the state before the block
	 * (src/plan/plan_one_change.c). 0: in order, as every other format.
	 */
	size_t diff_block;
} aa_op;

typedef struct aa_changeset {
	aa_op *ops;
	size_t n, cap;
} aa_changeset;

#define AA_CHANGESET_INIT { NULL, 0, 0 }

/*
 * Appends a zeroed operation of the given kind and returns it (NULL on
 * out-of-memory). The pointer is valid until the next append.
 */
aa_op *aa_changeset_add(aa_changeset *cs, aa_op_kind kind, aa_pos pos);
/* Append a hunk / hunk line / replacement / ap modification. */
aa_hunk *aa_op_add_hunk(aa_op *op, aa_pos pos);
int aa_hunk_add_line(aa_hunk *h, char kind, const char *text, size_t len);
/* Appends the hunk's lines of one kind (' ', '-', '+'), each with "\n". */
int aa_hunk_side_text(const aa_hunk *h, char kind, aa_buf *out);
aa_repl *aa_op_add_repl(aa_op *op, aa_pos pos);
aa_apmod *aa_op_add_apmod(aa_op *op, aa_pos pos);
/*
 * An AA_EDIT_BINARY op reversed (-R): the ids and the two hunks swap.
 * 0, or -1 when the patch has a forward hunk but no reverse one (git:
 * "cannot reverse-apply a binary patch without the reverse hunk").
 * The op's kind (creation / deletion) is the caller's to swap.
 */
int aa_op_binary_reverse(aa_op *op);
void aa_op_free(aa_op *op);
/*
 * Appends a deep copy of src to cs (-1 when out of memory; what was
 * copied stays freeable with the change set).
 */
int aa_op_clone(aa_changeset *cs, const aa_op *src);
void aa_changeset_free(aa_changeset *cs);
/* Drops the operations after the first n (a block that failed to parse). */
void aa_changeset_truncate(aa_changeset *cs, size_t n);
const char *aa_op_kind_name(aa_op_kind k);

#endif
