/*
 * Edit markers: the one classifier of SEARCH/REPLACE marker lines (the
 * search-replace parser reads blocks with it) and the one detector of
 * edit structure (the extractor runs it over every block that would be
 * file content or prose). Documentation/formats.md, "Edit markers are
 * never content": a block holding an edit format's structure parses as that
 * format, or the answer is refused naming the line.
 *
 * Marker variants, as the peers' parsers accept them (read in Aider's
 * editblock_coder.py, Cline's diff.ts, Roo Code's multi-search-replace
 * strategy; Documentation/differences-from-peers.md):
 *   <<<<<<< SEARCH    3 or more '<' (Aider 5-9, Roo 7, Cline 3+), or 3 or
 *   ------- SEARCH    more '-' (Cline); one space; an optional '>' (all
 *                     three take "SEARCH>")
 *   =======           5 or more '=' (Aider 5-9, Roo 7, Cline 3+); 3 or 4
 *                     only in a block opened by '-' (Cline's own form)
 *   >>>>>>> REPLACE   3 or more '>' or '+'; an optional '>' (Cline)
 *   -------           exactly 7 '-' after Roo's hints (Roo's regex)
 * Every marker starts its line (Cline and Roo; Aider strips the line,
 * but an indented "=======" is an underline in a docstring and a diff's
 * context line " <<<<<<< SEARCH" is not a marker); trailing blanks, and
 * a CR, are allowed.
 */
#include <string.h>

#include "format/lines.h"
#include "format/markers.h"
#include "util/util.h"

static size_t run_of(const char *s, size_t len, char c)
{
	size_t i = 0;

	while (i < len && s[i] == c)
		i++;
	return i;
}

/* After a run of 3 or more c: " word", an optional '>', nothing else. */
static int run_word(const char *s, size_t len, char c, const char *word)
{
	size_t i = run_of(s, len, c), n = strlen(word);

	if (i < 3 || len < i + 1 + n || s[i] != ' ' ||
	    memcmp(s + i + 1, word, n))
		return 0;
	i += 1 + n;
	return i == len || (i + 1 == len && s[i] == '>');
}

aa_sr_mark aa_sr_mark_of(const char *s, size_t len)
{
	size_t r;

	/* most lines are content: out at their first byte */
	if (!len || (s[0] != '<' && s[0] != '-' && s[0] != '=' &&
		     s[0] != '>' && s[0] != '+'))
		return AA_SR_NONE;
	len = aa_rtrim(s, len, aa_is_blank_cr);
	switch (s[0]) {
	case '<':
		return run_word(s, len, '<', "SEARCH") ? AA_SR_SEARCH : AA_SR_NONE;
	case '-':
		if (run_word(s, len, '-', "SEARCH"))
			return AA_SR_SEARCH_DASHES;
		return run_of(s, len, '-') == len && len == 7 ?
		       AA_SR_ROO_SEP : AA_SR_NONE;
	case '=':
		r = run_of(s, len, '=');
		if (r != len || r < 3)
			return AA_SR_NONE;
		return r >= 5 ? AA_SR_DIVIDER : AA_SR_DIVIDER_SHORT;
	default:  /* '>' or '+' */
		return run_word(s, len, s[0], "REPLACE") ? AA_SR_REPLACE :
		       AA_SR_NONE;
	}
}

/* ---------- the detector ---------- */

/* The line without its indentation. */
static void unindent(const char **s, size_t *len)
{
	size_t i = aa_indent_of(*s, *len);

	*s += i;
	*len -= i;
}

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/*
 * A run of c, read loosely: 2 when 3 or more c, blanks, then `word` in
 * any case follow ("<<<<<<<SEARCH", "<<< search (app.py)"); 1 for any
 * other run of 5 or more (a conflict's "<<<<<<< HEAD"); else 0.
 */
static int loose_run(const char *s, size_t len, char c, const char *word)
{
	size_t r = run_of(s, len, c), i = r, n = strlen(word), k;

	if (r < 3)
		return 0;
	while (i < len && aa_is_blank_cr(s[i]))
		i++;
	for (k = 0; k < n && i + k < len && upper(s[i + k]) == word[k]; k++)
		;
	if (k == n)
		return 2;
	return r >= 5;
}

/* The three parts of a SEARCH/REPLACE or conflict-style block. */
typedef enum part { P_NONE, P_OPEN, P_DIVIDER, P_CLOSE } part;

/*
 * *keyword: an opener or closer with SEARCH or REPLACE; for a divider,
 * one of 5 or more '=' (3 or 4 only divide a SEARCH/REPLACE block).
 */
static part part_of(const char *s, size_t len, int *keyword)
{
	size_t r;
	int k;

	*keyword = 0;
	switch (s[0]) {
	case '<':
		k = loose_run(s, len, '<', "SEARCH");
		*keyword = k == 2;
		return k ? P_OPEN : P_NONE;
	case '-':
		*keyword = loose_run(s, len, '-', "SEARCH") == 2;
		return *keyword ? P_OPEN : P_NONE;
	case '=':
		len = aa_rtrim(s, len, aa_is_blank_cr);
		r = run_of(s, len, '=');
		*keyword = r >= 5;
		return r == len && r >= 3 ? P_DIVIDER : P_NONE;
	case '>':
		k = loose_run(s, len, '>', "REPLACE");
		*keyword = k == 2;
		return k ? P_CLOSE : P_NONE;
	case '+':
		*keyword = loose_run(s, len, '+', "REPLACE") == 2;
		return *keyword ? P_CLOSE : P_NONE;
	default:
		return P_NONE;
	}
}

static int trimmed_is(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	unindent(&s, &len);
	len = aa_rtrim(s, len, aa_is_blank_cr);
	return len == n && !memcmp(s, word, n);
}

static int prefixed(const char *s, size_t len, const char *p)
{
	size_t n = strlen(p);

	unindent(&s, &len);
	return len >= n && !memcmp(s, p, n);
}

/* `---`, `+++`, `@@` on three lines from off: a unified diff's file header. */
static int diff_header(const char *s, size_t n, const aa_lspan *a)
{
	aa_lspan b, c;

	if (!prefixed(s + a->start, a->len, "--- ") || a->next >= n)
		return 0;
	aa_lspan_at(s, n, a->next, &b);
	if (!prefixed(s + b.start, b.len, "+++ ") || b.next >= n)
		return 0;
	aa_lspan_at(s, n, b.next, &c);
	return prefixed(s + c.start, c.len, "@@");
}

aa_structure aa_edit_structure(const char *s, size_t n, int conflicts,
			       size_t *at)
{
	size_t off, open_at = 0;
	part state = P_NONE, p;
	int keyword, open_keyword = 0;
	const char *t;
	size_t tl;
	aa_lspan l;

	for (off = 0; off < n; off = l.next) {
		aa_lspan_at(s, n, off, &l);
		t = s + l.start;
		tl = l.len;
		unindent(&t, &tl);
		if (!tl)
			continue;
		if (trimmed_is(t, tl, "*** Begin Patch")) {
			*at = off;
			return AA_STRUCT_V4A;
		}
		if (diff_header(s, n, &l)) {
			*at = off;
			return AA_STRUCT_DIFF;
		}
		p = part_of(t, tl, &keyword);
		if (conflicts && keyword && (p == P_OPEN || p == P_CLOSE)) {
			/* in a file, a SEARCH or REPLACE marker alone is one */
			*at = off;
			return AA_STRUCT_SR;
		}
		if (p == P_OPEN && !keyword && !conflicts)
			continue;
		if (p == P_OPEN && state == P_NONE) {
			state = P_OPEN;
			open_at = off;
			open_keyword = keyword;
		} else if (p == P_DIVIDER && state == P_OPEN &&
			   (keyword || open_keyword)) {
			state = P_DIVIDER;
		} else if (p == P_CLOSE && state == P_DIVIDER) {
			*at = open_at;
			return open_keyword || keyword ? AA_STRUCT_SR :
			       AA_STRUCT_CONFLICT;
		}
	}
	return AA_STRUCT_NONE;
}

const char *aa_structure_name(aa_structure k)
{
	switch (k) {
	case AA_STRUCT_SR:
		return "SEARCH/REPLACE markers";
	case AA_STRUCT_CONFLICT:
		return "conflict-style markers (<<<<<<< / ======= / >>>>>>>)";
	case AA_STRUCT_V4A:
		return "a V4A patch (*** Begin Patch)";
	case AA_STRUCT_DIFF:
		return "a unified diff header (--- / +++ / @@)";
	default:
		return "no edit structure";
	}
}
