/* search-replace: blocks, paths next to code, detection in answers. */
#include "unit.h"
#include "parse-fixture.h"

#include <stdio.h>
#include <stdlib.h>

#include "format/lines.h"
#include "format/markers.h"
#include "label-fixture.h"

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

/*
 * Elisions in REPLACE are a fact the parser records (the hunk engine
 * resolves them against SEARCH): the lines stay as written, and even an
 * elision that could not be resolved is no parse error.
 */
static void replace_elisions_are_recorded_not_resolved(void **state)
{
	static const char answer[] =
		"app/a.js\n"                          /* 1 */
		"```js\n"
		"<<<<<<< SEARCH\n"                    /* 3 */
		"f() {\n"
		"  one();\n"
		"}\n"
		"=======\n"
		"g() {\n"                             /* 8 */
		"  // ... existing code ...\n"
		"}\n"
		">>>>>>> REPLACE\n"
		"```\n";
	fixture f;
	const aa_hunk *h;

	(void)state;
	assert_int_equal(parse(&f, answer, AA_FORMAT_AUTO), 1);
	assert_int_equal(f.d.nerrors, 0);
	assert_int_equal(f.cs.n, 1);
	h = &f.cs.ops[0].hunks[0];
	assert_true(h->may_elide);
	assert_int_equal(h->added_pos.line, 8);
	assert_int_equal(h->nlines, 6);
	assert_string_equal(h->lines[4].text, "  // ... existing code ...");
	assert_int_equal(h->new_count, 3);
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

static aa_sr_mark mark(const char *line)
{
	return aa_sr_mark_of(line, strlen(line));
}

/* The variants Aider, Cline and Roo Code accept (markers.c). */
static void marker_variants(void **state)
{
	(void)state;
	assert_int_equal(mark("<<<<<<< SEARCH"), AA_SR_SEARCH);
	assert_int_equal(mark("<<<<<<< SEARCH>"), AA_SR_SEARCH);
	assert_int_equal(mark("<<<<<<< SEARCH \t\r"), AA_SR_SEARCH);
	assert_int_equal(mark("<<<<<<<<<<<< SEARCH"), AA_SR_SEARCH);
	assert_int_equal(mark("<<< SEARCH"), AA_SR_SEARCH);
	assert_int_equal(mark("------- SEARCH"), AA_SR_SEARCH_DASHES);
	assert_int_equal(mark("----------- SEARCH>"), AA_SR_SEARCH_DASHES);
	assert_int_equal(mark("======="), AA_SR_DIVIDER);
	assert_int_equal(mark("============== "), AA_SR_DIVIDER);
	assert_int_equal(mark("====="), AA_SR_DIVIDER);
	assert_int_equal(mark("==="), AA_SR_DIVIDER_SHORT);
	assert_int_equal(mark(">>>>>>> REPLACE"), AA_SR_REPLACE);
	assert_int_equal(mark(">>>>>>> REPLACE>"), AA_SR_REPLACE);
	assert_int_equal(mark("+++++++ REPLACE"), AA_SR_REPLACE);
	assert_int_equal(mark(">>>>>>>>>>>> REPLACE  "), AA_SR_REPLACE);
	assert_int_equal(mark("-------"), AA_SR_ROO_SEP);
	/* not markers */
	assert_int_equal(mark(" <<<<<<< SEARCH"), AA_SR_NONE);
	assert_int_equal(mark("<<<<<<<SEARCH"), AA_SR_NONE);
	assert_int_equal(mark("<<<<<<< SEARCH>>"), AA_SR_NONE);
	assert_int_equal(mark("<<<<<<< search"), AA_SR_NONE);
	assert_int_equal(mark("<< SEARCH"), AA_SR_NONE);
	assert_int_equal(mark("<<<<<<< HEAD"), AA_SR_NONE);
	assert_int_equal(mark(">>>>>>> topic"), AA_SR_NONE);
	assert_int_equal(mark("=="), AA_SR_NONE);
	assert_int_equal(mark("=======x"), AA_SR_NONE);
	assert_int_equal(mark("\\======="), AA_SR_NONE);
	assert_int_equal(mark("-----"), AA_SR_NONE);
	assert_int_equal(mark("---"), AA_SR_NONE);
}

static aa_structure structure(const char *s, int conflicts, long *line)
{
	size_t at = 0;
	aa_structure k = aa_edit_structure(s, strlen(s), conflicts, &at);

	*line = 1 + aa_count_lines(s, at);
	return k;
}

static void edit_structures(void **state)
{
	long line;

	(void)state;
	assert_int_equal(structure("x\n    <<<<<<< SEARCH\na\n    =======\nb\n"
				   "    >>>>>>> REPLACE\n", 0, &line), AA_STRUCT_SR);
	assert_int_equal(line, 2);
	assert_int_equal(structure("<<<<<<<SEARCH\na\n=======\nb\n>>>>>>>REPLACE\n",
				   0, &line), AA_STRUCT_SR);
	assert_int_equal(structure("--- search\na\n===\nb\n+++ replace\n", 0,
				   &line), AA_STRUCT_SR);
	assert_int_equal(structure("a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> t\n",
				   1, &line), AA_STRUCT_CONFLICT);
	assert_int_equal(line, 2);
	/* a conflict shown in prose is an example */
	assert_int_equal(structure("<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> t\n",
				   0, &line), AA_STRUCT_NONE);
	assert_int_equal(structure("text\n  *** Begin Patch\n", 0, &line),
			 AA_STRUCT_V4A);
	assert_int_equal(line, 2);
	assert_int_equal(structure("  --- a/x\n  +++ b/x\n  @@ -1 +1 @@\n", 0,
				   &line), AA_STRUCT_DIFF);
	/* lone dividers, underlines, parts out of order: content */
	assert_int_equal(structure("Title\n=======\ntext\n", 1, &line),
			 AA_STRUCT_NONE);
	assert_int_equal(structure("=======\n<<<<<<< HEAD\n>>>>>>> t\n", 1,
				   &line), AA_STRUCT_NONE);
	assert_int_equal(structure("<<<<<<< HEAD\n===\n>>>>>>> t\n", 1, &line),
			 AA_STRUCT_NONE);
	assert_int_equal(structure("--- a\n+++ b\ntext\n", 1, &line),
			 AA_STRUCT_NONE);
	assert_int_equal(structure("", 1, &line), AA_STRUCT_NONE);
	/* in a file, a marker with SEARCH or REPLACE alone is one */
	assert_int_equal(structure("a\n=======\nb\n>>>>>>> REPLACE\n", 1,
				   &line), AA_STRUCT_SR);
	assert_int_equal(line, 4);
	assert_int_equal(structure("a\n=======\nb\n>>>>>>> REPLACE\n", 0,
				   &line), AA_STRUCT_NONE);
}

/* A whole file holding markers the parser does not read is refused. */
static void structure_never_content(void **state)
{
	static const char answer[] =
		"big.txt\n"
		"```\n"
		"  <<<<<<< SEARCH\n"
		"  a\n"
		"  =======\n"
		"  b\n"
		"  >>>>>>> REPLACE\n"
		"```\n";
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, answer, AA_FORMAT_AUTO), -1);
	assert_int_equal(f.cs.n, 0);
	assert_int_equal(f.d.v[0].line, 3);
	release(&f);
	/* --format=whole-file says the fences are files: written */
	assert_int_equal(parse(&f, answer, AA_FORMAT_WHOLE_FILE), 1);
	assert_int_equal(f.cs.n, 1);
	release(&f);
}

static const aa_hunk *only_hunk(const fixture *f)
{
	assert_int_equal(f->cs.n, 1);
	assert_int_equal(f->cs.ops[0].nhunks, 1);
	return &f->cs.ops[0].hunks[0];
}

static void hline_is(const aa_hunk *h, size_t k, char kind, const char *text)
{
	assert_true(k < h->nlines);
	assert_int_equal(h->lines[k].kind, kind);
	assert_int_equal(h->lines[k].len, strlen(text));
	assert_memory_equal(h->lines[k].text, text, strlen(text));
}

/* Roo Code: line numbers from its viewer, escaped markers. */
static void roo_conventions(void **state)
{
	static const char numbered[] =
		"a.txt\n<<<<<<< SEARCH\n 9 | x\n10 |   y\n11 |\n=======\n"
		"10 |   z\nnew\n>>>>>>> REPLACE\n";
	static const char partly[] =
		"a.txt\n<<<<<<< SEARCH\n9 | x\ny\n=======\n9 | z\n>>>>>>> REPLACE\n";
	static const char escaped[] =
		"a.txt\n<<<<<<< SEARCH\n:start_line: 4\n-------\n\\=======\n"
		"\\<<<<<<< HEAD\n=======\n\\>>>>>>> REPLACE\n\\-------\n"
		"\\:start_line:\n\\:end_line:\n\\n\n>>>>>>> REPLACE\n";
	static const char *const bad[] = {
		"a.txt\n<<<<<<< SEARCH\nx\n=======\n:start_line:3\ny\n>>>>>>> REPLACE\n",
		"a.txt\n<<<<<<< SEARCH\nx\n=======\n  :end_line:3\ny\n>>>>>>> REPLACE\n",
		"a.txt\n<<<<<<< SEARCH\nx\n=======\n=======\nz\n>>>>>>> REPLACE\n",
		"a.txt\n<<<<<<< SEARCH\nx\n=======\n>>>>>>> topic\n>>>>>>> REPLACE\n",
	};
	const aa_hunk *h;
	fixture f;
	size_t i;

	(void)state;
	assert_int_equal(parse(&f, numbered, AA_FORMAT_AUTO), 1);
	h = only_hunk(&f);
	hline_is(h, 0, '-', "x");
	hline_is(h, 1, '-', "  y");
	hline_is(h, 2, '-', "");
	hline_is(h, 3, '+', "  z");
	hline_is(h, 4, '+', "new");
	assert_true(h->has_hint);
	assert_int_equal(h->old_start, 9);
	release(&f);
	/* not every SEARCH line numbered: all content */
	assert_int_equal(parse(&f, partly, AA_FORMAT_AUTO), 1);
	h = only_hunk(&f);
	hline_is(h, 0, '-', "9 | x");
	hline_is(h, 2, '+', "9 | z");
	assert_false(h->has_hint);
	release(&f);
	assert_int_equal(parse(&f, escaped, AA_FORMAT_AUTO), 1);
	h = only_hunk(&f);
	hline_is(h, 0, '-', "=======");
	hline_is(h, 1, '-', "<<<<<<< HEAD");
	hline_is(h, 2, '+', ">>>>>>> REPLACE");
	hline_is(h, 3, '+', "-------");
	hline_is(h, 4, '+', ":start_line:");
	hline_is(h, 5, '+', ":end_line:");
	hline_is(h, 6, '+', "\\n");
	assert_int_equal(h->old_start, 4);
	release(&f);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		assert_int_equal(parse(&f, bad[i], AA_FORMAT_AUTO), -1);
		assert_int_equal(f.cs.n, 0);
		assert_int_equal(f.d.v[0].line, 5);
		release(&f);
	}
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
		cmocka_unit_test(replace_elisions_are_recorded_not_resolved),
		cmocka_unit_test(prose_and_conflicts_are_not_blocks),
		cmocka_unit_test(marker_variants),
		cmocka_unit_test(edit_structures),
		cmocka_unit_test(structure_never_content),
		cmocka_unit_test(roo_conventions),
		cmocka_unit_test(garbage_does_not_crash),
	};
	return AA_RUN_TESTS(tests);
}
