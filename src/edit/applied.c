/*
 * "Already applied" for edits whose new side contains their old side:
 * the rule and its reasons are in src/edit/applied.h.
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "edit/applied.h"

/* Lines [lo, hi) of v as a view of their own (lo <= hi <= length). */
static aa_lview sub_view(const aa_lview *v, size_t lo, size_t hi)
{
	aa_lview s;
	size_t n0 = v->nseg[0];

	memset(&s, 0, sizeof(s));
	if (lo < n0) {
		s.seg[0] = v->seg[0] + lo;
		s.nseg[0] = (hi < n0 ? hi : n0) - lo;
	}
	if (hi > n0) {
		size_t from = lo > n0 ? lo - n0 : 0;

		s.seg[1] = v->seg[1] + from;
		s.nseg[1] = hi - n0 - from;
	}
	if (!s.nseg[0] && s.nseg[1]) {
		s.seg[0] = s.seg[1];
		s.nseg[0] = s.nseg[1];
		s.seg[1] = NULL;
		s.nseg[1] = 0;
	}
	return s;
}

long aa_applied_covering(const aa_lview *v, size_t at, size_t npre,
			 aa_needle *post, aa_ws lv, size_t *starts, size_t max)
{
	size_t total = aa_lview_len(v), lo, hi, i;
	aa_lview w;
	long n;

	if (!post->n || post->n < npre || at > total || npre > total - at || !max)
		return 0;
	/*
	 * An occurrence starting at s covers [at, at + npre) when
	 * at + npre - npost <= s <= at: every match inside the window
	 * [at + npre - npost, at + npost) is one, and only those are.
	 */
	lo = at + npre >= post->n ? at + npre - post->n : 0;
	hi = at + post->n < total ? at + post->n : total;
	if (hi - lo < post->n)
		return 0;
	w = sub_view(v, lo, hi);
	n = aa_locate_first(&w, post, lv, starts, max);
	for (i = 0; n > 0 && i < (size_t)n; i++)
		starts[i] += lo;
	return n;
}

/* Adds s to the distinct places list[0..*n) (kept at most 2). */
static void add_place(size_t *list, size_t *n, size_t s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (list[i] == s)
			return;
	if (*n < 2)
		list[(*n)++] = s;
}

/*
 * The verdict over several places of the old side: `covered` of the n
 * places are covered, by the distinct new-side places[0..nplaces)
 * (at most two kept). Applied when one is covered and either all are
 * or the new side stands at one place only: the first in *start.
 */
static int among_verdict(size_t covered, size_t n, const size_t *places,
			 size_t nplaces, size_t *start)
{
	if (!covered || (nplaces > 1 && covered < n))
		return 0;
	*start = places[0];
	if (nplaces > 1 && places[1] < *start)
		*start = places[1];
	return 1;
}

int aa_applied_among(const aa_lview *v, const size_t *hits, size_t n,
		     size_t npre, aa_needle *post, aa_ws lv, size_t *start)
{
	size_t places[2], nplaces = 0, covered = 0, i, s[2];
	long k;

	for (i = 0; i < n; i++) {
		k = aa_applied_covering(v, hits[i], npre, post, lv, s, 2);
		if (k < 0)
			return -1;
		if (k > 0)
			covered++;
		while (k-- > 0)
			add_place(places, &nplaces, s[k]);
	}
	return among_verdict(covered, n, places, nplaces, start);
}

size_t aa_applied_covering_bytes(const char *s, size_t len, size_t at,
				 size_t npre, const char *post, size_t npost,
				 size_t *starts, size_t max)
{
	size_t lo, hi, n = 0;
	const char *p;

	if (!npost || npost < npre || at > len || npre > len - at)
		return 0;
	lo = at + npre >= npost ? at + npre - npost : 0;
	hi = at + npost < len ? at + npost : len;
	while (n < max && hi - lo >= npost &&
	       (p = memmem(s + lo, hi - lo, post, npost)) != NULL) {
		starts[n++] = (size_t)(p - s);
		lo = (size_t)(p - s) + 1;
	}
	return n;
}

int aa_applied_among_bytes(const char *s, size_t len, const size_t *hits,
			   size_t n, size_t npre, const char *post,
			   size_t npost, size_t *start)
{
	size_t places[2], nplaces = 0, covered = 0, i, st[2], k;

	for (i = 0; i < n; i++) {
		k = aa_applied_covering_bytes(s, len, hits[i], npre, post, npost,
					      st, 2);
		covered += k > 0;
		while (k-- > 0)
			add_place(places, &nplaces, st[k]);
	}
	return among_verdict(covered, n, places, nplaces, start);
}
