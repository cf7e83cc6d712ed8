/* Unit tests for path validation and joining (src/change/path.c). */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "aiapply/common.h"
#include "change/path.h"

#define S(lit) lit, sizeof(lit) - 1

struct reject_case {
	const char *path;
	size_t len;
	const char *why;
};

#define R(lit, why) { lit, sizeof(lit) - 1, why }

static const struct reject_case rejects[] = {
	R("", "empty path"),

	R("/x", "absolute path"),
	R("/", "absolute path"),
	R("/etc/passwd", "absolute path"),

	R("C:\\x", "drive letter"),
	R("C:/x", "drive letter"),
	R("C:x", "drive letter"),
	R("c:", "drive letter"),
	R("z:/a/b", "drive letter"),

	R("\\\\srv\\x", "network path"),
	R("//srv/x", "network path"),
	R("//", "network path"),
	R("\\\\?\\C:\\x", "network path"),

	R("a\\b", "backslash in path"),
	R("\\x", "backslash in path"),
	R("x\\", "backslash in path"),
	R("..\\x", "backslash in path"),
	R(".git\\config", "backslash in path"),

	R("a/", "trailing slash"),
	R("a/b/", "trailing slash"),

	R("a//b", "empty component"),
	R("a///b", "empty component"),

	R(".", "'.' component"),
	R("./a", "'.' component"),
	R("a/./b", "'.' component"),
	R("a/.", "'.' component"),

	R("..", "'..' component"),
	R("../a", "'..' component"),
	R("a/../b", "'..' component"),
	R("a/..", "'..' component"),
	R("a/b/../../..", "'..' component"),

	R("a\x01" "b", "control character in path"),
	R("\x1f", "control character in path"),
	R("a/b\x7f", "control character in path"),
	R("a\nb", "control character in path"),
	R("a\tb", "control character in path"),
	R("a\rb", "control character in path"),
	R("a\0b", "control character in path"),
	R("\0", "control character in path"),

	/* .git in any position and any case */
	R(".git", "'.git' component"),
	R(".git/config", "'.git' component"),
	R("a/.git", "'.git' component"),
	R("a/.git/hooks/pre-commit", "'.git' component"),
	R(".GIT", "'.git' component"),
	R(".Git/config", "'.git' component"),
	R("sub/.gIt/x", "'.git' component"),
	/* NTFS 8.3 short name */
	R("git~1", "'.git' component"),
	R("GIT~1/config", "'.git' component"),
	R("a/Git~1", "'.git' component"),
	R("git~1.", "'.git' component"),
	R("git~1 ", "'.git' component"),
	R("git~1::$INDEX_ALLOCATION", "'.git' component"),
	/* trailing dots and spaces */
	R(".git.", "'.git' component"),
	R(".git ", "'.git' component"),
	R(".git. .", "'.git' component"),
	R(".git...", "'.git' component"),
	R(".GIT  /x", "'.git' component"),
	/* NTFS alternate data streams */
	R(".git::$INDEX_ALLOCATION", "'.git' component"),
	R(".git::$INDEX_ALLOCATION/config", "'.git' component"),
	R(".git:foo", "'.git' component"),
	R(".git:", "'.git' component"),
	R(".git . :x", "'.git' component"),
	/* HFS+ ignorable code points */
	R(".g\xe2\x80\x8cit", "'.git' component"),          /* U+200C */
	R(".gi\xe2\x80\x8dt/config", "'.git' component"),   /* U+200D */
	R("\xe2\x80\x8e.git", "'.git' component"),          /* U+200E */
	R(".git\xe2\x80\x8f", "'.git' component"),          /* U+200F */
	R(".\xe2\x80\xaagit", "'.git' component"),          /* U+202A */
	R(".G\xe2\x80\xaeIT", "'.git' component"),          /* U+202E */
	R(".g\xe2\x81\xaait", "'.git' component"),          /* U+206A */
	R(".gi\xe2\x81\xaft", "'.git' component"),          /* U+206F */
	R(".git\xef\xbb\xbf", "'.git' component"),          /* U+FEFF */
	R("\xef\xbb\xbf.\xef\xbb\xbfg\xe2\x80\x8ci\xe2\x80\x8ct"
	  "\xe2\x80\x8c/x", "'.git' component"),
	R("a/.g\xe2\x80\x8c\xe2\x80\x8dit.", "'.git' component"),
	R("g\xe2\x80\x8cit~1", "'.git' component"),
};

static const char *const accepts[] = {
	"a",
	"a/b/c.txt",
	".gitx",
	".gitx/y",
	"git",
	"a.git",
	".git-x",
	".git~1",
	"git~2",
	"git~1x",
	"git~",
	"gi~1",
	".gi",
	".github/x",
	".github/workflows/ci.yml",
	"x/.gitignore",
	".gitignore",
	".gitattributes",
	".gitmodules",
	"foo:bar",
	"ab:c",
	"x/C:y",
	"\xc3\xbc/\xc3\xb1.txt",
	"...",
	"..a",
	"a..",
	".a",
	"a.",
	"a b/c d",
	" .git",          /* leading space: not a .git spelling anywhere */
	"x.git/y",
	"\xe2\x80\x8c",   /* an ignorable alone is a legal name */
	".g\xe2\x80\x8bit", /* U+200B is not HFS-ignorable */
	".g\xe2\x80\x90it", /* U+2010 neither */
	".g\xe2\x80",     /* truncated UTF-8 at the end */
	".git\xe2\x80x",  /* truncated sequence before x: not ignorable */
	"\xff\xfe/\x80",  /* invalid UTF-8 is allowed, like git */
	"-rf",
	"~",
	"a~1",
};

static void test_rejects(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++) {
		const char *why = NULL;
		int r = aa_path_check(rejects[i].path, rejects[i].len, &why);

		if (r != -1 || !why || strcmp(why, rejects[i].why))
			fail_msg("case %zu (len %zu): got %d \"%s\", want \"%s\"",
				 i, rejects[i].len, r, why ? why : "(null)",
				 rejects[i].why);
	}
}

static void test_accepts(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(accepts) / sizeof(accepts[0]); i++) {
		const char *why = NULL;

		if (aa_path_check(accepts[i], strlen(accepts[i]), &why) != 0)
			fail_msg("\"%s\" rejected: %s", accepts[i],
				 why ? why : "(null)");
	}
}

/* A bad spelling is found in every position of a longer path. */
static void test_dotgit_in_every_position(void **state)
{
	static const char *const forms[] = {
		".git", ".GiT", "git~1", ".git. ", ".git::$DATA",
		".g\xe2\x80\x8cit",
	};
	char buf[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		const char *fmts[] = { "%s", "%s/x", "x/%s", "x/%s/y" };
		size_t k;

		for (k = 0; k < 4; k++) {
			const char *why = NULL;
			int n = snprintf(buf, sizeof(buf), fmts[k], forms[i]);

			assert_true(n > 0 && (size_t)n < sizeof(buf));
			assert_int_equal(aa_path_check(buf, (size_t)n, &why), -1);
			assert_string_equal(why, "'.git' component");
		}
	}
}

/* The length is honoured: no NUL needed, nothing read past len. */
static void test_length_not_nul(void **state)
{
	const char *why = NULL;
	char *exact = malloc(4);

	(void)state;
	assert_int_equal(aa_path_check("a/b/../c", 3, &why), 0);
	assert_int_equal(aa_path_check(".gitx", 4, &why), -1);
	assert_string_equal(why, "'.git' component");
	assert_int_equal(aa_path_check("a/", 1, &why), 0);
	/* exact-size heap buffer: ASan catches any read past it */
	assert_non_null(exact);
	memcpy(exact, ".g\xe2\x80", 4);
	assert_int_equal(aa_path_check(exact, 4, &why), 0);
	memcpy(exact, "x/.g", 4);
	assert_int_equal(aa_path_check(exact, 4, &why), 0);
	free(exact);
}

static void test_null_path(void **state)
{
	const char *why = NULL;

	(void)state;
	assert_int_equal(aa_path_check(NULL, 0, &why), -1);
	assert_string_equal(why, "empty path");
	/* a caller may not want the reason */
	assert_int_equal(aa_path_check(S("/x"), NULL), -1);
	assert_int_equal(aa_path_check(S("x"), NULL), 0);
}

static void test_length_limit(void **state)
{
	char *p = malloc(AA_MAX_PATH_LENGTH + 2);
	const char *why = NULL;
	size_t i;

	(void)state;
	assert_non_null(p);
	for (i = 0; i < AA_MAX_PATH_LENGTH + 1; i++)
		p[i] = i % 10 == 9 ? '/' : 'a';
	p[AA_MAX_PATH_LENGTH - 1] = 'a';
	assert_int_equal(aa_path_check(p, AA_MAX_PATH_LENGTH, &why), 0);
	assert_int_equal(aa_path_check(p, AA_MAX_PATH_LENGTH + 1, &why), -1);
	assert_string_equal(why, "path too long");
	free(p);
}

static void assert_join(const char *dir, const char *path, const char *want)
{
	char *got = aa_path_join(dir, path);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_join(void **state)
{
	(void)state;
	assert_join(NULL, "a/b", "a/b");
	assert_join("", "a/b", "a/b");
	assert_join("d", "a/b", "d/a/b");
	assert_join("d/e", "f", "d/e/f");
	assert_join("d/", "f", "d/f");
	assert_join("d", "", "d");
	assert_join(NULL, "", "");
	/* it does not validate */
	assert_join("..", ".git", "../.git");
}

/* aa_path_answer: the pure part of the one path resolution. */
static int answer_is(const char *path, const char *want)
{
	const char *out = NULL, *why = NULL;
	size_t len = 0;

	if (aa_path_answer(path, strlen(path), &out, &len, &why) < 0)
		return want == NULL && why != NULL;
	return want && len == strlen(want) && !memcmp(out, want, len);
}

static void test_answer_paths(void **state)
{
	(void)state;
	assert_true(answer_is("pkg/x.py", "pkg/x.py"));
	assert_true(answer_is("./pkg/x.py", "pkg/x.py"));
	assert_true(answer_is("././x", "x"));
	assert_true(answer_is(".//x", "x"));
	/* absolute: kept whole, for the planner to make relative */
	assert_true(answer_is("/home/u/repo/x.py", "/home/u/repo/x.py"));
	/* still refused: what no resolution makes safe */
	assert_true(answer_is("./", NULL));
	assert_true(answer_is(".", NULL));
	assert_true(answer_is("/", NULL));
	assert_true(answer_is("//srv/x", NULL));
	assert_true(answer_is("/a/../b", NULL));
	assert_true(answer_is("/a/.git/config", NULL));
	assert_true(answer_is("./../x", NULL));
	assert_true(answer_is("a/./b", NULL));
	assert_true(answer_is("C:/x", NULL));
	assert_true(answer_is("", NULL));
	assert_true(aa_path_is_absolute("/x"));
	assert_false(aa_path_is_absolute("x"));
	assert_false(aa_path_is_absolute("//x"));
	assert_false(aa_path_is_absolute("/"));
}

static void test_in_root(void **state)
{
	(void)state;
	assert_string_equal(aa_path_in_root("/r/x/y.py", "/r"), "x/y.py");
	assert_string_equal(aa_path_in_root("/r/x/y.py", "/r/"), "x/y.py");
	assert_string_equal(aa_path_in_root("/r/x", "/"), "r/x");
	assert_null(aa_path_in_root("/rx/y", "/r"));
	assert_null(aa_path_in_root("/r", "/r"));
	assert_null(aa_path_in_root("/r/", "/r"));
	assert_null(aa_path_in_root("/other/x", "/r"));
	assert_null(aa_path_in_root("x", "/r"));
	assert_null(aa_path_in_root("/r/x", NULL));
	assert_null(aa_path_in_root("/r/x", "r"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_accepts),
		cmocka_unit_test(test_dotgit_in_every_position),
		cmocka_unit_test(test_length_not_nul),
		cmocka_unit_test(test_null_path),
		cmocka_unit_test(test_length_limit),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_answer_paths),
		cmocka_unit_test(test_in_root),
	};
	return AA_RUN_TESTS(tests);
}
