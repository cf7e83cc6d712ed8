/*
 * Private interface between the extractor (src/extract.c) and the
 * companion and file-changes parsers: the extractor must know where a
 * companion run or a file-changes region ends so that it does not scan
 * their bodies for other formats, and only these parsers know their
 * syntax. Also a line cursor shared by the three files.
 */
#ifndef AA_EXTRACT_PRIV_H
#define AA_EXTRACT_PRIV_H

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
 * companion: true when the line s[0..len) is a companion command line
 * (`--- START-FILE: p ---`, END-..., DELETE-FILE, any known verb).
 */
int aa_companion_is_command(const char *s, size_t len);
/*
 * companion: `off` is the start of a command line. Returns the end of
 * the run of consecutive commands that starts there: each START through
 * its END (or up to the next command when the END is missing), blank
 * lines between commands included, trailing ones not.
 */
size_t aa_companion_run_end(const char *s, size_t n, size_t off);

/*
 * file-changes: true when a line starting at s (after its indentation)
 * opens a file-changes region: `<FILE_CHANGES>` or a FILE_NEW,
 * FILE_PATCH, FILE_RENAME, FILE_DELETE directive.
 */
int aa_file_changes_starts(const char *s, size_t len);
/*
 * file-changes: `off` is the start of a line for which
 * aa_file_changes_starts() holds. Returns the end of the region: the
 * root container through </FILE_CHANGES>, or a run of directives
 * separated by blank lines; the end of the input when a closing tag is
 * missing (the parser then reports it).
 */
size_t aa_file_changes_region_end(const char *s, size_t n, size_t off);

#endif
