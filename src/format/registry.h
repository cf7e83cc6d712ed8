/*
 * The format registry (private to libaiapply): one row per format,
 * saying how the extractor finds its blocks (a line that starts an
 * unfenced region and where the region ends, a code fence whose content
 * fits, a whole input) and which parser takes them. The extractor
 * (src/format/extract.c) only walks this table; adding a format is one file
 * under src/format/ and one row in src/format/registry.c.
 *
 * Also the line helpers every parser shares: a line cursor (aa_lspan)
 * and an offset -> line number map (aa_linemap).
 */
#ifndef AA_FORMAT_REGISTRY_H
#define AA_FORMAT_REGISTRY_H

#include <stddef.h>
#include <string.h>

#include "format/format.h"

/* ---------- lines ---------- */

/*
 * One input line: content [start, start+len) without its terminator
 * ("\n", or "\r\n": the \r belongs to the line ending); `next` is the
 * offset of the following line (== input length at the end).
 */
typedef struct aa_lspan {
	size_t start, len, next;
} aa_lspan;

static inline void aa_lspan_at(const char *s, size_t n, size_t off,
			       aa_lspan *l)
{
	const char *nl = off < n ? memchr(s + off, '\n', n - off) : NULL;
	size_t end = nl ? (size_t)(nl - s) : n;

	l->start = off;
	l->next = nl ? end + 1 : n;
	if (nl && end > off && s[end - 1] == '\r')
		end--;
	l->len = end - off;
}

/* Number of '\n' in s[0..n). */
static inline long aa_count_lines(const char *s, size_t n)
{
	long k = 0;
	const char *p = s, *e = s + n;

	while (p < e && (p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		k++;
		p++;
	}
	return k;
}

/*
 * Offset -> input line for one block, the one line counter of every
 * parser. Lines are indexed lazily and only forward (each byte is looked
 * at once), lookups are a binary search: asking for positions in any
 * order costs O(n + k log n).
 */
typedef struct aa_linemap {
	const char *s;
	size_t n;
	long first;        /* input line of s[0] */
	size_t *starts;    /* starts[i]: offset of the block's line i */
	size_t nstarts, cap;
	size_t scanned;    /* newlines before this offset are indexed */
	int oom;
} aa_linemap;

void aa_linemap_init(aa_linemap *m, const char *s, size_t n, long first);
/* The input line holding offset off (off may be n). */
long aa_linemap_line(aa_linemap *m, size_t off);
void aa_linemap_free(aa_linemap *m);

/* ---------- the table ---------- */

/* A code fence's language tag, as far as detection cares. */
typedef enum aa_fence_lang {
	AA_LANG_NONE,   /* no tag */
	AA_LANG_DIFF,   /* diff, patch, udiff */
	AA_LANG_JSON,
	AA_LANG_YAML,
	AA_LANG_OTHER
} aa_fence_lang;

/* A code fence as the sniffers see it. */
typedef struct aa_fence_view {
	aa_fence_lang lang;
	const char *info;     /* the info string after the fence run, trimmed */
	size_t info_len;
	const char *label;    /* the last non-blank line before the fence, or NULL */
	size_t label_len;
	long label_line;      /* its input line */
	const char *data;     /* the content (indentation removed) */
	size_t len;
} aa_fence_view;

/* What --format=NAME hands to the parser. */
typedef enum aa_forced_mode {
	AA_FORCED_WHOLE,    /* the whole input: the parser finds its blocks */
	AA_FORCED_FENCES,   /* each fitting fence, or the whole input when none */
	AA_FORCED_SCAN      /* the auto scan, keeping this format's blocks only */
} aa_forced_mode;

typedef struct aa_format_row {
	aa_format id;
	const char *name;
	aa_forced_mode forced;
	/*
	 * Unfenced: the line at off starts a block of this format. NULL
	 * when the format only comes in fences.
	 */
	int (*starts)(const char *s, size_t n, size_t off);
	/*
	 * End of the block that starts at off; NULL: up to the next line
	 * where any block starts.
	 */
	size_t (*region_end)(const char *s, size_t n, size_t off);
	/*
	 * A fence that holds such a region is only a wrapper around it: 1
	 * in a fence of any language but diff, 2 in a ```diff fence too.
	 */
	int wrapped;
	/*
	 * Its blocks are file content (whole-file): in --format=auto a block
	 * holding an edit structure is refused instead (Documentation/
	 * formats.md, "Edit markers are never content").
	 */
	int content;
	/* The fence's content is a block of this format. */
	int (*fits_fence)(const aa_fence_view *fv);
	/* Under --format=NAME (AA_FORCED_FENCES): which fences go to it. */
	int (*forced_fence)(const aa_fence_view *fv);
	/* The whole input is one block of this format (bare document). */
	int (*whole)(const char *s, size_t n);
	int (*parse)(const aa_block *b, const aa_parse_opts *o,
		     aa_changeset *cs, aa_diags *d);
	/* For a fence, when set instead of parse: with the fence's label. */
	int (*parse_fenced)(const aa_block *b, const aa_fence_view *fv,
			    const aa_parse_opts *o, aa_changeset *cs,
			    aa_diags *d);
} aa_format_row;

/* The rows in detection order; the row of a format (NULL for auto). */
extern const aa_format_row aa_format_rows[];
extern const size_t aa_format_nrows;
const aa_format_row *aa_format_row_of(aa_format f);

/* Detection helpers the extractor uses for its messages. */
int aa_looks_ap(const char *s, size_t n);

/* ---------- paths next to code (src/format/label.c) ---------- */

/*
 * The path a label line names (`path/x.py`, `**x.py**`, `` `x.py` ``,
 * `File: x.py`, `### x.py`): 1 with it in *path (pointing into s), else
 * 0 (prose, or not a valid repository path).
 */
int aa_label_path(const char *s, size_t len, const char **path,
		  size_t *path_len);
/* The path in a fence's info string (`x.py`, `python:x.py`, `title="x.py"`). */
int aa_info_path(const char *s, size_t len, const char **path,
		 size_t *path_len);

/* ---------- edit markers (src/format/markers.c) ---------- */

/* A SEARCH/REPLACE marker line (at the start of the line). */
typedef enum aa_sr_mark {
	AA_SR_NONE,
	AA_SR_SEARCH,          /* <<<<<<< SEARCH (3+ '<', a trailing '>' too) */
	AA_SR_SEARCH_DASHES,   /* ------- SEARCH (Cline: 3+ '-') */
	AA_SR_DIVIDER,         /* ======= (5 or more '=') */
	AA_SR_DIVIDER_SHORT,   /* === or ==== (Cline's own blocks only) */
	AA_SR_REPLACE,         /* >>>>>>> REPLACE, +++++++ REPLACE (3+) */
	AA_SR_ROO_SEP          /* ------- (exactly 7: after Roo's hints) */
} aa_sr_mark;

aa_sr_mark aa_sr_mark_of(const char *s, size_t len);

/* An edit format's structure in a block (formats.md, "Edit markers"). */
typedef enum aa_structure {
	AA_STRUCT_NONE,
	AA_STRUCT_SR,        /* a SEARCH-style opener, a divider, a closer */
	AA_STRUCT_CONFLICT,  /* <<<<<<< x / ======= / >>>>>>> y */
	AA_STRUCT_V4A,       /* *** Begin Patch */
	AA_STRUCT_DIFF       /* --- / +++ / @@ */
} aa_structure;

/*
 * The first edit structure in s[0..n), with the offset of the line where
 * it starts in *at. Lenient where parsers are strict (markers may be
 * indented): what it finds and no parser read is refused, never written
 * as content or skipped as prose. A lone "=======" is no structure; a
 * conflict-style block (an opener without SEARCH) counts only with
 * `conflicts` (in what would be file content: a git conflict shown in
 * prose is an example), and so does a SEARCH or REPLACE marker alone.
 */
aa_structure aa_edit_structure(const char *s, size_t n, int conflicts,
			       size_t *at);
const char *aa_structure_name(aa_structure k);

/* ---------- what the formats give the table ---------- */

int aa_companion_is_command(const char *s, size_t len);
size_t aa_companion_run_end(const char *s, size_t n, size_t off);
int aa_file_changes_starts(const char *s, size_t len);
size_t aa_file_changes_region_end(const char *s, size_t n, size_t off);
int aa_v4a_starts(const char *s, size_t n, size_t off);
size_t aa_v4a_region_end(const char *s, size_t n, size_t off);
int aa_parse_v4a(const aa_block *b, const aa_parse_opts *o,
		 aa_changeset *cs, aa_diags *d);
int aa_whole_file_fits(const aa_fence_view *fv);
int aa_parse_whole_file(const aa_block *b, const aa_parse_opts *o,
			aa_changeset *cs, aa_diags *d);
int aa_parse_whole_file_fenced(const aa_block *b, const aa_fence_view *fv,
			       const aa_parse_opts *o, aa_changeset *cs,
			       aa_diags *d);
int aa_sr_starts(const char *s, size_t n, size_t off);
size_t aa_sr_region_end(const char *s, size_t n, size_t off);
int aa_sr_fits(const aa_fence_view *fv);
int aa_parse_search_replace(const aa_block *b, const aa_parse_opts *o,
			    aa_changeset *cs, aa_diags *d);
int aa_parse_search_replace_fenced(const aa_block *b, const aa_fence_view *fv,
				   const aa_parse_opts *o, aa_changeset *cs,
				   aa_diags *d);

#endif
