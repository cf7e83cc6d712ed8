/* Unit tests of the find/replace engine (src/edit/replace.c). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "unit.h"
#include "edit/edit.h"

typedef struct spec {
	const char *find;
	const char *replace;
	int all;
} spec;

typedef struct run {
	aa_diags d;
	aa_edit_ctx cx;
	aa_buf out;
	int rc;
} run;

/* Decodes `file`, applies the replacements in order, encodes the result. */
static void apply(run *r, const char *file, size_t len, const spec *sp, size_t n)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_pos pos = { "answer.md", 7 };
	const char *why = NULL;
	aa_op *op;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->cx.path = "f.txt";
	r->cx.diags = &r->d;
	op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	assert_non_null(op);
	op->edit_kind = AA_EDIT_REPLACEMENTS;
	for (i = 0; i < n; i++) {
		aa_pos rp = { "answer.md", 10 + (long)i };
		aa_repl *rep = aa_op_add_repl(op, rp);

		assert_non_null(rep);
		rep->find_len = strlen(sp[i].find);
		rep->find = aa_strndup(sp[i].find, rep->find_len);
		rep->replace_len = strlen(sp[i].replace);
		rep->replace = aa_strndup(sp[i].replace, rep->replace_len);
		rep->all = sp[i].all;
	}
	assert_int_equal(aa_text_decode(&t, file, len, &why), 0);
	r->rc = aa_edit_replacements(&t, op, &r->cx);
	if (r->rc == 0)
		assert_int_equal(aa_text_encode(&t, &r->out), 0);
	aa_text_free(&t);
	aa_changeset_free(&cs);
}

static void run_free(run *r)
{
	aa_diags_free(&r->d);
	aa_edit_ctx_release(&r->cx);
	aa_buf_free(&r->out);
}

static void assert_out(const run *r, const char *want)
{
	assert_int_equal(r->rc, 0);
	assert_non_null(r->out.ptr);
	assert_int_equal(r->out.len, strlen(want));
	assert_memory_equal(r->out.ptr, want, strlen(want));
}

static size_t count_level(const aa_diags *d, aa_diag_level level)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->v[i].level == level;
	return n;
}

/* The message of the first diagnostic of `level` (fails when none). */
static const char *msg_of(const aa_diags *d, aa_diag_level level)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].level == level)
			return d->v[i].msg;
	fail_msg("no diagnostic of level %d", (int)level);
	return "";
}

#define APPLY(r, file, ...) do { \
	const spec sp_[] = { __VA_ARGS__ }; \
	apply((r), (file), strlen(file), sp_, sizeof(sp_) / sizeof(*sp_)); \
} while (0)

static void test_once_single(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "int main(void)\n{\n\tOldMethod();\n}\n",
	      { "OldMethod()", "NewMethod()", 0 });
	assert_out(&r, "int main(void)\n{\n\tNewMethod();\n}\n");
	assert_int_equal(r.d.n, 0);
	assert_int_equal(r.cx.nlandings, 1);
	assert_int_equal(r.cx.landings[0].line, 3);
	assert_int_equal(r.cx.landings[0].how, AA_HOW_CONTENT);
	assert_int_equal(r.cx.landings[0].pos.line, 10);
	assert_int_equal(r.cx.applied, 1);
	run_free(&r);
}

static void test_once_several_refused(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\nx = 1\nb\nx = 1\nx = 1\n", { "x = 1", "x = 2", 0 });
	assert_int_equal(r.rc, -1);
	assert_int_equal(count_level(&r.d, AA_DIAG_WARNING), 0);
	assert_string_equal(msg_of(&r.d, AA_DIAG_ERROR),
			    "replacement 1: limit \"once\" but find matches 3 "
			    "places (lines 2, 4, 5); make find name one place, "
			    "or use limit \"all\"");
	assert_int_equal(r.cx.nlandings, 0);
	run_free(&r);
	/* overlapping matches are places too; a long list is cut */
	APPLY(&r, "aaa\n", { "aa", "b", 0 });
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(msg_of(&r.d, AA_DIAG_ERROR), "2 places (lines 1)"));
	run_free(&r);
	APPLY(&r, "x\nx\nx\nx\nx\nx\nx\nx\n", { "x", "y", 0 });
	assert_non_null(strstr(msg_of(&r.d, AA_DIAG_ERROR),
			       "8 places (lines 1, 2, 3, 4, 5, 6, ...)"));
	run_free(&r);
}

static void test_all(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a-a-a\nb\naa\n", { "a", "xy", 1 });
	assert_out(&r, "xy-xy-xy\nb\nxyxy\n");
	assert_int_equal(count_level(&r.d, AA_DIAG_WARNING), 0);
	assert_int_equal(r.cx.nlandings, 1);
	assert_int_equal(r.cx.landings[0].line, 1);
	run_free(&r);
}

/* "all" is non-overlapping, left to right: "aaa" holds one "aa". */
static void test_all_non_overlapping(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "aaa\n", { "aa", "b", 1 });
	assert_out(&r, "ba\n");
	run_free(&r);
}

static void test_all_many_lines(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "k=1\nv\nk=1\r\nv\nk=1", { "k=1\nv", "k=2\nw\nz", 1 });
	/* matched breaks keep their own terminator; the extra one gets LF */
	assert_out(&r, "k=2\nw\nz\nk=2\r\nw\nz\nk=1");
	run_free(&r);
}

static void test_not_found(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "void run(void)\n{\n\tstart_engine(1);\n}\n",
	      { "start_engine(2);", "stop();", 0 });
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.d.nerrors, 1);
	assert_int_equal(r.d.v[0].line, 10);
	assert_string_equal(r.d.v[0].path, "f.txt");
	assert_non_null(strstr(r.d.v[0].msg, "find text not found: \"start_engine(2);\""));
	assert_non_null(strstr(r.d.v[0].msg, "closest is line 3"));
	assert_non_null(strstr(r.d.v[0].msg, "column 14"));
	run_free(&r);
}

static void test_not_found_multiline_names_the_differing_line(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "if (x) {\n    a();\n    b();\n}\n",
	      { "if (x) {\n    a();\n    c();\n", "", 0 });
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(r.d.v[0].msg, "(first of 3 lines)"));
	assert_non_null(strstr(r.d.v[0].msg, "line 3 is \"    b();\" where the find text has \"c();\""));
	run_free(&r);
}

static void test_not_found_whitespace_only(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "x\n  foo  \n  bar\n", { "foo\nbar", "baz", 0 });
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(r.d.v[0].msg, "lines 2-3 match when whitespace is ignored"));
	run_free(&r);
}

static void test_not_found_one_line_whitespace(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\n\tint  x;\n", { "int  x; ", "int y;", 0 });
	assert_int_equal(r.rc, -1);
	assert_string_equal(r.d.v[0].msg, "replacement 1: find text not found: "
			    "\"int  x; \"; line 2 matches when whitespace is ignored");
	run_free(&r);
}

static void test_not_found_empty_file(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "", { "x", "y", 0 });
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.d.nerrors, 1);
	run_free(&r);
}

/* A later failure fails the whole op, even after earlier successes. */
static void test_second_not_found_fails(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "one\ntwo\n", { "one", "1", 0 }, { "three", "3", 0 });
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(r.d.v[0].msg, "replacement 2:"));
	assert_int_equal(r.d.v[0].line, 11);
	run_free(&r);
}

static void test_already_applied(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "void NewMethod()\n", { "void OldMethod()", "void NewMethod()", 0 });
	assert_out(&r, "void NewMethod()\n");
	assert_int_equal(r.d.nerrors, 0);
	assert_int_equal(count_level(&r.d, AA_DIAG_NOTE), 1);
	assert_int_equal(r.cx.nlandings, 1);
	assert_int_equal(r.cx.landings[0].how, AA_HOW_ALREADY_APPLIED);
	assert_int_equal(r.cx.landings[0].line, 1);
	assert_int_equal(r.cx.skipped, 1);
	assert_int_equal(r.cx.applied, 0);
	run_free(&r);
}

/* The replace text found twice is not proof: not found is an error. */
static void test_result_twice_is_not_applied(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "new\nnew\n", { "old", "new", 0 });
	assert_int_equal(r.rc, -1);
	run_free(&r);
}

static void test_empty_replace_not_found_is_error(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\n", { "gone", "", 0 });
	assert_int_equal(r.rc, -1);
	run_free(&r);
}

/* replace contains find: a second run must not apply it again. */
static void test_replace_containing_find_is_idempotent(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "call(foo)\n", { "foo", "foo, bar", 0 });
	assert_out(&r, "call(foo, bar)\n");
	run_free(&r);
	APPLY(&r, "call(foo, bar)\n", { "foo", "foo, bar", 0 });
	assert_out(&r, "call(foo, bar)\n");
	assert_int_equal(r.cx.landings[0].how, AA_HOW_ALREADY_APPLIED);
	run_free(&r);
	/*
	 * "once" with two places: the result stands at one of them only,
	 * so it is applied (the other is the file's own: an answer that
	 * meant it would have been refused as ambiguous in the first place)
	 */
	APPLY(&r, "call(foo, bar)\nfoo\n", { "foo", "foo, bar", 0 });
	assert_int_equal(r.rc, 0);
	assert_out(&r, "call(foo, bar)\nfoo\n");
	assert_int_equal(r.cx.landings[0].how, AA_HOW_ALREADY_APPLIED);
	run_free(&r);
	/* the result at two places, a third bare: ambiguous, refused */
	APPLY(&r, "call(foo, bar)\nfoo\nx(foo, bar)\n", { "foo", "foo, bar", 0 });
	assert_int_equal(r.rc, -1);
	assert_non_null(strstr(msg_of(&r.d, AA_DIAG_ERROR), "3 places (lines 1, 2, 3)"));
	run_free(&r);
	/* "all": applied when every place is covered ... */
	APPLY(&r, "f(foo, bar)\ng(foo, bar)\n", { "foo", "foo, bar", 1 });
	assert_out(&r, "f(foo, bar)\ng(foo, bar)\n");
	assert_int_equal(r.cx.landings[0].how, AA_HOW_ALREADY_APPLIED);
	run_free(&r);
	/* ... else every place is replaced, as the first time */
	APPLY(&r, "f(foo, bar)\ng(foo)\n", { "foo", "foo, bar", 1 });
	assert_out(&r, "f(foo, bar, bar)\ng(foo, bar)\n");
	run_free(&r);
	APPLY(&r, "call(foo, bar)\nfoo()\n", { "foo()", "foo(), bar", 0 });
	assert_out(&r, "call(foo, bar)\nfoo(), bar\n");
	run_free(&r);
}

static void test_crlf_file(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\r\nb\r\nc\r\n", { "a\nb", "x\ny\nz", 0 });
	assert_out(&r, "x\r\ny\r\nz\r\nc\r\n");
	run_free(&r);
	/* a find written with CRLF matches too */
	APPLY(&r, "a\r\nb\r\nc\r\n", { "b\r\nc", "B\r\nC", 0 });
	assert_out(&r, "a\r\nB\r\nC\r\n");
	run_free(&r);
}

static void test_mixed_endings_kept(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\nb\r\nc\nd\r\n", { "b\nc", "B\nC", 0 });
	assert_out(&r, "a\nB\r\nC\nd\r\n");
	run_free(&r);
}

static void test_multiline_find_deletes_lines(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\nb\nc\nd\n", { "b\nc\n", "", 0 });
	assert_out(&r, "a\nd\n");
	assert_int_equal(r.cx.landings[0].line, 2);
	run_free(&r);
}

static void test_removed_break_joins_lines(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\r\nb\r\n", { "a\n", "x", 0 });
	assert_out(&r, "xb\r\n");
	run_free(&r);
}

static void test_find_spans_end_without_newline(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\nb\nc", { "b\nc", "B\nC", 0 });
	assert_out(&r, "a\nB\nC");
	run_free(&r);
	/* adding the final newline */
	APPLY(&r, "a\nb", { "b", "b\n", 0 });
	assert_out(&r, "a\nb\n");
	run_free(&r);
	/* find with a final break does not match a file without one */
	APPLY(&r, "a\nb", { "b\n", "c\n", 0 });
	assert_int_equal(r.rc, -1);
	run_free(&r);
	/* removing everything */
	APPLY(&r, "a\nb", { "a\nb", "", 0 });
	assert_out(&r, "");
	run_free(&r);
}

static void test_in_order_dependency(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "alpha gamma\nrest\n",
	      { "alpha", "beta", 0 }, { "beta gamma\n", "delta\n", 0 });
	assert_out(&r, "delta\nrest\n");
	assert_int_equal(r.cx.nlandings, 2);
	assert_int_equal(r.cx.applied, 2);
	run_free(&r);
}

static void test_utf16_file(void **state)
{
	/* "a\r\nb\r\n" in UTF-16LE with a BOM */
	static const char in[] = "\xff\xfe" "a\0\r\0\n\0b\0\r\0\n\0";
	static const char want[] = "\xff\xfe" "a\0\r\0\n\0\xe9\0\r\0\n\0";
	const spec sp[] = { { "b", "\xc3\xa9", 0 } };
	run r;

	(void)state;
	apply(&r, in, sizeof(in) - 1, sp, 1);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.out.len, sizeof(want) - 1);
	assert_memory_equal(r.out.ptr, want, sizeof(want) - 1);
	run_free(&r);
}

static void test_empty_find_is_error(void **state)
{
	run r;

	(void)state;
	APPLY(&r, "a\n", { "", "b", 0 });
	assert_int_equal(r.rc, -1);
	run_free(&r);
}

/* 10 MB, one replacement near the end, then "all" with 500k matches. */
static void test_large_file_is_fast(void **state)
{
	const size_t nlines = 500000;
	aa_buf big = AA_BUF_INIT, want = AA_BUF_INIT;
	const spec one[] = { { "line 499998 padding", "changed", 0 } };
	const spec all[] = { { "padding", "p", 1 } };
	clock_t t0;
	size_t i;
	run r;

	(void)state;
	for (i = 0; i < nlines; i++)
		assert_int_equal(aa_buf_printf(&big, "line %zu padding padding\n", i), 0);
	assert_true(big.len > 10 * 1000 * 1000);
	t0 = clock();
	apply(&r, big.ptr, big.len, one, 1);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.out.len, big.len - strlen("line 499998 padding") + strlen("changed"));
	assert_non_null(strstr(r.out.ptr, "\nchanged padding\nline 499999 "));
	assert_int_equal(r.cx.landings[0].line, 499999);
	run_free(&r);

	apply(&r, big.ptr, big.len, all, 1);
	assert_int_equal(r.rc, 0);
	for (i = 0; i < nlines; i++)
		assert_int_equal(aa_buf_printf(&want, "line %zu p p\n", i), 0);
	assert_int_equal(r.out.len, want.len);
	assert_memory_equal(r.out.ptr, want.ptr, want.len);
	run_free(&r);
	/* generous: quadratic behaviour would take minutes */
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 20.0);
	aa_buf_free(&big);
	aa_buf_free(&want);
}

/* ---------- differential test against a naive string model ---------- */

static size_t naive_count(const char *h, const char *n, int overlapping)
{
	size_t c = 0, nl = strlen(n);
	const char *p = h;

	while ((p = strstr(p, n)) != NULL) {
		c++;
		p += overlapping ? 1 : nl;
	}
	return c;
}

/*
 * "Already applied" with the find text in the file: every place of the
 * find that an occurrence of the replace text covers (starts at or
 * before it, ends at or after its end). Limit "all": all covered;
 * "once": one covered and all covered or every covering occurrence
 * the same one.
 */
static int naive_applied(const char *text, const spec *sp)
{
	size_t fl = strlen(sp->find), rl = strlen(sp->replace), n = 0, covered = 0;
	const char *p, *q, *place = NULL;
	int one_place = 1;

	if (!strstr(sp->replace, sp->find))
		return 0;
	for (p = strstr(text, sp->find); p; p = strstr(p + 1, sp->find)) {
		int hit = 0;

		n++;
		for (q = strstr(text, sp->replace); q; q = strstr(q + 1, sp->replace))
			if (q <= p && q + rl >= p + fl) {
				hit = 1;
				if (place && place != q)
					one_place = 0;
				place = q;
			}
		covered += hit;
	}
	if (sp->all)
		return covered == n;
	return covered && (covered == n || one_place);
}

/*
 * The expected result on a "\n"-only string, or NULL for an error:
 * SPEC's rules written the slow, obvious way.
 */
static char *naive_replace(const char *text, const spec *sp)
{
	size_t fl = strlen(sp->find), rl = strlen(sp->replace);
	const char *first = strstr(text, sp->find), *p;
	aa_buf out = AA_BUF_INIT;

	if (!first)
		return rl && naive_count(text, sp->replace, 1) == 1 ? strdup(text)
								       : NULL;
	if (naive_applied(text, sp))
		return strdup(text);
	if (!sp->all && naive_count(text, sp->find, 1) > 1)
		return NULL;  /* "once" needs one place */
	p = text;
	while (first) {
		aa_buf_put(&out, p, (size_t)(first - p));
		aa_buf_put(&out, sp->replace, rl);
		p = first + fl;
		first = sp->all ? strstr(p, sp->find) : NULL;
	}
	aa_buf_puts(&out, p);
	return aa_buf_detach(&out);
}

static void random_string(unsigned *seed, char *buf, size_t max)
{
	size_t i, n;

	*seed = *seed * 1103515245u + 12345u;
	n = (*seed >> 16) % max;
	for (i = 0; i < n; i++) {
		*seed = *seed * 1103515245u + 12345u;
		buf[i] = "aab\n"[(*seed >> 16) % 4];
	}
	buf[n] = '\0';
}

static char *to_crlf(const char *s)
{
	aa_buf b = AA_BUF_INIT;

	for (; *s; s++)
		aa_buf_puts(&b, *s == '\n' ? "\r\n" : (char[]){ *s, 0 });
	return aa_buf_detach(&b);
}

static void test_random_against_naive_model(void **state)
{
	unsigned seed = 42;
	char text[40], find[6], repl[6];
	size_t k;

	(void)state;
	for (k = 0; k < 20000; k++) {
		spec sp = { find, repl, 0 };
		char *want, *in;
		int crlf = k % 2;
		run r;

		random_string(&seed, text, sizeof(text));
		do
			random_string(&seed, find, sizeof(find));
		while (!*find);
		random_string(&seed, repl, sizeof(repl));
		sp.all = (seed >> 8) & 1;
		want = naive_replace(text, &sp);
		/* CRLF everywhere: same result with every break as CRLF */
		in = crlf ? to_crlf(text) : strdup(text);
		apply(&r, in, strlen(in), &sp, 1);
		if (!want) {
			assert_int_equal(r.rc, -1);
		} else {
			/* a file without any break has LF as its dominant */
			char *w = crlf && strchr(text, '\n') ? to_crlf(want) : strdup(want);

			if (r.rc != 0 || r.out.len != strlen(w) || memcmp(r.out.ptr, w, r.out.len))
				fail_msg("text \"%s\" find \"%s\" replace \"%s\" all %d crlf %d: "
					 "got \"%s\" want \"%s\"", text, find, repl, sp.all,
					 crlf, r.out.ptr ? r.out.ptr : "(error)", w);
			free(w);
		}
		run_free(&r);
		free(want);
		free(in);
	}
}

/* A needle that almost matches everywhere stays linear. */
static void test_adversarial_search(void **state)
{
	size_t n = 4u * 1024 * 1024, m = 4096;
	char *text = malloc(n + 1), *find = malloc(m + 1);
	spec sp;
	run r;

	(void)state;
	assert_non_null(text);
	assert_non_null(find);
	memset(text, 'a', n);
	text[n] = '\0';
	memset(find, 'a', m);
	find[m - 1] = 'b';
	find[m] = '\0';
	sp.find = find;
	sp.replace = "x";
	sp.all = 0;
	apply(&r, text, n, &sp, 1);
	assert_int_equal(r.rc, -1);
	run_free(&r);
	free(text);
	free(find);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_once_single),
		cmocka_unit_test(test_once_several_refused),
		cmocka_unit_test(test_all),
		cmocka_unit_test(test_all_non_overlapping),
		cmocka_unit_test(test_all_many_lines),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_not_found_multiline_names_the_differing_line),
		cmocka_unit_test(test_not_found_whitespace_only),
		cmocka_unit_test(test_not_found_one_line_whitespace),
		cmocka_unit_test(test_not_found_empty_file),
		cmocka_unit_test(test_second_not_found_fails),
		cmocka_unit_test(test_already_applied),
		cmocka_unit_test(test_result_twice_is_not_applied),
		cmocka_unit_test(test_empty_replace_not_found_is_error),
		cmocka_unit_test(test_replace_containing_find_is_idempotent),
		cmocka_unit_test(test_crlf_file),
		cmocka_unit_test(test_mixed_endings_kept),
		cmocka_unit_test(test_multiline_find_deletes_lines),
		cmocka_unit_test(test_removed_break_joins_lines),
		cmocka_unit_test(test_find_spans_end_without_newline),
		cmocka_unit_test(test_in_order_dependency),
		cmocka_unit_test(test_utf16_file),
		cmocka_unit_test(test_empty_find_is_error),
		cmocka_unit_test(test_large_file_is_fast),
		cmocka_unit_test(test_random_against_naive_model),
		cmocka_unit_test(test_adversarial_search),
	};
	return AA_RUN_TESTS(tests);
}
