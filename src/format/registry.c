/*
 * The format registry: the one list of formats (names for --format,
 * --help, the manual and the completion; how the extractor finds each
 * format's blocks; its parser), the sniffers of the formats whose own
 * file does not hold them.
 */
#include <stdlib.h>
#include <string.h>

#include "format/lines.h"
#include "format/registry.h"
#include "util/util.h"

/* ---------- aptix: JSON ---------- */

/* At s[j] (after a key): `: [ {`, a value that is an array of objects. */
static int array_of_objects(const char *s, size_t n, size_t j)
{
	j = aa_json_skip_ws(s, n, j);
	if (j >= n || s[j] != ':')
		return 0;
	j = aa_json_skip_ws(s, n, j + 1);
	if (j >= n || s[j] != '[')
		return 0;
	j = aa_json_skip_ws(s, n, j + 1);
	return j < n && s[j] == '{';
}

static int is_aptix_key(const char *k, size_t len)
{
	return (len == 5 && !memcmp(k, "files", 5)) ||
	       (len == 7 && !memcmp(k, "patches", 7));
}

/*
 * A JSON object with a top-level "files" or "patches" key whose value is
 * an array of objects: the shape of an aptix document (a package.json
 * has "files" too, but an array of strings). The parser validates.
 */
static int looks_aptix(const char *s, size_t n)
{
	size_t i = aa_json_skip_ws(s, n, 0), k0;
	int depth = 0;

	if (i >= n || s[i] != '{')
		return 0;
	for (; i < n; i++) {
		char c = s[i];

		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (--depth <= 0)
				return 0;
		} else if (c == '"') {
			k0 = i + 1;
			i = aa_json_string_end(s, n, i);
			if (i >= n)
				return 0;
			if (depth == 1 && is_aptix_key(s + k0, i - 1 - k0) &&
			    array_of_objects(s, n, i))
				return 1;
			i--;  /* the loop's i++ */
		}
	}
	return 0;
}

static int aptix_fits(const aa_fence_view *fv)
{
	if (fv->lang == AA_LANG_DIFF || fv->lang == AA_LANG_YAML)
		return 0;
	return looks_aptix(fv->data, fv->len);
}

/* --format=aptix: a json fence, or an untagged one holding an object. */
static int aptix_forced(const aa_fence_view *fv)
{
	size_t i = aa_json_skip_ws(fv->data, fv->len, 0);

	return fv->lang == AA_LANG_JSON ||
	       (fv->lang != AA_LANG_DIFF && fv->lang != AA_LANG_YAML &&
		i < fv->len && fv->data[i] == '{');
}

static int aptix_whole(const char *s, size_t n)
{
	size_t i = aa_json_skip_ws(s, n, 0);

	return i < n && s[i] == '{' && looks_aptix(s, n);
}

/* ---------- ap: YAML ---------- */

/* Top-level `version:` and `changes:` keys: the shape of an ap document. */
int aa_looks_ap(const char *s, size_t n)
{
	int version = 0, changes = 0;
	size_t off;
	aa_lspan l;

	for (off = 0; off < n && !(version && changes); off = l.next) {
		aa_lspan_at(s, n, off, &l);
		if (aa_starts_with(s + l.start, l.len, "version:"))
			version = 1;
		else if (aa_starts_with(s + l.start, l.len, "changes:"))
			changes = 1;
	}
	return version && changes;
}

/* A whole input that is an ap document: YAML from its first line on. */
static int ap_whole(const char *s, size_t n)
{
	size_t off;
	aa_lspan l;

	for (off = 0; off < n; off = l.next) {
		aa_lspan_at(s, n, off, &l);
		if (aa_indent_of(s + l.start, l.len) == l.len || s[l.start] == '#')
			continue;
		if (!aa_starts_with(s + l.start, l.len, "version:") &&
		    !aa_starts_with(s + l.start, l.len, "changes:") &&
		    !(l.len >= 3 && !memcmp(s + l.start, "---", 3) &&
		      aa_indent_of(s + l.start + 3, l.len - 3) == l.len - 3))
			return 0;
		return aa_looks_ap(s, n);
	}
	return 0;
}

static int ap_fits(const aa_fence_view *fv)
{
	if (fv->lang == AA_LANG_DIFF || fv->lang == AA_LANG_JSON)
		return 0;
	return aa_looks_ap(fv->data, fv->len);
}

static int ap_forced(const aa_fence_view *fv)
{
	return fv->lang == AA_LANG_YAML ||
	       ((fv->lang == AA_LANG_NONE || fv->lang == AA_LANG_OTHER) &&
		aa_looks_ap(fv->data, fv->len));
}

/* ---------- companion, file-changes: regions ---------- */

static int companion_starts(const char *s, size_t n, size_t off)
{
	aa_lspan l;

	aa_lspan_at(s, n, off, &l);
	return aa_companion_is_command(s + l.start, l.len);
}

static int file_changes_starts(const char *s, size_t n, size_t off)
{
	aa_lspan l;
	size_t i;

	aa_lspan_at(s, n, off, &l);
	i = aa_indent_of(s + l.start, l.len);
	return aa_file_changes_starts(s + l.start + i, l.len - i);
}

/*
 * In a fence's content, a region of `starts` (an indented fence, in a
 * list item, is only seen as one once its content lost the indentation).
 * Only untagged or foreign-tagged fences can hold one.
 */
static int holds_region(const aa_fence_view *fv,
			int (*starts)(const char *, size_t, size_t))
{
	size_t off;
	aa_lspan l;

	if (fv->lang != AA_LANG_NONE && fv->lang != AA_LANG_OTHER)
		return 0;
	for (off = 0; off < fv->len; off = l.next) {
		aa_lspan_at(fv->data, fv->len, off, &l);
		if (starts(fv->data, fv->len, off))
			return 1;
	}
	return 0;
}

static int companion_fits(const aa_fence_view *fv)
{
	return holds_region(fv, companion_starts);
}

static int file_changes_fits(const aa_fence_view *fv)
{
	return holds_region(fv, file_changes_starts);
}

/* ---------- diff ---------- */

/* The line at off starts a diff: `diff --git`, or `---` `+++` `@@`. */
static int diff_starts(const char *s, size_t n, size_t off)
{
	aa_lspan a, b, c;

	aa_lspan_at(s, n, off, &a);
	if (aa_starts_with(s + a.start, a.len, "diff --git "))
		return 1;
	if (!aa_starts_with(s + a.start, a.len, "--- ") || a.next >= n)
		return 0;
	aa_lspan_at(s, n, a.next, &b);
	if (!aa_starts_with(s + b.start, b.len, "+++ ") || b.next >= n)
		return 0;
	aa_lspan_at(s, n, b.next, &c);
	return aa_starts_with(s + c.start, c.len, "@@");
}

static int diff_fits(const aa_fence_view *fv)
{
	size_t off;
	aa_lspan l;

	if (fv->lang == AA_LANG_DIFF)
		return 1;
	if (fv->lang != AA_LANG_NONE && fv->lang != AA_LANG_OTHER)
		return 0;
	for (off = 0; off < fv->len; off = l.next) {
		aa_lspan_at(fv->data, fv->len, off, &l);
		if (diff_starts(fv->data, fv->len, off))
			return 1;
	}
	return 0;
}

static int diff_parse(const aa_block *b, const aa_parse_opts *o,
		      aa_changeset *cs, aa_diags *d)
{
	return aa_parse_diff(b, o, NULL, cs, d);
}

/* ---------- the table ---------- */

/*
 * Detection order: for a fence, the first row whose fits_fence holds
 * takes it; for an unfenced line, the first row whose `starts` holds.
 */
const aa_format_row aa_format_rows[] = {
	{ .id = AA_FORMAT_APTIX, .name = "aptix", .forced = AA_FORCED_FENCES,
	  .fits_fence = aptix_fits, .forced_fence = aptix_forced,
	  .whole = aptix_whole, .parse = aa_parse_aptix },
	{ .id = AA_FORMAT_AP, .name = "ap", .forced = AA_FORCED_FENCES,
	  .fits_fence = ap_fits, .forced_fence = ap_forced, .whole = ap_whole,
	  .parse = aa_parse_ap },
	{ .id = AA_FORMAT_COMPANION, .name = "companion",
	  .forced = AA_FORCED_WHOLE, .starts = companion_starts,
	  .region_end = aa_companion_run_end, .wrapped = 1,
	  .fits_fence = companion_fits, .parse = aa_parse_companion },
	{ .id = AA_FORMAT_FILE_CHANGES, .name = "file-changes",
	  .forced = AA_FORCED_WHOLE, .starts = file_changes_starts,
	  .region_end = aa_file_changes_region_end, .wrapped = 1,
	  .fits_fence = file_changes_fits, .parse = aa_parse_file_changes },
	{ .id = AA_FORMAT_V4A, .name = "v4a", .forced = AA_FORCED_WHOLE,
	  .starts = aa_v4a_starts, .region_end = aa_v4a_region_end,
	  .wrapped = 2, .parse = aa_parse_v4a },
	{ .id = AA_FORMAT_SEARCH_REPLACE, .name = "search-replace",
	  .forced = AA_FORCED_SCAN, .starts = aa_sr_starts,
	  .region_end = aa_sr_region_end, .fits_fence = aa_sr_fits,
	  .parse = aa_parse_search_replace,
	  .parse_fenced = aa_parse_search_replace_fenced },
	{ .id = AA_FORMAT_DIFF, .name = "diff", .forced = AA_FORCED_WHOLE,
	  .starts = diff_starts, .body_end = aa_diff_body_end,
	  .fits_fence = diff_fits, .parse = diff_parse },
	/* last: any other fence that names its file */
	{ .id = AA_FORMAT_WHOLE_FILE, .name = "whole-file",
	  .forced = AA_FORCED_SCAN, .content = 1,
	  .fits_fence = aa_whole_file_fits,
	  .parse = aa_parse_whole_file,
	  .parse_fenced = aa_parse_whole_file_fenced },
};
const size_t aa_format_nrows = sizeof(aa_format_rows) / sizeof(*aa_format_rows);

const aa_format_row *aa_format_row_of(aa_format f)
{
	size_t i;

	for (i = 0; i < aa_format_nrows; i++)
		if (aa_format_rows[i].id == f)
			return &aa_format_rows[i];
	return NULL;
}

const char *aa_format_name(aa_format f)
{
	const aa_format_row *r;

	if (f == AA_FORMAT_AUTO)
		return "auto";
	r = aa_format_row_of(f);
	return r ? r->name : "?";
}

int aa_format_from_name(const char *name)
{
	size_t i;

	if (!strcmp(name, "auto"))
		return AA_FORMAT_AUTO;
	for (i = 0; i < aa_format_nrows; i++)
		if (!strcmp(name, aa_format_rows[i].name))
			return (int)aa_format_rows[i].id;
	return -1;
}

int aa_format_list(aa_buf *b, const char *sep)
{
	int f, r = aa_buf_puts(b, "auto");

	/* in the enum's order: the seed formats first, as the manual has them */
	for (f = AA_FORMAT_AUTO + 1; f < AA_FORMAT_COUNT && r >= 0; f++)
		if (aa_format_row_of((aa_format)f) &&
		    (r = aa_buf_puts(b, sep)) >= 0)
			r = aa_buf_puts(b, aa_format_name((aa_format)f));
	return r < 0 ? -1 : 0;
}
