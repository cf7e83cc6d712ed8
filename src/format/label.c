/*
 * Paths that answers write next to code: the line before a fence
 * (`path/x.py`, `**path/x.py**`, `` `path/x.py` ``, `File: path/x.py`,
 * `### path/x.py`), a fence's info string (```` ```x.py ````,
 * ```` ```python title="x.py" ````, ```` ```python:path/x.py ````) or a
 * first-line comment (`// path/x.c`, `# path/x.py`). Shared by the
 * search-replace and whole-file parsers.
 *
 * A label is a path only when, once its decoration is gone, it is one
 * token that looks like a file name (a '/' or a '.', no blank) and is a
 * valid repository path: "Here is the updated file:" is prose.
 */
#include <string.h>

#include "aiapply/path.h"
#include "format/registry.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static int ci_prefix(const char *s, size_t len, const char *p)
{
	size_t n = strlen(p), i;

	if (len < n)
		return 0;
	for (i = 0; i < n; i++)
		if (lower(s[i]) != p[i])
			return 0;
	return 1;
}

/* Drops blanks at both ends of s[*a, *z). */
static void trim(const char *s, size_t *a, size_t *z)
{
	while (*a < *z && is_blank(s[*a]))
		(*a)++;
	while (*z > *a && is_blank(s[*z - 1]))
		(*z)--;
}

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
 * "** x" once the keyword is gone): no path holds one.
 */
static void strip_emphasis(const char *s, size_t *a, size_t *z)
{
	if (strip_pair(s, a, z, '_'))
		return;
	while (*a < *z && s[*a] == '*')
		(*a)++;
	while (*z > *a && s[*z - 1] == '*')
		(*z)--;
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
		if (ci_prefix(s + *a, z - *a, words[i])) {
			*a += strlen(words[i]);
			return;
		}
}

/* One token that looks like a file path and is a valid one. */
static int path_token(const char *s, size_t len)
{
	const char *why;
	size_t i;
	int dot_or_slash = 0;

	if (!len || len > AA_MAX_PATH_LENGTH)
		return 0;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (is_blank(s[i]) || c < 0x20 || c == '`' || c == '*' ||
		    c == '"' || c == '\'' || c == '<' || c == '>' || c == '|' ||
		    c == '(' || c == ')' || c == '[' || c == ']' || c == '{' ||
		    c == '}' || c == '=' || c == ',' || c == ';')
			return 0;
		if (c == '/' || (c == '.' && i > 0 && i + 1 < len))
			dot_or_slash = 1;
	}
	/* a sentence ends with a dot; a URL is no repository path */
	if (!dot_or_slash || s[len - 1] == '.' || memchr(s, ':', len))
		return 0;
	return aa_path_check(s, len, &why) == 0;
}

int aa_label_path(const char *s, size_t len, const char **path,
		  size_t *path_len)
{
	size_t a = 0, z = len;

	trim(s, &a, &z);
	/* Markdown heading or list item */
	while (a < z && s[a] == '#')
		a++;
	if (z - a >= 2 && (s[a] == '-' || s[a] == '+') && is_blank(s[a + 1]))
		a += 2;
	trim(s, &a, &z);
	/* **File: x** and File: **x** alike */
	strip_emphasis(s, &a, &z);
	trim(s, &a, &z);
	strip_keyword(s, &a, z);
	trim(s, &a, &z);
	if (z > a && s[z - 1] == ':')
		z--;
	strip_emphasis(s, &a, &z);
	trim(s, &a, &z);
	strip_pair(s, &a, &z, '`');
	trim(s, &a, &z);
	if (!path_token(s + a, z - a))
		return 0;
	*path = s + a;
	*path_len = z - a;
	return 1;
}

/* `title="x.py"` (or 'x.py', or unquoted) in an info string. */
static int info_title(const char *s, size_t len, const char **path,
		      size_t *path_len)
{
	size_t i, a, z;

	for (i = 0; i + 6 <= len; i++) {
		if ((i && !is_blank(s[i - 1])) ||
		    (!ci_prefix(s + i, len - i, "title=") &&
		     !ci_prefix(s + i, len - i, "file=") &&
		     !ci_prefix(s + i, len - i, "path=") &&
		     !ci_prefix(s + i, len - i, "filename=")))
			continue;
		a = i + (size_t)((const char *)memchr(s + i, '=', len - i) - (s + i)) + 1;
		z = a;
		if (a < len && (s[a] == '"' || s[a] == '\'')) {
			char q = s[a++];

			for (z = a; z < len && s[z] != q; z++)
				;
		} else {
			while (z < len && !is_blank(s[z]))
				z++;
		}
		if (path_token(s + a, z - a)) {
			*path = s + a;
			*path_len = z - a;
			return 1;
		}
	}
	return 0;
}

int aa_info_path(const char *s, size_t len, const char **path,
		 size_t *path_len)
{
	size_t w = 0, c;

	if (info_title(s, len, path, path_len))
		return 1;
	while (w < len && !is_blank(s[w]))
		w++;
	/* ```python:path/x.py */
	for (c = 0; c < w && s[c] != ':'; c++)
		;
	if (c < w && path_token(s + c + 1, w - c - 1)) {
		*path = s + c + 1;
		*path_len = w - c - 1;
		return 1;
	}
	/* ```x.py or ```path/x.py: the first word is a path, not a language */
	if (path_token(s, w)) {
		*path = s;
		*path_len = w;
		return 1;
	}
	/* ```python path/x.py */
	if (w < len) {
		size_t a = w, z = len;

		trim(s, &a, &z);
		if (path_token(s + a, z - a)) {
			*path = s + a;
			*path_len = z - a;
			return 1;
		}
	}
	return 0;
}
