/*
 * Where an unfenced diff's hunk bodies run, for the extractor
 * (registry.c's body_end): inside a body, a line is the file's content
 * with a one-character prefix, so a context line that holds another
 * format's marker (" *** Begin Patch", " --- CREATE: x ---" in a diff
 * of this tool's own tests or docs) does not start a block there.
 *
 * A body is the lines after an `@@` header that start with ' ', '+',
 * '-' or '\\' (or are empty: a blank context line whose space an editor
 * dropped), up to the header's line counts when it has them. In a
 * fence indented by `indent`, each line loses that much indent first. A line
 * without such a prefix ends it early (the counts were wrong); the
 * diff parser reads the block itself (diff_hunk.c) and says so.
 */
#include <string.h>

#include "format/lines.h"
#include "format/parsers.h"

/* A decimal number at *p (advanced past it): 0, or -1 when none. */
static int read_count(const char **p, const char *end, long *v)
{
	const char *q = *p;
	long n = 0;

	if (q >= end || *q < '0' || *q > '9')
		return -1;
	while (q < end && *q >= '0' && *q <= '9') {
		if (n < 100000000)
			n = n * 10 + (*q - '0');
		q++;
	}
	*v = n;
	*p = q;
	return 0;
}

/* "<sign>start[,count]": the count (1 when absent); -1 when not a range. */
static long range_count(const char **p, const char *end, char sign)
{
	long start, count = 1;

	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
	if (*p >= end || **p != sign)
		return -1;
	(*p)++;
	if (read_count(p, end, &start) < 0)
		return -1;
	if (*p < end && **p == ',') {
		(*p)++;
		if (read_count(p, end, &count) < 0)
			return -1;
	}
	return count;
}

/*
 * The line is a hunk header: 1 with its counts, or with *counted 0 for
 * a bare "@@" (an AI's header without numbers: the body then runs as
 * long as its lines have a prefix).
 */
static int hunk_header(const char *s, size_t len, long *nold, long *nnew,
		       int *counted)
{
	const char *p = s + 2, *end = s + len;

	if (len < 2 || s[0] != '@' || s[1] != '@')
		return 0;
	*nold = range_count(&p, end, '-');
	*nnew = *nold < 0 ? -1 : range_count(&p, end, '+');
	*counted = *nold >= 0 && *nnew >= 0;
	return 1;
}

/* The line at off without up to `indent` leading blanks (a fence's indent). */
static void line_at(const char *s, size_t n, size_t off, size_t indent,
		    aa_lspan *l)
{
	size_t k = 0;

	aa_lspan_at(s, n, off, l);
	while (k < indent && k < l->len &&
	       (s[l->start + k] == ' ' || s[l->start + k] == '\t'))
		k++;
	l->start += k;
	l->len -= k;
}

size_t aa_diff_body_end(const char *s, size_t n, size_t off, size_t indent)
{
	long nold, nnew;
	int counted;
	aa_lspan l;

	line_at(s, n, off, indent, &l);
	if (!hunk_header(s + l.start, l.len, &nold, &nnew, &counted))
		return off;
	for (off = l.next; off < n && (!counted || nold > 0 || nnew > 0);
	     off = l.next) {
		char c;

		line_at(s, n, off, indent, &l);
		c = l.len ? s[l.start] : ' ';
		if (l.len == 1 && s[l.start] == '\r')
			c = ' ';
		if (c == '\\')
			continue;
		if (c != ' ' && c != '+' && c != '-')
			break;
		if (!counted)
			continue;
		nold -= c != '+';
		nnew -= c != '-';
	}
	return off;
}
