/*
 * Unit tests of the shared "already applied" rule (src/edit_applied.c,
 * include/aiapply/applied.h): an edit whose new side covers the place
 * where its old side is located is applied there; the same lines
 * elsewhere do not count.
 */
#include <stdlib.h>

#include "unit.h"
#include "aiapply/applied.h"

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
	};

	return AA_RUN_TESTS(tests);
}
