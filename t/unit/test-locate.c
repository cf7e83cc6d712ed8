/*
 * Unit tests of the locator engine (src/edit/locate.c, src/edit/locate.h):
 * whitespace spans and line equality at every level, and the searches
 * (at a place, every match, nearest a hint, closest region).
 */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "edit/locate.h"

/* ---- helpers ------------------------------------------------------------ */

/*
 * Lines of `text` split at '\n' (a final '\n' ends the last line, it
 * does not start an empty one). The records point into `text`.
 */
typedef struct lines {
	aa_lrec *v;
	size_t n;
} lines;

static lines mk(const char *text)
{
	lines l = { NULL, 0 };
	size_t cap = 8;
	const char *p = text, *end = text + strlen(text);

	l.v = malloc(cap * sizeof(*l.v));
	assert_non_null(l.v);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (l.n == cap) {
			cap *= 2;
			l.v = realloc(l.v, cap * sizeof(*l.v));
			assert_non_null(l.v);
		}
		aa_lrec_set(&l.v[l.n++], p, len, nl ? AA_EOL_LF : AA_EOL_NONE);
		p = nl ? nl + 1 : end;
	}
	return l;
}

/* `n` lines, every one `fill` but those listed in `at` (set to `word`). */
static lines mk_filled(size_t n, const char *fill, const char *word,
		       const size_t *at, size_t nat)
{
	lines l;
	size_t i, k;

	l.n = n;
	l.v = malloc((n ? n : 1) * sizeof(*l.v));
	assert_non_null(l.v);
	for (i = 0; i < n; i++)
		aa_lrec_set(&l.v[i], fill, strlen(fill), AA_EOL_LF);
	for (k = 0; k < nat; k++) {
		assert_true(at[k] < n);
		aa_lrec_set(&l.v[at[k]], word, strlen(word), AA_EOL_LF);
	}
	return l;
}

static void lines_free(lines *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static aa_lview view1(const lines *l)
{
	aa_lview v;

	v.seg[0] = l->v;
	v.nseg[0] = l->n;
	v.seg[1] = NULL;
	v.nseg[1] = 0;
	return v;
}

static aa_lview view2(const lines *a, const lines *b)
{
	aa_lview v;

	v.seg[0] = a->v;
	v.nseg[0] = a->n;
	v.seg[1] = b->v;
	v.nseg[1] = b->n;
	return v;
}

static void span(const char *s, aa_ws lv, size_t want_off, size_t want_n)
{
	size_t off = 12345, n = 12345;

	aa_ws_span(s, strlen(s), lv, &off, &n);
	if (off != want_off || n != want_n)
		fail_msg("span of \"%s\" at level %d: got (%zu, %zu), want (%zu, %zu)",
			 s, (int)lv, off, n, want_off, want_n);
}

/* aa_lrec_eq of two strings at level lv (both orders must agree). */
static int eq(const char *a, const char *b, aa_ws lv)
{
	aa_lrec ra, rb;
	int r1, r2;

	aa_lrec_set(&ra, a, strlen(a), AA_EOL_LF);
	aa_lrec_set(&rb, b, strlen(b), AA_EOL_LF);
	r1 = aa_lrec_eq(&ra, &rb, lv);
	r2 = aa_lrec_eq(&rb, &ra, lv);
	assert_int_equal(r1, r2);
	return r1;
}

/* aa_locate_all on a one-segment text, with room for 16 hits. */
static long all(const char *text, const char *needle, aa_ws lv, size_t *hits)
{
	lines t = mk(text), n = mk(needle);
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(n.v, n.n);
	long r = aa_locate_all(&v, &nd, lv, hits, 16);

	aa_needle_release(&nd);
	lines_free(&t);
	lines_free(&n);
	return r;
}

/* ---- whitespace spans ---------------------------------------------------- */

static void test_ws_span_levels(void **state)
{
	(void)state;
	span("  a b \t", AA_WS_EXACT, 0, 7);
	span("  a b \t", AA_WS_TRAILING, 0, 5);
	span("  a b \t", AA_WS_BOTH, 2, 3);
	/* inner blanks always count */
	span("a  b", AA_WS_EXACT, 0, 4);
	span("a  b", AA_WS_TRAILING, 0, 4);
	span("a  b", AA_WS_BOTH, 0, 4);
	/* tabs lead */
	span("\t\tx", AA_WS_TRAILING, 0, 3);
	span("\t\tx", AA_WS_BOTH, 2, 1);
	/* a carriage return at the end is trailing whitespace */
	span("x\r", AA_WS_EXACT, 0, 2);
	span("x\r", AA_WS_TRAILING, 0, 1);
	span("x\r", AA_WS_BOTH, 0, 1);
	/* form feed / vertical tab are whitespace too */
	span("\fx\v", AA_WS_TRAILING, 0, 2);
	span("\fx\v", AA_WS_BOTH, 1, 1);
}

static void test_ws_span_blank_and_empty(void **state)
{
	(void)state;
	span("", AA_WS_EXACT, 0, 0);
	span("", AA_WS_TRAILING, 0, 0);
	span("", AA_WS_BOTH, 0, 0);
	span(" \t\r ", AA_WS_EXACT, 0, 4);
	span(" \t\r ", AA_WS_TRAILING, 0, 0);
	/* nothing is left: the (empty) span must not run past the line */
	{
		size_t off = 99, n = 99;

		aa_ws_span(" \t\r ", 4, AA_WS_BOTH, &off, &n);
		assert_int_equal(n, 0);
		assert_true(off <= 4);
	}
	/* only the given length counts, not what follows it */
	{
		size_t off = 99, n = 99;

		aa_ws_span("ab  cd", 4, AA_WS_TRAILING, &off, &n);
		assert_int_equal(off, 0);
		assert_int_equal(n, 2);
	}
}

static void test_line_is_blank(void **state)
{
	(void)state;
	assert_true(aa_line_is_blank("", 0));
	assert_true(aa_line_is_blank(" \t\r", 3));
	assert_false(aa_line_is_blank("  x ", 4));
	assert_false(aa_line_is_blank("x", 1));
	/* the length bounds it */
	assert_true(aa_line_is_blank("  x", 2));
}

/* ---- line records and equality ------------------------------------------- */

static void test_lrec_set_fields(void **state)
{
	const char *s = "hello world";
	aa_lrec r;

	(void)state;
	aa_lrec_set(&r, s, 5, AA_EOL_CRLF);
	assert_ptr_equal(r.s, s);
	assert_int_equal(r.len, 5);
	assert_int_equal(r.eol, AA_EOL_CRLF);
}

static void test_eq_exact(void **state)
{
	(void)state;
	assert_true(eq("abc", "abc", AA_WS_EXACT));
	assert_true(eq("", "", AA_WS_EXACT));
	assert_false(eq("abc", "abd", AA_WS_EXACT));
	assert_false(eq("abc", "ab", AA_WS_EXACT));
	assert_false(eq("abc ", "abc", AA_WS_EXACT));
	assert_false(eq(" abc", "abc", AA_WS_EXACT));
	/* a needle line's trailing CR is its own CRLF ending, not text */
	assert_true(eq("abc\r", "abc", AA_WS_EXACT));
	assert_false(eq("abc\r ", "abc", AA_WS_EXACT));
	assert_false(eq("\tx", "    x", AA_WS_EXACT));
	assert_false(eq("", " ", AA_WS_EXACT));
}

static void test_eq_trailing(void **state)
{
	(void)state;
	assert_true(eq("abc", "abc", AA_WS_TRAILING));
	assert_true(eq("abc  \t", "abc", AA_WS_TRAILING));
	assert_true(eq("abc\r", "abc", AA_WS_TRAILING));
	assert_true(eq("abc \r", "abc\t", AA_WS_TRAILING));
	/* empty and blank-only lines are equal */
	assert_true(eq("", "   ", AA_WS_TRAILING));
	assert_true(eq("\t", "\r", AA_WS_TRAILING));
	/* leading blanks still count */
	assert_false(eq("  abc", "abc", AA_WS_TRAILING));
	assert_false(eq("\tabc", "    abc", AA_WS_TRAILING));
	/* inner blanks still count */
	assert_false(eq("a b", "a  b", AA_WS_TRAILING));
	assert_false(eq("a b", "ab", AA_WS_TRAILING));
	assert_false(eq("abc", "abd", AA_WS_TRAILING));
}

static void test_eq_both(void **state)
{
	(void)state;
	assert_true(eq("  abc", "abc", AA_WS_BOTH));
	assert_true(eq("\tabc", "    abc  ", AA_WS_BOTH));
	assert_true(eq("\t\tif (x) {\r", "        if (x) {", AA_WS_BOTH));
	assert_true(eq("", " \t ", AA_WS_BOTH));
	assert_true(eq("", "", AA_WS_BOTH));
	/* inner blanks still count */
	assert_false(eq("a b", "a\tb", AA_WS_BOTH));
	assert_false(eq("  a b", "a  b", AA_WS_BOTH));
	assert_false(eq("x", "", AA_WS_BOTH));
	assert_false(eq("  x", "  y", AA_WS_BOTH));
}

/* The line terminator is not part of the line's text. */
static void test_eq_ignores_eol(void **state)
{
	aa_lrec a, b;

	(void)state;
	aa_lrec_set(&a, "same", 4, AA_EOL_CRLF);
	aa_lrec_set(&b, "same", 4, AA_EOL_NONE);
	assert_true(aa_lrec_eq(&a, &b, AA_WS_EXACT));
	assert_true(aa_lrec_eq(&a, &b, AA_WS_TRAILING));
	assert_true(aa_lrec_eq(&a, &b, AA_WS_BOTH));
}

/* Bytes past a record's length are not compared. */
static void test_eq_uses_length(void **state)
{
	aa_lrec a, b;

	(void)state;
	aa_lrec_set(&a, "abcX", 3, AA_EOL_LF);
	aa_lrec_set(&b, "abcY", 3, AA_EOL_LF);
	assert_true(aa_lrec_eq(&a, &b, AA_WS_EXACT));
	aa_lrec_set(&b, "abcY", 4, AA_EOL_LF);
	assert_false(aa_lrec_eq(&a, &b, AA_WS_EXACT));
}

/* ---- aa_locate_at --------------------------------------------------------- */

static void test_locate_at(void **state)
{
	lines t = mk("a\nb\nc\nd\n"), bc = mk("b\nc\n"), cd = mk("c\nd\n"),
	      de = mk("d\ne\n"), big = mk("a\nb\nc\nd\ne\n"), d = mk("d\n");
	aa_lview v = view1(&t);
	aa_needle nbc = AA_NEEDLE_INIT(bc.v, bc.n), ncd = AA_NEEDLE_INIT(cd.v, cd.n),
		  nde = AA_NEEDLE_INIT(de.v, de.n), nbig = AA_NEEDLE_INIT(big.v, big.n),
		  nd = AA_NEEDLE_INIT(d.v, d.n), nempty = AA_NEEDLE_INIT(t.v, 0);

	(void)state;
	assert_int_equal(aa_locate_at(&v, 1, &nbc, AA_WS_EXACT), 1);
	assert_int_equal(aa_locate_at(&v, 0, &nbc, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, 2, &nbc, AA_WS_EXACT), 0);
	/* ending exactly at the end of the text */
	assert_int_equal(aa_locate_at(&v, 2, &ncd, AA_WS_EXACT), 1);
	assert_int_equal(aa_locate_at(&v, 3, &nd, AA_WS_EXACT), 1);
	/* running past the end */
	assert_int_equal(aa_locate_at(&v, 3, &nde, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, 3, &ncd, AA_WS_EXACT), 0);
	/* at the end, and beyond it */
	assert_int_equal(aa_locate_at(&v, 4, &nd, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, 5, &nd, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, (size_t)-1, &nd, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, (size_t)-1, &ncd, AA_WS_BOTH), 0);
	/* a needle longer than the text */
	assert_int_equal(aa_locate_at(&v, 0, &nbig, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, 0, &nbig, AA_WS_BOTH), 0);
	/* an empty needle matches nowhere */
	assert_int_equal(aa_locate_at(&v, 0, &nempty, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, 2, &nempty, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, 4, &nempty, AA_WS_EXACT), 0);
	lines_free(&t);
	lines_free(&bc);
	lines_free(&cd);
	lines_free(&de);
	lines_free(&big);
	lines_free(&d);
}

static void test_locate_at_levels(void **state)
{
	lines t = mk("x\n  foo(); \nbar();\t\n"), n = mk("foo();\nbar();\n"),
	      nt = mk("  foo();\nbar();\n");
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(n.v, n.n), ndt = AA_NEEDLE_INIT(nt.v, nt.n);

	(void)state;
	assert_int_equal(aa_locate_at(&v, 1, &nd, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, 1, &nd, AA_WS_TRAILING), 0);
	assert_int_equal(aa_locate_at(&v, 1, &nd, AA_WS_BOTH), 1);
	assert_int_equal(aa_locate_at(&v, 1, &ndt, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, 1, &ndt, AA_WS_TRAILING), 1);
	assert_int_equal(aa_locate_at(&v, 1, &ndt, AA_WS_BOTH), 1);
	assert_int_equal(aa_locate_at(&v, 0, &ndt, AA_WS_BOTH), 0);
	lines_free(&t);
	lines_free(&n);
	lines_free(&nt);
}

/* An empty text: nothing matches anywhere. */
/* aa_locate_first: the first `max` matches, overlapping ones included. */
static void test_locate_first(void **state)
{
	lines t = mk("a\nb\na\nb\na\nb\nx\n"), n = mk("a\nb\na\n");
	lines ws = mk("  a\nb \n\ta\n");
	aa_lview v = view1(&t), vw = view1(&ws);
	aa_needle nd = AA_NEEDLE_INIT(n.v, n.n);
	size_t hits[4] = { 99, 99, 99, 99 };

	(void)state;
	assert_int_equal(aa_locate_first(&v, &nd, AA_WS_EXACT, hits, 0), 0);
	assert_int_equal(hits[0], 99);
	assert_int_equal(aa_locate_first(&v, &nd, AA_WS_EXACT, hits, 1), 1);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 99);
	/* "a b a" at 0 and (overlapping) at 2; only two exist */
	assert_int_equal(aa_locate_first(&v, &nd, AA_WS_EXACT, hits, 4), 2);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 2);
	assert_int_equal(hits[2], 99);
	/* blank-tolerant levels */
	assert_int_equal(aa_locate_first(&vw, &nd, AA_WS_EXACT, hits, 4), 0);
	assert_int_equal(aa_locate_first(&vw, &nd, AA_WS_TRAILING, hits, 4), 0);
	assert_int_equal(aa_locate_first(&vw, &nd, AA_WS_BOTH, hits, 4), 1);
	assert_int_equal(hits[0], 0);
	aa_needle_release(&nd);
	lines_free(&t);
	lines_free(&n);
	lines_free(&ws);
}

static void test_empty_text(void **state)
{
	lines t = { NULL, 0 }, n = mk("a\n");
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(n.v, n.n);
	size_t hits[2] = { 77, 77 }, at[2] = { 77, 77 };
	long pos = 0;

	(void)state;
	assert_int_equal(aa_locate_at(&v, 0, &nd, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_EXACT, hits, 2), 0);
	assert_int_equal(aa_locate_nearest(&v, &nd, AA_WS_EXACT, 0, at), 0);
	assert_int_equal(aa_locate_closest(&v, &nd, 0, &pos), 0);
	assert_int_equal(hits[0], 77);
	aa_needle_release(&nd);
	lines_free(&n);
}

/* ---- aa_locate_all -------------------------------------------------------- */

static void test_all_positions(void **state)
{
	size_t hits[16];

	(void)state;
	assert_int_equal(all("x\na\nx\na\nx\n", "a\n", AA_WS_EXACT, hits), 2);
	assert_int_equal(hits[0], 1);
	assert_int_equal(hits[1], 3);
	assert_int_equal(all("x\na\nx\na\nx\n", "x\n", AA_WS_EXACT, hits), 3);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 2);
	assert_int_equal(hits[2], 4);
	assert_int_equal(all("x\na\nx\n", "y\n", AA_WS_EXACT, hits), 0);
	/* multi-line */
	assert_int_equal(all("a\nb\nc\na\nb\nd\na\nb\nc\n", "a\nb\nc\n",
			     AA_WS_EXACT, hits), 2);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 6);
	/* the whole text */
	assert_int_equal(all("a\nb\n", "a\nb\n", AA_WS_EXACT, hits), 1);
	assert_int_equal(hits[0], 0);
	/* longer than the text */
	assert_int_equal(all("a\nb\n", "a\nb\nc\n", AA_WS_EXACT, hits), 0);
}

static void test_all_overlapping(void **state)
{
	size_t hits[16];

	(void)state;
	assert_int_equal(all("a\na\na\n", "a\na\n", AA_WS_EXACT, hits), 2);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 1);
	assert_int_equal(all("a\nb\na\nb\na\n", "a\nb\na\n", AA_WS_EXACT, hits), 2);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 2);
	assert_int_equal(all("a\na\na\na\na\n", "a\na\na\n", AA_WS_EXACT, hits), 3);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 1);
	assert_int_equal(hits[2], 2);
}

/* Partial matches that fall apart must not hide a real one (KMP resume). */
static void test_all_partial_restart(void **state)
{
	size_t hits[16];

	(void)state;
	assert_int_equal(all("a\na\na\na\nb\n", "a\na\na\nb\n", AA_WS_EXACT, hits), 1);
	assert_int_equal(hits[0], 1);
	assert_int_equal(all("a\nb\na\nb\na\nc\n", "a\nb\na\nc\n", AA_WS_EXACT, hits), 1);
	assert_int_equal(hits[0], 2);
	assert_int_equal(all("a\na\nb\na\na\na\nb\n", "a\na\nb\n", AA_WS_EXACT, hits), 2);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 4);
	assert_int_equal(all("x\ny\nx\nx\ny\nz\n", "x\ny\nz\n", AA_WS_EXACT, hits), 1);
	assert_int_equal(hits[0], 3);
}

static void test_all_max_cap(void **state)
{
	lines t = mk("a\nx\na\na\nx\na\na\n"), n = mk("a\n");
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(n.v, n.n);
	size_t hits[4] = { 99, 99, 99, 99 };

	(void)state;
	/* five matches, two stored, the rest untouched */
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_EXACT, hits, 2), 5);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 2);
	assert_int_equal(hits[2], 99);
	assert_int_equal(hits[3], 99);
	/* no room: still counted */
	hits[0] = 99;
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_EXACT, hits, 0), 5);
	assert_int_equal(hits[0], 99);
	/* exactly enough room */
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_EXACT, hits, 4), 5);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 2);
	assert_int_equal(hits[2], 3);
	assert_int_equal(hits[3], 5);
	aa_needle_release(&nd);
	lines_free(&t);
	lines_free(&n);
}

static void test_all_levels(void **state)
{
	size_t hits[16];
	const char *text = "a \na\n  a\nb\n\ta\t\n";

	(void)state;
	assert_int_equal(all(text, "a\n", AA_WS_EXACT, hits), 1);
	assert_int_equal(hits[0], 1);
	assert_int_equal(all(text, "a\n", AA_WS_TRAILING, hits), 2);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 1);
	assert_int_equal(all(text, "a\n", AA_WS_BOTH, hits), 4);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 1);
	assert_int_equal(hits[2], 2);
	assert_int_equal(hits[3], 4);
	/* the needle's own blanks are ignored the same way */
	assert_int_equal(all(text, "  a  \n", AA_WS_BOTH, hits), 4);
	assert_int_equal(all(text, "  a  \n", AA_WS_EXACT, hits), 0);
	/* blank lines in the needle match empty and blank lines */
	assert_int_equal(all("x\n\ny\n  \nx\n \t\ny\n", "x\n\ny\n", AA_WS_TRAILING, hits), 2);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 4);
	assert_int_equal(all("x\n\ny\n  \nx\n \t\ny\n", "x\n\ny\n", AA_WS_EXACT, hits), 1);
	assert_int_equal(hits[0], 0);
}

/* One needle searched at several levels (its tables are per level). */
static void test_all_needle_reused_across_levels(void **state)
{
	lines t = mk("p\nq \np\nq\n  p\n  q\n"), n = mk("p\nq\n");
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(n.v, n.n);
	size_t hits[4];

	(void)state;
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_EXACT, hits, 4), 1);
	assert_int_equal(hits[0], 2);
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_BOTH, hits, 4), 3);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 2);
	assert_int_equal(hits[2], 4);
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_TRAILING, hits, 4), 2);
	assert_int_equal(hits[0], 0);
	assert_int_equal(hits[1], 2);
	/* again at the first level: same answer */
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_EXACT, hits, 4), 1);
	assert_int_equal(hits[0], 2);
	aa_needle_release(&nd);
	/* released twice is harmless, and it can be searched again */
	aa_needle_release(&nd);
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_EXACT, hits, 4), 1);
	aa_needle_release(&nd);
	lines_free(&t);
	lines_free(&n);
}

static void test_all_empty_needle(void **state)
{
	lines t = mk("a\nb\n");
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(t.v, 0);
	size_t hits[2] = { 99, 99 };

	(void)state;
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_EXACT, hits, 2), 0);
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_BOTH, hits, 2), 0);
	assert_int_equal(hits[0], 99);
	aa_needle_release(&nd);
	lines_free(&t);
}

/* ---- two segments --------------------------------------------------------- */

static void test_two_segments(void **state)
{
	/* separate allocations: the seam is not contiguous memory */
	lines s0 = mk("a\nb\n"), s1 = mk("c\nd\n"), bc = mk("b\nc\n"),
	      abcd = mk("a\nb\nc\nd\n"), d = mk("d\n"), a = mk("a\n");
	aa_lview v = view2(&s0, &s1);
	aa_needle nbc = AA_NEEDLE_INIT(bc.v, bc.n), nabcd = AA_NEEDLE_INIT(abcd.v, abcd.n),
		  nd = AA_NEEDLE_INIT(d.v, d.n), na = AA_NEEDLE_INIT(a.v, a.n);
	size_t hits[4], at[2];

	(void)state;
	assert_int_equal(aa_lview_len(&v), 4);
	assert_ptr_equal(aa_lview_at(&v, 1), &s0.v[1]);
	assert_ptr_equal(aa_lview_at(&v, 2), &s1.v[0]);
	assert_int_equal(aa_locate_at(&v, 1, &nbc, AA_WS_EXACT), 1);
	assert_int_equal(aa_locate_at(&v, 0, &nabcd, AA_WS_EXACT), 1);
	assert_int_equal(aa_locate_at(&v, 3, &nd, AA_WS_EXACT), 1);
	assert_int_equal(aa_locate_all(&v, &nbc, AA_WS_EXACT, hits, 4), 1);
	assert_int_equal(hits[0], 1);
	assert_int_equal(aa_locate_all(&v, &nabcd, AA_WS_EXACT, hits, 4), 1);
	assert_int_equal(hits[0], 0);
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_EXACT, hits, 4), 1);
	assert_int_equal(hits[0], 3);
	assert_int_equal(aa_locate_nearest(&v, &nbc, AA_WS_EXACT, 3, at), 1);
	assert_int_equal(at[0], 1);
	/* first segment empty */
	v = view2(&(lines){ NULL, 0 }, &s0);
	assert_int_equal(aa_locate_all(&v, &na, AA_WS_EXACT, hits, 4), 1);
	assert_int_equal(hits[0], 0);
	assert_int_equal(aa_locate_at(&v, 0, &na, AA_WS_EXACT), 1);
	/* second segment empty */
	v = view2(&s1, &(lines){ NULL, 0 });
	assert_int_equal(aa_locate_all(&v, &nd, AA_WS_EXACT, hits, 4), 1);
	assert_int_equal(hits[0], 1);
	assert_int_equal(aa_locate_at(&v, 2, &nd, AA_WS_EXACT), 0);
	aa_needle_release(&nbc);
	aa_needle_release(&nabcd);
	aa_needle_release(&nd);
	aa_needle_release(&na);
	lines_free(&s0);
	lines_free(&s1);
	lines_free(&bc);
	lines_free(&abcd);
	lines_free(&d);
	lines_free(&a);
}

/* Overlapping matches across the seam, and a partial match broken by it. */
static void test_two_segments_overlap_at_seam(void **state)
{
	lines s0 = mk("x\na\n"), s1 = mk("a\na\ny\n"), aa = mk("a\na\n"),
	      s2 = mk("p\nq\n"), s3 = mk("p\nq\nr\n"), pqr = mk("p\nq\nr\n");
	aa_lview v = view2(&s0, &s1);
	aa_needle naa = AA_NEEDLE_INIT(aa.v, aa.n), npqr = AA_NEEDLE_INIT(pqr.v, pqr.n);
	size_t hits[4];

	(void)state;
	assert_int_equal(aa_locate_all(&v, &naa, AA_WS_EXACT, hits, 4), 2);
	assert_int_equal(hits[0], 1);
	assert_int_equal(hits[1], 2);
	/* "p q" | "p q r": only the second half holds "p q r" */
	v = view2(&s2, &s3);
	assert_int_equal(aa_locate_all(&v, &npqr, AA_WS_EXACT, hits, 4), 1);
	assert_int_equal(hits[0], 2);
	assert_int_equal(aa_locate_at(&v, 0, &npqr, AA_WS_EXACT), 0);
	assert_int_equal(aa_locate_at(&v, 2, &npqr, AA_WS_EXACT), 1);
	aa_needle_release(&naa);
	aa_needle_release(&npqr);
	lines_free(&s0);
	lines_free(&s1);
	lines_free(&aa);
	lines_free(&s2);
	lines_free(&s3);
	lines_free(&pqr);
}

/* ---- aa_locate_nearest ---------------------------------------------------- */

/* aa_locate_nearest for a one-line needle `word` in a filled text. */
static int nearest_in(size_t n, const size_t *at, size_t nat, size_t hint,
		      size_t out[2])
{
	lines t = mk_filled(n, "fill", "word", at, nat);
	aa_lrec w;
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(&w, 1);
	int r;

	aa_lrec_set(&w, "word", 4, AA_EOL_LF);
	out[0] = out[1] = 424242;
	r = aa_locate_nearest(&v, &nd, AA_WS_EXACT, hint, out);
	aa_needle_release(&nd);
	lines_free(&t);
	return r;
}

static void test_nearest_at_hint(void **state)
{
	size_t m[] = { 2, 5, 8 }, at[2];

	(void)state;
	assert_int_equal(nearest_in(12, m, 3, 5, at), 1);
	assert_int_equal(at[0], 5);
	assert_int_equal(nearest_in(12, m, 3, 2, at), 1);
	assert_int_equal(at[0], 2);
	assert_int_equal(nearest_in(12, m, 3, 8, at), 1);
	assert_int_equal(at[0], 8);
}

static void test_nearest_before_or_after(void **state)
{
	size_t m[] = { 2, 9 }, at[2];

	(void)state;
	/* 2 is 2 lines before, 9 is 5 after */
	assert_int_equal(nearest_in(12, m, 2, 4, at), 1);
	assert_int_equal(at[0], 2);
	/* 2 is 5 before, 9 is 2 after */
	assert_int_equal(nearest_in(12, m, 2, 7, at), 1);
	assert_int_equal(at[0], 9);
	/* only matches before the hint / after it */
	assert_int_equal(nearest_in(12, m, 1, 11, at), 1);
	assert_int_equal(at[0], 2);
	assert_int_equal(nearest_in(12, m + 1, 1, 0, at), 1);
	assert_int_equal(at[0], 9);
	/* by one line */
	assert_int_equal(nearest_in(12, m, 2, 5, at), 1);
	assert_int_equal(at[0], 2);
	assert_int_equal(nearest_in(12, m, 2, 6, at), 1);
	assert_int_equal(at[0], 9);
}

static void test_nearest_tie(void **state)
{
	size_t m[] = { 2, 8 }, m3[] = { 0, 4, 10 }, at[2];

	(void)state;
	assert_int_equal(nearest_in(12, m, 2, 5, at), 2);
	assert_int_equal(at[0], 2);
	assert_int_equal(at[1], 8);
	/* a third match farther away changes nothing */
	assert_int_equal(nearest_in(12, m3, 3, 7, at), 2);
	assert_int_equal(at[0], 4);
	assert_int_equal(at[1], 10);
}

static void test_nearest_none(void **state)
{
	size_t at[2];

	(void)state;
	assert_int_equal(nearest_in(12, NULL, 0, 5, at), 0);
	assert_int_equal(nearest_in(3000, NULL, 0, 1500, at), 0);
	assert_int_equal(nearest_in(3000, NULL, 0, 0, at), 0);
}

static void test_nearest_hint_beyond_end(void **state)
{
	size_t m[] = { 1, 7 }, last[] = { 3, 11 }, at[2];

	(void)state;
	assert_int_equal(nearest_in(12, m, 2, 100, at), 1);
	assert_int_equal(at[0], 7);
	assert_int_equal(nearest_in(12, m, 2, 12, at), 1);
	assert_int_equal(at[0], 7);
	assert_int_equal(nearest_in(12, m, 2, (size_t)-1, at), 1);
	assert_int_equal(at[0], 7);
	assert_int_equal(nearest_in(12, last, 2, 5000, at), 1);
	assert_int_equal(at[0], 11);
}

/* A multi-line needle: the hint clamps to the last place it fits. */
static void test_nearest_multiline_clamp(void **state)
{
	lines t = mk("a\nb\nx\na\nb\n"), n = mk("a\nb\n");
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(n.v, n.n);
	size_t at[2];

	(void)state;
	assert_int_equal(aa_locate_nearest(&v, &nd, AA_WS_EXACT, 4, at), 1);
	assert_int_equal(at[0], 3);
	assert_int_equal(aa_locate_nearest(&v, &nd, AA_WS_EXACT, 99, at), 1);
	assert_int_equal(at[0], 3);
	assert_int_equal(aa_locate_nearest(&v, &nd, AA_WS_EXACT, 1, at), 1);
	assert_int_equal(at[0], 0);
	aa_needle_release(&nd);
	lines_free(&t);
	lines_free(&n);
}

static void test_nearest_levels_and_limits(void **state)
{
	lines t = mk("  a\nx\na\n"), n = mk("a\n"), big = mk("1\n2\n3\n4\n");
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(n.v, n.n), nbig = AA_NEEDLE_INIT(big.v, big.n),
		  nempty = AA_NEEDLE_INIT(n.v, 0);
	size_t at[2];

	(void)state;
	assert_int_equal(aa_locate_nearest(&v, &nd, AA_WS_EXACT, 0, at), 1);
	assert_int_equal(at[0], 2);
	assert_int_equal(aa_locate_nearest(&v, &nd, AA_WS_BOTH, 0, at), 1);
	assert_int_equal(at[0], 0);
	assert_int_equal(aa_locate_nearest(&v, &nd, AA_WS_BOTH, 1, at), 2);
	assert_int_equal(at[0], 0);
	assert_int_equal(at[1], 2);
	assert_int_equal(aa_locate_nearest(&v, &nbig, AA_WS_EXACT, 0, at), 0);
	assert_int_equal(aa_locate_nearest(&v, &nempty, AA_WS_EXACT, 0, at), 0);
	aa_needle_release(&nd);
	aa_needle_release(&nbig);
	aa_needle_release(&nempty);
	lines_free(&t);
	lines_free(&n);
	lines_free(&big);
}

/* Matches more than 1024 lines from the hint (the linear fallback). */
static void test_nearest_far(void **state)
{
	size_t before[] = { 100 }, after[] = { 4500 }, both[] = { 100, 4500 },
	       three[] = { 10, 1800, 4500 }, at[2];

	(void)state;
	assert_int_equal(nearest_in(5000, before, 1, 3000, at), 1);
	assert_int_equal(at[0], 100);
	assert_int_equal(nearest_in(5000, after, 1, 3000, at), 1);
	assert_int_equal(at[0], 4500);
	/* 2900 before, 1500 after */
	assert_int_equal(nearest_in(5000, both, 2, 3000, at), 1);
	assert_int_equal(at[0], 4500);
	/* 1400 before, 3000 after */
	assert_int_equal(nearest_in(5000, both, 2, 1500, at), 1);
	assert_int_equal(at[0], 100);
	/* 3090, 1300 before, 1400 after */
	assert_int_equal(nearest_in(5000, three, 3, 3100, at), 1);
	assert_int_equal(at[0], 1800);
	/* 3090, 1400 before, 1300 after */
	assert_int_equal(nearest_in(5000, three, 3, 3200, at), 1);
	assert_int_equal(at[0], 4500);
}

static void test_nearest_far_tie(void **state)
{
	size_t two[] = { 1000, 5000 }, three[] = { 10, 1700, 4500 }, at[2];

	(void)state;
	assert_int_equal(nearest_in(6000, two, 2, 3000, at), 2);
	assert_int_equal(at[0], 1000);
	assert_int_equal(at[1], 5000);
	/* 1400 on both sides, a third match farther */
	assert_int_equal(nearest_in(5000, three, 3, 3100, at), 2);
	assert_int_equal(at[0], 1700);
	assert_int_equal(at[1], 4500);
}

/* Around the edge of the outward scan: same answers either side of it. */
static void test_nearest_window_edge(void **state)
{
	size_t at[2];
	size_t a[] = { 2000 - 1024, 2000 + 1024 };
	size_t b[] = { 2000 - 1025, 2000 + 1025 };
	size_t c[] = { 2000 - 1024, 2000 + 1025 };
	size_t d[] = { 2000 - 1026, 2000 + 1025 };
	size_t e[] = { 2000 + 1025 };

	(void)state;
	assert_int_equal(nearest_in(4000, a, 2, 2000, at), 2);
	assert_int_equal(at[0], a[0]);
	assert_int_equal(at[1], a[1]);
	assert_int_equal(nearest_in(4000, b, 2, 2000, at), 2);
	assert_int_equal(at[0], b[0]);
	assert_int_equal(at[1], b[1]);
	assert_int_equal(nearest_in(4000, c, 2, 2000, at), 1);
	assert_int_equal(at[0], c[0]);
	assert_int_equal(nearest_in(4000, d, 2, 2000, at), 1);
	assert_int_equal(at[0], d[1]);
	assert_int_equal(nearest_in(4000, e, 1, 2000, at), 1);
	assert_int_equal(at[0], e[0]);
}

/* A far match across the seam of a two-segment view. */
static void test_nearest_far_two_segments(void **state)
{
	size_t m0[] = { 5 }, m1[] = { 1990 };
	lines s0 = mk_filled(2000, "fill", "word", m0, 1),
	      s1 = mk_filled(2000, "fill", "word", m1, 1);
	aa_lview v = view2(&s0, &s1);
	aa_lrec w;
	aa_needle nd = AA_NEEDLE_INIT(&w, 1);
	size_t at[2];

	(void)state;
	aa_lrec_set(&w, "word", 4, AA_EOL_LF);
	/* 5 and 3990; hint 1900: 1895 before, 2090 after */
	assert_int_equal(aa_locate_nearest(&v, &nd, AA_WS_EXACT, 1900, at), 1);
	assert_int_equal(at[0], 5);
	/* hint 2100: 2095 before, 1890 after */
	assert_int_equal(aa_locate_nearest(&v, &nd, AA_WS_EXACT, 2100, at), 1);
	assert_int_equal(at[0], 3990);
	aa_needle_release(&nd);
	lines_free(&s0);
	lines_free(&s1);
}

/* ---- aa_locate_closest ---------------------------------------------------- */

static long closest(const char *text, const char *needle, size_t hint, long *at)
{
	lines t = mk(text), n = mk(needle);
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(n.v, n.n);
	long r;

	*at = -999;
	r = aa_locate_closest(&v, &nd, hint, at);
	aa_needle_release(&nd);
	lines_free(&t);
	lines_free(&n);
	return r;
}

static void test_closest_most_lines(void **state)
{
	long at;

	(void)state;
	/* b, c and e line up at line 1 */
	assert_int_equal(closest("a\nb\nc\nX\ne\nf\n", "b\nc\nY\ne\n", 0, &at), 3);
	assert_int_equal(at, 1);
	/* 3 lines far away beat 2 near the hint */
	assert_int_equal(closest("p\nq\nZ\nfill\nfill\nfill\nfill\nfill\np\nq\nr\n",
				 "p\nq\nr\n", 0, &at), 3);
	assert_int_equal(at, 8);
	/* whitespace is ignored when counting */
	assert_int_equal(closest("x\n  b\nc  \nX\n", "b\nc\nd\n", 0, &at), 2);
	assert_int_equal(at, 1);
}

static void test_closest_tie_nearest_hint(void **state)
{
	const char *text = "k\nm\nX\nfill\nfill\nfill\nk\nm\nY\nfill\n";
	long at;

	(void)state;
	assert_int_equal(closest(text, "k\nm\nn\n", 0, &at), 2);
	assert_int_equal(at, 0);
	assert_int_equal(closest(text, "k\nm\nn\n", 1, &at), 2);
	assert_int_equal(at, 0);
	assert_int_equal(closest(text, "k\nm\nn\n", 5, &at), 2);
	assert_int_equal(at, 6);
	assert_int_equal(closest(text, "k\nm\nn\n", 9, &at), 2);
	assert_int_equal(at, 6);
	/* equally near both: one of the two */
	assert_int_equal(closest(text, "k\nm\nn\n", 3, &at), 2);
	assert_true(at == 0 || at == 6);
}

static void test_closest_nothing(void **state)
{
	long at;

	(void)state;
	assert_int_equal(closest("a\nb\nc\n", "x\ny\n", 1, &at), 0);
	assert_int_equal(closest("a\nb\nc\n", "", 1, &at), 0);
	assert_int_equal(closest("", "a\n", 0, &at), 0);
}

static void test_closest_overhang(void **state)
{
	long at;

	(void)state;
	/* the needle's first line would sit before the start of the text */
	assert_int_equal(closest("q\nr\ns\nt\n", "zz\nq\nr\n", 0, &at), 2);
	assert_int_equal(at, -1);
	assert_int_equal(closest("q\nr\ns\nt\n", "z1\nz2\nq\n", 0, &at), 1);
	assert_int_equal(at, -2);
	/* and past the end */
	assert_int_equal(closest("a\nb\ne\nf\n", "e\nf\ng\n", 0, &at), 2);
	assert_int_equal(at, 2);
	assert_int_equal(closest("a\nb\ne\nf\n", "f\ng\nh\n", 0, &at), 1);
	assert_int_equal(at, 3);
}

/* Repeated needle lines vote for the alignment they agree on. */
static void test_closest_repeated_lines(void **state)
{
	long at;

	(void)state;
	/* "}" twice in the needle; only at line 3 do all three agree */
	assert_int_equal(closest("}\nx\n}\nf(a)\n}\n}\n", "f(a)\n}\n}\n", 0, &at), 3);
	assert_int_equal(at, 3);
}

/* ---- differential test against a naive model ------------------------------ */

static int naive_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* SPEC's rule the slow way: strip what the level ignores, compare. */
static int naive_eq(const char *a, const char *b, aa_ws lv)
{
	size_t ab = 0, ae = strlen(a), bb = 0, be = strlen(b);

	if (lv != AA_WS_EXACT) {
		while (ae > 0 && naive_blank(a[ae - 1]))
			ae--;
		while (be > 0 && naive_blank(b[be - 1]))
			be--;
	}
	if (lv == AA_WS_BOTH) {
		while (ab < ae && naive_blank(a[ab]))
			ab++;
		while (bb < be && naive_blank(b[bb]))
			bb++;
	}
	return ae - ab == be - bb && !memcmp(a + ab, b + bb, ae - ab);
}

static int naive_at(const char *const *t, size_t n, const char *const *nd,
		    size_t m, size_t at, aa_ws lv)
{
	size_t j;

	if (!m || at + m > n)
		return 0;
	for (j = 0; j < m; j++)
		if (!naive_eq(t[at + j], nd[j], lv))
			return 0;
	return 1;
}

static unsigned rnd(unsigned *seed, unsigned mod)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) % mod;
}

typedef const char *(*pick_fn)(unsigned *seed);

static const char *pick_mixed(unsigned *seed)
{
	static const char *const alpha[] = { "a", "a ", "  a", "\ta\r", "b", "", " " };

	return alpha[rnd(seed, sizeof(alpha) / sizeof(*alpha))];
}

/* Mostly "x", rarely "y" or "y " */
static const char *pick_sparse(unsigned *seed)
{
	unsigned r = rnd(seed, 1000);

	return r == 0 ? "y" : r == 1 ? "y " : "x";
}

/* A needle starting with a rare line (then anything). */
static const char *pick_needle_sparse(unsigned *seed)
{
	return rnd(seed, 2) ? "x" : "y";
}

/*
 * A random text (split at a random seam) and needle: aa_locate_all,
 * aa_locate_at and aa_locate_nearest at every level agree with the model.
 */
static void check_random_case(unsigned *seed, size_t maxn, pick_fn text_line,
			      pick_fn needle_first, pick_fn needle_line)
{
	const char **t, *nd[4];
	size_t n = rnd(seed, (unsigned)maxn), m = 1 + rnd(seed, 4), i, split, hint;
	aa_lrec *rt, rn[4];
	lines s0, s1;
	aa_lview v;
	aa_needle needle = AA_NEEDLE_INIT(rn, m);
	size_t *hits, at[2];
	int lv;

	t = malloc((n ? n : 1) * sizeof(*t));
	rt = malloc((n ? n : 1) * sizeof(*rt));
	hits = malloc((n ? n : 1) * sizeof(*hits));
	assert_non_null(t);
	assert_non_null(rt);
	assert_non_null(hits);
	for (i = 0; i < n; i++) {
		t[i] = text_line(seed);
		aa_lrec_set(&rt[i], t[i], strlen(t[i]), AA_EOL_LF);
	}
	for (i = 0; i < m; i++) {
		nd[i] = i ? needle_line(seed) : needle_first(seed);
		aa_lrec_set(&rn[i], nd[i], strlen(nd[i]), AA_EOL_LF);
	}
	split = n ? rnd(seed, (unsigned)n + 1) : 0;
	s0.v = rt;
	s0.n = split;
	s1.v = rt + split;
	s1.n = n - split;
	v = view2(&s0, &s1);
	hint = rnd(seed, (unsigned)n + 8);
	for (lv = 0; lv < AA_WS_LEVELS; lv++) {
		size_t want = 0, best = (size_t)-1, k;
		long got = aa_locate_all(&v, &needle, (aa_ws)lv, hits, n);
		int near, want_near;

		for (i = 0; i < n; i++) {
			if (!naive_at(t, n, nd, m, i, (aa_ws)lv)) {
				assert_int_equal(aa_locate_at(&v, i, &needle, (aa_ws)lv), 0);
				continue;
			}
			if (got < 0 || want >= (size_t)got || hits[want] != i)
				fail_msg("all: level %d, split %zu: match at %zu missing", lv, split, i);
			want++;
			k = i > hint ? i - hint : hint - i;
			if (k < best)
				best = k;
			assert_int_equal(aa_locate_at(&v, i, &needle, (aa_ws)lv), 1);
		}
		assert_int_equal(got, (long)want);
		near = aa_locate_nearest(&v, &needle, (aa_ws)lv, hint, at);
		if (!want) {
			assert_int_equal(near, 0);
			continue;
		}
		want_near = (best <= hint && naive_at(t, n, nd, m, hint - best, (aa_ws)lv)) +
			    (best > 0 && naive_at(t, n, nd, m, hint + best, (aa_ws)lv));
		if (near != want_near)
			fail_msg("nearest: level %d, n %zu, hint %zu: got %d want %d",
				 lv, n, hint, near, want_near);
		if (want_near == 2) {
			assert_int_equal(at[0], hint - best);
			assert_int_equal(at[1], hint + best);
		} else {
			assert_true(at[0] == hint - best || at[0] == hint + best);
			assert_true(naive_at(t, n, nd, m, at[0], (aa_ws)lv));
		}
	}
	aa_needle_release(&needle);
	free(t);
	free(rt);
	free(hits);
}

static void test_random_against_naive_model(void **state)
{
	unsigned seed = 7;
	int k;

	(void)state;
	for (k = 0; k < 20000; k++)
		check_random_case(&seed, 30, pick_mixed, pick_mixed, pick_mixed);
}

/* Long texts with rare matches: the scan window and the linear fallback. */
static void test_random_far_against_naive_model(void **state)
{
	unsigned seed = 99;
	int k;

	(void)state;
	for (k = 0; k < 400; k++)
		check_random_case(&seed, 8000, pick_sparse, pick_needle_sparse,
				  pick_needle_sparse);
}


/* ---- the region an anchor opens (aa_scope_end) ---------------------------- */

/* aa_scope_end() of line `at` of text. */
static size_t scope_end(const char *text, size_t at)
{
	lines t = mk(text);
	aa_lview v = view1(&t);
	size_t e = aa_scope_end(&v, at);

	lines_free(&t);
	return e;
}

static void test_scope_python_class_and_method(void **state)
{
	const char *py =
		"import os\n"                 /* 0 */
		"class Writer:\n"             /* 1 */
		"    def open(self):\n"       /* 2 */
		"        self.n = 0\n"        /* 3 */
		"\n"                          /* 4 */
		"    def reset(self):\n"      /* 5 */
		"        self.n = 0\n"        /* 6 */
		"\n"                          /* 7 */
		"class Reader:\n"             /* 8 */
		"    pass\n";                 /* 9 */

	(void)state;
	/* the class: its blank lines and methods, up to the next class */
	assert_int_equal(scope_end(py, 1), 8);
	/* a method: up to the next line at its indentation */
	assert_int_equal(scope_end(py, 2), 5);
	assert_int_equal(scope_end(py, 5), 8);
	/* the last block runs to the end */
	assert_int_equal(scope_end(py, 8), 10);
	/* a line that opens no block names a place: the rest of the text */
	assert_int_equal(scope_end(py, 0), 10);
	assert_int_equal(scope_end(py, 3), 10);
	/* past the end */
	assert_int_equal(scope_end(py, 10), 10);
}

static void test_scope_braces(void **state)
{
	const char *c =
		"struct w {\n"            /* 0 */
		"\tint a;\n"               /* 1 */
		"};\n"                    /* 2 */
		"int open(void)\n"        /* 3 */
		"{\n"                     /* 4 */
		"\treturn 0;\n"            /* 5 */
		"}\n"                     /* 6 */
		"int reset(void) {\n"     /* 7 */
		"\treturn 0;\n"            /* 8 */
		"}\n";                    /* 9 */

	(void)state;
	/* the closing brace at the anchor's column belongs to the region */
	assert_int_equal(scope_end(c, 0), 3);
	/* the brace on its own line */
	assert_int_equal(scope_end(c, 3), 7);
	assert_int_equal(scope_end(c, 7), 10);
}

static void test_scope_labels_inside_braces(void **state)
{
	const char *cpp =
		"class Writer {\n"        /* 0 */
		"public:\n"               /* 1 */
		"    void open();\n"      /* 2 */
		"private:\n"              /* 3 */
		"    int n;\n"            /* 4 */
		"};\n"                    /* 5 */
		"int x;\n";               /* 6 */
	const char *sw =
		"\tswitch (c) {\n"         /* 0 */
		"\tcase 1:\n"              /* 1 */
		"\t\treturn 1;\n"          /* 2 */
		"\t} else {\n"             /* 3 */
		"\t\tx();\n"               /* 4 */
		"\t}\n"                    /* 5 */
		"}\n";                    /* 6 */
	const char *py =
		"def f():\n"              /* 0 */
		"    if x:\n"             /* 1 */
		"        y()\n"           /* 2 */
		"    }\n"                 /* 3: a lone closer at its column */
		"    z()\n";              /* 4 */

	(void)state;
	assert_int_equal(scope_end(cpp, 0), 6);
	/* "} else {" closes the block it is at the column of */
	assert_int_equal(scope_end(sw, 0), 4);
	assert_int_equal(scope_end(sw, 3), 6);
	/* a statement opens no block: the rest of the text */
	assert_int_equal(scope_end(sw, 4), 7);
	assert_int_equal(scope_end(py, 1), 4);
	assert_int_equal(scope_end(py, 0), 5);
}

static void test_scope_braces_margin_lines(void **state)
{
	const char *cpp =
		"class W {\n"             /* 0 */
		"    void f() {\n"        /* 1 */
		"#ifdef X\n"              /* 2: at the margin, inside */
		"        g();\n"          /* 3 */
		"#endif\n"                /* 4 */
		"    }\n"                 /* 5 */
		"    void h() {\n"        /* 6 */
		"        i();\n"          /* 7 */
		"};\n"                    /* 8: a closer left of it */
		"int x;\n";               /* 9 */
	const char *py =
		"    def f():\n"          /* 0 */
		"        x = 1\n"         /* 1 */
		"text = 2\n";             /* 2: no brackets, left of it */

	(void)state;
	assert_int_equal(scope_end(cpp, 1), 6);
	assert_int_equal(scope_end(cpp, 6), 8);
	assert_int_equal(scope_end(cpp, 0), 9);
	assert_int_equal(scope_end(py, 0), 2);
}

static void test_scope_tabs_and_blank_tail(void **state)
{
	const char *t =
		"\tdef f():\n"            /* 0: width 8 */
		"\t\tx()\n"                /* 1 */
		"        y()\n"           /* 2: width 8, ends it */
		"\n";
	const char *blank =
		"def f():\n"
		"\n"
		"\n";

	(void)state;
	assert_int_equal(scope_end(t, 0), 2);
	/* nothing but blank lines after it: the rest */
	assert_int_equal(scope_end(blank, 0), 3);
}

/* ---- blank-line drift (aa_locate_drift) ------------------------------------ */

struct drift_hits {
	size_t at[8], n;
	size_t stop_after;
};

static int keep_drift_hit(size_t at, void *arg)
{
	struct drift_hits *d = arg;

	if (d->n < 8)
		d->at[d->n] = at;
	d->n++;
	return d->stop_after && d->n == d->stop_after;
}

/* The places of needle `nd` in `text` at level lv (the first 8 in d->at). */
static struct drift_hits drift_in(const char *text, const char *needle, aa_ws lv,
				  size_t stop_after)
{
	lines t = mk(text), n = mk(needle);
	aa_lview v = view1(&t);
	aa_needle nd = AA_NEEDLE_INIT(n.v, n.n);
	struct drift_hits d;

	memset(&d, 0, sizeof(d));
	d.stop_after = stop_after;
	assert_int_equal(aa_locate_drift(&v, &nd, lv, keep_drift_hit, &d), 0);
	aa_needle_release(&nd);
	lines_free(&t);
	lines_free(&n);
	return d;
}

static void test_drift_blank_lines_between(void **state)
{
	struct drift_hits d;

	(void)state;
	/* the text has a blank line the needle lacks, and the reverse */
	d = drift_in("x\na\n\nb\ny\n", "a\nb\n", AA_WS_EXACT, 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.at[0], 1);
	d = drift_in("x\na\nb\ny\n", "a\n\n\nb\n", AA_WS_EXACT, 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.at[0], 1);
	/* blank lines of blanks only count as blank */
	d = drift_in("a\n \t\nb\n", "a\nb\n", AA_WS_EXACT, 0);
	assert_int_equal(d.n, 1);
	/* the place is that of the first non-blank line, leading blanks aside */
	d = drift_in("\n\na\nb\n", "\na\nb\n", AA_WS_EXACT, 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.at[0], 2);
}

static void test_drift_every_place_and_stop(void **state)
{
	struct drift_hits d;

	(void)state;
	d = drift_in("a\nb\n\na\n\nb\na\nc\n", "a\nb\n", AA_WS_EXACT, 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.at[0], 0);
	assert_int_equal(d.at[1], 3);
	/* a non-blank line between breaks a match */
	d = drift_in("a\nx\nb\n", "a\nb\n", AA_WS_EXACT, 0);
	assert_int_equal(d.n, 0);
	/* the callback stops the search */
	d = drift_in("a\na\na\n", "a\n", AA_WS_EXACT, 2);
	assert_int_equal(d.n, 2);
}

static void test_drift_levels_and_blank_needle(void **state)
{
	struct drift_hits d;

	(void)state;
	d = drift_in("a  \n\n  b\n", "a\nb\n", AA_WS_EXACT, 0);
	assert_int_equal(d.n, 0);
	d = drift_in("a  \n\n  b\n", "a\nb\n", AA_WS_TRAILING, 0);
	assert_int_equal(d.n, 0);
	d = drift_in("a  \n\n  b\n", "a\nb\n", AA_WS_BOTH, 0);
	assert_int_equal(d.n, 1);
	/* only blank lines: no place */
	d = drift_in("\n\n", "\n", AA_WS_EXACT, 0);
	assert_int_equal(d.n, 0);
	d = drift_in("", "a\n", AA_WS_EXACT, 0);
	assert_int_equal(d.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ws_span_levels),
		cmocka_unit_test(test_ws_span_blank_and_empty),
		cmocka_unit_test(test_line_is_blank),
		cmocka_unit_test(test_lrec_set_fields),
		cmocka_unit_test(test_eq_exact),
		cmocka_unit_test(test_eq_trailing),
		cmocka_unit_test(test_eq_both),
		cmocka_unit_test(test_eq_ignores_eol),
		cmocka_unit_test(test_eq_uses_length),
		cmocka_unit_test(test_locate_at),
		cmocka_unit_test(test_locate_first),
		cmocka_unit_test(test_locate_at_levels),
		cmocka_unit_test(test_empty_text),
		cmocka_unit_test(test_all_positions),
		cmocka_unit_test(test_all_overlapping),
		cmocka_unit_test(test_all_partial_restart),
		cmocka_unit_test(test_all_max_cap),
		cmocka_unit_test(test_all_levels),
		cmocka_unit_test(test_all_needle_reused_across_levels),
		cmocka_unit_test(test_all_empty_needle),
		cmocka_unit_test(test_two_segments),
		cmocka_unit_test(test_two_segments_overlap_at_seam),
		cmocka_unit_test(test_nearest_at_hint),
		cmocka_unit_test(test_nearest_before_or_after),
		cmocka_unit_test(test_nearest_tie),
		cmocka_unit_test(test_nearest_none),
		cmocka_unit_test(test_nearest_hint_beyond_end),
		cmocka_unit_test(test_nearest_multiline_clamp),
		cmocka_unit_test(test_nearest_levels_and_limits),
		cmocka_unit_test(test_nearest_far),
		cmocka_unit_test(test_nearest_far_tie),
		cmocka_unit_test(test_nearest_window_edge),
		cmocka_unit_test(test_nearest_far_two_segments),
		cmocka_unit_test(test_closest_most_lines),
		cmocka_unit_test(test_closest_tie_nearest_hint),
		cmocka_unit_test(test_closest_nothing),
		cmocka_unit_test(test_closest_overhang),
		cmocka_unit_test(test_closest_repeated_lines),
		cmocka_unit_test(test_random_against_naive_model),
		cmocka_unit_test(test_random_far_against_naive_model),
		cmocka_unit_test(test_scope_python_class_and_method),
		cmocka_unit_test(test_scope_braces),
		cmocka_unit_test(test_scope_labels_inside_braces),
		cmocka_unit_test(test_scope_tabs_and_blank_tail),
		cmocka_unit_test(test_scope_braces_margin_lines),
		cmocka_unit_test(test_drift_blank_lines_between),
		cmocka_unit_test(test_drift_every_place_and_stop),
		cmocka_unit_test(test_drift_levels_and_blank_needle),
	};
	return AA_RUN_TESTS(tests);
}
