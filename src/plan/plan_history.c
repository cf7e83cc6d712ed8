/*
 * Hunks and the revision the answer was written against: exact on the
 * current content, else on an earlier version merged in (or kept as a
 * conflict under --3way).
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/history_filter.h"
#include "plan/planner.h"
#include "util/util.h"

/*
 * A numbered hunk fits an earlier version only this close to the line
 * its header names: an exact match farther off is more likely chance.
 */
#define HISTORY_NEAR 50

/* Moves every diagnostic of `from` to the end of `to`. */
static void diags_take(aa_diags *to, aa_diags *from)
{
	size_t i;

	if (from->n && aa_array_grow(&to->v, &to->cap, to->n + from->n,
				     sizeof(*to->v)) < 0) {
		aa_diags_free(from);
		return;
	}
	for (i = 0; i < from->n; i++)
		to->v[to->n++] = from->v[i];
	to->nerrors += from->nerrors;
	free(from->v);
	memset(from, 0, sizeof(*from));
}

/* Every hunk landed exactly at its header's line (rung 1). */
static int all_at_hints(const aa_edit_ctx *cx)
{
	size_t i;

	for (i = 0; i < cx->nlandings; i++)
		if (cx->landings[i].how != AA_HOW_EXACT)
			return 0;
	return 1;
}

/*
 * Rungs 1 and 2 on the current content (at_hints: rung 1 only, every
 * hunk at its header's line, else nothing is kept and 0 returned): 1 landed, 0 not (the reasons
 * are dropped: history or the ladder will say), -1 error reported.
 * *enc receives the file's encoding.
 */
int exact_here(planner *p, const aa_op *op, aa_plan_node *n,
	       aa_enc *enc, int at_hints)
{
	aa_edit_ctx cx = { 0 };
	aa_diags scratch = AA_DIAGS_INIT;
	int r;

	cx.diags = &scratch;
	cx.exact_only = 1;
	/* the engine's refusal is in scratch; a failure to keep it is not */
	r = edit_and_commit_if(p, op, n, aa_edit_hunks, &cx, enc,
			       at_hints ? all_at_hints : NULL);
	if (r == 2) {
		aa_diags_free(&scratch);
		aa_edit_ctx_release(&cx);
		return 0;  /* not decided: nothing kept */
	}
	if (!r) {
		diags_take(p->d, &scratch);
		r = 1;
	} else {
		r = scratch.nerrors ? 0 : -1;
	}
	aa_diags_free(&scratch);
	aa_edit_ctx_release(&cx);
	return r;
}

/* The search for the version the answer was written against. */
typedef struct hsearch {
	planner *p;
	const aa_op *op;
	const char *path;
	const char *cur;         /* the current content */
	size_t curlen;
	int found;               /* a version took every hunk */
	char *label;             /* ... which */
	int merge;               /* merge3's result */
	aa_buf result;           /* the merge, or its conflict */
	aa_edit_ctx cx;          /* the landings on that version */
	aa_buf *blocks;          /* each hunk's old lines, for the filter */
	aa_needle *needles;      /* the filter's: the blocks, then their longest lines */
	aa_version_filter filter;
	int held;                /* the history showed the version holds the needles */
	size_t last_failed;      /* the hunk the filter stopped at last */
	aa_buf *siblings;        /* the old lines of the answer's other */
	size_t nsiblings, capsiblings; /* hunks for this file (build_siblings) */
	int keep_sides;          /* --3way: keep the version and theirs */
	int index_line_only;     /* only the blob the diff's index line names */
	aa_buf version;          /* ... the version's bytes (stage 1) */
	aa_buf theirs;           /* ... with the answer's hunks (stage 3) */
} hsearch;

/* Where a hunk's trailing run of "loose" lines (which may be cut) starts. */
static size_t firm_lines(const aa_hunk *h)
{
	size_t k = h->nlines;

	while (k > 0 && h->lines[k - 1].loose)
		k--;
	return k;
}

static int hunk_side(const aa_hunk *h, int new_side, aa_buf *b);
/* The longest line of a block (a needle for files with CRs). */
static void longest_line(const aa_buf *b, const char **s, size_t *len)
{
	const char *p = b->ptr, *end = b->ptr + b->len;

	*s = p;
	*len = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)((nl ? nl : end) - p);

		if (l > *len) {
			*s = p;
			*len = l;
		}
		p = nl ? nl + 1 : end;
	}
}

/*
 * The filter (history_filter.h): in a version without CRs each hunk's
 * old lines joined by LF, in one with CRs each hunk's longest old line.
 */
static int build_filter(hsearch *hs)
{
	size_t n = hs->op->nhunks, i;

	hs->needles = calloc(n ? 2 * n : 1, sizeof(*hs->needles));
	if (!hs->needles)
		return -1;
	for (i = 0; i < n; i++) {
		hs->needles[i].s = hs->blocks[i].ptr;
		hs->needles[i].len = hs->blocks[i].len;
		longest_line(&hs->blocks[i], &hs->needles[n + i].s, &hs->needles[n + i].len);
	}
	hs->filter.lf = hs->needles;
	hs->filter.cr = hs->needles + n;
	hs->filter.n = n;
	hs->filter.hint_only = hs->index_line_only;
	hs->filter.held = &hs->held;
	return 0;
}

/* Each hunk's old side as one block of LF-joined lines (the filter's needles). */
static int build_blocks(hsearch *hs)
{
	const aa_op *op = hs->op;
	size_t i;

	hs->blocks = calloc(op->nhunks ? op->nhunks : 1, sizeof(*hs->blocks));
	if (!hs->blocks)
		return -1;
	for (i = 0; i < op->nhunks; i++)
		if (hunk_side(&op->hunks[i], 0, &hs->blocks[i]) < 0)
			return -1;
	return build_filter(hs);
}

static void free_blocks(hsearch *hs)
{
	size_t i;

	for (i = 0; hs->blocks && i < hs->op->nhunks; i++)
		aa_buf_free(&hs->blocks[i]);
	free(hs->blocks);
	free(hs->needles);
	for (i = 0; i < hs->nsiblings; i++)
		aa_buf_free(&hs->siblings[i]);
	free(hs->siblings);
}

/* Hunk h's firm old lines (or, new_side, its new lines), LF-joined. */
static int hunk_side(const aa_hunk *h, int new_side, aa_buf *b)
{
	size_t firm = firm_lines(h), k;

	for (k = 0; k < firm; k++) {
		if (h->lines[k].kind == (new_side ? '-' : '+'))
			continue;
		if ((b->len && aa_buf_putc(b, '\n') < 0) ||
		    aa_buf_put(b, h->lines[k].text, h->lines[k].len) < 0)
			return -1;
	}
	return 0;
}

/* The answer's hunk edits of this op's file: ops[i] is one. */
static int same_file_hunks(const hsearch *hs, size_t i)
{
	const aa_op *o = &hs->p->cs->ops[i];

	return o->kind == AA_OP_EDIT && o->edit_kind == AA_EDIT_HUNKS &&
	       o->path && !strcmp(o->path, hs->op->path);
}

/* Some hunk of the answer for this file writes lines that hold b. */
static int answer_writes(const hsearch *hs, const aa_buf *b)
{
	aa_buf side = AA_BUF_INIT;
	size_t i, j;
	int found = 0;

	for (i = 0; !found && i < hs->p->cs->n; i++) {
		const aa_op *o = &hs->p->cs->ops[i];

		if (!same_file_hunks(hs, i))
			continue;
		for (j = 0; !found && j < o->nhunks; j++) {
			aa_buf_clear(&side);
			if (hunk_side(&o->hunks[j], 1, &side) < 0) {
				found = -1;
				break;
			}
			found = side.len >= b->len &&
				memmem(side.ptr, side.len, b->ptr, b->len) != NULL;
		}
	}
	aa_buf_free(&side);
	return found;
}

/*
 * The old lines of the answer's other edits of this file (separate
 * SEARCH blocks, separate diffs of one path), except those that the
 * answer's own hunks write (a block that edits what an earlier one
 * wrote): the version the answer was written against holds them too.
 * A block that matches twice in the current content and once in an old
 * version, where the place another block edits does not exist yet, is
 * not evidence of that version: the answer saw the current one.
 */
static int build_siblings(hsearch *hs)
{
	const aa_changeset *cs = hs->p->cs;
	size_t i, j;
	int w;

	if (!cs)
		return 0;
	for (i = 0; i < cs->n; i++) {
		const aa_op *o = &cs->ops[i];

		if (o == hs->op || !same_file_hunks(hs, i))
			continue;
		for (j = 0; j < o->nhunks; j++) {
			aa_buf b = AA_BUF_INIT;

			if (hunk_side(&o->hunks[j], 0, &b) < 0)
				return -1;
			w = b.len ? answer_writes(hs, &b) : 1;
			if (w < 0 || (!w && aa_array_grow(&hs->siblings,
					&hs->capsiblings, hs->nsiblings + 1,
					sizeof(*hs->siblings)) < 0)) {
				aa_buf_free(&b);
				return -1;
			}
			if (w)
				aa_buf_free(&b);
			else
				hs->siblings[hs->nsiblings++] = b;
		}
	}
	return 0;
}

/*
 * Some hunk has old lines (context or removed) a version must hold:
 * hunks that only add lines fit every version long enough, so they
 * cannot tell which one the answer was written against.
 */
static int has_evidence(const hsearch *hs)
{
	size_t i, k;

	for (i = 0; i < hs->op->nhunks; i++) {
		const aa_hunk *h = &hs->op->hunks[i];
		size_t firm = firm_lines(h);

		for (k = 0; k < firm; k++)
			if (h->lines[k].kind != '+')
				return 1;
	}
	return 0;
}

/*
 * How many times (0, 1, or 2 for more) the LF-joined lines s[0..slen)
 * stand in data as whole lines.
 */
static int places_of_lines(const char *data, size_t len, const char *s, size_t slen)
{
	const char *p = data, *end = data + len;
	int n = 0;

	while (slen && n < 2 && (p = memmem(p, (size_t)(end - p), s, slen)) != NULL) {
		const char *e = p + slen;

		if ((p == data || p[-1] == '\n') &&
		    (e == end || *e == '\n' || (*e == '\r' && (e + 1 == end || e[1] == '\n'))))
			n++;
		p++;
	}
	return n;
}

/* places_of_lines() for a hunk's old lines, joined by LF or, in a file with CRs, CRLF. */
static int block_places(const char *data, size_t len, const aa_buf *b)
{
	aa_buf crlf = AA_BUF_INIT;
	size_t i;
	int n = places_of_lines(data, len, b->ptr, b->len);

	if (n || !memchr(data, '\r', len))
		return n;
	for (i = 0; i < b->len; i++)
		if ((b->ptr[i] == '\n' && aa_buf_putc(&crlf, '\r') < 0) ||
		    aa_buf_putc(&crlf, b->ptr[i]) < 0) {
			aa_buf_free(&crlf);
			return -1;
		}
	n = places_of_lines(data, len, crlf.ptr, crlf.len);
	aa_buf_free(&crlf);
	return n;
}

/*
 * No hunk has a line number (bare "@@", SEARCH blocks, V4A chunks),
 * every hunk's old lines stand in the current content, and some stand
 * at several places: the current content explains the answer, and
 * what is missing is which place. A version found by going back until
 * the lines stood once is found by uniqueness, not by evidence:
 * jsdiff's test file has seven places of a one-line-context hunk now
 * and had one four years ago, and the merge from that version chose
 * one of the seven (t2500). Line numbers (landed_near()), an old line
 * the current content lacks, or a change that already stands elsewhere
 * (the ladder's question, which the version may answer) keep the
 * search. 1 yes, 0 no, -1 no memory.
 */
static int bare_hunks_ambiguous_here(const hsearch *hs)
{
	size_t i;
	int n, several = 0;

	for (i = 0; i < hs->op->nhunks; i++) {
		if (hs->op->hunks[i].has_hint)
			return 0;
		if (!hs->blocks[i].len)
			continue;
		n = block_places(hs->cur, hs->curlen, &hs->blocks[i]);
		if (n <= 0)
			return n;
		several |= n > 1;
	}
	return several;
}

/*
 * A cheap necessary condition before decoding a version: each hunk's
 * old lines are in its bytes, one after the other (in a file without
 * CRs; else each hunk's longest line). The hunk that failed last is
 * tried first: versions next to each other fail alike. The history
 * reader passes over most versions that fail it without making them
 * (the same rule, history_filter.h); this is the test of the rest.
 */
static int old_lines_present(hsearch *hs, const char *data, size_t len)
{
	int has_cr;
	size_t j;

	if (!hs->held && !aa_filter_holds(&hs->filter, data, len, &hs->last_failed))
		return 0;
	/* the answer's other edits of the file: build_siblings() */
	has_cr = hs->nsiblings && memchr(data, '\r', len) != NULL;
	for (j = 0; j < hs->nsiblings; j++) {
		const char *s = hs->siblings[j].ptr;
		size_t l = hs->siblings[j].len;

		if (has_cr)
			longest_line(&hs->siblings[j], &s, &l);
		if (l && !memmem(data, len, s, l))
			return 0;
	}
	return 1;
}

/* Every numbered hunk landed near its header's line. */
static int landed_near(const aa_edit_ctx *cx)
{
	size_t i;

	for (i = 0; i < cx->nlandings; i++)
		if (cx->landings[i].offset > HISTORY_NEAR ||
		    cx->landings[i].offset < -HISTORY_NEAR)
			return 0;
	return 1;
}

/* The op's hunks applied exactly to one version: 0, or -1 if they do not fit. */
static int apply_to_version(hsearch *hs, const char *data, size_t len,
			    aa_buf *theirs)
{
	aa_text t = AA_TEXT_INIT;
	aa_diags scratch = AA_DIAGS_INIT;
	const char *why = NULL;
	int r;

	memset(&hs->cx, 0, sizeof(hs->cx));
	if (aa_text_decode_borrowed(&t, data, len, &why) < 0) {
		aa_text_free(&t);
		return -1;
	}
	hs->cx.path = hs->path;
	hs->cx.diags = &scratch;
	hs->cx.exact_only = 1;
	r = aa_edit_hunks(&t, hs->op, &hs->cx);
	if (!r && !landed_near(&hs->cx))
		r = -1;
	if (!r && aa_text_encode_why(&t, theirs, &why) < 0)
		r = -1;
	aa_text_free(&t);
	aa_diags_free(&scratch);
	if (r < 0)
		aa_edit_ctx_release(&hs->cx);
	return r;
}

/*
 * Merges from the version the hunks took: only around the places they
 * landed when the file is large (see history_merge.c).
 */
static int merge_from_version(hsearch *hs, const char *label,
			      const char *data, size_t len, const aa_buf *theirs)
{
	const aa_op *op = hs->op;
	aa_merge_region *rg = NULL;
	size_t i, k, n = 0;
	int r;

	if (hs->cx.nlandings == op->nhunks)
		rg = calloc(op->nhunks ? op->nhunks : 1, sizeof(*rg));
	for (i = 0; rg && i < op->nhunks; i++, n++) {
		rg[i].start = (size_t)(hs->cx.landings[i].line > 0 ?
				       hs->cx.landings[i].line - 1 : 0);
		for (k = 0; k < op->hunks[i].nlines; k++) {
			rg[i].nold += op->hunks[i].lines[k].kind != '+';
			rg[i].nnew += op->hunks[i].lines[k].kind != '-';
		}
	}
	/*
	 * A hunk found already applied in that version changed nothing
	 * there: the regions would not map it to theirs; merge whole.
	 */
	for (i = 0; i < n; i++)
		if (hs->cx.landings[i].how == AA_HOW_ALREADY_APPLIED)
			n = 0;
	r = aa_merge_windowed(hs->p->base, hs->path, label, data, len, hs->cur, hs->curlen,
			      theirs->ptr ? theirs->ptr : "", theirs->len, rg, n,
			      &hs->result);
	free(rg);
	return r;
}

/* aa_version_fn: tries one version; 1 (stop) once one takes every hunk. */
static int try_version(const char *label, const char *data, size_t len,
		       void *payload)
{
	hsearch *hs = payload;
	aa_buf theirs = AA_BUF_INIT;

	/* the index line's blob is offered first, labelled "blob ..." */
	if (hs->index_line_only && strncmp(label, "blob ", 5))
		return 1;

	if (same_bytes(data, len, hs->cur, hs->curlen) || len > AA_MAX_TEXT_SIZE ||
	    aa_bytes_look_binary(data, len) || !old_lines_present(hs, data, len))
		return 0;
	/*
	 * A version the hunks leave as it was already holds the change: it
	 * is a version after the answer, not the one it was written
	 * against (merging from it would call the change "already in the
	 * current content" when the current content lacks it).
	 */
	if (apply_to_version(hs, data, len, &theirs) < 0 ||
	    same_bytes(theirs.ptr ? theirs.ptr : "", theirs.len, data, len)) {
		if (hs->cx.landings)
			aa_edit_ctx_release(&hs->cx);
		aa_buf_free(&theirs);
		return 0;
	}
	/*
	 * Found: the merge waits until the search is over, when the history
	 * reader has let go of the delta bases it kept (the peak memory).
	 */
	hs->found = 1;
	hs->label = aa_strdup(label);
	if (!hs->label || aa_buf_put(&hs->version, data, len) < 0)
		hs->merge = -1;
	hs->theirs = theirs;
	return 1;
}

/* The merge from the version found (search_versions, after the search). */
static void merge_found(hsearch *hs)
{
	if (!hs->found || hs->merge < 0)
		return;
	hs->merge = merge_from_version(hs, hs->label,
				       hs->version.ptr ? hs->version.ptr : "",
				       hs->version.len, &hs->theirs);
	if (hs->merge == 1 && hs->keep_sides)
		return; /* a conflict to write: the sides are kept */
	aa_buf_free(&hs->version);
	aa_buf_free(&hs->theirs);
}

/* A clean merge: the result lands, every hunk counted as merged. */
static int land_merged(planner *p, const aa_op *op, aa_plan_node *n,
		       hsearch *hs)
{
	size_t i;

	for (i = 0; i < hs->cx.nlandings; i++) {
		hs->cx.landings[i].how = AA_HOW_MERGED;
		hs->cx.landings[i].line = 0;
		hs->cx.landings[i].offset = 0;
	}
	if (same_bytes(hs->cur, hs->curlen, hs->result.ptr, hs->result.len))
		aa_note(p->d, op->pos, n->path,
			"the change is already in the current content "
			"(merged from %s, the version the answer was written against); skipped",
			hs->label);
	else
		aa_note(p->d, op->pos, n->path,
			"hunks applied to %s, the version the answer was written against, "
			"and merged into the current content", hs->label);
	return commit_result(p, n, &hs->result, &hs->cx);
}

/*
 * --3way: keeps the three sides for the index and the merged content
 * with markers as the node's content.
 */
static int keep_conflict(planner *p, aa_plan_node *n, hsearch *hs,
			 aa_buf *markers)
{
	size_t len = markers->len, i;

	if (conflict_regions(markers, &n->regions, &n->nregions) < 0)
		return -1;
	n->stage_len[0] = hs->version.len;
	n->stage[0] = aa_buf_detach(&hs->version);
	n->stage[1] = aa_strndup(hs->cur, hs->curlen);
	n->stage_len[1] = hs->curlen;
	n->stage_len[2] = hs->theirs.len;
	n->stage[2] = aa_buf_detach(&hs->theirs);
	for (i = 0; i < 3; i++)
		if (!n->stage[i])
			return -1;
	n->stage_mode = n->mode;
	n->conflict = 1;
	for (i = 0; i < hs->cx.nlandings; i++) {
		hs->cx.landings[i].how = AA_HOW_MERGED;
		hs->cx.landings[i].line = 0;
		hs->cx.landings[i].offset = 0;
	}
	if (append_landings(p, n, &hs->cx) < 0)
		return -1;
	node_set_data(n, aa_buf_detach(markers), len);
	p->plan->ops_applied++;
	return 0;
}

static aa_pos conflict_pos(const aa_op *op, const hsearch *hs);

/*
 * --3way: the conflicting merge is written as git apply --3way writes
 * it instead of refused (0), or -1 with an error.
 */
static int land_conflict(planner *p, const aa_op *op, aa_plan_node *n,
			 hsearch *hs)
{
	const aa_snapshot *sn = p->base;
	aa_buf markers = AA_BUF_INIT;
	int r;

	r = sn->merge3_markers(sn->ctx, n->path, hs->version.ptr ? hs->version.ptr : "",
			       hs->version.len, hs->cur, hs->curlen,
			       hs->theirs.ptr ? hs->theirs.ptr : "", hs->theirs.len,
			       &markers);
	if (r < 0) {
		aa_buf_free(&markers);
		return aa_error(p->d, op->pos, n->path, "cannot merge from %s; nothing written",
				hs->label);
	}
	if (r == 0) {
		/* windows and the whole file disagree: trust the whole file */
		aa_buf_free(&hs->result);
		hs->result = markers;
		return land_merged(p, op, n, hs);
	}
	if (keep_conflict(p, n, hs, &markers) < 0) {
		aa_buf_free(&markers);
		return oom(p, op->pos);
	}
	aa_buf_free(&markers);
	aa_warn(p->d, conflict_pos(op, hs), n->path,
		"applied with conflicts: the hunks apply exactly to %s, the version the answer "
		"was written against, and %zu region%s conflict%s with the current content "
		"(first at line %zu); written with conflict markers, stages 1, 2 and 3 in the index (--3way)",
		hs->label, n->nregions, n->nregions == 1 ? "" : "s",
		n->nregions == 1 ? "s" : "", n->nregions ? n->regions[0].start : 0);
	return 0;
}

/*
 * Where to report a conflict: the hunk that landed (on the old version)
 * nearest the conflict's line in the current content, a good guess when
 * the lines between did not move much.
 */
static aa_pos conflict_pos(const aa_op *op, const hsearch *hs)
{
	long at = 0, best = -1;
	size_t i, pick = 0;

	if (!hs->result.ptr || sscanf(hs->result.ptr, "conflict at line %ld", &at) != 1)
		return op->pos;
	for (i = 0; i < hs->cx.nlandings; i++) {
		long d = hs->cx.landings[i].line - at;

		d = d < 0 ? -d : d;
		if (best < 0 || d < best) {
			best = d;
			pick = i;
		}
	}
	return best < 0 ? op->pos : hs->cx.landings[pick].pos;
}

/* What a conflict says about --3way, where the landing could take it. */
static const char *threeway_hint(const planner *p)
{
	if (!p->base->merge3_markers || !p->opts->threeway_possible)
		return "";
	return p->opts->threeway_possible == 2 ?
	       "; --3way, when landing, merges it with conflict markers" :
	       "; try --3way to merge it with conflict markers";
}

/*
 * Finds the version the hunks apply to exactly and merges the change
 * into the current content: 1 done, 0 no version fits (use the ladder),
 * -1 error reported (a conflict).
 */
static void hsearch_free(hsearch *hs)
{
	free(hs->label);
	free_blocks(hs);
	aa_buf_free(&hs->result);
	aa_buf_free(&hs->version);
	aa_buf_free(&hs->theirs);
	aa_edit_ctx_release(&hs->cx);
}

/*
 * Runs the search: 1 searched (hs holds what it found), 0 nothing to
 * search with, -1 error reported. *bound as sn->history gives it.
 */
static int search_versions(planner *p, const aa_op *op, aa_plan_node *n,
			   hsearch *hs, char **bound)
{
	const aa_snapshot *sn = p->base;

	hs->p = p;
	hs->op = op;
	hs->path = n->path;
	if (node_bytes(p, n, &hs->cur, &hs->curlen) < 0)
		return -1;
	if (build_blocks(hs) < 0 || build_siblings(hs) < 0)
		return oom(p, op->pos);
	if (!has_evidence(hs))
		return 0;
	if (!hs->index_line_only) {
		int here = bare_hunks_ambiguous_here(hs);

		if (here < 0)
			return oom(p, op->pos);
		if (here)
			return 0;
	}
	if (sn->history(sn->ctx, n->path, op->base_blob[0] ? op->base_blob : NULL,
			n->has_oid ? &n->oid : NULL, &hs->filter, try_version, hs,
			bound) < 0) {
		if (!hs->index_line_only) /* the full search says it */
			aa_warn(p->d, op->pos, n->path,
				"cannot search the file's history; trying the current content only");
		return 0;
	}
	merge_found(hs);
	return 1;
}

/* The leading bytes of a UTF-16 file: history merges bytes by lines. */
static int looks_utf16(const char *s, size_t len)
{
	return len >= 2 && (((unsigned char)s[0] == 0xff && (unsigned char)s[1] == 0xfe) ||
			    ((unsigned char)s[0] == 0xfe && (unsigned char)s[1] == 0xff));
}

/* The op's index line names a blob (7 digits or more), not the node's. */
int index_line_names_other(const aa_op *op, const aa_plan_node *n)
{
	size_t len = strlen(op->base_blob);

	return len >= 7 && strspn(op->base_blob, "0") != len &&
	       !index_line_names_node(op, n);
}

/*
 * A git diff whose `index` line names a blob the repository has, other
 * than the content being edited: that blob is the diff's preimage, so
 * its hunks are applied there and merged into the current content, as
 * git apply --3way merges (before any offset search on the current
 * content, which can take an old side that moved away while the change
 * already stands where it went). 1 landed, 0 not decided here (no such
 * blob, the hunks do not fit it, or the merge conflicts: the usual
 * order then runs, with its own messages), -1 error reported.
 */
int from_index_line(planner *p, const aa_op *op, aa_plan_node *n)
{
	const aa_snapshot *sn = p->base;
	hsearch hs;
	char *bound = NULL;
	int r = 0;

	if (!sn->history || !sn->merge3 || !index_line_names_other(op, n))
		return 0;
	memset(&hs, 0, sizeof(hs));
	hs.index_line_only = 1;
	r = search_versions(p, op, n, &hs, &bound);
	if (r > 0 && !looks_utf16(hs.cur, hs.curlen) && hs.found && hs.merge == 0)
		r = land_merged(p, op, n, &hs) < 0 ? -1 : 1;
	else if (r > 0)
		r = 0;
	free(bound);
	hsearch_free(&hs);
	return r;
}

int from_history(planner *p, const aa_op *op, aa_plan_node *n)
{
	const aa_snapshot *sn = p->base;
	hsearch hs;
	char *bound = NULL;
	int r;

	if (!sn->history || !sn->merge3)
		return 0;
	memset(&hs, 0, sizeof(hs));
	hs.keep_sides = p->opts->threeway && sn->merge3_markers;
	r = search_versions(p, op, n, &hs, &bound);
	if (r <= 0) {
		hsearch_free(&hs);
		return r;
	}
	if (!hs.found && bound)
		aa_note(p->d, op->pos, n->path,
			"%s: no earlier version found that takes every hunk exactly", bound);
	r = 0;
	if (hs.found && hs.merge < 0)
		aa_warn(p->d, op->pos, n->path, "cannot merge from %s", hs.label);
	else if (hs.found && hs.merge == 1 && hs.keep_sides)
		r = land_conflict(p, op, n, &hs) < 0 ? -1 : 1;
	else if (hs.found && hs.merge == 1)
		r = aa_error(p->d, conflict_pos(op, &hs), n->path,
			     "the hunks apply exactly to %s, the version the answer was written against, "
			     "but its change conflicts with the current content: %s; nothing written%s",
			     hs.label, hs.result.ptr ? hs.result.ptr : "",
			     threeway_hint(p));
	else if (hs.found)
		r = land_merged(p, op, n, &hs) < 0 ? -1 : 1;
	free(bound);
	hsearch_free(&hs);
	return r;
}
