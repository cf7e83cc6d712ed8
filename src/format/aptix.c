/*
 * aptix (Documentation/format-aptix.md): a JSON document with a file
 * bundle (`files`) and/or a
 * structured patch (`patches`: literal find/replace). The block is the
 * content of one ```json fence or a bare JSON document; the extractor
 * finds the fences and sends ```patch blocks to the diff parser.
 *
 * cJSON parses; before it does, one pass over the bytes refuses what cJSON
 * would get wrong (deep nesting, NUL characters that would truncate a
 * string) and records the input line of every JSON value, so errors and
 * operations can name the line of the entry they come from.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "format/format.h"
#include "change/path.h"
#include "format/lines.h"
#include "util/util.h"

/* Positions of more values than this are not recorded (memory bound). */
#define MAX_RECORDED_VALUES (1u << 20)

/* Input lines of one JSON value and of its key (0 when in an array). */
typedef struct value_line {
	long key;
	long val;
} value_line;

/* A cJSON item and its index in document order. */
typedef struct item_index {
	uintptr_t item;
	size_t idx;
} item_index;

typedef struct jdoc {
	const aa_block *b;
	const aa_parse_opts *o;
	aa_changeset *cs;
	aa_diags *d;
	char *text;          /* NUL-terminated copy of the block */
	size_t len;
	value_line *vals;    /* every value's lines, in document order */
	size_t nvals, cap;
	int vals_ok;         /* vals are complete and usable */
	item_index *map;     /* sorted by item, for item -> vals[] */
	size_t nmap;
	char *root;          /* directory prefix from `root`, or NULL */
	int failed;          /* an error was reported; keep checking */
} jdoc;

/* ---------- positions ---------- */

static aa_pos pos_at(const jdoc *j, long line)
{
	aa_pos p = { j->b->in ? j->b->in->name : NULL, line ? line : j->b->line };

	return p;
}

static int record_value(jdoc *j, long key_line, long val_line)
{
	if (!j->vals_ok)
		return 0;
	if (j->nvals == MAX_RECORDED_VALUES) {
		/* Too many to track: fall back to the block's line. */
		j->vals_ok = 0;
		return 0;
	}
	if (AA_GROW(j->vals, j->nvals, j->cap) < 0)
		return -1;
	j->vals[j->nvals].key = key_line;
	j->vals[j->nvals].val = val_line;
	j->nvals++;
	return 0;
}

/* 1-based column of byte `off` on its line, counted in UTF-8 characters. */
static long column_of(const char *text, size_t off)
{
	size_t i = off;
	long col = 1;

	while (i > 0 && text[i - 1] != '\n')
		i--;
	for (; i < off; i++)
		if (((unsigned char)text[i] & 0xC0) != 0x80)
			col++;
	return col;
}

static long line_of(const jdoc *j, size_t off)
{
	aa_linemap m;
	long line;

	aa_linemap_init(&m, j->text, j->len, j->b->line);
	line = aa_linemap_line(&m, off);
	aa_linemap_free(&m);
	return line;
}

static int scan_error(jdoc *j, size_t off, const char *what)
{
	long line = line_of(j, off);

	return aa_error(j->d, pos_at(j, line), NULL, "%s (line %ld, column %ld)",
			what, line, column_of(j->text, off));
}

/* True when s[i..] is the escape body "u0000" (s[i] follows a backslash). */
static int is_nul_escape(const char *s, size_t i, size_t len)
{
	return i + 5 <= len && s[i] == 'u' && !memcmp(s + i + 1, "0000", 4);
}

/*
 * One pass over the JSON text, outside cJSON: refuses nesting deeper
 * than AA_MAX_NEST_DEPTH (cJSON allows 1000) and NUL characters (cJSON
 * strings are NUL-terminated and would silently truncate), and records
 * the line of every value and of its key in document order. It trusts
 * nothing: on invalid JSON the recorded lines are discarded later when
 * they do not match cJSON's tree.
 */
static int prescan(jdoc *j)
{
	char stack[AA_MAX_NEST_DEPTH];
	int depth = 0, in_str = 0, in_scalar = 0, expect_key = 0;
	long line = j->b->line, key_line = 0;
	const char *s = j->text;
	size_t i = 0;

	if (j->len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
		i = 3;  /* cJSON skips a UTF-8 BOM too */
	for (; i < j->len; i++) {
		char c = s[i];
		int in_object = depth > 0 && stack[depth - 1] == '{';

		if (c == '\0')
			return scan_error(j, i, "NUL byte in JSON input not supported");
		if (c == '\n')
			line++;
		if (in_str) {
			if (c == '\\' && i + 1 < j->len) {
				if (is_nul_escape(s, i + 1, j->len))
					return scan_error(j, i, "NUL character in JSON string not supported");
				if (s[i + 1] == '\n')
					line++;
				i++;
			} else if (c == '"') {
				in_str = 0;
			}
			continue;
		}
		switch (c) {
		case '"':
			in_scalar = 0;
			in_str = 1;
			if (in_object && expect_key) {
				key_line = line;
				break;
			}
			if (record_value(j, in_object ? key_line : 0, line) < 0)
				return -1;
			break;
		case '{':
		case '[':
			in_scalar = 0;
			if (record_value(j, in_object ? key_line : 0, line) < 0)
				return -1;
			if (depth == AA_MAX_NEST_DEPTH)
				return scan_error(j, i, "JSON nested too deeply (more than "
						  "64 levels)");
			stack[depth++] = c;
			expect_key = c == '{';
			break;
		case '}':
		case ']':
			in_scalar = 0;
			expect_key = 0;
			if (depth)
				depth--;
			break;
		case ',':
			in_scalar = 0;
			expect_key = in_object;
			break;
		case ':':
			in_scalar = 0;
			expect_key = 0;
			break;
		case ' ':
		case '\t':
		case '\r':
		case '\n':
			in_scalar = 0;
			break;
		default:
			/* number, true, false, null: one value per run */
			if (!in_scalar && record_value(j, in_object ? key_line : 0, line) < 0)
				return -1;
			in_scalar = 1;
			break;
		}
	}
	return 0;
}

static int map_add(jdoc *j, const cJSON *it, size_t *count)
{
	for (; it; it = it->next) {
		if (*count < j->nvals) {
			j->map[*count].item = (uintptr_t)it;
			j->map[*count].idx = *count;
		}
		(*count)++;
		if (map_add(j, it->child, count) < 0)
			return -1;
	}
	return 0;
}

static int cmp_item(const void *a, const void *b)
{
	uintptr_t x = ((const item_index *)a)->item;
	uintptr_t y = ((const item_index *)b)->item;

	return x < y ? -1 : x > y;
}

/*
 * Maps cJSON items to the recorded lines: cJSON builds its tree in
 * document order, so a pre-order walk meets values in the order the
 * prescan recorded them. Any disagreement in count disables positions.
 */
static int build_map(jdoc *j, const cJSON *root)
{
	size_t count = 0;

	if (!j->vals_ok || !j->nvals)
		return 0;
	j->map = malloc(j->nvals * sizeof(*j->map));
	if (!j->map)
		return -1;
	/* recursion depth is bounded by the prescan's nesting limit */
	map_add(j, root, &count);
	if (count != j->nvals) {
		j->vals_ok = 0;
		return 0;
	}
	j->nmap = count;
	qsort(j->map, j->nmap, sizeof(*j->map), cmp_item);
	return 0;
}

static const value_line *lines_of(const jdoc *j, const cJSON *it)
{
	item_index key = { (uintptr_t)it, 0 };
	const item_index *hit;

	if (!j->vals_ok || !j->nmap || !it)
		return NULL;
	hit = bsearch(&key, j->map, j->nmap, sizeof(*j->map), cmp_item);
	return hit ? &j->vals[hit->idx] : NULL;
}

/* The input line of a value (the block's first line when unknown). */
static long val_line(const jdoc *j, const cJSON *it)
{
	const value_line *v = lines_of(j, it);

	return v ? v->val : j->b->line;
}

/* The input line of a member's key (its value's line when unknown). */
static long key_line(const jdoc *j, const cJSON *it)
{
	const value_line *v = lines_of(j, it);

	if (!v)
		return j->b->line;
	return v->key ? v->key : v->val;
}

/* ---------- members ---------- */

static int fail(jdoc *j, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Reports an error and remembers it; returns -1. */
static int fail(jdoc *j, long line, const char *fmt, ...)
{
	va_list ap;

	j->failed = 1;
	va_start(ap, fmt);
	aa_diag_addv(j->d, AA_DIAG_ERROR, pos_at(j, line), NULL, fmt, ap);
	va_end(ap);
	return -1;
}

static int is_present(const cJSON *it)
{
	return it && !cJSON_IsNull(it);
}

/* Input text for a message: quoted, at most 60 bytes (common.h). */
static const char *show(const char *in)
{
	return aa_qtext(in, strlen(in), 60);
}

/*
 * Collects the members of object `obj` named in known[] (case-sensitive)
 * into out[]; a duplicate key is an error (which one would win is not
 * obvious), an unknown key a warning. JSON null counts as absent.
 */
static int get_members(jdoc *j, const cJSON *obj, const char *loc,
		       const char *const *known, size_t nknown,
		       const cJSON **out)
{
	const cJSON *it;
	size_t k;
	int r = 0;

	for (k = 0; k < nknown; k++)
		out[k] = NULL;
	for (it = obj->child; it; it = it->next) {
		const char *name = it->string ? it->string : "";

		for (k = 0; k < nknown; k++)
			if (!strcmp(name, known[k]))
				break;
		if (k == nknown) {
			aa_warn(j->d, pos_at(j, key_line(j, it)), NULL,
				"%s%sunknown key %s ignored", loc,
				*loc ? ": " : "", show(name));
		} else if (out[k]) {
			r = fail(j, key_line(j, it), "%s%sduplicate key %s",
				 loc, *loc ? ": " : "", show(name));
		} else {
			out[k] = it;
		}
	}
	return r;
}

/* *s = the string value of member `key`; NULL when absent and optional. */
static int get_string(jdoc *j, const cJSON *obj, const char *loc,
		      const char *key, const cJSON *it, int required,
		      const char **s)
{
	*s = NULL;
	if (!is_present(it)) {
		if (!required)
			return 0;
		return fail(j, it ? key_line(j, it) : val_line(j, obj),
			    "%s.%s: missing (a string is required)", loc, key);
	}
	if (!cJSON_IsString(it) || !it->valuestring)
		return fail(j, key_line(j, it), "%s.%s: must be a string",
			    loc, key);
	*s = it->valuestring;
	return 0;
}

/* ---------- paths ---------- */

/* `root`: "", "." and "./" mean the top; one trailing '/' is allowed. */
static int set_root(jdoc *j, const cJSON *it)
{
	const char *s, *why = NULL;
	size_t len;

	if (!is_present(it))
		return 0;
	if (!cJSON_IsString(it) || !it->valuestring)
		return fail(j, key_line(j, it), "root: must be a string");
	s = it->valuestring;
	len = strlen(s);
	if (!*s || !strcmp(s, ".") || !strcmp(s, "./"))
		return 0;
	if (len > 1 && s[len - 1] == '/')
		len--;
	if (aa_path_check(s, len, &why) < 0)
		return fail(j, key_line(j, it), "root: invalid directory %s: %s",
			    aa_qpath(s), why ? why : "invalid");
	j->root = aa_strndup(s, len);
	if (!j->root)
		return fail(j, key_line(j, it), "out of memory");
	return 0;
}

/* The validated repository path of an entry's `path` under root. */
static int entry_path(jdoc *j, const cJSON *entry, const cJSON *it,
		      const char *loc, char **out)
{
	const char *s, *why = NULL, *clean;
	size_t len;
	char *joined;

	*out = NULL;
	if (get_string(j, entry, loc, "path", it, 1, &s) < 0)
		return -1;
	/* the path itself first (an empty one would name the root); "./x"
	 * and absolute paths as every format takes them (path.h) */
	if (aa_path_answer(s, strlen(s), &clean, &len, &why) < 0)
		return fail(j, key_line(j, it), "%s.path: invalid path %s: %s",
			    loc, aa_qpath(s), why ? why : "invalid");
	if (clean[0] == '/') { /* the planner takes it relative to the work tree */
		if (!(*out = aa_strdup(clean)))
			return fail(j, key_line(j, it), "out of memory");
		return 0;
	}
	joined = aa_path_join(j->root, clean);
	if (!joined)
		return fail(j, key_line(j, it), "out of memory");
	if (aa_path_check(joined, strlen(joined), &why) < 0) {
		free(joined);
		return fail(j, key_line(j, it), "%s.path: invalid path %s: %s",
			    loc, aa_qpath(s), why ? why : "invalid");
	}
	*out = joined;
	return 0;
}

/* ---------- operations ---------- */

static aa_op *new_op(jdoc *j, aa_op_kind kind, const cJSON *entry, char **path)
{
	aa_op *op = aa_changeset_add(j->cs, kind, pos_at(j, val_line(j, entry)));

	if (!op) {
		fail(j, val_line(j, entry), j->cs->n >= AA_MAX_OPS ?
		     "too many operations" : "out of memory");
		return NULL;
	}
	op->path = *path;
	*path = NULL;
	op->format = "aptix";
	return op;
}

static int add_write(jdoc *j, const cJSON *entry, const char *loc,
		     const cJSON *content, const char *opname, aa_exist exist,
		     char **path)
{
	const char *s;
	aa_op *op;

	if (!is_present(content))
		return fail(j, content ? key_line(j, content) : val_line(j, entry),
			    "%s.content: missing (required for operation \"%s\")",
			    loc, opname);
	if (get_string(j, entry, loc, "content", content, 1, &s) < 0)
		return -1;
	op = new_op(j, AA_OP_WRITE, entry, path);
	if (!op)
		return -1;
	op->exist = exist;
	op->content_len = strlen(s);
	op->content = aa_strndup(s, op->content_len);
	if (!op->content)
		return fail(j, val_line(j, entry), "out of memory");
	return 0;
}

static int add_delete(jdoc *j, const cJSON *entry, char **path)
{
	return new_op(j, AA_OP_DELETE, entry, path) ? 0 : -1;
}

static const char *const repl_keys[] = { "find", "replace", "limit" };
enum { R_FIND, R_REPLACE, R_LIMIT, R_NKEYS };

static int add_one_repl(jdoc *j, aa_op *op, const cJSON *it, const char *loc)
{
	const cJSON *m[R_NKEYS];
	const char *find, *repl, *limit;
	aa_repl *r;
	int all = 0;

	if (!cJSON_IsObject(it))
		return fail(j, val_line(j, it), "%s: must be an object", loc);
	if (get_members(j, it, loc, repl_keys, R_NKEYS, m) < 0 ||
	    get_string(j, it, loc, "find", m[R_FIND], 1, &find) < 0 ||
	    get_string(j, it, loc, "replace", m[R_REPLACE], 1, &repl) < 0 ||
	    get_string(j, it, loc, "limit", m[R_LIMIT], 0, &limit) < 0)
		return -1;
	if (!*find)
		return fail(j, key_line(j, m[R_FIND]), "%s.find: must not be empty",
			    loc);
	if (limit && !strcmp(limit, "all"))
		all = 1;
	else if (limit && strcmp(limit, "once"))
		return fail(j, key_line(j, m[R_LIMIT]),
			    "%s.limit: unknown limit %s (\"once\" or \"all\")",
			    loc, show(limit));
	r = aa_op_add_repl(op, pos_at(j, val_line(j, it)));
	if (!r)
		return fail(j, val_line(j, it), "out of memory");
	/* no NUL can be inside (prescan), so strlen is the exact length */
	r->find_len = strlen(find);
	r->replace_len = strlen(repl);
	r->find = aa_strndup(find, r->find_len);
	r->replace = aa_strndup(repl, r->replace_len);
	r->all = all;
	if (!r->find || !r->replace)
		return fail(j, val_line(j, it), "out of memory");
	return 0;
}

/* One AA_OP_EDIT with every replacement of `arr` (an entry's `replacements`). */
static int add_replacements(jdoc *j, const cJSON *entry, const char *loc,
			    const cJSON *arr, char **path)
{
	char rloc[96];
	const cJSON *it;
	size_t i = 0;
	aa_op *op;
	int r = 0;

	if (!is_present(arr))
		return fail(j, arr ? key_line(j, arr) : val_line(j, entry),
			    "%s.replacements: missing (an array is required)",
			    loc);
	if (!cJSON_IsArray(arr))
		return fail(j, key_line(j, arr), "%s.replacements: must be an array",
			    loc);
	if (!arr->child) {
		aa_warn(j->d, pos_at(j, key_line(j, arr)), *path,
			"%s.replacements: empty; entry ignored", loc);
		return 0;
	}
	op = new_op(j, AA_OP_EDIT, entry, path);
	if (!op)
		return -1;
	op->edit_kind = AA_EDIT_REPLACEMENTS;
	for (it = arr->child; it; it = it->next, i++) {
		snprintf(rloc, sizeof(rloc), "%s.replacements[%zu]", loc, i);
		if (add_one_repl(j, op, it, rloc) < 0)
			r = -1;
	}
	return r;
}

/* "gitPatch": the entry's diff text is a unified/git diff for its path. */
static int add_git_patch(jdoc *j, const cJSON *entry, const char *loc,
			 const cJSON *content, const cJSON *patch, char **path)
{
	const cJSON *src = is_present(content) ? content : patch;
	const char *s;
	aa_block inner;
	size_t first = j->cs->n, k;
	int n;

	if (!is_present(src))
		return fail(j, val_line(j, entry),
			    "%s: operation \"gitPatch\" needs the diff in \"content\" "
			    "(or \"patch\")", loc);
	if (get_string(j, entry, loc, src == content ? "content" : "patch", src,
		       1, &s) < 0)
		return -1;
	inner.in = j->b->in;
	inner.data = s;
	inner.len = strlen(s);
	/* a JSON string is one input line: its diff lines share it */
	inner.line = val_line(j, src);
	n = aa_parse_diff(&inner, j->o, *path, j->cs, j->d);
	free(*path);
	*path = NULL;
	if (n < 0) {
		j->failed = 1;
		return -1;
	}
	for (k = first; k < j->cs->n; k++)
		j->cs->ops[k].format = "aptix";
	return 0;
}

static const char *const file_keys[] = {
	"path", "content", "operation", "replacements", "patch"
};
enum { F_PATH, F_CONTENT, F_OPERATION, F_REPLACEMENTS, F_PATCH, F_NKEYS };

static int add_file_entry(jdoc *j, const cJSON *entry, const char *loc)
{
	const cJSON *m[F_NKEYS];
	const char *opname;
	char *path = NULL;
	int r;

	if (!cJSON_IsObject(entry))
		return fail(j, val_line(j, entry), "%s: must be an object", loc);
	if (get_members(j, entry, loc, file_keys, F_NKEYS, m) < 0 ||
	    get_string(j, entry, loc, "operation", m[F_OPERATION], 0, &opname) < 0 ||
	    entry_path(j, entry, m[F_PATH], loc, &path) < 0)
		return -1;
	if (!opname)
		r = add_write(j, entry, loc, m[F_CONTENT], "create or replace",
			      AA_EXIST_ANY, &path);
	else if (!strcmp(opname, "create"))
		r = add_write(j, entry, loc, m[F_CONTENT], opname, AA_EXIST_NEW, &path);
	else if (!strcmp(opname, "replace"))
		r = add_write(j, entry, loc, m[F_CONTENT], opname, AA_EXIST_MUST, &path);
	else if (!strcmp(opname, "delete"))
		r = add_delete(j, entry, &path);
	else if (!strcmp(opname, "patch"))
		r = add_replacements(j, entry, loc, m[F_REPLACEMENTS], &path);
	else if (!strcmp(opname, "gitPatch"))
		r = add_git_patch(j, entry, loc, m[F_CONTENT], m[F_PATCH], &path);
	else
		r = fail(j, key_line(j, m[F_OPERATION]),
			 "%s.operation: unknown operation %s (create, replace, "
			 "delete, patch or gitPatch)", loc, show(opname));
	free(path);
	return r;
}

static const char *const patch_keys[] = { "path", "replacements" };
enum { P_PATH, P_REPLACEMENTS, P_NKEYS };

static int add_patch_entry(jdoc *j, const cJSON *entry, const char *loc)
{
	const cJSON *m[P_NKEYS];
	char *path = NULL;
	int r;

	if (!cJSON_IsObject(entry))
		return fail(j, val_line(j, entry), "%s: must be an object", loc);
	if (get_members(j, entry, loc, patch_keys, P_NKEYS, m) < 0 ||
	    entry_path(j, entry, m[P_PATH], loc, &path) < 0)
		return -1;
	r = add_replacements(j, entry, loc, m[P_REPLACEMENTS], &path);
	free(path);
	return r;
}

/* `files` or `patches`: every entry is checked, so all errors are reported. */
static void add_entries(jdoc *j, const cJSON *arr, const char *name,
			int (*add)(jdoc *, const cJSON *, const char *))
{
	char loc[64];
	const cJSON *it;
	size_t i = 0;

	if (!cJSON_IsArray(arr)) {
		fail(j, key_line(j, arr), "%s: must be an array", name);
		return;
	}
	for (it = arr->child; it; it = it->next, i++) {
		snprintf(loc, sizeof(loc), "%s[%zu]", name, i);
		add(j, it, loc);
	}
}

static const char *const top_keys[] = { "root", "files", "patches" };
enum { T_ROOT, T_FILES, T_PATCHES, T_NKEYS };

static void add_document(jdoc *j, const cJSON *doc)
{
	const cJSON *m[T_NKEYS], *it;

	if (!cJSON_IsObject(doc)) {
		fail(j, val_line(j, doc), "aptix JSON must be an object with "
		     "\"files\" or \"patches\"");
		return;
	}
	if (get_members(j, doc, "", top_keys, T_NKEYS, m) < 0 ||
	    set_root(j, m[T_ROOT]) < 0)
		return;
	if (!is_present(m[T_FILES]) && !is_present(m[T_PATCHES])) {
		fail(j, val_line(j, doc), "aptix JSON has neither \"files\" nor "
		     "\"patches\"");
		return;
	}
	/* document order: operations apply in the order they are written */
	for (it = doc->child; it; it = it->next) {
		if (it == m[T_FILES])
			add_entries(j, it, "files", add_file_entry);
		else if (it == m[T_PATCHES])
			add_entries(j, it, "patches", add_patch_entry);
	}
}

/* ---------- parse ---------- */

/*
 * cJSON's error pointer: where it stopped. When nothing but white space
 * follows the token it stopped at, the document was cut short.
 */
static int report_syntax_error(jdoc *j, const char *at)
{
	size_t off = j->len, last = j->len, n = 0;
	char what[96];

	if (at && at >= j->text && at < j->text + j->len)
		off = (size_t)(at - j->text);
	while (last > 0 && strchr(" \t\r\n", j->text[last - 1]))
		last--;
	if (off + 1 >= last)
		return scan_error(j, last, "invalid JSON: unexpected end of input");
	while (off + n < j->len && n < 23 &&
	       j->text[off + n] != '\n' && j->text[off + n] != '\r')
		n++;
	snprintf(what, sizeof(what), "invalid JSON near %s",
		 aa_qtext(j->text + off, n, n));
	return scan_error(j, off, what);
}

/* Anything but white space after the document is an error. */
static int check_trailing(jdoc *j, const char *end)
{
	size_t off;

	if (!end || end < j->text || end > j->text + j->len)
		return 0;
	for (off = (size_t)(end - j->text); off < j->len; off++)
		if (!strchr(" \t\r\n", j->text[off]))
			return scan_error(j, off, "invalid JSON: text after the document");
	return 0;
}

static void jdoc_free(jdoc *j)
{
	free(j->text);
	free(j->vals);
	free(j->map);
	free(j->root);
}

int aa_parse_aptix(const aa_block *b, const aa_parse_opts *o,
		   aa_changeset *cs, aa_diags *d)
{
	jdoc j = { .b = b, .o = o, .cs = cs, .d = d, .vals_ok = 1 };
	cJSON *doc = NULL;
	const char *end = NULL;
	size_t first = cs->n;
	int r = -1;

	if (b->len > AA_MAX_INPUT_SIZE)
		return aa_error(d, pos_at(&j, 0), NULL,
				"JSON block too large (%zu bytes)", b->len);
	j.len = b->len;
	j.text = malloc(b->len + 1);
	if (!j.text)
		return aa_error(d, pos_at(&j, 0), NULL, "out of memory");
	if (b->len)
		memcpy(j.text, b->data, b->len);
	j.text[b->len] = '\0';

	if (prescan(&j) < 0)
		goto out;
	doc = cJSON_ParseWithLengthOpts(j.text, j.len, &end, 0);
	if (!doc) {
		report_syntax_error(&j, end);
		goto out;
	}
	if (check_trailing(&j, end) < 0)
		goto out;
	if (build_map(&j, doc) < 0) {
		aa_error(d, pos_at(&j, 0), NULL, "out of memory");
		goto out;
	}
	add_document(&j, doc);
	if (!j.failed)
		r = (int)(cs->n - first);
out:
	if (r < 0)
		aa_changeset_truncate(cs, first);
	cJSON_Delete(doc);
	jdoc_free(&j);
	return r;
}
