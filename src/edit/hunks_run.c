/*
 * The hunk engine (src/edit/hunks.c): the run: line numbers of the
 * original, the rebuilt text, line counts, a hunk's sides.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit/hunks_int.h"
#include "util/util.h"

int aa_hk_oom(hrun *r, aa_pos pos)
{
	return aa_oom(r->cx->diags, pos, r->cx->path);
}

aa_lview aa_hk_run_view(const hrun *r)
{
	aa_lview v;

	v.seg[0] = r->out;
	v.nseg[0] = r->nout;
	v.seg[1] = r->src + r->cur;
	v.nseg[1] = r->nsrc - r->cur;
	return v;
}

size_t aa_hk_run_len(const hrun *r)
{
	return r->nout + r->nsrc - r->cur;
}

/* ---- the line of the original file -------------------------------------- */

/* The line (0-based) of the original file that current line `at` was. */
/* Entries placed before current line `at` (sorted: a binary search). */
static size_t placed_before(const hrun *r, size_t at)
{
	size_t lo = 0, hi = r->nplaced;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->placed[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The line (0-based) of the original file that current line `at` was. */
long aa_hk_orig_line(const hrun *r, size_t at)
{
	size_t k = placed_before(r, at);
	long line = (long)at - (k ? r->placed[k - 1].sum : 0);

	return line < 0 ? 0 : line;
}

int aa_hk_remember_placed(hrun *r, size_t at, size_t old_n, long delta)
{
	size_t k = placed_before(r, at + 1), i;

	if (AA_GROW(r->placed, r->nplaced, r->capplaced) < 0)
		return -1;
	/* the ones after it move with the lines it added or removed */
	memmove(r->placed + k + 1, r->placed + k,
		(r->nplaced - k) * sizeof(*r->placed));
	r->nplaced++;
	r->placed[k].at = at;
	r->placed[k].old_n = old_n;
	r->placed[k].delta = delta;
	for (i = k; i < r->nplaced; i++) {
		if (i > k) {
			long moved = (long)r->placed[i].at + delta;

			r->placed[i].at = moved < (long)at ? at : (size_t)moved;
		}
		r->placed[i].sum = (i ? r->placed[i - 1].sum : 0) + r->placed[i].delta;
	}
	r->delta += delta;
	return 0;
}

/*
 * The current line that line `line` (0-based) of the original file is
 * now: moved by the hunks placed wholly before it.
 */
size_t aa_hk_cur_line(const hrun *r, size_t line)
{
	long shift = 0, at;
	size_t k;

	for (k = 0; k < r->nplaced; k++) {
		long o = (long)r->placed[k].at - shift;

		if (o + (long)r->placed[k].old_n > (long)line)
			break;
		shift = r->placed[k].sum;
	}
	at = (long)line + shift;
	return at < 0 ? 0 : (size_t)at;
}

/*
 * Current lines [s, s + n) lie inside the lines one hunk of this run
 * wrote: an earlier hunk of the answer put them there, so they say
 * nothing of what the file held before (a later hunk identical to it
 * is not "already applied" by it).
 */
int aa_hk_written(const hrun *r, size_t s, size_t n)
{
	size_t k;

	for (k = 0; k < r->nplaced; k++) {
		const placed *pl = &r->placed[k];
		long wrote = (long)pl->old_n + pl->delta;

		if (wrote > 0 && pl->at <= s && s + n <= pl->at + (size_t)wrote)
			return 1;
	}
	return 0;
}

/* Where the header says the hunk's old lines start, in current lines. */
size_t aa_hk_hinted_line(const hrun *r, const aa_hunk *h, long extra)
{
	long at = h->old_start - (h->old_count ? 1 : 0) + r->delta +
		  r->skipped_delta + extra;
	long total = (long)aa_hk_run_len(r);

	if (at < 0)
		at = 0;
	return (size_t)(at > total ? total : at);
}

/* ---- the rebuilt text ---------------------------------------------------- */

/*
 * Room for `extra` more lines in out, up to the first src line not yet
 * moved. The room left for every added line makes this hold; -1 would
 * be a bug, never an input's doing.
 */
static int out_reserve(hrun *r, size_t extra)
{
	return r->nout + extra <= (size_t)(r->src + r->cur - r->out) ? 0 : -1;
}

/* Moves original lines to the rebuilt part until it holds `upto` lines. */
int aa_hk_out_pull(hrun *r, size_t upto)
{
	size_t k;

	if (upto <= r->nout)
		return 0;
	/* moving lines from src to out keeps the room between them */
	k = upto - r->nout;
	if (k > r->nsrc - r->cur)
		return -1;
	memmove(r->out + r->nout, r->src + r->cur, k * sizeof(aa_lrec));
	r->nout += k;
	r->cur += k;
	return 0;
}

/* Replaces current lines [at, at + del) with ins[0..nins). */
int aa_hk_out_splice(hrun *r, size_t at, size_t del,
		     const aa_lrec *ins, size_t nins)
{
	if (aa_hk_out_pull(r, at + del) < 0 || (nins > del && out_reserve(r, nins - del) < 0))
		return -1;
	memmove(r->out + at + nins, r->out + at + del,
		(r->nout - at - del) * sizeof(aa_lrec));
	memcpy(r->out + at, ins, nins * sizeof(aa_lrec));
	r->nout = r->nout - del + nins;
	return 0;
}

/* Lines the op's hunks add: the rebuilt part never holds more than n + that. */
static size_t lines_added(const aa_op *op)
{
	size_t i, k, n = 0;

	for (i = 0; i < op->nhunks; i++)
		for (k = 0; k < op->hunks[i].nlines; k++)
			n += op->hunks[i].lines[k].kind == '+';
	return n;
}

/* ---- line counts, for bare hunks and changes standing elsewhere --------- */

/*
 * The slot of hash h in the count table. Keys are never removed (a count
 * drops to 0), so a probe stops at the key or at an empty slot.
 */
static size_t count_slot(const hrun *r, uint32_t h)
{
	/* the mixed hash scaled onto the table (no power-of-two size) */
	size_t i = (size_t)(((uint64_t)(uint32_t)(h * 2654435761u) *
			     r->count_cap) >> 32);

	while (r->count_val[i] != UINT32_MAX && r->count_key[i] != h)
		i = i + 1 == r->count_cap ? 0 : i + 1;
	return i;
}

/* Counts only the hashes the table holds (see counts_build()). */
void aa_hk_count_add(hrun *r, uint32_t h, int delta)
{
	size_t i;

	if (!r->count_key)
		return;
	i = count_slot(r, h);
	if (r->count_val[i] != UINT32_MAX)
		r->count_val[i] += (uint32_t)delta;
}

/* Puts hash h in the table with a count of 0 (once). */
static void count_key(hrun *r, uint32_t h)
{
	size_t i = count_slot(r, h);

	if (r->count_val[i] == UINT32_MAX) {
		r->count_key[i] = h;
		r->count_val[i] = 0;
	}
}

/* The hunks' lines: the only lines whose count is asked. */
static size_t hunk_lines(const aa_op *op)
{
	size_t i, n = 0;

	for (i = 0; i < op->nhunks; i++)
		n += op->hunks[i].nlines;
	return n;
}

uint32_t aa_hk_count_of(const hrun *r, uint32_t h)
{
	size_t i = count_slot(r, h);

	return r->count_val[i] == UINT32_MAX ? 0 : r->count_val[i];
}

/*
 * Counts the lines of the file for the exact hashes of the hunks' lines
 * only: aa_hk_bare_exact() asks for old-side lines, and whether a
 * change already stands elsewhere (hunks_land.c) first asks whether
 * each line it writes is in the file at all, which it usually is not;
 * a table of every line cost 12 bytes a line of the file (the peak
 * memory of a large file's edit).
 */
static int counts_build(hrun *r)
{
	const aa_op *op = r->op;
	size_t cap, i, k;

	if (!op->nhunks)
		return 0;
	/* at most two thirds full */
	cap = hunk_lines(op) / 2 * 3 + 64;
	r->count_key = malloc(cap * sizeof(uint32_t));
	r->count_val = malloc(cap * sizeof(uint32_t));
	if (!r->count_key || !r->count_val)
		return -1;
	memset(r->count_val, 0xff, cap * sizeof(uint32_t));
	r->count_cap = cap;
	for (i = 0; i < op->nhunks; i++)
		for (k = 0; k < op->hunks[i].nlines; k++) {
			const aa_hline *l = &op->hunks[i].lines[k];
			aa_lrec rec;

			/* as aa_hk_try_build() hashes a hunk's line */
			aa_lrec_set(&rec, l->text, l->len, AA_EOL_LF);
			count_key(r, rec.h[AA_WS_EXACT]);
		}
	for (i = 0; i < r->nsrc; i++)
		aa_hk_count_add(r, r->src[i].h[AA_WS_EXACT], 1);
	return 0;
}

_Static_assert(sizeof(aa_line) <= sizeof(aa_lrec),
	       "aa_hk_run_init() and aa_hk_run_finish() turn lines and records in place");

/*
 * The text's lines become the records, in the text's own array grown to
 * hold them and the room: from the last line back, record i lands at or
 * after line i's bytes, so it only covers lines already turned.
 */
int aa_hk_run_init(hrun *r, aa_text *t, const aa_op *op, aa_edit_ctx *cx)
{
	size_t room = lines_added(op), n = t->n, i;
	aa_lrec *v;

	memset(r, 0, sizeof(*r));
	r->t = t;
	r->op = op;
	r->cx = cx;
	if (n + room > SIZE_MAX / sizeof(aa_lrec) - 1)
		return -1;
	v = realloc(t->lines, (n + room + 1) * sizeof(aa_lrec));
	if (!v)
		return -1;
	/* the array is the run's now; aa_hk_run_finish() gives the text its lines */
	t->lines = NULL;
	t->n = t->cap = 0;
	r->out = v;
	r->src = v + room;
	for (i = n; i-- > 0;) {
		aa_line l = ((aa_line *)v)[i];

		aa_lrec_set_exact(&r->src[i], l.s, l.len, l.eol);
	}
	r->nsrc = n;
	return counts_build(r);
}

/* Before the first search with blanks ignored: hash every line for it. */
void aa_hk_run_ws_ready(hrun *r)
{
	size_t i;

	if (r->ws_ready)
		return;
	for (i = 0; i < r->nout; i++)
		aa_lrec_ws(&r->out[i]);
	for (i = r->cur; i < r->nsrc; i++)
		aa_lrec_ws(&r->src[i]);
	r->ws_ready = 1;
}

/*
 * Hands the rebuilt lines back to the text, in the same array: an
 * aa_line is smaller than an aa_lrec, so line i, written after record i
 * was read, only covers records already read.
 */
int aa_hk_run_finish(hrun *r)
{
	size_t n = aa_hk_run_len(r), i;
	aa_line *lines = (aa_line *)r->out, *v;

	if (aa_hk_out_pull(r, n) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		aa_lrec l = r->out[i];

		lines[i].s = l.s;
		lines[i].len = l.len;
		lines[i].eol = (aa_eol)l.eol;
	}
	v = realloc(lines, (n ? n : 1) * sizeof(*v));
	free(r->t->lines);
	r->t->lines = v ? v : lines;
	r->t->n = r->t->cap = n;
	r->out = r->src = NULL;
	r->nout = r->nsrc = r->cur = 0;
	return 0;
}

void aa_hk_run_release(hrun *r)
{
	free(r->out);
	free(r->placed);
	free(r->count_key);
	free(r->count_val);
}

/* ---- hunk sides ------------------------------------------------------------ */

void aa_hk_try_release(htry *y)
{
	free(y->pre);
	free(y->post);
	y->pre = y->post = NULL;
}

/* Builds the old and new sides of hunk lines [k0, k1). */
int aa_hk_try_build(htry *y, const aa_hunk *h, size_t k0, size_t k1)
{
	size_t k, n = k1 - k0 ? k1 - k0 : 1;

	memset(y, 0, sizeof(*y));
	y->h = h;
	y->k0 = k0;
	y->k1 = k1;
	y->pre = malloc(n * sizeof(aa_lrec));
	y->post = malloc(n * sizeof(aa_lrec));
	if (!y->pre || !y->post) {
		aa_hk_try_release(y);
		return -1;
	}
	for (k = 0; k < k0; k++)
		if (h->lines[k].kind != '+')
			y->pre_before++;
	for (k = k0; k < k1; k++) {
		const aa_hline *l = &h->lines[k];

		if (l->kind != '+')
			aa_lrec_set(&y->pre[y->npre++], l->text, l->len, AA_EOL_LF);
		if (l->kind != '-')
			aa_lrec_set(&y->post[y->npost++], l->text, l->len, AA_EOL_LF);
	}
	return 0;
}

static int is_change(const aa_hunk *h, size_t k)
{
	return k < h->nlines && h->lines[k].kind != ' ';
}

/*
 * Rung 4's core: from the first to the last line that is a change or a
 * context line next to one. 0 when there is no smaller core.
 */
int aa_hk_reduced_core(const aa_hunk *h, size_t to, size_t *k0, size_t *k1)
{
	size_t k, first = to, last = 0, old_lines = 0;

	for (k = 0; k < to; k++) {
		int keep = is_change(h, k) || (k && is_change(h, k - 1)) ||
			   (k + 1 < to && is_change(h, k + 1));

		if (keep) {
			if (first == to)
				first = k;
			last = k + 1;
		}
	}
	if (first == to || (first == 0 && last == to))
		return 0;
	for (k = first; k < last; k++)
		if (h->lines[k].kind != '+')
			old_lines++;
	if (!old_lines)
		return 0;
	*k0 = first;
	*k1 = last;
	return 1;
}
