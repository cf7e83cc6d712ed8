/*
 * Unit tests for the colored report lines (src/report/report.c): git's diff
 * colors line by line and the diagnostics' keyword and closest region,
 * on the edge cases the sharness tests cannot reach through an answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "report/report.h"

/* Colors on, with git's defaults (no repository). */
static aa_color colors_on(void)
{
	aa_color c;

	aa_color_setup(&c, NULL, AA_COLOR_ALWAYS, -1);
	return c;
}

/* One line through a fresh file state; the result, to free. */
static char *color_line(const aa_color *c, char origin, const char *s)
{
	aa_diff_colors dc;
	aa_buf out = AA_BUF_INIT;

	aa_report_color_file(&dc, c, NULL, 0, NULL, 0);
	assert_int_equal(aa_report_color_line(&dc, &out, origin, s, strlen(s)), 0);
	return out.ptr ? out.ptr : strdup("");
}

static void expect_line(const aa_color *c, char origin, const char *s,
			const char *expect)
{
	char *got = color_line(c, origin, s);

	assert_string_equal(got, expect);
	free(got);
}

static void test_plain_is_unchanged(void **state)
{
	(void)state;
	expect_line(NULL, GIT_DIFF_LINE_ADDITION, "x  \n", "+x  \n");
	expect_line(NULL, GIT_DIFF_LINE_HUNK_HDR, "@@ -1 +1 @@ f\n", "@@ -1 +1 @@ f\n");
	expect_line(NULL, GIT_DIFF_LINE_ADD_EOFNL, "\n\\ No newline at end of file\n",
		    "\n\\ No newline at end of file\n");
}

static void test_added_lines(void **state)
{
	aa_color c = colors_on();

	(void)state;
	/* an empty added line: the sign only */
	expect_line(&c, GIT_DIFF_LINE_ADDITION, "\n", "\033[32m+\033[m\n");
	/* only blanks: all of it a whitespace error */
	expect_line(&c, GIT_DIFF_LINE_ADDITION, " \t\n",
		    "\033[32m+\033[m\033[41m \t\033[m\n");
	/* spaces only in the indent: no error, in new */
	expect_line(&c, GIT_DIFF_LINE_ADDITION, "    x\n",
		    "\033[32m+\033[m\033[32m    x\033[m\n");
	/* two tabs, a space between: the space is the error */
	expect_line(&c, GIT_DIFF_LINE_ADDITION, "\t \tx",
		    "\033[32m+\033[m\t\033[41m \033[m\t\033[32mx\033[m");
}

static void test_removed_and_context(void **state)
{
	aa_color c = colors_on();

	(void)state;
	expect_line(&c, GIT_DIFF_LINE_DELETION, "x  \r\n", "\033[31m-x  \033[m\r\n");
	expect_line(&c, GIT_DIFF_LINE_DELETION, "\n", "\033[31m-\033[m\n");
	expect_line(&c, GIT_DIFF_LINE_CONTEXT, "\n", " \033[m\n");
}

static void test_hunk_headers(void **state)
{
	aa_color c = colors_on();

	(void)state;
	expect_line(&c, GIT_DIFF_LINE_HUNK_HDR, "@@ -1,2 +1,3 @@\n",
		    "\033[36m@@ -1,2 +1,3 @@\033[m\n");
	/* (xdiff trims a function line's blanks; a "\r" would stay outside) */
	expect_line(&c, GIT_DIFF_LINE_HUNK_HDR, "@@ -1,2 +1,3 @@\tint f()\r\n",
		    "\033[36m@@ -1,2 +1,3 @@\033[m\t\033[m"
		    "int f()\033[m\r\n");
	/* no closing "@@": a context line, as git's CONTEXT_MARKER */
	expect_line(&c, GIT_DIFF_LINE_HUNK_HDR, "@@ broken header\n",
		    "@@ broken header\033[m\n");
	/* no newline at all: git completes the line */
	expect_line(&c, GIT_DIFF_LINE_HUNK_HDR, "@@ -1 +1 @@",
		    "\033[36m@@ -1 +1 @@\033[m\n");
}

static void test_no_newline_marker(void **state)
{
	aa_color c = colors_on();

	(void)state;
	expect_line(&c, GIT_DIFF_LINE_DEL_EOFNL, "\n\\ No newline at end of file\n",
		    "\n\\ No newline at end of file\033[m\n");
	expect_line(&c, GIT_DIFF_LINE_FILE_HDR, "--- a/x\n", "\033[1m--- a/x\033[m\n");
}

/* blank-at-eof: "x\n" to "x\n\n\n", the hunk "@@ -1 +1,3 @@". */
static void test_blank_at_eof(void **state)
{
	aa_color c = colors_on();
	aa_diff_colors dc;
	aa_buf out = AA_BUF_INIT;
	const char *old = "x\n", *new_data = "x\n\n \n";

	(void)state;
	aa_report_color_file(&dc, &c, old, strlen(old), new_data, strlen(new_data));
	assert_int_equal(aa_report_color_line(&dc, &out, GIT_DIFF_LINE_HUNK_HDR,
					      "@@ -1 +1,3 @@\n", 14), 0);
	assert_int_equal(aa_report_color_line(&dc, &out, GIT_DIFF_LINE_CONTEXT,
					      "x\n", 2), 0);
	assert_int_equal(aa_report_color_line(&dc, &out, GIT_DIFF_LINE_ADDITION,
					      "\n", 1), 0);
	assert_int_equal(aa_report_color_line(&dc, &out, GIT_DIFF_LINE_ADDITION,
					      " \n", 2), 0);
	assert_string_equal(out.ptr, "\033[36m@@ -1 +1,3 @@\033[m\n"
			    " x\033[m\n"
			    "\033[41m+\033[m\n"
			    "\033[41m+ \033[m\n");
	aa_buf_free(&out);
}

/* The diagnostics as aa_report_diags_color prints them. */
static char *diags_text(const aa_diags *d, const aa_color *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	aa_report_diags_color(f, d, c);
	fclose(f);
	return text;
}

static void test_diags(void **state)
{
	aa_color c = colors_on();
	aa_diags d = AA_DIAGS_INIT;
	char *got;

	(void)state;
	aa_error(&d, (aa_pos){ "in.diff", 3 }, "a.c",
		 "hunk does not apply\n  the file there against the hunk:\n"
		 "        4 - \"b\"\n          + \"c\"\n  12345678 - \"d\"\n"
		 "  hunk line \"e\" - not a region line\n        5   \"f\"");
	aa_warn(&d, (aa_pos){ "in.diff", 9 }, "a.c", "applied at line 5");
	aa_note(&d, (aa_pos){ NULL, 0 }, NULL, "a note");
	got = diags_text(&d, &c);
	assert_string_equal(got,
		"\033[1;31merror\033[m: a.c: in.diff:3: hunk does not apply\n"
		"  the file there against the hunk:\n"
		"        4 \033[31m- \"b\"\033[m\n"
		"          \033[32m+ \"c\"\033[m\n"
		"  12345678 \033[31m- \"d\"\033[m\n"
		"  hunk line \"e\" - not a region line\n"
		"        5   \"f\"\n"
		"\033[1;33mwarning\033[m: a.c: in.diff:9: applied at line 5\n"
		"note: a note\n");
	free(got);
	got = diags_text(&d, NULL);
	assert_null(strchr(got, '\033'));
	free(got);
	aa_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_is_unchanged),
		cmocka_unit_test(test_added_lines),
		cmocka_unit_test(test_removed_and_context),
		cmocka_unit_test(test_hunk_headers),
		cmocka_unit_test(test_no_newline_marker),
		cmocka_unit_test(test_blank_at_eof),
		cmocka_unit_test(test_diags),
	};

	git_libgit2_init();
	return AA_RUN_TESTS(tests);
}
