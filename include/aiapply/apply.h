/*
 * The library's entry point: read the inputs, parse them into one change
 * set, open the base, plan and land -- one call taking the options and
 * returning the outcome with every diagnostic, as git's apply.c under
 * builtin/apply.c. The command line only parses options and prints the
 * result.
 *
 * Ownership (the conventions are in aiapply.h): the options and every
 * string and stream they point to are the caller's, borrowed for the
 * call. The results (aa_apply_result, aa_each_result) are opaque objects
 * the library allocates; the caller frees each with its _free function.
 * What their accessors return is borrowed from them.
 */
#ifndef AIAPPLY_APPLY_H
#define AIAPPLY_APPLY_H

#include <stdio.h>
#include <git2.h>
#include "aiapply/common.h"
#include "aiapply/color.h"

/* ---- the options ---- */

/* Where a change lands. */
typedef enum aa_land_mode {
	AA_LAND_INDEX,   /* default: index + work tree */
	AA_LAND_CACHED,  /* --cached: index only */
	AA_LAND_BRANCH,  /* --branch=<name>: a commit on a new branch */
	AA_LAND_CHECK    /* --check: nothing written */
} aa_land_mode;

typedef struct aa_land_opts {
	aa_land_mode mode;
	const char *branch;   /* --branch */
	const char *base;     /* --base (default HEAD) */
	const char *message;  /* -m: the commit's subject (and body) */
	int force;            /* --force */
	/*
	 * 1: never start a process. The library runs git for what only
	 * git does exactly: a path's filter driver (filter=<name> with
	 * filter.<name>.clean, .smudge or .process: git-lfs), the
	 * fetch of a blob a partial clone lacks, and `git rerere` after a
	 * --3way conflict (a note then says to run it). With this set, such a
	 * path is refused, saying why (for a server that must not run
	 * commands a repository's configuration names). 0: as git.
	 */
	int no_external_commands;
	/*
	 * 1: the repository's index (git_repository_index) is loaded and as
	 * its file is now -- a server that keeps it open and reads it again
	 * before each call: --check looks paths up in it instead of reading
	 * the index file again. 0 (the command line): the file is read.
	 */
	int index_current;
	/*
	 * With index_current: 1 when that index holds conflict entries (the
	 * caller asks once per version of the index, not once per call:
	 * the question walks every entry).
	 */
	int index_conflicts;
	/*
	 * Set by the pipeline, not by a caller (aa_apply overwrites them):
	 * --branch's trailer lines ("AI-Answer: a.md\n...") that end the
	 * commit message after a blank line, and the answer text stored as
	 * the new commit's note under refs/notes/ai-apply (the two refs in
	 * one transaction); whether to refuse paths beyond work-tree links.
	 */
	const char *trailers;
	const char *note;
	size_t note_len;
	int check_worktree;
} aa_land_opts;

/* The input formats (--format); AA_FORMAT_AUTO detects each block. */
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

typedef struct aa_parse_opts {
	aa_format format;   /* AA_FORMAT_AUTO = detect */
	int strict;         /* --strict: the unified diff contract */
	/*
	 * -p<n>, --strip=<n> (strip_given set): a diff's names lose n
	 * leading components, as git apply's -p<n>, and the prefixes are
	 * no longer guessed. Unset: a/ b/ and differing first components.
	 */
	int strip_given;
	int strip;
	/* --directory=<root>: prepended to every path of a diff; NULL: none */
	const char *directory;
	/*
	 * --include=<pattern> / --exclude=<pattern>, in the order given, as
	 * git apply's: each operation's path (after -p and --directory) is
	 * matched against them in order and the first match decides; when
	 * there is an include and none matches, the operation is left out
	 * (src/change/limit.c). Every format, not only diffs.
	 */
	const struct aa_path_rule *rules;
	size_t nrules;
	/*
	 * -R, --reverse: the change set is turned around before it is
	 * planned (src/change/reverse.c), so the answer lands backwards with
	 * the same locator, all or nothing.
	 */
	int reverse;
	/*
	 * Set by the pipeline: a preview (--stat, --numstat, --summary,
	 * --diff without --apply). A binary patch is then reported from the
	 * patch alone, as git apply --stat reports it: its ids need not be
	 * full (plan.preview says the same to the planner).
	 */
	int preview;
} aa_parse_opts;

/* One --include (include = 1) or --exclude (0) rule: a wildmatch pattern. */
typedef struct aa_path_rule {
	const char *pattern;
	int include;
} aa_path_rule;

/*
 * Name <-> enum; aa_format_from_name returns -1 for an unknown name.
 * aa_format_list appends every name ("auto" first) joined by `sep` to b
 * (the caller's buffer), for --help, usage errors and the tests that
 * check the manual and the completion against the registry; -1 on
 * out-of-memory.
 */
const char *aa_format_name(aa_format f);
int aa_format_from_name(const char *name);
int aa_format_list(aa_buf *b, const char *sep);

typedef struct aa_plan_opts {
	int allow_delete;     /* --allow-delete (needed by --strict deletions) */
	int threeway;         /* --3way: write a conflicting merge, do not refuse */
	/*
	 * Set by the pipeline for a preview (parse.preview): a binary change
	 * is reported as the patch says, not checked against the files.
	 */
	int preview;
	/*
	 * Set by the pipeline: the landing could take --3way (1; 2: once
	 * without --check; 0: --branch), so a conflict with the current
	 * content says to try it.
	 */
	int threeway_possible;
	/*
	 * Set by the pipeline, not by a caller: the work tree's root
	 * (absolute), as the repository gives it and with its links
	 * resolved; NULL when there is none. An absolute path in an answer
	 * is taken relative to it, or refused outside it.
	 */
	const char *worktree;
	const char *worktree_real;
	/*
	 * Set by the front end: nothing reads the edited bytes (--check -q,
	 * no report of them), so an edit's result may stay an unencoded
	 * text (Documentation/locating.md, "Cost of locating").
	 */
	int no_content;
} aa_plan_opts;

/* -p: the questions, asked between plan and land (git add -p's). */
typedef struct aa_select_opts {
	FILE *in;              /* the answers, one a line (standard input) */
	FILE *out;             /* the hunks and the questions (standard output) */
	const aa_color *color; /* NULL or off: no color */
	aa_land_mode mode;     /* the wording: "Stage" or "Apply ... to the branch" */
} aa_select_opts;

/*
 * An answer given as text rather than a file (a program's string: the
 * MCP server's tool argument), so the text is exactly what the AI
 * wrote. `name` labels it in messages and in --branch's AI-Answer
 * trailer ("answer"); the text may hold any byte and is limited as a
 * file is (AA_MAX_INPUT_SIZE). Both are the caller's, borrowed.
 */
typedef struct aa_text_input {
	const char *name;
	const char *text;
	size_t len;
} aa_text_input;

typedef struct aa_apply_opts {
	aa_land_opts land;
	aa_parse_opts parse;
	aa_plan_opts plan;
	const char *const *files; /* input files, "-" = stdin; none = stdin */
	size_t nfiles;
	/*
	 * The answers as texts: when ntexts is not 0 they are the inputs
	 * (input i of --each is texts[i]) and files is not read.
	 */
	const aa_text_input *texts;
	size_t ntexts;
	/*
	 * --branch: more provenance for the commit, trailer lines ("AI-Tool:
	 * git-ai-apply mcp\n"), each "Key: value" ending in a newline, put
	 * after the pipeline's own; NULL: none. A line that is no trailer is
	 * refused before anything is read.
	 */
	const char *extra_trailers;
	/*
	 * Called once the change set is parsed, before the lock is taken,
	 * when --strict deletes files and plan.allow_delete is not set, with
	 * the paths deleted (borrowed for the call): non-zero allows the
	 * deletions (a terminal prompt). May be NULL.
	 */
	int (*confirm_deletions)(const char *const *paths, size_t n,
				 void *payload);
	void *payload;
	/* -p: ask which changes to land between plan and land; NULL lands all. */
	const aa_select_opts *select;
	/*
	 * --each: land only the alternative-th (1-based) of the change sets
	 * the one input splits into; alternatives of them. 0: the whole
	 * change set.
	 */
	size_t alternative, alternatives;
} aa_apply_opts;

/* ---- one run ---- */

/* How a run ended. */
typedef enum aa_outcome {
	AA_OUT_APPLIED,
	AA_OUT_CHECKED,
	AA_OUT_ALREADY_APPLIED,
	AA_OUT_REJECTED,
	AA_OUT_FATAL,
	AA_OUT_CONFLICTED     /* --3way: landed, with conflicts (exit 1) */
} aa_outcome;

#define AA_APPLY_EXIT_REJECTED 1
#define AA_APPLY_EXIT_FATAL 128

/* The exit status of an outcome: 0, 1 (rejected or conflicted), 128. */
int aa_apply_exit_code(aa_outcome outcome);

/*
 * Opens the repository as git finds it (GIT_DIR, GIT_WORK_TREE, the
 * current directory); every mode but AA_LAND_BRANCH needs an index and a
 * work tree, which a bare repository has not. On failure
 * *repo is NULL and the error is in d. Returns AA_OK or AA_FATAL. The
 * caller frees *repo with git_repository_free().
 */
int aa_apply_open_repository(git_repository **repo, aa_land_mode mode,
			     aa_diags *d);

/*
 * The rules between options (src/workflow/apply_opts.c): --base, -m and
 * --force need --branch; --3way does not go with --branch; -p (select)
 * not with --check or --3way, nor with the answer on its own question
 * stream; --strict takes --format=diff only; every --include/--exclude
 * rule has a pattern. Each broken rule is an
 * error in d, in the command line's words. AA_OK, or AA_FATAL when one
 * is broken. aa_apply_each_opts_check adds --each's: --branch needed,
 * no -p.
 */
int aa_apply_opts_check(const aa_apply_opts *o, aa_diags *d);
int aa_apply_each_opts_check(const aa_apply_opts *o, aa_diags *d);

/*
 * What a run did: opaque. It keeps the repository's base open for the
 * report (aa_report_result reads blobs through it) until it is freed.
 */
typedef struct aa_apply_result aa_apply_result;

/*
 * Runs the whole pipeline: reads and parses the inputs, then (only when
 * they parse) takes the index lock, plans and lands. *res receives the
 * result, NULL only when it could not be allocated (the outcome is then
 * AA_OUT_FATAL; the accessors take NULL and say "out of memory"). Returns
 * the outcome. Free *res with aa_apply_result_free().
 */
aa_outcome aa_apply(git_repository *repo, const aa_apply_opts *o,
		    aa_apply_result **res);
/* Releases the result and everything it holds; NULL is fine. */
void aa_apply_result_free(aa_apply_result *res);

aa_outcome aa_apply_result_outcome(const aa_apply_result *res);
/* Every message of the run, in order (borrowed from res). */
const aa_diags *aa_apply_result_diags(const aa_apply_result *res);
/*
 * 1 when the run stopped before it began (options that cannot go
 * together, or an input that could not be read):
 * the command line says its errors as git's die() does.
 */
int aa_apply_result_stopped(const aa_apply_result *res);
/*
 * The paths the run changed (would change, with --check), in the order
 * the answer first touched them; a rename is its two paths. Borrowed.
 */
size_t aa_apply_result_nfiles(const aa_apply_result *res);
const char *aa_apply_result_file(const aa_apply_result *res, size_t i);
/* --branch that landed: the new commit (borrowed); else NULL. */
const git_oid *aa_apply_result_commit(const aa_apply_result *res);

/* ---- --each ---- */

/*
 * --each: input i is its own suggestion, landed on <branch>-<i+1> (or,
 * when it holds alternatives, each on <branch>-<i+1>.<k>), all
 * from one base read once. Each stays all or nothing: planned and built
 * in memory, the objects of all that built written in one pack, then
 * each one's branch and note refs in a transaction of its own. Opaque.
 */
typedef struct aa_each_result aa_each_result;

/*
 * Runs --each (o->land.branch is the prefix). Returns the exit status:
 * 0 when every suggestion landed (or was already applied), else the
 * worst (128 over 1). With no suggestion (aa_each_result_count() 0)
 * nothing was tried: the reason is in aa_each_result_diags(). *res
 * receives the result (NULL only when out of memory, as aa_apply); free
 * it with aa_each_result_free().
 */
int aa_apply_each(git_repository *repo, const aa_apply_opts *o,
		  aa_each_result **res);
/* Releases the result, its suggestions' results too; NULL is fine. */
void aa_each_result_free(aa_each_result *res);

size_t aa_each_result_count(const aa_each_result *res);
/* Suggestion i's own result, borrowed from res (not to be freed). */
aa_apply_result *aa_each_result_get(aa_each_result *res, size_t i);
/* Suggestion i's branch name, borrowed. */
const char *aa_each_result_branch(const aa_each_result *res, size_t i);
/* How many suggestions did not land. */
size_t aa_each_result_failed(const aa_each_result *res);
/*
 * The run's own messages (borrowed): why nothing was tried, or that the
 * pack's keep and journal could not be removed (exit 128).
 */
const aa_diags *aa_each_result_diags(const aa_each_result *res);

#endif
