/*
 * Already applied (Documentation/locating.md, "Re-applying is a no-op"),
 * for edits whose new side contains their old
 * side: an insertion (context, added lines), an append (SEARCH kept at
 * the start of REPLACE), a SEARCH that REPLACE keeps, ap INSERT_AFTER /
 * INSERT_BEFORE, an aptix find that its replace holds. Such an edit's
 * old side is still in the file after it applied, so "the old side is
 * absent" never tells that it did; what tells is the new side standing
 * over the place where the old side is located:
 *
 *   an operation is already applied at the place the locator gives its
 *   old side, [at, at + npre), when an occurrence of its new side covers
 *   that place: it starts at or before `at` and ends at or after
 *   `at + npre`.
 *
 * Covering implies containment (the old side's located lines are lines
 * of the new side), so an edit whose new side does not contain its old
 * side is never taken for applied here. An empty old side (a pure
 * insertion at a gap) is covered by a new side right before, after or
 * around the gap. Only the located place counts: the same lines
 * elsewhere in the file do not make an edit applied, so a second
 * insertion of lines the file already holds elsewhere still lands.
 *
 * Every engine asks this, once its old side is located and before it
 * changes anything (src/edit/hunks.c for diffs, SEARCH/REPLACE and v4a;
 * src/edit/replace.c for aptix; src/edit/ap_mods.c for ap).
 */
#ifndef AIAPPLY_APPLIED_H
#define AIAPPLY_APPLIED_H

#include "edit/locate.h"

/*
 * The places where `post` covers lines [at, at + npre) of v at level lv
 * (lines at other levels than AA_WS_EXACT need their hashes: see
 * aa_lrec_ws()): stores up to `max` of their starts in `starts`, first
 * first, and returns how many there are (at most max); -1 on
 * out-of-memory. 0 when npost < npre or npost == 0.
 */
long aa_applied_covering(const aa_lview *v, size_t at, size_t npre,
			 aa_needle *post, aa_ws lv, size_t *starts, size_t max);

/*
 * An old side located at several places hits[0..n) (an ambiguity): the
 * edit is already applied when the new side covers one of them and
 * either covers every one of them or stands at one place only, which
 * goes in *start. 1 applied, 0 not, -1 out-of-memory. Callers pass
 * every place (a partial list cannot tell "every one").
 */
int aa_applied_among(const aa_lview *v, const size_t *hits, size_t n,
		     size_t npre, aa_needle *post, aa_ws lv, size_t *start);

/*
 * The same rule on text seen as one string (aptix find/replace, which
 * matches bytes, not lines): the starts of the occurrences of
 * post[0..npost) that cover s[at, at + npre), at most `max`, first first.
 */
size_t aa_applied_covering_bytes(const char *s, size_t len, size_t at,
				 size_t npre, const char *post, size_t npost,
				 size_t *starts, size_t max);
/* aa_applied_among() on text seen as one string. */
int aa_applied_among_bytes(const char *s, size_t len, const size_t *hits,
			   size_t n, size_t npre, const char *post,
			   size_t npost, size_t *start);

#endif
