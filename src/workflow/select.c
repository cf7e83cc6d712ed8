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
 * This file is the dialogue: showing, asking, the keys and their help,
 * the editor round trip of `e`. What the answers make of the plan is
 * the model's (select_model.c).
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
#include "workflow/select_model.h"
#include "report/report.h"
#include "workflow/editor.h"
#include "util/util.h"

/* ---- the session of questions ---- */

struct aa_selection {
	char **bufs;          /* the selected contents the plan points into */
	size_t n, cap;
};

typedef struct selector {
	sel_set set;          /* the plan's changes and which are kept */
	const aa_select_opts *o;
	aa_selection *sel;
	FILE *in, *out;
	int quit;             /* q: every later question is answered no */
	int file_all;         /* a (YES) or d (NO) for the rest of the file */
	size_t qnum, qtotal;  /* the question's number in the file */
	const char *path;     /* the file asked about, for messages */
	int eof;              /* the input ended before the last question */
	char *line;           /* the answer line */
	size_t line_cap;
} selector;

static const char *color(const selector *x, aa_color_slot slot)
{
	return aa_color_get(x->o->color, slot);
}

static int oom(selector *x)
{
	return aa_fatal_oom(x->set.d, AA_NOPOS, x->path);
}

/* Keeps buf (a selected content) with the selection; -1 out of memory. */
static int own(selector *x, char *buf)
{
	aa_selection *sel = x->sel;

	if (AA_GROW(sel->bufs, sel->n, sel->cap) < 0)
		return -1;
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

/* ---- placements ---- */

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
		size_t at = f ? aa_sel_landing_hunk(f, l) : (size_t)-1;

		if (l->how == AA_HOW_ALREADY_APPLIED)
			continue;
		if (hi == (size_t)-1 || (!l->line && hi == 0) ||
		    (at != (size_t)-1 && f->hunks[at].orig == f->hunks[hi].orig))
			print_placement(x, l);
	}
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

static void print_hunk(selector *x, const fdiff *f, const hunk *h)
{
	aa_buf b = AA_BUF_INIT;
	size_t i;

	aa_diff_colors dc;
	aa_buf line = AA_BUF_INIT;

	aa_report_color_file(&dc, x->o->color, NULL, 0, NULL, 0);
	aa_sel_hunk_header(&b, f, h);
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
	aa_error(x->set.d, AA_NOPOS, x->path,
		 "end of input at question %zu/%zu: nothing was applied",
		 x->qnum, x->qtotal);
	return AA_REJECTED;
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
	if (git_repository_config_snapshot(&cfg, x->set.s->repo) == 0 &&
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
		aa_warn(x->set.d, AA_NOPOS, x->path,
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
	aa_sel_hunk_header(b, f, h);
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

/*
 * Writes `text` to the edit file, runs the editor and reads it back
 * into *out; -1 when the file or the editor failed (warned).
 */
static int edit_round(selector *x, const char *file, const aa_buf *text,
		      aa_buf *out)
{
	if (aa_buf_oom(text) || write_file(file, text->ptr, text->len) < 0) {
		aa_warn(x->set.d, AA_NOPOS, x->path, "cannot write %s: %s",
			aa_qpath(file), strerror(errno));
		return -1;
	}
	if (run_editor(x, file) < 0)
		return -1;
	if (read_file(file, out) < 0) {
		aa_warn(x->set.d, AA_NOPOS, x->path, "cannot read %s: %s",
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
			  git_repository_path(x->set.s->repo)) < 0)
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
		n = aa_sel_parse_edit(back.ptr, back.len, v);
		if (n > 0 && aa_sel_edit_fits(f, h, v, (size_t)n)) {
			r = aa_sel_keep_edit(h, aa_buf_detach(&back), v, (size_t)n) == 0;
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

/* ---- one file ---- */

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

			if (aa_sel_split_hunk(f, i) < 0)
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

static int read_base(selector *x, const aa_oid *oid, aa_buf *out)
{
	if (x->set.s->snap.read(x->set.s->snap.ctx, oid, out) < 0)
		return aa_fatal(x->set.d, AA_NOPOS, x->path,
				"cannot read the base content");
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
	if (r < 0 || (r = aa_sel_settle_content(fq, x->set.d)) < 0)
		return r;
	if (fq->part && own(x, fq->part) < 0) {
		free(fq->part);
		fq->part = NULL;
		return oom(x);
	}
	return AA_OK;
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
		r = aa_sel_load_content(x->set.s, &fq, c, old, old_len, &blob,
					x->set.d);
	if (r > 0) {
		print_content_header(x, &fq, kind == Q_DELETION ||
				     (c->base_exists && kind != Q_ADDITION) ? c->path : NULL,
				     kind == Q_DELETION ? NULL : c->path);
		print_placements(x, NULL, c, (size_t)-1);
		for (i = 0; i < fq.f.nhunks; i++)
			print_hunk(x, &fq.f, &fq.f.hunks[i]);
	}
	git_blob_free(blob);
	aa_sel_file_q_free(&fq);
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
	aa_change *s = c->renamed_from ?
			aa_sel_find_change(&x->set, c->renamed_from) : NULL;
	size_t k;
	int r;

	if (!s || x->set.rename_src[s - x->set.plan->changes] != 2)
		return AA_OK;
	k = (size_t)(s - x->set.plan->changes);
	if (!taken) {
		x->set.keep[k] = 0;
		return AA_OK;
	}
	if ((r = ask_whole(x, s, Q_ADDITION, "", 0)) < 0)
		return r;
	if (!x->set.keep[k]) {
		x->set.keep[k] = 1;
		s->exists = 0;
		s->nlandings = 0;
	}
	return AA_OK;
}

/* A change asked as one question, kept or dropped whole. */
static int ask_whole(selector *x, aa_change *c, qkind kind, const char *old,
		     size_t old_len)
{
	aa_change *src = kind == Q_RENAME ? aa_sel_rename_source(&x->set, c) : NULL;
	int r;

	start_file(x, c->path, 1);
	if (!x->quit && (r = show_whole(x, c, kind, old, old_len)) < 0)
		return r;
	r = decide(x, kind, "ynqad");
	if (!r)
		return end_of_input(x);
	x->set.keep[c - x->set.plan->changes] = r == YES;
	if (src) /* a refused rename keeps its source */
		x->set.keep[src - x->set.plan->changes] = r == YES;
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
	r = has_content = aa_sel_load_content(x->set.s, &fq, t, old.ptr, old.len,
						&blob, x->set.d);
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
		x->set.keep[t - x->set.plan->changes] = 0;
		if (src && (mode_yes || fq.result != CONTENT_NONE)) {
			aa_change keep_t = *t;

			src->exists = 1;
			src->mode = mode_yes ? t->mode : old_mode;
			src->has_oid = keep_t.has_oid;
			src->oid = keep_t.oid;
			src->data = keep_t.data;
			src->len = keep_t.len;
			aa_sel_apply_content(src, &fq, old_oid);
			src->landings = t->landings;
			src->nlandings = t->nlandings;
			if (has_content)
				aa_sel_filter_landings(src, fq.keep_landing);
		} else if (src) {
			x->set.keep[src - x->set.plan->changes] = 0;
		}
		goto out;
	}
	t->mode = mode_q && !mode_yes ? old_mode : t->mode;
	aa_sel_apply_content(t, &fq, old_oid);
	if (has_content)
		aa_sel_filter_landings(t, fq.keep_landing);
	if (!rename && !mode_yes && fq.result == CONTENT_NONE)
		x->set.keep[t - x->set.plan->changes] = 0;
out:
	git_blob_free(blob);
	aa_sel_file_q_free(&fq);
	aa_buf_free(&old);
	return r;
}

static int ask_change(selector *x, aa_change *c)
{
	aa_buf old = AA_BUF_INIT;
	int r;

	if (aa_sel_is_rename_source(&x->set, c))
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
	    (!aa_sel_rename_source(&x->set, c) ||
	     (c->mode != AA_MODE_FILE && c->mode != AA_MODE_EXEC) ||
	     !same_kind(aa_sel_rename_source(&x->set, c)->base_mode, c->mode)))
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
	return ask_file(x, c, aa_sel_rename_source(&x->set, c));
}

int aa_select(aa_session *s, aa_plan *plan, const aa_select_opts *o,
	      aa_selection **sel, aa_diags *d)
{
	selector x;
	placed *all;
	size_t i, nall;
	int r = AA_OK;

	memset(&x, 0, sizeof(x));
	x.set.s = s;
	x.set.plan = plan;
	x.o = o;
	x.set.d = d;
	x.in = o->in;
	x.out = o->out;
	*sel = x.sel = calloc(1, sizeof(**sel));
	x.set.keep = malloc(plan->nchanges + 1);
	if (!x.sel || !x.set.keep) {
		free(x.set.keep);
		return oom(&x);
	}
	memset(x.set.keep, 1, plan->nchanges + 1);
	all = aa_sel_record_placements(plan, &nall);
	if (!all || aa_sel_index_changes(&x.set) < 0) {
		r = oom(&x);
		goto out;
	}
	for (i = 0; i < plan->nchanges && r == AA_OK; i++)
		r = ask_change(&x, &plan->changes[i]);
	if (r == AA_OK) {
		aa_sel_keep_consistent(&x.set);
		aa_sel_compact(&x.set);
		aa_sel_drop_warnings(plan, all, nall, d);
		if (!plan->nchanges)
			fputs("No change selected: nothing applied.\n", x.out);
	}
out:
	fflush(x.out);
	free(all);
	free(x.set.by_path);
	free(x.set.rename_src);
	free(x.set.keep);
	free(x.line);
	return r;
}
