/*
 * Extraction: finds every change block of an input, whatever prose
 * surrounds it, detects each block's format and hands it to its parser,
 * in input order, so that one change set holds them all.
 *
 * One pass over the lines, top level first:
 *   - a companion command line starts a companion run (its bodies are
 *     not scanned: a START-PATCH body holds `--- a/x` lines);
 *   - a file-changes tag starts a file-changes region (likewise);
 *   - a code fence (``` or ~~~, possibly indented) is one candidate
 *     block, told apart by its language tag and its content: diff,
 *     aptix JSON, ap YAML, or prose. A fence around a companion or
 *     file-changes region is only a wrapper: its lines are prose;
 *   - an unfenced diff (`diff --git`, or `---` + `+++` + `@@`) runs to
 *     the next block; the diff parser skips prose itself.
 * A whole input that is a bare aptix JSON object or an ap YAML document
 * is one block. With no block at all, a refusal sentence ("A patch
 * cannot be safely generated...") is quoted in an error.
 */
#include <stdlib.h>
#include <string.h>

#include "aiapply/format.h"
#include "extract.h"

static const char *const format_names[] = {
	"auto", "companion", "file-changes", "aptix", "ap", "diff"
};

const char *aa_format_name(aa_format f)
{
	if ((unsigned)f < sizeof(format_names) / sizeof(*format_names))
		return format_names[f];
	return "?";
}

int aa_format_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(format_names) / sizeof(*format_names); i++)
		if (!strcmp(name, format_names[i]))
			return (int)i;
	return -1;
}

/* ---------- small text helpers ---------- */

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_ws(char c)
{
	return is_blank(c) || c == '\n' || c == '\r';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static size_t indent_of(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && is_blank(s[i]))
		i++;
	return i;
}

static int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

/* Case-insensitive search of an ASCII needle in s[0..len). */
static int ci_contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle), i, j;

	for (i = 0; n <= len && i <= len - n; i++) {
		for (j = 0; j < n && lower(s[i + j]) == needle[j]; j++)
			;
		if (j == n)
			return 1;
	}
	return 0;
}

static int ci_equal(const char *s, size_t len, const char *word)
{
	size_t i;

	if (strlen(word) != len)
		return 0;
	for (i = 0; i < len; i++)
		if (lower(s[i]) != word[i])
			return 0;
	return 1;
}

/* ---------- content sniffing ---------- */

/* Skips JSON white space from i. */
static size_t json_ws(const char *s, size_t n, size_t i)
{
	while (i < n && is_ws(s[i]))
		i++;
	return i;
}

/* Past the JSON string starting at s[i] == '"'; n when unterminated. */
static size_t json_string_end(const char *s, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return n;
}

/*
 * A JSON object with a top-level "files" or "patches" key whose value is
 * an array of objects: the shape of an aptix document (a package.json
 * has "files" too, but an array of strings). The parser validates.
 */
static int looks_aptix(const char *s, size_t n)
{
	size_t i = json_ws(s, n, 0), k0, k1;
	int depth = 0;

	if (i >= n || s[i] != '{')
		return 0;
	for (; i < n; i++) {
		char c = s[i];

		if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']') {
			if (--depth <= 0)
				return 0;
		} else if (c == '"') {
			k0 = i + 1;
			i = json_string_end(s, n, i);
			if (i >= n)
				return 0;
			k1 = i - 1;
			if (depth == 1 && ((k1 - k0 == 5 && !memcmp(s + k0, "files", 5)) ||
					   (k1 - k0 == 7 && !memcmp(s + k0, "patches", 7)))) {
				size_t j = json_ws(s, n, i);

				if (j < n && s[j] == ':') {
					j = json_ws(s, n, j + 1);
					if (j < n && s[j] == '[') {
						j = json_ws(s, n, j + 1);
						if (j < n && s[j] == '{')
							return 1;
					}
				}
			}
			i--;  /* the loop's i++ */
		}
	}
	return 0;
}

/* Top-level `version:` and `changes:` keys: the shape of an ap document. */
static int looks_ap(const char *s, size_t n)
{
	int version = 0, changes = 0;
	size_t off;
	aa_lspan l;

	for (off = 0; off < n && !(version && changes); off = l.next) {
		aa_lspan_at(s, n, off, &l);
		if (starts_with(s + l.start, l.len, "version:"))
			version = 1;
		else if (starts_with(s + l.start, l.len, "changes:"))
			changes = 1;
	}
	return version && changes;
}

/* A whole input that is an ap document: YAML from its first line on. */
static int looks_ap_document(const char *s, size_t n)
{
	size_t off;
	aa_lspan l;

	for (off = 0; off < n; off = l.next) {
		aa_lspan_at(s, n, off, &l);
		if (indent_of(s + l.start, l.len) == l.len || s[l.start] == '#')
			continue;
		if (!starts_with(s + l.start, l.len, "version:") &&
		    !starts_with(s + l.start, l.len, "changes:") &&
		    !(l.len >= 3 && !memcmp(s + l.start, "---", 3) &&
		      indent_of(s + l.start + 3, l.len - 3) == l.len - 3))
			return 0;
		return looks_ap(s, n);
	}
	return 0;
}

/* The line at off starts a diff: `diff --git`, or `---` `+++` `@@`. */
static int diff_starts(const char *s, size_t n, size_t off)
{
	aa_lspan a, b, c;

	aa_lspan_at(s, n, off, &a);
	if (starts_with(s + a.start, a.len, "diff --git "))
		return 1;
	if (!starts_with(s + a.start, a.len, "--- ") || a.next >= n)
		return 0;
	aa_lspan_at(s, n, a.next, &b);
	if (!starts_with(s + b.start, b.len, "+++ ") || b.next >= n)
		return 0;
	aa_lspan_at(s, n, b.next, &c);
	return starts_with(s + c.start, c.len, "@@");
}

static int has_diff(const char *s, size_t n)
{
	size_t off;
	aa_lspan l;

	for (off = 0; off < n; off = l.next) {
		aa_lspan_at(s, n, off, &l);
		if (diff_starts(s, n, off))
			return 1;
	}
	return 0;
}

/* ---------- code fences ---------- */

typedef enum lang {
	L_NONE,   /* no language tag */
	L_DIFF,
	L_JSON,
	L_YAML,
	L_OTHER
} lang;

typedef struct fence {
	char ch;             /* '`' or '~' */
	size_t count;        /* length of the fence run */
	size_t indent;
	lang lang;
	size_t open;         /* offset of the opening line */
	size_t from, to;     /* content: [from, to) */
	size_t next;         /* after the closing line (or the end) */
	int closed;
} fence;

static lang lang_of(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && !is_blank(s[n]) && s[n] != '{' && s[n] != ',')
		n++;
	if (!n)
		return L_NONE;
	if (ci_equal(s, n, "diff") || ci_equal(s, n, "patch") ||
	    ci_equal(s, n, "udiff"))
		return L_DIFF;
	if (ci_equal(s, n, "json") || ci_equal(s, n, "jsonc") ||
	    ci_equal(s, n, "json5"))
		return L_JSON;
	if (ci_equal(s, n, "yaml") || ci_equal(s, n, "yml") || ci_equal(s, n, "ap"))
		return L_YAML;
	return L_OTHER;
}

/* An opening fence line: indentation, 3+ ` or ~, an optional tag. */
static int fence_opens(const char *s, size_t len, fence *f)
{
	size_t i = indent_of(s, len), k = i, j;

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
	k += indent_of(s + k, len - k);
	f->lang = lang_of(s + k, len - k);
	return 1;
}

/*
 * A closing fence: the same character at least as many times, nothing
 * else, indented no deeper than the opening one (so that a diff context
 * line " ```" inside a ```diff block does not close it).
 */
static int fence_closes(const char *s, size_t len, const fence *f)
{
	size_t i = indent_of(s, len), k = i;

	if (i > f->indent)
		return 0;
	while (k < len && s[k] == f->ch)
		k++;
	return k - i >= f->count && indent_of(s + k, len - k) == len - k;
}

/* The line starts a companion run or a file-changes region. */
static int region_starts(const char *s, size_t len)
{
	size_t i = indent_of(s, len);

	return aa_companion_is_command(s, len) ||
	       aa_file_changes_starts(s + i, len - i);
}

/*
 * Fills f's content and end for the opening line l. With `regions`, the
 * search also stops at a line that starts a companion or file-changes
 * region: *region is then its offset (else n).
 */
static void fence_extent(const char *s, size_t n, const aa_lspan *l, fence *f,
			 int regions, size_t *region)
{
	size_t off;
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
		if (regions && region_starts(s + c.start, c.len)) {
			*region = off;
			break;
		}
	}
	f->to = n;
	f->next = n;
}

/* ---------- the scan ---------- */

typedef struct scan {
	const aa_input *in;
	const aa_parse_opts *o;
	aa_changeset *cs;
	aa_diags *d;
	const char *s;
	size_t n;
	int nblocks;        /* blocks in which a parser found a change */
	int failed;
	size_t seen_off;    /* line numbers are counted incrementally */
	long seen_line;
	/* a fence that only wraps a companion / file-changes region */
	int wrapper;
	fence wrap;
} scan;

static long line_of(scan *sc, size_t off)
{
	/* counted from the last position asked for, in either direction */
	if (off < sc->seen_off)
		sc->seen_line -= aa_count_lines(sc->s + off, sc->seen_off - off);
	else
		sc->seen_line += aa_count_lines(sc->s + sc->seen_off, off - sc->seen_off);
	sc->seen_off = off;
	return sc->seen_line;
}

static aa_pos pos_at(scan *sc, size_t off)
{
	aa_pos p = { sc->in->name, line_of(sc, off) };

	return p;
}

/* Runs the parser of format f over data[0..len) starting at input line `line`. */
static void parse_block(scan *sc, aa_format f, const char *data, size_t len,
			long line)
{
	aa_block b = { sc->in, data, len, line };
	int r;

	switch (f) {
	case AA_FORMAT_COMPANION:
		r = aa_parse_companion(&b, sc->o, sc->cs, sc->d);
		break;
	case AA_FORMAT_FILE_CHANGES:
		r = aa_parse_file_changes(&b, sc->o, sc->cs, sc->d);
		break;
	case AA_FORMAT_APTIX:
		r = aa_parse_aptix(&b, sc->o, sc->cs, sc->d);
		break;
	case AA_FORMAT_AP:
		r = aa_parse_ap(&b, sc->o, sc->cs, sc->d);
		break;
	default:
		r = aa_parse_diff(&b, sc->o, NULL, sc->cs, sc->d);
		break;
	}
	if (r < 0)
		sc->failed = 1;
	else if (r > 0)
		sc->nblocks++;
}

static void parse_region(scan *sc, aa_format f, size_t from, size_t to)
{
	parse_block(sc, f, sc->s + from, to - from, line_of(sc, from));
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
		cut = indent_of(sc->s + off, l.next - off);
		if (cut > fc->indent)
			cut = fc->indent;
		if (aa_buf_put(buf, sc->s + off + cut, l.next - off - cut) < 0)
			return -1;
	}
	*data = buf->ptr ? buf->ptr : "";
	*len = buf->len;
	return 0;
}

/*
 * The format of a companion or file-changes region in a fence's content
 * (an indented fence, in a list item, is only seen as one once its
 * content lost the indentation), else AA_FORMAT_AUTO.
 */
static aa_format region_format(const char *c, size_t n)
{
	size_t off;
	aa_lspan l;

	for (off = 0; off < n; off = l.next) {
		aa_lspan_at(c, n, off, &l);
		if (aa_companion_is_command(c + l.start, l.len))
			return AA_FORMAT_COMPANION;
		if (aa_file_changes_starts(c + l.start, l.len))
			return AA_FORMAT_FILE_CHANGES;
	}
	return AA_FORMAT_AUTO;
}

/* Which parser a fence's content goes to; AA_FORMAT_AUTO = prose. */
static aa_format fence_format(lang lg, const char *c, size_t n)
{
	aa_format region;

	switch (lg) {
	case L_DIFF:
		return AA_FORMAT_DIFF;
	case L_JSON:
		return looks_aptix(c, n) ? AA_FORMAT_APTIX : AA_FORMAT_AUTO;
	case L_YAML:
		return looks_ap(c, n) ? AA_FORMAT_AP : AA_FORMAT_AUTO;
	default:
		/* untagged or mis-tagged: by content */
		if (looks_aptix(c, n))
			return AA_FORMAT_APTIX;
		if (looks_ap(c, n))
			return AA_FORMAT_AP;
		if ((region = region_format(c, n)) != AA_FORMAT_AUTO)
			return region;
		if (has_diff(c, n))
			return AA_FORMAT_DIFF;
		return AA_FORMAT_AUTO;
	}
}

/*
 * --format=aptix / ap: which fences go to the parser (a forced format
 * skips the key checks, not the fence's own language tag).
 */
static aa_format fence_fits(aa_format fmt, lang lg, const char *c, size_t n)
{
	size_t i = json_ws(c, n, 0);

	if (fmt == AA_FORMAT_APTIX)
		return lg == L_JSON ||
		       (lg != L_DIFF && lg != L_YAML && i < n && c[i] == '{') ?
		       fmt : AA_FORMAT_AUTO;
	return lg == L_YAML || ((lg == L_NONE || lg == L_OTHER) && looks_ap(c, n)) ?
	       fmt : AA_FORMAT_AUTO;
}

/*
 * Parses a fence's content when it is a change block: in auto mode as
 * detected, else (`forced`) when it fits the forced format. Returns 1
 * when it went to a parser.
 */
static int parse_fence(scan *sc, const fence *fc, aa_format forced)
{
	aa_buf buf = AA_BUF_INIT;
	const char *data;
	size_t len;
	aa_format fmt;

	if (fence_content(sc, fc, &buf, &data, &len) < 0) {
		aa_buf_free(&buf);
		sc->failed = 1;
		aa_error(sc->d, pos_at(sc, fc->from), NULL, "out of memory");
		return 0;
	}
	fmt = forced == AA_FORMAT_AUTO ? fence_format(fc->lang, data, len) :
	      fence_fits(forced, fc->lang, data, len);
	if (fmt != AA_FORMAT_AUTO)
		parse_block(sc, fmt, data, len, line_of(sc, fc->from));
	aa_buf_free(&buf);
	return fmt != AA_FORMAT_AUTO;
}

/* Handles the fence opening at line l; returns where the scan goes on. */
static size_t scan_fence(scan *sc, fence *f, const aa_lspan *l)
{
	size_t region;

	fence_extent(sc->s, sc->n, l, f, f->lang != L_DIFF, &region);
	if (region < sc->n) {
		/*
		 * A wrapper: the scan goes on at the region inside (what is
		 * before it is prose), and the closing fence is prose too.
		 */
		sc->wrapper = 1;
		sc->wrap = *f;
		return region;
	}
	parse_fence(sc, f, AA_FORMAT_AUTO);
	return f->next;
}

/* End of an unfenced diff: the next line where another block starts. */
static size_t diff_region_end(scan *sc, size_t off)
{
	aa_lspan l;
	fence f;

	aa_lspan_at(sc->s, sc->n, off, &l);
	for (off = l.next; off < sc->n; off = l.next) {
		aa_lspan_at(sc->s, sc->n, off, &l);
		if (aa_companion_is_command(sc->s + l.start, l.len) ||
		    aa_file_changes_starts(sc->s + l.start, l.len) ||
		    (fence_opens(sc->s + l.start, l.len, &f) && !f.indent))
			return off;
	}
	return sc->n;
}

/* One step of the top-level scan at the line starting at off. */
static size_t scan_line(scan *sc, size_t off)
{
	const char *s = sc->s;
	size_t end, i;
	aa_lspan l;
	fence f;

	aa_lspan_at(s, sc->n, off, &l);
	i = indent_of(s + l.start, l.len);
	if (sc->wrapper && fence_closes(s + l.start, l.len, &sc->wrap)) {
		sc->wrapper = 0;
		return l.next;
	}
	if (aa_companion_is_command(s + l.start, l.len)) {
		end = aa_companion_run_end(s, sc->n, off);
		parse_region(sc, AA_FORMAT_COMPANION, off, end);
		return end;
	}
	if (aa_file_changes_starts(s + l.start + i, l.len - i)) {
		end = aa_file_changes_region_end(s, sc->n, off);
		parse_region(sc, AA_FORMAT_FILE_CHANGES, off, end);
		return end;
	}
	if (fence_opens(s + l.start, l.len, &f))
		return scan_fence(sc, &f, &l);
	if (diff_starts(s, sc->n, off)) {
		end = diff_region_end(sc, off);
		parse_region(sc, AA_FORMAT_DIFF, off, end);
		return end;
	}
	return l.next;
}

/* ---------- forced format ---------- */

/*
 * --format=NAME: no detection. companion, file-changes and diff parsers
 * find their blocks among prose themselves, so they get the whole input;
 * aptix and ap get each fitting fence, or the whole input when none.
 */
static void parse_forced(scan *sc, aa_format fmt)
{
	size_t off = 0, region;
	int fences = 0;
	aa_lspan l;
	fence f;

	if (fmt == AA_FORMAT_APTIX || fmt == AA_FORMAT_AP) {
		while (off < sc->n) {
			aa_lspan_at(sc->s, sc->n, off, &l);
			if (!fence_opens(sc->s + l.start, l.len, &f)) {
				off = l.next;
				continue;
			}
			fence_extent(sc->s, sc->n, &l, &f, 0, &region);
			fences += parse_fence(sc, &f, fmt);
			off = f.next;
		}
	}
	if (!fences)
		parse_block(sc, fmt, sc->s, sc->n, 1);
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
		if (ci_contains(s, len, v[i]))
			return 1;
	return 0;
}

/* "cannot ... safely ... patch": a declared refusal (seed 002 §2.4, §3.2). */
static int is_refusal(const char *s, size_t len)
{
	return ci_contains(s, len, "safe") &&
	       contains_any(s, len, negations, sizeof(negations) / sizeof(*negations)) &&
	       contains_any(s, len, objects, sizeof(objects) / sizeof(*objects));
}

/* Markdown around a quoted sentence: blanks, quote marks, emphasis. */
static int is_decoration(char c)
{
	return is_blank(c) || c == '>' || c == '`' || c == '*' || c == '_' ||
	       c == '"';
}

/* The end of the sentence starting at s[i] within a line of len bytes. */
static size_t sentence_end(const char *s, size_t len, size_t i)
{
	for (; i < len; i++) {
		if (s[i] != '.' && s[i] != '!' && s[i] != '?')
			continue;
		if (i + 1 == len || is_blank(s[i + 1]) ||
		    ((s[i + 1] == '`' || s[i + 1] == '*' || s[i + 1] == '"') &&
		     (i + 2 == len || is_blank(s[i + 2]) || is_decoration(s[i + 2]))))
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

	if (!looks_ap(sc->s, sc->n))
		return 0;
	for (off = 0; off < sc->n; off = l.next) {
		aa_lspan_at(sc->s, sc->n, off, &l);
		if (starts_with(sc->s + l.start, l.len, "version:") ||
		    starts_with(sc->s + l.start, l.len, "changes:"))
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
	size_t i = json_ws(sc->s, sc->n, 0);
	int depth = 0;

	if (i >= sc->n || (sc->s[i] != '{' && sc->s[i] != '['))
		return 0;
	for (; i < sc->n; i++) {
		char c = sc->s[i];

		if (c == '"') {
			i = json_string_end(sc->s, sc->n, i) - 1;
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

/* Nothing found: the most useful thing to say, or 0 (the caller's "no change"). */
static int report_nothing(scan *sc)
{
	if (report_refusal(sc) < 0 || report_loose_ap(sc) < 0 ||
	    report_deep_json(sc) < 0)
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
 * and the files it creates must have it (SPEC "Text fidelity").
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

/* A bare aptix JSON object or ap YAML document: the whole input. */
static aa_format whole_input_format(const scan *sc)
{
	size_t i = json_ws(sc->s, sc->n, 0);

	if (i < sc->n && sc->s[i] == '{' && looks_aptix(sc->s, sc->n))
		return AA_FORMAT_APTIX;
	if (looks_ap_document(sc->s, sc->n))
		return AA_FORMAT_AP;
	return AA_FORMAT_AUTO;
}

int aa_parse_input(const aa_input *in, const aa_parse_opts *o,
		   aa_changeset *cs, aa_diags *d)
{
	scan sc;
	aa_format whole;
	size_t off = 0;
	char *lf = NULL;

	memset(&sc, 0, sizeof(sc));
	sc.in = in;
	sc.o = o;
	sc.cs = cs;
	sc.d = d;
	sc.s = in->data ? in->data : "";
	sc.n = in->data ? in->len : 0;
	sc.seen_line = 1;
	if (check_limits(&sc) < 0)
		return -1;
	if (sc.n >= 2 && ((sc.s[0] == '\xff' && sc.s[1] == '\xfe') ||
			  (sc.s[0] == '\xfe' && sc.s[1] == '\xff')))
		return aa_error(d, pos_at(&sc, 0), NULL,
				"the input is UTF-16 text; convert it to UTF-8");
	if (sc.n >= 3 && !memcmp(sc.s, "\xef\xbb\xbf", 3)) {
		/* a UTF-8 BOM is not part of the first line */
		sc.s += 3;
		sc.n -= 3;
	}
	if (crlf_throughout(sc.s, sc.n)) {
		if (!(lf = crlf_to_lf(sc.s, &sc.n)))
			return aa_error(d, pos_at(&sc, 0), NULL, "out of memory");
		sc.s = lf;
	}
	if (o->strict) {
		/* seed 004: the whole input is one unified diff, nothing else */
		parse_block(&sc, AA_FORMAT_DIFF, sc.s, sc.n, 1);
	} else if (o->format != AA_FORMAT_AUTO) {
		parse_forced(&sc, o->format);
	} else if ((whole = whole_input_format(&sc)) != AA_FORMAT_AUTO) {
		parse_block(&sc, whole, sc.s, sc.n, 1);
	} else {
		while (off < sc.n)
			off = scan_line(&sc, off);
	}
	if (!sc.failed && !sc.nblocks && report_nothing(&sc) < 0)
		sc.failed = 1;
	free(lf);
	return sc.failed ? -1 : sc.nblocks;
}
