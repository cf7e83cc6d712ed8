/*
 * Edit engines: apply an AA_OP_EDIT's edits to a decoded text. Each
 * engine records where every edit landed and how, warnings for every
 * non-exact landing and errors (with the nearest miss) when it cannot.
 */
#ifndef AIAPPLY_EDIT_H
#define AIAPPLY_EDIT_H

#include "change/changeset.h"
#include "edit/elision.h"
#include "edit/text.h"

/* How an edit landed: the rung of the ladder (Documentation/locating.md). */
typedef enum aa_how {
	AA_HOW_EXACT,           /* rung 1: exact, at the hinted line */
	AA_HOW_OFFSET,          /* rung 2: exact, elsewhere */
	AA_HOW_WHITESPACE,      /* rung 3: whitespace-insensitive */
	AA_HOW_REDUCED_CONTEXT, /* rung 4: outer context differs */
	AA_HOW_BLANK_LINES,     /* rung 5: blank context lines missing or extra */
	AA_HOW_CONTENT,         /* located by content (bare @@, find, snippet) */
	AA_HOW_ALREADY_APPLIED, /* skipped: its result is already there */
	AA_HOW_MERGED,          /* applied to an earlier version, then merged */
	/*
	 * Not a rung: a whole operation's mark (line 0), tolerant. Its
	 * path named no file and was resolved by content to this one
	 * (Documentation/locating.md, "Which file a path names") ...
	 */
	AA_HOW_PATH_RESOLVED,
	/* ... or a whole-file replacement dropped top-level definitions. */
	AA_HOW_DEFINITIONS_REMOVED
} aa_how;

/*
 * How a landing re-indented the answer's added lines to follow the
 * file's indentation (the blank-tolerant rungs 3 and 4), when it changed
 * at least one of them.
 */
typedef enum aa_reindent {
	AA_REINDENT_NONE,
	AA_REINDENT_DEEPER,     /* a prefix of reindent_by blanks added */
	AA_REINDENT_SHALLOWER,  /* a prefix of reindent_by blanks removed */
	AA_REINDENT_TABS,       /* reindent_by spaces became one tab */
	AA_REINDENT_SPACES,     /* one tab became reindent_by spaces */
	AA_REINDENT_MAPPED      /* each indentation to the file's own */
} aa_reindent;

typedef struct aa_landing {
	aa_pos pos;     /* the hunk / replacement / modification */
	long line;      /* 1-based line in the file before the edit; 0 = n/a */
	long offset;    /* line - hinted line, when there was a hint */
	aa_how how;
	aa_reindent reindent;
	long reindent_by;   /* see aa_reindent; 0 for NONE and MAPPED */
} aa_landing;

typedef struct aa_edit_ctx {
	const char *path;     /* repository path, for messages */
	aa_diags *diags;
	int strict;           /* --strict (format-diff.md): rung 1 only */
	/*
	 * Rungs 1 and 2 only: no "new side found once" rung, no tolerant
	 * rung (a new side covering the place found is still "already
	 * applied": src/edit/applied.h). The planner tries this
	 * first, and against the revision the answer was written for
	 * (history), before the whole ladder. A hunk that finds no place
	 * gets a short error without the explanation (its closest region):
	 * both callers drop the reasons of a try that fails.
	 */
	int exact_only;
	/*
	 * Set by the planner: the diff's `index` line names the blob the
	 * text is, so its hunk headers' line numbers are the text's own
	 * (git's preimage): a hunk that only adds lines, with no context to
	 * locate it (diff -U0), goes at its header's line, as git apply
	 * --unidiff-zero puts it.
	 */
	int preimage_named;
	/* results */
	aa_landing *landings;
	size_t nlandings, cap;
	size_t applied;       /* edits that changed the text */
	size_t skipped;       /* edits already present */
} aa_edit_ctx;

int aa_edit_landing_add(aa_edit_ctx *cx, aa_pos pos, long line,
			long offset, aa_how how);
const char *aa_how_name(aa_how how);
/*
 * 1 when a placement made this way is tolerant (Documentation/locating.md,
 * "One list of tolerant placements").
 */
int aa_how_is_tolerant(aa_how how);
/* The same for a name aa_how_name gave (0 for an unknown name). */
int aa_how_name_is_tolerant(const char *name);
/* "deeper", "shallower", "tabs", "spaces", "mapped"; "none". */
const char *aa_reindent_name(aa_reindent r);
/* Its value from aa_reindent_name(); -1 when the name is none of them. */
int aa_reindent_parse(const char *name, aa_reindent *out);
/*
 * "indented 4 blanks deeper", "indented with tabs (4 spaces a tab)", ...:
 * what the re-indent did to the added lines, for messages.
 */
void aa_reindent_describe(aa_reindent r, long by, aa_buf *out);
void aa_edit_ctx_release(aa_edit_ctx *cx);

/*
 * One edit engine: applies an op's payload of its kind to the text,
 * returning 0, or -1 with errors in cx->diags (the text then undefined).
 */
typedef int (*aa_engine_fn)(aa_text *t, const aa_op *op, aa_edit_ctx *cx);
/*
 * An engine of bytes, not text (a binary patch): the result of the op's
 * payload on the pre-image pre[0..prelen) into out; 0, or -1 with the
 * error in cx->diags.
 */
typedef int (*aa_bytes_fn)(const char *pre, size_t prelen, const aa_op *op,
			   aa_edit_ctx *cx, aa_buf *out);

typedef struct aa_engine {
	aa_edit_kind kind;
	const char *name;     /* "hunks", "replacements", ... */
	aa_engine_fn apply;   /* NULL: nothing to apply to a text */
	aa_bytes_fn bytes;    /* the engine of bytes, when it is one */
} aa_engine;

/* The engine of an edit kind (src/edit/engines.c); NULL for none. */
const aa_engine *aa_engine_of(aa_edit_kind kind);

/* The engines, each an aa_engine_fn (the table reaches them). */
int aa_edit_hunks(aa_text *t, const aa_op *op, aa_edit_ctx *cx);
int aa_edit_replacements(aa_text *t, const aa_op *op, aa_edit_ctx *cx);
int aa_edit_ap(aa_text *t, const aa_op *op, aa_edit_ctx *cx);
/* v4a chunks: anchors resolved, then the hunk engine (src/edit/v4a_chunks.c). */
int aa_edit_v4a(aa_text *t, const aa_op *op, aa_edit_ctx *cx);
/*
 * A whole-file replacement with elisions (src/edit/elide.c): each
 * placeholder line ("// ... existing code ...") becomes the original
 * lines between the unique lines around it, or the edit is refused.
 */
int aa_edit_elide(aa_text *t, const aa_op *op, aa_edit_ctx *cx);
/*
 * A hunk whose added lines may elide its removed lines (may_elide, a
 * SEARCH/REPLACE block's): 1 when one of them is an elision.
 */
int aa_hunk_has_elisions(const aa_hunk *h, const char *path);
/*
 * Resolves them against the removed lines, as aa_edit_elide does a whole
 * file against the file: 0 (also when there is none), or -1 with the
 * error in d (about the file `shown`), naming the elision's input line.
 */
int aa_hunk_resolve_elisions(aa_hunk *h, const char *path, const char *shown,
			     aa_diags *d);

/*
 * The binary engine (src/edit/binary.c): the forward hunk of the op's
 * binary patch on the pre-image (a literal is the result, a delta is
 * applied to it). Object ids are not checked here.
 */
int aa_edit_binary(const char *pre, size_t prelen, const aa_op *op,
		   aa_edit_ctx *cx, aa_buf *out);
/*
 * A git delta's parts (shared with the history's delta filter): a
 * header varint at *p (low bits first), and a copy opcode's offset and
 * size (cmd's bits say which bytes follow). 0, or -1 when cut short.
 */
int aa_delta_varint(const unsigned char **p, const unsigned char *end,
		    size_t *out);
int aa_delta_copy_args(const unsigned char **p, const unsigned char *end,
		       unsigned char cmd, size_t *off, size_t *size);
/*
 * git's delta format applied to src[0..srclen) into out (appended):
 * 0, or -1 with *why when the delta is malformed, is for a source of
 * another size, reaches outside it, or makes more than max bytes or
 * another size than it states.
 */
int aa_delta_apply(const unsigned char *src, size_t srclen,
		   const unsigned char *delta, size_t dlen, size_t max,
		   aa_buf *out, const char **why);

/* Where a block that looks like an excerpt of a file sits in it. */
typedef struct aa_excerpt {
	size_t first, last;   /* 1-based lines of the file it starts and ends at */
	size_t dropped;       /* the file's non-blank lines it leaves out */
	size_t total;         /* the file's non-blank lines */
} aa_excerpt;

/*
 * 1 when `block`, offered as the whole new content of a file now holding
 * `file`, looks like an excerpt of it instead: its first and last lines
 * are lines of the file, at least one of them away from the file's own
 * first or last line, and the lines before and after them that it leaves
 * out are more than half of the file (answers that show one function
 * under the file's name). 0 otherwise, and for small files; -1 when
 * out of memory.
 */
int aa_looks_like_excerpt(const char *file, size_t file_len,
			  const char *block, size_t block_len, aa_excerpt *out);

/*
 * A diff deletion: 0 when the op's hunks remove exactly the whole file
 * (or the op has no hunks), else -1 with an error.
 */
int aa_edit_check_deletion(const aa_text *t, const aa_op *op, aa_edit_ctx *cx);

/* ap §3.5: removes trailing spaces and tabs from every line. */
int aa_text_strip_trailing_ws(aa_text *t);

#endif
