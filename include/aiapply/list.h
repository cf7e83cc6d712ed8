/*
 * The suggestion branches the tool made (a tip commit with an AI-Answer
 * trailer) and, for each, whether it merges into HEAD now -- decided in
 * memory: the merge's objects go to an in-memory store, nothing is
 * written to the repository.
 *
 * Ownership: aa_list_suggestions() returns an array the library
 * allocated; aa_suggestions_free(v, n) frees it with every string in it.
 * aa_merge_state_name() returns a static string.
 */
#ifndef AIAPPLY_LIST_H
#define AIAPPLY_LIST_H

#include <git2.h>
#include "aiapply/common.h"

typedef enum aa_merge_state {
	AA_MERGE_CLEAN,      /* "merges": a merge into HEAD has no conflict */
	AA_MERGE_CONFLICTS,  /* "conflicts" */
	AA_MERGE_MERGED,     /* "merged": the commit is in HEAD's history */
	AA_MERGE_APPLIED,    /* "applied": HEAD's tree holds its changes already */
	AA_MERGE_NO_HEAD     /* "no-head": HEAD is unborn */
} aa_merge_state;

typedef struct aa_suggestion {
	char *branch;         /* short name: "ai/fix-1" */
	char *answers;        /* the AI-Answer values, joined by ", " */
	git_oid tip;
	git_oid base;         /* the tip's parent */
	int has_base;         /* 0: a root commit */
	int base_in_head;     /* the base is HEAD or one of its ancestors */
	size_t head_ahead;    /* commits HEAD has that the base has not */
	size_t files, added, removed; /* base..tip */
	long tolerant;        /* AI-Tolerant-Placements, -1 when absent */
	aa_merge_state merge;
} aa_suggestion;

/*
 * The local branches whose short name matches `pattern` (fnmatch, as
 * git branch --list; NULL: all) and whose tip is a suggestion, sorted
 * by name. Returns AA_OK or AA_FATAL (message in d).
 */
int aa_list_suggestions(git_repository *repo, const char *pattern,
			aa_suggestion **out, size_t *n, aa_diags *d);
void aa_suggestions_free(aa_suggestion *v, size_t n);
const char *aa_merge_state_name(aa_merge_state m);

#endif
