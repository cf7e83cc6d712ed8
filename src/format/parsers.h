/*
 * What the parsers give the format registry (registry.c calls them):
 * the fence view a parser of fenced blocks is handed, and the entry
 * points and sniffers declared nowhere else (format/format.h has the
 * other parsers). A parser includes this header, never registry.h.
 */
#ifndef AA_FORMAT_PARSERS_H
#define AA_FORMAT_PARSERS_H

#include <stddef.h>

#include "format/format.h"

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

int aa_companion_is_command(const char *s, size_t len);
size_t aa_companion_run_end(const char *s, size_t n, size_t off);
int aa_file_changes_starts(const char *s, size_t len);
size_t aa_file_changes_region_end(const char *s, size_t n, size_t off);
int aa_v4a_starts(const char *s, size_t n, size_t off);
size_t aa_v4a_region_end(const char *s, size_t n, size_t off);
/*
 * A diff's hunk body that starts at the line off (its `@@` header):
 * where it ends, by the header's counts and the lines' prefixes
 * (diff_region.c); off when the line is no hunk header. Each line is
 * read without up to `indent` leading blanks (an indented fence's).
 */
size_t aa_diff_body_end(const char *s, size_t n, size_t off, size_t indent);
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
