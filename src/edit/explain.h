/*
 * Explaining a miss, for the engines' "not found" messages: what in the
 * file comes closest to a sought text that is not there. The locator
 * finds the region where most sought lines match (aa_locate_closest,
 * the hunk engine's "closest: lines 12-18"); these say which single line
 * is most like a sought one and how a file line differs from it. The
 * engines word their messages with them; what they call the sought text
 * ("snippet", "anchor", "find text") is a parameter.
 */
#ifndef AIAPPLY_EXPLAIN_H
#define AIAPPLY_EXPLAIN_H

#include "aiapply/common.h"

/* Bytes of a file or sought line quoted in such a message. */
#define AA_EXPLAIN_QUOTE_MAX 80

/*
 * How alike two lines are: the bytes they have in common at the start
 * plus those at the end (*prefix, when not NULL: those at the start).
 */
size_t aa_line_likeness(const char *a, size_t alen, const char *b, size_t blen,
			size_t *prefix);

/*
 * The line most like `want` among lines [from, n) of a text whose line
 * i is got by line_at(arg, i, &s, &len): the first with the highest
 * likeness, in *best (with its score and prefix); 0 when no line has a
 * byte in common with it, else 1.
 */
typedef void (*aa_line_at_fn)(const void *arg, size_t i, const char **s,
			      size_t *len);
int aa_likest_line(aa_line_at_fn line_at, const void *arg, size_t from,
		   size_t n, const char *want, size_t wlen, size_t *best,
		   size_t *score, size_t *prefix);

/*
 * Appends '"<file line>" where the <noun> has "<sought line>"', the
 * tail of "line 12 is ... where the find text has ...": -1 when out of
 * memory.
 */
int aa_explain_differs(aa_buf *b, const char *fs, size_t flen,
		       const char *noun, const char *ss, size_t slen);

#endif
