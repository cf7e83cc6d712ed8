/*
 * companion (Documentation/format-companion.md): `--- VERB: path ---`
 * command lines.
 *
 *   --- START-FILE: p ---          ... --- END-FILE: p ---          create
 *   --- START-REPLACE-FILE: p ---  ... --- END-REPLACE-FILE: p ---  replace
 *   --- START-PATCH: p ---         ... --- END-PATCH: p ---         unified diff
 *   --- DELETE-FILE: p ---                                          delete
 *
 * A body is every line between START and END; it may not hold another
 * command line (that is a missing END). Lines outside commands are prose.
 * An END without its path (`--- END-FILE ---`) closes the open block:
 * blocks do not nest. Outside --strict a code fence around a whole body
 * is a wrapper and is dropped, except for Markdown-like targets.
 * Every error is reported (the parser goes on after one) and then the
 * block's operations are dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "change/path.h"
#include "format/lines.h"
#include "format/parsers.h"
#include "util/util.h"

typedef enum verb {
	V_START_FILE,
	V_END_FILE,
	V_START_PATCH,
	V_END_PATCH,
	V_START_REPLACE,
	V_END_REPLACE,
	V_DELETE
} verb;

/* In the order of `verb`: verbs[v].name is v's name. */
static const struct {
	const char *name;
	verb v;
} verbs[] = {
	{ "START-FILE", V_START_FILE },
	{ "END-FILE", V_END_FILE },
	{ "START-PATCH", V_START_PATCH },
	{ "END-PATCH", V_END_PATCH },
	{ "START-REPLACE-FILE", V_START_REPLACE },
	{ "END-REPLACE-FILE", V_END_REPLACE },
	{ "DELETE-FILE", V_DELETE },
};

/*
 * A parsed command line; path and line point into the input (not
 * terminated). `bare`: an END without a path.
 */
typedef struct command {
	verb v;
	const char *name;
	const char *path;
	size_t path_len;
	int bare;
	const char *line;  /* the whole line, trailing blanks dropped */
	size_t line_len;
} command;

static int lookup_verb(const char *s, size_t len, command *c)
{
	size_t i;

	for (i = 0; i < sizeof(verbs) / sizeof(*verbs); i++)
		if (strlen(verbs[i].name) == len && !memcmp(verbs[i].name, s, len)) {
			c->v = verbs[i].v;
			c->name = verbs[i].name;
			return 1;
		}
	return 0;
}

static int is_end(verb v)
{
	return v == V_END_FILE || v == V_END_PATCH || v == V_END_REPLACE;
}

/* `--- END-FILE ---`: an END verb, blanks, the closing dashes. */
static int parse_bare_end(const char *s, size_t len, size_t v1, command *c)
{
	size_t i = v1;

	while (i < len - 3 && aa_is_blank(s[i]))
		i++;
	if (i == v1 || i != len - 3 || !lookup_verb(s + 4, v1 - 4, c) ||
	    !is_end(c->v))
		return 0;
	c->path = s + v1;
	c->path_len = 0;
	c->bare = 1;
	return 1;
}

/*
 * `--- VERB: path ---` with trailing blanks tolerated. The blanks around
 * the path are not part of it (an empty path is still a command, so the
 * parser can say what is wrong with it).
 */
static int parse_command(const char *s, size_t len, command *c)
{
	size_t v0 = 4, v1, p0, p1;

	while (len && aa_is_blank(s[len - 1]))
		len--;
	if (len < 4 + 1 + 1 + 4 || memcmp(s, "--- ", 4) ||
	    memcmp(s + len - 3, "---", 3) || !aa_is_blank(s[len - 4]))
		return 0;
	for (v1 = v0; v1 < len && ((s[v1] >= 'A' && s[v1] <= 'Z') || s[v1] == '-'); v1++)
		;
	c->line = s;
	c->line_len = len;
	c->bare = 0;
	if (v1 < len && aa_is_blank(s[v1]))
		return parse_bare_end(s, len, v1, c);
	if (v1 >= len || s[v1] != ':' || !lookup_verb(s + v0, v1 - v0, c))
		return 0;
	p0 = v1 + 1;
	p1 = len - 3;
	if (p1 < p0)
		return 0;
	while (p0 < p1 && aa_is_blank(s[p0]))
		p0++;
	while (p1 > p0 && aa_is_blank(s[p1 - 1]))
		p1--;
	c->path = s + p0;
	c->path_len = p1 - p0;
	c->bare = is_end(c->v) && !c->path_len;
	return 1;
}

static int is_start(verb v)
{
	return v == V_START_FILE || v == V_START_PATCH || v == V_START_REPLACE;
}

static verb end_of(verb start)
{
	return start == V_START_FILE ? V_END_FILE :
	       start == V_START_PATCH ? V_END_PATCH : V_END_REPLACE;
}

int aa_companion_is_command(const char *s, size_t len)
{
	command c;

	return parse_command(s, len, &c);
}

/* The next command line at or after off, or n. */
static size_t next_command(const char *s, size_t n, size_t off, command *c)
{
	aa_lspan l;

	for (; off < n; off = l.next) {
		aa_lspan_at(s, n, off, &l);
		if (parse_command(s + l.start, l.len, c))
			return off;
	}
	return n;
}

/* End of one command starting at off: after its END line when it has one. */
static size_t command_end(const char *s, size_t n, size_t off)
{
	command c, e;
	aa_lspan l;
	size_t at;

	aa_lspan_at(s, n, off, &l);
	if (!parse_command(s + l.start, l.len, &c) || !is_start(c.v))
		return l.next;
	at = next_command(s, n, l.next, &e);
	if (at >= n)
		return n;
	if (is_start(e.v) || e.v == V_DELETE)
		return at;  /* missing END: the next command is not ours */
	aa_lspan_at(s, n, at, &l);
	return l.next;
}

size_t aa_companion_run_end(const char *s, size_t n, size_t off)
{
	size_t end = off, at;
	aa_lspan l;

	while (off < n) {
		end = command_end(s, n, off);
		/* blank lines may separate the commands of one run */
		for (at = end; at < n; at = l.next) {
			size_t i;

			aa_lspan_at(s, n, at, &l);
			for (i = 0; i < l.len && aa_is_blank(s[l.start + i]); i++)
				;
			if (i < l.len)
				break;
		}
		if (at >= n || !aa_companion_is_command(s + l.start, l.len))
			break;
		off = at;
	}
	return end;
}

/* ---------- parser ---------- */

typedef struct cparse {
	const aa_block *b;
	const aa_parse_opts *o;
	aa_changeset *cs;
	aa_diags *d;
	int failed;
	aa_linemap lines;  /* offset -> input line */
} cparse;

static aa_pos pos_of(cparse *p, size_t off)
{
	aa_pos pos = { p->b->in ? p->b->in->name : NULL, 0 };

	pos.line = aa_linemap_line(&p->lines, off);
	return pos;
}

/* The command line as seen, quoted for a message. */
static const char *seen(const command *c)
{
	return aa_qtext(c->line, c->line_len, 256);
}

static int fail_path(cparse *p, aa_pos pos, const command *c, const char *why)
{
	p->failed = 1;
	return aa_error(p->d, pos, NULL, "companion: invalid path %s in %s: %s",
			aa_qpathn(c->path, c->path_len), seen(c), why);
}

/* NUL-terminated copy of the command's path after validation; NULL on error. */
static char *checked_path(cparse *p, aa_pos pos, const command *c)
{
	const char *why = NULL, *s;
	size_t len;
	char *path;

	if (!c->path_len) {
		fail_path(p, pos, c, "empty path");
		return NULL;
	}
	/* "./x" and absolute paths as every format takes them (path.h) */
	if (aa_path_answer(c->path, c->path_len, &s, &len, &why) < 0) {
		fail_path(p, pos, c, why ? why : "invalid");
		return NULL;
	}
	path = aa_strndup(s, len);
	if (!path) {
		p->failed = 1;
		aa_error(p->d, pos, NULL, "out of memory");
	}
	return path;
}

static aa_op *add_op(cparse *p, aa_op_kind kind, aa_pos pos, char *path)
{
	aa_op *op = aa_changeset_add(p->cs, kind, pos);

	if (!op) {
		free(path);
		p->failed = 1;
		aa_error(p->d, pos, NULL, "out of memory (or too many operations)");
		return NULL;
	}
	op->path = path;
	op->format = "companion";
	return op;
}

/*
 * Body lines [from, to) byte for byte: `to` starts the END line, so the
 * last line ends in "\n"; a CR before it is content (see extract.c).
 */
static char *body_content(const char *s, size_t from, size_t to, size_t *len)
{
	char *out = aa_strndup(s + from, to - from);

	if (out)
		*len = to - from;
	return out;
}

/* ---------- a code fence around a whole body ---------- */

/* A fence line: 3 or more ` or ~ after blanks; *ch and the run length. */
static size_t fence_open(const char *s, size_t len, char *ch)
{
	size_t i = 0, k;

	while (i < len && aa_is_blank(s[i]))
		i++;
	if (i >= len || (s[i] != '`' && s[i] != '~'))
		return 0;
	*ch = s[i];
	for (k = i; k < len && s[k] == *ch; k++)
		;
	if (k - i < 3 || (*ch == '`' && memchr(s + k, '`', len - k)))
		return 0;  /* a backtick fence's info string has no backtick */
	return k - i;
}

/* Closes a fence of `run` ch: at least as many, then only blanks. */
static int fence_closes(const char *s, size_t len, char ch, size_t run)
{
	size_t i = 0, k;

	while (i < len && aa_is_blank(s[i]))
		i++;
	for (k = i; k < len && s[k] == ch; k++)
		;
	while (len > k && aa_is_blank(s[len - 1]))
		len--;
	return k - i >= run && k == len;
}

/* Markdown and reStructuredText hold fences of their own. */
static int is_markdown_like(const char *path)
{
	static const char *const exts[] = { ".md", ".markdown", ".mdx", ".rst" };
	size_t n = strlen(path), i, k, e;

	for (i = 0; i < sizeof(exts) / sizeof(*exts); i++) {
		e = strlen(exts[i]);
		if (n <= e || path[n - e - 1] == '/')
			continue;
		for (k = 0; k < e && aa_lower(path[n - e + k]) == exts[i][k]; k++)
			;
		if (k == e)
			return 1;
	}
	return 0;
}

/*
 * Body [*from, *to): when its first line opens a code fence and its last
 * line closes it, the fence is the assistant's wrapper
 * (Documentation/format-companion.md, "How the tool reads it"):
 * dropped with a warning, or kept with a note for a Markdown-like file.
 */
static void strip_fence(cparse *p, aa_pos pos, const char *path,
			size_t *from, size_t *to)
{
	const char *s = p->b->data;
	aa_lspan first, last;
	size_t at;
	char ch;
	size_t run;

	if (p->o->strict || *to - *from < 2)
		return;
	aa_lspan_at(s, *to, *from, &first);
	for (at = *to - 1; at > *from && s[at - 1] != '\n'; at--)
		;
	if (at <= first.start)
		return;  /* one line */
	aa_lspan_at(s, *to, at, &last);
	if (!(run = fence_open(s + first.start, first.len, &ch)) ||
	    !fence_closes(s + last.start, last.len, ch, run))
		return;
	if (is_markdown_like(path)) {
		aa_note(p->d, pos, path, "companion: the body is wrapped in a "
			"code fence; it is kept, as a Markdown-like file may "
			"begin and end with one");
		return;
	}
	aa_warn(p->d, pos, path, "companion: the body is wrapped in a code "
		"fence (lines %ld and %ld); the fence lines are not written",
		pos.line + 1, pos.line + aa_count_lines(s + *from, at - *from) + 1);
	*from = first.next;
	*to = at;
}

static void add_write(cparse *p, aa_pos pos, const command *c,
		      size_t from, size_t to)
{
	char *path = checked_path(p, pos, c);
	aa_op *op;

	if (!path)
		return;
	strip_fence(p, pos, path, &from, &to);
	if (!(op = add_op(p, AA_OP_WRITE, pos, path)))
		return;
	op->exist = c->v == V_START_FILE ? AA_EXIST_NEW : AA_EXIST_MUST;
	op->content = body_content(p->b->data, from, to, &op->content_len);
	if (!op->content) {
		p->failed = 1;
		aa_error(p->d, pos, op->path, "out of memory");
	}
}

/* A START-PATCH body is a unified diff of that one path. */
static void add_patch(cparse *p, aa_pos pos, const command *c,
		      size_t from, size_t to)
{
	char *path = checked_path(p, pos, c);
	aa_block inner;
	size_t first = p->cs->n, k;

	if (!path)
		return;
	inner.in = p->b->in;
	inner.data = p->b->data + from;
	inner.len = to - from;
	inner.line = pos.line + 1;
	if (aa_parse_diff(&inner, p->o, path, p->cs, p->d) < 0)
		p->failed = 1;
	else if (p->cs->n == first) {
		p->failed = 1;
		aa_error(p->d, pos, path, "companion: START-PATCH holds no diff");
	}
	for (k = first; k < p->cs->n; k++) {
		p->cs->ops[k].format = "companion";
		p->cs->ops[k].pos = pos;
	}
	free(path);
}

static void add_delete(cparse *p, aa_pos pos, const command *c)
{
	char *path = checked_path(p, pos, c);

	if (path)
		add_op(p, AA_OP_DELETE, pos, path);
}

/*
 * A START command at `off` (line l): finds its END and adds the
 * operation. Returns where parsing goes on.
 */
static size_t parse_start(cparse *p, const command *c, const aa_lspan *l)
{
	const aa_block *b = p->b;
	aa_pos pos = pos_of(p, l->start);
	command e;
	aa_lspan el;
	size_t at = next_command(b->data, b->len, l->next, &e);

	if (at >= b->len || is_start(e.v) || e.v == V_DELETE) {
		p->failed = 1;
		if (at >= b->len)
			aa_error(p->d, pos, NULL, "companion: %s has no %s line; "
				 "the answer ends at line %ld", seen(c),
				 verbs[end_of(c->v)].name,
				 pos_of(p, b->len).line - (b->len && b->data[b->len - 1] == '\n'));
		else
			aa_error(p->d, pos, NULL, "companion: %s has no %s line "
				 "before the next command, %s (line %ld)", seen(c),
				 verbs[end_of(c->v)].name, seen(&e), pos_of(p, at).line);
		return at;
	}
	aa_lspan_at(b->data, b->len, at, &el);
	if (e.v != end_of(c->v) || (!e.bare && (e.path_len != c->path_len ||
	    memcmp(e.path, c->path, c->path_len)))) {
		p->failed = 1;
		aa_error(p->d, pos_of(p, at), NULL, "companion: %s does not close "
			 "%s (line %ld)", seen(&e), seen(c), pos.line);
		return el.next;
	}
	if (e.bare && p->o->strict) {
		p->failed = 1;
		aa_error(p->d, pos_of(p, at), NULL, "companion: %s names no path "
			 "(--strict wants %s: <path>)", seen(&e), e.name);
		return el.next;
	}
	if (e.bare)
		aa_note(p->d, pos_of(p, at), NULL, "companion: %s closes %s "
			"(line %ld): blocks do not nest", seen(&e), seen(c), pos.line);
	if (c->v == V_START_PATCH)
		add_patch(p, pos, c, l->next, at);
	else
		add_write(p, pos, c, l->next, at);
	return el.next;
}

/* The commands of one block, in order; see aa_parse_companion. */
static int parse_commands(cparse *p)
{
	const aa_block *b = p->b;
	size_t first = p->cs->n, off = 0;
	int ncommands = 0;
	command c;
	aa_lspan l;

	if (b->len > AA_MAX_INPUT_SIZE)
		return aa_error(p->d, pos_of(p, 0), NULL, "companion: block too large");
	while (off < b->len) {
		aa_lspan_at(b->data, b->len, off, &l);
		if (!parse_command(b->data + l.start, l.len, &c)) {
			off = l.next;  /* prose */
			continue;
		}
		ncommands++;
		if (is_start(c.v)) {
			off = parse_start(p, &c, &l);
			continue;
		}
		if (c.v == V_DELETE)
			add_delete(p, pos_of(p, off), &c);
		else {
			p->failed = 1;
			aa_error(p->d, pos_of(p, off), NULL, "companion: %s without "
				 "a START", seen(&c));
		}
		off = l.next;
	}
	if (p->failed) {
		aa_changeset_truncate(p->cs, first);
		return -1;
	}
	return ncommands;
}

int aa_parse_companion(const aa_block *b, const aa_parse_opts *o,
		       aa_changeset *cs, aa_diags *d)
{
	cparse p = { b, o, cs, d, 0, { 0 } };
	int r;

	aa_linemap_init(&p.lines, b->data, b->len, b->line);
	r = parse_commands(&p);
	aa_linemap_free(&p.lines);
	return r;
}
