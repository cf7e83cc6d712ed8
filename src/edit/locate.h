/*
 * The locator: finds runs of lines in a text, exactly or with whitespace
 * ignored. Every line is hashed once per whitespace level (XXH3); the
 * searches run on the hash arrays (KMP, or a scan outward from a hint)
 * and every hash hit is confirmed byte for byte before it counts. Each
 * search reports every candidate, so callers can refuse ambiguity.
 */
#ifndef AIAPPLY_LOCATE_H
#define AIAPPLY_LOCATE_H

#include "aiapply/common.h"
#include "edit/text.h"

/* How much whitespace a comparison ignores. */
typedef enum aa_ws {
	AA_WS_EXACT = 0,   /* byte for byte */
	AA_WS_TRAILING,    /* trailing blanks ignored */
	AA_WS_BOTH,        /* leading and trailing blanks ignored */
	AA_WS_LEVELS
} aa_ws;

/* One line with its hash at every level. */
typedef struct aa_lrec {
	const char *s;
	uint32_t len : 29;        /* lines are far shorter (AA_MAX_TEXT_SIZE) */
	uint32_t eol : 2;         /* an aa_eol */
	uint32_t ws_ready : 1;    /* h[AA_WS_TRAILING..] computed */
	/*
	 * 32 bits of XXH3 per level: a collision only costs a byte compare
	 * (every hit is confirmed), and 24 bytes a line keep a large file's
	 * edit within a small multiple of its size.
	 */
	uint32_t h[AA_WS_LEVELS];
} aa_lrec;

/* Fills r for the line s[0..len) (s is not copied), every level. */
void aa_lrec_set(aa_lrec *r, const char *s, size_t len, aa_eol eol);
/*
 * The same with only the exact hash: most searches never look past the
 * exact level, so a whole file's other levels are computed on demand,
 * with aa_lrec_ws(), before the first search that needs them.
 */
void aa_lrec_set_exact(aa_lrec *r, const char *s, size_t len, aa_eol eol);
void aa_lrec_ws(aa_lrec *r);
/* Every line of t as a record, every level; NULL when out of memory. */
aa_lrec *aa_lrecs_of_text(const aa_text *t);
/* The part of s[0..len) that counts at level lv: s[*off .. *off + *n). */
void aa_ws_span(const char *s, size_t len, aa_ws lv, size_t *off, size_t *n);
/* 1 when the two lines are equal at level lv. */
int aa_lrec_eq(const aa_lrec *a, const aa_lrec *b, aa_ws lv);
/* 1 for a line of blanks only. */
int aa_line_is_blank(const char *s, size_t len);

/*
 * A text seen as two consecutive segments: the part already edited and
 * the rest of the original. Either may be empty.
 */
typedef struct aa_lview {
	const aa_lrec *seg[2];
	size_t nseg[2];
} aa_lview;

static inline size_t aa_lview_len(const aa_lview *v)
{
	return v->nseg[0] + v->nseg[1];
}

static inline const aa_lrec *aa_lview_at(const aa_lview *v, size_t i)
{
	return i < v->nseg[0] ? &v->seg[0][i] : &v->seg[1][i - v->nseg[0]];
}

/* A sought run of lines; KMP tables are built on first use per level. */
typedef struct aa_needle {
	const aa_lrec *v;
	size_t n;
	size_t *fail[AA_WS_LEVELS];
} aa_needle;

#define AA_NEEDLE_INIT(lines, count) { (lines), (count), { NULL, NULL, NULL } }

void aa_needle_release(aa_needle *nd);

/* 1 when the needle matches the view at line `at` (0-based), else 0. */
int aa_locate_at(const aa_lview *v, size_t at, const aa_needle *nd, aa_ws lv);

/*
 * Every match, in order: stores the first `max` positions in hits and
 * returns how many there are in all; -1 on out-of-memory. An empty
 * needle matches nowhere.
 */
long aa_locate_all(const aa_lview *v, aa_needle *nd, aa_ws lv,
		   size_t *hits, size_t max);

/*
 * The first `max` matches only, in order: stores them in hits and
 * returns how many there are (at most max); -1 on out-of-memory. One
 * linear pass that stops at the max-th match.
 */
long aa_locate_first(const aa_lview *v, aa_needle *nd, aa_ws lv,
		     size_t *hits, size_t max);

/*
 * The match nearest to line `hint`: returns 0 (none), 1 (at[0]) or 2
 * when two matches are equally near (at[0] before, at[1] after the
 * hint); -1 on out-of-memory.
 */
int aa_locate_nearest(const aa_lview *v, aa_needle *nd, aa_ws lv,
		      size_t hint, size_t at[2]);

/*
 * The place where the most needle lines match (at level AA_WS_BOTH)
 * when the needle lies at it, nearest the hint on a tie: *at may be
 * "before" the text (negative) when the needle's first lines would
 * hang over the start. Returns the number of matching lines (0 when no
 * line matches anywhere), -1 on out-of-memory.
 */
long aa_locate_closest(const aa_lview *v, const aa_needle *nd, size_t hint,
		       long *at);

/* Called with each place of a search, in order; non-zero stops it. */
typedef int (*aa_hit_fn)(size_t at, void *arg);

/*
 * Blank-line drift (Documentation/locating.md, "Blank-line drift, rung
 * 5"): every place where
 * the needle's non-blank lines follow one another at level lv with only
 * blank lines between them in the text, however many the needle has
 * there. Calls fn with the line of the text where the needle's first
 * non-blank line is, in order, until it returns non-zero; the caller
 * decides which blank lines around and between make a match. Returns
 * 0, or -1 on out-of-memory; a needle of blank lines only has no place.
 * One pass over the text (its non-blank lines, KMP on their hashes).
 */
int aa_locate_drift(const aa_lview *v, const aa_needle *nd, aa_ws lv,
		    aa_hit_fn fn, void *arg);

/*
 * The region an anchor line (a V4A "@@ class Writer:") opens
 * (Documentation/locating.md, "V4A anchors name a region"): from line
 * `at` to the first later line indented at or left of it; returns that
 * line's index (aa_lview_len() when the region runs to the end). Blank
 * lines belong to the region. Widths count a tab to the next multiple
 * of 8.
 *
 *   - An anchor that ends in an opening bracket ("{", "[", "(") opens a
 *     bracketed block, and so does one followed by a line "{" alone at
 *     its own indentation (the brace on its own line): the block ends
 *     at the first later line at the anchor's indentation that starts
 *     with a closing bracket, which belongs to it ("}", "};", "})",
 *     "} else {"); other lines at that indentation ("public:",
 *     "case 1:") stay inside, and so do lines left of it ("#ifdef")
 *     unless they start with a closing bracket, which ends the region
 *     before it.
 *   - Otherwise the block is the following lines indented deeper; a line
 *     at the anchor's indentation made only of closing brackets (a lone
 *     "}") still belongs to it.
 *   - An anchor followed by no deeper line opens no block: it names a
 *     place, and its region is the rest of the text (as Codex reads
 *     every anchor).
 */
size_t aa_scope_end(const aa_lview *v, size_t at);

#endif
