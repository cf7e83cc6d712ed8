/* search-replace: blocks, paths next to code, detection in answers. */
#include "unit.h"
#include "parse-fixture.h"

#include <stdio.h>
#include <stdlib.h>

#include "format/registry.h"

static int label_is(const char *line, const char *want)
{
	const char *p;
	size_t n;

	if (!aa_label_path(line, strlen(line), &p, &n))
		return want == NULL;
	return want && n == strlen(want) && !memcmp(p, want, n);
}

static int info_is(const char *info, const char *want)
{
	const char *p;
	size_t n;

	if (!aa_info_path(info, strlen(info), &p, &n))
		return want == NULL;
	return want && n == strlen(want) && !memcmp(p, want, n);
}

static void labels(void **state)
{
	(void)state;
	assert_true(label_is("app/x.py", "app/x.py"));
	assert_true(label_is("**app/x.py**", "app/x.py"));
	assert_true(label_is("`app/x.py`", "app/x.py"));
	assert_true(label_is("File: app/x.py", "app/x.py"));
	assert_true(label_is("**File:** `app/x.py`", "app/x.py"));
	assert_true(label_is("### app/x.py", "app/x.py"));
	assert_true(label_is("app/x.py:", "app/x.py"));
	assert_true(label_is("Makefile.am", "Makefile.am"));
	assert_true(label_is("Here is the updated file:", NULL));
	/* a snippet is often introduced so: not a whole-file label */
	assert_true(label_is("In `app/x.py`:", NULL));
	assert_true(label_is("Update app/x.py:", NULL));
	assert_true(label_is("Done.", NULL));
	assert_true(label_is("python", NULL));
	assert_true(label_is("../etc/passwd", NULL));
	/* absolute: the planner makes it relative or refuses it */
	assert_true(label_is("/abs/x.py", "/abs/x.py"));
	assert_true(label_is(".git/config", NULL));
	assert_true(label_is("https://example.com/x.py", NULL));
	assert_true(info_is("python", NULL));
	assert_true(info_is("x.py", "x.py"));
	assert_true(info_is("python:app/x.py", "app/x.py"));
	assert_true(info_is("python title=\"app/x.py\"", "app/x.py"));
	assert_true(info_is("python app/x.py", "app/x.py"));
	assert_true(info_is("", NULL));
}

static void three_forms(void **state)
{
	static const char answer[] =
		"app/a.py\n"                          /* 1 */
		"```python\n"
		"<<<<<<< SEARCH\n"                    /* 3 */
		"x = 1\n"
		"=======\n"
		"x = 2\n"
		"y = 3\n"
		">>>>>>> REPLACE\n"
		"```\n"
		"<replace_in_file><path>b.txt</path>\n" /* 10 */
		"<diff>\n"
		"------- SEARCH\n"                    /* 12 */
		"old\n"
		"=======\n"
		"+++++++ REPLACE\n"
		"</diff>\n"
		"</replace_in_file>\n"
		"c.txt\n"                             /* 18 */
		"<<<<<<< SEARCH\n"                    /* 19 */
		":start_line:7\n"
		"-------\n"
		"k\n"
		"=======\n"
		"K\n"
		">>>>>>> REPLACE\n";
	fixture f;
	const aa_op *op;

	(void)state;
	/* two blocks: the fence, then the unfenced run of Cline and Roo */
	assert_int_equal(parse(&f, answer, AA_FORMAT_AUTO), 2);
	assert_int_equal(f.cs.n, 3);
	op = &f.cs.ops[0];
	assert_string_equal(op->path, "app/a.py");
	assert_string_equal(op->format, "search-replace");
	assert_int_equal(op->pos.line, 3);
	assert_int_equal(op->edit_kind, AA_EDIT_HUNKS);
	assert_int_equal(op->nhunks, 1);
	assert_false(op->hunks[0].has_hint);
	assert_int_equal(op->hunks[0].old_count, 1);
	assert_int_equal(op->hunks[0].new_count, 2);
	op = &f.cs.ops[1];
	assert_string_equal(op->path, "b.txt");
	assert_int_equal(op->pos.line, 12);
	assert_int_equal(op->hunks[0].new_count, 0);
	op = &f.cs.ops[2];
	assert_string_equal(op->path, "c.txt");
	assert_true(op->hunks[0].has_hint);
	assert_int_equal(op->hunks[0].old_start, 7);
	assert_int_equal(op->hunks[0].nlines, 2);
	release(&f);
}

static void prose_and_conflicts_are_not_blocks(void **state)
{
	static const char answer[] =
		"Resolve it like this:\n"
		"```\n"
		"<<<<<<< HEAD\n"
		"a\n"
		"=======\n"
		"b\n"
		">>>>>>> topic\n"
		"```\n"
		"```diff\n"
		"--- a/f\n"
		"+++ b/f\n"
		"@@ -1,3 +1,3 @@\n"
		" <<<<<<< SEARCH\n"
		"-x\n"
		"+y\n"
		" >>>>>>> REPLACE\n"
		"```\n";
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, answer, AA_FORMAT_AUTO), 1);
	assert_int_equal(f.cs.n, 1);
	assert_string_equal(f.cs.ops[0].format, "diff");
	release(&f);
}

static void garbage_does_not_crash(void **state)
{
	static const char *const inputs[] = {
		"<<<<<<< SEARCH", "a.txt\n<<<<<<< SEARCH\n", "a.txt\n<<<<<<< SEARCH\n=======",
		"<replace_in_file>", "<replace_in_file><path></path>",
		"a.txt\n<<<<<<< SEARCH\n:start_line:99999999999999\n=======\n>>>>>>> REPLACE",
		"```\na.txt\n<<<<<<< SEARCH\n<<<<<<< SEARCH\n```",
		">>>>>>> REPLACE\n=======\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(inputs) / sizeof(*inputs); i++) {
		fixture f;
		int r = parse(&f, inputs[i], AA_FORMAT_AUTO);

		assert_true(r >= 0 || f.d.nerrors > 0);
		release(&f);
		r = parse(&f, inputs[i], AA_FORMAT_SEARCH_REPLACE);
		assert_true(r >= 0 || f.d.nerrors > 0);
		release(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(labels),
		cmocka_unit_test(three_forms),
		cmocka_unit_test(prose_and_conflicts_are_not_blocks),
		cmocka_unit_test(garbage_does_not_crash),
	};
	return AA_RUN_TESTS(tests);
}
