/*
 * The review record as read (review.c writes and reads it; --review and
 * --undo use it). Format: review.c's header comment and
 * Documentation/workflows.md, "Review record and --review".
 */
#ifndef AA_REVIEW_RECORD_H
#define AA_REVIEW_RECORD_H

#include <git2.h>
#include "aiapply/common.h"
#include "edit/edit.h"

#define AA_RV_ZERO_HEX "0000000000000000000000000000000000000000"

typedef struct aa_rv_edit {
	long line, offset;
	char *how;
	int tolerant;
	aa_reindent reindent;
	long reindent_by;
} aa_rv_edit;

typedef struct aa_rv_file {
	char *path;
	char staged[41];      /* stage 0's blob after the landing; zeros: none */
	char now[41];         /* the index's blob now */
	int in_index;         /* staged blob still in the index, uncommitted */
	int worktree_changed;
	aa_rv_edit *edits;
	size_t nedits;
	/* version 3 ("before"): the entry before the landing and after it */
	int has_before;
	unsigned before_mode; /* 0: absent */
	char before[41];
	unsigned landed_mode; /* 0: removed; a conflict: stage 3's mode */
	/* version 3 ("conflict"): --3way left stages 1-3 here */
	int conflict;
	char theirs[41];      /* stage 3's blob */
	char markers[41];     /* the work tree's content, with the markers */
	int conflict_now;     /* the index still holds that conflict */
	/* version 3 ("worktree", --cached): the work tree at the landing */
	int has_worktree;
	unsigned wt_mode;     /* 0: absent */
	char wt[41];
} aa_rv_file;

typedef struct aa_rv_record {
	aa_rv_file *files;
	size_t nfiles;
	char **answers;       /* "<blob>\t<name>" */
	size_t nanswers;
	char **warnings;      /* "<message>\t<path>" */
	size_t nwarnings;
	char *assisted;       /* the trailer's value; NULL in version 1 */
	int version;
	int cached;           /* version 3: "landing cached" (else the default mode) */
	int has_head;         /* version 3: HEAD at the landing ... */
	char head[41];        /* ... zeros when unborn */
} aa_rv_record;

/* <gitdir>/ai-apply/review into path; -1 out of memory. */
int aa_review_record_path(git_repository *repo, aa_buf *path);
/* 1: read; 0: no record; -1: unreadable or damaged (error in d). */
int aa_review_read(const char *file, aa_rv_record *r, aa_diags *d);
void aa_review_record_free(aa_rv_record *r);
/* Removes the record and its ".seen" mark; a failure is a warning. */
void aa_review_drop(const char *file, aa_diags *d);
/*
 * Whether the work tree file at path is not (mode, hex) as git would
 * add it (mode 0: absent; without core.filemode the executable bit is
 * not compared). A path it cannot read (a directory, beyond a link)
 * differs.
 */
int aa_review_worktree_differs(git_repository *repo, const char *path,
			       unsigned mode, const char *hex, int filemode);

#endif
