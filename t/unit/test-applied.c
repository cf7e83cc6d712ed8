/*
 * Unit tests of the shared "already applied" rule (src/edit/applied.c,
 * src/edit/applied.h): an edit whose new side covers the place
 * where its old side is located is applied there; the same lines
 * elsewhere do not count.
 */
#include <stdlib.h>

#include "unit.h"
#include "edit/applied.h"
#include "edit/edit.h"

/* Lines of `text` split at '\n' (records point into text). */
typedef struct lines {
	aa_lrec *v;
	size_t n;
} lines;

static lines mk(const char *text)
{
	lines l = { NULL, 0 };
	const char *p = text, *end = text + strlen(text);

	l.v = malloc((strlen(text) + 1) * sizeof(*l.v));
	assert_non_null(l.v);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		aa_lrec_set(&l.v[l.n++], p, len, nl ? AA_EOL_LF : AA_EOL_NONE);
		p = nl ? nl + 1 : end;
	}
	return l;
}

static aa_lview view1(const lines *t)
{
	aa_lview v = { { t->v, NULL }, { t->n, 0 } };

	return v;
}

/* Where `post` covers [at, at + npre) of `text`: count, first start in *s. */
static long covering(const char *text, size_t at, size_t npre,
		     const char *post, aa_ws lv, size_t *s, size_t max)
{
	lines t = mk(text), p = mk(post);
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(p.v, p.n);
	long n = aa_applied_covering(&v, at, npre, &nd, lv, s, max);

	aa_needle_release(&nd);
	free(t.v);
	free(p.v);
	return n;
}

static void test_append_and_prepend(void **state)
{
	size_t s[2];

	(void)state;
	/* SEARCH "a\nb", REPLACE "a\nb\nX": applied once, "a b" is still at 0 */
	assert_int_equal(covering("a\nb\nX\nc\n", 0, 2, "a\nb\nX\n", AA_WS_EXACT, s, 1), 1);
	assert_int_equal(s[0], 0);
	/* prepended: the old side moved down by the added line */
	assert_int_equal(covering("X\na\nb\nc\n", 1, 2, "X\na\nb\n", AA_WS_EXACT, s, 1), 1);
	assert_int_equal(s[0], 0);
	/* the old side kept in the middle of the new one */
	assert_int_equal(covering("p\nX\na\nY\nq\n", 2, 1, "X\na\nY\n", AA_WS_EXACT, s, 1), 1);
	assert_int_equal(s[0], 1);
}

static void test_not_applied(void **state)
{
	size_t s[2];

	(void)state;
	/* the added line is not there yet */
	assert_int_equal(covering("a\nb\nc\n", 0, 2, "a\nb\nX\n", AA_WS_EXACT, s, 1), 0);
	/* one line of the new side differs */
	assert_int_equal(covering("a\nb\nY\n", 0, 2, "a\nb\nX\n", AA_WS_EXACT, s, 1), 0);
	/* a new side shorter than the old side never covers it */
	assert_int_equal(covering("a\nb\n", 0, 2, "a\n", AA_WS_EXACT, s, 1), 0);
	/* an empty new side neither */
	assert_int_equal(covering("a\nb\n", 0, 0, "", AA_WS_EXACT, s, 1), 0);
	/* a place past the end: nothing */
	assert_int_equal(covering("a\n", 1, 1, "a\nb\n", AA_WS_EXACT, s, 1), 0);
}

/*
 * A second insertion of lines the file already holds elsewhere still
 * lands: the new side must stand over the located place, not anywhere.
 */
static void test_result_elsewhere_does_not_count(void **state)
{
	size_t s[2];

	(void)state;
	/* "a b" at 0 (located), "a b X" at 4: 0 is not covered */
	assert_int_equal(covering("a\nb\nc\nd\na\nb\nX\n", 0, 2, "a\nb\nX\n",
				  AA_WS_EXACT, s, 1), 0);
	/* the added line right after, but not after the located lines */
	assert_int_equal(covering("a\nb\nc\nX\n", 0, 2, "a\nb\nX\n", AA_WS_EXACT, s, 1), 0);
}

/* An empty old side is a gap: covered by the new side before, after or around it. */
static void test_gap(void **state)
{
	size_t s[2];

	(void)state;
	/* at the end, the new side ending the text */
	assert_int_equal(covering("p\nq\nX\nY\n", 4, 0, "X\nY\n", AA_WS_EXACT, s, 1), 1);
	assert_int_equal(s[0], 2);
	/* right after the gap */
	assert_int_equal(covering("p\nX\nY\nq\n", 1, 0, "X\nY\n", AA_WS_EXACT, s, 1), 1);
	assert_int_equal(s[0], 1);
	/* around it */
	assert_int_equal(covering("p\nX\nY\nq\n", 2, 0, "X\nY\n", AA_WS_EXACT, s, 1), 1);
	/* one line away: not */
	assert_int_equal(covering("p\nX\nY\nq\n", 4, 0, "X\nY\n", AA_WS_EXACT, s, 1), 0);
	assert_int_equal(covering("p\nq\nX\nY\n", 1, 0, "X\nY\n", AA_WS_EXACT, s, 1), 0);
}

static void test_whitespace_level(void **state)
{
	size_t s[2];

	(void)state;
	/* re-indented when it landed: equal with blanks ignored only */
	assert_int_equal(covering("    a\n    X\n", 0, 1, "a\nX\n", AA_WS_EXACT, s, 1), 0);
	assert_int_equal(covering("    a\n    X\n", 0, 1, "a\nX\n", AA_WS_BOTH, s, 1), 1);
	assert_int_equal(covering("a  \nX\t\n", 0, 1, "a\nX\n", AA_WS_TRAILING, s, 1), 1);
}

/* Every covering occurrence, up to max, first first. */
static void test_periodic(void **state)
{
	size_t s[3];

	(void)state;
	assert_int_equal(covering("a\na\na\n", 1, 1, "a\na\n", AA_WS_EXACT, s, 3), 2);
	assert_int_equal(s[0], 0);
	assert_int_equal(s[1], 1);
	assert_int_equal(covering("a\na\na\n", 1, 1, "a\na\n", AA_WS_EXACT, s, 1), 1);
}

/* The view may be two segments (the part already edited and the rest). */
static void test_two_segments(void **state)
{
	lines a = mk("p\na\n"), b = mk("X\nq\n"), post = mk("a\nX\n");
	aa_lview v = { { a.v, b.v }, { a.n, b.n } };
	aa_needle nd = AA_NEEDLE_INIT(post.v, post.n);
	size_t s;

	(void)state;
	assert_int_equal(aa_applied_covering(&v, 1, 1, &nd, AA_WS_EXACT, &s, 1), 1);
	assert_int_equal(s, 1);
	/* a gap right after the new side */
	assert_int_equal(aa_applied_covering(&v, 3, 0, &nd, AA_WS_EXACT, &s, 1), 1);
	aa_needle_release(&nd);
	free(a.v);
	free(b.v);
	free(post.v);
	/* the window lies in the second segment only */
	a = mk("p\n");
	b = mk("q\nr\na\nX\n");
	post = mk("a\nX\n");
	v.seg[0] = a.v;
	v.nseg[0] = a.n;
	v.seg[1] = b.v;
	v.nseg[1] = b.n;
	nd.v = post.v;
	nd.n = post.n;
	assert_int_equal(aa_applied_covering(&v, 3, 1, &nd, AA_WS_EXACT, &s, 1), 1);
	assert_int_equal(s, 3);
	assert_int_equal(aa_applied_covering(&v, 1, 1, &nd, AA_WS_EXACT, &s, 1), 0);
	aa_needle_release(&nd);
	free(a.v);
	free(b.v);
	free(post.v);
}

static int among(const char *text, const size_t *hits, size_t n, size_t npre,
		 const char *post, size_t *start)
{
	lines t = mk(text), p = mk(post);
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(p.v, p.n);
	int r = aa_applied_among(&v, hits, n, npre, &nd, AA_WS_EXACT, start);

	aa_needle_release(&nd);
	free(t.v);
	free(p.v);
	return r;
}

/* Several places of the old side: the decision SPEC leaves to us. */
static void test_among(void **state)
{
	size_t start = 99;

	(void)state;
	/* a line doubled: both places inside the one result */
	assert_int_equal(among("S\nS\n", (size_t[]){ 0, 1 }, 2, 1, "S\nS\n", &start), 1);
	assert_int_equal(start, 0);
	/* the result at one place, the old side also bare elsewhere */
	assert_int_equal(among("S\nX\nq\nS\n", (size_t[]){ 0, 3 }, 2, 1, "S\nX\n", &start), 1);
	assert_int_equal(start, 0);
	/* ... and at the second place only */
	assert_int_equal(among("S\nq\nS\nX\n", (size_t[]){ 0, 2 }, 2, 1, "S\nX\n", &start), 1);
	assert_int_equal(start, 2);
	/* the result at every place: applied, the first named */
	assert_int_equal(among("S\nX\nS\nX\n", (size_t[]){ 0, 2 }, 2, 1, "S\nX\n", &start), 1);
	assert_int_equal(start, 0);
	/* the result at two places, a third bare: ambiguous */
	assert_int_equal(among("S\nX\nS\nX\nS\n", (size_t[]){ 0, 2, 4 }, 3, 1, "S\nX\n", &start), 0);
	/* nowhere */
	assert_int_equal(among("S\nq\nS\n", (size_t[]){ 0, 2 }, 2, 1, "S\nX\n", &start), 0);
}

static void test_bytes(void **state)
{
	const char *t = "call(foo, bar)\nfoo\n";
	size_t s[2], start;

	(void)state;
	/* aptix: find "foo", replace "foo, bar" */
	assert_int_equal(aa_applied_covering_bytes(t, strlen(t), 5, 3, "foo, bar", 8, s, 2), 1);
	assert_int_equal(s[0], 5);
	assert_int_equal(aa_applied_covering_bytes(t, strlen(t), 15, 3, "foo, bar", 8, s, 2), 0);
	/* near the ends of the text */
	assert_int_equal(aa_applied_covering_bytes("ab", 2, 0, 1, "ab", 2, s, 2), 1);
	assert_int_equal(aa_applied_covering_bytes("ab", 2, 1, 1, "ab", 2, s, 2), 1);
	assert_int_equal(aa_applied_covering_bytes("ab", 2, 1, 1, "abc", 3, s, 2), 0);
	/* periodic: "aa" covers "a" at 1 from 0 and from 1 */
	assert_int_equal(aa_applied_covering_bytes("aaa", 3, 1, 1, "aa", 2, s, 2), 2);
	assert_int_equal(s[1], 1);
	/* several places: one covered, the result at one place */
	assert_int_equal(aa_applied_among_bytes(t, strlen(t), (size_t[]){ 5, 15 }, 2, 3,
						"foo, bar", 8, &start), 1);
	assert_int_equal(start, 5);
	assert_int_equal(aa_applied_among_bytes("foo\nfoo\n", 8, (size_t[]){ 0, 4 }, 2, 3,
						"foo, bar", 8, &start), 0);
}

/* ---- the engines that ask the rule ---------------------------------------- */

/*
 * One hunk (or v4a chunk) for the engines: `body` one line per hunk
 * line, its kind then its text. hint 0: bare ("@@"); `section`: v4a
 * anchors.
 */
typedef struct eng {
	aa_diags d;
	aa_edit_ctx cx;
	aa_buf out;
	int rc;
} eng;

static void run_engine(eng *e, const char *file, const char *body, long hint,
		       aa_edit_kind kind, const char *section, int strict)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_pos pos = { "answer.md", 3 };
	const char *p = body, *end = body + strlen(body), *why = NULL;
	aa_op *op;
	aa_hunk *h;

	memset(e, 0, sizeof(*e));
	e->cx.path = "f.txt";
	e->cx.diags = &e->d;
	e->cx.strict = strict;
	op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	assert_non_null(op);
	op->path = aa_strdup("f.txt");
	op->edit_kind = kind;
	op->strict = strict;
	h = aa_op_add_hunk(op, pos);
	assert_non_null(h);
	h->has_hint = hint > 0;
	h->old_start = h->new_start = hint;
	h->section = section ? aa_strdup(section) : NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		assert_int_equal(aa_hunk_add_line(h, *p, p + 1, len - 1), 0);
		h->old_count += *p != '+';
		h->new_count += *p != '-';
		p = nl ? nl + 1 : end;
	}
	assert_int_equal(aa_text_decode(&t, file, strlen(file), &why), 0);
	e->rc = kind == AA_EDIT_V4A ? aa_edit_v4a(&t, op, &e->cx)
				    : aa_edit_hunks(&t, op, &e->cx);
	if (!e->rc)
		assert_int_equal(aa_text_encode(&t, &e->out), 0);
	aa_text_free(&t);
	aa_changeset_free(&cs);
}

static void eng_free(eng *e)
{
	aa_diags_free(&e->d);
	aa_edit_ctx_release(&e->cx);
	aa_buf_free(&e->out);
}

/*
 * Applies the hunk to `file`, expecting `once`, then to `once` again,
 * expecting no change and an "already applied" landing.
 */
static void twice(const char *file, const char *body, long hint,
		  aa_edit_kind kind, const char *section, const char *once)
{
	eng e;
	char *first;

	run_engine(&e, file, body, hint, kind, section, 0);
	assert_int_equal(e.rc, 0);
	assert_int_equal(e.out.len, strlen(once));
	assert_memory_equal(e.out.ptr, once, e.out.len);
	assert_int_equal(e.cx.skipped, 0);
	first = aa_strndup(e.out.ptr, e.out.len);
	eng_free(&e);
	run_engine(&e, first, body, hint, kind, section, 0);
	assert_int_equal(e.rc, 0);
	assert_int_equal(e.out.len, strlen(once));
	assert_memory_equal(e.out.ptr, once, e.out.len);
	assert_int_equal(e.cx.nlandings, 1);
	assert_int_equal(e.cx.landings[0].how, AA_HOW_ALREADY_APPLIED);
	eng_free(&e);
	free(first);
}

static void test_hunks_twice(void **state)
{
	(void)state;
	/* SEARCH/REPLACE append idiom: SEARCH removed, REPLACE added */
	twice("x = 1\ny = 2\n", "-y = 2\n+y = 2\n+z = 3\n", 0, AA_EDIT_HUNKS, NULL,
	      "x = 1\ny = 2\nz = 3\n");
	/* a numbered hunk adding after its last context line */
	twice("a\nb\nc\nd\n", " a\n b\n+B\n c\n d\n", 1, AA_EDIT_HUNKS, NULL,
	      "a\nb\nB\nc\nd\n");
	/* a bare hunk prepending */
	twice("a\nb\nc\n", "+top\n a\n b\n", 0, AA_EDIT_HUNKS, NULL, "top\na\nb\nc\n");
	/* a bare hunk appending mid-file (its context at the first place) */
	twice("k\nv\nw\n", " k\n+K\n", 0, AA_EDIT_HUNKS, NULL, "k\nK\nv\nw\n");
	/*
	 * a numbered insertion with short context that also stands
	 * elsewhere: the second time its result is at the header's line
	 */
	twice("a\nb\nc\na\nb\n", " a\n+X\n b\n", 1, AA_EDIT_HUNKS, NULL,
	      "a\nX\nb\nc\na\nb\n");
	/* context-free insertion after the last line: the second time at the old end */
	twice("a\nb\n", "+c\n", 2, AA_EDIT_HUNKS, NULL, "a\nb\nc\n");
}

static void test_v4a_twice(void **state)
{
	const char *m = "class A:\n    def a(self):\n        return 1\n\nclass B:\n    pass\n";

	(void)state;
	/* a chunk adding after its last context line, under an anchor */
	twice(m, "     def a(self):\n         return 1\n+\n+    def a2(self):\n+        return 2\n",
	      0, AA_EDIT_V4A, "class A:",
	      "class A:\n    def a(self):\n        return 1\n\n    def a2(self):\n"
	      "        return 2\n\nclass B:\n    pass\n");
	/* a chunk of added lines only: at the end, once */
	twice("a\n", "+b\n+c\n", 0, AA_EDIT_V4A, NULL, "a\nb\nc\n");
}

/* A hunk whose sides have as many lines is never "applied" by covering. */
static void test_equal_sides_not_covered(void **state)
{
	eng e;

	(void)state;
	/* a no-op hunk lands as one (it changes nothing) */
	run_engine(&e, "a\nb\n", " a\n-b\n+b\n", 1, AA_EDIT_HUNKS, NULL, 0);
	assert_int_equal(e.rc, 0);
	assert_int_not_equal(e.cx.landings[0].how, AA_HOW_ALREADY_APPLIED);
	eng_free(&e);
	/* trailing blanks fixed: found ignoring them, still applied */
	run_engine(&e, "a\nb\t\n", " a\n-b  \n+b\n", 1, AA_EDIT_HUNKS, NULL, 0);
	assert_int_equal(e.rc, 0);
	assert_string_equal(e.out.ptr, "a\nb\n");
	eng_free(&e);
}

/* The same lines elsewhere do not stop a genuine second insertion. */
static void test_hunk_lands_when_result_elsewhere(void **state)
{
	eng e;

	(void)state;
	run_engine(&e, "k\nv\nq\nk\nK\n", " k\n v\n+K\n", 0, AA_EDIT_HUNKS, NULL, 0);
	assert_int_equal(e.rc, 0);
	assert_string_equal(e.out.ptr, "k\nv\nK\nq\nk\nK\n");
	assert_int_equal(e.cx.skipped, 0);
	eng_free(&e);
}

/* Two places of the old lines: the result at one decides; at none, refused. */
static void test_hunk_two_places(void **state)
{
	eng e;

	(void)state;
	run_engine(&e, "S\nX\nq\nS\nr\n", "-S\n+S\n+X\n", 0, AA_EDIT_HUNKS, NULL, 0);
	assert_int_equal(e.rc, 0);
	assert_string_equal(e.out.ptr, "S\nX\nq\nS\nr\n");
	assert_int_equal(e.cx.landings[0].how, AA_HOW_ALREADY_APPLIED);
	assert_int_equal(e.cx.landings[0].line, 1);
	eng_free(&e);
	run_engine(&e, "S\nq\nS\nr\n", "-S\n+S\n+X\n", 0, AA_EDIT_HUNKS, NULL, 0);
	assert_int_equal(e.rc, -1);
	assert_non_null(strstr(e.d.v[0].msg, "ambiguous"));
	eng_free(&e);
}

/*
 * A hunk adding lines and the final newline, on a file that has the
 * lines but not the newline: already applied (applying it again would
 * add the lines twice).
 */
static void test_hunk_final_newline(void **state)
{
	aa_changeset cs = AA_CHANGESET_INIT;
	aa_text t = AA_TEXT_INIT;
	aa_pos pos = { "answer.md", 3 };
	const char *why = NULL;
	aa_edit_ctx cx;
	aa_diags d = AA_DIAGS_INIT;
	aa_buf out = AA_BUF_INIT;
	aa_op *op = aa_changeset_add(&cs, AA_OP_EDIT, pos);
	aa_hunk *h;

	(void)state;
	memset(&cx, 0, sizeof(cx));
	cx.path = "f.txt";
	cx.diags = &d;
	op->path = aa_strdup("f.txt");
	op->edit_kind = AA_EDIT_HUNKS;
	h = aa_op_add_hunk(op, pos);
	h->old_no_eol = 1;
	assert_int_equal(aa_hunk_add_line(h, ' ', "a", 1), 0);
	assert_int_equal(aa_hunk_add_line(h, '-', "b", 1), 0);
	assert_int_equal(aa_hunk_add_line(h, '+', "b", 1), 0);
	assert_int_equal(aa_hunk_add_line(h, '+', "c", 1), 0);
	h->old_count = 2;
	h->new_count = 3;
	assert_int_equal(aa_text_decode(&t, "a\nb\nc", 5, &why), 0);
	assert_int_equal(aa_edit_hunks(&t, op, &cx), 0);
	assert_int_equal(aa_text_encode(&t, &out), 0);
	assert_int_equal(cx.skipped, 1);
	assert_int_equal(out.len, 5);
	assert_memory_equal(out.ptr, "a\nb\nc", 5);
	aa_text_free(&t);
	aa_buf_free(&out);
	aa_edit_ctx_release(&cx);
	aa_diags_free(&d);
	aa_changeset_free(&cs);
}

/*
 * --strict is seed 004 in full: no "already applied" (the ladder skips
 * this hunk: its new side stands once; strict refuses it).
 */
static void test_strict_unchanged(void **state)
{
	eng e;

	(void)state;
	run_engine(&e, "a\nb\nB\nc\n", " a\n b\n+B\n c\n", 1, AA_EDIT_HUNKS, NULL, 1);
	assert_int_equal(e.rc, -1);
	eng_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_and_prepend),
		cmocka_unit_test(test_not_applied),
		cmocka_unit_test(test_result_elsewhere_does_not_count),
		cmocka_unit_test(test_gap),
		cmocka_unit_test(test_whitespace_level),
		cmocka_unit_test(test_periodic),
		cmocka_unit_test(test_two_segments),
		cmocka_unit_test(test_among),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_hunks_twice),
		cmocka_unit_test(test_v4a_twice),
		cmocka_unit_test(test_equal_sides_not_covered),
		cmocka_unit_test(test_hunk_lands_when_result_elsewhere),
		cmocka_unit_test(test_hunk_two_places),
		cmocka_unit_test(test_hunk_final_newline),
		cmocka_unit_test(test_strict_unchanged),
	};

	return AA_RUN_TESTS(tests);
}
