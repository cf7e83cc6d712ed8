/*
 * Whole-file writes: the overwrite and no-loss rules, the file's own
 * conventions (line ending, final newline, label line), marks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/planner.h"

int same_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && (!alen || !memcmp(a, b, alen));
}

/* A labelled block that is one part of the file, not all of it. */
static int refuse_excerpt(planner *p, const aa_op *op, const char *cur,
			  size_t len, const char *content, size_t clen)
{
	aa_excerpt ex;
	int r = aa_looks_like_excerpt(cur, len, content, clen, &ex);

	if (r <= 0)
		return r < 0 ? oom(p, op->pos) : 0;
	return aa_error(p->d, op->pos, op->path,
			"the block looks like an excerpt of the file, not all of it: "
			"it runs from the file's line %zu to its line %zu and leaves out "
			"%zu of its %zu non-blank lines; nothing written (give the whole "
			"file, mark left-out parts with \"... existing code ...\", or "
			"answer with a diff or SEARCH/REPLACE)",
			ex.first, ex.last, ex.dropped, ex.total);
}

/* A line without its leading and trailing blanks. */
typedef struct tline {
	const char *s;
	size_t len;
} tline;

static int cmp_tline(const void *a, const void *b)
{
	const tline *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The non-blank lines of s, trimmed, in *out (to free); their count. */
static size_t trimmed_lines(const char *s, size_t len, tline **out)
{
	size_t off = 0, n = 0, a, z;
	/* at most one line per byte, and one more */
	tline *v = malloc((len + 1) * sizeof(*v));

	*out = v;
	if (!v)
		return 0;
	while (off < len) {
		const char *nl = memchr(s + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - s) : len;

		a = off;
		z = end;
		while (a < z && aa_is_ws(s[a]))
			a++;
		while (z > a && aa_is_ws(s[z - 1]))
			z--;
		if (z > a)
			v[n++] = (tline){ s + a, z - a };
		off = end + 1;
	}
	return n;
}

/*
 * A whole-file block that only a sentence named ("Update `x.py` as
 * follows:") over an existing file: such a sentence introduces a part of
 * the file as often as all of it, so the block must keep at least half
 * of the file's non-blank lines (blanks at both ends ignored); else it
 * is refused, nothing written (Documentation/formats.md, "A sentence
 * that names the file").
 */
static int refuse_prose_part(planner *p, const aa_op *op, const char *cur,
			     size_t len, const char *content, size_t clen)
{
	tline *file = NULL, *block = NULL;
	size_t nfile, nblock, i, kept = 0;
	int r = 0;

	if (!op->label_in_prose || !len)
		return 0;
	nfile = trimmed_lines(cur, len, &file);
	nblock = trimmed_lines(content ? content : "", clen, &block);
	if (!file || !block) {
		free(file);
		free(block);
		return oom(p, op->pos);
	}
	qsort(block, nblock, sizeof(*block), cmp_tline);
	for (i = 0; i < nfile; i++)
		kept += nblock && bsearch(&file[i], block, nblock, sizeof(*block),
					  cmp_tline) != NULL;
	if (nfile && kept * 2 < nfile)
		r = aa_error(p->d, op->pos, op->path,
			     "only the sentence before the fence names this file, and "
			     "the block keeps %zu of its %zu non-blank lines: it reads "
			     "as a part of the file, not all of it; nothing written (if "
			     "it is the whole file, put the path on a line of its own "
			     "before the fence; to change a part, answer with a diff, "
			     "SEARCH/REPLACE or \"... existing code ...\" elisions)",
			     kept, nfile);
	free(file);
	free(block);
	return r;
}

/*
 * A second whole-file write of one path in one answer throws the first
 * away: often two alternatives ("Option 1 ... Option 2") for the same
 * file. It applies in order, but not silently (Documentation/landing.md,
 * "Whole-file writes").
 */
static void warn_written_twice(planner *p, const aa_op *op, aa_plan_node *n)
{
	if (n->written_at.line)
		aa_warn(p->d, op->pos, op->path,
			"is written whole a second time in this change set "
			"(first at %s:%ld); this content replaces that one "
			"entirely (alternatives? --each --branch=<name> lands each on a branch of its own)",
			n->written_at.input ? aa_qpath(n->written_at.input) : "<input>",
			n->written_at.line);
	n->written_at = op->pos;
}

/* The first lines of a and b, without their line endings, are equal. */
static int same_first_line(const char *a, size_t alen, const char *b,
			   size_t blen)
{
	const char *ea = memchr(a, '\n', alen), *eb = memchr(b, '\n', blen);
	size_t la = ea ? (size_t)(ea - a) : alen, lb = eb ? (size_t)(eb - b) : blen;

	if (la && a[la - 1] == '\r')
		la--;
	if (lb && b[lb - 1] == '\r')
		lb--;
	return la == lb && (!la || !memcmp(a, b, la));
}

/*
 * A whole-file block whose first line is a comment naming the path
 * ("# app/x.py") was labelled by it: when the existing file does not
 * start with that line, it is the answer's label, not content, and is
 * left out (writing it would add a line the file never had). Returns
 * the op to use: `op` itself, or `tmp` without the line.
 */
const aa_op *without_label_line(planner *p, const aa_op *op,
				aa_plan_node *n, aa_op *tmp)
{
	const char *cur;
	size_t len;

	if (!op->label_line_len || !n->exists ||
	    op->label_line_len > op->content_len ||
	    node_bytes(p, n, &cur, &len) < 0)
		return op;
	if (same_first_line(cur, len, op->content, op->content_len))
		return op;
	aa_note(p->d, op->pos, op->path,
		"the block's first line %s names the file; it is not written "
		"into it (the file does not start with it)",
		aa_qtext(op->content, op->label_line_len -
			 (op->content[op->label_line_len - 1] == '\n'), 200));
	*tmp = *op;
	tmp->content += op->label_line_len;
	tmp->content_len -= op->label_line_len;
	tmp->label_line_len = 0;
	if (tmp->pos.line)
		tmp->pos.line++;
	return tmp;
}

/* A marker line: `marker` then the end of the line (LF or CRLF). */
static int is_marker_line(const char *s, size_t len, const char *marker)
{
	size_t n = strlen(marker);

	if (len && s[len - 1] == '\r')
		len--;
	return len == n && !memcmp(s, marker, n);
}

/*
 * Where merge3_markers put "<<<<<<< ours" ... ">>>>>>> theirs" in `m`
 * (--3way: plan_history.c and the add/add merge below).
 */
int conflict_regions(const aa_buf *m, aa_conflict_region **out, size_t *n)
{
	const char *p = m->ptr, *end = m->ptr + m->len;
	size_t line = 0, start = 0, cap = 0;

	*out = NULL;
	*n = 0;
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);

		line++;
		if (!start && is_marker_line(p, len, "<<<<<<< ours")) {
			start = line;
		} else if (start && is_marker_line(p, len, ">>>>>>> theirs")) {
			if (AA_GROW(*out, *n, cap) < 0)
				return -1;
			(*out)[*n].start = start;
			(*out)[(*n)++].end = line;
			start = 0;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/*
 * --3way on a creation over a file that exists with other content
 * (add/add), as git apply --3way does it: a merge of the two with an
 * empty ancestor; when it conflicts, the index gets stages 2 (the file)
 * and 3 (the answer's), no stage 1, and the file the merge with
 * markers. Only text files on both sides (git merges nothing else).
 * Returns 0 when it landed (merged or conflicted), 1 when it does not
 * apply (the caller refuses as without --3way), -1 on an error.
 */
static int plan_add_add(planner *p, const aa_op *op, aa_plan_node *n,
			const char *cur, size_t len, const char *theirs,
			size_t tlen, uint32_t mode)
{
	const aa_snapshot *sn = p->base;
	aa_buf markers = AA_BUF_INIT;
	size_t mlen;
	int r;

	if (!p->opts->threeway || !sn->merge3_markers ||
	    (n->mode != AA_MODE_FILE && n->mode != AA_MODE_EXEC) ||
	    (mode != AA_MODE_FILE && mode != AA_MODE_EXEC) ||
	    is_binary(p, n->path, cur, len) || aa_bytes_look_binary(theirs, tlen))
		return 1;
	r = sn->merge3_markers(sn->ctx, n->path, "", 0, cur, len,
			       theirs ? theirs : "", tlen, &markers);
	if (r < 0) {
		aa_buf_free(&markers);
		return aa_error(p->d, op->pos, n->path,
				"cannot merge with the existing file; nothing written");
	}
	if (r == 1) {
		if (conflict_regions(&markers, &n->regions, &n->nregions) < 0 ||
		    !(n->stage[1] = aa_strndup(cur, len)) ||
		    !(n->stage[2] = aa_strndup(theirs ? theirs : "", tlen))) {
			aa_buf_free(&markers);
			return oom(p, op->pos);
		}
		n->stage_len[1] = len;
		n->stage_len[2] = tlen;
		n->stage_mode = n->mode;
		n->conflict = 1;
		aa_warn(p->d, op->pos, n->path,
			"already exists with other content: both added it (add/add); "
			"written with conflict markers, stages 2 and 3 in the index "
			"(--3way)");
	}
	mlen = markers.len;
	node_set_data(n, aa_buf_detach(&markers), mlen);
	return 0;
}

/* Whether a whole write may replace the existing file n (of len bytes). */
static int check_overwrite(planner *p, const aa_op *op, aa_plan_node *n,
			   size_t len)
{
	if (op->exist == AA_EXIST_NEW)
		return aa_error(p->d, op->pos, op->path,
				"already exists (with other content)");
	if (op->exist == AA_EXIST_EMPTY && len)
		return aa_error(p->d, op->pos, op->path,
				"already exists and is not empty (an empty SEARCH only creates a file or fills an empty one)");
	if (n->mode == AA_MODE_LINK && !op->mode)
		return aa_error(p->d, op->pos, op->path,
				"is a symbolic link; refusing to write a file over it");
	return 0;
}

/*
 * A whole replacement of an existing text file keeps the file's
 * conventions (Documentation/landing.md, "Whole-file writes"), which a
 * chat answer cannot carry:
 * its encoding and BOM, and its line endings -- each new line ending in
 * LF takes the file's dominant ending; a line whose own CR stood before
 * its LF (a CRLF answer, a real diff of a CRLF file) keeps CRLF. The
 * final newline is the content's. Content that brings its own BOM or
 * UTF-16, and binary files, are written as they are. Returns 0 with
 * *out set (NULL: no change needed, else allocated bytes in *outlen),
 * or -1 (out of memory).
 */
static int keep_conventions(planner *p, const aa_op *op, aa_plan_node *n,
			    const char *cur, size_t len, const char *content,
			    size_t clen, char **out, size_t *outlen)
{
	aa_text file = AA_TEXT_INIT, t = AA_TEXT_INIT;
	aa_buf b = AA_BUF_INIT;
	const char *why = NULL;
	size_t i;
	int r = 0;

	*out = NULL;
	if (!len || n->mode == AA_MODE_LINK || is_binary(p, n->path, cur, len) ||
	    aa_bytes_look_binary(content, clen) ||
	    aa_text_decode_borrowed(&file, cur, len, &why) < 0)
		goto done;
	if (file.enc == AA_ENC_UTF8 && file.dominant == AA_EOL_LF)
		goto done; /* the common case: nothing to carry over */
	if (aa_text_decode_borrowed(&t, content, clen, &why) < 0 ||
	    t.enc != AA_ENC_UTF8)
		goto done;
	t.enc = file.enc;
	if (file.dominant != AA_EOL_LF)
		for (i = 0; i < t.n; i++)
			if (t.lines[i].eol == AA_EOL_LF)
				t.lines[i].eol = file.dominant;
	if (aa_text_encode(&t, &b) < 0 || aa_buf_oom(&b)) {
		r = oom(p, op->pos);
		goto done;
	}
	if (!same_bytes(b.ptr, b.len, content, clen)) {
		*outlen = b.len;
		*out = aa_buf_detach(&b);
	}
done:
	aa_buf_free(&b);
	aa_text_free(&t);
	aa_text_free(&file);
	return r;
}

/* Nothing but blanks and line ends. */
static int only_blanks(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n' &&
		    s[i] != '\f' && s[i] != '\v')
			return 0;
	return 1;
}

/*
 * Documentation/landing.md, "No silent loss": before a whole write
 * replaces the existing
 * file n (cur, len bytes): a text block never replaces a binary file,
 * an empty block never empties a file (a deletion is said explicitly).
 */
static int check_no_loss(planner *p, const aa_op *op, aa_plan_node *n,
			 const char *cur, size_t len, const char *content,
			 size_t clen)
{
	if (!len || n->mode == AA_MODE_LINK)
		return 0;
	if (is_binary(p, n->path, cur, len) && !aa_bytes_look_binary(content, clen))
		return aa_error(p->d, op->pos, op->path,
				"is a binary file (%zu bytes); a text block does not replace it: "
				"nothing written (to replace it, delete it and create it "
				"explicitly)", len);
	if (only_blanks(content, clen))
		return aa_error(p->d, op->pos, op->path,
				"the block is empty and would empty the file (%zu bytes): "
				"nothing written (a deletion is said explicitly: a delete "
				"operation or a diff that removes every line)", len);
	return 0;
}

/*
 * A mark on the whole file n (line 0): a tolerant placement that is no
 * rung of the ladder (a resolved path, dropped definitions).
 */
int add_file_mark(planner *p, aa_plan_node *n, aa_pos pos, aa_how how)
{
	aa_landing *v = realloc(n->landings, (n->nlandings + 1) * sizeof(*v));

	if (!v)
		return oom(p, pos);
	memset(&v[n->nlandings], 0, sizeof(*v));
	v[n->nlandings].pos = pos;
	v[n->nlandings].how = how;
	n->landings = v;
	n->nlandings++;
	return 0;
}

/*
 * A whole replacement that drops top-level definitions of the file
 * (aa_removed_definitions: functions, classes, ... at column 0) names
 * them in a warning and counts as a tolerant placement: a partial file
 * given as the whole ("Option 1" of two) loses code that way.
 */
static int note_removed_definitions(planner *p, const aa_op *op,
				    aa_plan_node *n, const char *cur,
				    size_t len, const char *content,
				    size_t clen)
{
	aa_buf names = AA_BUF_INIT;
	size_t count = 0;

	if (is_binary(p, n->path, cur, len) || aa_bytes_look_binary(content, clen))
		return 0;
	if (aa_removed_definitions(cur, len, content, clen, 8, &names, &count) < 0) {
		aa_buf_free(&names);
		return oom(p, op->pos);
	}
	if (count)
		aa_warn(p->d, op->pos, op->path,
			"the whole-file block drops %zu top-level definition%s of the "
			"file: %s (a tolerant placement: check the block is the whole "
			"file, not a part of it)", count, count == 1 ? "" : "s",
			names.ptr ? names.ptr : "");
	aa_buf_free(&names);
	return count ? add_file_mark(p, n, op->pos, AA_HOW_DEFINITIONS_REMOVED) : 0;
}

/* A whole write over the existing file n; *mode: its mode after. */
static int write_existing(planner *p, const aa_op *op, aa_plan_node *n,
			  uint32_t *mode)
{
	aa_op tmp;
	const aa_op *w = without_label_line(p, op, n, &tmp);
	const char *cur, *content = w->content;
	size_t len, clen = w->content_len, keptlen = 0;
	char *kept = NULL;
	int r;

	*mode = n->mode;
	if (op->mode && mode_for_new(p, op->pos, op->path, op->mode, mode) < 0)
		return -1;
	if (node_bytes(p, n, &cur, &len) < 0 ||
	    keep_conventions(p, op, n, cur, len, content, clen, &kept,
			     &keptlen) < 0)
		return -1;
	if (kept) {
		content = kept;
		clen = keptlen;
	}
	if (*mode == n->mode && same_bytes(cur, len, content, clen)) {
		free(kept);
		aa_note(p->d, op->pos, op->path, "already has this content; skipped");
		p->plan->ops_skipped++;
		return 1;
	}
	if (op->exist == AA_EXIST_NEW &&
	    (r = plan_add_add(p, op, n, cur, len, w->content, w->content_len,
			      *mode)) != 1) {
		free(kept);
		return r;
	}
	if (check_overwrite(p, op, n, len) < 0 ||
	    check_no_loss(p, op, n, cur, len, content, clen) < 0 ||
	    (op->may_be_excerpt &&
	     refuse_excerpt(p, op, cur, len, content, clen) < 0) ||
	    refuse_prose_part(p, op, cur, len, content, clen) < 0 ||
	    note_removed_definitions(p, op, n, cur, len, content, clen) < 0) {
		free(kept);
		return -1;
	}
	warn_written_twice(p, op, n);
	/* no copy: the change set outlives the plan (see plan.h) */
	node_set_data(n, kept ? kept : (char *)(content ? content : ""), clen);
	n->data_lent = !kept;
	return 0;
}

/*
 * A creation over an intent-to-add entry (git add -N), still as the
 * base has it: git apply --cached replaces the entry, --index refuses
 * ("does not match index": the content is not staged). 1: the entry
 * counts as absent; 0: not such an entry; -1: refused.
 */
static int create_over_intent(planner *p, const aa_op *op, aa_plan_node *n)
{
	int ita;

	if (op->exist != AA_EXIST_NEW || !n->exists || !n->base_exists ||
	    n->touched || !p->base->intent_to_add ||
	    !(ita = p->base->intent_to_add(p->base->ctx, n->path)))
		return 0;
	if (ita == 1)
		return 1;
	return aa_error(p->d, op->pos, op->path,
			"is intent-to-add in the index (git add -N): its content is "
			"not staged, so creating it cannot be checked against the index "
			"(git add it first, or use --cached, which replaces the entry)");
}

int plan_write(planner *p, const aa_op *op)
{
	aa_plan_node *n;
	uint32_t mode = AA_MODE_FILE;
	int r;

	if (check_leading_dirs(p, op->pos, op->path) < 0 ||
	    !(n = node_get(p, op->path)))
		return -1;
	if (is_gitlink_mode(op->mode) && op->exist == AA_EXIST_NEW)
		return plan_gitlink_add(p, op, n);
	if (check_not_submodule(p, op->pos, n) < 0 ||
	    (r = create_over_intent(p, op, n)) < 0)
		return -1;
	if (op->edit_kind == AA_EDIT_BINARY)
		return plan_binary_create(p, op, n);
	if (n->exists && !r) {
		if ((r = write_existing(p, op, n, &mode)) != 0)
			return r < 0 ? -1 : 0;
	} else {
		if (op->exist == AA_EXIST_MUST)
			return aa_error(p->d, op->pos, op->path,
					"does not exist; nothing to replace");
		if (check_no_directory(p, op->pos, op->path) < 0 ||
		    mode_for_new(p, op->pos, op->path, op->mode, &mode) < 0)
			return -1;
		warn_written_twice(p, op, n);
		node_set_data(n, (char *)(op->content ? op->content : ""),
			      op->content_len);
		n->data_lent = 1;
	}
	n->mode = mode;
	p->plan->ops_applied++;
	return node_sync(p, n);
}
