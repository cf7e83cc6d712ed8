/*
 * The format registry (private to libaiapply): one row per format,
 * saying how the extractor finds its blocks (a line that starts an
 * unfenced region and where the region ends, a code fence whose content
 * fits, a whole input) and which parser takes them. The extractor
 * (src/format/extract.c) only walks this table; adding a format is one file
 * under src/format/ and one row in src/format/registry.c.
 *
 * The registry calls the parsers (format/parsers.h); no parser includes
 * this header, so the arrows between them run one way.
 */
#ifndef AA_FORMAT_REGISTRY_H
#define AA_FORMAT_REGISTRY_H

#include <stddef.h>

#include "format/parsers.h"

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
	 * Open-ended blocks (no region_end): the end of a body that starts
	 * at the line off (a diff's hunk), whose lines start no other
	 * block; off when no body starts there. Lines lose up to `indent`
	 * leading blanks first (an indented fence's). NULL: none.
	 */
	size_t (*body_end)(const char *s, size_t n, size_t off, size_t indent);
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

#endif
