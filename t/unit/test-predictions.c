/*
 * Unit tests for --predictions' reader and branch names
 * (src/workflow/predictions_read.c). Every name made is also given to
 * `git check-ref-format --branch` when git is there.
 */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "aiapply/common.h"
#include "land/refname.h"
#include "workflow/predictions_read.h"

struct branch_case {
	const char *model, *name;
	const char *want;
};

static const struct branch_case cases[] = {
	{ "gpt-4o", "django__django-11099", "p/gpt-4o/django__django-11099" },
	{ "openai/gpt-4o", "x", "p/openai-gpt-4o/x" },
	{ NULL, "fix login", "p/fix-login" },
	{ NULL, "fix/a", "p/fix-a" },
	{ "a:b", "c~d^e?f*g[h\\i", "p/a-b/c-d-e-f-g-h-i" },
	{ "m", "a..b", "p/m/a.-b" },
	{ "m", "...", "p/m/-" },
	{ "m", ".hidden", "p/m/-hidden" },
	{ "m", "x.", "p/m/x-" },
	{ "m", "x.lock", "p/m/x-lock" },
	{ "m", "a@{1}", "p/m/a@-1}" },
	{ "m", "//a///b//", "p/m/--a---b--" },
	{ "/abs/path/model", "i", "p/-abs-path-model/i" },
	{ "m", "tab\there", "p/m/tab-here" },
	{ "m", "del\x7f", "p/m/del-" },
	{ "m", "caf\xc3\xa9", "p/m/caf\xc3\xa9" },
	{ "", "", "p/-/-" },
	{ "m", "HEAD", "p/m/HEAD" },
	{ "m", "-x", "p/m/-x" },
	{ "m", "@", "p/m/@" },
	{ "m", "a.lock/b", "p/m/a.lock-b" },
	{ "..", "..", "p/-/-" },
};

/* git itself, when it is on PATH: 1 valid, 0 not, -1 no git. */
static int git_says(const char *name)
{
	char cmd[512], *q = cmd;
	const char *s;
	int r;

	q += snprintf(cmd, sizeof(cmd), "git check-ref-format --branch '");
	for (s = name; *s && q < cmd + sizeof(cmd) - 32; s++) {
		if (*s == '\'')
			q += sprintf(q, "'\\''");
		else
			*q++ = *s;
	}
	sprintf(q, "' >/dev/null 2>&1");
	r = system(cmd);
	if (r == -1 || !WIFEXITED(r) || WEXITSTATUS(r) == 127)
		return -1;
	return WEXITSTATUS(r) == 0;
}

static void test_branch_names(void **state)
{
	aa_buf b = AA_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *parts[2] = { cases[i].model, cases[i].name };
		const char *why = NULL;

		assert_int_equal(aa_prediction_branch("p", parts, 2, &b), 0);
		if (strcmp(b.ptr, cases[i].want))
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, b.ptr,
				 cases[i].want);
		if (aa_branch_name_check(b.ptr, &why) < 0)
			fail_msg("case %zu: \"%s\" refused: %s", i, b.ptr, why);
		if (git_says(b.ptr) == 0)
			fail_msg("case %zu: git refuses \"%s\"", i, b.ptr);
	}
	aa_buf_free(&b);
}

/* Every byte, alone and between letters, makes a name git takes. */
static void test_every_byte(void **state)
{
	static const char *const fmts[] = { "%c", "a%c", "%cb", "a%cb", "%c%c", ".%c." };
	aa_buf b = AA_BUF_INIT;
	char part[8];
	int c;
	size_t k;

	(void)state;
	for (c = 1; c < 256; c++)
		for (k = 0; k < sizeof(fmts) / sizeof(fmts[0]); k++) {
			const char *parts[1] = { part };
			const char *why = NULL;

			snprintf(part, sizeof(part), fmts[k], c, c);
			assert_int_equal(aa_prediction_branch("p", parts, 1, &b), 0);
			if (aa_branch_name_check(b.ptr, &why) < 0)
				fail_msg("byte 0x%02x in \"%s\": \"%s\" refused: %s",
					 c, fmts[k], b.ptr, why);
		}
	aa_buf_free(&b);
}

static aa_predictions read_ok(const char *text, const aa_base_map *bases)
{
	aa_predictions p;
	aa_diags d = AA_DIAGS_INIT;

	if (aa_predictions_read(text, strlen(text), "p.jsonl", bases, "pr", &p, &d) < 0)
		fail_msg("refused: %s", d.n ? d.v[0].msg : "?");
	aa_diags_free(&d);
	return p;
}

static void test_swebench_lines(void **state)
{
	aa_predictions p = read_ok(
		"{\"instance_id\": \"a__b-1\", \"model_name_or_path\": \"m\", "
		"\"model_patch\": \"diff\\n\", \"base_commit\": \"abc\"}\n"
		"\n"
		"{\"instance_id\": \"a__b-2\", \"model_name_or_path\": \"m\", \"model_patch\": \"\"}\n"
		"not json\n"
		"{\"instance_id\": \"a__b-3\", \"model_name_or_path\": \"m\", \"model_patch\": \"d\"}\n"
		"{\"instance_id\": 7, \"model_patch\": \"d\"}\n", NULL);

	(void)state;
	assert_int_equal(p.n, 5);
	assert_string_equal(p.v[0].name, "a__b-1");
	assert_string_equal(p.v[0].base, "abc");
	assert_string_equal(p.v[0].answer, "diff\n");
	assert_int_equal(p.v[0].answer_len, 5);
	assert_string_equal(p.v[0].branch, "pr/m/a__b-1");
	assert_null(p.v[0].error);
	assert_int_equal(p.v[0].line, 1);
	assert_int_equal(p.v[1].line, 3);
	assert_non_null(p.v[1].error);
	assert_true(p.v[1].empty);
	assert_int_equal(p.v[2].line, 4);
	assert_non_null(strstr(p.v[2].error, "not a JSON object"));
	assert_non_null(strstr(p.v[3].error, "base_commit"));
	assert_int_equal(p.v[4].line, 6);
	assert_non_null(strstr(p.v[4].error, "\"instance_id\" is not a string"));
	aa_predictions_free(&p);
}

static void test_bases_and_list(void **state)
{
	const char *rows =
		"[{\"instance_id\": \"z-1\", \"base_commit\": \"c1\", \"repo\": \"x\"},\n"
		" {\"instance_id\": \"a-2\", \"base_commit\": \"c2\"},\n"
		" {\"instance_id\": \"n-3\"}]\n";
	aa_base_map m;
	aa_diags d = AA_DIAGS_INIT;
	aa_predictions p;

	(void)state;
	assert_int_equal(aa_base_map_read(rows, strlen(rows), "rows", &m, &d), 0);
	assert_int_equal(m.n, 2);
	assert_string_equal(aa_base_map_get(&m, "z-1"), "c1");
	assert_string_equal(aa_base_map_get(&m, "a-2"), "c2");
	assert_null(aa_base_map_get(&m, "n-3"));
	p = read_ok("[\n {\"instance_id\": \"a-2\", \"model_name_or_path\": \"m\",\n"
		    "  \"model_patch\": \"d\"},\n"
		    " {\"instance_id\": \"q-9\", \"model_name_or_path\": \"m\",\n"
		    "  \"model_patch\": \"d\"}\n]\n", &m);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.v[0].base, "c2");
	assert_null(p.v[0].error);
	assert_int_equal(p.v[0].line, 0);
	assert_int_equal(p.v[1].record, 2);
	assert_non_null(strstr(p.v[1].error, "--dataset"));
	aa_predictions_free(&p);
	aa_base_map_free(&m);
	aa_diags_free(&d);
}

/* An object keyed by instance_id (SWE-bench's older predictions files). */
static void test_object_of_records(void **state)
{
	aa_predictions p = read_ok(
		"{\n \"k-1\": {\"model_name_or_path\": \"m\", \"model_patch\": \"d\","
		" \"base_commit\": \"b\"}\n}\n", NULL);

	(void)state;
	assert_int_equal(p.n, 1);
	assert_string_equal(p.v[0].name, "k-1");
	assert_string_equal(p.v[0].branch, "pr/m/k-1");
	aa_predictions_free(&p);
}

static void test_manifest(void **state)
{
	aa_predictions p = read_ok(
		"{\"name\": \"one\", \"base\": \"HEAD~1\", \"answer\": \"x\"}\n"
		"{\"name\": \"two/sub\", \"base\": \"main\", \"answer_file\": \"a.md\"}\n"
		"{\"name\": \"three\", \"answer\": \"x\"}\n"
		"{\"base\": \"main\", \"answer\": \"x\"}\n"
		"{\"name\": \"five\", \"base\": \"main\"}\n"
		"{\"name\": \"six\", \"base\": \"main\", \"answer\": \"x\", \"answer_file\": \"y\"}\n"
		"[1]\n", NULL);

	(void)state;
	assert_int_equal(p.n, 7);
	assert_string_equal(p.v[0].branch, "pr/one");
	assert_string_equal(p.v[0].base, "HEAD~1");
	assert_null(p.v[0].model);
	assert_string_equal(p.v[1].branch, "pr/two-sub");
	assert_string_equal(p.v[1].answer_file, "a.md");
	assert_null(p.v[1].answer);
	assert_non_null(strstr(p.v[2].error, "\"base\""));
	assert_non_null(strstr(p.v[3].error, "\"name\""));
	assert_non_null(strstr(p.v[4].error, "answer_file"));
	assert_non_null(strstr(p.v[5].error, "both"));
	assert_non_null(p.v[6].error);
	aa_predictions_free(&p);
}

/* The file as a whole: a list that is no JSON, or nothing in it. */
static void test_whole_file_refused(void **state)
{
	static const char *const bad[] = { "[{\"a\": 1},\n oops]\n", "", "\n\n  \n" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		aa_predictions p;
		aa_diags d = AA_DIAGS_INIT;

		assert_int_equal(aa_predictions_read(bad[i], strlen(bad[i]), "p.json",
						     NULL, "pr", &p, &d), -1);
		assert_true(d.nerrors > 0);
		assert_string_equal(d.v[0].input, "p.json");
		if (i == 0)
			assert_int_equal(d.v[0].line, 2);
		aa_predictions_free(&p);
		aa_diags_free(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_branch_names),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_swebench_lines),
		cmocka_unit_test(test_bases_and_list),
		cmocka_unit_test(test_object_of_records),
		cmocka_unit_test(test_manifest),
		cmocka_unit_test(test_whole_file_refused),
	};

	return AA_RUN_TESTS(tests);
}
