/*
 * v4a: the patch format of Codex's apply_patch tool.
 *
 *   *** Begin Patch
 *   *** Add File: p        then every line "+text"          create (p must not exist)
 *   *** Delete File: p                                      delete
 *   *** Update File: p     [*** Move to: q]  then chunks    edit, then rename
 *   *** End Patch
 *
 * A chunk is zero or more "@@" / "@@ context" lines (each context line
 * narrows the place: a class, then a method in it) and then lines
 * " ctx", "-old", "+new" (an empty line is an empty context line),
 * optionally closed by "*** End of File" (the chunk is at the end of the
 * file). The first chunk of an update may omit its "@@". Markers may be
 * padded with white space, as Codex accepts them. Chunks become hunks of
 * an AA_EDIT_V4A edit; src/edit/v4a_chunks.c places them, through the hunk
 * ladder. Lines before "*** Begin Patch" and after "*** End Patch"
 * (prose, a shell heredoc `apply_patch <<'EOF'`) are not part of it.
 *
 * Every error is reported (the parser goes on with the next file
 * section) and then the block's operations are dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "change/path.h"
#include "format/lines.h"
#include "format/parsers.h"
#include "util/util.h"

#define QUOTE_MAX 120

typedef struct vparse {
	const aa_block *b;
	aa_changeset *cs;
	aa_diags *d;
	aa_linemap lines;
	int failed;
	int nfiles;
	size_t off;          /* the line being read */
} vparse;

/* ---------- lines and markers ---------- */

/* The line without surrounding blanks: s[*from .. *to). */
static void trim(const char *s, size_t len, size_t *from, size_t *to)
{
	size_t a = 0, z = len;

	aa_trim(s, &a, &z, aa_is_blank_cr);
	*from = a;
	*to = z;
}

/*
 * The line s[0..len) is the marker `m` (padded with blanks): 1, with
 * the rest after it (trimmed) in *arg, *arg_len. Markers that take no
 * argument must have none.
 */
static int marker(const char *s, size_t len, const char *m, int takes_arg,
		  const char **arg, size_t *arg_len)
{
	size_t a, z, n = strlen(m), i, j;

	trim(s, len, &a, &z);
	if (z - a < n || memcmp(s + a, m, n))
		return 0;
	trim(s + a + n, z - a - n, &i, &j);
	if (!takes_arg && j > i)
		return 0;
	if (takes_arg && !(z - a > n && (aa_is_blank_cr(s[a + n]) || s[a + n - 1] == ':')))
		return 0;
	if (arg) {
		*arg = s + a + n + i;
		*arg_len = j - i;
	}
	return 1;
}

static int is_begin(const char *s, size_t len)
{
	return marker(s, len, "*** Begin Patch", 0, NULL, NULL);
}

static int is_end(const char *s, size_t len)
{
	return marker(s, len, "*** End Patch", 0, NULL, NULL);
}

static int is_eof(const char *s, size_t len)
{
	return marker(s, len, "*** End of File", 0, NULL, NULL);
}

/* A "*** " line: a file section, the end, or an unknown marker. */
static int is_star_line(const char *s, size_t len)
{
	size_t a, z;

	trim(s, len, &a, &z);
	return z - a >= 4 && !memcmp(s + a, "*** ", 4);
}

int aa_v4a_starts(const char *s, size_t n, size_t off)
{
	aa_lspan l;

	aa_lspan_at(s, n, off, &l);
	return is_begin(s + l.start, l.len);
}

/* After the "*** End Patch" line of the patch opening at off, or n. */
size_t aa_v4a_region_end(const char *s, size_t n, size_t off)
{
	aa_lspan l;

	aa_lspan_at(s, n, off, &l);
	for (off = l.next; off < n; off = l.next) {
		aa_lspan_at(s, n, off, &l);
		if (is_end(s + l.start, l.len))
			return l.next;
		/* a second Begin: the first patch lacks its end */
		if (is_begin(s + l.start, l.len))
			return off;
	}
	return n;
}

/* ---------- errors and operations ---------- */

static aa_pos pos_of(vparse *p, size_t off)
{
	aa_pos pos = { p->b->in ? p->b->in->name : NULL, 0 };

	pos.line = aa_linemap_line(&p->lines, off);
	return pos;
}

/* Records an error at the line starting at off; returns -1. */
static int fail(vparse *p, size_t off, const char *path, const char *what)
{
	aa_lspan l;

	p->failed = 1;
	aa_lspan_at(p->b->data, p->b->len, off, &l);
	if (off >= p->b->len)
		return aa_error(p->d, pos_of(p, off), path, "v4a: %s", what);
	return aa_error(p->d, pos_of(p, off), path, "v4a: %s: %s", what,
			aa_qtext(p->b->data + l.start, l.len, QUOTE_MAX));
}

static char *checked_path(vparse *p, size_t off, const char *s, size_t len)
{
	const char *why = NULL;
	char *path;

	if (!len) {
		fail(p, off, NULL, "the file section names no path");
		return NULL;
	}
	/* "./x" and absolute paths as every format takes them (path.h) */
	if (aa_path_answer(s, len, &s, &len, &why) < 0) {
		p->failed = 1;
		aa_error(p->d, pos_of(p, off), NULL, "v4a: invalid path %s: %s",
			 aa_qpathn(s, len), why ? why : "invalid");
		return NULL;
	}
	if (!(path = aa_strndup(s, len)))
		fail(p, off, NULL, "out of memory");
	return path;
}

static aa_op *add_op(vparse *p, aa_op_kind kind, size_t off, char *path)
{
	aa_op *op = aa_changeset_add(p->cs, kind, pos_of(p, off));

	if (!op) {
		free(path);
		fail(p, off, NULL, "out of memory (or too many operations)");
		return NULL;
	}
	op->path = path;
	op->format = "v4a";
	return op;
}

/* ---------- file sections ---------- */

/* The line at p->off, and whether there is one. */
static int line_at(vparse *p, aa_lspan *l)
{
	aa_lspan_at(p->b->data, p->b->len, p->off, l);
	return p->off < p->b->len;
}

/* The line's bytes with a CR before its LF kept (it is content). */
static size_t raw_len(const vparse *p, const aa_lspan *l)
{
	size_t len = l->len;

	if (l->next > l->start + len && p->b->data[l->start + len] == '\r')
		len++;
	return len;
}

/* Blank lines from p->off on are followed by a marker (or the end). */
static int blanks_then_marker(vparse *p)
{
	size_t off;
	aa_lspan l;

	for (off = p->off; off < p->b->len; off = l.next) {
		size_t a, z;

		aa_lspan_at(p->b->data, p->b->len, off, &l);
		trim(p->b->data + l.start, l.len, &a, &z);
		if (z > a)
			return is_star_line(p->b->data + l.start, l.len);
	}
	return 1;
}

static void add_file(vparse *p, size_t at, char *path)
{
	aa_buf content = AA_BUF_INIT;
	aa_op *op;
	aa_lspan l;
	int bad = 0;

	while (line_at(p, &l)) {
		const char *s = p->b->data + l.start;

		if (is_star_line(s, l.len))
			break;
		if (l.len == 0 || (raw_len(p, &l) == 1 && s[0] == '\r')) {
			if (blanks_then_marker(p))
				break;  /* blank lines before the next section */
		}
		if (!l.len || s[0] != '+') {
			bad = fail(p, p->off, path, "a line of an added file must "
				   "start with '+'");
		} else if (aa_buf_put(&content, s + 1, raw_len(p, &l) - 1) < 0 ||
			   aa_buf_putc(&content, '\n') < 0) {
			bad = fail(p, p->off, path, "out of memory");
		}
		p->off = l.next;
	}
	while (line_at(p, &l) && !is_star_line(p->b->data + l.start, l.len))
		p->off = l.next;
	if (bad || !(op = add_op(p, AA_OP_WRITE, at, path))) {
		if (bad)
			free(path);
		aa_buf_free(&content);
		return;
	}
	op->exist = AA_EXIST_NEW;  /* format-v4a.md: refused unless identical */
	op->content_len = content.len;
	op->content = aa_buf_detach(&content);
}

/*
 * A "@@" line: 1, with its context text in *ctx (after "@@" and one
 * space, its own indentation kept, trailing blanks dropped; may be
 * empty).
 */
static int chunk_header(const char *s, size_t len, const char **ctx,
			size_t *ctx_len)
{
	size_t a, z, i;

	/* not trimmed in front: " @@" is a context line */
	trim(s, len, &a, &z);
	if (a || z < 2 || s[0] != '@' || s[1] != '@')
		return 0;
	i = 2;
	if (i < z && s[i] == ' ')
		i++;
	*ctx = s + i;
	*ctx_len = z > i ? z - i : 0;
	/* a unified header "@@ -1,3 +1,4 @@": numbers, not a context line */
	if (*ctx_len >= 2 && (*ctx)[0] == '-' &&
	    (*ctx)[*ctx_len - 1] == '@' && (*ctx)[*ctx_len - 2] == '@')
		*ctx_len = 0;
	return 1;
}

/* Appends an anchor line to the hunk's list ("\n"-separated in section). */
static int add_anchor(aa_hunk *h, const char *s, size_t len)
{
	aa_buf b = AA_BUF_INIT;

	if ((h->section && (aa_buf_puts(&b, h->section) < 0 ||
			    aa_buf_putc(&b, '\n') < 0)) ||
	    aa_buf_put(&b, s, len) < 0) {
		aa_buf_free(&b);
		return -1;
	}
	free(h->section);
	h->section = aa_buf_detach(&b);
	return 0;
}

static void count_hunk(aa_hunk *h)
{
	size_t k;

	h->old_count = h->new_count = 0;
	for (k = 0; k < h->nlines; k++) {
		if (h->lines[k].kind != '+')
			h->old_count++;
		if (h->lines[k].kind != '-')
			h->new_count++;
	}
}

/*
 * Drops the bare empty lines (context "" read from an empty input line)
 * that end a chunk: the blank lines before the next section.
 */
static void drop_trailing_blanks(aa_hunk *h, size_t nbare)
{
	while (nbare-- && h->nlines && h->lines[h->nlines - 1].kind == ' ' &&
	       !h->lines[h->nlines - 1].len) {
		free(h->lines[h->nlines - 1].text);
		h->nlines--;
	}
}

typedef struct chunker {
	aa_op *op;
	aa_hunk *h;          /* the open chunk, or NULL */
	int body;            /* the open chunk has body lines */
	size_t bare;         /* trailing empty input lines in it */
	size_t at;           /* its first line */
} chunker;

/* Closes the open chunk; -1 when it is empty. */
static int close_chunk(vparse *p, chunker *c, const char *path)
{
	aa_hunk *h = c->h;

	if (!h)
		return 0;
	drop_trailing_blanks(h, c->bare);
	count_hunk(h);
	c->h = NULL;
	if (!h->nlines)
		return fail(p, c->at, path, "a chunk without lines");
	return 0;
}

static aa_hunk *open_chunk(vparse *p, chunker *c, const char *path)
{
	if (close_chunk(p, c, path) < 0)
		return NULL;
	c->h = aa_op_add_hunk(c->op, pos_of(p, p->off));
	c->body = 0;
	c->bare = 0;
	c->at = p->off;
	if (!c->h)
		fail(p, p->off, path, "out of memory");
	return c->h;
}

/* One line of an update section; -1 on error (reported). */
static int chunk_line(vparse *p, chunker *c, const aa_lspan *l,
		      const char *path)
{
	const char *s = p->b->data + l->start, *ctx;
	size_t len = raw_len(p, l), ctx_len;

	if (chunk_header(s, l->len, &ctx, &ctx_len)) {
		if ((!c->h || c->body) && !open_chunk(p, c, path))
			return -1;
		if (ctx_len && add_anchor(c->h, ctx, ctx_len) < 0)
			return fail(p, p->off, path, "out of memory");
		return 0;
	}
	if (is_eof(s, l->len)) {
		if (!c->h || !c->body)
			return fail(p, p->off, path, "\"*** End of File\" "
				    "outside a chunk");
		c->h->at_eof = 1;
		return close_chunk(p, c, path);
	}
	if (!l->len && !c->h)
		return 0;  /* blank lines between chunks */
	if (l->len && s[0] != ' ' && s[0] != '-' && s[0] != '+')
		return fail(p, p->off, path, "a chunk line must start with "
			    "' ', '-' or '+' (or be \"@@\")");
	if (!c->h && !open_chunk(p, c, path))
		return -1;
	c->body = 1;
	c->bare = l->len ? 0 : c->bare + 1;
	if ((l->len ? aa_hunk_add_line(c->h, s[0], s + 1, len - 1) :
	     aa_hunk_add_line(c->h, ' ', "", 0)) < 0)
		return fail(p, p->off, path, "out of memory");
	return 0;
}

static void update_file(vparse *p, size_t at, char *path)
{
	chunker c = { NULL, NULL, 0, 0, 0 };
	const char *to;
	size_t to_len, first = p->cs->n;
	aa_lspan l;
	int bad = 0;
	char *dest = NULL;

	if (line_at(p, &l) &&
	    marker(p->b->data + l.start, l.len, "*** Move to:", 1, &to, &to_len)) {
		if (!(dest = checked_path(p, p->off, to, to_len)))
			bad = 1;
		p->off = l.next;
	}
	if (!(c.op = add_op(p, AA_OP_EDIT, at, path))) {
		free(dest);
		return;
	}
	c.op->edit_kind = AA_EDIT_V4A;
	while (line_at(p, &l) && (!is_star_line(p->b->data + l.start, l.len) ||
				  is_eof(p->b->data + l.start, l.len))) {
		if (chunk_line(p, &c, &l, path) < 0)
			bad = 1;
		p->off = l.next;
	}
	if (close_chunk(p, &c, path) < 0)
		bad = 1;
	if (!p->cs->ops[first].nhunks && !dest && !bad)
		bad = fail(p, at, path, "an update without chunks or \"Move to\"");
	if (!p->cs->ops[first].nhunks)
		p->cs->ops[first].edit_kind = AA_EDIT_NONE;
	if (dest && !bad) {
		aa_op *mv = add_op(p, AA_OP_RENAME, at, aa_strdup(path));

		if (mv && !mv->path) {
			fail(p, at, path, "out of memory");
		} else if (mv) {
			mv->to = dest;
			mv->onto_identical = 1;  /* format-v4a.md */
			dest = NULL;
		}
	}
	free(dest);
	if (bad)
		p->failed = 1;
}

/* One "*** ..." file section at p->off (a star line); advances p->off. */
static void file_section(vparse *p, const aa_lspan *l)
{
	const char *s = p->b->data + l->start, *arg;
	size_t at = p->off, len;
	int kind;
	char *path;

	if (marker(s, l->len, "*** Add File:", 1, &arg, &len))
		kind = 'A';
	else if (marker(s, l->len, "*** Delete File:", 1, &arg, &len))
		kind = 'D';
	else if (marker(s, l->len, "*** Update File:", 1, &arg, &len))
		kind = 'U';
	else {
		fail(p, at, NULL, "unknown line in a patch (expected \"*** Add "
		     "File:\", \"*** Delete File:\", \"*** Update File:\" or "
		     "\"*** End Patch\")");
		p->off = l->next;
		return;
	}
	p->off = l->next;
	p->nfiles++;
	if (!(path = checked_path(p, at, arg, len))) {
		aa_lspan k;

		/* skip the section's lines */
		while (line_at(p, &k) && !is_star_line(p->b->data + k.start, k.len))
			p->off = k.next;
		return;
	}
	if (kind == 'A') {
		add_file(p, at, path);
	} else if (kind == 'D') {
		add_op(p, AA_OP_DELETE, at, path);
	} else {
		update_file(p, at, path);
	}
}

/* The patch from its Begin line at p->off on. */
static void parse_patch(vparse *p)
{
	size_t begin = p->off;
	aa_lspan l;

	if (!line_at(p, &l))
		return;
	p->off = l.next;
	while (line_at(p, &l)) {
		const char *s = p->b->data + l.start;
		size_t a, z;

		trim(s, l.len, &a, &z);
		if (is_end(s, l.len)) {
			p->off = l.next;
			if (!p->nfiles)
				fail(p, begin, NULL, "a patch without file sections");
			return;
		}
		if (is_begin(s, l.len))
			break;
		if (z == a) {
			p->off = l.next;
			continue;
		}
		if (!is_star_line(s, l.len)) {
			fail(p, p->off, NULL, "a line outside a file section");
			p->off = l.next;
			continue;
		}
		file_section(p, &l);
	}
	fail(p, begin, NULL, "\"*** Begin Patch\" has no \"*** End Patch\"");
}

int aa_parse_v4a(const aa_block *b, const aa_parse_opts *o,
		 aa_changeset *cs, aa_diags *d)
{
	vparse p;
	size_t first = cs->n;
	int npatches = 0;
	aa_lspan l;

	(void)o;
	memset(&p, 0, sizeof(p));
	p.b = b;
	p.cs = cs;
	p.d = d;
	aa_linemap_init(&p.lines, b->data, b->len, b->line);
	if (b->len > AA_MAX_INPUT_SIZE) {
		fail(&p, 0, NULL, "block too large");
		p.off = b->len;  /* not read */
	}
	/* the block may hold prose around one or more patches */
	while (line_at(&p, &l)) {
		if (!is_begin(b->data + l.start, l.len)) {
			p.off = l.next;
			continue;
		}
		npatches++;
		parse_patch(&p);
	}
	aa_linemap_free(&p.lines);
	if (p.failed) {
		aa_changeset_truncate(cs, first);
		return -1;
	}
	return npatches ? (int)(cs->n - first) : 0;
}
