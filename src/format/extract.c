/*
 * Extraction: finds every change block of an input, whatever prose
 * surrounds it, detects each block's format and hands it to its parser,
 * in input order, so that one change set holds them all.
 *
 * It knows no format by name: it walks the registry
 * (src/format/registry.c). One pass over the lines, top level first:
 *   - a line where a row's `starts` holds begins an unfenced block of
 *     that format (a companion run, a file-changes region, a diff, ...),
 *     which runs to the row's region_end (its body is not scanned: a
 *     START-PATCH body holds `--- a/x` lines), or, with none, to the
 *     next line where another format's block starts;
 *   - a code fence (``` or ~~~, possibly indented) is one candidate
 *     block, given to the first row whose fits_fence takes its content,
 *     language tag, info string and the line before it; no row: prose.
 *     A fence around a `wrapped` row's region is only a wrapper: its
 *     lines are prose.
 * A whole input that a row's `whole` takes (a bare aptix JSON object,
 * an ap YAML document) is one block. With no block at all, a refusal sentence ("A patch
 * cannot be safely generated...") is quoted in an error.
 *
 * Nothing is skipped, nothing mistaken for content (Documentation/
 * formats.md, "Edit markers are never content"): in auto mode
 * the prose between blocks, every fence that is prose and every fence
 * that a `content` row (whole-file) would write are given to the one
 * edit-structure detector (src/format/markers.c); what it finds there,
 * no parser read, and the answer is refused naming the line.
 */
#include <stdlib.h>
#include <string.h>

#include "edit/elision.h"
#include "format/label.h"
#include "format/lines.h"
#include "format/markers.h"
#include "format/registry.h"
#include "util/util.h"

/* ---------- small text helpers ---------- */

static int ci_equal(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && aa_ci_starts_with(s, len, word);
}

/* ---------- JSON (for the messages about a bare document) ---------- */

/* ---------- code fences ---------- */

typedef struct fence {
	char ch;             /* '`' or '~' */
	size_t count;        /* length of the fence run */
	size_t indent;
	aa_fence_lang lang;
	const char *info;    /* the info string, trimmed */
	size_t info_len;
	size_t open;         /* offset of the opening line */
	size_t from, to;     /* content: [from, to) */
	size_t next;         /* after the closing line (or the end) */
	int closed;
} fence;

static aa_fence_lang lang_of(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && !aa_is_blank(s[n]) && s[n] != '{' && s[n] != ',')
		n++;
	if (!n)
		return AA_LANG_NONE;
	if (ci_equal(s, n, "diff") || ci_equal(s, n, "patch") ||
	    ci_equal(s, n, "udiff"))
		return AA_LANG_DIFF;
	if (ci_equal(s, n, "json") || ci_equal(s, n, "jsonc") ||
	    ci_equal(s, n, "json5"))
		return AA_LANG_JSON;
	if (ci_equal(s, n, "yaml") || ci_equal(s, n, "yml") || ci_equal(s, n, "ap"))
		return AA_LANG_YAML;
	return AA_LANG_OTHER;
}

/* An opening fence line: indentation, 3+ ` or ~, an optional tag. */
static int fence_opens(const char *s, size_t len, fence *f)
{
	size_t i = aa_indent_of(s, len), k = i, j;

	if (i >= len || (s[i] != '`' && s[i] != '~'))
		return 0;
	while (k < len && s[k] == s[i])
		k++;
	if (k - i < 3)
		return 0;
	if (s[i] == '`')
		for (j = k; j < len; j++)
			if (s[j] == '`')
				return 0;  /* inline code, not a fence */
	f->ch = s[i];
	f->count = k - i;
	f->indent = i;
	k += aa_indent_of(s + k, len - k);
	f->lang = lang_of(s + k, len - k);
	f->info = s + k;
	f->info_len = len - k;
	while (f->info_len && aa_is_blank(f->info[f->info_len - 1]))
		f->info_len--;
	return 1;
}

/*
 * A closing fence: the same character at least as many times, nothing
 * else, indented no deeper than the opening one (so that a diff context
 * line " ```" inside a ```diff block does not close it).
 */
static int fence_closes(const char *s, size_t len, const fence *f)
{
	size_t i = aa_indent_of(s, len), k = i;

	if (i > f->indent)
		return 0;
	while (k < len && s[k] == f->ch)
		k++;
	return k - i >= f->count && aa_indent_of(s + k, len - k) == len - k;
}

/*
 * The line at off starts a region that a fence of language `lang` only
 * wraps (companion, file-changes, ...: rows marked `wrapped`). A ```diff
 * fence is taken for its own content unless the row says otherwise.
 */
static int region_starts(const char *s, size_t n, size_t off,
			 aa_fence_lang lang)
{
	size_t i;

	for (i = 0; i < aa_format_nrows; i++) {
		const aa_format_row *r = &aa_format_rows[i];

		if (r->wrapped && r->starts &&
		    (lang != AA_LANG_DIFF || r->wrapped > 1) &&
		    r->starts(s, n, off))
			return 1;
	}
	return 0;
}

/*
 * The end of a body (a diff's hunk) that starts at the line off, whose
 * lines start no block: off when none starts there (registry body_end).
 */
static size_t body_end(const char *s, size_t n, size_t off, size_t indent)
{
	size_t i, end;

	for (i = 0; i < aa_format_nrows; i++)
		if (aa_format_rows[i].body_end &&
		    (end = aa_format_rows[i].body_end(s, n, off, indent)) > off)
			return end;
	return off;
}

/*
 * Fills f's content and end for the opening line l. With `regions`, the
 * search also stops at a line that starts a wrapped region: *region is
 * then its offset (else n).
 */
static void fence_extent(const char *s, size_t n, const aa_lspan *l, fence *f,
			 int regions, size_t *region)
{
	size_t off, body = 0;
	aa_lspan c;

	f->open = l->start;
	f->from = l->next;
	f->closed = 0;
	*region = n;
	for (off = l->next; off < n; off = c.next) {
		aa_lspan_at(s, n, off, &c);
		if (fence_closes(s + c.start, c.len, f)) {
			f->to = off;
			f->next = c.next;
			f->closed = 1;
			return;
		}
		/* a hunk's lines start no region (the fence still closes) */
		if (regions && off >= body && (body = body_end(s, n, off, f->indent)) > off)
			continue;
		if (regions && off >= body && region_starts(s, n, off, f->lang)) {
			*region = off;
			break;
		}
	}
	f->to = n;
	f->next = n;
}

/* ---------- the scan ---------- */

/* How many fences without a path "no change found" names. */
#define PLAIN_FENCES_SHOWN 5

typedef struct scan {
	const aa_input *in;
	const aa_parse_opts *o;
	aa_changeset *cs;
	aa_diags *d;
	const char *s;
	size_t n;
	int nblocks;        /* blocks in which a parser found a change */
	int failed;
	aa_linemap lines;
	/* --format=NAME scanning for one format's blocks only, else NULL */
	const aa_format_row *only;
	/* a fence that only wraps a region */
	int wrapper;
	fence wrap;
	/* auto: where the prose not yet checked for edit structure starts */
	size_t prose;
	/* the file of the last SEARCH/REPLACE block (aa_block.carried_path) */
	char *carried;
	/* fences no parser took (no path): the first few, for "no change" */
	size_t nplain;
	size_t plain_open[PLAIN_FENCES_SHOWN];
} scan;

static long line_of(scan *sc, size_t off)
{
	return aa_linemap_line(&sc->lines, off);
}

static aa_pos pos_at(scan *sc, size_t off)
{
	aa_pos p = { sc->in->name, line_of(sc, off) };

	return p;
}

/* ---- edit structure outside its format (formats.md, "Edit markers") ---- */

static const char *structure_hint(aa_structure k)
{
	switch (k) {
	case AA_STRUCT_SR:
		return "write \"<<<<<<< SEARCH\", \"=======\", \">>>>>>> REPLACE\", "
		       "each at the start of its line";
	case AA_STRUCT_CONFLICT:
		return "no format here reads such a block; write \"<<<<<<< SEARCH\","
		       " \"=======\", \">>>>>>> REPLACE\"";
	default:
		return "it is not read as one (indented, or cut short?)";
	}
}

/*
 * The text s[0..len) (input line `line` at s) holds an edit structure
 * that no parser read: an error naming its line, and 1. `what` says
 * where it stands; `content`: it would be written as a file.
 */
static int refuse_structure(scan *sc, const char *s, size_t len, long line,
			    const char *what, int content)
{
	aa_structure k;
	size_t at;
	aa_lspan l;
	aa_pos pos = { sc->in->name, line };

	if ((k = aa_edit_structure(s, len, content, &at)) == AA_STRUCT_NONE)
		return 0;
	aa_lspan_at(s, len, at, &l);
	pos.line += aa_count_lines(s, at);
	sc->failed = 1;
	aa_error(sc->d, pos, NULL, "%s holds %s, starting at %s, that no "
		 "parser read; an edit structure is never %s: %s%s; nothing is "
		 "applied", what, aa_structure_name(k),
		 aa_qtext(s + l.start, l.len, 80),
		 content ? "written as file content" : "skipped as prose",
		 structure_hint(k), content ? " (if it is the file's content, "
		 "give --format=whole-file)" : "");
	return 1;
}

/* Auto: the prose from sc->prose up to `to` holds no edit structure. */
static void check_prose(scan *sc, size_t to)
{
	if (!sc->only && sc->prose < to)
		refuse_structure(sc, sc->s + sc->prose, to - sc->prose,
				 line_of(sc, sc->prose), "the prose", 0);
	sc->prose = to;
}

/*
 * After a block that added operations: the file its last one edits is
 * carried to the next SEARCH/REPLACE block when that names none (as
 * Aider's current file). A block of any other format ends the carry.
 */
static void carry_path(scan *sc, const aa_op *last)
{
	free(sc->carried);
	sc->carried = NULL;
	if (last->path && last->format &&
	    !strcmp(last->format, "search-replace") &&
	    !(sc->carried = aa_strndup(last->path, strlen(last->path)))) {
		sc->failed = 1;
		aa_error(sc->d, pos_at(sc, 0), NULL, "out of memory");
	}
}

/*
 * Runs row's parser over the block b (data, len and line set); fv is
 * the fence it came from, or NULL.
 */
static void parse_block(scan *sc, const aa_format_row *row, aa_block *b,
			const aa_fence_view *fv)
{
	size_t before = sc->cs->n;
	int r;

	if (sc->only && sc->only != row)
		return;
	b->in = sc->in;
	b->carried_path = sc->carried;
	if (fv && row->parse_fenced)
		r = row->parse_fenced(b, fv, sc->o, sc->cs, sc->d);
	else
		r = row->parse(b, sc->o, sc->cs, sc->d);
	if (r < 0)
		sc->failed = 1;
	else if (r > 0)
		sc->nblocks++;
	if (sc->cs->n > before)
		carry_path(sc, &sc->cs->ops[sc->cs->n - 1]);
}

static void parse_span(scan *sc, const aa_format_row *row, const char *data,
		       size_t len, long line)
{
	aa_block b;

	memset(&b, 0, sizeof(b));
	b.data = data;
	b.len = len;
	b.line = line;
	parse_block(sc, row, &b, NULL);
}

static void parse_region(scan *sc, const aa_format_row *row, size_t from,
			 size_t to)
{
	parse_span(sc, row, sc->s + from, to - from, line_of(sc, from));
}

/*
 * A fence's content: a slice of the input, or for an indented fence (in
 * a list) a copy in *buf whose lines lose up to the fence's indentation,
 * as in Markdown. -1 on out-of-memory.
 */
static int fence_content(const scan *sc, const fence *fc, aa_buf *buf,
			 const char **data, size_t *len)
{
	size_t off, cut;
	aa_lspan l;

	*data = sc->s + fc->from;
	*len = fc->to - fc->from;
	if (!fc->indent)
		return 0;
	for (off = fc->from; off < fc->to; off = l.next) {
		aa_lspan_at(sc->s, fc->to, off, &l);
		cut = aa_indent_of(sc->s + off, l.next - off);
		if (cut > fc->indent)
			cut = fc->indent;
		if (aa_buf_put(buf, sc->s + off + cut, l.next - off - cut) < 0)
			return -1;
	}
	*data = buf->ptr ? buf->ptr : "";
	*len = buf->len;
	return 0;
}

/* The start of the line that ends right before `end` (end > 0). */
static size_t line_start_before(const scan *sc, size_t end)
{
	size_t start = end - 1;

	while (start > 0 && sc->s[start - 1] != '\n')
		start--;
	return start;
}

/* The line ending right before `end` is a fence delimiter line. */
static int fence_line_before(const scan *sc, size_t end)
{
	aa_lspan l;
	fence f;

	if (!end)
		return 0;
	aa_lspan_at(sc->s, sc->n, line_start_before(sc, end), &l);
	return fence_opens(sc->s + l.start, l.len, &f);
}

/*
 * The line that names the file a fence opening at `open` holds: the
 * last non-blank line before it, at most one blank line away. Fence
 * delimiter lines in between are passed over, as Aider does (it looks
 * up to three lines back): DeepSeek writes the path in a fence of its
 * own, right before the fence of the block. The line found past a
 * fence must be a path (aa_label_path) that is the only line of its
 * fence: the last line of a longer code block is never a label.
 * Returns its offset or (size_t)-1.
 */
static size_t label_before(const scan *sc, size_t open, aa_lspan *out)
{
	size_t end = open, start, blanks = 0, looked = 0;
	const char *p;
	size_t plen;
	fence f;

	while (end > 0 && blanks < 2 && looked < 3) {
		start = line_start_before(sc, end);
		aa_lspan_at(sc->s, sc->n, start, out);
		end = start;
		if (aa_indent_of(sc->s + out->start, out->len) == out->len) {
			blanks++;
			continue;
		}
		looked++;
		if (fence_opens(sc->s + out->start, out->len, &f))
			continue;
		if (looked == 1 ||
		    (aa_label_path(sc->s + out->start, out->len, &p, &plen) &&
		     fence_line_before(sc, start)))
			return start;
		return (size_t)-1;
	}
	return (size_t)-1;
}

/* The row whose fence this is (auto: detected; forced: fitting), or NULL. */
static const aa_format_row *fence_row(const scan *sc, const aa_fence_view *fv)
{
	size_t i;

	if (sc->only && sc->only->forced == AA_FORCED_FENCES)
		return sc->only->forced_fence(fv) ? sc->only : NULL;
	for (i = 0; i < aa_format_nrows; i++)
		if (aa_format_rows[i].fits_fence &&
		    aa_format_rows[i].fits_fence(fv))
			return &aa_format_rows[i];
	return NULL;
}

/*
 * Parses a fence's content when it is a change block. Returns 1 when it
 * went to a parser.
 */
static int parse_fence(scan *sc, const fence *fc)
{
	aa_buf buf = AA_BUF_INIT;
	aa_fence_view fv;
	const aa_format_row *row;
	aa_lspan lab;
	size_t at;
	aa_block b;

	memset(&fv, 0, sizeof(fv));
	if (fence_content(sc, fc, &buf, &fv.data, &fv.len) < 0) {
		aa_buf_free(&buf);
		sc->failed = 1;
		aa_error(sc->d, pos_at(sc, fc->from), NULL, "out of memory");
		return 0;
	}
	fv.lang = fc->lang;
	fv.info = fc->info;
	fv.info_len = fc->info_len;
	memset(&b, 0, sizeof(b));
	if ((at = label_before(sc, fc->open, &lab)) != (size_t)-1) {
		fv.label = sc->s + lab.start;
		fv.label_len = lab.len;
		fv.label_line = line_of(sc, at);
	}
	row = fence_row(sc, &fv);
	if (!sc->only && (!row || row->content) &&
	    refuse_structure(sc, fv.data, fv.len, line_of(sc, fc->from),
			     row ? "a fenced whole file" : "a code fence",
			     row != NULL)) {
		aa_buf_free(&buf);
		return 1;
	}
	if (row) {
		b.data = fv.data;
		b.len = fv.len;
		b.line = line_of(sc, fc->from);
		parse_block(sc, row, &b, &fv);
	} else if (sc->nplain++ < PLAIN_FENCES_SHOWN) {
		sc->plain_open[sc->nplain - 1] = fc->open;
	}
	aa_buf_free(&buf);
	return row != NULL;
}

/* Handles the fence opening at line l; returns where the scan goes on. */
static size_t scan_fence(scan *sc, fence *f, const aa_lspan *l)
{
	size_t region;

	fence_extent(sc->s, sc->n, l, f, 1, &region);
	if (region < sc->n) {
		/*
		 * A wrapper: the scan goes on at the region inside (what is
		 * before it is prose), and the closing fence is prose too.
		 */
		sc->wrapper = 1;
		sc->wrap = *f;
		return region;
	}
	parse_fence(sc, f);
	return f->next;
}

/* The row of an unfenced block starting at off (other than `not`), or NULL. */
static const aa_format_row *row_starting(const scan *sc, size_t off,
					 const aa_format_row *not)
{
	size_t i;

	for (i = 0; i < aa_format_nrows; i++)
		if (aa_format_rows[i].starts && &aa_format_rows[i] != not &&
		    aa_format_rows[i].starts(sc->s, sc->n, off))
			return &aa_format_rows[i];
	return NULL;
}

/*
 * End of an open-ended block of `row` (an unfenced diff): the next line
 * where a block of another format starts (the parser of an open-ended
 * block takes every block of its own format in it), outside the row's
 * bodies (a hunk's lines).
 */
static size_t next_block_start(scan *sc, size_t off, const aa_format_row *row)
{
	aa_lspan l;
	size_t body;
	fence f;

	aa_lspan_at(sc->s, sc->n, off, &l);
	for (off = l.next; off < sc->n; off = l.next) {
		aa_lspan_at(sc->s, sc->n, off, &l);
		/* a hunk's lines are content: no block starts among them */
		if (row->body_end && (body = row->body_end(sc->s, sc->n, off, 0)) > off) {
			l.next = body;
			continue;
		}
		if ((fence_opens(sc->s + l.start, l.len, &f) && !f.indent) ||
		    row_starting(sc, off, row))
			return off;
	}
	return sc->n;
}

/* One step of the top-level scan at the line starting at off. */
static size_t scan_line(scan *sc, size_t off)
{
	const aa_format_row *row;
	size_t end;
	aa_lspan l;
	fence f;

	aa_lspan_at(sc->s, sc->n, off, &l);
	if (sc->wrapper && fence_closes(sc->s + l.start, l.len, &sc->wrap)) {
		sc->wrapper = 0;
		return l.next;
	}
	if ((row = row_starting(sc, off, NULL)) != NULL) {
		check_prose(sc, off);
		end = row->region_end ? row->region_end(sc->s, sc->n, off) :
		      next_block_start(sc, off, row);
		if (end <= off)  /* a region is never empty */
			end = l.next;
		parse_region(sc, row, off, end);
		sc->prose = end;
		return end;
	}
	if (fence_opens(sc->s + l.start, l.len, &f)) {
		check_prose(sc, off);
		end = scan_fence(sc, &f, &l);
		sc->prose = end;
		return end;
	}
	return l.next;
}

/* The auto scan: every block, and the prose between them checked. */
static void scan_all(scan *sc)
{
	size_t off = 0;

	while (off < sc->n)
		off = scan_line(sc, off);
	check_prose(sc, sc->n);
}

/* ---------- --strict: one fenced diff ---------- */

/* The offset of the first line at or after off that is not blank. */
static size_t skip_blank_lines(const scan *sc, size_t off)
{
	aa_lspan l;

	for (; off < sc->n; off = l.next) {
		aa_lspan_at(sc->s, sc->n, off, &l);
		if (aa_indent_of(sc->s + l.start, l.len) != l.len)
			return off;
	}
	return sc->n;
}

/*
 * --strict takes an answer that is exactly one fenced diff: a ```diff
 * (```patch, ```udiff or a bare ```) fence at column 0, closed, with
 * nothing but blank lines around it. The fence is the chat's wrapping,
 * not part of the diff: its content is the input every rule of seed 004
 * checks (a fence line inside it, prose around it, a second fence or
 * another language stay forbidden). 1 with the content's extent.
 */
static int strict_one_fence(const scan *sc, size_t *from, size_t *to)
{
	size_t off = skip_blank_lines(sc, 0), region;
	aa_lspan l;
	fence f;

	if (off >= sc->n)
		return 0;
	aa_lspan_at(sc->s, sc->n, off, &l);
	if (!fence_opens(sc->s + l.start, l.len, &f) || f.indent ||
	    (f.lang != AA_LANG_DIFF && f.lang != AA_LANG_NONE))
		return 0;
	fence_extent(sc->s, sc->n, &l, &f, 0, &region);
	if (!f.closed || skip_blank_lines(sc, f.next) < sc->n)
		return 0;
	*from = f.from;
	*to = f.to;
	return 1;
}

/* --strict: the whole input (or the one fence's content) as one diff. */
static void parse_strict(scan *sc)
{
	const aa_format_row *row = aa_format_row_of(AA_FORMAT_DIFF);
	size_t from, to;

	if (strict_one_fence(sc, &from, &to))
		parse_region(sc, row, from, to);
	else
		parse_span(sc, row, sc->s, sc->n, 1);
}

/* ---------- forced format ---------- */

/* Each fence of the input to the forced row; returns how many fitted. */
static int parse_fences(scan *sc)
{
	size_t off = 0, region;
	int fences = 0;
	aa_lspan l;
	fence f;

	while (off < sc->n) {
		aa_lspan_at(sc->s, sc->n, off, &l);
		if (!fence_opens(sc->s + l.start, l.len, &f)) {
			off = l.next;
			continue;
		}
		fence_extent(sc->s, sc->n, &l, &f, 0, &region);
		fences += parse_fence(sc, &f);
		off = f.next;
	}
	return fences;
}

/*
 * --format=NAME: no detection of other formats. What the parser gets
 * is the row's choice: the whole input (its parser finds its blocks
 * among prose), each fitting fence (or the whole input when none), or
 * the blocks the auto scan finds for it.
 */
static void parse_forced(scan *sc, const aa_format_row *row)
{
	sc->only = row;
	switch (row->forced) {
	case AA_FORCED_FENCES:
		if (parse_fences(sc))
			return;
		/* fall through */
	case AA_FORCED_WHOLE:
		parse_span(sc, row, sc->s, sc->n, 1);
		return;
	case AA_FORCED_SCAN:
		scan_all(sc);
		return;
	}
}

/* ---------- refusals ---------- */

static const char *const negations[] = {
	"cannot", "can't", "can\xe2\x80\x99t", "can not", "unable to",
	"not able to", "could not", "couldn't", "couldn\xe2\x80\x99t",
	"not possible",
};
static const char *const objects[] = {
	"patch", "diff", "change", "edit", "bundle",
};

static int contains_any(const char *s, size_t len, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (aa_ci_contains(s, len, v[i]))
			return 1;
	return 0;
}

/*
 * "cannot ... safely ... patch": a declared refusal
 * (Documentation/format-aptix.md, "How the tool reads it").
 */
static int is_refusal(const char *s, size_t len)
{
	return aa_ci_contains(s, len, "safe") &&
	       contains_any(s, len, negations, sizeof(negations) / sizeof(*negations)) &&
	       contains_any(s, len, objects, sizeof(objects) / sizeof(*objects));
}

/* Markdown around a quoted sentence: blanks, quote marks, emphasis. */
static int is_decoration(char c)
{
	return aa_is_blank(c) || c == '>' || c == '`' || c == '*' || c == '_' ||
	       c == '"';
}

/* The end of the sentence starting at s[i] within a line of len bytes. */
static size_t sentence_end(const char *s, size_t len, size_t i)
{
	for (; i < len; i++) {
		if (s[i] != '.' && s[i] != '!' && s[i] != '?')
			continue;
		if (i + 1 == len || aa_is_blank(s[i + 1]) ||
		    ((s[i + 1] == '`' || s[i + 1] == '*' || s[i + 1] == '"') &&
		     (i + 2 == len || aa_is_blank(s[i + 2]) || is_decoration(s[i + 2]))))
			return i + 1;
	}
	return len;
}

/* Finds the first refusal sentence; 1 with its bounds, else 0. */
static int find_refusal(const char *s, size_t n, size_t *at, size_t *len)
{
	size_t off, i, e;
	aa_lspan l;

	for (off = 0; off < n; off = l.next) {
		aa_lspan_at(s, n, off, &l);
		for (i = 0; i < l.len; i = e) {
			while (i < l.len && is_decoration(s[l.start + i]))
				i++;
			e = sentence_end(s + l.start, l.len, i);
			if (e > i && is_refusal(s + l.start + i, e - i)) {
				while (e > i && is_decoration(s[l.start + e - 1]))
					e--;
				*at = l.start + i;
				*len = e - i;
				return 1;
			}
		}
	}
	return 0;
}

static int report_refusal(scan *sc)
{
	size_t at, len;

	if (!find_refusal(sc->s, sc->n, &at, &len))
		return 0;
	return aa_error(sc->d, pos_at(sc, at), NULL,
			"the answer declines to make the change: %s",
			aa_qtext(sc->s + at, len, 400));
}

/*
 * No block found, but an ap document's top-level keys stand in the prose
 * (column 0, `version:` and `changes:`): it lacks the fence that tells
 * where it ends. Returns -1 after saying so, else 0.
 */
static int report_loose_ap(scan *sc)
{
	size_t off;
	aa_lspan l;

	if (!aa_looks_ap(sc->s, sc->n))
		return 0;
	for (off = 0; off < sc->n; off = l.next) {
		aa_lspan_at(sc->s, sc->n, off, &l);
		if (aa_starts_with(sc->s + l.start, l.len, "version:") ||
		    aa_starts_with(sc->s + l.start, l.len, "changes:"))
			break;
	}
	return aa_error(sc->d, pos_at(sc, off), NULL,
			"found an ap document outside a code fence; put it in a "
			"```yaml fence (or give the document alone as the input)"
			" so that its end is known");
}

/*
 * No block found, and the input is one bare JSON value nested deeper than
 * the limit: say so (the sniffing above does not look that deep). The
 * depth is counted outside strings. Returns -1 after saying so, else 0.
 */
static int report_deep_json(scan *sc)
{
	size_t i = aa_json_skip_ws(sc->s, sc->n, 0);
	int depth = 0;

	if (i >= sc->n || (sc->s[i] != '{' && sc->s[i] != '['))
		return 0;
	for (; i < sc->n; i++) {
		char c = sc->s[i];

		if (c == '"') {
			i = aa_json_string_end(sc->s, sc->n, i) - 1;
		} else if (c == '{' || c == '[') {
			if (++depth > AA_MAX_NEST_DEPTH)
				return aa_error(sc->d, pos_at(sc, i), NULL,
						"the JSON document is nested "
						"deeper than %d levels; not read",
						AA_MAX_NEST_DEPTH);
		} else if ((c == '}' || c == ']') && --depth <= 0) {
			return 0;
		}
	}
	return 0;
}

/*
 * No block found, but code fences that name no file: a code sample is
 * not an edit, so they were read as prose. Says which (line and opening
 * line) and how a fence names its file, in forms the whole-file parser
 * takes (src/format/label.c, whole_file.c; t1020 lands each). -1 after
 * saying so, 0 when there was none.
 */
static int report_plain_fences(scan *sc)
{
	aa_buf m = AA_BUF_INIT;
	size_t i, shown = sc->nplain < PLAIN_FENCES_SHOWN ? sc->nplain :
			  PLAIN_FENCES_SHOWN;
	aa_lspan l;

	if (!sc->nplain)
		return 0;
	aa_buf_printf(&m, "no change found in the input: %s",
		      sc->nplain == 1 ? "the code fence at" : "the code fences at");
	for (i = 0; i < shown; i++) {
		aa_lspan_at(sc->s, sc->n, sc->plain_open[i], &l);
		aa_buf_printf(&m, "%s line %ld %s", !i ? "" :
			      i + 1 == sc->nplain ? " and" : ",",
			      line_of(sc, sc->plain_open[i]),
			      aa_qtext(sc->s + l.start, l.len, 60));
	}
	if (sc->nplain > shown)
		aa_buf_printf(&m, " and %zu more", sc->nplain - shown);
	aa_buf_printf(&m, " name%s no file, so %s\n  to land a fence as the whole file, name the file "
		      "in one of these forms:\n"
		      "    path/to/file.py            the line right before the fence\n"
		      "    ```python path/to/file.py  the fence's line, after the language\n"
		      "    # path/to/file.py          the fence's first line, a comment\n"
		      "  or answer with a diff or SEARCH/REPLACE blocks",
		      sc->nplain == 1 ? "s" : "", sc->nplain == 1 ?
		      "it is read as an example, not an edit" :
		      "they are read as examples, not edits");
	if (aa_buf_oom(&m)) {
		aa_buf_free(&m);
		return aa_error(sc->d, pos_at(sc, 0), NULL, "out of memory");
	}
	aa_error(sc->d, (aa_pos){ sc->in->name, 0 }, NULL, "%s", m.ptr);
	aa_buf_free(&m);
	return -1;
}

/* Nothing found: the most useful thing to say, or 0 (the caller's "no change"). */
static int report_nothing(scan *sc)
{
	if (report_refusal(sc) < 0 || report_loose_ap(sc) < 0 ||
	    report_deep_json(sc) < 0 || report_plain_fences(sc) < 0)
		return -1;
	return 0;
}

/* ---------- entry point ---------- */

static int check_limits(scan *sc)
{
	const char *p = sc->s, *e = sc->s + sc->n, *nl;

	if (sc->n > AA_MAX_INPUT_SIZE)
		return aa_error(sc->d, pos_at(sc, 0), NULL,
				"input too large (%zu bytes; the limit is %u)",
				sc->n, AA_MAX_INPUT_SIZE);
	for (; p < e; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			nl = e;
		if ((size_t)(nl - p) > AA_MAX_LINE_LENGTH)
			return aa_error(sc->d, pos_at(sc, (size_t)(p - sc->s)), NULL,
					"input line too long (more than %u bytes)",
					AA_MAX_LINE_LENGTH);
	}
	return 0;
}

/*
 * Line breaks. An answer that is CRLF throughout (every LF has a CR
 * before it: pasted from a Windows clipboard) uses CRLF as its line
 * break, so it is parsed as LF text. Anywhere else a CR before an LF is
 * part of the line: a real diff of a CRLF file carries it in its lines,
 * and the files it creates must have it (Documentation/formats.md,
 * "Line breaks in an answer").
 */
static int crlf_throughout(const char *s, size_t n)
{
	const char *p = s, *e = s + n, *nl;
	int any = 0;

	while (p < e && (nl = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		if (nl == s || nl[-1] != '\r')
			return 0;
		any = 1;
		p = nl + 1;
	}
	return any;
}

/* s[0..*n) with every CRLF turned into LF: a new allocation, or NULL. */
static char *crlf_to_lf(const char *s, size_t *n)
{
	char *out = malloc(*n ? *n : 1);
	size_t i, k = 0;

	if (!out)
		return NULL;
	for (i = 0; i < *n; i++)
		if (!(s[i] == '\r' && i + 1 < *n && s[i + 1] == '\n'))
			out[k++] = s[i];
	*n = k;
	return out;
}

/* A bare document (aptix JSON, ap YAML) as the whole input: its row. */
static const aa_format_row *whole_input_row(const scan *sc)
{
	size_t i;

	for (i = 0; i < aa_format_nrows; i++)
		if (aa_format_rows[i].whole &&
		    aa_format_rows[i].whole(sc->s, sc->n))
			return &aa_format_rows[i];
	return NULL;
}

/* The text to scan: without a UTF-8 BOM, CRLF read as LF. 0 or -1. */
static int prepare_text(scan *sc, char **lf)
{
	if (check_limits(sc) < 0)
		return -1;
	if (sc->n >= 2 && ((sc->s[0] == '\xff' && sc->s[1] == '\xfe') ||
			   (sc->s[0] == '\xfe' && sc->s[1] == '\xff')))
		return aa_error(sc->d, pos_at(sc, 0), NULL,
				"the input is UTF-16 text; convert it to UTF-8");
	if (sc->n >= 3 && !memcmp(sc->s, "\xef\xbb\xbf", 3)) {
		/* a UTF-8 BOM is not part of the first line */
		sc->s += 3;
		sc->n -= 3;
	}
	if (crlf_throughout(sc->s, sc->n)) {
		if (!(*lf = crlf_to_lf(sc->s, &sc->n)))
			return aa_error(sc->d, pos_at(sc, 0), NULL, "out of memory");
		sc->s = *lf;
	}
	aa_linemap_free(&sc->lines);
	aa_linemap_init(&sc->lines, sc->s, sc->n, 1);
	return 0;
}

/*
 * A seed format's replacement of an existing file (companion
 * START-REPLACE-FILE, an aptix bundle "replace") whose content holds an
 * elision ("// ... existing code ...") becomes an edit that resolves the
 * elisions against the original (src/edit/elide.c). The seeds' own
 * examples use placeholder lines as content ("# ... completely new
 * structure"), so for these formats an elision that cannot be resolved
 * is written as it stands, with a warning; whole-file and search-replace
 * answers refuse instead. Writes that may create (FILE_NEW, bundles
 * without "replace") keep their content: a new file has no original.
 */
static void writes_with_elisions(aa_changeset *cs, size_t first)
{
	size_t i;

	for (i = first; i < cs->n; i++) {
		aa_op *op = &cs->ops[i];

		if (op->kind != AA_OP_WRITE || op->exist != AA_EXIST_MUST ||
		    !op->content ||
		    !aa_has_elision(op->content, op->content_len, op->path))
			continue;
		op->kind = AA_OP_EDIT;
		op->edit_kind = AA_EDIT_ELIDE;
		op->elisions_may_be_content = 1;
		/* an aptix bundle's content is a JSON string: no lines of its own */
		op->content_at = op->format && !strcmp(op->format, "aptix") ?
				 AA_CONTENT_NO_LINES : AA_CONTENT_AFTER_POS;
	}
}

int aa_parse_input(const aa_input *in, const aa_parse_opts *o,
		   aa_changeset *cs, aa_diags *d)
{
	size_t first = cs->n;
	const aa_format_row *row;
	scan sc;
	char *lf = NULL;

	memset(&sc, 0, sizeof(sc));
	sc.in = in;
	sc.o = o;
	sc.cs = cs;
	sc.d = d;
	sc.s = in->data ? in->data : "";
	sc.n = in->data ? in->len : 0;
	aa_linemap_init(&sc.lines, sc.s, sc.n, 1);
	if (prepare_text(&sc, &lf) < 0) {
		sc.failed = 1;
	} else if (o->strict) {
		/* --strict: the whole input is one unified diff, no more */
		parse_strict(&sc);
	} else if (o->format != AA_FORMAT_AUTO &&
		   (row = aa_format_row_of(o->format)) != NULL) {
		parse_forced(&sc, row);
	} else if ((row = whole_input_row(&sc)) != NULL) {
		parse_span(&sc, row, sc.s, sc.n, 1);
	} else {
		scan_all(&sc);
	}
	if (!sc.failed && !sc.nblocks && report_nothing(&sc) < 0)
		sc.failed = 1;
	if (!sc.failed && !o->strict)
		writes_with_elisions(cs, first);
	aa_linemap_free(&sc.lines);
	free(sc.carried);
	free(lf);
	return sc.failed ? -1 : sc.nblocks;
}
