/*
 * Paths that answers write next to code: the line before a fence
 * (`path/x.py`, `**path/x.py**`, `` `path/x.py` ``, `File: path/x.py`,
 * `### path/x.py`), a fence's info string (```` ```x.py ````,
 * ```` ```python title="x.py" ````, ```` ```python:path/x.py ````) or a
 * first-line comment (`// path/x.c`, `# path/x.py`). Shared by the
 * search-replace and whole-file parsers.
 *
 * A label is a path only when, once its decoration is gone, it is one
 * token that looks like a file name and is a valid path as an answer
 * writes it (aa_path_answer: "./x" and absolute paths too, the last
 * naming a file -- "/api/users" is an endpoint; the planner resolves
 * them against the tree): "Here is the updated file:" is prose.
 * Looks like a file name means: a '/' or a '.' that does not end it
 * (".gitignore" too), or a well-known file name without a dot
 * ("Makefile", "Dockerfile"; not in an info string, where "dockerfile"
 * is a language). A blank is part of a path only in a label that is
 * delimited (`` `src/my file.py` ``, `**src/my file.py**`, a quoted
 * title) and starts with a directory ("src/my ..."): "**Update app.py**"
 * stays prose. A token starting with '!' is none ("#!/bin/bash" is a
 * shebang, not a path comment).
 */
#include <string.h>

#include "change/path.h"
#include "aiapply/common.h"
#include "format/label.h"
#include "util/util.h"

/* Drops a run of c at both ends when there is one at each. */
static int strip_pair(const char *s, size_t *a, size_t *z, char c)
{
	size_t i = *a, j = *z;

	while (i < j && s[i] == c)
		i++;
	while (j > i && s[j - 1] == c)
		j--;
	if (i == *a || j == *z)
		return 0;
	*a = i;
	*z = j;
	return 1;
}

/*
 * **x** or __x__; stray '*' at either end too (`**File:** x` leaves
 * "** x" once the keyword is gone): no path holds one. 1 when both ends
 * had one (the label is delimited).
 */
static int strip_emphasis(const char *s, size_t *a, size_t *z)
{
	int front = 0, back = 0;

	if (strip_pair(s, a, z, '_'))
		return 1;
	while (*a < *z && s[*a] == '*') {
		(*a)++;
		front = 1;
	}
	while (*z > *a && s[*z - 1] == '*') {
		(*z)--;
		back = 1;
	}
	return front && back;
}

/*
 * "File:", "Filename:", "Path:" and the like at s[*a]. Not "In x.py:" or
 * "Update x.py:": those introduce a snippet as often as a whole file.
 */
static void strip_keyword(const char *s, size_t *a, size_t z)
{
	static const char *const words[] = {
		"file:", "filename:", "file name:", "path:", "filepath:",
		"file path:", "new file:", "updated file:", "modified file:",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (aa_ci_starts_with(s + *a, z - *a, words[i])) {
			*a += strlen(words[i]);
			return;
		}
}

/* What a token may be besides a path with a '/' or a '.'. */
enum {
	TOK_SPACED = 1,    /* delimited: blanks allowed after a directory */
	TOK_WELL_KNOWN = 2 /* a well-known dotless file name counts */
};

/*
 * File names that carry no dot and are files all the same. Only these
 * count as a bare-word label: "Update" or "Here" before a fence is
 * prose, and a parser has no tree to ask (Documentation/locating.md,
 * "Which file a path names").
 */
static int well_known_name(const char *s, size_t len)
{
	static const char *const names[] = {
		"Makefile", "makefile", "GNUmakefile", "Dockerfile",
		"Containerfile", "Jenkinsfile", "Vagrantfile", "Gemfile",
		"Rakefile", "Procfile", "Brewfile", "Podfile", "Pipfile",
		"Justfile", "justfile", "Caddyfile", "Snakefile", "Earthfile",
		"Tiltfile", "Guardfile", "Berksfile", "Capfile", "Kconfig",
		"Kbuild", "LICENSE", "LICENCE", "COPYING", "README",
		"CHANGELOG", "NOTICE", "AUTHORS", "CONTRIBUTORS", "CODEOWNERS",
		"OWNERS", "BUILD", "WORKSPACE", "VERSION",
	};
	size_t i = len;

	while (i && s[i - 1] != '/')
		i--;
	s += i;
	len -= i;
	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strlen(names[i]) == len && !memcmp(s, names[i], len))
			return 1;
	return 0;
}

/* The last component has a dot inside it, or is a well-known name. */
static int file_name_like(const char *s, size_t len)
{
	size_t i = len;

	while (i && s[i - 1] != '/')
		i--;
	if (well_known_name(s + i, len - i))
		return 1;
	for (; i + 1 < len; i++)
		if (s[i] == '.')
			return 1;
	return 0;
}

/* A '.' with a letter or digit after it in s[a..z): "app.py", "v1.2". */
static int has_extension(const char *s, size_t a, size_t z)
{
	for (; a + 1 < z; a++)
		if (s[a] == '.' && ((s[a + 1] >= 'a' && s[a + 1] <= 'z') ||
				    (s[a + 1] >= 'A' && s[a + 1] <= 'Z') ||
				    (s[a + 1] >= '0' && s[a + 1] <= '9')))
			return 1;
	return 0;
}

/*
 * Blanks in a path: only in a delimited label, only once a directory
 * has begun it ("src/my file.py"), never at its end, and never after a
 * word that is a file name itself ("src/app.py and tests/x.py" is a
 * sentence).
 */
static int blanks_allowed(const char *s, size_t len, int flags)
{
	const char *blank = memchr(s, ' ', len);
	size_t i, word = 0;

	if (memchr(s, '\t', len) || memchr(s, '\r', len))
		return 0;
	if (!blank)
		return 1;
	if (!(flags & TOK_SPACED) || s[len - 1] == ' ' ||
	    !memchr(s, '/', (size_t)(blank - s)))
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] == ' ') {
			if (has_extension(s, word, i))
				return 0;
			word = i + 1;
		}
	return 1;
}

/*
 * One token that looks like a file path and is a valid one as an
 * answer writes it: 1 with the path (leading "./" gone) in *out.
 */
static int path_token(const char *s, size_t len, int flags, const char **out,
		      size_t *out_len)
{
	const char *why;
	size_t i;
	int dot_or_slash = 0;

	if (!len || len > AA_MAX_PATH_LENGTH || s[0] == '!' ||
	    !blanks_allowed(s, len, flags))
		return 0;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == '`' || c == '*' ||
		    c == '"' || c == '\'' || c == '<' || c == '>' || c == '|' ||
		    c == '(' || c == ')' || c == '[' || c == ']' || c == '{' ||
		    c == '}' || c == '=' || c == ',' || c == ';')
			return 0;
		if (c == '/' || (c == '.' && i + 1 < len))
			dot_or_slash = 1;
	}
	if (!dot_or_slash && (flags & TOK_WELL_KNOWN))
		dot_or_slash = well_known_name(s, len);
	/* a sentence ends with a dot; a URL is no repository path */
	if (!dot_or_slash || s[len - 1] == '.' || memchr(s, ':', len))
		return 0;
	/* "/api/users" is an endpoint: an absolute label names a file */
	if (s[0] == '/' && !file_name_like(s, len))
		return 0;
	return aa_path_answer(s, len, out, out_len, &why) == 0;
}

/* A numbered list item's "1. " or "2) " at s[*a]. */
static void skip_list_number(const char *s, size_t *a, size_t z)
{
	size_t i = *a;

	while (i < z && i - *a < 4 && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i > *a && i + 1 < z && (s[i] == '.' || s[i] == ')') &&
	    aa_is_blank_cr(s[i + 1]))
		*a = i + 2;
}

int aa_label_path(const char *s, size_t len, const char **path,
		  size_t *path_len)
{
	size_t a = 0, z = len;
	int delimited;

	aa_trim(s, &a, &z, aa_is_blank_cr);
	/* Markdown heading or list item */
	while (a < z && s[a] == '#')
		a++;
	aa_trim(s, &a, &z, aa_is_blank_cr);
	if (z - a >= 2 && (s[a] == '-' || s[a] == '+') && aa_is_blank_cr(s[a + 1]))
		a += 2;
	else
		skip_list_number(s, &a, z);
	aa_trim(s, &a, &z, aa_is_blank_cr);
	/* **File: x** and File: **x** alike */
	delimited = strip_emphasis(s, &a, &z);
	aa_trim(s, &a, &z, aa_is_blank_cr);
	strip_keyword(s, &a, z);
	aa_trim(s, &a, &z, aa_is_blank_cr);
	if (z > a && s[z - 1] == ':')
		z--;
	delimited |= strip_emphasis(s, &a, &z);
	aa_trim(s, &a, &z, aa_is_blank_cr);
	delimited |= strip_pair(s, &a, &z, '`');
	aa_trim(s, &a, &z, aa_is_blank_cr);
	return path_token(s + a, z - a,
			  TOK_WELL_KNOWN | (delimited ? TOK_SPACED : 0), path,
			  path_len);
}

/* `title="x.py"` (or 'x.py', or unquoted) in an info string. */
static int info_title(const char *s, size_t len, const char **path,
		      size_t *path_len)
{
	size_t i, a, z;
	int flags;

	for (i = 0; i + 6 <= len; i++) {
		if ((i && !aa_is_blank_cr(s[i - 1])) ||
		    (!aa_ci_starts_with(s + i, len - i, "title=") &&
		     !aa_ci_starts_with(s + i, len - i, "file=") &&
		     !aa_ci_starts_with(s + i, len - i, "path=") &&
		     !aa_ci_starts_with(s + i, len - i, "filename=")))
			continue;
		a = i + (size_t)((const char *)memchr(s + i, '=', len - i) - (s + i)) + 1;
		z = a;
		flags = TOK_WELL_KNOWN;
		if (a < len && (s[a] == '"' || s[a] == '\'')) {
			char q = s[a++];

			for (z = a; z < len && s[z] != q; z++)
				;
			flags |= TOK_SPACED;
		} else {
			while (z < len && !aa_is_blank_cr(s[z]))
				z++;
		}
		if (path_token(s + a, z - a, flags, path, path_len))
			return 1;
	}
	return 0;
}

int aa_info_path(const char *s, size_t len, const char **path,
		 size_t *path_len)
{
	size_t w = 0, c;

	if (info_title(s, len, path, path_len))
		return 1;
	while (w < len && !aa_is_blank_cr(s[w]))
		w++;
	/* ```python:path/x.py */
	for (c = 0; c < w && s[c] != ':'; c++)
		;
	if (c < w && path_token(s + c + 1, w - c - 1, 0, path, path_len))
		return 1;
	/* ```x.py or ```path/x.py: the first word is a path, not a language */
	if (path_token(s, w, 0, path, path_len))
		return 1;
	/* ```python path/x.py */
	if (w < len) {
		size_t a = w, z = len;

		aa_trim(s, &a, &z, aa_is_blank_cr);
		if (path_token(s + a, z - a, 0, path, path_len))
			return 1;
	}
	return 0;
}

/* Where the code span opening at s[i] ends (its closing '`'), or 0. */
static size_t span_end(const char *s, size_t len, size_t i)
{
	size_t j;

	for (j = i + 1; j < len; j++)
		if (s[j] == '`')
			return j;
	return 0;
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || (unsigned char)c >= 0x80;
}

/*
 * Words that make a sentence about a command, its output or an example,
 * not a file: "Run `make test`:", "The output of `app.py`:".
 */
static int names_no_file(const char *s, size_t len)
{
	static const char *const words[] = {
		"run", "running", "output", "outputs", "example", "usage",
		"result", "results", "returns", "prints", "command", "terminal",
		"console", "shell", "error", "log", "logs", "test it", "e.g.",
	};
	size_t i, n, at;

	for (i = 0; i < sizeof(words) / sizeof(*words); i++) {
		n = strlen(words[i]);
		for (at = 0; at + n <= len; at++)
			if ((!at || !word_char(s[at - 1])) &&
			    aa_ci_starts_with(s + at, len - at, words[i]) &&
			    (at + n == len || !word_char(s[at + n])))
				return 1;
	}
	return 0;
}

/*
 * A sentence that introduces the fence after it, "Update `setup.py` as
 * follows:": one line, short, ending with a colon (emphasis around it
 * allowed), holding exactly one code span, and that span is one path.
 * No other code span: "Replace `foo` in `app.py`:" shows a part; no
 * word of a command or its output ("Run `make`:", "Output of `x.py`:").
 */
int aa_label_sentence_path(const char *s, size_t len, const char **path,
			   size_t *path_len)
{
	size_t a = 0, z = len, i, end, open = 0, close = 0, spans = 0;
	const char *p = NULL;
	size_t plen = 0;

	aa_trim(s, &a, &z, aa_is_blank_cr);
	strip_emphasis(s, &a, &z);
	aa_trim(s, &a, &z, aa_is_blank_cr);
	if (z - a < 4 || z - a > AA_LABEL_SENTENCE_MAX || s[z - 1] != ':' ||
	    s[a] == '`' || s[a] == '~')
		return 0;
	for (i = a; i < z; i = end) {
		if (s[i++] != '`') {
			end = i;
			continue;
		}
		if (!(end = span_end(s, z, i - 1)) || ++spans > 1)
			return 0;
		open = i - 1;
		close = end++;
	}
	/* the words around the span, not the path ("run.py") */
	if (spans != 1 || names_no_file(s + a, open - a) ||
	    names_no_file(s + close + 1, z - close - 1) ||
	    !path_token(s + open + 1, close - open - 1,
			TOK_WELL_KNOWN | TOK_SPACED, &p, &plen))
		return 0;
	*path = p;
	*path_len = plen;
	return 1;
}
