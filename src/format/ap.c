/*
 * ap (Documentation/format-ap.md): a YAML document `version: "2.0"` with
 * a list of file
 * changes, each a list of modifications located by snippets.
 *
 * libyaml's event API drives a strict recursive-descent reader: the
 * document is never built as a tree, so no input can make us allocate
 * more than its own strings, and every event is checked as it comes
 * (anchors and aliases refused, nesting bounded, unknown keys, duplicate
 * keys and wrong types rejected with their line and column).
 *
 * A change's modifications become operations in order: CREATE_FILE is an
 * AA_OP_WRITE (must be new), every run of the other actions one AA_OP_EDIT
 * of kind AA_EDIT_AP (src/edit/ap_mods.c).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "format/format.h"
#include "change/path.h"
#include "util/util.h"

/* Largest include_*_blank_lines value accepted. */
#define MAX_BLANK_LINES 1000000000L

typedef enum mod_action {
	ACT_REPLACE,
	ACT_INSERT_AFTER,
	ACT_INSERT_BEFORE,
	ACT_DELETE,
	ACT_CREATE_FILE
} mod_action;

static const char *const action_names[] = {
	"REPLACE", "INSERT_AFTER", "INSERT_BEFORE", "DELETE", "CREATE_FILE"
};

/* Keys of a modification, as bits of mod_fields.seen. */
enum {
	K_ACTION = 1 << 0,
	K_SNIPPET = 1 << 1,
	K_START = 1 << 2,
	K_END = 1 << 3,
	K_CONTENT = 1 << 4,
	K_ANCHOR = 1 << 5,
	K_LEADING = 1 << 6,
	K_TRAILING = 1 << 7
};

static const char *const mod_keys[] = {
	"action", "snippet", "start_snippet", "end_snippet", "content",
	"anchor", "include_leading_blank_lines", "include_trailing_blank_lines"
};

/* One modification as read, before it becomes part of an operation. */
typedef struct mod_fields {
	long line;             /* input line of the modification */
	unsigned seen;         /* K_* bits */
	mod_action action;
	char *snippet, *start_snippet, *end_snippet, *content, *anchor;
	long leading, trailing;
} mod_fields;

typedef struct change_fields {
	long line;
	yaml_mark_t path_mark;
	char *file_path;
	const char *newline;   /* "\n", "\r\n", "\r" */
	mod_fields *mods;
	size_t nmods, cap;
	int have_mods;
} change_fields;

typedef struct yreader {
	const aa_block *b;
	const char *data;      /* the YAML text (the block without a BOM) */
	size_t len;
	aa_changeset *cs;
	aa_diags *d;
	yaml_parser_t parser;
	yaml_event_t ev;       /* the current event */
	int have_ev;
	int depth;             /* open mappings and sequences */
} yreader;

/* ---------- positions and errors ---------- */

static long input_line(const yreader *y, yaml_mark_t m)
{
	return y->b->line + (long)m.line;
}

static aa_pos pos_at(const yreader *y, long line)
{
	aa_pos p = { y->b->in ? y->b->in->name : NULL, line };

	return p;
}

/* An error at mark m: "<reason> (line L, column C)". */
static int err_at(yreader *y, yaml_mark_t m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int err_at(yreader *y, yaml_mark_t m, const char *fmt, ...)
{
	aa_buf msg = AA_BUF_INIT;
	long line = input_line(y, m);
	va_list ap;

	va_start(ap, fmt);
	if (aa_buf_vprintf(&msg, fmt, ap) < 0) {
		va_end(ap);
		aa_buf_free(&msg);
		return aa_oom(y->d, pos_at(y, line), NULL);
	}
	va_end(ap);
	aa_error(y->d, pos_at(y, line), NULL, "%s (line %ld, column %ld)",
		 msg.ptr, line, (long)m.column + 1);
	aa_buf_free(&msg);
	return -1;
}

static int oom(yreader *y, long line)
{
	if (y->cs->n >= AA_MAX_OPS)
		return aa_error(y->d, pos_at(y, line), NULL,
				"too many operations (more than %u)", AA_MAX_OPS);
	return aa_error(y->d, pos_at(y, line), NULL, "out of memory");
}

/* The mark of byte `off` of the block (reader errors only give offsets). */
static yaml_mark_t mark_of_offset(const yreader *y, size_t off)
{
	yaml_mark_t m = { 0, 0, 0 };
	size_t i;

	if (off > y->len)
		off = y->len;
	for (i = 0; i < off; i++) {
		unsigned char c = (unsigned char)y->data[i];

		if (c == '\n') {
			m.line++;
			m.column = 0;
		} else if ((c & 0xC0) != 0x80) {
			m.column++;
		}
	}
	m.index = off;
	return m;
}

static int syntax_error(yreader *y)
{
	const yaml_parser_t *p = &y->parser;
	const char *problem = p->problem ? p->problem : "invalid YAML";

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		return oom(y, y->b->line);
	case YAML_READER_ERROR:
		return err_at(y, mark_of_offset(y, p->problem_offset),
			      "YAML error: %s", problem);
	default:
		if (p->context)
			return err_at(y, p->problem_mark,
				      "YAML error: %s, %s started at line %ld",
				      problem, p->context,
				      input_line(y, p->context_mark));
		return err_at(y, p->problem_mark, "YAML error: %s", problem);
	}
}

/* ---------- events ---------- */

/* Refuses what we never accept, whatever the place: anchors, aliases, tags. */
static int check_event(yreader *y)
{
	const yaml_event_t *e = &y->ev;
	const yaml_char_t *anchor = NULL, *tag = NULL;

	switch (e->type) {
	case YAML_ALIAS_EVENT:
		return err_at(y, e->start_mark, "YAML aliases are not allowed");
	case YAML_SCALAR_EVENT:
		anchor = e->data.scalar.anchor;
		tag = e->data.scalar.tag;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = e->data.sequence_start.anchor;
		tag = e->data.sequence_start.tag;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = e->data.mapping_start.anchor;
		tag = e->data.mapping_start.tag;
		break;
	default:
		break;
	}
	if (anchor)
		return err_at(y, e->start_mark,
			      "YAML anchors are not allowed (aliases are refused)");
	if (tag)
		return err_at(y, e->start_mark, "YAML tags are not allowed");
	return 0;
}

/* Depth of open collections, bounded by AA_MAX_NEST_DEPTH. */
static int track_depth(yreader *y)
{
	switch (y->ev.type) {
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (++y->depth > AA_MAX_NEST_DEPTH)
			return err_at(y, y->ev.start_mark,
				      "YAML nested too deeply (more than %d levels)",
				      AA_MAX_NEST_DEPTH);
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		y->depth--;
		break;
	default:
		break;
	}
	return 0;
}

/* Reads the next event into y->ev. */
static int next_event(yreader *y)
{
	if (y->have_ev) {
		yaml_event_delete(&y->ev);
		y->have_ev = 0;
	}
	if (!yaml_parser_parse(&y->parser, &y->ev))
		return syntax_error(y);
	y->have_ev = 1;
	if (check_event(y) < 0 || track_depth(y) < 0)
		return -1;
	return 0;
}

static int expect_event(yreader *y, yaml_event_type_t type, const char *what)
{
	if (next_event(y) < 0)
		return -1;
	if (y->ev.type != type)
		return err_at(y, y->ev.start_mark, "%s", what);
	return 0;
}

/* ---------- scalars ---------- */

static int is_scalar(const yreader *y)
{
	return y->ev.type == YAML_SCALAR_EVENT;
}

static const char *scalar_text(const yreader *y)
{
	return (const char *)y->ev.data.scalar.value;
}

static int is_plain(const yreader *y)
{
	return y->ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* A YAML null: an empty plain scalar, `~` or `null` in any usual case. */
static int is_null(const yreader *y)
{
	const char *s = scalar_text(y);

	return is_plain(y) && (!*s || !strcmp(s, "~") || !strcmp(s, "null") ||
			       !strcmp(s, "Null") || !strcmp(s, "NULL"));
}

static const char *event_kind(const yreader *y)
{
	switch (y->ev.type) {
	case YAML_SEQUENCE_START_EVENT: return "a list";
	case YAML_MAPPING_START_EVENT: return "a mapping";
	case YAML_SCALAR_EVENT: return is_null(y) ? "null" : "a scalar";
	default: return "nothing";
	}
}

/*
 * Reads the value of `key` as a string: any scalar except null, its
 * text as written (so a plain 2.0 or true is that text).
 */
static int read_string(yreader *y, const char *key, char **out)
{
	size_t len;

	if (next_event(y) < 0)
		return -1;
	if (!is_scalar(y) || is_null(y))
		return err_at(y, y->ev.start_mark, "'%s' must be a string, not %s",
			      key, event_kind(y));
	len = y->ev.data.scalar.length;
	if (memchr(scalar_text(y), '\0', len))
		return err_at(y, y->ev.start_mark,
			      "NUL character in '%s' not supported", key);
	*out = aa_strndup(scalar_text(y), len);
	if (!*out)
		return oom(y, input_line(y, y->ev.start_mark));
	return 0;
}

/* Reads a non-negative integer: a plain scalar of decimal digits. */
static int read_count(yreader *y, const char *key, long *out)
{
	const char *s;
	long v = 0;

	if (next_event(y) < 0)
		return -1;
	if (!is_scalar(y) || !is_plain(y) || !*(s = scalar_text(y)))
		goto bad;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			goto bad;
		v = v * 10 + (*s - '0');
		if (v > MAX_BLANK_LINES)
			return err_at(y, y->ev.start_mark, "'%s' is too large", key);
	}
	*out = v;
	return 0;
bad:
	return err_at(y, y->ev.start_mark,
		      "'%s' must be a non-negative integer", key);
}

/*
 * At a mapping key event: returns the index of the key among `keys`,
 * or -1 with an error for a non-scalar, unknown or duplicate key.
 */
static int read_key(yreader *y, const char *const *keys, int nkeys,
		    unsigned *seen, const char *where)
{
	int i;

	if (!is_scalar(y))
		return err_at(y, y->ev.start_mark, "keys of %s must be strings", where);
	for (i = 0; i < nkeys; i++)
		if (!strcmp(scalar_text(y), keys[i]) &&
		    strlen(keys[i]) == y->ev.data.scalar.length)
			break;
	if (i == nkeys)
		return err_at(y, y->ev.start_mark, "unknown key %s in %s",
			      aa_qtext(scalar_text(y), y->ev.data.scalar.length, 80),
			      where);
	if (*seen & (1u << i))
		return err_at(y, y->ev.start_mark, "duplicate key '%s' in %s",
			      keys[i], where);
	*seen |= 1u << i;
	return i;
}

/* ---------- modifications ---------- */

static void mod_free(mod_fields *m)
{
	free(m->snippet);
	free(m->start_snippet);
	free(m->end_snippet);
	free(m->content);
	free(m->anchor);
}

static int read_action(yreader *y, mod_action *out)
{
	char *s = NULL;
	size_t i;

	if (read_string(y, "action", &s) < 0)
		return -1;
	for (i = 0; i < sizeof(action_names) / sizeof(*action_names); i++) {
		if (!strcmp(s, action_names[i])) {
			*out = (mod_action)i;
			free(s);
			return 0;
		}
	}
	err_at(y, y->ev.start_mark,
	       "unknown action %s (REPLACE, INSERT_AFTER, INSERT_BEFORE, "
	       "DELETE or CREATE_FILE)", aa_qtext(s, strlen(s), 80));
	free(s);
	return -1;
}

/*
 * A mapping, from after its MAPPING_START to its end: each key one of
 * keys[0..nkeys) (read_key: *seen, `what` for its messages), its value
 * read by `value`.
 */
static int read_mapping(yreader *y, const char *const *keys, int nkeys,
			unsigned *seen, const char *what,
			int (*value)(yreader *y, void *arg, int key), void *arg)
{
	for (;;) {
		int key;

		if (next_event(y) < 0)
			return -1;
		if (y->ev.type == YAML_MAPPING_END_EVENT)
			return 0;
		key = read_key(y, keys, nkeys, seen, what);
		if (key < 0 || value(y, arg, key) < 0)
			return -1;
	}
}

static int read_mod_value(yreader *y, void *arg, int key)
{
	mod_fields *m = arg;

	switch (1 << key) {
	case K_ACTION: return read_action(y, &m->action);
	case K_SNIPPET: return read_string(y, "snippet", &m->snippet);
	case K_START: return read_string(y, "start_snippet", &m->start_snippet);
	case K_END: return read_string(y, "end_snippet", &m->end_snippet);
	case K_CONTENT: return read_string(y, "content", &m->content);
	case K_ANCHOR: return read_string(y, "anchor", &m->anchor);
	case K_LEADING:
		return read_count(y, "include_leading_blank_lines", &m->leading);
	default:
		return read_count(y, "include_trailing_blank_lines", &m->trailing);
	}
}

static int mod_error(yreader *y, const mod_fields *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int mod_error(yreader *y, const mod_fields *m, const char *fmt, ...)
{
	aa_buf msg = AA_BUF_INIT;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = aa_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0) {
		aa_buf_free(&msg);
		return oom(y, m->line);
	}
	aa_error(y->d, pos_at(y, m->line), NULL, "%s %s",
		 (m->seen & K_ACTION) ? action_names[m->action] : "modification",
		 msg.ptr);
	aa_buf_free(&msg);
	return -1;
}

/* The keys each action takes (Documentation/format-ap.md, "The document"). */
static int check_mod(yreader *y, const mod_fields *m)
{
	unsigned locators = m->seen & (K_SNIPPET | K_START | K_END);
	int is_create = m->action == ACT_CREATE_FILE;
	int is_range = m->action == ACT_REPLACE || m->action == ACT_DELETE;

	if (!(m->seen & K_ACTION))
		return mod_error(y, m, "has no 'action'");
	if (is_create) {
		if (m->seen & ~(K_ACTION | K_CONTENT))
			return mod_error(y, m, "takes only 'content' (no snippet, "
					 "anchor or blank-line inclusion)");
	} else if (!locators) {
		return mod_error(y, m, "needs 'snippet' or 'start_snippet' and "
				 "'end_snippet'");
	} else if ((m->seen & K_SNIPPET) && (m->seen & (K_START | K_END))) {
		return mod_error(y, m, "has both 'snippet' and 'start_snippet'/"
				 "'end_snippet'; they are mutually exclusive");
	} else if (!(m->seen & K_SNIPPET)) {
		if (!is_range)
			return mod_error(y, m, "cannot use a range "
					 "('start_snippet'/'end_snippet'); only "
					 "REPLACE and DELETE can");
		if (locators != (K_START | K_END))
			return mod_error(y, m, "needs both 'start_snippet' and "
					 "'end_snippet'");
	}
	if (m->action == ACT_DELETE && (m->seen & K_CONTENT))
		return mod_error(y, m, "must not have 'content'");
	if (m->action != ACT_DELETE && !(m->seen & K_CONTENT))
		return mod_error(y, m, "needs 'content'");
	return 0;
}

/* At the MAPPING_START of a modification: reads it up to its end. */
static int read_mod(yreader *y, mod_fields *m)
{
	memset(m, 0, sizeof(*m));
	m->line = input_line(y, y->ev.start_mark);
	if (read_mapping(y, mod_keys, (int)(sizeof(mod_keys) / sizeof(*mod_keys)),
			 &m->seen, "a modification", read_mod_value, m) < 0)
		return -1;
	return check_mod(y, m);
}

/* ---------- file changes ---------- */

static void change_free(change_fields *c)
{
	size_t i;

	for (i = 0; i < c->nmods; i++)
		mod_free(&c->mods[i]);
	free(c->mods);
	free(c->file_path);
}

static mod_fields *change_add_mod(change_fields *c)
{
	if (AA_GROW(c->mods, c->nmods, c->cap) < 0)
		return NULL;
	memset(&c->mods[c->nmods], 0, sizeof(*c->mods));
	return &c->mods[c->nmods++];
}

/*
 * The list of mappings under `key` ('changes', 'modifications'): `item`
 * reads each one from its MAPPING_START event.
 */
static int read_mappings(yreader *y, const char *key, const char *item_name,
			 int (*item)(yreader *y, void *arg), void *arg)
{
	if (next_event(y) < 0)
		return -1;
	if (y->ev.type != YAML_SEQUENCE_START_EVENT)
		return err_at(y, y->ev.start_mark, "'%s' must be a list, not %s",
			      key, event_kind(y));
	for (;;) {
		if (next_event(y) < 0)
			return -1;
		if (y->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (y->ev.type != YAML_MAPPING_START_EVENT)
			return err_at(y, y->ev.start_mark,
				      "each %s must be a mapping, not %s",
				      item_name, event_kind(y));
		if (item(y, arg) < 0)
			return -1;
	}
}

static int read_mod_item(yreader *y, void *arg)
{
	mod_fields *m = change_add_mod(arg);

	if (!m)
		return oom(y, input_line(y, y->ev.start_mark));
	return read_mod(y, m);
}

static int read_mods(yreader *y, change_fields *c)
{
	c->have_mods = 1;
	return read_mappings(y, "modifications", "modification", read_mod_item, c);
}

static int read_newline(yreader *y, change_fields *c)
{
	char *s = NULL;
	int r = 0;

	if (read_string(y, "newline", &s) < 0)
		return -1;
	if (!strcmp(s, "LF"))
		c->newline = "\n";
	else if (!strcmp(s, "CRLF"))
		c->newline = "\r\n";
	else if (!strcmp(s, "CR"))
		c->newline = "\r";
	else
		r = err_at(y, y->ev.start_mark,
			   "'newline' must be \"LF\", \"CRLF\" or \"CR\", not %s",
			   aa_qtext(s, strlen(s), 40));
	free(s);
	return r;
}

/* True when the path has a ".." component (Documentation/format-ap.md). */
/*
 * "./x" is x (path.h: every format drops it). An absolute file_path is
 * left as it is: format-ap.md makes it relative to the patch file, so
 * the check below refuses it.
 */
static const char *without_dot_slash(const char *p)
{
	const char *s, *why;
	size_t len;

	if (aa_path_answer(p, strlen(p), &s, &len, &why) == 0 && s[0] != '/')
		return s;
	return p;
}

static int has_dotdot(const char *p)
{
	while (*p) {
		size_t n = strcspn(p, "/\\");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

/* file_path relative to the patch file's directory, then validated. */
static char *resolve_path(yreader *y, const change_fields *c)
{
	const char *dir = y->b->in ? y->b->in->dir_in_worktree : NULL;
	const char *why = NULL;
	char *full;

	if (has_dotdot(c->file_path)) {
		err_at(y, c->path_mark, "file_path %s must not contain '..' "
		       "components", aa_qpath(c->file_path));
		return NULL;
	}
	full = aa_path_join(dir, without_dot_slash(c->file_path));
	if (!full) {
		oom(y, c->line);
		return NULL;
	}
	if (aa_path_check(full, strlen(full), &why) < 0) {
		err_at(y, c->path_mark, "invalid file_path %s: %s",
		       aa_qpath(full), why ? why : "rejected");
		free(full);
		return NULL;
	}
	return full;
}

/*
 * CREATE_FILE content: every line's trailing blanks stripped (§3.5),
 * lines joined with the change's newline; a final line break is kept
 * as YAML gave it.
 */
static char *created_content(const char *s, const char *nl, size_t *len)
{
	aa_buf out = AA_BUF_INIT;
	size_t nllen = strlen(nl);

	if (aa_buf_grow(&out, strlen(s) * nllen + 1) < 0)
		return NULL;
	while (*s) {
		size_t n = strcspn(s, "\r\n"), keep = n;

		keep = aa_rtrim(s, keep, aa_is_blank);
		if (aa_buf_put(&out, s, keep) < 0)
			goto oom;
		s += n;
		if (!*s)
			break;
		s += (s[0] == '\r' && s[1] == '\n') ? 2 : 1;
		if (aa_buf_put(&out, nl, nllen) < 0)
			goto oom;
	}
	*len = out.len;
	return aa_buf_detach(&out);
oom:
	aa_buf_free(&out);
	return NULL;
}

static int emit_create(yreader *y, const change_fields *c, const char *path,
		       mod_fields *m)
{
	aa_op *op = aa_changeset_add(y->cs, AA_OP_WRITE, pos_at(y, m->line));

	if (!op)
		return oom(y, m->line);
	op->format = "ap";
	op->exist = AA_EXIST_NEW;
	op->path = aa_strdup(path);
	op->content = created_content(m->content, c->newline ? c->newline : "\n",
				      &op->content_len);
	if (!op->path || !op->content)
		return oom(y, m->line);
	return 0;
}

/* Moves a modification's strings into a new aa_apmod of the op. */
static int emit_apmod(yreader *y, aa_op *op, mod_fields *m)
{
	aa_apmod *am = aa_op_add_apmod(op, pos_at(y, m->line));

	if (!am)
		return oom(y, m->line);
	am->action = m->action == ACT_REPLACE ? AA_AP_REPLACE :
		     m->action == ACT_INSERT_AFTER ? AA_AP_INSERT_AFTER :
		     m->action == ACT_INSERT_BEFORE ? AA_AP_INSERT_BEFORE :
		     AA_AP_DELETE;
	am->snippet = m->snippet;
	am->start_snippet = m->start_snippet;
	am->end_snippet = m->end_snippet;
	am->anchor = m->anchor;
	am->content = m->content;
	am->leading_blank_lines = m->leading;
	am->trailing_blank_lines = m->trailing;
	m->snippet = m->start_snippet = m->end_snippet = NULL;
	m->anchor = m->content = NULL;
	return 0;
}

/* Splits the change's modifications into operations at CREATE_FILE. */
static int emit_change(yreader *y, change_fields *c)
{
	char *path = resolve_path(y, c);
	size_t i, edit = SIZE_MAX; /* index of the open edit op in cs */
	int r = 0;

	if (!path)
		return -1;
	for (i = 0; i < c->nmods && !r; i++) {
		mod_fields *m = &c->mods[i];

		if (m->action == ACT_CREATE_FILE) {
			r = emit_create(y, c, path, m);
			edit = SIZE_MAX;
			continue;
		}
		if (edit == SIZE_MAX) {
			aa_op *op = aa_changeset_add(y->cs, AA_OP_EDIT,
						     pos_at(y, c->line));

			if (!op || !(op->path = aa_strdup(path))) {
				r = oom(y, c->line);
				break;
			}
			op->format = "ap";
			op->edit_kind = AA_EDIT_AP;
			op->strip_trailing_ws = 1;
			edit = y->cs->n - 1;
		}
		r = emit_apmod(y, &y->cs->ops[edit], m);
	}
	free(path);
	return r;
}

static const char *const change_keys[] = {
	"file_path", "modifications", "newline"
};

static int read_change_value(yreader *y, void *arg, int key)
{
	change_fields *c = arg;

	if (key == 1)
		return read_mods(y, c);
	if (key == 2)
		return read_newline(y, c);
	if (read_string(y, "file_path", &c->file_path) < 0)
		return -1;
	c->path_mark = y->ev.start_mark;
	return 0;
}

/* At the MAPPING_START of a file change: reads it and emits its ops. */
static int read_change(yreader *y, void *unused)
{
	change_fields c;
	unsigned seen = 0;
	int r = -1;

	(void)unused;
	memset(&c, 0, sizeof(c));
	c.line = input_line(y, y->ev.start_mark);
	if (read_mapping(y, change_keys, 3, &seen, "a file change",
			 read_change_value, &c) < 0)
		goto out;
	if (!c.file_path)
		aa_error(y->d, pos_at(y, c.line), NULL, "file change has no 'file_path'");
	else if (!c.have_mods)
		aa_error(y->d, pos_at(y, c.line), NULL,
			 "file change for %s has no 'modifications'",
			 aa_qpath(c.file_path));
	else
		r = emit_change(y, &c);
out:
	change_free(&c);
	return r;
}

/* ---------- the document ---------- */

static int read_changes(yreader *y)
{
	return read_mappings(y, "changes", "change", read_change, NULL);
}

static int read_version(yreader *y)
{
	if (next_event(y) < 0)
		return -1;
	if (!is_scalar(y) || strcmp(scalar_text(y), "2.0") ||
	    y->ev.data.scalar.length != 3)
		return err_at(y, y->ev.start_mark,
			      "unsupported ap version%s%s (only \"2.0\")",
			      is_scalar(y) ? " " : "",
			      is_scalar(y) ? aa_qtext(scalar_text(y),
						      y->ev.data.scalar.length, 40) : "");
	return 0;
}

static const char *const root_keys[] = { "version", "changes" };

static int read_root_value(yreader *y, void *unused, int key)
{
	(void)unused;
	return key == 0 ? read_version(y) : read_changes(y);
}

static int read_root(yreader *y)
{
	long line = input_line(y, y->ev.start_mark);
	unsigned seen = 0;

	if (read_mapping(y, root_keys, 2, &seen, "the ap document",
			 read_root_value, NULL) < 0)
		return -1;
	if (!(seen & 1))
		return aa_error(y->d, pos_at(y, line), NULL,
				"ap document has no 'version' (must be \"2.0\")");
	if (!(seen & 2))
		return aa_error(y->d, pos_at(y, line), NULL,
				"ap document has no 'changes'");
	return 0;
}

static int read_stream(yreader *y)
{
	if (expect_event(y, YAML_STREAM_START_EVENT, "not a YAML stream") < 0 ||
	    next_event(y) < 0)
		return -1;
	if (y->ev.type == YAML_STREAM_END_EVENT)
		return aa_error(y->d, pos_at(y, y->b->line), NULL,
				"empty ap document (no YAML content)");
	if (y->ev.type != YAML_DOCUMENT_START_EVENT)
		return err_at(y, y->ev.start_mark, "not a YAML document");
	if (next_event(y) < 0)
		return -1;
	if (y->ev.type != YAML_MAPPING_START_EVENT)
		return err_at(y, y->ev.start_mark,
			      "the ap document must be a mapping, not %s",
			      event_kind(y));
	if (read_root(y) < 0 ||
	    expect_event(y, YAML_DOCUMENT_END_EVENT, "expected the end of the document") < 0 ||
	    expect_event(y, YAML_STREAM_END_EVENT,
			 "more than one YAML document; an ap block holds exactly one") < 0)
		return -1;
	return 0;
}

int aa_parse_ap(const aa_block *b, const aa_parse_opts *o,
		aa_changeset *cs, aa_diags *d)
{
	yreader y = { .b = b, .cs = cs, .d = d };
	size_t first = cs->n, skip;
	int r;

	(void)o;
	if (b->len > AA_MAX_INPUT_SIZE)
		return aa_error(d, pos_at(&y, b->line), NULL,
				"ap document too large (%zu bytes)", b->len);
	if (!yaml_parser_initialize(&y.parser))
		return oom(&y, b->line);
	/*
	 * A UTF-8 BOM is dropped here: with the encoding forced, libyaml
	 * would count it as a column and misread the indentation.
	 */
	skip = b->len >= 3 && !memcmp(b->data, "\xef\xbb\xbf", 3) ? 3 : 0;
	y.data = b->data + skip;
	y.len = b->len - skip;
	yaml_parser_set_input_string(&y.parser, (const unsigned char *)y.data,
				     y.len);
	yaml_parser_set_encoding(&y.parser, YAML_UTF8_ENCODING);
	r = read_stream(&y);
	if (y.have_ev)
		yaml_event_delete(&y.ev);
	yaml_parser_delete(&y.parser);
	if (r < 0) {
		/* Nothing half-parsed stays in the change set. */
		aa_changeset_truncate(cs, first);
		return -1;
	}
	return (int)(cs->n - first);
}
