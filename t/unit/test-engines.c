/*
 * Unit tests of the engine table (src/edit/engines.c) and of the edit
 * payload's memory (src/change/changeset.c): every edit kind has its
 * engine, and a payload is freed and copied by the kind that tags it.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "edit/edit.h"
#include "edit/explain.h"

static void test_every_kind_has_one_engine(void **state)
{
	aa_edit_kind k, j;

	(void)state;
	for (k = AA_EDIT_NONE; k <= AA_EDIT_BINARY; k++) {
		const aa_engine *e = aa_engine_of(k);

		assert_non_null(e);
		assert_int_equal(e->kind, k);
		assert_non_null(e->name);
		if (k == AA_EDIT_NONE)
			assert_null(e->apply);
		else if (k == AA_EDIT_BINARY) /* bytes, not text */
			assert_true(!e->apply && e->bytes);
		else
			assert_non_null(e->apply);
		for (j = AA_EDIT_NONE; j < k; j++)
			assert_string_not_equal(aa_engine_of(j)->name, e->name);
	}
	assert_null(aa_engine_of((aa_edit_kind)(AA_EDIT_BINARY + 1)));
}

static void test_table_applies_the_kind(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_diags d = { 0 };
	aa_edit_ctx cx = { 0 };
	aa_buf out = AA_BUF_INIT;
	aa_pos pos = { "answer.md", 3 };
	const char *why = NULL;
	aa_op *op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	aa_repl *r;

	(void)state;
	assert_non_null(op);
	r = aa_op_add_repl(op, pos);
	assert_non_null(r);
	assert_int_equal(op->edit_kind, AA_EDIT_REPLACEMENTS);
	r->find = aa_strdup("b\n");
	r->find_len = 2;
	r->replace = aa_strdup("B\n");
	r->replace_len = 2;
	cx.path = "f.txt";
	cx.diags = &d;
	assert_int_equal(aa_text_decode(&t, "a\nb\nc\n", 6, &why), 0);
	assert_int_equal(aa_engine_of(op->edit_kind)->apply(&t, op, &cx), 0);
	assert_int_equal(aa_text_encode(&t, &out), 0);
	assert_int_equal(out.len, 6);
	assert_memory_equal(out.ptr, "a\nB\nc\n", 6);
	assert_int_equal(cx.applied, 1);
	aa_buf_free(&out);
	aa_text_free(&t);
	aa_edit_ctx_release(&cx);
	aa_diags_free(&d);
	aa_changeset_free(&cs);
}

/* A copy of each payload kind owns its own memory (the sanitizer run frees both). */
static void test_clone_by_kind(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT, copy = AA_CHANGESET_INIT;
	aa_pos pos = { "answer.md", 1 };
	aa_op *op;
	aa_hunk *h;
	aa_apmod *m;
	aa_repl *r;

	(void)state;
	op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	op->path = aa_strdup("a.txt");
	op->edit_kind = AA_EDIT_HUNKS;
	h = aa_op_add_hunk(op, pos);
	assert_int_equal(aa_hunk_add_line(h, '-', "x", 1), 0);
	h->section = aa_strdup("f()");
	op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	op->path = aa_strdup("b.txt");
	r = aa_op_add_repl(op, pos);
	r->find = aa_strdup("x");
	r->find_len = 1;
	op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	op->path = aa_strdup("c.txt");
	m = aa_op_add_apmod(op, pos);
	m->snippet = aa_strdup("y");
	op->strip_trailing_ws = 1;
	assert_int_equal(aa_op_clone(&copy, &cs.ops[0]), 0);
	assert_int_equal(aa_op_clone(&copy, &cs.ops[1]), 0);
	assert_int_equal(aa_op_clone(&copy, &cs.ops[2]), 0);
	aa_changeset_free(&cs);
	assert_int_equal(copy.ops[0].edit_kind, AA_EDIT_HUNKS);
	assert_int_equal(copy.ops[0].nhunks, 1);
	assert_string_equal(copy.ops[0].hunks[0].lines[0].text, "x");
	assert_string_equal(copy.ops[0].hunks[0].section, "f()");
	assert_int_equal(copy.ops[1].edit_kind, AA_EDIT_REPLACEMENTS);
	assert_int_equal(copy.ops[1].nrepls, 1);
	assert_string_equal(copy.ops[1].repls[0].find, "x");
	assert_null(copy.ops[1].repls[0].replace);
	assert_int_equal(copy.ops[2].edit_kind, AA_EDIT_AP);
	assert_int_equal(copy.ops[2].napmods, 1);
	assert_string_equal(copy.ops[2].apmods[0].snippet, "y");
	assert_true(copy.ops[2].strip_trailing_ws);
	aa_changeset_free(&copy);
}

/* Applies one hunk of (kind, line) pairs to `file`; the rc of the engine. */
static int apply_hunk(const char *file, const char *const *lines, int may_elide,
		      aa_buf *out, aa_diags *d)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx = { 0 };
	aa_pos pos = { "answer.md", 3 }, added = { "answer.md", 8 };
	const char *why = NULL;
	aa_op *op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	aa_hunk *h;
	size_t i;
	int rc;

	op->path = aa_strdup("f.js");
	op->edit_kind = AA_EDIT_HUNKS;
	h = aa_op_add_hunk(op, pos);
	h->may_elide = may_elide;
	h->added_pos = added;
	for (i = 0; lines[i]; i++)
		assert_int_equal(aa_hunk_add_line(h, lines[i][0], lines[i] + 1,
						  strlen(lines[i] + 1)), 0);
	cx.path = "f.js";
	cx.diags = d;
	assert_int_equal(aa_text_decode(&t, file, strlen(file), &why), 0);
	rc = aa_engine_of(op->edit_kind)->apply(&t, op, &cx);
	if (!rc)
		assert_int_equal(aa_text_encode(&t, out), 0);
	/* the op's own lines are left as parsed */
	assert_int_equal(cs.ops[0].hunks[0].nlines, i);
	aa_text_free(&t);
	aa_edit_ctx_release(&cx);
	aa_changeset_free(&cs);
	return rc;
}

static const char *const elided_hunk[] = {
	"-f() {", "-  one();", "-  two();", "-}",
	"+g() {", "+  // ... existing code ...", "+}", NULL
};

static void test_hunk_elisions_resolved_by_the_engine(void **state)
{
	aa_diags d = { 0 };
	aa_buf out = AA_BUF_INIT;
	const char *file = "x;\nf() {\n  one();\n  two();\n}\n";

	(void)state;
	/* "g() {" is not among the removed lines: the elision has no anchor */
	assert_int_equal(apply_hunk(file, elided_hunk, 1, &out, &d), -1);
	assert_int_equal(d.nerrors, 1);
	assert_string_equal(d.v[0].input, "answer.md");
	assert_int_equal(d.v[0].line, 9);
	assert_non_null(strstr(d.v[0].msg, "cannot be resolved"));
	aa_diags_free(&d);
	/* without the mark the line is content */
	assert_int_equal(apply_hunk(file, elided_hunk, 0, &out, &d), 0);
	assert_string_equal(out.ptr, "x;\ng() {\n  // ... existing code ...\n}\n");
	aa_buf_free(&out);
	aa_diags_free(&d);
}

static const char *const anchored_hunk[] = {
	"-f() {", "-  one();", "-  two();", "-}",
	"+f() {", "+  // ... existing code ...", "+  two();", "+  three();", "+}", NULL
};

static void test_hunk_elision_stands_for_removed_lines(void **state)
{
	aa_diags d = { 0 };
	aa_buf out = AA_BUF_INIT;

	(void)state;
	assert_int_equal(apply_hunk("x;\nf() {\n  one();\n  two();\n}\n",
				    anchored_hunk, 1, &out, &d), 0);
	assert_string_equal(out.ptr, "x;\nf() {\n  one();\n  two();\n  three();\n}\n");
	assert_int_equal(d.nerrors, 0);
	aa_buf_free(&out);
	aa_diags_free(&d);
}

/* An elide op whose one elision has no anchor in the file. */
static int run_elide(aa_content_at at, int may_be_content, aa_buf *out, aa_diags *d)
{
	static const char content[] = "g() {\n  // ... existing code ...\n}\n";
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_edit_ctx cx = { 0 };
	aa_pos pos = { "answer.md", 10 };
	const char *why = NULL;
	aa_op *op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	int rc;

	op->path = aa_strdup("f.js");
	op->edit_kind = AA_EDIT_ELIDE;
	op->content = aa_strdup(content);
	op->content_len = strlen(content);
	op->content_at = at;
	op->elisions_may_be_content = may_be_content;
	cx.path = "f.js";
	cx.diags = d;
	assert_int_equal(aa_text_decode(&t, "f() {\n  one();\n}\n", 17, &why), 0);
	rc = aa_engine_of(op->edit_kind)->apply(&t, op, &cx);
	if (!rc)
		assert_int_equal(aa_text_encode(&t, out), 0);
	aa_text_free(&t);
	aa_edit_ctx_release(&cx);
	aa_changeset_free(&cs);
	return rc;
}

/* Where content lines are and whether an elision may be content: op facts, not formats. */
static void test_elide_facts_of_the_op(void **state)
{
	static const struct { aa_content_at at; long line; } cases[] = {
		{ AA_CONTENT_AT_POS, 11 },
		{ AA_CONTENT_AFTER_POS, 12 },
		{ AA_CONTENT_NO_LINES, 10 },
	};
	aa_diags d = { 0 };
	aa_buf out = AA_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		assert_int_equal(run_elide(cases[i].at, 0, &out, &d), -1);
		assert_int_equal(d.nerrors, 1);
		assert_int_equal(d.v[0].line, cases[i].line);
		assert_non_null(strstr(d.v[0].msg, "cannot be resolved"));
		aa_diags_free(&d);
	}
	assert_int_equal(run_elide(AA_CONTENT_AFTER_POS, 1, &out, &d), 0);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].level, AA_DIAG_WARNING);
	assert_non_null(strstr(d.v[0].msg, "written as it stands"));
	assert_string_equal(out.ptr, "g() {\n  // ... existing code ...\n}\n");
	aa_buf_free(&out);
	aa_diags_free(&d);
}

static void nth(const void *arg, size_t i, const char **s, size_t *len)
{
	*s = ((const char *const *)arg)[i];
	*len = strlen(*s);
}

/* The explainer's pieces every engine words its misses with (explain.c). */
static void test_explain_likest_line(void **state)
{
	static const char *const lines[] = {
		"int x = 1;", "return total + 1; x", "return total;", "zzz"
	};
	aa_buf b = AA_BUF_INIT;
	size_t best = 9, score = 0, prefix = 0;

	(void)state;
	assert_int_equal(aa_line_likeness("return sum;", 11, "return total;", 13,
					  &prefix), 8);
	assert_int_equal(prefix, 7);
	/* the first of the most alike; "from" skips lines */
	assert_int_equal(aa_likest_line(nth, lines, 0, 4, "return total;", 13,
					&best, &score, &prefix), 1);
	assert_int_equal(best, 2);
	assert_int_equal(score, 13);
	assert_int_equal(aa_likest_line(nth, lines, 3, 4, "return total;", 13,
					&best, &score, NULL), 0);
	assert_int_equal(aa_explain_differs(&b, "a\tb", 3, "find text", "ab", 2), 0);
	assert_string_equal(b.ptr, "\"a\\tb\" where the find text has \"ab\"");
	aa_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind_has_one_engine),
		cmocka_unit_test(test_table_applies_the_kind),
		cmocka_unit_test(test_clone_by_kind),
		cmocka_unit_test(test_hunk_elisions_resolved_by_the_engine),
		cmocka_unit_test(test_hunk_elision_stands_for_removed_lines),
		cmocka_unit_test(test_elide_facts_of_the_op),
		cmocka_unit_test(test_explain_likest_line),
	};
	return AA_RUN_TESTS(tests);
}
