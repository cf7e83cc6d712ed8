/*
 * Path validation (Documentation/safety.md, "Paths an answer may name"):
 * the first check any path gets, so that
 * nothing later (planner, tree builder, index, work tree) ever sees a path
 * that escapes the repository or writes into .git on any platform.
 */
#include <stdlib.h>
#include <string.h>

#include "aiapply/common.h"
#include "change/path.h"

static int reject(const char **why, const char *reason)
{
	*why = reason;
	return -1;
}

static int is_ascii_letter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static int has_control_char(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (is_control((unsigned char)p[i]))
			return 1;
	return 0;
}

/*
 * Length of the HFS+ ignorable code point encoded at s (3 bytes in
 * UTF-8), or 0 when there is none. Reads at most n bytes: invalid or
 * truncated UTF-8 is simply not ignorable.
 *   U+200C..U+200F  E2 80 8C..8F
 *   U+202A..U+202E  E2 80 AA..AE
 *   U+206A..U+206F  E2 81 AA..AF
 *   U+FEFF          EF BB BF
 */
static size_t hfs_ignorable_len(const unsigned char *s, size_t n)
{
	if (n < 3)
		return 0;
	if (s[0] == 0xe2 && s[1] == 0x80 &&
	    ((s[2] >= 0x8c && s[2] <= 0x8f) || (s[2] >= 0xaa && s[2] <= 0xae)))
		return 3;
	if (s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xaa && s[2] <= 0xaf)
		return 3;
	if (s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		return 3;
	return 0;
}

/* A component read byte by byte as HFS+ compares it: ignorables skipped. */
struct comp_reader {
	const unsigned char *s;
	size_t n, i;
};

/* The next significant byte, lowercased if ASCII; -1 at the end. */
static int next_folded(struct comp_reader *r)
{
	size_t k;
	unsigned char c;

	while (r->i < r->n &&
	       (k = hfs_ignorable_len(r->s + r->i, r->n - r->i)))
		r->i += k;
	if (r->i >= r->n)
		return -1;
	c = r->s[r->i++];
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int expect(struct comp_reader *r, const char *want)
{
	for (; *want; want++)
		if (next_folded(r) != (unsigned char)*want)
			return 0;
	return 1;
}

/*
 * True for every name that a file system may resolve to ".git": any case
 * (".GIT"), the NTFS short name "git~1", trailing dots and spaces that
 * Windows drops (".git. ."), an NTFS stream (".git::$INDEX_ALLOCATION",
 * ".git:x"), and HFS+ ignorable code points anywhere (".g\u200cit").
 * The forms combine; every platform gets every check.
 */
static int is_dotgit_component(const char *c, size_t n)
{
	struct comp_reader r = { (const unsigned char *)c, n, 0 };
	int ch = next_folded(&r);

	if (ch == '.') {
		if (!expect(&r, "git"))
			return 0;
	} else if (ch == 'g') {
		if (!expect(&r, "it~1"))
			return 0;
	} else {
		return 0;
	}
	for (;;) {
		ch = next_folded(&r);
		if (ch < 0 || ch == ':')
			return 1;
		if (ch != '.' && ch != ' ')
			return 0;
	}
}

static int check_component(const char *c, size_t n, const char **why)
{
	if (n == 0)
		return reject(why, "empty component");
	if (n == 1 && c[0] == '.')
		return reject(why, "'.' component");
	if (n == 2 && c[0] == '.' && c[1] == '.')
		return reject(why, "'..' component");
	if (is_dotgit_component(c, n))
		return reject(why, "'.git' component");
	return 0;
}

static int check_components(const char *path, size_t len, const char **why)
{
	size_t start = 0;

	while (start <= len) {
		const char *slash = memchr(path + start, '/', len - start);
		size_t end = slash ? (size_t)(slash - path) : len;

		if (check_component(path + start, end - start, why) < 0)
			return -1;
		start = end + 1;
	}
	return 0;
}

/* The forms that name something outside the repository. */
static int check_not_rooted(const char *path, size_t len, const char **why)
{
	const unsigned char *p = (const unsigned char *)path;

	if (len >= 2 && ((p[0] == '\\' && p[1] == '\\') ||
			 (p[0] == '/' && p[1] == '/')))
		return reject(why, "network path");
	if (p[0] == '/')
		return reject(why, "absolute path");
	/* "C:\x", "C:/x" and the drive-relative "C:x" */
	if (len >= 2 && is_ascii_letter(p[0]) && p[1] == ':')
		return reject(why, "drive letter");
	return 0;
}

int aa_path_check(const char *path, size_t len, const char **why)
{
	const char *ignored;

	if (!why)
		why = &ignored;
	if (!path || len == 0)
		return reject(why, "empty path");
	if (len > AA_MAX_PATH_LENGTH)
		return reject(why, "path too long");
	if (has_control_char(path, len))
		return reject(why, "control character in path");
	if (check_not_rooted(path, len, why) < 0)
		return -1;
	if (memchr(path, '\\', len))
		return reject(why, "backslash in path");
	if (path[len - 1] == '/')
		return reject(why, "trailing slash");
	return check_components(path, len, why);
}

char *aa_path_join(const char *dir, const char *path)
{
	size_t dl, pl;
	char *out;
	int slash;

	if (!path)
		path = "";
	if (!dir || !*dir)
		return aa_strdup(path);
	if (!*path)
		return aa_strdup(dir);
	dl = strlen(dir);
	pl = strlen(path);
	slash = dir[dl - 1] != '/';
	if (pl > SIZE_MAX - dl - 2)
		return NULL;
	out = malloc(dl + (size_t)slash + pl + 1);
	if (!out)
		return NULL;
	memcpy(out, dir, dl);
	if (slash)
		out[dl] = '/';
	memcpy(out + dl + slash, path, pl + 1);
	return out;
}

int aa_path_answer(const char *path, size_t len, const char **out,
		   size_t *out_len, const char **why)
{
	const char *ignored;

	if (!why)
		why = &ignored;
	/* "./x" and "././x": the current directory said out loud */
	while (path && len > 2 && path[0] == '.' && path[1] == '/') {
		path += 2;
		len -= 2;
		while (len > 1 && path[0] == '/') { /* ".//x" */
			path++;
			len--;
		}
	}
	if (path && len > 1 && path[0] == '/' && path[1] != '/') {
		/* absolute: the rest must be a clean path; the planner decides */
		if (aa_path_check(path + 1, len - 1, why) < 0)
			return -1;
	} else if (aa_path_check(path, len, why) < 0) {
		return -1;
	}
	*out = path;
	*out_len = len;
	return 0;
}

int aa_path_is_absolute(const char *path)
{
	return path && path[0] == '/' && path[1] && path[1] != '/';
}

const char *aa_path_in_root(const char *path, const char *root)
{
	size_t rl;

	if (!path || !root || root[0] != '/' || path[0] != '/')
		return NULL;
	rl = strlen(root);
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (rl == 1) /* the root directory itself */
		return path[1] ? path + 1 : NULL;
	if (strncmp(path, root, rl) || path[rl] != '/' || !path[rl + 1])
		return NULL;
	return path + rl + 1;
}
