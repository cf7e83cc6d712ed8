/*
 * libFuzzer target: path validation (aa_path_check, aa_path_join).
 *
 * The input is one path (not NUL-terminated: an exact-size copy, so
 * ASan sees a read past its end). Checks (abort, unless
 * AA_FUZZ_NO_ORACLES=1), by rules written here independently of
 * src/change/path.c:
 *  - a refusal gives a reason;
 *  - an accepted path is 1..AA_MAX_PATH_LENGTH bytes with no control
 *    byte, no backslash, no leading or trailing '/', no drive letter, no
 *    empty, '.' or '..' component, and no component that git on
 *    Windows or macOS would read as ".git" (any case, trailing dots or
 *    spaces, an NTFS stream "::...", or the short name "git~1");
 *  - at each of the first '/' of an accepted path, both sides are
 *    accepted (the tail unless it starts with a drive letter) and
 *    aa_path_join gives the path back.
 */
#include <ctype.h>

#include "fuzz.h"

static int lower_eq(const char *s, size_t len, const char *lit)
{
	size_t i;

	if (len != strlen(lit))
		return 0;
	for (i = 0; i < len; i++)
		if (tolower((unsigned char)s[i]) != lit[i])
			return 0;
	return 1;
}

/* ".git" as Windows reads it: case, trailing dots and spaces, streams. */
static int reads_as_dotgit(const char *c, size_t len)
{
	size_t n = len;
	const char *colon = memchr(c, ':', len);

	if (colon)
		n = (size_t)(colon - c);
	while (n > 0 && (c[n - 1] == '.' || c[n - 1] == ' '))
		n--;
	return lower_eq(c, n, ".git") || lower_eq(c, n, "git~1");
}

static void check_component(const char *c, size_t len)
{
	fz_check(len > 0, "accepted an empty component", NULL);
	fz_check(!(len == 1 && c[0] == '.'), "accepted a '.' component", NULL);
	fz_check(!(len == 2 && c[0] == '.' && c[1] == '.'),
		 "accepted a '..' component", NULL);
	fz_check(!reads_as_dotgit(c, len), "accepted a '.git' spelling", NULL);
}

static void check_accepted(const char *p, size_t len)
{
	size_t i, start = 0;

	fz_check(len > 0 && len <= AA_MAX_PATH_LENGTH, "accepted length", NULL);
	fz_check(p[0] != '/' && p[len - 1] != '/', "accepted a rooted or "
		 "trailing '/'", NULL);
	fz_check(!(len >= 2 && isalpha((unsigned char)p[0]) && p[1] == ':'),
		 "accepted a drive letter", NULL);
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)p[i];

		fz_check(ch >= 0x20 && ch != 0x7f, "accepted a control byte", NULL);
		fz_check(ch != '\\', "accepted a backslash", NULL);
		if (ch == '/') {
			check_component(p + start, i - start);
			start = i + 1;
		}
	}
	check_component(p + start, len - start);
}

/* Both sides of the '/' at `at` are valid and join back to the path. */
static void check_split(const char *p, size_t len, size_t at)
{
	char *dir = aa_strndup(p, at), *rest = aa_strndup(p + at + 1, len - at - 1);
	char *joined = NULL;
	const char *why = NULL;

	if (!dir || !rest)
		goto out;
	fz_check(aa_path_check(dir, at, &why) == 0, "a directory of a valid "
		 "path is refused", why);
	/* "C:x" is refused at the start only, where Windows reads a drive */
	if (!(len - at - 1 >= 2 && isalpha((unsigned char)rest[0]) &&
	      rest[1] == ':'))
		fz_check(aa_path_check(rest, len - at - 1, &why) == 0,
			 "a tail of a valid path is refused", why);
	joined = aa_path_join(dir, rest);
	if (joined)
		fz_check(strlen(joined) == len && !memcmp(joined, p, len),
			 "aa_path_join does not give the path back", joined);
out:
	free(dir);
	free(rest);
	free(joined);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_init_oracles();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *p = fz_copy(data, size);
	const char *why = NULL;
	size_t i, nsplits = 0;

	if (!p)
		return 0;
	if (aa_path_check(p, size, &why) < 0) {
		fz_check(why && *why, "refused without a reason", NULL);
	} else {
		check_accepted(p, size);
		/* A few splits: every one would make long paths quadratic. */
		for (i = 0; i < size && nsplits < 8; i++)
			if (p[i] == '/') {
				check_split(p, size, i);
				nsplits++;
			}
	}
	free(p);
	return 0;
}
