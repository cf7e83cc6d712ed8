/*
 * -p's model (select_model.h): what can be selected and what the
 * answers make of the plan, with no terminal in sight. One file's diff
 * base -> planned content as git add -p shows it, its hunks and the
 * "atoms" a split gives, an edited hunk checked against the base, the
 * content the accepted hunks give, the landings they keep, and the
 * rewritten plan: the changes kept, consistent as a tree, and the
 * warnings of what did not land dropped. The questions are select.c's.
 *
 * The model of one file's content: the base split in lines, and the
 * diff's lines grouped in "atoms" (runs of -/+ lines with no context
 * between them). A displayed hunk is a run of atoms with its context;
 * `s` cuts a hunk into one hunk per atom, the context between them
 * shown with both. The selected content is the base with the removed
 * lines of accepted hunks dropped and their added lines inserted; an
 * edited hunk (`e`) gives its own drops and insertions over its range.
 */
#include <stdlib.h>
#include <string.h>

#include "workflow/select_model.h"
#include "util/util.h"

static int oom(aa_diags *d, const char *path)
{
	return aa_fatal_oom(d, AA_NOPOS, path);
}

/* ---- building a file's diff ---- */

static void fdiff_free(fdiff *f)
{
	size_t i;

	for (i = 0; i < f->nhunks; i++) {
		free(f->hunks[i].edit);
		free(f->hunks[i].elines);
	}
	git_patch_free(f->patch);
	free(f->olines);
	free(f->lines);
	free(f->atoms);
	free(f->hunks);
	memset(f, 0, sizeof(*f));
}

static int split_old_lines(fdiff *f)
{
	size_t i, n = 0, start = 0;

	for (i = 0; i < f->old_len; i++)
		n += f->old[i] == '\n';
	f->olines = calloc(n + 2, sizeof(*f->olines));
	if (!f->olines)
		return -1;
	for (i = 0; i < f->old_len; i++)
		if (f->old[i] == '\n') {
			f->olines[f->nold].p = f->old + start;
			f->olines[f->nold++].len = i + 1 - start;
			start = i + 1;
		}
	if (start < f->old_len) {
		f->olines[f->nold].p = f->old + start;
		f->olines[f->nold++].len = f->old_len - start;
	}
	return 0;
}

/* The text after a hunk header's second "@@" (the function context). */
static void header_tail(hunk *h, const git_diff_hunk *gh)
{
	const char *p = gh->header, *end = gh->header + gh->header_len;
	const char *at = p + 2 < end ? strstr(p + 2, "@@") : NULL;

	h->tail = "\n";
	h->tail_len = 1;
	if (at && at + 2 <= end) {
		h->tail = at + 2;
		h->tail_len = (size_t)(end - (at + 2));
	}
}

/* Appends one libgit2 hunk's lines; the EOF-newline markers are dropped. */
static int add_git_hunk(fdiff *f, size_t h, size_t *ocount, size_t *ncount)
{
	const git_diff_hunk *gh;
	size_t nl, l, start = f->nlines;
	hunk *hk = &f->hunks[f->nhunks];

	if (git_patch_get_hunk(&gh, &nl, f->patch, h) < 0)
		return -1;
	*ocount = gh->old_start ? (size_t)gh->old_start - 1 : 0;
	*ncount = gh->new_start ? (size_t)gh->new_start - 1 : 0;
	if (!gh->old_lines)
		*ocount = (size_t)gh->old_start;
	if (!gh->new_lines)
		*ncount = (size_t)gh->new_start;
	for (l = 0; l < nl; l++) {
		const git_diff_line *ln;
		dline *d;

		if (git_patch_get_line_in_hunk(&ln, f->patch, h, l) < 0)
			return -1;
		if (ln->origin != ' ' && ln->origin != '-' && ln->origin != '+')
			continue;
		d = &f->lines[f->nlines++];
		d->origin = ln->origin;
		d->p = ln->content;
		d->len = ln->content_len;
		d->obefore = *ocount;
		d->nbefore = *ncount;
		*ocount += ln->origin != '+';
		*ncount += ln->origin != '-';
	}
	memset(hk, 0, sizeof(*hk));
	hk->first = start;
	hk->last = f->nlines;
	hk->orig = f->nhunks;
	header_tail(hk, gh);
	f->nhunks++;
	return 0;
}

/* The atoms of hunk hk, appended to f->atoms. */
static void find_atoms(fdiff *f, hunk *hk)
{
	size_t i = hk->first;

	hk->a0 = f->natoms;
	while (i < hk->last) {
		size_t j;

		if (f->lines[i].origin == ' ') {
			i++;
			continue;
		}
		for (j = i; j < hk->last && f->lines[j].origin != ' '; j++)
			;
		f->atoms[f->natoms].first = i;
		f->atoms[f->natoms++].last = j;
		i = j;
	}
	hk->a1 = f->natoms;
}

/*
 * The diff old -> new with 3 lines of context, as git add -p shows it.
 * f->binary when either side is binary (then there are no hunks).
 */
static int load_diff(fdiff *f, const char *path, const char *old,
		     size_t old_len, const char *new, size_t new_len,
		     int attr_binary)
{
	git_diff_options opts;
	size_t h, total = 0, ocount, ncount;

	memset(f, 0, sizeof(*f));
	f->old = old ? old : "";
	f->old_len = old_len;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 3;
	if (attr_binary)
		opts.flags |= GIT_DIFF_FORCE_BINARY;
	if (git_patch_from_buffers(&f->patch, f->old, old_len, path,
				   new ? new : "", new_len, path, &opts) < 0)
		return -1;
	if (git_patch_get_delta(f->patch)->flags & GIT_DIFF_FLAG_BINARY) {
		f->binary = 1;
		return 0;
	}
	for (h = 0; h < git_patch_num_hunks(f->patch); h++)
		total += (size_t)git_patch_num_lines_in_hunk(f->patch, h);
	f->lines = calloc(total + 1, sizeof(*f->lines));
	f->atoms = calloc(total + 1, sizeof(*f->atoms));
	f->hunks = calloc(total + 1, sizeof(*f->hunks));
	if (!f->lines || !f->atoms || !f->hunks || split_old_lines(f) < 0)
		return -1;
	for (h = 0; h < git_patch_num_hunks(f->patch); h++) {
		if (add_git_hunk(f, h, &ocount, &ncount) < 0)
			return -1;
		find_atoms(f, &f->hunks[f->nhunks - 1]);
	}
	return 0;
}

/* Counts a range of dlines as a hunk header does. */
static void range_header(const fdiff *f, size_t first, size_t last,
			 size_t *os, size_t *oc, size_t *ns, size_t *nc)
{
	size_t i;

	*oc = *nc = 0;
	for (i = first; i < last; i++) {
		*oc += f->lines[i].origin != '+';
		*nc += f->lines[i].origin != '-';
	}
	*os = f->lines[first].obefore + (*oc ? 1 : 0);
	*ns = f->lines[first].nbefore + (*nc ? 1 : 0);
}

void aa_sel_hunk_header(aa_buf *b, const fdiff *f, const hunk *h)
{
	size_t os, oc, ns, nc;

	range_header(f, h->first, h->last, &os, &oc, &ns, &nc);
	/* as git: a count of 1 is left out */
	aa_buf_printf(b, "@@ -%zu", os);
	if (oc != 1)
		aa_buf_printf(b, ",%zu", oc);
	aa_buf_printf(b, " +%zu", ns);
	if (nc != 1)
		aa_buf_printf(b, ",%zu", nc);
	aa_buf_puts(b, " @@");
	aa_buf_put(b, h->tail, h->tail_len);
}

/* ---- placements ---- */

static size_t distance(long line, size_t start, size_t count)
{
	size_t l = line > 0 ? (size_t)line : 0, end = start + (count ? count : 1);

	if (l < start)
		return start - l;
	return l >= end ? l - end + 1 : 0;
}

/*
 * The hunk a landing belongs to: the first whose old or new range holds
 * its line (the line before the edit, between the two numberings when
 * other edits moved it), else the nearest. (size_t)-1 for a landing with
 * no line (a merge places the whole file) or one that changed nothing.
 */
size_t aa_sel_landing_hunk(const fdiff *f, const aa_landing *l)
{
	size_t i, best = (size_t)-1, bestd = (size_t)-1;

	if (!l->line || l->how == AA_HOW_ALREADY_APPLIED)
		return (size_t)-1;
	for (i = 0; i < f->nhunks; i++) {
		const hunk *h = &f->hunks[i];
		size_t os, oc, ns, nc, d;

		range_header(f, h->first, h->last, &os, &oc, &ns, &nc);
		d = distance(l->line, os, oc);
		if (distance(l->line, ns, nc) < d)
			d = distance(l->line, ns, nc);
		if (d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return best;
}

/* 1 when a hunk of the diff's hunk `orig` (or of any, for -1) was taken. */
static int orig_taken(const fdiff *f, size_t orig)
{
	size_t i;

	for (i = 0; i < f->nhunks; i++)
		if (f->hunks[i].answer == YES &&
		    (orig == (size_t)-1 || f->hunks[i].orig == orig))
			return 1;
	return 0;
}

/* ---- s: splitting ---- */

/* Replaces hunk hi with one hunk per atom, each with the context around it. */
int aa_sel_split_hunk(fdiff *f, size_t hi)
{
	hunk h = f->hunks[hi];
	size_t n = h.a1 - h.a0, a;
	hunk *v = realloc(f->hunks, (f->nhunks + n) * sizeof(*v));

	if (!v)
		return -1;
	f->hunks = v;
	memmove(&v[hi + n], &v[hi + 1], (f->nhunks - hi - 1) * sizeof(*v));
	for (a = 0; a < n; a++) {
		hunk *p = &v[hi + a];
		const atom *at = &f->atoms[h.a0 + a];

		memset(p, 0, sizeof(*p));
		p->a0 = h.a0 + a;
		p->a1 = p->a0 + 1;
		p->first = a ? f->atoms[h.a0 + a - 1].last : h.first;
		p->last = a + 1 < n ? f->atoms[h.a0 + a + 1].first : h.last;
		/* at most 3 lines of context on each side, as the diff has */
		if (at->first - p->first > 3)
			p->first = at->first - 3;
		if (p->last - at->last > 3)
			p->last = at->last + 3;
		p->orig = h.orig;
		p->tail = a ? "\n" : h.tail;
		p->tail_len = a ? 1 : h.tail_len;
	}
	f->nhunks += n - 1;
	return 0;
}

/* ---- e: an edited hunk ---- */

/*
 * Splits the edited text in lines: '#' lines and "@@" headers go, an
 * empty line is an empty context line (as git), "\ No newline" takes
 * the previous line's end. Returns the count, or -1 when a line is none
 * of ' ', '-', '+'.
 */
long aa_sel_parse_edit(char *text, size_t len, eline *v)
{
	size_t i = 0, n = 0;

	while (i < len) {
		char *nl = memchr(text + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (text + i)) + 1 : len - i;
		char *p = text + i;

		i += l;
		if (*p == '#' || !strncmp(p, "@@", 2))
			continue;
		if (*p == '\\') {
			if (n && v[n - 1].len && v[n - 1].p[v[n - 1].len - 1] == '\n')
				v[n - 1].len--;
			continue;
		}
		if (*p == '\n') {
			v[n].origin = ' ';
			v[n].p = p;
			v[n++].len = l;
			continue;
		}
		if (*p != ' ' && *p != '-' && *p != '+')
			return -1;
		v[n].origin = *p;
		v[n].p = p + 1;
		v[n++].len = l - 1;
	}
	return (long)n;
}

/*
 * 1 when the edited lines keep the hunk's old side (its context and
 * removed lines, in order, byte for byte) and only the new side's last
 * line may lack its line end.
 */
int aa_sel_edit_fits(const fdiff *f, const hunk *h, const eline *v, size_t n)
{
	size_t i, k = h->first, last_new = (size_t)-1;

	for (i = 0; i < n; i++) {
		if (v[i].origin == '+' || v[i].origin == ' ')
			last_new = i;
		if (v[i].origin == '+')
			continue;
		while (k < h->last && f->lines[k].origin == '+')
			k++;
		if (k == h->last || f->lines[k].len != v[i].len ||
		    memcmp(f->lines[k].p, v[i].p, v[i].len))
			return 0;
		k++;
	}
	while (k < h->last && f->lines[k].origin == '+')
		k++;
	if (k != h->last)
		return 0;
	for (i = 0; i < n; i++)
		if (i != last_new && v[i].origin != '-' &&
		    (!v[i].len || v[i].p[v[i].len - 1] != '\n'))
			return 0;
	return 1;
}

/* Takes the edited text as hunk h's content (it fits). */
int aa_sel_keep_edit(hunk *h, char *text, eline *v, size_t n)
{
	free(h->edit);
	free(h->elines);
	h->edit = text;
	h->elines = v;
	h->nelines = n;
	return 0;
}

/* ---- the selected content ---- */

typedef struct insertion {
	size_t before;        /* inserted before this old line (1-based) */
	size_t seq;
	const char *p;
	size_t len;
} insertion;

typedef struct assembly {
	unsigned char *drop;  /* per old line, 1-based */
	insertion *ins;
	size_t nins;
} assembly;

static void add_ins(assembly *as, size_t before, const char *p, size_t len)
{
	insertion *i = &as->ins[as->nins];

	i->before = before;
	i->seq = as->nins++;
	i->p = p;
	i->len = len;
}

/* An edited hunk's drops and insertions over its old lines. */
static void assemble_edit(const fdiff *f, const hunk *h, assembly *as)
{
	size_t k = f->lines[h->first].obefore + 1, i;

	for (i = 0; i < h->nelines; i++) {
		const eline *e = &h->elines[i];

		if (e->origin == '+')
			add_ins(as, k, e->p, e->len);
		else if (e->origin == '-')
			as->drop[k++] = 1;
		else
			k++; /* kept: never undoes a drop of another hunk */
	}
}

static void assemble_atoms(const fdiff *f, const hunk *h, assembly *as)
{
	size_t a, i;

	for (a = h->a0; a < h->a1; a++)
		for (i = f->atoms[a].first; i < f->atoms[a].last; i++) {
			const dline *l = &f->lines[i];

			if (l->origin == '-')
				as->drop[l->obefore + 1] = 1;
			else
				add_ins(as, l->obefore + 1, l->p, l->len);
		}
}

static int cmp_ins(const void *a, const void *b)
{
	const insertion *x = a, *y = b;

	if (x->before != y->before)
		return x->before < y->before ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The base with the accepted hunks (edited ones as edited). */
static int assemble(const fdiff *f, aa_buf *out)
{
	assembly as = { NULL, NULL, 0 };
	size_t h, k, j = 0, cap = 0;

	for (h = 0; h < f->nhunks; h++)
		cap += f->hunks[h].edit ? f->hunks[h].nelines :
		       f->hunks[h].last - f->hunks[h].first;
	as.drop = calloc(f->nold + 2, 1);
	as.ins = calloc(cap + 1, sizeof(*as.ins));
	if (!as.drop || !as.ins) {
		free(as.drop);
		free(as.ins);
		return -1;
	}
	for (h = 0; h < f->nhunks; h++) {
		const hunk *hk = &f->hunks[h];

		if (hk->answer != YES)
			continue;
		if (hk->edit)
			assemble_edit(f, hk, &as);
		else
			assemble_atoms(f, hk, &as);
	}
	qsort(as.ins, as.nins, sizeof(*as.ins), cmp_ins);
	for (k = 1; k <= f->nold + 1; k++) {
		for (; j < as.nins && as.ins[j].before == k; j++)
			aa_buf_put(out, as.ins[j].p, as.ins[j].len);
		if (k <= f->nold && !as.drop[k])
			aa_buf_put(out, f->olines[k - 1].p, f->olines[k - 1].len);
	}
	if (!out->ptr)
		aa_buf_puts(out, "");
	free(as.drop);
	free(as.ins);
	return aa_buf_oom(out) ? -1 : 0;
}

/* ---- one file's content question ---- */

static size_t answered(const fdiff *f, int answer)
{
	size_t i, n = 0;

	for (i = 0; i < f->nhunks; i++)
		n += f->hunks[i].answer == answer && !(answer == YES && f->hunks[i].edit);
	return n;
}

/* The content decided by the hunks' answers; the landings they keep. */
int aa_sel_settle_content(file_q *fq, aa_diags *d)
{
	fdiff *f = &fq->f;
	aa_change *c = fq->c;
	size_t j, any_yes = 0;
	aa_buf b = AA_BUF_INIT;

	for (j = 0; j < f->nhunks; j++)
		any_yes += f->hunks[j].answer == YES;
	for (j = 0; c && j < c->nlandings; j++) {
		size_t at = aa_sel_landing_hunk(f, &c->landings[j]);

		fq->keep_landing[j] = orig_taken(f, at == (size_t)-1 ? at :
						 f->hunks[at].orig);
	}
	if (!any_yes) {
		fq->result = CONTENT_NONE;
		return AA_OK;
	}
	if (answered(f, YES) == f->nhunks) {
		fq->result = CONTENT_ALL;
		return AA_OK;
	}
	if (assemble(f, &b) < 0) {
		aa_buf_free(&b);
		return oom(d, fq->c->path);
	}
	fq->part_len = b.len;
	fq->part = aa_buf_detach(&b);
	fq->result = fq->part_len == fq->old_len &&
		     !memcmp(fq->part, fq->old, fq->old_len) ? CONTENT_NONE :
		     CONTENT_PART;
	return AA_OK;
}

/*
 * Loads the content question of change c asked against `old`: hunks, or
 * one whole question when binary. 0 when the content does not differ.
 */
int aa_sel_load_content(aa_session *s, file_q *fq, aa_change *c,
			const char *old, size_t old_len, git_blob **blob,
			aa_diags *d)
{
	const char *data;
	size_t len;
	int bin;

	fq->c = c;
	fq->old = old ? old : "";
	fq->old_len = old_len;
	fq->keep_landing = calloc(c->nlandings + 1, 1);
	if (!fq->keep_landing)
		return oom(d, c->path);
	if (aa_change_content(s, c, blob, &data, &len) < 0)
		return aa_fatal(d, AA_NOPOS, c->path,
				"cannot read the planned content");
	if (len == old_len && !memcmp(data, fq->old, len))
		return 0;
	bin = s->snap.attr_binary &&
	      s->snap.attr_binary(s->snap.ctx, c->path) == 1;
	if (load_diff(&fq->f, c->path, fq->old, old_len, data, len, bin) < 0)
		return oom(d, c->path);
	fq->whole = fq->f.binary;
	return 1;
}

void aa_sel_file_q_free(file_q *fq)
{
	fdiff_free(&fq->f);
	free(fq->keep_landing);
	memset(fq, 0, sizeof(*fq));
}

/* Drops the landings of refused hunks from c (its array is compacted). */
void aa_sel_filter_landings(aa_change *c, const unsigned char *keep)
{
	size_t i, n = 0;

	for (i = 0; i < c->nlandings; i++)
		if (keep[i])
			c->landings[n++] = c->landings[i];
	c->nlandings = n;
}

/* Sets c's content from fq's result, over `old_oid` (the base it was asked against). */
void aa_sel_apply_content(aa_change *c, const file_q *fq, const aa_oid *old_oid)
{
	if (fq->result == CONTENT_NONE) {
		c->has_oid = 1;
		c->oid = *old_oid;
		c->data = NULL;
		c->len = 0;
	} else if (fq->result == CONTENT_PART) {
		c->has_oid = 0;
		c->data = fq->part;
		c->len = fq->part_len;
	}
}

/* ---- the plan's changes by path ---- */

static int cmp_change_path(const void *a, const void *b)
{
	const aa_change *const *p = a, *const *q = b;

	return strcmp((*p)->path, (*q)->path);
}

/*
 * Indexes the changes by path, and flags the deletions that are the
 * other half of a rename (asked with it). 0, or -1 out of memory.
 */
int aa_sel_index_changes(sel_set *x)
{
	size_t i, n = x->plan->nchanges;
	const aa_change **sorted = malloc((n + 1) * sizeof(*sorted));

	x->by_path = malloc((n + 1) * sizeof(*x->by_path));
	x->rename_src = calloc(n + 1, 1);
	if (!sorted || !x->by_path || !x->rename_src) {
		free(sorted);
		return -1;
	}
	for (i = 0; i < n; i++)
		sorted[i] = &x->plan->changes[i];
	qsort(sorted, n, sizeof(*sorted), cmp_change_path);
	for (i = 0; i < n; i++)
		x->by_path[i] = (size_t)(sorted[i] - x->plan->changes);
	free(sorted);
	for (i = 0; i < n; i++) {
		const aa_change *t = &x->plan->changes[i];
		aa_change *src;

		/* 1: moved away; 2: moved away, then written again */
		if (t->renamed_from && !t->copied && !t->base_exists &&
		    (src = aa_sel_find_change(x, t->renamed_from)) && src->base_exists)
			x->rename_src[src - x->plan->changes] = src->exists ? 2 : 1;
	}
	return 0;
}

/* The first indexed change whose path is not below `path` in order. */
static size_t lower_bound(sel_set *x, const char *path)
{
	size_t lo = 0, hi = x->plan->nchanges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(x->plan->changes[x->by_path[mid]].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The change at `path` in the plan, or NULL. */
aa_change *aa_sel_find_change(sel_set *x, const char *path)
{
	size_t at = lower_bound(x, path);

	if (at < x->plan->nchanges &&
	    !strcmp(x->plan->changes[x->by_path[at]].path, path))
		return &x->plan->changes[x->by_path[at]];
	return NULL;
}

/* The deletion that is the other half of rename t, or NULL. */
aa_change *aa_sel_rename_source(sel_set *x, const aa_change *t)
{
	aa_change *src;

	if (!t->renamed_from || t->copied || t->base_exists)
		return NULL;
	src = aa_sel_find_change(x, t->renamed_from);
	return src && !src->exists && src->base_exists ? src : NULL;
}

int aa_sel_is_rename_source(sel_set *x, const aa_change *c)
{
	return x->rename_src[c - x->plan->changes];
}

/* ---- consistency: no file where a directory is kept, and the reverse ---- */

/* The change at path among the kept ones, or NULL. */
static const aa_change *kept_change(sel_set *x, const char *path)
{
	const aa_change *c = aa_sel_find_change(x, path);

	return c && x->keep[c - x->plan->changes] ? c : NULL;
}

/* 1 when the selected tree holds a file at exactly `path`. */
static int result_has_file(sel_set *x, const char *path)
{
	const aa_change *c = kept_change(x, path);
	uint32_t mode;
	aa_oid oid;

	if (c)
		return c->exists;
	return x->s->snap.lookup(x->s->snap.ctx, path, &mode, &oid) == 0;
}

typedef struct under_ctx {
	sel_set *x;
	const char *found;
	char *copy;
} under_ctx;

static int base_file_under(const char *path, uint32_t mode, const aa_oid *oid,
			   void *payload)
{
	under_ctx *u = payload;

	(void)mode;
	(void)oid;
	if (!result_has_file(u->x, path))
		return 0;
	u->copy = aa_strdup(path);
	return 1;
}

/*
 * What a kept creation at c->path needs that was not selected: a file
 * at one of its leading directories, or a file under it. Allocated, or
 * NULL when nothing.
 */
static char *missing_dependency(sel_set *x, const aa_change *c)
{
	size_t i, n = strlen(c->path);
	char *dir = aa_strdup(c->path);
	under_ctx u = { x, NULL, NULL };

	for (i = 0; dir && i < n; i++) {
		if (dir[i] != '/')
			continue;
		dir[i] = '\0';
		if (result_has_file(x, dir))
			return dir;
		dir[i] = '/';
	}
	free(dir);
	if (x->s->snap.each_under)
		x->s->snap.each_under(x->s->snap.ctx, c->path, base_file_under, &u);
	if (u.copy)
		return u.copy;
	/* the changes under c->path + "/" are one run in path order */
	for (i = lower_bound(x, c->path); i < x->plan->nchanges; i++) {
		size_t k = x->by_path[i];
		const aa_change *o = &x->plan->changes[k];

		if (strncmp(o->path, c->path, n))
			break;
		if (o->path[n] == '/' && x->keep[k] && o->exists)
			return aa_strdup(o->path);
	}
	return NULL;
}

/*
 * Drops kept creations that the refused answers left without room (a
 * deletion of the file where their directory goes was refused), and a
 * rename's deletion with its dropped target; until nothing changes.
 */
void aa_sel_keep_consistent(sel_set *x)
{
	int changed = 1;

	while (changed) {
		size_t i;

		changed = 0;
		for (i = 0; i < x->plan->nchanges; i++) {
			aa_change *c = &x->plan->changes[i];
			aa_change *src;
			char *dep;

			if (!x->keep[i] || !c->exists || c->base_exists)
				continue;
			dep = missing_dependency(x, c);
			if (!dep)
				continue;
			aa_note(x->d, AA_NOPOS, c->path,
				"not applied: %s stays, and it was not selected to go",
				aa_qpath(dep));
			free(dep);
			x->keep[i] = 0;
			src = aa_sel_rename_source(x, c);
			if (src)
				x->keep[src - x->plan->changes] = 0;
			changed = 1;
		}
	}
}

/* Removes the changes not kept, in order. */
void aa_sel_compact(sel_set *x)
{
	size_t i, n = 0;

	for (i = 0; i < x->plan->nchanges; i++)
		if (x->keep[i])
			x->plan->changes[n++] = x->plan->changes[i];
	x->plan->nchanges = n;
}

/* ---- warnings of what did not land ---- */

placed *aa_sel_record_placements(const aa_plan *plan, size_t *n)
{
	size_t i, j, total = 0;
	placed *v;

	for (i = 0; i < plan->nchanges; i++)
		total += plan->changes[i].nlandings;
	v = calloc(total + 1, sizeof(*v));
	*n = 0;
	for (i = 0; v && i < plan->nchanges; i++)
		for (j = 0; j < plan->changes[i].nlandings; j++) {
			v[*n].path = plan->changes[i].path;
			v[(*n)++].pos = plan->changes[i].landings[j].pos;
		}
	return v;
}

static int same_input(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int is_at(const aa_diag *dg, aa_pos pos)
{
	return dg->line == pos.line && same_input(dg->input, pos.input);
}

/* 1 when a kept change's landing is where dg points. */
static int kept_placement(const aa_plan *plan, const aa_diag *dg, int *path_kept)
{
	size_t i, j;

	*path_kept = 0;
	for (i = 0; i < plan->nchanges; i++) {
		const aa_change *c = &plan->changes[i];

		*path_kept |= !strcmp(c->path, dg->path);
		for (j = 0; j < c->nlandings; j++)
			if (is_at(dg, c->landings[j].pos))
				return 1;
	}
	return 0;
}

/*
 * A warning about a path of the answer goes with what did not land: a
 * refused hunk's placement, or a change dropped whole. (The review
 * record and the report then speak of what landed only.)
 */
static int warning_dropped(const aa_plan *plan, const placed *v, size_t n,
			   const aa_diag *dg)
{
	size_t i;
	int ours = 0, at_landing = 0, path_kept;

	if (dg->level != AA_DIAG_WARNING || !dg->path)
		return 0;
	for (i = 0; i < n; i++) {
		ours |= !strcmp(v[i].path, dg->path);
		at_landing |= is_at(dg, v[i].pos);
	}
	if (!ours || kept_placement(plan, dg, &path_kept))
		return 0;
	return at_landing || !path_kept;
}

void aa_sel_drop_warnings(const aa_plan *plan, const placed *v, size_t n,
			  aa_diags *d)
{
	size_t i, k = 0;

	for (i = 0; i < d->n; i++) {
		aa_diag *dg = &d->v[i];

		if (!warning_dropped(plan, v, n, dg)) {
			d->v[k++] = *dg;
			continue;
		}
		free(dg->path);
		free(dg->input);
		free(dg->msg);
	}
	d->n = k;
}
