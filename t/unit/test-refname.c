/* Unit tests for reference and branch names (src/land/refname.c). */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "land/refname.h"

struct name_case {
	const char *name;
	int valid;            /* as `git check-ref-format --branch` */
};

/* t1165 asks git itself about the same kinds of names. */
static const struct name_case branches[] = {
	{ "a", 1 },
	{ "ai/fix-login", 1 },
	{ "a/b/c", 1 },
	{ "a-1.2", 1 },
	{ "@", 1 },             /* refs/heads/@ is not the lone '@' */
	{ "a@b", 1 },
	{ "a@", 1 },
	{ "a{b}", 1 },
	{ "a/-b", 1 },          /* only the name's first byte */
	{ "a.b", 1 },
	{ "a./b", 1 },
	{ "x.lockx", 1 },
	{ "HEADx", 1 },
	{ "x/HEAD", 1 },
	{ "head", 1 },
	{ "refs/heads/x", 1 },
	{ "\xc3\xa9t\xc3\xa9", 1 },   /* UTF-8 */
	{ "a\xff\xfe" "b", 1 },       /* not UTF-8: git allows it */
	{ "\x80", 1 },
	{ "a#b%c&d'e\"f<g>h|i", 1 },
	{ "", 0 },
	{ "HEAD", 0 },
	{ "-a", 0 },
	{ "-", 0 },
	{ "a.lock", 0 },
	{ "a.lock/b", 0 },
	{ "a/b.lock", 0 },
	{ ".lock", 0 },
	{ "a..b", 0 },
	{ "..", 0 },
	{ ".a", 0 },
	{ "a/.b", 0 },
	{ ".", 0 },
	{ "a.", 0 },
	{ "a/b.", 0 },
	{ "a/", 0 },
	{ "/a", 0 },
	{ "a//b", 0 },
	{ "/", 0 },
	{ "a@{b", 0 },
	{ "@{-1}", 0 },
	{ "@{u}", 0 },
	{ "a b", 0 },
	{ " a", 0 },
	{ "a\tb", 0 },
	{ "a\nb", 0 },
	{ "a\x01" "b", 0 },
	{ "a\x1f" "b", 0 },
	{ "a\x7f" "b", 0 },
	{ "\x7f", 0 },
	{ "a~b", 0 },
	{ "a^b", 0 },
	{ "a:b", 0 },
	{ "a?b", 0 },
	{ "a*b", 0 },
	{ "a[b", 0 },
	{ "a\\b", 0 },
	{ "a~", 0 },
};

static const struct name_case refnames[] = {
	{ "refs/heads/a", 1 },
	{ "heads/a", 1 },
	{ "a/@", 1 },
	{ "refs/heads/HEAD", 1 },     /* only the branch check refuses it */
	{ "-a/b", 1 },                /* likewise the leading '-' */
	{ "@", 0 },
	{ "a", 0 },                   /* one component */
	{ "HEAD", 0 },
	{ "refs/heads/", 0 },
	{ "refs//heads/a", 0 },
	{ "refs/heads/a.", 0 },
	{ "refs/heads/a.lock", 0 },
	{ "refs/he\x7f" "ads/a", 0 },
	{ "refs/.heads/a", 0 },
};

static void run_table(const struct name_case *v, size_t n,
		      int (*check)(const char *, const char **))
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *why = NULL;
		int r = check(v[i].name, &why);

		if ((r == 0) != v[i].valid)
			fail_msg("case %zu: got %s, want %s", i,
				 r ? why : "valid", v[i].valid ? "valid" : "invalid");
		if (r && (r != -1 || !why || !*why))
			fail_msg("case %zu: refused without a reason", i);
	}
}

static void test_branch_names(void **state)
{
	(void)state;
	run_table(branches, sizeof(branches) / sizeof(branches[0]),
		  aa_branch_name_check);
}

static void test_refnames(void **state)
{
	(void)state;
	run_table(refnames, sizeof(refnames) / sizeof(refnames[0]),
		  aa_refname_check);
}

/* Each refused byte, alone and inside a name, in every position. */
static void test_every_bad_byte(void **state)
{
	static const char *const fmts[] = { "%c", "a%c", "%cb", "a%cb", "a/%c", "%c/b" };
	char name[8];
	int c;

	(void)state;
	for (c = 1; c < 256; c++) {
		int bad = c < 0x20 || c == 0x7f || strchr(" ~^:?*[\\", c);
		const char *why = NULL;
		size_t k;

		for (k = 0; bad && k < sizeof(fmts) / sizeof(fmts[0]); k++) {
			snprintf(name, sizeof(name), fmts[k], c);
			if (aa_branch_name_check(name, &why) != -1)
				fail_msg("byte 0x%02x in \"%s\" accepted", c, fmts[k]);
		}
		snprintf(name, sizeof(name), "a%cb", c);
		if (!bad && c != '.' && aa_branch_name_check(name, &why))
			fail_msg("byte 0x%02x refused: %s", c, why);
	}
}

/* No length limit (git has none; the file system may). */
static void test_long_names(void **state)
{
	size_t n = 99999, i;  /* ends with 'x' */
	char *name = malloc(n + 1);
	const char *why = NULL;

	(void)state;
	assert_non_null(name);
	for (i = 0; i < n; i++)
		name[i] = i % 50 == 49 ? '/' : 'x';
	name[n] = '\0';
	assert_int_equal(aa_branch_name_check(name, &why), 0);
	memcpy(name + n - 5, ".lock", 5);
	assert_int_equal(aa_branch_name_check(name, &why), -1);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_branch_names),
		cmocka_unit_test(test_refnames),
		cmocka_unit_test(test_every_bad_byte),
		cmocka_unit_test(test_long_names),
	};

	return AA_RUN_TESTS(tests);
}
