/* v4a (Codex apply_patch): the parser and its detection in answers. */
#include "unit.h"
#include "parse-fixture.h"

#include <stdio.h>
#include <stdlib.h>

#include "format/format.h"

static void operations_in_order(void **state)
{
	static const char answer[] =
		"Sure:\n"                                   /* 1 */
		"```diff\n"
		"*** Begin Patch\n"
		"*** Add File: a/new.txt\n"                 /* 4 */
		"+x\n"
		"+\r\n"
		"*** Delete File: old.txt\n"                /* 7 */
		"*** Update File: m.py\n"                   /* 8 */
		"*** Move to: n.py\n"
		"@@ class B:\n"                             /* 10 */
		"@@     def run(self):\n"
		" a\n"
		"-b\n"
		"+c\n"
		"\n"                                        /* 15: empty context */
		" d\n"
		"@@\n"                                      /* 17 */
		"+tail\n"
		"*** End of File\n"
		"\n"
		"*** End Patch\n"
		"```\n";
	fixture f;
	const aa_op *op;

	(void)state;
	assert_int_equal(parse(&f, answer, AA_FORMAT_AUTO), 1);
	assert_int_equal(f.cs.n, 4);
	op = &f.cs.ops[0];
	assert_int_equal(op->kind, AA_OP_WRITE);
	assert_int_equal(op->exist, AA_EXIST_NEW);
	assert_string_equal(op->path, "a/new.txt");
	assert_int_equal(op->pos.line, 4);
	/* a CR before the LF is content (the answer is not CRLF throughout) */
	assert_int_equal(op->content_len, 4);
	assert_memory_equal(op->content, "x\n\r\n", 4);
	op = &f.cs.ops[1];
	assert_int_equal(op->kind, AA_OP_DELETE);
	assert_string_equal(op->path, "old.txt");
	op = &f.cs.ops[2];
	assert_int_equal(op->kind, AA_OP_EDIT);
	assert_int_equal(op->edit_kind, AA_EDIT_V4A);
	assert_string_equal(op->format, "v4a");
	assert_int_equal(op->nhunks, 2);
	assert_string_equal(op->hunks[0].section, "class B:\n    def run(self):");
	assert_int_equal(op->hunks[0].pos.line, 10);
	assert_int_equal(op->hunks[0].nlines, 5);
	assert_int_equal(op->hunks[0].lines[3].kind, ' ');
	assert_int_equal(op->hunks[0].lines[3].len, 0);
	assert_int_equal(op->hunks[0].old_count, 4);
	assert_int_equal(op->hunks[0].new_count, 4);
	assert_false(op->hunks[0].has_hint);
	assert_null(op->hunks[1].section);
	assert_true(op->hunks[1].at_eof);
	assert_int_equal(op->hunks[1].old_count, 0);
	op = &f.cs.ops[3];
	assert_int_equal(op->kind, AA_OP_RENAME);
	assert_string_equal(op->path, "m.py");
	assert_string_equal(op->to, "n.py");
	release(&f);
}

static void errors_name_lines_and_drop_everything(void **state)
{
	static const char answer[] =
		"*** Begin Patch\n"
		"*** Add File: ok.txt\n"
		"+fine\n"
		"*** Update File: x\n"       /* 4 */
		"@@\n"                       /* 5: a chunk without lines */
		"@@ y\n"
		"*** Add File: .git/config\n" /* 7 */
		"+x\n"
		"*** End Patch\n";
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, answer, AA_FORMAT_AUTO), -1);
	assert_int_equal(f.cs.n, 0);
	assert_true(has_error(&f, 5, "a chunk without lines"));
	assert_true(has_error(&f, 7, "invalid path"));
	release(&f);
}

static void no_false_positives(void **state)
{
	/* a patch quoted inline and one described in prose are not edits */
	static const char answer[] =
		"Codex patches start with `*** Begin Patch` and end with\n"
		"`*** End Patch`. For example:\n"
		"\n"
		"    *** Begin Patch is the first line.\n";
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, answer, AA_FORMAT_AUTO), 0);
	assert_int_equal(f.cs.n, 0);
	release(&f);
}

static void two_patches_and_a_diff(void **state)
{
	static const char answer[] =
		"*** Begin Patch\n"
		"*** Delete File: a\n"
		"*** End Patch\n"
		"and a diff:\n"
		"--- a/b\n"
		"+++ b/b\n"
		"@@ -1 +1 @@\n"
		"-x\n"
		"+y\n"
		"*** Begin Patch\n"
		"*** Delete File: c\n"
		"*** End Patch\n";
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, answer, AA_FORMAT_AUTO), 3);
	assert_int_equal(f.cs.n, 3);
	assert_string_equal(f.cs.ops[0].format, "v4a");
	assert_string_equal(f.cs.ops[1].format, "diff");
	assert_string_equal(f.cs.ops[2].path, "c");
	release(&f);
	/* forced: the same patches, the diff ignored */
	assert_int_equal(parse(&f, answer, AA_FORMAT_V4A), 1);
	assert_int_equal(f.cs.n, 2);
	assert_string_equal(f.cs.ops[1].path, "c");
	release(&f);
}

static void garbage_does_not_crash(void **state)
{
	static const char *const inputs[] = {
		"*** Begin Patch", "*** Begin Patch\n", "*** Begin Patch\n***",
		"*** Begin Patch\n*** Update File:\n", "*** Begin Patch\n@@\n",
		"*** Begin Patch\n*** Update File: a\n*** End of File\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n*** Move to:\n*** End Patch",
		"*** Begin Patch\n*** Add File: a\n\n\n*** End Patch",
		"*** Begin Patch\n*** Begin Patch\n*** End Patch",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(inputs) / sizeof(*inputs); i++) {
		fixture f;
		int r = parse(&f, inputs[i], AA_FORMAT_AUTO);

		assert_true(r >= -1);
		assert_true(r >= 0 || f.d.nerrors > 0);
		release(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(operations_in_order),
		cmocka_unit_test(errors_name_lines_and_drop_everything),
		cmocka_unit_test(no_false_positives),
		cmocka_unit_test(two_patches_and_a_diff),
		cmocka_unit_test(garbage_does_not_crash),
	};
	return AA_RUN_TESTS(tests);
}
