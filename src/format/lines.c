/* The line map: offset -> input line, indexed lazily (lines.h). */
#include <stdlib.h>
#include <string.h>

#include "format/lines.h"
#include "util/util.h"

void aa_linemap_init(aa_linemap *m, const char *s, size_t n, long first)
{
	memset(m, 0, sizeof(*m));
	m->s = s;
	m->n = n;
	m->first = first;
}

void aa_linemap_free(aa_linemap *m)
{
	free(m->starts);
	memset(m, 0, sizeof(*m));
}

static int linemap_push(aa_linemap *m, size_t off)
{
	if (AA_GROW(m->starts, m->nstarts, m->cap) < 0)
		return -1;
	m->starts[m->nstarts++] = off;
	return 0;
}

/* Indexes the line starts up to offset `upto`. */
static void linemap_scan(aa_linemap *m, size_t upto)
{
	const char *p, *e;

	if (!m->nstarts && linemap_push(m, 0) < 0) {
		m->oom = 1;
		return;
	}
	if (upto > m->n)
		upto = m->n;
	while (m->scanned < upto) {
		e = m->s + m->n;
		p = memchr(m->s + m->scanned, '\n', (size_t)(e - m->s) - m->scanned);
		if (!p) {
			m->scanned = m->n;
			break;
		}
		m->scanned = (size_t)(p - m->s) + 1;
		if (linemap_push(m, m->scanned) < 0) {
			m->oom = 1;
			return;
		}
	}
}

long aa_linemap_line(aa_linemap *m, size_t off)
{
	size_t lo = 0, hi;

	if (!m->oom)
		linemap_scan(m, off + 1);
	if (m->oom)  /* still right, only slower */
		return m->first + aa_count_lines(m->s, off < m->n ? off : m->n);
	hi = m->nstarts;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->starts[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return m->first + (long)lo;
}
