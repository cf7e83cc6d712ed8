/*
 * The line helpers every parser shares: a line cursor (aa_lspan), a
 * line counter and an offset -> line number map (aa_linemap). They know
 * nothing of formats; the registry and the parsers both use them.
 */
#ifndef AA_FORMAT_LINES_H
#define AA_FORMAT_LINES_H

#include <stddef.h>
#include <string.h>

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

#endif
