/*
 * -p / --patch: the interactive selection between plan and land
 * (src/workflow/select.h). The questions follow git add -p: per file,
 * the whole operations first (rename or copy, mode change, creation,
 * deletion, a binary, symlink or gitlink change), then the hunks of the
 * diff base -> planned content with 3 lines of context, each answered
 * y n q a d s e ?. The answers decide a subset of the plan: refused
 * changes are dropped, partly accepted files get the content their
 * accepted hunks give, and only the landings of accepted hunks remain.
 *
 * The model of one file's content: the base split in lines, and the
 * diff's lines grouped in "atoms" (runs of -/+ lines with no context
 * between them). A displayed hunk is a run of atoms with its context;
 * `s` cuts a hunk into one hunk per atom, the context between them
 * shown with both. The selected content is the base with the removed
 * lines of accepted hunks dropped and their added lines inserted; an
 * edited hunk (`e`) gives its own drops and insertions over its range.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <git2.h>

#include "workflow/select.h"
#include "edit/edit.h"
#include "report/report.h"
#include "workflow/editor.h"

struct aa_selection {
	char **bufs;          /* the selected contents the plan points into */
	size_t n, cap;
};

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

/* ---- the session of questions ---- */

typedef struct selector {
	aa_session *s;
	aa_plan *plan;
	const aa_select_opts *o;
	aa_selection *sel;
	aa_diags *d;
	FILE *in, *out;
	int quit;             /* q: every later question is answered no */
	int file_all;         /* a (YES) or d (NO) for the rest of the file */
	size_t qnum, qtotal;  /* the question's number in the file */
	const char *path;     /* the file asked about, for messages */
	int eof;              /* the input ended before the last question */
	unsigned char *keep;  /* per change: kept */
	size_t *by_path;      /* the changes' indexes in path order */
	unsigned char *rename_src; /* per change: a rename's deletion */
	char *line;           /* the answer line */
	size_t line_cap;
} selector;

static const char *color(const selector *x, aa_color_slot slot)
{
	return aa_color_get(x->o->color, slot);
}

static int oom(selector *x)
{
	aa_oom(x->d, (aa_pos){ NULL, 0 }, x->path);
	return AA_FATAL;
}

/* Prints s[0..len) in a slot's color, the line end after the reset. */
static void put_colored(selector *x, aa_color_slot slot, const char *s,
			size_t len)
{
	int nl = len && s[len - 1] == '\n';
	const char *on = color(x, slot);

	if (nl)
		len--;
	fprintf(x->out, "%s%.*s%s\n", on, (int)len, s,
		*on ? color(x, AA_COLOR_RESET) : "");
}

static void put_colored_str(selector *x, aa_color_slot slot, const char *s)
{
	put_colored(x, slot, s, strlen(s));
}

static int own(selector *x, char *buf)
{
	aa_selection *sel = x->sel;

	if (sel->n == sel->cap) {
		size_t cap = sel->cap ? sel->cap * 2 : 8;
		char **v = realloc(sel->bufs, cap * sizeof(*v));

		if (!v)
			return -1;
		sel->bufs = v;
		sel->cap = cap;
	}
	sel->bufs[sel->n++] = buf;
	return 0;
}

void aa_selection_free(aa_selection *sel)
{
	size_t i;

	if (!sel)
		return;
	for (i = 0; i < sel->n; i++)
		free(sel->bufs[i]);
	free(sel->bufs);
	free(sel);
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
static size_t landing_hunk(const fdiff *f, const aa_landing *l)
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

static void print_placement(selector *x, const aa_landing *l)
{
	aa_buf b = AA_BUF_INIT;
	int tol = aa_how_is_tolerant(l->how);

	aa_buf_printf(&b, "placement: %s:%ld: %s", l->pos.input ? aa_qpath(l->pos.input) : "?",
		      l->pos.line, aa_how_name(l->how));
	if (l->line)
		aa_buf_printf(&b, " at line %ld", l->line);
	if (l->offset)
		aa_buf_printf(&b, ", offset %+ld", l->offset);
	if (tol)
		aa_buf_puts(&b, " (tolerant: look closely)");
	if (b.ptr)
		put_colored(x, tol ? AA_COLOR_TOLERANT : AA_COLOR_CONTEXT, b.ptr, b.len);
	aa_buf_free(&b);
}

/*
 * The placements of change c shown with hunk `hi` (-1: every one): those
 * of the diff's hunk it is (a part of), as a split does not tell which
 * part an answer's hunk made; those with no line at the first hunk.
 */
static void print_placements(selector *x, const fdiff *f, const aa_change *c,
			     size_t hi)
{
	size_t j;

	for (j = 0; c && j < c->nlandings; j++) {
		const aa_landing *l = &c->landings[j];
		size_t at = f ? landing_hunk(f, l) : (size_t)-1;

		if (l->how == AA_HOW_ALREADY_APPLIED)
			continue;
		if (hi == (size_t)-1 || (!l->line && hi == 0) ||
		    (at != (size_t)-1 && f->hunks[at].orig == f->hunks[hi].orig))
			print_placement(x, l);
	}
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

/* ---- showing ---- */

/* One diff line as git diff --color prints it (src/report/report.c). */
static void print_dline(selector *x, aa_diff_colors *dc, const dline *l)
{
	static const char origins[] = { GIT_DIFF_LINE_CONTEXT,
		GIT_DIFF_LINE_DELETION, GIT_DIFF_LINE_ADDITION };
	aa_buf b = AA_BUF_INIT;
	size_t len = l->len;
	int nl = len && l->p[len - 1] == '\n';

	aa_report_color_line(dc, &b, origins[l->origin == '-' ? 1 :
					      l->origin == '+' ? 2 : 0],
			     l->p, len);
	if (!nl)
		aa_buf_putc(&b, '\n');
	if (b.ptr)
		fwrite(b.ptr, 1, b.len, x->out);
	if (!nl)
		fputs("\\ No newline at end of file\n", x->out);
	aa_buf_free(&b);
}

static void put_header(aa_buf *b, const fdiff *f, const hunk *h)
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

static void print_hunk(selector *x, const fdiff *f, const hunk *h)
{
	aa_buf b = AA_BUF_INIT;
	size_t i;

	aa_diff_colors dc;
	aa_buf line = AA_BUF_INIT;

	aa_report_color_file(&dc, x->o->color, NULL, 0, NULL, 0);
	put_header(&b, f, h);
	if (b.ptr && (b.len == 0 || b.ptr[b.len - 1] != '\n'))
		aa_buf_putc(&b, '\n');
	if (b.ptr)
		aa_report_color_line(&dc, &line, GIT_DIFF_LINE_HUNK_HDR,
				     b.ptr, b.len);
	if (line.ptr)
		fwrite(line.ptr, 1, line.len, x->out);
	aa_buf_free(&line);
	aa_buf_free(&b);
	for (i = h->first; i < h->last; i++)
		print_dline(x, &dc, &f->lines[i]);
}

static void print_meta(selector *x, const char *fmt, const char *a,
		       const char *b)
{
	aa_buf line = AA_BUF_INIT;

	aa_buf_printf(&line, fmt, a, b);
	if (line.ptr)
		put_colored(x, AA_COLOR_META, line.ptr, line.len);
	aa_buf_free(&line);
}

static void print_mode_meta(selector *x, const char *fmt, uint32_t mode)
{
	char m[16];

	snprintf(m, sizeof(m), "%06o", (unsigned)mode);
	print_meta(x, fmt, m, "");
}

/* ---- asking ---- */

typedef enum qkind {
	Q_HUNK, Q_DELETION, Q_ADDITION, Q_MODE, Q_RENAME, Q_COPY, Q_CHANGE
} qkind;

static const char *const q_what[] = {
	"this hunk", "deletion", "addition", "mode change", "rename", "copy",
	"this change"
};

static void print_help(selector *x, const char *keys)
{
	int br = x->o->mode == AA_LAND_BRANCH;
	const char *verb = br ? "apply" : "stage";
	const char *to = br ? " to the branch" : "";
	aa_buf b = AA_BUF_INIT;

	aa_buf_printf(&b, "y - %s this hunk%s\n", verb, to);
	aa_buf_printf(&b, "n - do not %s this hunk\n", verb);
	aa_buf_printf(&b, "q - quit; do not %s this hunk or any of the remaining ones\n", verb);
	aa_buf_printf(&b, "a - %s this hunk and all later hunks in the file\n", verb);
	aa_buf_printf(&b, "d - do not %s this hunk or any of the later hunks in the file\n", verb);
	if (strchr(keys, 's'))
		aa_buf_puts(&b, "s - split the current hunk into smaller hunks\n");
	if (strchr(keys, 'e'))
		aa_buf_puts(&b, "e - manually edit the current hunk\n");
	aa_buf_puts(&b, "? - print help\n");
	if (b.ptr) {
		const char *p = b.ptr;

		while (*p) {
			const char *nl = strchr(p, '\n');

			put_colored(x, AA_COLOR_HELP, p, (size_t)(nl - p) + 1);
			p = nl + 1;
		}
	}
	aa_buf_free(&b);
}

/* One answer line; 0, or -1 at the end of the input. */
static int read_answer(selector *x)
{
	ssize_t n;

	fflush(x->out);
	errno = 0;
	n = getline(&x->line, &x->line_cap, x->in);
	if (n < 0) {
		/* a pipe's end needs a line of its own, as git's prompt does */
		fputc('\n', x->out);
		x->eof = 1;
		return -1;
	}
	return 0;
}

static char first_key(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return (char)tolower((unsigned char)*s);
}

/*
 * Asks question `kind` offering `keys` ("ynqad" and maybe "s", "e"):
 * the key answered, or 0 at the end of the input. Unknown keys print
 * the help and ask again, as git.
 */
static char ask(selector *x, qkind kind, const char *keys)
{
	int br = x->o->mode == AA_LAND_BRANCH;

	for (;;) {
		aa_buf shown = AA_BUF_INIT;
		const char *k;
		char key;

		for (k = keys; *k; k++)
			aa_buf_printf(&shown, "%s%c", k == keys ? "" : ",", *k);
		fprintf(x->out, "%s(%zu/%zu) %s %s%s [%s,?]? %s", color(x, AA_COLOR_PROMPT),
			x->qnum, x->qtotal, br ? "Apply" : "Stage", q_what[kind],
			br ? " to the branch" : "", shown.ptr ? shown.ptr : "",
			color(x, AA_COLOR_RESET));
		aa_buf_free(&shown);
		if (read_answer(x) < 0)
			return 0;
		key = first_key(x->line);
		if (key == '\n' || key == '\r' || !key)
			continue;
		if (key != '?' && strchr(keys, key))
			return key;
		if (key == 's' && kind == Q_HUNK) {
			put_colored_str(x, AA_COLOR_ERROR, "Sorry, cannot split this hunk");
			continue;
		}
		print_help(x, keys);
	}
}

/*
 * The answer to one question: YES or NO (q, a and d recorded for the
 * later ones), 's' or 'e' for the caller, 0 at the end of the input.
 */
static int decide(selector *x, qkind kind, const char *keys)
{
	char key;

	x->qnum++;
	if (x->quit)
		return NO;
	if (x->file_all)
		return x->file_all;
	key = ask(x, kind, keys);
	switch (key) {
	case 0:
		return 0;
	case 'y':
		return YES;
	case 'n':
		return NO;
	case 'q':
		x->quit = 1;
		return NO;
	case 'a':
		x->file_all = YES;
		return YES;
	case 'd':
		x->file_all = NO;
		return NO;
	default:
		return key;
	}
}

static int end_of_input(selector *x)
{
	aa_error(x->d, (aa_pos){ NULL, 0 }, x->path,
		 "end of input at question %zu/%zu: nothing was applied",
		 x->qnum, x->qtotal);
	return AA_REJECTED;
}

/* ---- s: splitting ---- */

/* Replaces hunk hi with one hunk per atom, each with the context around it. */
static int split_hunk(fdiff *f, size_t hi)
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

/* ---- e: editing ---- */

/* GIT_EDITOR, core.editor, VISUAL (not on a dumb terminal), EDITOR, vi. */
static char *editor_command(selector *x)
{
	const char *e = getenv("GIT_EDITOR"), *term = getenv("TERM");
	git_config *cfg = NULL;
	git_buf b = GIT_BUF_INIT_CONST(NULL, 0);
	char *r = NULL;

	if (e && *e)
		return aa_strdup(e);
	if (git_repository_config_snapshot(&cfg, x->s->repo) == 0 &&
	    git_config_get_string_buf(&b, cfg, "core.editor") == 0 && b.ptr && *b.ptr)
		r = aa_strdup(b.ptr);
	git_error_clear();
	git_buf_dispose(&b);
	git_config_free(cfg);
	if (r)
		return r;
	e = getenv("VISUAL");
	if (e && *e && !(term && !strcmp(term, "dumb")))
		return aa_strdup(e);
	e = getenv("EDITOR");
	return aa_strdup(e && *e ? e : "vi");
}

/*
 * Runs the editor on `file` through sh -c, as git (src/workflow/editor.c: a
 * signal ends it and the file before the run): 0 when it succeeded.
 */
static int run_editor(selector *x, const char *file)
{
	char *cmd = editor_command(x);
	int status = 0, r;

	if (!cmd)
		return -1;
	fflush(x->out);
	r = aa_editor_run(cmd, file, &status);
	if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		aa_warn(x->d, (aa_pos){ NULL, 0 }, x->path,
			"there was a problem with the editor '%s'", cmd);
	free(cmd);
	return r == 0 && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static void put_edit_line(aa_buf *b, char origin, const char *p, size_t len)
{
	aa_buf_putc(b, origin);
	aa_buf_put(b, p, len);
	if (!len || p[len - 1] != '\n')
		aa_buf_puts(b, "\n\\ No newline at end of file\n");
}

/* The file the editor gets: a guide, the hunk (or the last edit), a guide. */
static void edit_text(const fdiff *f, const hunk *h, aa_buf *b)
{
	size_t i;

	aa_buf_puts(b, "# Manual hunk edit mode -- see bottom for a quick guide.\n");
	put_header(b, f, h);
	if (h->edit)
		for (i = 0; i < h->nelines; i++)
			put_edit_line(b, h->elines[i].origin, h->elines[i].p,
				      h->elines[i].len);
	else
		for (i = h->first; i < h->last; i++)
			put_edit_line(b, f->lines[i].origin, f->lines[i].p,
				      f->lines[i].len);
	aa_buf_puts(b, "# ---\n"
		    "# To keep a '-' line, make it a ' ' line (context).\n"
		    "# To drop a '+' line, delete it.\n"
		    "# Lines starting with # will be removed.\n"
		    "# If the edited hunk still fits the base, it is selected at once.\n"
		    "# If it does not (a context or '-' line changed), you can edit it\n"
		    "# again. If all lines of the hunk are removed, the edit is\n"
		    "# aborted and the hunk is left unchanged.\n");
}

static int write_file(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "wb");
	int r;

	if (!fp)
		return -1;
	r = fwrite(data, 1, len, fp) == len ? 0 : -1;
	return fclose(fp) || r ? -1 : 0;
}

static int read_file(const char *path, aa_buf *out)
{
	FILE *fp = fopen(path, "rb");
	char chunk[8192];
	size_t n;

	if (!fp)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		aa_buf_put(out, chunk, n);
	fclose(fp);
	return aa_buf_oom(out) ? -1 : 0;
}

/*
 * Splits the edited text in lines: '#' lines and "@@" headers go, an
 * empty line is an empty context line (as git), "\ No newline" takes
 * the previous line's end. Returns the count, or -1 when a line is none
 * of ' ', '-', '+'.
 */
static long parse_edit(char *text, size_t len, eline *v)
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
static int edit_fits(const fdiff *f, const hunk *h, const eline *v, size_t n)
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

/* "Edit again?": 1 yes, 0 no, -1 at the end of the input. */
static int ask_edit_again(selector *x)
{
	for (;;) {
		char key;

		fprintf(x->out, "%sYour edited hunk does not apply. Edit again (saying \"no\" discards!) [y/n]? %s",
			color(x, AA_COLOR_PROMPT), color(x, AA_COLOR_RESET));
		if (read_answer(x) < 0)
			return -1;
		key = first_key(x->line);
		if (key == 'y' || key == 'n')
			return key == 'y';
	}
}

/* Takes the edited text as hunk h's content (it fits). */
static int keep_edit(hunk *h, char *text, eline *v, size_t n)
{
	free(h->edit);
	free(h->elines);
	h->edit = text;
	h->elines = v;
	h->nelines = n;
	return 0;
}

/*
 * Writes `text` to the edit file, runs the editor and reads it back
 * into *out; -1 when the file or the editor failed (warned).
 */
static int edit_round(selector *x, const char *file, const aa_buf *text,
		      aa_buf *out)
{
	if (aa_buf_oom(text) || write_file(file, text->ptr, text->len) < 0) {
		aa_warn(x->d, (aa_pos){ NULL, 0 }, x->path, "cannot write %s: %s",
			aa_qpath(file), strerror(errno));
		return -1;
	}
	if (run_editor(x, file) < 0)
		return -1;
	if (read_file(file, out) < 0) {
		aa_warn(x->d, (aa_pos){ NULL, 0 }, x->path, "cannot read %s: %s",
			aa_qpath(file), strerror(errno));
		return -1;
	}
	if (!out->ptr)
		aa_buf_puts(out, "");
	return 0;
}

/*
 * e: 1 when the hunk was edited (and is selected), 0 when the edit was
 * abandoned (ask the hunk again), -1 at the end of the input, AA_FATAL.
 * An edit that does not fit is offered again as it was written.
 */
static int edit_hunk(selector *x, fdiff *f, hunk *h)
{
	aa_buf file = AA_BUF_INIT, text = AA_BUF_INIT;
	int r = 0;

	if (aa_buf_printf(&file, "%sai-apply-hunk-edit.diff",
			  git_repository_path(x->s->repo)) < 0)
		return oom(x);
	edit_text(f, h, &text);
	aa_editor_guard_begin(file.ptr);
	for (;;) {
		aa_buf back = AA_BUF_INIT;
		eline *v;
		long n;

		if (edit_round(x, file.ptr, &text, &back) < 0) {
			aa_buf_free(&back);
			break;
		}
		v = calloc(back.len + 1, sizeof(*v));
		if (!v) {
			aa_buf_free(&back);
			r = oom(x);
			break;
		}
		n = parse_edit(back.ptr, back.len, v);
		if (n > 0 && edit_fits(f, h, v, (size_t)n)) {
			r = keep_edit(h, aa_buf_detach(&back), v, (size_t)n) == 0;
			break;
		}
		free(v);
		aa_buf_free(&text);
		text = back;
		if (n == 0)
			break; /* every line removed: the edit is aborted */
		r = ask_edit_again(x);
		if (r <= 0)
			break;
		r = 0;
	}
	unlink(file.ptr);
	aa_editor_guard_end();
	aa_buf_free(&file);
	aa_buf_free(&text);
	return r;
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

/* ---- one file ---- */

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
	char *part;
	size_t part_len;
} file_q;

/* Shows and asks the hunks of fq; AA_OK, AA_REJECTED (end of input), AA_FATAL. */
static int ask_hunks(selector *x, file_q *fq)
{
	fdiff *f = &fq->f;
	size_t i = 0;

	while (i < f->nhunks) {
		hunk *h = &f->hunks[i];
		int r, can_split = h->a1 - h->a0 > 1;

		if (!x->quit && !x->file_all) {
			print_placements(x, f, fq->c, i);
			print_hunk(x, f, h);
		}
		r = decide(x, Q_HUNK, can_split ? "ynqadse" : "ynqade");
		if (r == 0)
			return end_of_input(x);
		if (r == 's') {
			size_t parts = h->a1 - h->a0;

			if (split_hunk(f, i) < 0)
				return oom(x);
			x->qtotal += parts - 1;
			x->qnum--;
			fprintf(x->out, "Split into %zu hunks.\n", parts);
			continue;
		}
		if (r == 'e') {
			r = edit_hunk(x, f, h);
			if (r == AA_FATAL)
				return r;
			if (r < 0)
				return end_of_input(x);
			if (!r) {
				x->qnum--; /* abandoned: the same question again */
				continue;
			}
			h->answer = YES;
			i++;
			continue;
		}
		h->answer = r;
		i++;
	}
	return AA_OK;
}

static size_t answered(const fdiff *f, int answer)
{
	size_t i, n = 0;

	for (i = 0; i < f->nhunks; i++)
		n += f->hunks[i].answer == answer && !(answer == YES && f->hunks[i].edit);
	return n;
}

/* The content decided by the hunks' answers; the landings they keep. */
static int settle_content(selector *x, file_q *fq)
{
	fdiff *f = &fq->f;
	aa_change *c = fq->c;
	size_t j, any_yes = 0;
	aa_buf b = AA_BUF_INIT;

	for (j = 0; j < f->nhunks; j++)
		any_yes += f->hunks[j].answer == YES;
	for (j = 0; c && j < c->nlandings; j++) {
		size_t at = landing_hunk(f, &c->landings[j]);

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
		return oom(x);
	}
	fq->part_len = b.len;
	fq->part = aa_buf_detach(&b);
	if (own(x, fq->part) < 0) {
		free(fq->part);
		fq->part = NULL;
		return oom(x);
	}
	fq->result = fq->part_len == fq->old_len &&
		     !memcmp(fq->part, fq->old, fq->old_len) ? CONTENT_NONE :
		     CONTENT_PART;
	return AA_OK;
}

/*
 * Loads the content question of change c asked against `old`: hunks, or
 * one whole question when binary. 0 when the content does not differ.
 */
static int load_content(selector *x, file_q *fq, aa_change *c,
			const char *old, size_t old_len, git_blob **blob)
{
	const char *data;
	size_t len;
	int bin;

	fq->c = c;
	fq->old = old ? old : "";
	fq->old_len = old_len;
	fq->keep_landing = calloc(c->nlandings + 1, 1);
	if (!fq->keep_landing)
		return oom(x);
	if (aa_change_content(x->s, c, blob, &data, &len) < 0)
		return aa_error(x->d, (aa_pos){ NULL, 0 }, c->path,
				"cannot read the planned content"), AA_FATAL;
	if (len == old_len && !memcmp(data, fq->old, len))
		return 0;
	bin = x->s->snap.attr_binary &&
	      x->s->snap.attr_binary(x->s->snap.ctx, c->path) == 1;
	if (load_diff(&fq->f, c->path, fq->old, old_len, data, len, bin) < 0)
		return oom(x);
	fq->whole = fq->f.binary;
	return 1;
}

static void file_q_free(file_q *fq)
{
	fdiff_free(&fq->f);
	free(fq->keep_landing);
	memset(fq, 0, sizeof(*fq));
}

/* Drops the landings of refused hunks from c (its array is compacted). */
static void filter_landings(aa_change *c, const unsigned char *keep)
{
	size_t i, n = 0;

	for (i = 0; i < c->nlandings; i++)
		if (keep[i])
			c->landings[n++] = c->landings[i];
	c->nlandings = n;
}

/* Sets c's content from fq's result, over `old_oid` (the base it was asked against). */
static void apply_content(aa_change *c, const file_q *fq, const aa_oid *old_oid)
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

static int read_base(selector *x, const aa_oid *oid, aa_buf *out)
{
	if (x->s->snap.read(x->s->snap.ctx, oid, out) < 0)
		return aa_error(x->d, (aa_pos){ NULL, 0 }, x->path,
				"cannot read the base content"), AA_FATAL;
	if (!out->ptr)
		aa_buf_puts(out, "");
	return AA_OK;
}

static void print_file_header(selector *x, const char *from, const char *to)
{
	aa_buf line = AA_BUF_INIT;

	aa_buf_printf(&line, "diff --git %s", aa_qpathp("a/", from));
	aa_buf_printf(&line, " %s", aa_qpathp("b/", to));
	if (line.ptr)
		put_colored(x, AA_COLOR_META, line.ptr, line.len);
	aa_buf_free(&line);
}

/* "a/path", or /dev/null for a side that does not exist. */
static const char *side(const char *prefix, const char *path)
{
	return path ? aa_qpathp(prefix, path) : "/dev/null";
}

static void print_content_header(selector *x, const file_q *fq,
				 const char *from, const char *to)
{
	if (fq->whole) {
		print_meta(x, "Binary files %s and %s differ", side("a/", from),
			   side("b/", to));
		return;
	}
	print_meta(x, "--- %s%s", side("a/", from), "");
	print_meta(x, "+++ %s%s", side("b/", to), "");
}

/*
 * The content question(s) of fq: the hunks, or one "this change" for a
 * binary content. Sets fq->result.
 */
static int ask_content(selector *x, file_q *fq)
{
	int r;

	if (fq->whole) {
		r = decide(x, Q_CHANGE, "ynqad");
		if (!r)
			return end_of_input(x);
		fq->result = r == YES ? CONTENT_ALL : CONTENT_NONE;
		memset(fq->keep_landing, r == YES, fq->c->nlandings);
		return AA_OK;
	}
	r = ask_hunks(x, fq);
	return r < 0 ? r : settle_content(x, fq);
}

static void start_file(selector *x, const char *path, size_t questions)
{
	x->path = path;
	x->file_all = 0;
	x->qnum = 0;
	x->qtotal = questions;
}

static int same_kind(uint32_t a, uint32_t b)
{
	int ka = a == AA_MODE_LINK ? 1 : a == AA_MODE_GITLINK ? 2 : 0;
	int kb = b == AA_MODE_LINK ? 1 : b == AA_MODE_GITLINK ? 2 : 0;

	return ka == kb;
}

/* ---- the plan's changes by path ---- */

static aa_change *find_change(selector *x, const char *path);

static int cmp_change_path(const void *a, const void *b)
{
	const aa_change *const *p = a, *const *q = b;

	return strcmp((*p)->path, (*q)->path);
}

/*
 * Indexes the changes by path, and flags the deletions that are the
 * other half of a rename (asked with it). 0, or -1 out of memory.
 */
static int index_changes(selector *x)
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
		    (src = find_change(x, t->renamed_from)) && src->base_exists)
			x->rename_src[src - x->plan->changes] = src->exists ? 2 : 1;
	}
	return 0;
}

/* The first indexed change whose path is not below `path` in order. */
static size_t lower_bound(selector *x, const char *path)
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
static aa_change *find_change(selector *x, const char *path)
{
	size_t at = lower_bound(x, path);

	if (at < x->plan->nchanges &&
	    !strcmp(x->plan->changes[x->by_path[at]].path, path))
		return &x->plan->changes[x->by_path[at]];
	return NULL;
}

/* The deletion that is the other half of rename t, or NULL. */
static aa_change *rename_source(selector *x, const aa_change *t)
{
	aa_change *src;

	if (!t->renamed_from || t->copied || t->base_exists)
		return NULL;
	src = find_change(x, t->renamed_from);
	return src && !src->exists && src->base_exists ? src : NULL;
}

static int is_rename_source(selector *x, const aa_change *c)
{
	return x->rename_src[c - x->plan->changes];
}

static void print_whole_meta(selector *x, const aa_change *c, qkind kind)
{
	const char *from = c->renamed_from ? c->renamed_from : c->path;

	print_file_header(x, from, c->path);
	if (kind == Q_DELETION)
		print_mode_meta(x, "deleted file mode %s%s", c->base_mode);
	else if (kind == Q_ADDITION || kind == Q_COPY)
		print_mode_meta(x, "new file mode %s%s", c->mode);
	else if (c->base_exists && c->base_mode != c->mode) {
		print_mode_meta(x, "old mode %s%s", c->base_mode);
		print_mode_meta(x, "new mode %s%s", c->mode);
	}
	if (kind == Q_COPY || kind == Q_RENAME) {
		const char *verb = kind == Q_COPY ? "copy" : "rename";

		print_meta(x, "%s from %s", verb, aa_qpath(from));
		print_meta(x, "%s to %s", verb, aa_qpath(c->path));
	}
}

/*
 * Shows a change asked as one question: its header and, for text, its
 * whole diff against `old` (the base content; "" for a creation).
 */
static int show_whole(selector *x, aa_change *c, qkind kind, const char *old,
		      size_t old_len)
{
	file_q fq;
	git_blob *blob = NULL;
	int r = 0;
	size_t i;

	memset(&fq, 0, sizeof(fq));
	print_whole_meta(x, c, kind);
	/* a gitlink's content is its commit, not a blob: the header says it */
	if (!(c->exists && c->mode == AA_MODE_GITLINK) &&
	    !(c->base_exists && c->base_mode == AA_MODE_GITLINK && kind != Q_RENAME &&
	      kind != Q_COPY))
		r = load_content(x, &fq, c, old, old_len, &blob);
	if (r > 0) {
		print_content_header(x, &fq, kind == Q_DELETION ||
				     (c->base_exists && kind != Q_ADDITION) ? c->path : NULL,
				     kind == Q_DELETION ? NULL : c->path);
		print_placements(x, NULL, c, (size_t)-1);
		for (i = 0; i < fq.f.nhunks; i++)
			print_hunk(x, &fq.f, &fq.f.hunks[i]);
	}
	git_blob_free(blob);
	file_q_free(&fq);
	return r < 0 ? r : AA_OK;
}

/* A change asked as one question, kept or dropped whole. */
static int ask_whole(selector *x, aa_change *c, qkind kind, const char *old,
		     size_t old_len);

/*
 * After rename c was answered: the source path written again (the
 * answer moved it away, then wrote a new file there) is asked as an
 * addition when the rename was taken -- refused, the path is deleted,
 * as the rename left it -- and stays as it was when the rename was not.
 */
static int ask_rewritten_source(selector *x, const aa_change *c, int taken)
{
	aa_change *s = c->renamed_from ? find_change(x, c->renamed_from) : NULL;
	size_t k;
	int r;

	if (!s || x->rename_src[s - x->plan->changes] != 2)
		return AA_OK;
	k = (size_t)(s - x->plan->changes);
	if (!taken) {
		x->keep[k] = 0;
		return AA_OK;
	}
	if ((r = ask_whole(x, s, Q_ADDITION, "", 0)) < 0)
		return r;
	if (!x->keep[k]) {
		x->keep[k] = 1;
		s->exists = 0;
		s->nlandings = 0;
	}
	return AA_OK;
}

/* A change asked as one question, kept or dropped whole. */
static int ask_whole(selector *x, aa_change *c, qkind kind, const char *old,
		     size_t old_len)
{
	aa_change *src = kind == Q_RENAME ? rename_source(x, c) : NULL;
	int r;

	start_file(x, c->path, 1);
	if (!x->quit && (r = show_whole(x, c, kind, old, old_len)) < 0)
		return r;
	r = decide(x, kind, "ynqad");
	if (!r)
		return end_of_input(x);
	x->keep[c - x->plan->changes] = r == YES;
	if (src) /* a refused rename keeps its source */
		x->keep[src - x->plan->changes] = r == YES;
	return kind == Q_RENAME ? ask_rewritten_source(x, c, r == YES) : AA_OK;
}

/*
 * A file kept in place or moved (rename): the rename question, the mode
 * question, the content questions. `t` is the change at the new path,
 * `src` the deletion of the old one (renames; NULL otherwise).
 */
static int ask_file(selector *x, aa_change *t, aa_change *src)
{
	const char *from = t->renamed_from ? t->renamed_from : t->path;
	uint32_t old_mode = src ? src->base_mode : t->base_mode;
	const aa_oid *old_oid = src ? &src->base_oid : &t->base_oid;
	aa_buf old = AA_BUF_INIT;
	git_blob *blob = NULL;
	file_q fq;
	int rename = t->renamed_from != NULL, mode_q = t->mode != old_mode;
	int rename_yes = 1, mode_yes = 0, r, has_content;

	memset(&fq, 0, sizeof(fq));
	if ((r = read_base(x, old_oid, &old)) < 0)
		return r;
	start_file(x, t->path, 0);
	r = has_content = load_content(x, &fq, t, old.ptr, old.len, &blob);
	if (r < 0)
		goto out;
	x->qtotal = (size_t)rename + (size_t)mode_q +
		    (has_content ? fq.whole ? 1 : fq.f.nhunks : 0);
	if (!x->quit) {
		print_file_header(x, from, t->path);
		if (rename) {
			print_meta(x, "rename from %s%s", aa_qpath(from), "");
			print_meta(x, "rename to %s%s", aa_qpath(t->path), "");
		}
		if (mode_q) {
			print_mode_meta(x, "old mode %s%s", old_mode);
			print_mode_meta(x, "new mode %s%s", t->mode);
		}
		if (has_content)
			print_content_header(x, &fq, from, t->path);
	}
	r = AA_OK;
	if (rename && !(rename_yes = decide(x, Q_RENAME, "ynqad"))) {
		r = end_of_input(x);
		goto out;
	}
	rename_yes = rename_yes == YES;
	if (mode_q && !(mode_yes = decide(x, Q_MODE, "ynqad"))) {
		r = end_of_input(x);
		goto out;
	}
	mode_yes = mode_yes == YES;
	if (has_content && (r = ask_content(x, &fq)) < 0)
		goto out;
	if (!has_content)
		fq.result = CONTENT_NONE;
	if (rename && !rename_yes) {
		/* the edits are kept on the old path, which stays */
		x->keep[t - x->plan->changes] = 0;
		if (src && (mode_yes || fq.result != CONTENT_NONE)) {
			aa_change keep_t = *t;

			src->exists = 1;
			src->mode = mode_yes ? t->mode : old_mode;
			src->has_oid = keep_t.has_oid;
			src->oid = keep_t.oid;
			src->data = keep_t.data;
			src->len = keep_t.len;
			apply_content(src, &fq, old_oid);
			src->landings = t->landings;
			src->nlandings = t->nlandings;
			if (has_content)
				filter_landings(src, fq.keep_landing);
		} else if (src) {
			x->keep[src - x->plan->changes] = 0;
		}
		goto out;
	}
	t->mode = mode_q && !mode_yes ? old_mode : t->mode;
	apply_content(t, &fq, old_oid);
	if (has_content)
		filter_landings(t, fq.keep_landing);
	if (!rename && !mode_yes && fq.result == CONTENT_NONE)
		x->keep[t - x->plan->changes] = 0;
out:
	git_blob_free(blob);
	file_q_free(&fq);
	aa_buf_free(&old);
	return r;
}

static int ask_change(selector *x, aa_change *c)
{
	aa_buf old = AA_BUF_INIT;
	int r;

	if (is_rename_source(x, c))
		return AA_OK; /* asked with its rename */
	if (!c->exists) {
		if ((r = c->base_mode == AA_MODE_GITLINK ? AA_OK :
			 read_base(x, &c->base_oid, &old)) == AA_OK)
			r = ask_whole(x, c, Q_DELETION, old.ptr, old.len);
		aa_buf_free(&old);
		return r;
	}
	if (c->renamed_from && c->copied && !c->base_exists)
		return ask_whole(x, c, Q_COPY, "", 0);
	if (c->renamed_from && !c->base_exists &&
	    (!rename_source(x, c) || (c->mode != AA_MODE_FILE && c->mode != AA_MODE_EXEC) ||
	     !same_kind(rename_source(x, c)->base_mode, c->mode)))
		/*
		 * The source has changes of its own (the edits cannot stay
		 * there), or a link or gitlink moves: the rename is whole.
		 */
		return ask_whole(x, c, Q_RENAME, "", 0);
	if (!c->base_exists && !c->renamed_from)
		return ask_whole(x, c, Q_ADDITION, "", 0);
	if (c->base_exists && (!same_kind(c->base_mode, c->mode) ||
			       (c->mode != AA_MODE_FILE && c->mode != AA_MODE_EXEC))) {
		if ((r = c->base_mode == AA_MODE_GITLINK ? AA_OK :
			 read_base(x, &c->base_oid, &old)) == AA_OK)
			r = ask_whole(x, c, Q_CHANGE, old.ptr, old.len);
		aa_buf_free(&old);
		return r;
	}
	return ask_file(x, c, rename_source(x, c));
}

/* ---- consistency: no file where a directory is kept, and the reverse ---- */

/* The change at path among the kept ones, or NULL. */
static const aa_change *kept_change(selector *x, const char *path)
{
	const aa_change *c = find_change(x, path);

	return c && x->keep[c - x->plan->changes] ? c : NULL;
}

/* 1 when the selected tree holds a file at exactly `path`. */
static int result_has_file(selector *x, const char *path)
{
	const aa_change *c = kept_change(x, path);
	uint32_t mode;
	aa_oid oid;

	if (c)
		return c->exists;
	return x->s->snap.lookup(x->s->snap.ctx, path, &mode, &oid) == 0;
}

typedef struct under_ctx {
	selector *x;
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
static char *missing_dependency(selector *x, const aa_change *c)
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
static void keep_consistent(selector *x)
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
			aa_note(x->d, (aa_pos){ NULL, 0 }, c->path,
				"not applied: %s stays, and it was not selected to go",
				aa_qpath(dep));
			free(dep);
			x->keep[i] = 0;
			src = rename_source(x, c);
			if (src)
				x->keep[src - x->plan->changes] = 0;
			changed = 1;
		}
	}
}

/* Removes the changes not kept, in order. */
static void compact(selector *x)
{
	size_t i, n = 0;

	for (i = 0; i < x->plan->nchanges; i++)
		if (x->keep[i])
			x->plan->changes[n++] = x->plan->changes[i];
	x->plan->nchanges = n;
}

/* ---- warnings of what did not land ---- */

/* Where an edit of the answer landed, before the selection. */
typedef struct placed {
	const char *path;
	aa_pos pos;
} placed;

static placed *record_placements(const aa_plan *plan, size_t *n)
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

static void drop_warnings(const aa_plan *plan, const placed *v, size_t n,
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

int aa_select(aa_session *s, aa_plan *plan, const aa_select_opts *o,
	      aa_selection **sel, aa_diags *d)
{
	selector x;
	placed *all;
	size_t i, nall;
	int r = AA_OK;

	memset(&x, 0, sizeof(x));
	x.s = s;
	x.plan = plan;
	x.o = o;
	x.d = d;
	x.in = o->in;
	x.out = o->out;
	*sel = x.sel = calloc(1, sizeof(**sel));
	x.keep = malloc(plan->nchanges + 1);
	if (!x.sel || !x.keep) {
		free(x.keep);
		return oom(&x);
	}
	memset(x.keep, 1, plan->nchanges + 1);
	all = record_placements(plan, &nall);
	if (!all || index_changes(&x) < 0) {
		r = oom(&x);
		goto out;
	}
	for (i = 0; i < plan->nchanges && r == AA_OK; i++)
		r = ask_change(&x, &plan->changes[i]);
	if (r == AA_OK) {
		keep_consistent(&x);
		compact(&x);
		drop_warnings(plan, all, nall, d);
		if (!plan->nchanges)
			fputs("No change selected: nothing applied.\n", x.out);
	}
out:
	fflush(x.out);
	free(all);
	free(x.by_path);
	free(x.rename_src);
	free(x.keep);
	free(x.line);
	return r;
}
