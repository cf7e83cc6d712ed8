/* Extraction: blocks found in chat answers, detection, forced formats. */
#include "unit.h"
#include "parse-fixture.h"

#include <stdio.h>
#include <stdlib.h>

#include "format/format.h"

/* Checks ops[i] is of `kind` on `path`, from `format`, at input `line`. */
static void assert_op(const fixture *f, size_t i, aa_op_kind kind,
		      const char *path, const char *format, long line)
{
	if (i >= f->cs.n)
		dump(f);
	assert_true(i < f->cs.n);
	assert_int_equal(f->cs.ops[i].kind, kind);
	assert_string_equal(f->cs.ops[i].path, path);
	assert_string_equal(f->cs.ops[i].format, format);
	if (line)
		assert_int_equal(f->cs.ops[i].pos.line, line);
}

static void assert_content(const fixture *f, size_t i, const char *content)
{
	assert_int_equal(f->cs.ops[i].content_len, strlen(content));
	assert_memory_equal(f->cs.ops[i].content, content, strlen(content));
}

/* ---- mixed answers ---- */

static const char mixed[] =
	"Sure! Three changes.\n"                                  /* 1 */
	"\n"
	"--- START-FILE: docs/new.md ---\n"                       /* 3 */
	"# Title\n"
	"```sh\n"
	"--- a/x\n"
	"```\n"
	"--- END-FILE: docs/new.md ---\n"                         /* 8 */
	"\n"
	"Now the bundle:\n"                                       /* 10 */
	"\n"
	"```json\n"                                               /* 12 */
	"{\n"
	"  \"root\": \".\",\n"
	"  \"files\": [\n"
	"    { \"path\": \"conf/app.ini\", \"content\": \"x=1\\n\" }\n" /* 16 */
	"  ]\n"
	"}\n"
	"```\n"
	"\n"
	"Some JSON that is not a change:\n"
	"```json\n"
	"{ \"name\": \"pkg\", \"files\": [\"dist\"] }\n"
	"```\n"
	"\n"
	"And a fix:\n"
	"```diff\n"                                               /* 27 */
	"--- a/hello.c\n"
	"+++ b/hello.c\n"
	"@@ -1,2 +1,2 @@\n"                                       /* 30 */
	" a\n"
	"-b\n"
	"+c\n"
	"```\n"
	"\n"
	"Finally, unfenced:\n"
	"diff --git a/old.txt b/old.txt\n"                        /* 37 */
	"deleted file mode 100644\n"
	"--- a/old.txt\n"
	"+++ /dev/null\n"
	"@@ -1 +0,0 @@\n"
	"-gone\n"
	"\n"
	"That's all.\n";

static void mixed_answer_in_order(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, mixed, AA_FORMAT_AUTO), 4);
	assert_int_equal(f.cs.n, 4);
	assert_op(&f, 0, AA_OP_WRITE, "docs/new.md", "companion", 3);
	/* the companion body is not scanned: its fence and --- line are content */
	assert_content(&f, 0, "# Title\n```sh\n--- a/x\n```\n");
	assert_op(&f, 1, AA_OP_WRITE, "conf/app.ini", "aptix", 0);
	assert_content(&f, 1, "x=1\n");
	assert_op(&f, 2, AA_OP_EDIT, "hello.c", "diff", 0);
	assert_int_equal(f.cs.ops[2].hunks[0].pos.line, 30);
	assert_op(&f, 3, AA_OP_DELETE, "old.txt", "diff", 0);
	assert_int_equal(f.d.nerrors, 0);
	release(&f);
}

/* The seed 001 example as a chat answer: ```xml around it, a fence inside. */
static void fenced_file_changes(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"Here you go:\n"
		"```xml\n"
		"<FILE_CHANGES>\n"
		"<FILE_NEW file_path=\"src/helpers.rs\">\n"
		"```rust\n"
		"pub fn v() {}\n"
		"```\n"
		"</FILE_NEW>\n"
		"<FILE_DELETE file_path=\"tmp.json\" />\n"
		"</FILE_CHANGES>\n"
		"```\n"
		"\n"
		"and also\n"
		"```patch\n"
		"--- a/z.c\n"
		"+++ b/z.c\n"
		"@@ -1 +1 @@\n"
		"-x\n"
		"+y\n"
		"```\n", AA_FORMAT_AUTO), 2);
	assert_int_equal(f.cs.n, 3);
	assert_op(&f, 0, AA_OP_WRITE, "src/helpers.rs", "file-changes", 4);
	assert_content(&f, 0, "pub fn v() {}\n");
	assert_op(&f, 1, AA_OP_DELETE, "tmp.json", "file-changes", 9);
	assert_op(&f, 2, AA_OP_EDIT, "z.c", "diff", 0);
	release(&f);
}

static void bare_directives_and_patch_bodies(void **state)
{
	fixture f;

	(void)state;
	/* a FILE_PATCH body holds --- lines: not a second diff */
	assert_int_equal(parse(&f,
		"<FILE_PATCH file_path=\"a.c\">\n"
		"--- a/a.c\n"
		"+++ b/a.c\n"
		"@@ -1 +1 @@\n"
		"-x\n"
		"+y\n"
		"</FILE_PATCH>\n"
		"\n"
		"<FILE_RENAME from_path=\"d1\" to_path=\"d2\" />\n"
		"text\n"
		"--- START-PATCH: b.c ---\n"
		"--- a/b.c\n"
		"+++ b/b.c\n"
		"@@ -1 +1 @@\n"
		"-x\n"
		"+y\n"
		"--- END-PATCH: b.c ---\n", AA_FORMAT_AUTO), 2);
	assert_int_equal(f.cs.n, 3);
	assert_op(&f, 0, AA_OP_EDIT, "a.c", "file-changes", 0);
	assert_op(&f, 1, AA_OP_RENAME, "d1", "file-changes", 9);
	assert_op(&f, 2, AA_OP_EDIT, "b.c", "companion", 11);
	release(&f);
}

static void fences_in_lists_and_tildes(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"1. First:\n"
		"   ```diff\n"
		"   --- a/l.txt\n"
		"   +++ b/l.txt\n"
		"   @@ -1,2 +1,2 @@\n"
		"    keep\n"
		"   -old\n"
		"   +new\n"
		"   ```\n"
		"2. Second:\n"
		"~~~\n"
		"diff --git a/t.txt b/t.txt\n"
		"new file mode 100644\n"
		"--- /dev/null\n"
		"+++ b/t.txt\n"
		"@@ -0,0 +1 @@\n"
		"+hi\n"
		"~~~\n"
		"3. Third, untagged:\n"
		"    ```\n"
		"    --- a/u.txt\n"
		"    +++ b/u.txt\n"
		"    @@ -1 +1 @@\n"
		"    -u\n"
		"    +v\n"
		"    ```\n", AA_FORMAT_AUTO), 3);
	assert_int_equal(f.cs.n, 3);
	assert_op(&f, 2, AA_OP_EDIT, "u.txt", "diff", 0);
	assert_int_equal(f.cs.ops[2].hunks[0].pos.line, 23);
	assert_op(&f, 0, AA_OP_EDIT, "l.txt", "diff", 0);
	assert_int_equal(f.cs.ops[0].hunks[0].nlines, 3);
	assert_string_equal(f.cs.ops[0].hunks[0].lines[0].text, "keep");
	assert_int_equal(f.cs.ops[0].hunks[0].lines[0].kind, ' ');
	assert_int_equal(f.cs.ops[0].hunks[0].pos.line, 5);
	assert_op(&f, 1, AA_OP_WRITE, "t.txt", "diff", 0);
	assert_content(&f, 1, "hi\n");
	release(&f);
}

/* A markdown file in a diff: its " ```" context line does not close the fence. */
static void diff_of_markdown(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"```diff\n"
		"--- a/README.md\n"
		"+++ b/README.md\n"
		"@@ -1,3 +1,3 @@\n"
		" ```\n"
		"-make\n"
		"+make all\n"
		"```\n", AA_FORMAT_AUTO), 1);
	assert_int_equal(f.cs.n, 1);
	assert_int_equal(f.cs.ops[0].hunks[0].nlines, 3);
	release(&f);
}

static void ap_documents(void **state)
{
	static const char doc[] =
		"version: \"2.0\"\n"
		"changes:\n"
		"  - file_path: \"n.py\"\n"
		"    modifications:\n"
		"      - action: CREATE_FILE\n"
		"        content: |\n"
		"          print(1)\n";
	char buf[512];
	fixture f;

	(void)state;
	snprintf(buf, sizeof(buf), "Apply this:\n\n```yaml\n%s```\nDone.\n", doc);
	assert_int_equal(parse(&f, buf, AA_FORMAT_AUTO), 1);
	assert_op(&f, 0, AA_OP_WRITE, "n.py", "ap", 0);
	assert_content(&f, 0, "print(1)\n");
	release(&f);
	/* a whole input that is an ap document, comments first */
	snprintf(buf, sizeof(buf), "# my patch\n#\n%s", doc);
	assert_int_equal(parse(&f, buf, AA_FORMAT_AUTO), 1);
	assert_op(&f, 0, AA_OP_WRITE, "n.py", "ap", 0);
	release(&f);
	/* an indented ```yml fence in a list */
	assert_int_equal(parse(&f,
		"- step:\n"
		"  ```yml\n"
		"  version: \"2.0\"\n"
		"  changes:\n"
		"    - file_path: m.py\n"
		"      modifications:\n"
		"        - action: CREATE_FILE\n"
		"          content: \"x\"\n"
		"  ```\n", AA_FORMAT_AUTO), 1);
	assert_op(&f, 0, AA_OP_WRITE, "m.py", "ap", 0);
	release(&f);
	/* other YAML is prose: no change, the fence named */
	assert_int_equal(parse(&f, "```yaml\nservices:\n  web: {}\n```\n",
			       AA_FORMAT_AUTO), -1);
	assert_int_equal(f.cs.n, 0);
	assert_int_equal(f.d.nerrors, 1);
	assert_non_null(strstr(f.d.v[0].msg, "the code fence at line 1 \"```yaml\" names no file"));
	release(&f);
}

static void bare_json(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"\n  {\"patches\": [{\"path\": \"p.cs\", \"replacements\": "
		"[{\"find\": \"a\", \"replace\": \"b\"}]}]}\n", AA_FORMAT_AUTO), 1);
	assert_op(&f, 0, AA_OP_EDIT, "p.cs", "aptix", 0);
	assert_int_equal(f.cs.ops[0].edit_kind, AA_EDIT_REPLACEMENTS);
	release(&f);
	/* a key "files" deeper down is not a bundle */
	assert_int_equal(parse(&f, "{\"a\": {\"files\": [{\"path\": \"x\"}]}}\n",
			       AA_FORMAT_AUTO), 0);
	release(&f);
}

/* ---- forced formats ---- */

static void forced_format(void **state)
{
	fixture f;

	(void)state;
	/* --format=companion: the diff is not looked at */
	assert_int_equal(parse(&f,
		"--- START-FILE: a ---\nx\n--- END-FILE: a ---\n"
		"```diff\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-x\n+y\n```\n",
		AA_FORMAT_COMPANION), 1);
	assert_int_equal(f.cs.n, 1);
	assert_op(&f, 0, AA_OP_WRITE, "a", "companion", 1);
	release(&f);
	/* --format=diff: the companion command is prose to the diff parser */
	assert_int_equal(parse(&f,
		"--- DELETE-FILE: a ---\n"
		"```diff\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-x\n+y\n```\n",
		AA_FORMAT_DIFF), 1);
	assert_int_equal(f.cs.n, 1);
	assert_op(&f, 0, AA_OP_EDIT, "b", "diff", 0);
	release(&f);
	/* --format=aptix: a json fence without the keys goes to aptix anyway */
	assert_int_equal(parse(&f, "```json\n{\"name\": 1}\n```\n", AA_FORMAT_APTIX), -1);
	assert_true(f.d.nerrors > 0);
	release(&f);
	/* --format=aptix, no fence: the whole input */
	assert_int_equal(parse(&f, "{\"files\": [{\"path\": \"w\", \"content\": \"\"}]}",
			       AA_FORMAT_APTIX), 1);
	assert_op(&f, 0, AA_OP_WRITE, "w", "aptix", 0);
	release(&f);
	/* --format=file-changes finds tags inside a fence too */
	assert_int_equal(parse(&f, "```\n<FILE_DELETE file_path=\"q\" />\n```\n",
			       AA_FORMAT_FILE_CHANGES), 1);
	assert_op(&f, 0, AA_OP_DELETE, "q", "file-changes", 2);
	release(&f);
}

/* ---- no change ---- */

static void refusals_are_quoted(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"I looked at the file.\n"
		"\n"
		"> `A patch cannot be safely generated with the information provided. "
		"Please allow a full Aptix file bundle instead.`\n", AA_FORMAT_AUTO), -1);
	assert_true(has_error(&f, 3,
		"\"A patch cannot be safely generated with the information provided.\""));
	release(&f);
	assert_int_equal(parse(&f,
		"Sorry. Unable to generate a safe Git patch; fallback to Aptix file "
		"bundle or structured patch.\n", AA_FORMAT_AUTO), -1);
	assert_true(has_error(&f, 1,
		"\"Unable to generate a safe Git patch; fallback to Aptix file "
		"bundle or structured patch.\""));
	release(&f);
	assert_int_equal(parse(&f,
		"**I can't safely produce a diff without the file.**\n", AA_FORMAT_AUTO), -1);
	assert_true(has_error(&f, 1, "\"I can't safely produce a diff without the file.\""));
	release(&f);
	/* with a change block, a refusal elsewhere is only prose */
	assert_int_equal(parse(&f,
		"Unable to generate a safe Git patch; fallback to Aptix file bundle.\n"
		"--- DELETE-FILE: a ---\n", AA_FORMAT_AUTO), 1);
	assert_int_equal(f.d.nerrors, 0);
	release(&f);
}

static void nothing_found(void **state)
{
	static const char garbage[] = "\x00\xff\xfe```\x00\n--- \x00\n<FILE_\x01\n{\"files\x00";
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, "", AA_FORMAT_AUTO), 0);
	assert_int_equal(f.d.n, 0);
	release(&f);
	/* a fence without a path: named, with the forms of a label */
	assert_int_equal(parse(&f, "Just prose.\n```python\nprint('--- a/x')\n```\n",
			       AA_FORMAT_AUTO), -1);
	assert_int_equal(f.d.nerrors, 1);
	assert_int_equal(f.cs.n, 0);
	assert_non_null(strstr(f.d.v[0].msg, "no change found in the input: the code "
			       "fence at line 2 \"```python\" names no file"));
	assert_non_null(strstr(f.d.v[0].msg, "```python path/to/file.py"));
	release(&f);
	/* several: lines in order, the first five, then a count */
	assert_int_equal(parse(&f, "```\na\n```\n```sh\nb\n```\n```\nc\n```\n"
			       "```\nd\n```\n```\ne\n```\n```\nf\n```\n```\ng\n```\n",
			       AA_FORMAT_AUTO), -1);
	assert_non_null(strstr(f.d.v[0].msg, "the code fences at line 1 \"```\", "
			       "line 4 \"```sh\", line 7 \"```\", line 10 \"```\", "
			       "line 13 \"```\" and 2 more name no file"));
	release(&f);
	assert_int_equal(parse_len(&f, garbage, sizeof(garbage) - 1, AA_FORMAT_AUTO), 0);
	assert_int_equal(f.cs.n, 0);
	release(&f);
}

static void byte_order_marks(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, "\xef\xbb\xbf--- DELETE-FILE: a ---\n", AA_FORMAT_AUTO), 1);
	assert_op(&f, 0, AA_OP_DELETE, "a", "companion", 1);
	release(&f);
	assert_int_equal(parse_len(&f, "\xff\xfe-\0-\0", 6, AA_FORMAT_AUTO), -1);
	assert_true(has_error(&f, 1, "UTF-16"));
	release(&f);
}

/*
 * An answer that is CRLF throughout uses CRLF as its line break; in any
 * other answer a CR before LF belongs to the line (a real diff of a
 * CRLF file), in every format.
 */
static void crlf_is_a_line_break_only_throughout(void **state)
{
	static const char lf_answer[] =
		"--- START-FILE: a.bat ---\n@echo off\r\n--- END-FILE: a.bat ---\n"
		"```diff\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-x\r\n+y\r\n```\n";
	static const char crlf_answer[] =
		"--- START-FILE: a.bat ---\r\n@echo off\r\n--- END-FILE: a.bat ---\r\n"
		"```diff\r\n--- a/b\r\n+++ b/b\r\n@@ -1 +1 @@\r\n-x\r\n+y\r\n```\r\n";
	fixture f;
	const aa_hunk *h;

	(void)state;
	assert_int_equal(parse(&f, lf_answer, AA_FORMAT_AUTO), 2);
	assert_content(&f, 0, "@echo off\r\n");
	h = &f.cs.ops[1].hunks[0];
	assert_int_equal(h->lines[1].len, 2);
	assert_memory_equal(h->lines[1].text, "y\r", 2);
	release(&f);
	assert_int_equal(parse(&f, crlf_answer, AA_FORMAT_AUTO), 2);
	assert_content(&f, 0, "@echo off\n");
	h = &f.cs.ops[1].hunks[0];
	assert_int_equal(h->lines[1].len, 1);
	assert_memory_equal(h->lines[1].text, "y", 1);
	assert_int_equal(f.cs.ops[1].pos.line, 5);
	release(&f);
}

static void limits(void **state)
{
	size_t n = AA_MAX_LINE_LENGTH + 10;
	char *big = malloc(n + 1);
	fixture f;

	(void)state;
	assert_non_null(big);
	memset(big, 'x', n);
	memcpy(big, "ok\n", 3);
	big[n] = '\0';
	assert_int_equal(parse_len(&f, big, n, AA_FORMAT_AUTO), -1);
	assert_true(has_error(&f, 2, "line too long"));
	release(&f);
	free(big);
}

/* An error in a later block names its line in the whole input. */
static void error_lines_are_input_lines(void **state)
{
	fixture f;

	(void)state;
	assert_int_equal(parse(&f,
		"intro\n"
		"```json\n{\"files\": [{\"path\": \"a\", \"content\": \"\"}]}\n```\n"
		"more prose\n"
		"--- START-FILE: x ---\n"
		"body\n"
		"--- END-FILE: y ---\n", AA_FORMAT_AUTO), -1);
	assert_true(has_error(&f, 8, "does not close"));
	release(&f);
}

/*
 * An edit structure no parser reads refuses the answer, wherever it
 * stands: prose between blocks, an unlabelled fence, a labelled one.
 * Under a forced format nothing is detected.
 */
static void edit_structure_is_never_skipped(void **state)
{
	static const char prose[] =
		"a.txt\n"
		"```\n<<<<<<< SEARCH\none\n=======\n1\n>>>>>>> REPLACE\n```\n"
		"and then\n"
		"   --- a/a.txt\n   +++ b/a.txt\n   @@ -2 +2 @@\n   -two\n   +2\n";
	static const char fence[] =
		"Prose.\n"
		"```\n*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n"
		"*** End Patch\n```\n"
		"~~~\n<<<<<<< ORIGINAL\nx\n=======\ny\n>>>>>>> UPDATED\n~~~\n"
		"```\n<<<<<<<SEARCH\nx\n=======\ny\n>>>>>>>REPLACE\n```\n";
	fixture f;

	(void)state;
	assert_int_equal(parse(&f, prose, AA_FORMAT_AUTO), -1);
	assert_true(has_error(&f, 10, "the prose holds a unified diff header"));
	release(&f);
	/* the conflict-style fence is prose (an example), the sloppy one is not */
	assert_int_equal(parse(&f, fence, AA_FORMAT_AUTO), -1);
	assert_true(has_error(&f, 18, "a code fence holds SEARCH/REPLACE markers"));
	assert_int_equal(f.d.nerrors, 1);
	release(&f);
	assert_int_equal(parse(&f, fence, AA_FORMAT_V4A), 1);
	assert_int_equal(f.d.nerrors, 0);
	release(&f);
	assert_int_equal(parse(&f, prose, AA_FORMAT_SEARCH_REPLACE), 1);
	assert_int_equal(f.d.nerrors, 0);
	release(&f);
}

/* Random bytes mixed with marker fragments: no crash, no leak, no hang. */
static void garbage_does_not_crash(void **state)
{
	static const char *const parts[] = {
		"```", "~~~", "```diff\n", "```json\n", "```yaml\n", "\n", "\r\n",
		"--- START-FILE: a ---\n", "--- END-FILE: a ---\n",
		"--- START-PATCH: a ---\n", "--- END-PATCH: a ---\n",
		"--- DELETE-FILE: b ---\n", "<FILE_CHANGES>", "</FILE_CHANGES>",
		"<FILE_NEW file_path=\"c\">", "</FILE_NEW>", "<FILE_PATCH file_path='c'>",
		"</FILE_PATCH>", "<FILE_DELETE file_path=\"d\" />", "<FILE_RENAME ",
		"diff --git a/e b/e\n", "--- a/e\n", "+++ b/e\n", "@@ -1 +1 @@\n",
		"-x\n", "+y\n", " z\n", "{\"files\": [{", "\"path\": \"f\"", "}]}",
		"version: \"2.0\"\n", "changes:\n", "cannot safely patch. ", "\"", "'",
		"=", ">", "/>", "\x00", "\xff",
	};
	char buf[2048];
	unsigned seed = 12345;
	int iter;

	(void)state;
	for (iter = 0; iter < 3000; iter++) {
		size_t len = 0;
		fixture f;

		while (len < sizeof(buf) - 64) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 8 == 0)
				break;
			{
				const char *p = parts[(seed >> 8) % (sizeof(parts) / sizeof(*parts))];
				size_t k = strlen(p);

				if (!k)
					k = 1;  /* the NUL byte */
				memcpy(buf + len, p, k);
				len += k;
			}
		}
		parse_len(&f, buf, len, (aa_format)(iter % 6));
		release(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mixed_answer_in_order),
		cmocka_unit_test(fenced_file_changes),
		cmocka_unit_test(bare_directives_and_patch_bodies),
		cmocka_unit_test(fences_in_lists_and_tildes),
		cmocka_unit_test(diff_of_markdown),
		cmocka_unit_test(ap_documents),
		cmocka_unit_test(bare_json),
		cmocka_unit_test(forced_format),
		cmocka_unit_test(refusals_are_quoted),
		cmocka_unit_test(nothing_found),
		cmocka_unit_test(byte_order_marks),
		cmocka_unit_test(crlf_is_a_line_break_only_throughout),
		cmocka_unit_test(limits),
		cmocka_unit_test(error_lines_are_input_lines),
		cmocka_unit_test(edit_structure_is_never_skipped),
		cmocka_unit_test(garbage_does_not_crash),
	};
	return AA_RUN_TESTS(tests);
}
