/*
 * whole-file: a fenced block that names its file replaces or creates it.
 *
 *   app/x.py                    the line before the fence (or `**app/x.py**`,
 *   ```python                   `` `app/x.py` ``, `File: app/x.py`), the info
 *   ...the whole file...        string (```` ```app/x.py ````,
 *   ```                         ```` ```python:app/x.py ````,
 *                               ```` ```python title="app/x.py" ````), or a
 *                               first-line comment (`# app/x.py`), or a
 *                               sentence naming one path in a code span:
 *                               "Update `app/x.py` as follows:"
 *
 * A fence with no path is prose: a code sample is not an edit. When two
 * of those places name different paths, the block is refused as
 * ambiguous. A first-line comment that names the path is content of a
 * new file and of a file that starts with it; in any other existing file
 * it was the answer's label, and the planner leaves it out. Content with elision lines ("// ... existing code ...")
 * becomes an AA_EDIT_ELIDE edit, resolved against the original by
 * src/edit/elide.c (never written literally); other content is a plain
 * write (create or replace).
 */
#include <stdlib.h>
#include <string.h>

#include "edit/elision.h"
#include "format/format.h"
#include "format/label.h"
#include "format/parsers.h"
#include "util/util.h"

/* A first-line comment that is a path: `// p`, `# p`, `<!-- p -->`, `-- p`. */
static int comment_path(const char *s, size_t n, const char **path,
			size_t *len)
{
	static const char *const open[] = { "//", "#", "/*", "<!--", "--", ";" };
	static const char *const close[] = { "*/", "-->" };
	const char *nl = memchr(s, '\n', n);
	size_t l = nl ? (size_t)(nl - s) : n, i, k;

	while (l && aa_is_blank_cr(s[l - 1]))
		l--;
	for (i = 0; i < sizeof(open) / sizeof(*open); i++)
		if (aa_starts_with(s, l, open[i]))
			break;
	if (i == sizeof(open) / sizeof(*open))
		return 0;
	k = strlen(open[i]);
	for (i = 0; i < sizeof(close) / sizeof(*close); i++) {
		size_t c = strlen(close[i]);

		if (l >= k + c && !memcmp(s + l - c, close[i], c)) {
			l -= c;
			break;
		}
	}
	if (!aa_label_path(s + k, l - k, path, len))
		return 0;
	/*
	 * "# README" or "# LICENSE" is a Markdown heading as often as a
	 * label: a bare well-known name counts on the line before a fence,
	 * not as a first-line comment.
	 */
	return memchr(*path, '.', *len) || memchr(*path, '/', *len);
}

typedef struct found {
	const char *path;
	size_t len;
	const char *where;
	int ambiguous;
	const char *other;
	size_t other_len;
	const char *other_where;
} found;

static void consider(found *f, const char *p, size_t len, const char *where)
{
	if (!f->path) {
		f->path = p;
		f->len = len;
		f->where = where;
	} else if (!f->ambiguous && (len != f->len || memcmp(p, f->path, len))) {
		f->ambiguous = 1;
		f->other = p;
		f->other_len = len;
		f->other_where = where;
	}
}

/* Where a path came from when only a sentence named it (label.c). */
static const char SENTENCE[] = "the sentence before the fence";

static void find_path(const aa_fence_view *fv, found *f)
{
	const char *p;
	size_t len;

	memset(f, 0, sizeof(*f));
	if (aa_info_path(fv->info, fv->info_len, &p, &len))
		consider(f, p, len, "the fence's info string");
	if (fv->label && aa_label_path(fv->label, fv->label_len, &p, &len))
		consider(f, p, len, "the line before the fence");
	if (comment_path(fv->data, fv->len, &p, &len))
		consider(f, p, len, "the first line's comment");
	/* weaker than the others: only when none of them names a file */
	if (!f->path && fv->label &&
	    aa_label_sentence_path(fv->label, fv->label_len, &p, &len))
		consider(f, p, len, SENTENCE);
}

int aa_whole_file_fits(const aa_fence_view *fv)
{
	found f;

	if (fv->lang == AA_LANG_DIFF)
		return 0;
	find_path(fv, &f);
	return f.path != NULL;
}

int aa_parse_whole_file(const aa_block *b, const aa_parse_opts *o,
			aa_changeset *cs, aa_diags *d)
{
	/* only fences (parse_fenced) carry a path */
	(void)b;
	(void)o;
	(void)cs;
	(void)d;
	return 0;
}

int aa_parse_whole_file_fenced(const aa_block *b, const aa_fence_view *fv,
			       const aa_parse_opts *o, aa_changeset *cs,
			       aa_diags *d)
{
	aa_pos pos = { b->in ? b->in->name : NULL, b->line };
	found f;
	const char *p;
	size_t len;
	char *path;
	aa_op *op;

	(void)o;
	find_path(fv, &f);
	if (!f.path)
		return 0;
	if (f.ambiguous)
		return aa_error(d, pos, NULL, "whole-file: the fence names two "
				"files: %s in %s and %s in %s; not applied",
				aa_qpathn(f.path, f.len), f.where,
				aa_qpathn(f.other, f.other_len), f.other_where);
	if (b->len > AA_MAX_TEXT_SIZE)
		return aa_error(d, pos, NULL, "whole-file: the content for %s is "
				"too large", aa_qpathn(f.path, f.len));
	path = aa_strndup(f.path, f.len);
	op = path ? aa_changeset_add(cs, AA_OP_WRITE, pos) : NULL;
	if (!op) {
		free(path);
		return aa_error(d, pos, NULL, "out of memory");
	}
	op->path = path;
	op->format = "whole-file";
	op->content = aa_strndup(b->data, b->len);
	op->content_len = b->len;
	if (!op->content) {
		aa_op_free(op);
		cs->n--;
		return aa_error(d, pos, NULL, "out of memory");
	}
	op->exist = AA_EXIST_ANY;
	op->may_be_excerpt = 1;
	/* named by a sentence alone: it must keep most of an existing file */
	op->label_in_prose = f.where == SENTENCE;
	if (comment_path(b->data, b->len, &p, &len)) {
		const char *nl = memchr(b->data, '\n', b->len);

		op->label_line_len = nl ? (size_t)(nl - b->data) + 1 : b->len;
	}
	if (aa_has_elision(b->data, b->len, path)) {
		/* never written as it stands: resolved against the original */
		op->kind = AA_OP_EDIT;
		op->edit_kind = AA_EDIT_ELIDE;
	}
	return 1;
}
