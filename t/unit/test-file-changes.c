/* file-changes format (seed 001): directives, bodies, fences, errors. */
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
	return aa_parse_file_changes(&f->b, &f->o, &f->cs, &f->d);
}

static void release(fixture *f)
{
	aa_changeset_free(&f->cs);
	aa_diags_free(&f->d);
}

static int has_diag(const fixture *f, aa_diag_level level, long line,
		    const char *what)
{
	size_t i;

	for (i = 0; i < f->d.n; i++) {
		const aa_diag *g = &f->d.v[i];

		if (g->level == level && g->line == line && strstr(g->msg, what))
			return 1;
	}
	for (i = 0; i < f->d.n; i++)
		fprintf(stderr, "# diag line %ld: %s\n", f->d.v[i].line, f->d.v[i].msg);
	return 0;
}

static int has_error(const fixture *f, long line, const char *what)
{
	return has_diag(f, AA_DIAG_ERROR, line, what);
}

static void assert_new(const aa_op *op, const char *path, const char *content)
{
	assert_int_equal(op->kind, AA_OP_WRITE);
	assert_string_equal(op->path, path);
	assert_int_equal(op->exist, AA_EXIST_ANY);
	assert_int_equal(op->content_len, strlen(content));
	assert_memory_equal(op->content, content, op->content_len);
	assert_string_equal(op->format, "file-changes");
}

/* The content of a lone FILE_NEW whose text is `text`. */
static void assert_new_content(const char *text, const char *content)
{
	fixture f;

	assert_int_equal(parse(&f, text, 1), 1);
	assert_int_equal(f.cs.n, 1);
	assert_new(&f.cs.ops[0], "f.txt", content);
	release(&f);
}

/* ---- the seed ---- */

static const char unified_example[] =
	"<FILE_CHANGES>\n"
	"\n"
	"<FILE_RENAME from_path=\"src/legacy_mod.rs\" to_path=\"src/core_mod.rs\" />\n"
	"\n"
	"<FILE_DELETE file_path=\"temp_config.json\" />\n"
	"\n"
	"<FILE_NEW file_path=\"src/helpers.rs\">\n"
	"```rust\n"
	"pub fn get_version() -> &'static str {\n"
	"    \"0.1.0\"\n"
	"}\n"
	"```\n"
	"</FILE_NEW>\n"
	"\n"
	"<FILE_PATCH file_path=\"src/main.rs\">\n"
	"@@\n"
	" fn main() {\n"
	"-    println!(\"Starting...\");\n"
	"+    println!(\"App v{}\", helpers::get_version());\n"
	"     core_mod::init();\n"
	" }\n"
	"</FILE_PATCH>\n"
	"\n"
	"</FILE_CHANGES>\n";

static void seed_unified_example(void **state)
{
	static const char kinds[] = " -+  ";
	static const char *const texts[] = {
		"fn main() {", "    println!(\"Starting...\");",
		"    println!(\"App v{}\", helpers::get_version());",
		"    core_mod::init();", "}",
	};
	fixture f;
	const aa_op *op;
	const aa_hunk *h;
	size_t i;

	(void)state;
	assert_int_equal(parse(&f, unified_example, 40), 4);
	assert_int_equal(f.cs.n, 4);

	op = &f.cs.ops[0];
	assert_int_equal(op->kind, AA_OP_RENAME);
	assert_string_equal(op->path, "src/legacy_mod.rs");
	assert_string_equal(op->to, "src/core_mod.rs");
	assert_int_equal(op->dir_ok, 1);
	assert_int_equal(op->pos.line, 42);

	op = &f.cs.ops[1];
	assert_int_equal(op->kind, AA_OP_DELETE);
	assert_string_equal(op->path, "temp_config.json");
	assert_int_equal(op->dir_ok, 1);
	assert_int_equal(op->pos.line, 44);

	assert_new(&f.cs.ops[2], "src/helpers.rs",
		   "pub fn get_version() -> &'static str {\n    \"0.1.0\"\n}\n");
	assert_int_equal(f.cs.ops[2].pos.line, 46);

	op = &f.cs.ops[3];
	assert_int_equal(op->kind, AA_OP_EDIT);
	assert_string_equal(op->path, "src/main.rs");
	assert_string_equal(op->format, "file-changes");
	assert_int_equal(op->nhunks, 1);
	h = &op->hunks[0];
	assert_int_equal(h->has_hint, 0);
	assert_int_equal(h->pos.line, 55);
	assert_int_equal(h->nlines, 5);
	for (i = 0; i < 5; i++) {
		assert_int_equal(h->lines[i].kind, kinds[i]);
		assert_string_equal(h->lines[i].text, texts[i]);
	}
	release(&f);
}

static void root_is_optional(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"Rename it:\n"
		"<FILE_RENAME from_path=\"a\" to_path=\"b\"/>\n"
		"and drop the rest\n"
		"  <FILE_DELETE file_path=\"c\" />\n", 1), 2);
	assert_int_equal(f.cs.n, 2);
	assert_int_equal(f.cs.ops[0].kind, AA_OP_RENAME);
	assert_int_equal(f.cs.ops[1].kind, AA_OP_DELETE);
	assert_int_equal(f.cs.ops[1].pos.line, 4);
	release(&f);
}

/* ---- attributes ---- */

static void single_quotes_and_other_attributes(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"<FILE_RENAME from_path='src/a b.rs' to_path = 'src/\"c\".rs' />\n"
		"<FILE_NEW lang=\"rust\" file_path='x.rs'>\nfn x() {}\n</FILE_NEW>\n"
		"<FILE_DELETE\n    file_path=\"d\"\n/>\n", 1), 3);
	assert_string_equal(f.cs.ops[0].path, "src/a b.rs");
	assert_string_equal(f.cs.ops[0].to, "src/\"c\".rs");
	assert_new(&f.cs.ops[1], "x.rs", "fn x() {}\n");
	assert_string_equal(f.cs.ops[2].path, "d");
	release(&f);
}

static void no_unescaping(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"<FILE_NEW file_path=\"a&amp;b.h\">\n"
		"#define LT(a, b) ((a) &lt; (b)) /* <b> &#60; */\n"
		"</FILE_NEW>\n", 1), 1);
	assert_new(&f.cs.ops[0], "a&amp;b.h",
		   "#define LT(a, b) ((a) &lt; (b)) /* <b> &#60; */\n");
	release(&f);
}

/* ---- bodies ---- */

static void body_newlines(void **state)
{
	(void)state;
	/* one leading and one trailing newline belong to the tags */
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\nx\n</FILE_NEW>", "x\n");
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\n\nx\n\n</FILE_NEW>", "\nx\n\n");
	/* no newline before the closing tag: none at the end of the file */
	assert_new_content("<FILE_NEW file_path=\"f.txt\">x</FILE_NEW>", "x");
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\nx\ny</FILE_NEW>", "x\ny");
	/* an indented closing tag on its own line */
	assert_new_content("<FILE_NEW file_path=\"f.txt\">  \n  x\n  </FILE_NEW>", "  x\n");
	/* empty files */
	assert_new_content("<FILE_NEW file_path=\"f.txt\"></FILE_NEW>", "");
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\n</FILE_NEW>", "");
	/*
	 * A CR before LF in a body is content (an answer that is CRLF
	 * throughout reaches the parser as LF text: see test-extract)
	 */
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\r\na\r\nb\r\n</FILE_NEW>\r\n",
			   "a\r\nb\r\n");
}

static void fence_stripping(void **state)
{
	fixture f;

	(void)state;
	/* with and without a language tag, longer fences */
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\n```\nx\n```\n</FILE_NEW>", "x\n");
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\n````markdown\n```sh\nmake\n```\n````\n</FILE_NEW>",
			   "```sh\nmake\n```\n");
	/* only one enclosing fence is stripped */
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\n```\n```\nx\n```\n```\n</FILE_NEW>",
			   "```\nx\n```\n");
	/* an empty fenced body */
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\n```js\n```\n</FILE_NEW>", "");
	/* a fence that is not the whole body stays, with a warning */
	assert_int_equal(parse(&f,
		"<FILE_NEW file_path=\"f.txt\">\n```\nx\n```\nafter\n</FILE_NEW>", 1), 1);
	assert_new(&f.cs.ops[0], "f.txt", "```\nx\n```\nafter\n");
	assert_true(has_diag(&f, AA_DIAG_WARNING, 1, "code fence"));
	release(&f);
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\nbefore\n```\nx\n```\n</FILE_NEW>",
			   "before\n```\nx\n```\n");
	/* a fenced line with text after the fence run is not a closing fence */
	assert_new_content("<FILE_NEW file_path=\"f.txt\">\n```\nx\n``` y\n</FILE_NEW>",
			   "```\nx\n``` y\n");
}

static void fenced_patch_with_headers(void **state)
{
	fixture f;
	const aa_hunk *h;

	(void)state;
	assert_int_equal(parse(&f,
		"<FILE_PATCH file_path=\"m.c\">\n"
		"```diff\n"
		"--- a/m.c\n"
		"+++ b/m.c\n"
		"@@ -2,2 +2,2 @@\n"
		" a\n"
		"-b\n"
		"+c\n"
		"```\n"
		"</FILE_PATCH>\n", 7), 1);
	assert_int_equal(f.cs.n, 1);
	assert_int_equal(f.cs.ops[0].kind, AA_OP_EDIT);
	assert_string_equal(f.cs.ops[0].path, "m.c");
	h = &f.cs.ops[0].hunks[0];
	assert_int_equal(h->has_hint, 1);
	assert_int_equal(h->old_start, 2);
	assert_int_equal(h->pos.line, 11);
	assert_int_equal(h->nlines, 3);
	release(&f);
}

static void close_tags_on_one_line(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"<FILE_CHANGES><FILE_DELETE file_path=\"a\"></FILE_DELETE>"
		"<FILE_NEW file_path=\"b\">x</FILE_NEW></FILE_CHANGES>\n", 1), 2);
	assert_int_equal(f.cs.ops[0].kind, AA_OP_DELETE);
	assert_new(&f.cs.ops[1], "b", "x");
	release(&f);
}

/* ---- malformed ---- */

static void missing_closing_tag(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"<FILE_CHANGES>\n"
		"<FILE_DELETE file_path=\"a\" />\n"
		"<FILE_NEW file_path=\"b\">\n"
		"x\n"
		"</FILE_CHANGES>\n", 3), -1);
	assert_true(has_error(&f, 5, "<FILE_NEW> has no closing </FILE_NEW>"));
	assert_int_equal(f.cs.n, 0);
	release(&f);
}

static void missing_root_end(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"text\n<FILE_CHANGES>\n<FILE_DELETE file_path=\"a\" />\n", 1), -1);
	assert_true(has_error(&f, 2, "no closing </FILE_CHANGES>"));
	release(&f);
}

static void bad_attributes(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, "<FILE_DELETE path=\"a\" />\n", 1), -1);
	assert_true(has_error(&f, 1, "no file_path attribute"));
	release(&f);
	assert_int_equal(parse(&f, "\n<FILE_RENAME from_path=\"a\" to_path='' />\n", 1), -1);
	assert_true(has_error(&f, 2, "empty to_path"));
	release(&f);
	assert_int_equal(parse(&f, "<FILE_DELETE file_path=a />\n", 1), -1);
	assert_true(has_error(&f, 1, "not in quotes"));
	release(&f);
	assert_int_equal(parse(&f, "<FILE_DELETE file_path=\"a />\n", 1), -1);
	assert_true(has_error(&f, 1, "unterminated"));
	release(&f);
	assert_int_equal(parse(&f, "<FILE_DELETE file_path=\"/etc/../passwd\" />\n", 1), -1);
	assert_true(has_error(&f, 1, "file_path /etc/../passwd:"));
	release(&f);
	assert_int_equal(parse(&f, "<FILE_DELETE file_path=\"a\" file_path=\"b\" />\n", 1), -1);
	assert_true(has_error(&f, 1, "file_path twice"));
	release(&f);
	assert_int_equal(parse(&f, "<FILE_NEW file_path=\"a\" />\n", 1), -1);
	assert_true(has_error(&f, 1, "has no body"));
	release(&f);
}

static void unknown_directive(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"<FILE_CHANGES>\n"
		"<FILE_MOVE from_path=\"a\" to_path=\"b\" />\n"
		"</FILE_CHANGES>\n", 1), -1);
	assert_true(has_error(&f, 2, "unknown directive \"FILE_MOVE\""));
	release(&f);
	/* outside the root it is prose; so are lower-case tags */
	assert_int_equal(parse(&f,
		"<FILE_MOVE from_path=\"a\" to_path=\"b\" />\n"
		"<file_delete file_path=\"x\" />\n", 1), 0);
	assert_int_equal(f.d.nerrors, 0);
	release(&f);
}

static void stray_closing_tags(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, "x\n</FILE_NEW>\n", 1), -1);
	assert_true(has_error(&f, 2, "closing tag without"));
	release(&f);
	assert_int_equal(parse(&f, "</FILE_CHANGES>\n", 1), -1);
	assert_true(has_error(&f, 1, "without <FILE_CHANGES>"));
	release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_unified_example),
		cmocka_unit_test(root_is_optional),
		cmocka_unit_test(single_quotes_and_other_attributes),
		cmocka_unit_test(no_unescaping),
		cmocka_unit_test(body_newlines),
		cmocka_unit_test(fence_stripping),
		cmocka_unit_test(fenced_patch_with_headers),
		cmocka_unit_test(close_tags_on_one_line),
		cmocka_unit_test(missing_closing_tag),
		cmocka_unit_test(missing_root_end),
		cmocka_unit_test(bad_attributes),
		cmocka_unit_test(unknown_directive),
		cmocka_unit_test(stray_closing_tags),
	};
	return AA_RUN_TESTS(tests);
}
