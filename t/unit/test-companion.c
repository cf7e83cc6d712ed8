/* companion format (seed 000): commands, contents, malformed runs. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "format/format.h"

typedef struct fixture {
	aa_input in;
	aa_block b;
	aa_parse_opts o;
	aa_changeset cs;
	aa_diags d;
} fixture;

/* Parses `text` as a companion block that starts at input line `line`. */
static int parse(fixture *f, const char *text, long line)
{
	memset(f, 0, sizeof(*f));
	f->in.name = "answer.md";
	f->in.data = text;
	f->in.len = strlen(text);
	f->b.in = &f->in;
	f->b.data = text;
	f->b.len = strlen(text);
	f->b.line = line;
	f->o.format = AA_FORMAT_AUTO;
	return aa_parse_companion(&f->b, &f->o, &f->cs, &f->d);
}

static void release(fixture *f)
{
	aa_changeset_free(&f->cs);
	aa_diags_free(&f->d);
}

/* The error at `line` whose message contains `what`. */
static int has_error(const fixture *f, long line, const char *what)
{
	size_t i;

	for (i = 0; i < f->d.n; i++) {
		const aa_diag *g = &f->d.v[i];

		if (g->level == AA_DIAG_ERROR && g->line == line &&
		    strstr(g->msg, what))
			return 1;
	}
	for (i = 0; i < f->d.n; i++)
		fprintf(stderr, "# diag line %ld: %s\n", f->d.v[i].line, f->d.v[i].msg);
	return 0;
}

static void assert_write(const aa_op *op, const char *path, aa_exist exist,
			 const char *content)
{
	assert_int_equal(op->kind, AA_OP_WRITE);
	assert_string_equal(op->path, path);
	assert_int_equal(op->exist, exist);
	assert_int_equal(op->content_len, strlen(content));
	assert_memory_equal(op->content, content, op->content_len);
	assert_string_equal(op->format, "companion");
}

/* ---- the seed's four examples ---- */

static void seed_start_file(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"--- START-FILE: src/Services/MailerService.php ---\n"
		"<?php\n"
		"declare(strict_types=1);\n"
		"\n"
		"namespace App\\Services;\n"
		"\n"
		"class MailerService\n"
		"{\n"
		"    // ...\n"
		"}\n"
		"--- END-FILE: src/Services/MailerService.php ---\n", 5), 1);
	assert_int_equal(f.cs.n, 1);
	assert_write(&f.cs.ops[0], "src/Services/MailerService.php", AA_EXIST_NEW,
		     "<?php\ndeclare(strict_types=1);\n\nnamespace App\\Services;\n\n"
		     "class MailerService\n{\n    // ...\n}\n");
	assert_int_equal(f.cs.ops[0].pos.line, 5);
	assert_string_equal(f.cs.ops[0].pos.input, "answer.md");
	release(&f);
}

static void seed_start_patch(void **state)
{
	fixture f;
	const aa_op *op;
	const aa_hunk *h;
	size_t i, plus = 0;

	(void)state;
	assert_int_equal(parse(&f,
		"--- START-PATCH: src/Entity/User.php ---\n"
		"--- a/src/Entity/User.php\n"
		"+++ b/src/Entity/User.php\n"
		"@@ -15,6 +15,7 @@\n"
		" class User\n"
		" {\n"
		"     private ?string $name = null;\n"
		"+    private ?\\DateTimeImmutable $createdAt = null;\n"
		"\n"
		"     // ...\n"
		" }\n"
		"--- END-PATCH: src/Entity/User.php ---\n", 1), 1);
	assert_int_equal(f.cs.n, 1);
	op = &f.cs.ops[0];
	assert_int_equal(op->kind, AA_OP_EDIT);
	assert_int_equal(op->edit_kind, AA_EDIT_HUNKS);
	assert_string_equal(op->path, "src/Entity/User.php");
	assert_string_equal(op->format, "companion");
	assert_int_equal(op->pos.line, 1);
	assert_int_equal(op->nhunks, 1);
	h = &op->hunks[0];
	assert_int_equal(h->pos.line, 4);  /* the @@ line of the input */
	assert_int_equal(h->old_start, 15);
	for (i = 0; i < h->nlines; i++)
		if (h->lines[i].kind == '+') {
			plus++;
			assert_string_equal(h->lines[i].text,
				"    private ?\\DateTimeImmutable $createdAt = null;");
		} else
			assert_int_equal(h->lines[i].kind, ' ');
	assert_int_equal(plus, 1);
	release(&f);
}

static void seed_delete_file(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"--- DELETE-FILE: templates/legacy/old_template.html.twig ---\n", 3), 1);
	assert_int_equal(f.cs.n, 1);
	assert_int_equal(f.cs.ops[0].kind, AA_OP_DELETE);
	assert_string_equal(f.cs.ops[0].path, "templates/legacy/old_template.html.twig");
	assert_int_equal(f.cs.ops[0].dir_ok, 0);
	assert_int_equal(f.cs.ops[0].pos.line, 3);
	release(&f);
}

static void seed_replace_file(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"--- START-REPLACE-FILE: config/services.yaml ---\n"
		"parameters:\n"
		"    # ... completely new structure\n"
		"services:\n"
		"    # ...\n"
		"--- END-REPLACE-FILE: config/services.yaml ---\n", 1), 1);
	assert_int_equal(f.cs.n, 1);
	assert_write(&f.cs.ops[0], "config/services.yaml", AA_EXIST_MUST,
		     "parameters:\n    # ... completely new structure\nservices:\n    # ...\n");
	release(&f);
}

/* ---- contents ---- */

static void run_with_prose_in_order(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"First the new file:\n"
		"--- START-FILE: a.txt ---\n"
		"--- a/not-a-diff-header\n"
		"+++ b/nor-this\n"
		"--- END-FILE: a.txt ---\n"
		"\n"
		"Then the old one goes:\n"
		"--- DELETE-FILE: old.txt ---\n"
		"--- START-REPLACE-FILE: b.txt ---\n"
		"--- END-REPLACE-FILE: b.txt ---\n", 10), 3);
	assert_int_equal(f.cs.n, 3);
	/* a body is not scanned for anything: diff-like lines are content */
	assert_write(&f.cs.ops[0], "a.txt", AA_EXIST_NEW,
		     "--- a/not-a-diff-header\n+++ b/nor-this\n");
	assert_int_equal(f.cs.ops[0].pos.line, 11);
	assert_int_equal(f.cs.ops[1].kind, AA_OP_DELETE);
	assert_string_equal(f.cs.ops[1].path, "old.txt");
	assert_int_equal(f.cs.ops[1].pos.line, 17);
	/* an empty body is an empty file */
	assert_write(&f.cs.ops[2], "b.txt", AA_EXIST_MUST, "");
	assert_int_equal(f.cs.ops[2].pos.line, 18);
	release(&f);
}

static void crlf_and_trailing_blanks(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"--- START-FILE: dos.txt ---  \r\n"
		"one\r\n"
		"two \r\n"
		"--- END-FILE: dos.txt --- \t\r\n"
		"--- DELETE-FILE: x.txt ---\r\n", 1), 2);
	assert_int_equal(f.cs.n, 2);
	/*
	 * Command lines tolerate \r before \n; in a body it is content (an
	 * answer that is CRLF throughout reaches the parser as LF text).
	 */
	assert_write(&f.cs.ops[0], "dos.txt", AA_EXIST_NEW, "one\r\ntwo \r\n");
	assert_string_equal(f.cs.ops[1].path, "x.txt");
	release(&f);
}

static void last_line_without_newline(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"--- START-FILE: n.txt ---\nx\n--- END-FILE: n.txt ---", 1), 1);
	assert_write(&f.cs.ops[0], "n.txt", AA_EXIST_NEW, "x\n");
	release(&f);
}

static void not_commands(void **state)
{
	fixture f;

	(void)state;
	/* unknown verbs, missing blanks, indentation: all prose */
	assert_int_equal(parse(&f,
		"--- START-DIR: d ---\n"
		"--- START-FILE:x---\n"
		"  --- DELETE-FILE: y ---\n"
		"--- delete-file: z ---\n"
		"--- a/file\n", 1), 0);
	assert_int_equal(f.cs.n, 0);
	assert_int_equal(f.d.nerrors, 0);
	release(&f);
}

/* ---- malformed ---- */

static void end_path_differs(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"--- DELETE-FILE: ok.txt ---\n"
		"--- START-FILE: a.txt ---\n"
		"x\n"
		"--- END-FILE: b.txt ---\n", 20), -1);
	assert_true(has_error(&f, 23, "END-FILE: b.txt"));
	assert_true(has_error(&f, 23, "does not close"));
	/* nothing of a failed block stays in the change set */
	assert_int_equal(f.cs.n, 0);
	release(&f);
}

static void end_verb_differs(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"--- START-FILE: a.txt ---\n"
		"x\n"
		"--- END-REPLACE-FILE: a.txt ---\n", 1), -1);
	assert_true(has_error(&f, 3, "\"--- END-REPLACE-FILE: a.txt ---\" does not close \"--- START-FILE: a.txt ---\""));
	release(&f);
}

static void missing_end(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"prose\n"
		"--- START-FILE: a.txt ---\n"
		"x\n", 1), -1);
	assert_true(has_error(&f, 2, "\"--- START-FILE: a.txt ---\" has no END-FILE line; the answer ends at line 3"));
	assert_int_equal(f.cs.n, 0);
	release(&f);
}

static void start_inside_start(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"--- START-FILE: a.txt ---\n"
		"x\n"
		"--- START-FILE: b.txt ---\n"
		"y\n"
		"--- END-FILE: b.txt ---\n", 1), -1);
	assert_true(has_error(&f, 1, "before the next command"));
	release(&f);
}

static void end_without_start(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, "text\n--- END-PATCH: a.c ---\n", 7), -1);
	assert_true(has_error(&f, 8, "without a START"));
	release(&f);
}

static void bad_paths(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, "--- DELETE-FILE: ../etc/passwd ---\n", 1), -1);
	assert_true(has_error(&f, 1, "invalid path"));
	release(&f);
	assert_int_equal(parse(&f, "--- DELETE-FILE: .git/config ---\n", 1), -1);
	assert_true(has_error(&f, 1, "invalid path"));
	release(&f);
	assert_int_equal(parse(&f, "--- START-FILE:   ---\n--- END-FILE:  ---\n", 1), -1);
	assert_true(has_error(&f, 1, "empty path"));
	release(&f);
}

static void patch_for_another_path_or_empty(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"--- START-PATCH: a.c ---\n"
		"no diff here\n"
		"--- END-PATCH: a.c ---\n", 1), -1);
	assert_true(has_error(&f, 1, "holds no diff"));
	release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_start_file),
		cmocka_unit_test(seed_start_patch),
		cmocka_unit_test(seed_delete_file),
		cmocka_unit_test(seed_replace_file),
		cmocka_unit_test(run_with_prose_in_order),
		cmocka_unit_test(crlf_and_trailing_blanks),
		cmocka_unit_test(last_line_without_newline),
		cmocka_unit_test(not_commands),
		cmocka_unit_test(end_path_differs),
		cmocka_unit_test(end_verb_differs),
		cmocka_unit_test(missing_end),
		cmocka_unit_test(start_inside_start),
		cmocka_unit_test(end_without_start),
		cmocka_unit_test(bad_paths),
		cmocka_unit_test(patch_for_another_path_or_empty),
	};
	return AA_RUN_TESTS(tests);
}
