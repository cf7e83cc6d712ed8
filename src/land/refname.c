/*
 * Reference and branch names by git's own rules (refs.c:
 * check_refname_component, check_or_sanitize_refname and
 * check_branch_ref), so that a name this tool accepts is exactly one
 * `git check-ref-format --branch` accepts, and no other: libgit2's
 * validation lets HEAD and DEL (0x7f) through.
 */
#include <string.h>

#include "land/refname.h"

static int reject(const char **why, const char *reason)
{
	*why = reason;
	return -1;
}

/*
 * The reason a byte cannot appear in a refname, or NULL: git's
 * disposition 4 (control bytes, DEL, space and ~^:?[\) and the '*' it
 * allows only in refspec patterns. Bytes >= 0x80 are allowed, whatever
 * their encoding, as git does.
 */
static const char *bad_byte(unsigned char c)
{
	if (c < 0x20 || c == 0x7f)
		return "it holds a control character";
	if (c == ' ')
		return "it holds a space";
	if (c == '*')
		return "it holds '*'";
	if (strchr("~^:?[\\", c))
		return "it holds one of ~ ^ : ? [ \\";
	return NULL;
}

/*
 * Checks the component at p (up to '/' or the end); returns its length,
 * or -1 with *why set.
 */
static long check_component(const char *p, const char **why)
{
	const char *cp;
	unsigned char last = 0;

	for (cp = p; *cp && *cp != '/'; cp++) {
		unsigned char c = (unsigned char)*cp;
		const char *bad = bad_byte(c);

		if (bad)
			return reject(why, bad);
		if (c == '.' && last == '.')
			return reject(why, "it holds '..'");
		if (c == '{' && last == '@')
			return reject(why, "it holds '@{'");
		last = c;
	}
	if (cp == p)
		return reject(why, "it has an empty component (a leading, "
				   "trailing or doubled '/')");
	if (p[0] == '.')
		return reject(why, "a component starts with '.'");
	if (cp - p >= 5 && !memcmp(cp - 5, ".lock", 5))
		return reject(why, "a component ends with '.lock'");
	return (long)(cp - p);
}

/*
 * Checks the components of p, and that it does not end with '.';
 * counts them into *n. 0, or -1 with *why set.
 */
static int check_components(const char *p, int *n, const char **why)
{
	long len;

	*n = 0;
	for (;;) {
		len = check_component(p, why);
		if (len < 0)
			return -1;
		++*n;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (p[len - 1] == '.')
		return reject(why, "it ends with '.'");
	return 0;
}

int aa_refname_check(const char *refname, const char **why)
{
	int n;

	if (!strcmp(refname, "@"))
		return reject(why, "it is '@'");
	if (check_components(refname, &n, why) < 0)
		return -1;
	if (n < 2)
		return reject(why, "it has one component only");
	return 0;
}

/*
 * git checks "refs/heads/<name>": its two first components are valid
 * and make the count, and it is never "@", so checking the components
 * of <name> alone is the same check.
 */
int aa_branch_name_check(const char *name, const char **why)
{
	int n;

	if (name[0] == '-')
		return reject(why, "it starts with '-'");
	if (!strcmp(name, "HEAD"))
		return reject(why, "'HEAD' names the current branch, not a branch");
	return check_components(name, &n, why);
}
