/*
 * Edit markers (markers.c): SEARCH/REPLACE marker lines and the edit
 * structures the extractor refuses to take for prose or content.
 */
#ifndef AA_FORMAT_MARKERS_H
#define AA_FORMAT_MARKERS_H

#include <stddef.h>

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

#endif
