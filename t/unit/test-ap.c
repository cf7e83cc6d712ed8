/* Unit tests of the ap format parser (src/format/ap.c, seed 003 §2). */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "format/format.h"
#include "edit/edit.h"

typedef struct parsed {
	aa_changeset cs;
	aa_diags d;
	int rc;
} parsed;

/* Parses `yaml` as a block that starts at input line `line`. */
static void parse_in(parsed *p, const char *yaml, size_t len, long line,
		     const char *dir)
{
	aa_input in = { "answer.md", yaml, len, dir };
	aa_block b = { &in, yaml, len, line, NULL };
	aa_parse_opts o = { .format = AA_FORMAT_AP, .strict = 0 };
	aa_changeset empty = AA_CHANGESET_INIT;
	aa_diags none = AA_DIAGS_INIT;

	p->cs = empty;
	p->d = none;
	p->rc = aa_parse_ap(&b, &o, &p->cs, &p->d);
}

static void parse(parsed *p, const char *yaml)
{
	parse_in(p, yaml, strlen(yaml), 1, NULL);
}

static void parsed_free(parsed *p)
{
	aa_changeset_free(&p->cs);
	aa_diags_free(&p->d);
}

/* Exactly one error, on `line`, containing `frag`; nothing parsed. */
static void assert_parse_error(const char *yaml, long line, const char *frag)
{
	parsed p;

	parse(&p, yaml);
	if (p.rc != -1 || p.d.n != 1 || !strstr(p.d.v[0].msg, frag) ||
	    p.d.v[0].line != line)
		fprintf(stderr, "# rc %d, %zu diags, first: %ld %s\n", p.rc, p.d.n,
			p.d.n ? p.d.v[0].line : 0, p.d.n ? p.d.v[0].msg : "");
	assert_int_equal(p.rc, -1);
	assert_int_equal(p.d.nerrors, 1);
	assert_int_equal(p.d.v[0].level, AA_DIAG_ERROR);
	assert_string_equal(p.d.v[0].input, "answer.md");
	assert_int_equal(p.d.v[0].line, line);
	assert_non_null(strstr(p.d.v[0].msg, frag));
	assert_int_equal(p.cs.n, 0);
	parsed_free(&p);
}

/* ---------- seed 003 §5, end to end ---------- */

static const char seed_patch[] =
	"# Summary: Refactor the calculator module to enhance the `add` function\n"
	"# and remove deprecated code.\n"
	"#\n"
	"# Plan:\n"
	"#   1. Import the `List` type for type hinting.\n"
	"#   2. Update the `add` function to also handle summing a list of numbers.\n"
	"#   3. Remove the unused `get_pi` function.\n"
	"#\n"
	"version: \"2.0\"\n"
	"changes:\n"
	"  - file_path: \"src/calculator.py\"\n"
	"    modifications:\n"
	"      - action: INSERT_AFTER\n"
	"        snippet: |\n"
	"          import math\n"
	"        content: |\n"
	"          from typing import List\n"
	"\n"
	"      - action: REPLACE\n"
	"        anchor: |\n"
	"          def add(a, b):\n"
	"        snippet: |\n"
	"          return a + b\n"
	"        content: |\n"
	"          # New implementation supports summing a list\n"
	"          if isinstance(a, List):\n"
	"              return sum(a)\n"
	"          return a + b\n"
	"\n"
	"      - action: DELETE\n"
	"        snippet: |\n"
	"          def get_pi():\n"
	"              return 3.14\n"
	"        include_leading_blank_lines: 1\n";

static const char seed_before[] =
	"# A simple calculator module\n"
	"import math\n"
	"\n"
	"def add(a, b):\n"
	"    # Deprecated: use sum() for lists\n"
	"    return a + b\n"
	"\n"
	"def get_pi():\n"
	"    return 3.14\n";

static const char seed_after[] =
	"# A simple calculator module\n"
	"import math\n"
	"from typing import List\n"
	"\n"
	"def add(a, b):\n"
	"    # Deprecated: use sum() for lists\n"
	"    # New implementation supports summing a list\n"
	"    if isinstance(a, List):\n"
	"        return sum(a)\n"
	"    return a + b\n";

/* Runs an edit op over `file`; returns the result (caller frees). */
static char *run_edit(const aa_op *op, const char *file, aa_edit_ctx *cx)
{
	aa_text t = AA_TEXT_INIT;
	aa_buf out = AA_BUF_INIT;
	const char *why = NULL;

	assert_int_equal(aa_text_decode(&t, file, strlen(file), &why), 0);
	assert_int_equal(aa_edit_ap(&t, op, cx), 0);
	assert_int_equal(aa_text_encode(&t, &out), 0);
	aa_text_free(&t);
	return aa_buf_detach(&out);
}

static void test_seed_example_end_to_end(void **state)
{
	aa_diags d = AA_DIAGS_INIT;
	aa_edit_ctx cx = { 0 };
	const aa_op *op;
	char *once, *twice;
	parsed p;

	(void)state;
	parse_in(&p, seed_patch, strlen(seed_patch), 20, NULL);
	assert_int_equal(p.rc, 1);
	assert_int_equal(p.cs.n, 1);
	op = &p.cs.ops[0];
	assert_int_equal(op->kind, AA_OP_EDIT);
	assert_int_equal(op->edit_kind, AA_EDIT_AP);
	assert_string_equal(op->path, "src/calculator.py");
	assert_string_equal(op->format, "ap");
	assert_true(op->strip_trailing_ws);
	assert_int_equal(op->pos.line, 30);  /* "- file_path" at block line 11 */
	assert_int_equal(op->napmods, 3);
	assert_int_equal(op->apmods[0].action, AA_AP_INSERT_AFTER);
	assert_int_equal(op->apmods[0].pos.line, 32);
	assert_string_equal(op->apmods[0].snippet, "import math\n");
	assert_string_equal(op->apmods[0].content, "from typing import List\n");
	assert_int_equal(op->apmods[1].action, AA_AP_REPLACE);
	assert_string_equal(op->apmods[1].anchor, "def add(a, b):\n");
	assert_int_equal(op->apmods[2].action, AA_AP_DELETE);
	assert_string_equal(op->apmods[2].snippet, "def get_pi():\n    return 3.14\n");
	assert_null(op->apmods[2].content);
	assert_int_equal(op->apmods[2].leading_blank_lines, 1);
	assert_int_equal(op->apmods[2].trailing_blank_lines, 0);

	cx.path = op->path;
	cx.diags = &d;
	once = run_edit(op, seed_before, &cx);
	assert_string_equal(once, seed_after);
	assert_int_equal(cx.applied, 3);
	twice = run_edit(op, once, &cx);
	assert_string_equal(twice, seed_after);
	assert_int_equal(cx.skipped, 3);
	assert_int_equal(d.nerrors, 0);
	free(once);
	free(twice);
	aa_edit_ctx_release(&cx);
	aa_diags_free(&d);
	parsed_free(&p);
}

/* ---------- operations ---------- */

static void test_create_file_splits_ops(void **state)
{
	parsed p;

	(void)state;
	parse(&p,
	      "version: 2.0\n"
	      "changes:\n"
	      "  - file_path: a.txt\n"
	      "    newline: CRLF\n"
	      "    modifications:\n"
	      "      - action: CREATE_FILE\n"
	      "        content: |\n"
	      "          one  \n"
	      "            two\t\n"
	      "\n"
	      "          three\n"
	      "      - action: INSERT_AFTER\n"
	      "        snippet: one\n"
	      "        content: x\n"
	      "      - action: DELETE\n"
	      "        start_snippet: one\n"
	      "        end_snippet: x\n"
	      "      - action: CREATE_FILE\n"
	      "        content: \"\"\n"
	      "  - file_path: b.txt\n"
	      "    newline: CR\n"
	      "    modifications:\n"
	      "      - action: CREATE_FILE\n"
	      "        content: |-\n"
	      "          a\n"
	      "          b\n"
	      "  - file_path: c.txt\n"
	      "    modifications:\n"
	      "      - action: CREATE_FILE\n"
	      "        content: \"a\\r\\nb\\n\"\n"
	      "  - file_path: d.txt\n"
	      "    modifications: []\n");
	assert_int_equal(p.rc, 5);
	assert_int_equal(p.d.n, 0);
	assert_int_equal(p.cs.n, 5);
	assert_int_equal(p.cs.ops[0].kind, AA_OP_WRITE);
	assert_int_equal(p.cs.ops[0].exist, AA_EXIST_NEW);
	assert_int_equal(p.cs.ops[0].pos.line, 6);
	assert_string_equal(p.cs.ops[0].path, "a.txt");
	assert_int_equal(p.cs.ops[0].content_len, strlen("one\r\n  two\r\n\r\nthree\r\n"));
	assert_memory_equal(p.cs.ops[0].content, "one\r\n  two\r\n\r\nthree\r\n",
			    p.cs.ops[0].content_len);
	/* The two edits between the creations are one op, in order. */
	assert_int_equal(p.cs.ops[1].kind, AA_OP_EDIT);
	assert_int_equal(p.cs.ops[1].pos.line, 3);
	assert_int_equal(p.cs.ops[1].napmods, 2);
	assert_int_equal(p.cs.ops[1].apmods[0].pos.line, 12);
	assert_int_equal(p.cs.ops[1].apmods[1].action, AA_AP_DELETE);
	assert_string_equal(p.cs.ops[1].apmods[1].start_snippet, "one");
	assert_string_equal(p.cs.ops[1].apmods[1].end_snippet, "x");
	assert_null(p.cs.ops[1].apmods[1].snippet);
	assert_int_equal(p.cs.ops[2].kind, AA_OP_WRITE);
	assert_int_equal(p.cs.ops[2].content_len, 0);
	assert_memory_equal(p.cs.ops[3].content, "a\rb", 3);
	assert_int_equal(p.cs.ops[3].content_len, 3);
	assert_string_equal(p.cs.ops[3].path, "b.txt");
	/* Default LF; a CRLF written inside the YAML becomes LF too. */
	assert_int_equal(p.cs.ops[4].content_len, 4);
	assert_memory_equal(p.cs.ops[4].content, "a\nb\n", 4);
	parsed_free(&p);
}

static void test_empty_changes(void **state)
{
	parsed p;

	(void)state;
	parse(&p, "---\nchanges: []\nversion: '2.0'\n...\n");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.d.n, 0);
	assert_int_equal(p.cs.n, 0);
	parsed_free(&p);
}

static void test_path_relative_to_patch_dir(void **state)
{
	static const char y[] =
		"version: \"2.0\"\n"
		"changes:\n"
		"  - file_path: src/x.py\n"
		"    modifications:\n"
		"      - action: DELETE\n"
		"        snippet: x\n";
	parsed p;

	(void)state;
	parse_in(&p, y, strlen(y), 1, "patches/v2");
	assert_int_equal(p.rc, 1);
	assert_string_equal(p.cs.ops[0].path, "patches/v2/src/x.py");
	parsed_free(&p);
	parse_in(&p, y, strlen(y), 1, "");
	assert_int_equal(p.rc, 1);
	assert_string_equal(p.cs.ops[0].path, "src/x.py");
	parsed_free(&p);
}

static void test_crlf_input(void **state)
{
	parsed p;

	(void)state;
	parse(&p, "version: \"2.0\"\r\nchanges:\r\n  - file_path: a\r\n"
		  "    modifications:\r\n      - action: REPLACE\r\n"
		  "        snippet: |\r\n          x\r\n        content: |\r\n"
		  "          y\r\n");
	assert_int_equal(p.rc, 1);
	assert_string_equal(p.cs.ops[0].apmods[0].snippet, "x\n");
	assert_string_equal(p.cs.ops[0].apmods[0].content, "y\n");
	parsed_free(&p);
	/* A UTF-8 BOM before the document is not part of it. */
	parse(&p, "\xef\xbb\xbfversion: \"2.0\"\nchanges: []\n");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.d.n, 0);
	parsed_free(&p);
}

/* ---------- errors ---------- */

#define HEAD "version: \"2.0\"\nchanges:\n  - file_path: a.py\n    modifications:\n"

static void test_error_unknown_keys(void **state)
{
	(void)state;
	assert_parse_error(HEAD "      - action: DELETE\n        snippet: x\n"
			   "        snipet: y\n", 7,
			   "unknown key \"snipet\" in a modification (line 7, column 9)");
	assert_parse_error("version: \"2.0\"\nchanges: []\nextra: 1\n", 3,
			   "unknown key \"extra\" in the ap document");
	assert_parse_error("version: \"2.0\"\nchanges:\n  - file_path: a\n"
			   "    path: b\n", 4, "unknown key \"path\" in a file change");
	assert_parse_error(HEAD "      - action: DELETE\n        snippet: x\n"
			   "        snippet: y\n", 7, "duplicate key 'snippet'");
	assert_parse_error("version: \"2.0\"\nchanges: []\nversion: \"2.0\"\n", 3,
			   "duplicate key 'version'");
	assert_parse_error("version: \"2.0\"\n[a]: 1\nchanges: []\n", 2,
			   "keys of the ap document must be strings");
}

static void test_error_wrong_types(void **state)
{
	(void)state;
	assert_parse_error(HEAD "      - action: DELETE\n        snippet: [x]\n", 6,
			   "'snippet' must be a string, not a list (line 6, column 18)");
	assert_parse_error(HEAD "      - action: DELETE\n        snippet:\n", 6,
			   "'snippet' must be a string, not null");
	assert_parse_error(HEAD "      - action: DELETE\n        snippet: x\n"
			   "        include_leading_blank_lines: -1\n", 7,
			   "must be a non-negative integer");
	assert_parse_error(HEAD "      - action: DELETE\n        snippet: x\n"
			   "        include_trailing_blank_lines: \"2\"\n", 7,
			   "must be a non-negative integer");
	assert_parse_error(HEAD "      - action: DELETE\n        snippet: x\n"
			   "        include_trailing_blank_lines: 99999999999999999999\n",
			   7, "too large");
	assert_parse_error("version: \"2.0\"\nchanges: {}\n", 2,
			   "'changes' must be a list, not a mapping");
	assert_parse_error("version: \"2.0\"\nchanges:\n  - just a string\n", 3,
			   "each change must be a mapping");
	assert_parse_error("version: \"2.0\"\nchanges:\n  - file_path: a\n"
			   "    modifications: REPLACE\n", 4,
			   "'modifications' must be a list");
	assert_parse_error(HEAD "      - DELETE\n", 5,
			   "each modification must be a mapping");
	assert_parse_error(HEAD "      - action: MOVE\n        snippet: x\n", 5,
			   "unknown action \"MOVE\"");
	assert_parse_error("version: \"2.0\"\nchanges:\n  - file_path: a\n"
			   "    newline: LFCR\n    modifications: []\n", 4,
			   "'newline' must be \"LF\", \"CRLF\" or \"CR\"");
	assert_parse_error("- version: \"2.0\"\n", 1,
			   "the ap document must be a mapping, not a list");
	assert_parse_error("version: \"2.0\"\nchanges: !!seq []\n", 2,
			   "YAML tags are not allowed");
}

static void test_error_version(void **state)
{
	(void)state;
	assert_parse_error("version: \"1.0\"\nchanges: []\n", 1,
			   "unsupported ap version \"1.0\"");
	assert_parse_error("version: 2\nchanges: []\n", 1,
			   "unsupported ap version \"2\"");
	assert_parse_error("version: \"2.0 \"\nchanges: []\n", 1,
			   "unsupported ap version");
	assert_parse_error("version: [2.0]\nchanges: []\n", 1,
			   "unsupported ap version (only \"2.0\")");
	assert_parse_error("changes: []\n", 1, "has no 'version'");
	assert_parse_error("version: \"2.0\"\n", 1, "has no 'changes'");
}

static void test_error_aliases(void **state)
{
	(void)state;
	assert_parse_error(HEAD "      - action: DELETE\n        snippet: &s x\n"
			   "      - action: DELETE\n        snippet: *s\n", 6,
			   "YAML anchors are not allowed");
	assert_parse_error("version: \"2.0\"\nchanges: *c\n", 2,
			   "YAML aliases are not allowed (line 2, column 10)");
}

static void test_error_modification_shape(void **state)
{
	(void)state;
	assert_parse_error(HEAD "      - action: REPLACE\n        snippet: x\n", 5,
			   "REPLACE needs 'content'");
	assert_parse_error(HEAD "      - action: INSERT_BEFORE\n        snippet: x\n", 5,
			   "INSERT_BEFORE needs 'content'");
	assert_parse_error(HEAD "      - action: DELETE\n        snippet: x\n"
			   "        content: y\n", 5, "DELETE must not have 'content'");
	assert_parse_error(HEAD "      - snippet: x\n        content: y\n", 5,
			   "modification has no 'action'");
	assert_parse_error(HEAD "      - action: DELETE\n        snippet: x\n"
			   "        start_snippet: x\n        end_snippet: y\n", 5,
			   "mutually exclusive");
	assert_parse_error(HEAD "      - action: DELETE\n        start_snippet: x\n", 5,
			   "needs both 'start_snippet' and 'end_snippet'");
	assert_parse_error(HEAD "      - action: DELETE\n        end_snippet: x\n", 5,
			   "needs both 'start_snippet' and 'end_snippet'");
	assert_parse_error(HEAD "      - action: DELETE\n        anchor: x\n", 5,
			   "needs 'snippet' or 'start_snippet'");
	assert_parse_error(HEAD "      - action: INSERT_AFTER\n        start_snippet: x\n"
			   "        end_snippet: y\n        content: z\n", 5,
			   "only REPLACE and DELETE");
	assert_parse_error(HEAD "      - action: CREATE_FILE\n        snippet: x\n"
			   "        content: y\n", 5, "CREATE_FILE takes only 'content'");
	assert_parse_error(HEAD "      - action: CREATE_FILE\n", 5,
			   "CREATE_FILE needs 'content'");
	assert_parse_error("version: \"2.0\"\nchanges:\n  - modifications: []\n", 3,
			   "has no 'file_path'");
	assert_parse_error("version: \"2.0\"\nchanges:\n  - file_path: a\n", 3,
			   "has no 'modifications'");
	assert_parse_error(HEAD "      - action: DELETE\n        snippet: \"a\\0b\"\n", 6,
			   "NUL character in 'snippet'");
}

static void test_error_paths(void **state)
{
	(void)state;
	assert_parse_error("version: \"2.0\"\nchanges:\n  - file_path: ../etc/passwd\n"
			   "    modifications: []\n", 3,
			   "must not contain '..' components (line 3, column 16)");
	assert_parse_error("version: \"2.0\"\nchanges:\n  - file_path: a/../../b\n"
			   "    modifications: []\n", 3, "'..'");
	assert_parse_error("version: \"2.0\"\nchanges:\n  - file_path: .git/config\n"
			   "    modifications: []\n", 3, "invalid file_path .git/config:");
	assert_parse_error("version: \"2.0\"\nchanges:\n  - file_path: /etc/passwd\n"
			   "    modifications: []\n", 3, "invalid file_path");
}

static void test_error_yaml_syntax(void **state)
{
	parsed p;

	(void)state;
	/* Seed 003 §4.3's "WRONG" example, comments and all. */
	assert_parse_error(HEAD "      - action: REPLACE\n        snippet: |\n"
			   "          def old_function():\n              pass\n"
			   "          content: |       # Error 1\n"
			   "              def new_function():\n"
			   "            return True    # Error 2\n"
			   "        - action: REPLACE  # Error 3\n"
			   "          snippet: |\n            // some code\n", 12,
			   "YAML error: did not find expected key, while parsing "
			   "a block mapping started at line 5 (line 12, column 9)");
	/* Without its last item it is valid YAML, but `content` is snippet text. */
	assert_parse_error(HEAD "      - action: REPLACE\n        snippet: |\n"
			   "          def old_function():\n              pass\n"
			   "          content: |\n"
			   "              def new_function():\n"
			   "            return True\n", 5, "REPLACE needs 'content'");
	assert_parse_error("version: \"2.0\nchanges: []\n", 3,
			   "YAML error: found unexpected end of stream, while "
			   "scanning a quoted scalar started at line 1");
	assert_parse_error("version: \"2.0\"\n  changes: []\n", 2,
			   "did not find expected key, while parsing a block "
			   "mapping started at line 1 (line 2, column 3)");
	assert_parse_error("", 1, "empty ap document");
	assert_parse_error("# only a comment\n", 1, "empty ap document");
	assert_parse_error("version: \"2.0\"\nchanges: []\n---\nversion: \"2.0\"\n", 3,
			   "more than one YAML document");
	/* The block's first line is the input line of YAML line 1. */
	parse_in(&p, "version: \"2.0\"\nchanges: [\n", 26, 41, NULL);
	assert_int_equal(p.rc, -1);
	assert_int_equal(p.d.v[0].line, 43);
	assert_non_null(strstr(p.d.v[0].msg, "(line 43, column 1)"));
	parsed_free(&p);
}

static void test_error_deep_nesting(void **state)
{
	aa_buf y = AA_BUF_INIT;
	parsed p;
	int i;

	(void)state;
	assert_int_equal(aa_buf_puts(&y, "version: \"2.0\"\nchanges:\n"), 0);
	for (i = 0; i < 100000; i++)
		assert_int_equal(aa_buf_puts(&y, "["), 0);
	parse_in(&p, y.ptr, y.len, 1, NULL);
	assert_int_equal(p.rc, -1);
	assert_int_equal(p.d.v[0].line, 3);
	assert_int_equal(p.cs.n, 0);
	parsed_free(&p);
	aa_buf_free(&y);
	/* Deep block nesting where an ap document expects a string. */
	assert_int_equal(aa_buf_puts(&y, HEAD "      - action: DELETE\n        snippet:\n"), 0);
	for (i = 0; i < 200; i++)
		assert_int_equal(aa_buf_printf(&y, "%*s- \n", 10 + 2 * i, ""), 0);
	parse_in(&p, y.ptr, y.len, 1, NULL);
	assert_int_equal(p.rc, -1);
	assert_int_equal(p.d.nerrors, 1);
	parsed_free(&p);
	aa_buf_free(&y);
}

static void test_error_garbage(void **state)
{
	static const char bin[] = "version: \"2.0\"\nchanges: [\x01\x02\x00\xff]\n";
	static const char bad_utf8[] = "version: \"2.0\"\nchanges: [\"\xc3\x28\"]\n";
	unsigned seed = 12345;
	char buf[512];
	parsed p;
	int i;
	size_t j;

	(void)state;
	parse_in(&p, bin, sizeof(bin) - 1, 1, NULL);
	assert_int_equal(p.rc, -1);
	assert_int_equal(p.d.v[0].line, 2);
	assert_non_null(strstr(p.d.v[0].msg, "YAML error"));
	parsed_free(&p);
	parse_in(&p, bad_utf8, sizeof(bad_utf8) - 1, 1, NULL);
	assert_int_equal(p.rc, -1);
	assert_int_equal(p.d.v[0].line, 2);
	assert_non_null(strstr(p.d.v[0].msg, "(line 2, column 13)"));
	parsed_free(&p);
	/* Random bytes: an error, never a crash. */
	for (i = 0; i < 2000; i++) {
		for (j = 0; j < sizeof(buf); j++) {
			seed = seed * 1103515245u + 12345u;
			buf[j] = (char)(seed >> 16);
		}
		parse_in(&p, buf, (size_t)(seed % sizeof(buf)), 1, NULL);
		assert_int_equal(p.rc, -1);
		assert_true(p.d.nerrors >= 1);
		parsed_free(&p);
	}
}

/* Every prefix of the seed patch parses or fails cleanly. */
static void test_truncations(void **state)
{
	size_t len, ok = 0;
	parsed p;

	(void)state;
	for (len = 0; len <= sizeof(seed_patch) - 1; len++) {
		char *copy = malloc(len ? len : 1);

		assert_non_null(copy);
		memcpy(copy, seed_patch, len);
		parse_in(&p, copy, len, 1, NULL);
		assert_true(p.rc == -1 || p.rc == 1);
		assert_true(p.rc == 1 ? p.d.nerrors == 0 : p.d.nerrors == 1);
		ok += p.rc == 1;
		parsed_free(&p);
		free(copy);
	}
	assert_true(ok >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_example_end_to_end),
		cmocka_unit_test(test_create_file_splits_ops),
		cmocka_unit_test(test_empty_changes),
		cmocka_unit_test(test_path_relative_to_patch_dir),
		cmocka_unit_test(test_crlf_input),
		cmocka_unit_test(test_error_unknown_keys),
		cmocka_unit_test(test_error_wrong_types),
		cmocka_unit_test(test_error_version),
		cmocka_unit_test(test_error_aliases),
		cmocka_unit_test(test_error_modification_shape),
		cmocka_unit_test(test_error_paths),
		cmocka_unit_test(test_error_yaml_syntax),
		cmocka_unit_test(test_error_deep_nesting),
		cmocka_unit_test(test_error_garbage),
		cmocka_unit_test(test_truncations),
	};

	return AA_RUN_TESTS(tests);
}
