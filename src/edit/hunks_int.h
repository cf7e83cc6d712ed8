/*
 * The hunk engine's internals, shared by its files (src/edit/hunks*.c);
 * the engine itself is aa_edit_hunks() (edit.h), its design at the top
 * of hunks.c. Not for other engines.
 */
#ifndef AIAPPLY_HUNKS_INT_H
#define AIAPPLY_HUNKS_INT_H

#include "edit/applied.h"
#include "edit/edit.h"
#include "edit/locate.h"

/*
 * Candidate places listed in an ambiguity error. The search stops at
 * the one after them ("and more"): counting every match of a line that
 * fills the file would cost a pass for nothing.
 */
#define MAX_LISTED 5
/* Differing lines shown under a "not found" error. */
#define MAX_SHOWN 6
/* Bytes of a line quoted in a message. */
#define QUOTE_MAX 72

/*
 * A hunk applied so far: where (current line) and what it changed, kept
 * sorted by place with the running sum of the changes, so that a line's
 * number in the original file is a binary search away; hunks in file
 * order only ever append.
 */
typedef struct placed {
	size_t at;
	size_t old_n;            /* the lines it replaced */
	long delta;
	long sum;                /* delta of this and every earlier entry */
} placed;

struct hrun;

typedef struct hrun {
	aa_text *t;
	const aa_op *op;
	aa_edit_ctx *cx;
	aa_lrec *out;            /* the rebuilt part, at the array's start */
	size_t nout;
	aa_lrec *src;            /* the original at its end; src[cur..] not yet moved */
	size_t nsrc, cur;
	long delta;              /* lines added minus removed so far */
	long skipped_delta;      /* ... by the hunks found already applied */
	long last_offset;        /* the previous hunk's offset from its header */
	placed *placed;
	size_t nplaced, capplaced;
	int ws_ready;            /* every line's blank-tolerant hashes are set */
	/*
	 * With bare "@@" hunks: how many lines of the current text have
	 * each exact hash (see aa_hk_bare_exact()); NULL otherwise.
	 */
	uint32_t *count_key, *count_val;
	size_t count_cap;
	size_t next_at;          /* where the previous hunk's new lines end */
	/*
	 * Rung 2 found the hunk's old lines only before the previous hunk
	 * while its header's line is after it: the first such place, for
	 * the refusal (SIZE_MAX: none). Set per hunk.
	 */
	size_t behind_at;
	/*
	 * Bare hunks with the same old lines, one after the other, go to
	 * the places of those lines in order (see identical_run()): the
	 * hunks of the run still to place, this one included, and where
	 * the previous one's new lines end (0 for the first).
	 */
	size_t run_left, run_floor;
	/*
	 * The lines the current hunk may be found in, [win_lo, win_hi):
	 * a v4a chunk's region (aa_hunk.has_scope), else the whole text
	 * (win_hi SIZE_MAX).
	 */
	size_t win_lo, win_hi;
	/* rung 5's landing: blank context lines dropped and added */
	size_t drift_missing, drift_extra;
} hrun;

/* One try at a place: hunk lines [k0, k1) with their old side `pre`. */
typedef struct htry {
	const aa_hunk *h;
	size_t k0, k1;
	aa_lrec *pre, *post;
	size_t npre, npost;
	size_t pre_before;       /* old-side lines of the hunk before k0 */
	int anchor;              /* an anchor_kind: where the try must lie */
} htry;

/*
 * Where a numbered hunk must lie (git apply's match_beginning and
 * match_end, as GNU patch): one that shows lines before its first
 * change but none after its last was cut at the end of the file it was
 * written for; one that starts at line 1 and shows lines after its
 * changes but none before, at its start. See place_anchored().
 */
enum anchor_kind { ANCHOR_NONE, ANCHOR_START, ANCHOR_END };


/* How added lines are re-indented to follow the file. */
typedef struct ishift {
	enum {
		SHIFT_NONE, SHIFT_ADD, SHIFT_REMOVE,
		SHIFT_TO_TABS,       /* the hunk indents with n spaces a tab */
		SHIFT_TO_SPACES,     /* ... with tabs, the file with n spaces */
		SHIFT_MAP
	} kind;
	const char *s;           /* the prefix added or removed */
	size_t n;
	/* SHIFT_MAP: the hunk's indentation -> the file's, per line pair */
	const aa_lrec **from, **to;
	size_t npairs;
} ishift;

/*
 * Context lines before the first change and after the last in [0, k1),
 * and whether the changes next to each edge only add lines.
 */
typedef struct edges {
	size_t lead, trail;
	int adds_first, adds_last;
} edges;

/* Result of one rung: 1 landed, 0 try the next, -1 error reported. */
typedef int rung_result;

/* src/edit/hunks_run.c */
int aa_hk_oom(hrun *r, aa_pos pos);
aa_lview aa_hk_run_view(const hrun *r);
size_t aa_hk_run_len(const hrun *r);
long aa_hk_orig_line(const hrun *r, size_t at);
int aa_hk_remember_placed(hrun *r, size_t at, size_t old_n, long delta);
size_t aa_hk_cur_line(const hrun *r, size_t line);
int aa_hk_written(const hrun *r, size_t s, size_t n);
int aa_hk_out_pull(hrun *r, size_t upto);
int aa_hk_out_splice(hrun *r, size_t at, size_t del,
		     const aa_lrec *ins, size_t nins);
void aa_hk_count_add(hrun *r, uint32_t h, int delta);
uint32_t aa_hk_count_of(const hrun *r, uint32_t h);
int aa_hk_run_init(hrun *r, aa_text *t, const aa_op *op, aa_edit_ctx *cx);
void aa_hk_run_ws_ready(hrun *r);
int aa_hk_run_finish(hrun *r);
void aa_hk_run_release(hrun *r);
void aa_hk_try_release(htry *y);
int aa_hk_try_build(htry *y, const aa_hunk *h, size_t k0, size_t k1);
int aa_hk_reduced_core(const aa_hunk *h, size_t to, size_t *k0, size_t *k1);

/* src/edit/hunks_indent.c */
int aa_hk_find_shift(const aa_lview *v, size_t at, const htry *y, ishift *sh);
void aa_hk_shift_release(ishift *sh);
int aa_hk_shift_line(const ishift *sh, const char *s, size_t len, aa_buf *b);
int aa_hk_apply_at(hrun *r, size_t at, const htry *y, const ishift *sh);

/* src/edit/hunks_explain.c */
int aa_hk_report_ambiguous_as(hrun *r, const htry *y, const char *as,
			      const size_t *hits, long count);
int aa_hk_report_ambiguous(hrun *r, const htry *y, aa_ws lv, const size_t *hits,
			   long count);
void aa_hk_describe_line(aa_buf *b, const aa_lrec *f, const aa_lrec *p, long line);
int aa_hk_elsewhere(hrun *r, const htry *y, aa_buf *b);
int aa_hk_report_not_found(hrun *r, const htry *y, size_t hint);

/* src/edit/hunks_land.c */
int aa_hk_record(hrun *r, const htry *y, size_t at, aa_how how, aa_ws lv,
		 aa_reindent ri, long by);
int aa_hk_applied_at(hrun *r, const htry *y, size_t at, aa_ws lv, size_t *start);
int aa_hk_skip_applied(hrun *r, const htry *y, size_t start, aa_ws lv);
int aa_hk_land_here(hrun *r, const htry *y, size_t at, aa_how how, aa_ws lv);
int aa_hk_land(hrun *r, const htry *y, size_t at, aa_how how, aa_ws lv);

/* src/edit/hunks_ladder.c */
void aa_hk_hunk_edges(const aa_hunk *h, size_t k1, edges *e);
int aa_hk_hunk_anchor(const aa_hunk *h, size_t k1);
int aa_hk_hunk_edge(const aa_hunk *h, size_t k1);
void aa_hk_warn_bare_tail(hrun *r, const htry *y, size_t at);
aa_lview aa_hk_view_range(const hrun *r, size_t lo, size_t hi);
aa_lview aa_hk_window_view(const hrun *r, size_t from, size_t n);
rung_result aa_hk_unique_rung(hrun *r, const htry *y, aa_ws lv, aa_how how);
rung_result aa_hk_bare_exact(hrun *r, const htry *y);
rung_result aa_hk_already_applied(hrun *r, const htry *y, aa_ws lv);
size_t aa_hk_hinted_line(const hrun *r, const aa_hunk *h, long extra);
rung_result aa_hk_exact_rungs(hrun *r, const htry *y);
int aa_hk_place_insertion(hrun *r, const htry *y);
size_t aa_hk_count_kind(const aa_hunk *h, char kind);

/* src/edit/hunks_drift.c */
rung_result aa_hk_drift_rung(hrun *r, const htry *y);

/* src/edit/hunks.c */
rung_result aa_hk_ladder(hrun *r, const htry *y);

#endif
