/*
 * aa_apply_opts_check: the rules between options, as a program embedding
 * the library meets them (the command line's own are t/t0110-options.sh's).
 */
#include "unit.h"

#include <stdio.h>

#include "aiapply/apply.h"

/* Checks o (each: as --each does); the errors said, joined by '|'. */
static int check(const aa_apply_opts *o, int each, char *said, size_t size)
{
	aa_diags d = AA_DIAGS_INIT;
	size_t i, len = 0;
	int r = each ? aa_apply_each_opts_check(o, &d)
		     : aa_apply_opts_check(o, &d);

	said[0] = '\0';
	for (i = 0; i < d.n; i++) {
		assert_int_equal(d.v[i].level, AA_DIAG_ERROR);
		assert_null(d.v[i].input);
		len += (size_t)snprintf(said + len, size - len, "%s%s",
					i ? "|" : "", d.v[i].msg);
		assert_true(len < size);
	}
	assert_int_equal(r, d.nerrors ? AA_FATAL : AA_OK);
	aa_diags_free(&d);
	return r;
}

static const char *const one_file[] = { "answer.md" };

static aa_apply_opts branch_opts(void)
{
	aa_apply_opts o = { 0 };

	o.land.mode = AA_LAND_BRANCH;
	o.land.branch = "topic";
	o.files = one_file;
	o.nfiles = 1;
	return o;
}

static void test_default_options_pass(void **state)
{
	aa_apply_opts o = { 0 };
	char said[1024];

	(void)state;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
	o = branch_opts();
	o.land.base = "HEAD~1";
	o.land.message = "subject";
	o.land.force = 1;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
	assert_int_equal(check(&o, 1, said, sizeof(said)), AA_OK);
	assert_string_equal(said, "");
}

static void test_branch_options_need_branch(void **state)
{
	aa_apply_opts o = { 0 };
	char said[1024];

	(void)state;
	o.land.mode = AA_LAND_CACHED;
	o.land.message = "subject";
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said, "--base, -m and --force need --branch");
	o.land.message = NULL;
	o.land.force = 1;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_FATAL);
}

static void test_threeway_not_with_branch(void **state)
{
	aa_apply_opts o = branch_opts();
	char said[1024];

	(void)state;
	o.plan.threeway = 1;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said, "--3way cannot be used with --branch: a branch never commits a conflict");
	/* the same refusal for --each, whose branches are branches too */
	assert_int_equal(check(&o, 1, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said, "--3way cannot be used with --branch: a branch never commits a conflict");
	o.land.mode = AA_LAND_INDEX;
	o.land.branch = NULL;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
}

static void test_each_needs_branch(void **state)
{
	aa_apply_opts o = { 0 };
	char said[1024];

	(void)state;
	o.files = one_file;
	o.nfiles = 1;
	assert_int_equal(check(&o, 1, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said, "--each needs --branch: each input lands on its own branch");
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
}

static void test_select_rules(void **state)
{
	aa_apply_opts o = { 0 };
	aa_select_opts sel = { stdin, stdout, NULL, AA_LAND_INDEX };
	const char *const from_stdin[] = { "answer.md", "-" };
	char said[1024];

	(void)state;
	o.select = &sel;
	o.files = one_file;
	o.nfiles = 1;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
	o.land.mode = AA_LAND_CHECK;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said, "--patch cannot be used with --check, --each, --3way, --json, --recover, --list or --review");
	/* one refusal, said once, when both --check and --3way break it */
	o.plan.threeway = 1;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said, "--patch cannot be used with --check, --each, --3way, --json, --recover, --list or --review");
	o.land.mode = AA_LAND_INDEX;
	o.plan.threeway = 0;
	/* the answer on the questions' stream, or none given: refused */
	o.files = from_stdin;
	o.nfiles = 2;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said, "--patch reads its answers from standard input: give the AI's answer as a file, not on standard input");
	o.nfiles = 0;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_FATAL);
	/* questions asked elsewhere: standard input may carry the answer */
	sel.in = stderr;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
}

static void test_select_not_with_each(void **state)
{
	aa_apply_opts o = branch_opts();
	aa_select_opts sel = { stdin, stdout, NULL, AA_LAND_BRANCH };
	char said[1024];

	(void)state;
	o.select = &sel;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
	assert_int_equal(check(&o, 1, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said, "--patch cannot be used with --check, --each, --3way, --json, --recover, --list or --review");
}

static void test_strict_takes_diff_only(void **state)
{
	aa_apply_opts o = { 0 };
	char said[1024];

	(void)state;
	o.parse.strict = 1;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
	o.parse.format = AA_FORMAT_DIFF;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
	o.parse.format = AA_FORMAT_V4A;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said, "--strict is the unified diff contract; it takes --format=diff only");
	o.parse.strict = 0;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
}

static void test_every_broken_rule_is_said(void **state)
{
	aa_apply_opts o = { 0 };
	char said[1024];

	(void)state;
	o.land.base = "HEAD";
	o.parse.strict = 1;
	o.parse.format = AA_FORMAT_V4A;
	assert_int_equal(check(&o, 1, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said,
		"--base, -m and --force need --branch"
		"|--each needs --branch: each input lands on its own branch"
		"|--strict is the unified diff contract; it takes --format=diff only");
}

/* aa_apply itself refuses, before it reads anything (no repository needed). */
static void test_apply_refuses_before_anything(void **state)
{
	aa_apply_opts o = { 0 };
	aa_apply_result *res = NULL;
	const aa_diags *d;

	(void)state;
	o.land.mode = AA_LAND_BRANCH;
	o.land.branch = "ai/x";
	o.plan.threeway = 1;
	o.files = one_file;
	o.nfiles = 1;
	assert_int_equal(aa_apply(NULL, &o, &res), AA_OUT_FATAL);
	assert_non_null(res);
	assert_int_equal(aa_apply_result_stopped(res), 1);
	d = aa_apply_result_diags(res);
	assert_int_equal(d->nerrors, 1);
	assert_string_equal(d->v[0].msg, "--3way cannot be used with --branch: a branch never commits a conflict");
	aa_apply_result_free(res);
}

static void test_rules_need_a_pattern(void **state)
{
	aa_apply_opts o = { 0 };
	aa_path_rule rules[] = { { "*.c", 1 }, { NULL, 0 } };
	char said[1024];

	(void)state;
	o.parse.rules = rules;
	o.parse.nrules = 1;
	o.parse.reverse = 1;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_OK);
	o.parse.nrules = 2;
	assert_int_equal(check(&o, 0, said, sizeof(said)), AA_FATAL);
	assert_string_equal(said, "option '--exclude' needs a pattern");
	o.parse.rules = NULL;
	assert_int_equal(check(&o, 1, said, sizeof(said)), AA_FATAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_need_a_pattern),
		cmocka_unit_test(test_default_options_pass),
		cmocka_unit_test(test_branch_options_need_branch),
		cmocka_unit_test(test_threeway_not_with_branch),
		cmocka_unit_test(test_each_needs_branch),
		cmocka_unit_test(test_select_rules),
		cmocka_unit_test(test_select_not_with_each),
		cmocka_unit_test(test_strict_takes_diff_only),
		cmocka_unit_test(test_every_broken_rule_is_said),
		cmocka_unit_test(test_apply_refuses_before_anything),
	};

	return AA_RUN_TESTS(tests);
}
