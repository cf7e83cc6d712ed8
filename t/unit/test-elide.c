/*
 * Unit tests of elisions (src/edit/elide.c): how a line reads as a
 * placeholder, and when a placeholder by its words only is the answer's
 * own content (it stands for no lines of the original) rather than an
 * elision (lines are missing between its neighbours).
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "edit/edit.h"

#define KIND(s) aa_elision_kind(s, strlen(s), "f.c")

static void test_kind_of_a_line(void **state)
{
	(void)state;
	assert_int_equal(KIND("int a;"), AA_ELISION_NONE);
	assert_int_equal(KIND("// a comment"), AA_ELISION_NONE);
	assert_int_equal(KIND("// ... existing code ..."), AA_ELISION_ELLIPSIS);
	assert_int_equal(KIND("  # \xe2\x80\xa6 rest"), AA_ELISION_ELLIPSIS);
	assert_int_equal(KIND("/* ... */"), AA_ELISION_ELLIPSIS);
	assert_int_equal(KIND("..."), AA_ELISION_ELLIPSIS);
	assert_int_equal(KIND("// c: unchanged"), AA_ELISION_WORDS);
	assert_int_equal(KIND("// keep existing behaviour for b"), AA_ELISION_WORDS);
	assert_int_equal(KIND("# rest of the file unchanged"), AA_ELISION_WORDS);
	/* an ellipsis that opens the comment, or words saying what is left out */
	assert_int_equal(KIND("// ...existing code..."), AA_ELISION_ELLIPSIS);
	assert_int_equal(KIND("// ... handle the errors ..."), AA_ELISION_ELLIPSIS);
	assert_int_equal(KIND("// [...]"), AA_ELISION_ELLIPSIS);
	assert_int_equal(KIND("// existing code..."), AA_ELISION_ELLIPSIS);
	assert_int_equal(KIND("# other cases..."), AA_ELISION_ELLIPSIS);
	assert_int_equal(KIND("// rest of the tests\xe2\x80\xa6"), AA_ELISION_ELLIPSIS);
	/* a sentence that trails off is the answer's own comment */
	assert_int_equal(KIND("// the value is read later..."), AA_ELISION_NONE);
	assert_int_equal(KIND("        // April 2026)..."), AA_ELISION_NONE);
	assert_int_equal(KIND("// and then we wait for it..."), AA_ELISION_NONE);
	/* whole words only: "restore" is no "rest", "fetch" no "etc" */
	assert_int_equal(KIND("// restore the state, then fetch..."), AA_ELISION_NONE);
	assert_int_equal(KIND("// moreover, wait..."), AA_ELISION_NONE);
	/* prose and Python: "..." alone is content */
	assert_int_equal(aa_elision_kind("...", 3, "a.py"), AA_ELISION_NONE);
	assert_true(aa_is_elision("// c: unchanged", 15, "f.c"));
	assert_false(aa_is_elision("int a;", 6, "f.c"));
}

/* Whole-file `answer` resolved against `file`: the engine's rc. */
static int elide(const char *file, const char *answer, aa_buf *out, aa_diags *d)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx = { 0 };
	aa_pos pos = { "answer.md", 1 };
	const char *why = NULL;
	aa_op *op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	int rc;

	op->path = aa_strdup("f.c");
	op->edit_kind = AA_EDIT_ELIDE;
	op->content = aa_strdup(answer);
	op->content_len = strlen(answer);
	op->content_at = AA_CONTENT_AFTER_POS;
	cx.path = "f.c";
	cx.diags = d;
	assert_int_equal(aa_text_decode(&t, file, strlen(file), &why), 0);
	rc = aa_edit_elide(&t, op, &cx);
	if (!rc)
		assert_int_equal(aa_text_encode(&t, out), 0);
	aa_text_free(&t);
	aa_edit_ctx_release(&cx);
	aa_changeset_free(&cs);
	return rc;
}

static void expect_landing(const char *file, const char *answer,
			   const char *want)
{
	aa_diags d = { 0 };
	aa_buf out = AA_BUF_INIT;

	assert_int_equal(elide(file, answer, &out, &d), 0);
	assert_int_equal(d.n, 0);
	assert_string_equal(out.ptr ? out.ptr : "", want);
	aa_buf_free(&out);
	aa_diags_free(&d);
}

static const char abc[] = "int a;\nint b;\nint c;\n";

/* A worded line between lines adjacent in the original stands for nothing. */
static void test_worded_line_standing_for_nothing_is_content(void **state)
{
	(void)state;
	expect_landing(abc, "int a;\n// c: unchanged\nint b;\nint c;\nint d;\n",
		       "int a;\n// c: unchanged\nint b;\nint c;\nint d;\n");
	expect_landing(abc, "int a;\n// keep existing behaviour for b\nint b;\nint c;\n",
		       "int a;\n// keep existing behaviour for b\nint b;\nint c;\n");
	/* at the start, at the end, two in a row, blank lines kept */
	expect_landing(abc, "// b: unchanged\nint a;\nint b;\nint c;\n",
		       "// b: unchanged\nint a;\nint b;\nint c;\n");
	expect_landing(abc, "int a;\nint b;\nint c;\n\n// rest of the API unchanged\n",
		       "int a;\nint b;\nint c;\n\n// rest of the API unchanged\n");
	expect_landing(abc, "int a;\n\n// a: unchanged\n\n// b: as before\nint b;\nint c;\n",
		       "int a;\n\n// a: unchanged\n\n// b: as before\nint b;\nint c;\n");
}

/* Lines are missing between its neighbours: a real elision, put back. */
static void test_worded_line_standing_for_lines_is_an_elision(void **state)
{
	(void)state;
	expect_landing(abc, "int a;\n// rest unchanged\nint c;\nint d;\n",
		       "int a;\nint b;\nint c;\nint d;\n");
	expect_landing(abc, "// unchanged\nint c;\n", abc);
	expect_landing(abc, "int a;\n// rest of file unchanged\n", abc);
	/* one worded line resolves, another stands for nothing and stays */
	expect_landing(abc, "int a;\n// a: unchanged\nint b;\n// omitted\n",
		       "int a;\n// a: unchanged\nint b;\nint c;\n");
}

/* An ellipsis line keeps its meaning: a placeholder even for nothing. */
static void test_ellipsis_line_is_always_a_placeholder(void **state)
{
	(void)state;
	expect_landing(abc, "int a;\nint b;\nint c;\n// ... rest of file\n", abc);
	expect_landing(abc, "int a;\n// ...\nint b;\nint c;\n", abc);
	/* in a run with an ellipsis line the worded one still stays */
	expect_landing(abc, "int a;\n// ...\n// b: unchanged\nint b;\nint c;\n",
		       "int a;\n// b: unchanged\nint b;\nint c;\n");
}

/* A worded line whose neighbours cannot be placed is refused, named. */
static void test_worded_line_it_cannot_place_is_refused(void **state)
{
	aa_diags d = { 0 };
	aa_buf out = AA_BUF_INIT;

	(void)state;
	assert_int_equal(elide(abc, "int x;\n// rest unchanged\nint c;\n", &out, &d), -1);
	assert_int_equal(d.nerrors, 1);
	assert_int_equal(d.v[0].line, 3);
	assert_non_null(strstr(d.v[0].msg, "the elision \"// rest unchanged\" "
			       "cannot be resolved"));
	assert_null(out.ptr);
	aa_diags_free(&d);
}

/* A worded line that is a line of the original is an anchor. */
static void test_worded_line_of_the_original_is_content(void **state)
{
	(void)state;
	expect_landing("int a;\n// rest unchanged\nint b;\nint c;\n",
		       "int a;\n// rest unchanged\nint c;\n",
		       "int a;\n// rest unchanged\nint c;\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_of_a_line),
		cmocka_unit_test(test_worded_line_standing_for_nothing_is_content),
		cmocka_unit_test(test_worded_line_standing_for_lines_is_an_elision),
		cmocka_unit_test(test_ellipsis_line_is_always_a_placeholder),
		cmocka_unit_test(test_worded_line_it_cannot_place_is_refused),
		cmocka_unit_test(test_worded_line_of_the_original_is_content),
	};
	return AA_RUN_TESTS(tests);
}
