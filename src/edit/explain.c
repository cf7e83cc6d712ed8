/* Explaining a miss: the line most like a sought one, and how it differs. */
#include "edit/explain.h"

size_t aa_line_likeness(const char *a, size_t alen, const char *b, size_t blen,
			size_t *prefix)
{
	size_t min = alen < blen ? alen : blen, p = 0, s = 0;

	while (p < min && a[p] == b[p])
		p++;
	while (s < min - p && a[alen - 1 - s] == b[blen - 1 - s])
		s++;
	if (prefix)
		*prefix = p;
	return p + s;
}

int aa_likest_line(aa_line_at_fn line_at, const void *arg, size_t from,
		   size_t n, const char *want, size_t wlen, size_t *best,
		   size_t *score, size_t *prefix)
{
	size_t i, top = 0, top_prefix = 0, at = 0, p;
	const char *s;
	size_t len;

	for (i = from; i < n; i++) {
		size_t sc;

		line_at(arg, i, &s, &len);
		sc = aa_line_likeness(s, len, want, wlen, &p);
		if (sc > top) {
			top = sc;
			top_prefix = p;
			at = i;
		}
	}
	if (!top)
		return 0;
	*best = at;
	*score = top;
	if (prefix)
		*prefix = top_prefix;
	return 1;
}

int aa_explain_differs(aa_buf *b, const char *fs, size_t flen,
		       const char *noun, const char *ss, size_t slen)
{
	if (aa_buf_put_quoted(b, fs, flen, AA_EXPLAIN_QUOTE_MAX) < 0 ||
	    aa_buf_printf(b, " where the %s has ", noun) < 0 ||
	    aa_buf_put_quoted(b, ss, slen, AA_EXPLAIN_QUOTE_MAX) < 0)
		return -1;
	return 0;
}
