/*
 * -p's model, shared by the dialogue (select.c) and select_model.c:
 * one file's diff and its hunks, the content question of a file, the
 * plan's changes by path with what is kept, and the warnings of what did
 * not land. Private to src/workflow/select*.c.
 */
#ifndef AA_WORKFLOW_SELECT_MODEL_H
#define AA_WORKFLOW_SELECT_MODEL_H

#include <git2.h>

#include "land/land.h"

/* ---- one file's diff ---- */

typedef struct dline {
	char origin;          /* ' ', '-' or '+' */
	const char *p;        /* the line with its end, when it has one */
	size_t len;
	size_t obefore;       /* old lines before this one */
	size_t nbefore;       /* new lines before this one */
} dline;

/* A run of -/+ lines: the smallest part a split can give. */
typedef struct atom {
	size_t first, last;   /* dlines [first, last) */
} atom;

/* A line of an edited hunk: its origin and its bytes (in the edit text). */
typedef struct eline {
	char origin;
	const char *p;
	size_t len;
} eline;

enum { UNDECIDED = 0, YES = 1, NO = -1 };

typedef struct hunk {
	size_t first, last;   /* the dlines shown, context included */
	size_t a0, a1;        /* its atoms [a0, a1) */
	int answer;
	char *edit;           /* e: the edited text (owned) ... */
	eline *elines;        /* ... its lines, pointing into it */
	size_t nelines;
	const char *tail;     /* the header's function context, with its end */
	size_t tail_len;
	size_t orig;          /* the diff's hunk it is (a part of) */
} hunk;

typedef struct oline {
	const char *p;
	size_t len;
} oline;

typedef struct fdiff {
	git_patch *patch;
	int binary;
	const char *old;
	size_t old_len;
	oline *olines;        /* the base, line by line (1-based: olines[k-1]) */
	size_t nold;
	dline *lines;
	size_t nlines;
	atom *atoms;
	size_t natoms;
	hunk *hunks;
	size_t nhunks;
} fdiff;

/* The content of a change after the questions. */
typedef enum content_result {
	CONTENT_NONE,         /* the old content stays */
	CONTENT_ALL,          /* the planned content, as planned */
	CONTENT_PART          /* a selected content, in `part` */
} content_result;

typedef struct file_q {
	aa_change *c;         /* the change whose content is asked about */
	const char *old;      /* the content it is asked against */
	size_t old_len;
	fdiff f;
	int whole;            /* binary: one question for the content */
	unsigned char *keep_landing;
	content_result result;
	char *part;           /* CONTENT_PART (maybe NONE): owned by the selection */
	size_t part_len;
} file_q;

/* The plan's changes, indexed by path, and which of them are kept. */
typedef struct sel_set {
	aa_session *s;
	aa_plan *plan;
	aa_diags *d;
	unsigned char *keep;  /* per change: kept */
	size_t *by_path;      /* the changes' indexes in path order */
	unsigned char *rename_src; /* per change: a rename's deletion */
} sel_set;

/* Where an edit of the answer landed, before the selection. */
typedef struct placed {
	const char *path;
	aa_pos pos;
} placed;

/* Appends hunk h's "@@ -a,b +c,d @@" line (with its function context). */
void aa_sel_hunk_header(aa_buf *b, const fdiff *f, const hunk *h);
/*
 * The hunk a landing belongs to; (size_t)-1 for a landing with no line
 * or one that changed nothing.
 */
size_t aa_sel_landing_hunk(const fdiff *f, const aa_landing *l);
/* s: hunk hi becomes one hunk per atom; -1 out of memory. */
int aa_sel_split_hunk(fdiff *f, size_t hi);

/* e: the edited text's lines in v (count), -1 when a line is no diff line. */
long aa_sel_parse_edit(char *text, size_t len, eline *v);
/* 1 when the edited lines keep hunk h's old side, byte for byte. */
int aa_sel_edit_fits(const fdiff *f, const hunk *h, const eline *v, size_t n);
/* Takes the edited text (owned) and its lines as h's content. */
int aa_sel_keep_edit(hunk *h, char *text, eline *v, size_t n);

/*
 * Loads the content question of change c asked against `old`: hunks, or
 * one whole question when binary. 1, 0 when the content does not
 * differ, AA_FATAL.
 */
int aa_sel_load_content(aa_session *s, file_q *fq, aa_change *c,
			const char *old, size_t old_len, git_blob **blob,
			aa_diags *d);
/*
 * The content the hunks' answers decide, and the landings they keep.
 * A selected content is left in fq->part for the caller to own.
 */
int aa_sel_settle_content(file_q *fq, aa_diags *d);
void aa_sel_file_q_free(file_q *fq);
/* Drops the landings of refused hunks from c (keep: per landing). */
void aa_sel_filter_landings(aa_change *c, const unsigned char *keep);
/* Sets c's content from fq's result, over old_oid (the base asked against). */
void aa_sel_apply_content(aa_change *c, const file_q *fq,
			  const aa_oid *old_oid);

/* Indexes the plan's changes by path, and flags renames' deletions. */
int aa_sel_index_changes(sel_set *x);
aa_change *aa_sel_find_change(sel_set *x, const char *path);
/* The deletion that is the other half of rename t, or NULL. */
aa_change *aa_sel_rename_source(sel_set *x, const aa_change *t);
int aa_sel_is_rename_source(sel_set *x, const aa_change *c);
/* Drops kept creations left without room, until nothing changes. */
void aa_sel_keep_consistent(sel_set *x);
/* Removes the changes not kept from the plan, in order. */
void aa_sel_compact(sel_set *x);

/* Where the answer's edits landed before the selection (NULL: out of memory). */
placed *aa_sel_record_placements(const aa_plan *plan, size_t *n);
/* Drops the warnings that go with what did not land. */
void aa_sel_drop_warnings(const aa_plan *plan, const placed *v, size_t n,
			  aa_diags *d);

#endif
