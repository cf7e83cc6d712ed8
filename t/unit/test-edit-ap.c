/* Unit tests of the ap edit engine (src/edit/ap_mods.c, seed 003 §3). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "unit.h"
#include "edit/edit.h"

/* One modification; NULL strings are absent keys. */
typedef struct mod {
	aa_ap_action action;
	const char *snippet;
	const char *start;
	const char *end;
	const char *anchor;
	const char *content;
	long lead, trail;
} mod;

typedef struct run {
	aa_diags d;
	aa_edit_ctx cx;
	aa_buf out;
	int rc;
} run;

static char *dup_or_null(const char *s)
{
	char *c;

	if (!s)
		return NULL;
	c = aa_strdup(s);
	assert_non_null(c);
	return c;
}

/* Decodes `file`, applies the modifications as one op, encodes the result. */
static void apply_len(run *r, const char *file, size_t len, const mod *mods,
		      size_t n, int strip)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_pos pos = { "patch.ap", 3 };
	const char *why = NULL;
	aa_op *op;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->cx.path = "f.py";
	r->cx.diags = &r->d;
	op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	assert_non_null(op);
	op->edit_kind = AA_EDIT_AP;
	op->strip_trailing_ws = strip;
	for (i = 0; i < n; i++) {
		aa_pos mp = { "patch.ap", 10 * (long)(i + 1) };
		aa_apmod *m = aa_op_add_apmod(op, mp);

		assert_non_null(m);
		m->action = mods[i].action;
		m->snippet = dup_or_null(mods[i].snippet);
		m->start_snippet = dup_or_null(mods[i].start);
		m->end_snippet = dup_or_null(mods[i].end);
		m->anchor = dup_or_null(mods[i].anchor);
		m->content = dup_or_null(mods[i].content);
		m->leading_blank_lines = mods[i].lead;
		m->trailing_blank_lines = mods[i].trail;
	}
	assert_int_equal(aa_text_decode(&t, file, len, &why), 0);
	r->rc = aa_edit_ap(&t, op, &r->cx);
	if (r->rc == 0)
		assert_int_equal(aa_text_encode(&t, &r->out), 0);
	aa_text_free(&t);
	aa_changeset_free(&cs);
}

static void apply(run *r, const char *file, const mod *mods, size_t n)
{
	apply_len(r, file, strlen(file), mods, n, 1);
}

static void run_free(run *r)
{
	aa_diags_free(&r->d);
	aa_edit_ctx_release(&r->cx);
	aa_buf_free(&r->out);
}

static void assert_out(const run *r, const char *want)
{
	if (r->rc != 0 && r->d.n)
		fprintf(stderr, "# unexpected error: %s\n", r->d.v[0].msg);
	assert_int_equal(r->rc, 0);
	assert_non_null(r->out.ptr);
	if (r->out.len != strlen(want) || memcmp(r->out.ptr, want, r->out.len))
		fprintf(stderr, "# got:\n%.*s# want:\n%s", (int)r->out.len,
			r->out.ptr, want);
	assert_int_equal(r->out.len, strlen(want));
	assert_memory_equal(r->out.ptr, want, strlen(want));
}

/* The one error, which must contain every given fragment. */
static void assert_error(const run *r, long line, const char *frag1,
			 const char *frag2)
{
	size_t i;
	const aa_diag *e = NULL;

	assert_int_equal(r->rc, -1);
	for (i = 0; i < r->d.n; i++)
		if (r->d.v[i].level == AA_DIAG_ERROR)
			e = &r->d.v[i];
	assert_non_null(e);
	if (!strstr(e->msg, frag1) || (frag2 && !strstr(e->msg, frag2)))
		fprintf(stderr, "# message: %s\n", e->msg);
	assert_non_null(strstr(e->msg, frag1));
	if (frag2)
		assert_non_null(strstr(e->msg, frag2));
	assert_int_equal(e->line, line);
	assert_string_equal(e->path, "f.py");
}

/* Applies mods to file, expects want, then applies them to want again. */
static void assert_idempotent(const char *file, const mod *mods, size_t n,
			      const char *want)
{
	run r;
	size_t i;

	apply(&r, file, mods, n);
	assert_out(&r, want);
	assert_int_equal(r.cx.applied, n);
	assert_int_equal(r.cx.skipped, 0);
	run_free(&r);

	apply(&r, want, mods, n);
	assert_out(&r, want);
	assert_int_equal(r.cx.applied, 0);
	assert_int_equal(r.cx.skipped, n);
	assert_int_equal(r.cx.nlandings, n);
	for (i = 0; i < n; i++)
		assert_int_equal(r.cx.landings[i].how, AA_HOW_ALREADY_APPLIED);
	assert_int_equal(r.d.nerrors, 0);
	assert_true(r.d.n >= n); /* one note per skip */
	assert_int_equal(r.d.v[0].level, AA_DIAG_NOTE);
	assert_non_null(strstr(r.d.v[0].msg, "already applied"));
	run_free(&r);
}

/* ---------- seed 003 §5 ---------- */

static const char calculator[] =
	"# A simple calculator module\n"
	"import math\n"
	"\n"
	"def add(a, b):\n"
	"    # Deprecated: use sum() for lists\n"
	"    return a + b\n"
	"\n"
	"def get_pi():\n"
	"    return 3.14\n";

static const char calculator_after[] =
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

static const mod calculator_mods[] = {
	{ .action = AA_AP_INSERT_AFTER, .snippet = "import math\n",
	  .content = "from typing import List\n" },
	{ .action = AA_AP_REPLACE, .anchor = "def add(a, b):\n",
	  .snippet = "return a + b\n",
	  .content = "# New implementation supports summing a list\n"
		     "if isinstance(a, List):\n"
		     "    return sum(a)\n"
		     "return a + b\n" },
	{ .action = AA_AP_DELETE, .snippet = "def get_pi():\n    return 3.14\n",
	  .lead = 1 },
};

static void test_seed_example(void **state)
{
	run r;

	(void)state;
	apply(&r, calculator, calculator_mods, 3);
	assert_out(&r, calculator_after);
	assert_int_equal(r.cx.nlandings, 3);
	/* Lines in the file as each modification found it. */
	assert_int_equal(r.cx.landings[0].line, 2);
	assert_int_equal(r.cx.landings[1].line, 7);
	assert_int_equal(r.cx.landings[2].line, 12);
	assert_int_equal(r.cx.landings[0].how, AA_HOW_CONTENT);
	assert_int_equal(r.cx.landings[0].pos.line, 10);
	assert_int_equal(r.cx.landings[2].pos.line, 30);
	run_free(&r);
}

static void test_seed_example_twice(void **state)
{
	(void)state;
	assert_idempotent(calculator, calculator_mods, 3, calculator_after);
}

/* ---------- actions ---------- */

static const char cfile[] =
	"int f(void)\n"
	"{\n"
	"\tint x = 1;\n"
	"\treturn x;\n"
	"}\n";

static void test_replace_indents_content(void **state)
{
	mod m = { .action = AA_AP_REPLACE, .snippet = "int x = 1;",
		  .content = "int x = 2;\nif (x)\n    x++;\n" };

	(void)state;
	assert_idempotent(cfile, &m, 1,
			  "int f(void)\n{\n\tint x = 2;\n\tif (x)\n\t    x++;\n"
			  "\treturn x;\n}\n");
}

static void test_insert_after(void **state)
{
	mod m = { .action = AA_AP_INSERT_AFTER, .snippet = "int f(void)\n{\n",
		  .content = "\n/* start */\n" };

	(void)state;
	/* Indentation of the snippet's first line (none); blank kept empty. */
	assert_idempotent(cfile, &m, 1,
			  "int f(void)\n{\n\n/* start */\n\tint x = 1;\n"
			  "\treturn x;\n}\n");
}

static void test_insert_before(void **state)
{
	mod m = { .action = AA_AP_INSERT_BEFORE, .snippet = "return x;",
		  .content = "x *= 2;\nlog(x);\n" };

	(void)state;
	assert_idempotent(cfile, &m, 1,
			  "int f(void)\n{\n\tint x = 1;\n\tx *= 2;\n\tlog(x);\n"
			  "\treturn x;\n}\n");
}

static void test_delete(void **state)
{
	mod m = { .action = AA_AP_DELETE, .snippet = "int x = 1;\n" };

	(void)state;
	assert_idempotent(cfile, &m, 1, "int f(void)\n{\n\treturn x;\n}\n");
}

static const char blanks[] =
	"a\n"
	"\n"
	"\n"
	"  \n"
	"b\n"
	"\n"
	"\t\n"
	"c\n";

static void test_delete_blank_lines(void **state)
{
	mod lead1 = { .action = AA_AP_DELETE, .snippet = "b", .lead = 1 };
	mod trail9 = { .action = AA_AP_DELETE, .snippet = "b", .trail = 9 };
	mod both = { .action = AA_AP_DELETE, .snippet = "b", .lead = 9, .trail = 1 };

	(void)state;
	assert_idempotent(blanks, &lead1, 1, "a\n\n\n\n\nc\n");
	/* Only the consecutive blank lines; never past a non-blank one. */
	assert_idempotent(blanks, &trail9, 1, "a\n\n\n\nc\n");
	assert_idempotent(blanks, &both, 1, "a\n\nc\n");
}

static void test_insert_after_trailing_blanks(void **state)
{
	mod m = { .action = AA_AP_INSERT_AFTER, .snippet = "b", .trail = 1,
		  .content = "x\n" };

	(void)state;
	assert_idempotent(blanks, &m, 1, "a\n\n\n\nb\n\nx\n\nc\n");
}

static const char ranges[] =
	"def f():\n"
	"    one()\n"
	"\n"
	"    two()\n"
	"    end()\n"
	"\n"
	"def g():\n"
	"    end()\n";

static void test_range_replace(void **state)
{
	mod m = { .action = AA_AP_REPLACE, .start = "one()", .end = "end()",
		  .content = "three()\n" };

	(void)state;
	assert_idempotent(ranges, &m, 1,
			  "def f():\n    three()\n\ndef g():\n    end()\n");
}

static void test_range_delete(void **state)
{
	mod m = { .action = AA_AP_DELETE, .start = "def f():", .end = "end()",
		  .trail = 1 };

	(void)state;
	assert_idempotent(ranges, &m, 1, "def g():\n    end()\n");
}

static void test_range_end_not_found(void **state)
{
	mod m = { .action = AA_AP_DELETE, .start = "def g():", .end = "two()" };
	run r;

	(void)state;
	apply(&r, ranges, &m, 1);
	assert_error(&r, 10, "end_snippet not found after line 7", NULL);
	run_free(&r);
}

static void test_range_with_anchor(void **state)
{
	mod m = { .action = AA_AP_REPLACE, .anchor = "def g():",
		  .start = "end()", .end = "end()", .content = "done()" };
	run r;

	(void)state;
	/* start_snippet "end()" appears twice: the anchor picks the second. */
	apply(&r, ranges, &m, 1);
	assert_error(&r, 10, "end_snippet not found after line 8", NULL);
	run_free(&r);
	m.start = "def g():";
	m.anchor = NULL;
	assert_idempotent(ranges, &m, 1,
			  "def f():\n    one()\n\n    two()\n    end()\n\ndone()\n");
}

/* ---------- location ---------- */

static const char twofuncs[] =
	"def a():\n"
	"    return 0\n"
	"\n"
	"def b():\n"
	"    x = 1\n"
	"    return 0\n";

static void test_anchor_scopes_snippet(void **state)
{
	mod m = { .action = AA_AP_REPLACE, .anchor = "def b():",
		  .snippet = "return 0", .content = "return x" };
	run r;

	(void)state;
	assert_idempotent(twofuncs, &m, 1,
			  "def a():\n    return 0\n\ndef b():\n    x = 1\n"
			  "    return x\n");
	m.anchor = NULL;
	apply(&r, twofuncs, &m, 1);
	assert_error(&r, 10, "snippet is ambiguous (lines 2, 6)", NULL);
	run_free(&r);
}

static void test_anchor_first_occurrence_after(void **state)
{
	mod m = { .action = AA_AP_INSERT_BEFORE, .anchor = "def a():",
		  .snippet = "return 0", .content = "pass" };
	run r;

	(void)state;
	/* After the anchor the first occurrence wins, even if not unique. */
	assert_idempotent(twofuncs, &m, 1,
			  "def a():\n    pass\n    return 0\n\ndef b():\n"
			  "    x = 1\n    return 0\n");
	/* ... with a warning that names both. */
	apply(&r, twofuncs, &m, 1);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.d.n, 1);
	assert_int_equal(r.d.v[0].level, AA_DIAG_WARNING);
	assert_non_null(strstr(r.d.v[0].msg, "used the first (line 2), not line 6"));
	run_free(&r);
}

static void test_anchor_errors(void **state)
{
	mod m = { .action = AA_AP_DELETE, .anchor = "return 0",
		  .snippet = "x = 1" };
	run r;

	(void)state;
	apply(&r, twofuncs, &m, 1);
	assert_error(&r, 10, "anchor is ambiguous (lines 2, 6)", NULL);
	run_free(&r);
	m.anchor = "def c():";
	apply(&r, twofuncs, &m, 1);
	assert_error(&r, 10, "anchor not found", NULL);
	run_free(&r);
	/* The snippet is only searched after the anchor. */
	m.anchor = "x = 1";
	m.action = AA_AP_INSERT_AFTER;
	m.snippet = "def b():";
	m.content = "y";
	apply(&r, twofuncs, &m, 1);
	assert_error(&r, 10, "snippet not found after the anchor (line 5)", NULL);
	run_free(&r);
}

static void test_normalised_match(void **state)
{
	/* Indentation, trailing blanks and blank lines do not matter. */
	mod m = { .action = AA_AP_REPLACE,
		  .snippet = "\n   x = 1   \n\n\n        return 0\n\n",
		  .content = "return 1\n" };

	(void)state;
	assert_idempotent(twofuncs, &m, 1,
			  "def a():\n    return 0\n\ndef b():\n    return 1\n");
}

static void test_partial_line_does_not_match(void **state)
{
	mod m = { .action = AA_AP_REPLACE, .snippet = "x = 1",
		  .content = "y" };
	run r;

	(void)state;
	apply(&r, "if x = 1:\n    pass\n", &m, 1);
	assert_error(&r, 10, "snippet not found", "part of a line");
	run_free(&r);
	/* Nor a snippet that stops before the end of the line. */
	m.snippet = "def b";
	apply(&r, twofuncs, &m, 1);
	assert_error(&r, 10, "snippet not found", "line 4");
	run_free(&r);
}

static void test_not_found_names_closest(void **state)
{
	mod m = { .action = AA_AP_INSERT_AFTER,
		  .snippet = "def b():\n    x = 2\n", .content = "pass" };
	run r;

	(void)state;
	apply(&r, twofuncs, &m, 1);
	assert_error(&r, 10, "snippet not found",
		     "closest at line 4: 1 of 2 lines match, then line 5 is "
		     "\"x = 1\" where the snippet has \"x = 2\"");
	run_free(&r);
	m.snippet = "retrun 0";
	apply(&r, twofuncs, &m, 1);
	assert_error(&r, 10, "not found", "closest line is 2 \"return 0\"");
	run_free(&r);
}

static void test_empty_snippet(void **state)
{
	mod m = { .action = AA_AP_DELETE, .snippet = "  \n\t\n" };
	run r;

	(void)state;
	apply(&r, twofuncs, &m, 1);
	assert_error(&r, 10, "snippet is empty", NULL);
	run_free(&r);
}

/* ---------- idempotency corner cases ---------- */

static void test_replace_missing_snippet(void **state)
{
	mod m = { .action = AA_AP_REPLACE, .snippet = "x = 1",
		  .content = "x = 3" };
	run r;

	(void)state;
	/* Neither the snippet nor the content: an error, not a skip. */
	apply(&r, "a\nb\n", &m, 1);
	assert_error(&r, 10, "snippet not found", NULL);
	run_free(&r);
	/* The content twice and no anchor: cannot tell; an error. */
	apply(&r, "x = 3\nx = 3\n", &m, 1);
	assert_error(&r, 10, "snippet not found", NULL);
	run_free(&r);
	/* Content found once: already applied. */
	apply(&r, "a\n  x = 3\n", &m, 1);
	assert_out(&r, "a\n  x = 3\n");
	assert_int_equal(r.cx.skipped, 1);
	assert_int_equal(r.cx.landings[0].line, 2);
	run_free(&r);
}

static void test_insert_needs_snippet(void **state)
{
	mod m = { .action = AA_AP_INSERT_AFTER, .snippet = "zzz",
		  .content = "x" };
	run r;

	(void)state;
	apply(&r, "a\n", &m, 1);
	assert_error(&r, 10, "INSERT_AFTER: snippet not found", NULL);
	run_free(&r);
}

/* ---------- text fidelity ---------- */

static void test_crlf_and_final_newline(void **state)
{
	mod after = { .action = AA_AP_INSERT_AFTER, .snippet = "b",
		      .content = "c\nd\n" };
	mod del = { .action = AA_AP_DELETE, .snippet = "b" };
	run r;

	(void)state;
	assert_idempotent("a\r\nb\r\n", &after, 1, "a\r\nb\r\nc\r\nd\r\n");
	/* No final newline stays so. */
	assert_idempotent("a\r\nb", &after, 1, "a\r\nb\r\nc\r\nd");
	apply(&r, "a\nb", &del, 1);
	assert_out(&r, "a");
	run_free(&r);
}

static void test_strip_trailing_whitespace(void **state)
{
	mod m = { .action = AA_AP_INSERT_BEFORE, .snippet = "b",
		  .content = "x  \t\n" };
	run r;

	(void)state;
	apply(&r, "a \t\nb  \nc\r\n", &m, 1);
	assert_out(&r, "a\nx\nb\nc\r\n");
	run_free(&r);
	/* Without the flag nothing else is touched. */
	apply_len(&r, "a \nb\n", 5, &m, 1, 0);
	assert_out(&r, "a \nx  \t\nb\n");
	run_free(&r);
}

static void test_sequential(void **state)
{
	mod m[] = {
		{ .action = AA_AP_REPLACE, .snippet = "a", .content = "b" },
		{ .action = AA_AP_INSERT_AFTER, .snippet = "b", .content = "c" },
		{ .action = AA_AP_DELETE, .snippet = "z" },
	};
	run r;

	(void)state;
	apply(&r, "a\nz\n", m, 3);
	assert_out(&r, "b\nc\n");
	run_free(&r);
}

static void test_first_error_stops(void **state)
{
	mod m[] = {
		{ .action = AA_AP_REPLACE, .snippet = "a", .content = "b" },
		{ .action = AA_AP_INSERT_AFTER, .snippet = "a", .content = "c" },
	};
	run r;

	(void)state;
	apply(&r, "a\n", m, 2);
	assert_error(&r, 20, "INSERT_AFTER: snippet not found", NULL);
	run_free(&r);
}

/* ---------- scale ---------- */

static double seconds_since(clock_t t0)
{
	return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

static void test_large_file_is_fast(void **state)
{
	size_t n = 200000, i;
	aa_buf file = AA_BUF_INIT, snip = AA_BUF_INIT;
	mod m = { .action = AA_AP_INSERT_AFTER };
	clock_t t0;
	run r;

	(void)state;
	/* Pathological for naive search: identical lines everywhere. */
	for (i = 0; i < n; i++)
		assert_int_equal(aa_buf_puts(&file, "    x = x + 1\n"), 0);
	assert_int_equal(aa_buf_puts(&file, "    y\n"), 0);
	for (i = 0; i < 2000; i++)
		assert_int_equal(aa_buf_puts(&snip, "x = x + 1\n"), 0);
	assert_int_equal(aa_buf_puts(&snip, "y\n"), 0);
	m.snippet = snip.ptr;
	m.content = "z\n";
	t0 = clock();
	apply_len(&r, file.ptr, file.len, &m, 1, 1);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cx.landings[0].line, (long)(n - 2000 + 1));
	assert_int_equal(r.out.len, file.len + strlen("    z\n"));
	run_free(&r);
	/* A miss over the same file, with its closest-match report. */
	assert_int_equal(aa_buf_puts(&snip, "w\n"), 0);
	m.snippet = snip.ptr;
	apply_len(&r, file.ptr, file.len, &m, 1, 1);
	assert_error(&r, 10, "snippet not found", "the file ends");
	run_free(&r);
	assert_true(seconds_since(t0) < 10.0);
	aa_buf_free(&file);
	aa_buf_free(&snip);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_example),
		cmocka_unit_test(test_seed_example_twice),
		cmocka_unit_test(test_replace_indents_content),
		cmocka_unit_test(test_insert_after),
		cmocka_unit_test(test_insert_before),
		cmocka_unit_test(test_delete),
		cmocka_unit_test(test_delete_blank_lines),
		cmocka_unit_test(test_insert_after_trailing_blanks),
		cmocka_unit_test(test_range_replace),
		cmocka_unit_test(test_range_delete),
		cmocka_unit_test(test_range_end_not_found),
		cmocka_unit_test(test_range_with_anchor),
		cmocka_unit_test(test_anchor_scopes_snippet),
		cmocka_unit_test(test_anchor_first_occurrence_after),
		cmocka_unit_test(test_anchor_errors),
		cmocka_unit_test(test_normalised_match),
		cmocka_unit_test(test_partial_line_does_not_match),
		cmocka_unit_test(test_not_found_names_closest),
		cmocka_unit_test(test_empty_snippet),
		cmocka_unit_test(test_replace_missing_snippet),
		cmocka_unit_test(test_insert_needs_snippet),
		cmocka_unit_test(test_crlf_and_final_newline),
		cmocka_unit_test(test_strip_trailing_whitespace),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_first_error_stops),
		cmocka_unit_test(test_large_file_is_fast),
	};

	return AA_RUN_TESTS(tests);
}
