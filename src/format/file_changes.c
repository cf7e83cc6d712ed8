/*
 * file-changes (Documentation/format-file-changes.md): XML-like tags
 * found by name, not by an XML
 * parser, and nothing is unescaped (`&lt;` stays `&lt;`).
 *
 *   <FILE_CHANGES>                                   optional root
 *   <FILE_NEW file_path="p"> body </FILE_NEW>        create or overwrite
 *   <FILE_PATCH file_path="p"> diff </FILE_PATCH>    unified diff / bare @@
 *   <FILE_RENAME from_path="a" to_path="b" />        file or directory
 *   <FILE_DELETE file_path="p" />                    file or directory
 *   </FILE_CHANGES>
 *
 * Tags are recognised at the start of a line (after indentation) or
 * right after the previous tag. A body is everything between the opening
 * tag and the first closing tag of the same name; one leading and one
 * trailing newline are dropped, then one enclosing code fence.
 */
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "change/path.h"
#include "format/lines.h"
#include "format/parsers.h"
#include "util/util.h"

/* An opening tag with its attributes may not be longer than this. */
#define MAX_TAG_LENGTH (4 * AA_MAX_PATH_LENGTH + 1024)

typedef enum tag_kind {
	T_NONE,        /* not a file-changes tag */
	T_ROOT,        /* <FILE_CHANGES> */
	T_ROOT_END,    /* </FILE_CHANGES> */
	T_NEW,
	T_PATCH,
	T_RENAME,
	T_DELETE,
	T_STRAY_END,   /* </FILE_NEW> etc. with no opening tag */
	T_UNKNOWN      /* <FILE_SOMETHING> */
} tag_kind;

static const char *const directive_names[] = {
	[T_NEW] = "FILE_NEW",
	[T_PATCH] = "FILE_PATCH",
	[T_RENAME] = "FILE_RENAME",
	[T_DELETE] = "FILE_DELETE",
};

static int is_name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Length of the tag name at s (at most 64, for messages). */
static size_t name_length(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && i < 64 && is_name_char(s[i]))
		i++;
	return i;
}

static tag_kind directive_of(const char *name, size_t len)
{
	int k;

	for (k = T_NEW; k <= T_DELETE; k++)
		if (strlen(directive_names[k]) == len &&
		    !memcmp(directive_names[k], name, len))
			return (tag_kind)k;
	return T_NONE;
}

/*
 * The tag starting at s (s[0] == '<'), or T_NONE. Names are case
 * sensitive; a name must end at white space, '>' or '/'.
 */
static tag_kind tag_at(const char *s, size_t len)
{
	size_t i = 1, n0;
	int closing = 0;
	tag_kind k;

	if (len < 2 || s[0] != '<')
		return T_NONE;
	if (s[1] == '/') {
		closing = 1;
		i = 2;
	}
	if (len - i < 5 || memcmp(s + i, "FILE_", 5))
		return T_NONE;
	for (n0 = i; i < len && is_name_char(s[i]); i++)
		;
	if (i < len && !aa_is_ws(s[i]) && s[i] != '>' && s[i] != '/')
		return T_NONE;
	if (i - n0 == 12 && !memcmp(s + n0, "FILE_CHANGES", 12))
		return closing ? T_ROOT_END : T_ROOT;
	k = directive_of(s + n0, i - n0);
	if (k == T_NONE)
		return closing ? T_NONE : T_UNKNOWN;
	return closing ? T_STRAY_END : k;
}

/* Offset of the first non-blank character of the line at off. */
static size_t skip_indent(const char *s, size_t n, size_t off)
{
	while (off < n && aa_is_blank(s[off]))
		off++;
	return off;
}

int aa_file_changes_starts(const char *s, size_t len)
{
	tag_kind k = tag_at(s, len);

	return k == T_ROOT || (k >= T_NEW && k <= T_DELETE);
}

/* `</NAME>` (white space allowed before '>') at s[i]: 1 and *end past it. */
static int close_at(const char *s, size_t n, size_t i, const char *name,
		    size_t *end)
{
	size_t nl = strlen(name), j;

	if (n - i < nl + 3 || s[i] != '<' || s[i + 1] != '/' ||
	    memcmp(s + i + 2, name, nl))
		return 0;
	for (j = i + 2 + nl; j < n && aa_is_ws(s[j]); j++)
		;
	if (j >= n || s[j] != '>')
		return 0;
	*end = j + 1;
	return 1;
}

/*
 * Where `</NAME>` first occurs in s[from..n); sets *end past it.
 * Returns n (and *end = n) when there is none.
 */
static size_t find_close(const char *s, size_t n, size_t from,
			 const char *name, size_t *end)
{
	const char *p;
	size_t i;

	for (i = from; i < n; i = (size_t)(p - s) + 1) {
		p = memchr(s + i, '<', n - i);
		if (!p)
			break;
		if (close_at(s, n, (size_t)(p - s), name, end))
			return (size_t)(p - s);
	}
	*end = n;
	return n;
}

/* ---------- opening tags and attributes ---------- */

typedef struct span {
	const char *s;
	size_t len;
	int set;
} span;

typedef struct tag {
	tag_kind kind;
	size_t start, end;  /* '<' .. past '>' */
	int self_closing;
	span file_path, from_path, to_path;
	const char *error;  /* a syntax error, static */
	const char *dup;    /* name of an attribute given twice */
} tag;

static span *attribute_slot(tag *t, const char *name, size_t len)
{
	if (len == 9 && !memcmp(name, "file_path", 9))
		return &t->file_path;
	if (len == 9 && !memcmp(name, "from_path", 9))
		return &t->from_path;
	if (len == 7 && !memcmp(name, "to_path", 7))
		return &t->to_path;
	return NULL;  /* other attributes are ignored */
}

static int is_attr_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == ':';
}

/* One `name="value"` or `name='value'` at s[*i]; 0, or -1 with t->error. */
static int parse_attribute(const char *s, size_t n, size_t *i, tag *t)
{
	size_t a0 = *i, a1, v0;
	const char *q;
	span *slot;

	for (a1 = a0; a1 < n && is_attr_char(s[a1]); a1++)
		;
	if (a1 == a0) {
		t->error = "unexpected character in tag";
		return -1;
	}
	*i = a1;
	while (*i < n && aa_is_ws(s[*i]))
		(*i)++;
	if (*i >= n || s[*i] != '=') {
		t->error = "attribute without a value";
		return -1;
	}
	(*i)++;
	while (*i < n && aa_is_ws(s[*i]))
		(*i)++;
	if (*i >= n || (s[*i] != '"' && s[*i] != '\'')) {
		t->error = "attribute value not in quotes";
		return -1;
	}
	v0 = *i + 1;
	q = v0 < n ? memchr(s + v0, s[*i], n - v0) : NULL;
	if (!q) {
		t->error = "unterminated attribute value";
		return -1;
	}
	*i = (size_t)(q - s) + 1;
	slot = attribute_slot(t, s + a0, a1 - a0);
	if (slot && slot->set && !t->dup)
		t->dup = slot == &t->file_path ? "file_path" :
			 slot == &t->from_path ? "from_path" : "to_path";
	if (slot && !slot->set) {
		slot->s = s + v0;
		slot->len = (size_t)(q - s) - v0;
		slot->set = 1;
	}
	return 0;
}

/* Parses the tag at s[off] ('<'): its attributes through '>' or '/>'. */
static int parse_tag(const char *s, size_t n, size_t off, tag *t)
{
	size_t i = off + 1, limit = n - off > MAX_TAG_LENGTH ? off + MAX_TAG_LENGTH : n;

	memset(t, 0, sizeof(*t));
	t->kind = tag_at(s + off, n - off);
	t->start = off;
	while (i < limit && is_name_char(s[i]))
		i++;
	for (;;) {
		while (i < limit && aa_is_ws(s[i]))
			i++;
		if (i >= limit) {
			t->error = limit < n ? "tag too long" : "tag not closed with '>'";
			return -1;
		}
		if (s[i] == '>') {
			t->end = i + 1;
			return 0;
		}
		if (s[i] == '/' && i + 1 < limit && s[i + 1] == '>') {
			t->self_closing = 1;
			t->end = i + 2;
			return 0;
		}
		if (parse_attribute(s, limit, &i, t) < 0)
			return -1;
	}
}

/* ---------- region ends, for the extractor ---------- */

/* End of the directive or root whose tag starts at off; n when unclosed. */
static size_t element_end(const char *s, size_t n, size_t off)
{
	tag t;
	size_t end;

	if (parse_tag(s, n, off, &t) < 0)
		return n;
	if (t.kind == T_ROOT)
		find_close(s, n, t.end, "FILE_CHANGES", &end);
	else if ((t.kind == T_NEW || t.kind == T_PATCH) && !t.self_closing)
		find_close(s, n, t.end, directive_names[t.kind], &end);
	else
		end = t.end;
	return end;
}

size_t aa_file_changes_region_end(const char *s, size_t n, size_t off)
{
	size_t end = off, at;
	aa_lspan l;

	for (;;) {
		at = skip_indent(s, n, off);
		end = element_end(s, n, at);
		/* directives separated by white space form one region */
		for (at = end; at < n && aa_is_ws(s[at]); at++)
			;
		if (at >= n || !aa_file_changes_starts(s + at, n - at))
			break;
		off = at;
	}
	/* the region ends with the line of its last tag */
	if (end < n && end > 0 && s[end - 1] != '\n') {
		aa_lspan_at(s, n, end, &l);
		end = l.next;
	}
	return end;
}

/* ---------- parser ---------- */

typedef struct fparse {
	const aa_block *b;
	const aa_parse_opts *o;
	aa_changeset *cs;
	aa_diags *d;
	int failed;
	int ndirectives;
	long root_line;    /* input line of the open <FILE_CHANGES> */
	aa_linemap lines;  /* offset -> input line */
} fparse;

static aa_pos pos_of(fparse *p, size_t off)
{
	aa_pos pos = { p->b->in ? p->b->in->name : NULL, 0 };

	pos.line = aa_linemap_line(&p->lines, off);
	return pos;
}

static int fail(fparse *p, size_t off, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(fparse *p, size_t off, const char *path, const char *fmt, ...)
{
	aa_buf msg = AA_BUF_INIT;
	va_list ap;

	p->failed = 1;
	va_start(ap, fmt);
	if (aa_buf_puts(&msg, "file-changes: ") < 0 ||
	    aa_buf_vprintf(&msg, fmt, ap) < 0) {
		va_end(ap);
		aa_buf_free(&msg);
		return aa_error(p->d, pos_of(p, off), path, "out of memory");
	}
	va_end(ap);
	aa_error(p->d, pos_of(p, off), path, "%s", msg.ptr);
	aa_buf_free(&msg);
	return -1;
}

/* A validated copy of a path attribute, or NULL after an error. */
static char *path_attribute(fparse *p, const tag *t, const span *v,
			    const char *attr)
{
	const char *name = directive_names[t->kind], *why = NULL, *s;
	size_t len;
	char *path;

	if (!v->set) {
		fail(p, t->start, NULL, "<%s> has no %s attribute", name, attr);
		return NULL;
	}
	if (!v->len) {
		fail(p, t->start, NULL, "<%s> has an empty %s", name, attr);
		return NULL;
	}
	/* "./x" and absolute paths as every format takes them (path.h) */
	if (aa_path_answer(v->s, v->len, &s, &len, &why) < 0) {
		fail(p, t->start, NULL, "<%s> %s %s: %s", name, attr,
		     aa_qpathn(v->s, v->len), why ? why : "invalid path");
		return NULL;
	}
	path = aa_strndup(s, len);
	if (!path)
		fail(p, t->start, NULL, "out of memory");
	return path;
}

static aa_op *add_op(fparse *p, const tag *t, aa_op_kind kind, char *path)
{
	aa_op *op = aa_changeset_add(p->cs, kind, pos_of(p, t->start));

	if (!op) {
		free(path);
		fail(p, t->start, NULL, "out of memory (or too many operations)");
		return NULL;
	}
	op->path = path;
	op->format = "file-changes";
	return op;
}

/* A body: [from, to) of the block, possibly without its final newline. */
typedef struct body {
	size_t from, to;
} body;

/* A line of only ``` (3 or more) and an optional info string; the count. */
static size_t fence_open_len(const char *s, size_t len)
{
	size_t k = 0, i;

	while (k < len && s[k] == '`')
		k++;
	if (k < 3)
		return 0;
	for (i = k; i < len; i++)
		if (s[i] == '`')
			return 0;
	return k;
}

static int is_fence_close(const char *s, size_t len, size_t open)
{
	size_t k = 0;

	while (k < len && s[k] == '`')
		k++;
	while (len > k && aa_is_blank(s[len - 1]))
		len--;
	return k >= open && k == len;
}

/*
 * Drops one leading newline (after blanks following the opening tag),
 * the indentation of a closing tag on its own line, then one enclosing
 * code fence: its lines must be the first and the last of the body.
 */
static body trim_body(fparse *p, const tag *t, size_t from, size_t to)
{
	const char *s = p->b->data;
	body r;
	aa_lspan first, last;
	size_t i, e, open;

	for (i = to; i > from && aa_is_blank(s[i - 1]); i--)
		;
	if (i == from || s[i - 1] == '\n')
		to = i;
	i = skip_indent(s, to, from);
	if (i < to && s[i] == '\n')
		from = i + 1;
	else if (i + 1 < to && s[i] == '\r' && s[i + 1] == '\n')
		from = i + 2;
	r.from = from;
	r.to = to;
	/* without the trailing newline, the body must hold two lines */
	e = to;
	if (e > from && s[e - 1] == '\n')
		e--;
	aa_lspan_at(s, e, from, &first);
	if (first.next >= e)
		return r;
	open = fence_open_len(s + first.start, first.len);
	if (!open)
		return r;
	for (i = e; i > from && s[i - 1] != '\n'; i--)
		;
	aa_lspan_at(s, e, i, &last);
	if (last.len && s[last.start + last.len - 1] == '\r')
		last.len--;
	if (!is_fence_close(s + last.start, last.len, open)) {
		aa_warn(p->d, pos_of(p, t->start), NULL, "file-changes: the body of "
			"<%s> starts with a code fence that does not end on its "
			"last line; the fence is kept as content",
			directive_names[t->kind]);
		return r;
	}
	r.from = first.next;
	r.to = last.start;
	return r;
}

/*
 * The body as file content, byte for byte: a CR before an LF is content
 * (an answer that is CRLF throughout reaches us as LF; see extract.c).
 */
static char *body_content(const char *s, body bd, size_t *len)
{
	char *out = aa_strndup(s + bd.from, bd.to - bd.from);

	if (out)
		*len = bd.to - bd.from;
	return out;
}

static void add_new(fparse *p, const tag *t, body bd)
{
	char *path = path_attribute(p, t, &t->file_path, "file_path");
	aa_op *op;

	if (!path || !(op = add_op(p, t, AA_OP_WRITE, path)))
		return;
	op->exist = AA_EXIST_ANY;
	op->content = body_content(p->b->data, bd, &op->content_len);
	if (!op->content)
		fail(p, t->start, op->path, "out of memory");
}

static void add_patch(fparse *p, const tag *t, body bd)
{
	char *path = path_attribute(p, t, &t->file_path, "file_path");
	aa_block inner;
	size_t first = p->cs->n, k;

	if (!path)
		return;
	inner.in = p->b->in;
	inner.data = p->b->data + bd.from;
	inner.len = bd.to - bd.from;
	inner.line = pos_of(p, bd.from).line;
	if (aa_parse_diff(&inner, p->o, path, p->cs, p->d) < 0)
		p->failed = 1;
	else if (p->cs->n == first)
		fail(p, t->start, path, "<FILE_PATCH> holds no diff");
	for (k = first; k < p->cs->n; k++)
		p->cs->ops[k].format = "file-changes";
	free(path);
}

static void add_rename(fparse *p, const tag *t)
{
	char *from = path_attribute(p, t, &t->from_path, "from_path");
	char *to = path_attribute(p, t, &t->to_path, "to_path");
	aa_op *op;

	if (!from || !to) {
		free(from);
		free(to);
		return;
	}
	op = add_op(p, t, AA_OP_RENAME, from);
	if (!op) {
		free(to);
		return;
	}
	op->to = to;
	op->dir_ok = 1;
}

static void add_delete(fparse *p, const tag *t)
{
	char *path = path_attribute(p, t, &t->file_path, "file_path");
	aa_op *op;

	if (path && (op = add_op(p, t, AA_OP_DELETE, path)))
		op->dir_ok = 1;
}

/* FILE_NEW / FILE_PATCH: the body up to the closing tag. */
static size_t parse_with_body(fparse *p, const tag *t)
{
	const char *name = directive_names[t->kind];
	size_t end, at;

	if (t->self_closing) {
		fail(p, t->start, NULL, "<%s /> has no body (use <%s ...> ... </%s>)",
		     name, name, name);
		return t->end;
	}
	at = find_close(p->b->data, p->b->len, t->end, name, &end);
	if (at >= p->b->len) {
		fail(p, t->start, NULL, "<%s> has no closing </%s>", name, name);
		return p->b->len;
	}
	if (t->kind == T_NEW)
		add_new(p, t, trim_body(p, t, t->end, at));
	else
		add_patch(p, t, trim_body(p, t, t->end, at));
	return end;
}

/* FILE_RENAME / FILE_DELETE: self-closing, or followed by their end tag. */
static size_t parse_without_body(fparse *p, const tag *t)
{
	const char *s = p->b->data;
	size_t n = p->b->len, i = t->end, end;

	if (!t->self_closing) {
		while (i < n && aa_is_ws(s[i]))
			i++;
		if (close_at(s, n, i, directive_names[t->kind], &end))
			i = end;
		else
			i = t->end;
	} else
		i = t->end;
	if (t->kind == T_RENAME)
		add_rename(p, t);
	else
		add_delete(p, t);
	return i;
}

static size_t parse_directive(fparse *p, size_t off)
{
	tag t;

	if (parse_tag(p->b->data, p->b->len, off, &t) < 0) {
		fail(p, off, NULL, "<%s: %s", directive_names[t.kind], t.error);
		return p->b->len;
	}
	p->ndirectives++;
	if (t.dup)
		fail(p, off, NULL, "<%s> has %s twice", directive_names[t.kind], t.dup);
	if (t.kind == T_NEW || t.kind == T_PATCH)
		return parse_with_body(p, &t);
	return parse_without_body(p, &t);
}

/* Root state: 0 outside, else 1 + offset of the open <FILE_CHANGES>. */
static size_t handle_tag(fparse *p, tag_kind k, size_t at, size_t line_next,
			 size_t *root)
{
	const char *s = p->b->data;
	size_t n = p->b->len;
	tag t;

	switch (k) {
	case T_ROOT:
		if (*root) {
			fail(p, at, NULL, "<FILE_CHANGES> inside <FILE_CHANGES> (line %ld)",
			     p->root_line);
			return line_next;
		}
		if (parse_tag(s, n, at, &t) < 0) {
			fail(p, at, NULL, "<FILE_CHANGES: %s", t.error);
			return line_next;
		}
		*root = at + 1;
		p->root_line = pos_of(p, at).line;
		return t.end;
	case T_ROOT_END: {
		size_t end;

		if (!*root)
			fail(p, at, NULL, "</FILE_CHANGES> without <FILE_CHANGES>");
		*root = 0;
		return close_at(s, n, at, "FILE_CHANGES", &end) ? end : line_next;
	}
	case T_NEW:
	case T_PATCH:
	case T_RENAME:
	case T_DELETE:
		return parse_directive(p, at);
	case T_STRAY_END:
		fail(p, at, NULL, "closing tag without its opening tag");
		return line_next;
	case T_UNKNOWN:
		if (*root)
			fail(p, at, NULL, "unknown directive %s (expected FILE_NEW, "
			     "FILE_PATCH, FILE_RENAME or FILE_DELETE)",
			     aa_qtext(s + at + 1, name_length(s + at + 1, n - at - 1), 64));
		return line_next;
	default:
		return line_next;
	}
}

/* The tags of one block, in order; see aa_parse_file_changes. */
static int parse_tags(fparse *p)
{
	const aa_block *b = p->b;
	size_t first = p->cs->n, off = 0, root = 0, at;
	aa_lspan l;

	if (b->len > AA_MAX_INPUT_SIZE)
		return fail(p, 0, NULL, "block too large");
	while (off < b->len) {
		aa_lspan_at(b->data, b->len, off, &l);
		at = skip_indent(b->data, b->len, off);
		if (at >= l.start + l.len) {
			off = l.next;
			continue;
		}
		off = handle_tag(p, tag_at(b->data + at, b->len - at), at,
				 l.next, &root);
	}
	if (root)
		fail(p, root - 1, NULL, "<FILE_CHANGES> has no closing </FILE_CHANGES>");
	if (p->failed) {
		aa_changeset_truncate(p->cs, first);
		return -1;
	}
	return p->ndirectives;
}

int aa_parse_file_changes(const aa_block *b, const aa_parse_opts *o,
			  aa_changeset *cs, aa_diags *d)
{
	fparse p = { b, o, cs, d, 0, 0, 0, { 0 } };
	int r;

	aa_linemap_init(&p.lines, b->data, b->len, b->line);
	r = parse_tags(&p);
	aa_linemap_free(&p.lines);
	return r;
}
