/*
 * Unit tests of the history search's filter (src/plan/history_filter.c):
 * the rule on bytes, git's delta read into instructions, and a needle's
 * places carried through a delta, each checked against a brute-force
 * search of the made bytes over many random deltas (chains of two
 * deltas too), so that a version the filter rejects truly lacks the
 * needle.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "edit/edit.h"
#include "plan/history_filter.h"
#include "util/util.h"

/* ---- the rule on bytes ---- */

static void test_holds_rule(void **state)
{
	aa_needle lf[2] = { { "a\nb", 3 }, { "", 0 } };
	aa_needle cr[2] = { { "a", 1 }, { "", 0 } };
	aa_version_filter f = { lf, cr, 2, 0, NULL };
	size_t start = 1;

	(void)state;
	assert_int_equal(aa_filter_holds(&f, "x\na\nb\n", 6, NULL), 1);
	/* lines present but not together */
	assert_int_equal(aa_filter_holds(&f, "a\nx\nb\n", 6, &start), 0);
	assert_int_equal(start, 0);
	/* with a CR, the CR needles: "a" is there */
	assert_int_equal(aa_filter_holds(&f, "a\r\nx\r\n", 6, NULL), 1);
	assert_int_equal(aa_filter_holds(&f, "b\r\n", 3, NULL), 0);
	assert_int_equal(aa_filter_holds(&f, "", 0, NULL), 0);
}

static void test_occ_scan(void **state)
{
	aa_occ o;

	(void)state;
	assert_int_equal(aa_occ_scan("aaaa", 4, "aa", 2, 10, &o), 0);
	assert_int_equal(o.n, 3); /* overlapping places count */
	assert_int_equal(o.at[0], 0);
	assert_int_equal(o.at[2], 2);
	aa_occ_free(&o);
	assert_int_equal(aa_occ_scan("aaaa", 4, "aa", 2, 2, &o), 0);
	assert_true(o.many);
	aa_occ_free(&o);
	assert_int_equal(aa_occ_scan("abc", 3, "abcd", 4, 2, &o), 0);
	assert_int_equal(o.n, 0);
	assert_false(o.many);
}

/* ---- random deltas ---- */

static const char ALPHA[] = "ab\n\r";

static unsigned long rng = 12345;

static unsigned rnd(unsigned n)
{
	rng = rng * 6364136223846793005ul + 1442695040888963407ul;
	return n ? (unsigned)((rng >> 33) % n) : 0;
}

static void random_bytes(aa_buf *b, size_t n)
{
	while (n--)
		aa_buf_putc(b, ALPHA[rnd(4)]);
}

static void put_varint(aa_buf *d, size_t v)
{
	do {
		unsigned char c = v & 0x7f;

		v >>= 7;
		aa_buf_putc(d, (char)(c | (v ? 0x80 : 0)));
	} while (v);
}

/* A random delta in git's format against src, making about `want` bytes. */
static void random_delta(const aa_buf *src, size_t want, aa_buf *d)
{
	aa_buf body = AA_BUF_INIT;
	size_t made = 0;

	while (made < want) {
		if (src->len && rnd(3)) {
			size_t off = rnd((unsigned)src->len);
			size_t len = 1 + rnd((unsigned)(src->len - off < 40 ? src->len - off : 40));
			unsigned char cmd = 0x80, arg[8];
			int na = 0, bit;

			for (bit = 0; bit < 4; bit++)
				if ((off >> (8 * bit)) & 0xff) {
					cmd |= 1u << bit;
					arg[na++] = (off >> (8 * bit)) & 0xff;
				}
			for (bit = 0; bit < 3; bit++)
				if ((len >> (8 * bit)) & 0xff) {
					cmd |= 1u << (4 + bit);
					arg[na++] = (len >> (8 * bit)) & 0xff;
				}
			aa_buf_putc(&body, (char)cmd);
			aa_buf_put(&body, arg, (size_t)na);
			made += len;
		} else {
			size_t len = 1 + rnd(20);

			aa_buf_putc(&body, (char)len);
			random_bytes(&body, len);
			made += len;
		}
	}
	put_varint(d, src->len);
	put_varint(d, made);
	aa_buf_put(d, body.ptr, body.len);
	aa_buf_free(&body);
}

/* A base held as bytes, or as a delta over another (a chain). */
typedef struct version {
	const aa_buf *bytes;          /* when plain */
	const aa_delta_op *ops;       /* when a delta ... */
	size_t nops;
	struct version *base;         /* ... over this */
} version;

static int read_version(void *ctx, uint64_t a, uint64_t b, aa_buf *out)
{
	version *v = ctx;

	if (v->bytes)
		return b <= v->bytes->len ?
		       aa_buf_put(out, v->bytes->ptr + a, (size_t)(b - a)) : -1;
	return aa_delta_read(v->ops, v->nops, a, b, read_version, v->base, out);
}

/* A random needle: mostly a piece of the result, so that it is found. */
static void random_needle(const aa_buf *made, aa_buf *s)
{
	size_t m = 1 + rnd(7);

	aa_buf_clear(s);
	if (made->len >= m && rnd(4)) {
		size_t at = rnd((unsigned)(made->len - m + 1));

		aa_buf_put(s, made->ptr + at, m);
	} else {
		random_bytes(s, m);
	}
}

static void assert_occ_equal(const aa_occ *a, const aa_occ *b)
{
	size_t i;

	assert_int_equal(a->many, b->many);
	assert_int_equal(a->n, b->n);
	for (i = 0; i < a->n; i++)
		assert_int_equal(a->at[i], b->at[i]);
}

/* One delta over `base` (bytes or a chain): parse, read, needles. */
static void check_delta(version *base, const aa_buf *base_bytes,
			aa_buf *made, aa_delta_op **ops, size_t *nops,
			aa_buf *delta)
{
	aa_buf got = AA_BUF_INIT, s = AA_BUF_INIT;
	const char *why;
	size_t len, k;

	aa_buf_clear(delta);
	aa_buf_clear(made);
	random_delta(base_bytes, 1 + rnd(300), delta);
	assert_int_equal(aa_delta_apply((const unsigned char *)base_bytes->ptr, base_bytes->len,
					(const unsigned char *)delta->ptr, delta->len,
					1u << 20, made, &why), 0);
	assert_int_equal(aa_delta_ops_parse((const unsigned char *)delta->ptr, delta->len,
					    base_bytes->len, ops, nops, &len), 0);
	assert_int_equal(len, made->len);
	/* the whole result, and a random range of it */
	assert_int_equal(aa_delta_read(*ops, *nops, 0, len, read_version, base, &got), 0);
	assert_int_equal(got.len, made->len);
	assert_memory_equal(got.ptr ? got.ptr : "", made->ptr ? made->ptr : "", got.len);
	if (len) {
		uint64_t a = rnd((unsigned)len), b = a + rnd((unsigned)(len - a + 1));

		aa_buf_clear(&got);
		assert_int_equal(aa_delta_read(*ops, *nops, a, b, read_version, base, &got), 0);
		assert_int_equal(got.len, b - a);
		if (b > a)
			assert_memory_equal(got.ptr, made->ptr + a, (size_t)(b - a));
	}
	for (k = 0; k < 20; k++) {
		size_t cap = rnd(3) ? 1000 : 1 + rnd(4);
		aa_occ in_base, through, brute;

		random_needle(made, &s);
		assert_int_equal(aa_occ_scan(base_bytes->ptr ? base_bytes->ptr : "", base_bytes->len,
					     s.ptr, s.len, 100000, &in_base), 0);
		assert_int_equal(aa_occ_through_delta(&in_base, *ops, *nops, len, s.ptr, s.len,
						      read_version, base, cap, &through), 0);
		assert_int_equal(aa_occ_scan(made->ptr ? made->ptr : "", made->len, s.ptr, s.len,
					     cap, &brute), 0);
		assert_occ_equal(&through, &brute);
		aa_occ_free(&in_base);
		aa_occ_free(&through);
		aa_occ_free(&brute);
	}
	aa_buf_free(&got);
	aa_buf_free(&s);
}

static void test_random_deltas(void **state)
{
	int round;

	(void)state;
	for (round = 0; round < 400; round++) {
		aa_buf b0 = AA_BUF_INIT, v1 = AA_BUF_INIT, v2 = AA_BUF_INIT;
		aa_buf d1 = AA_BUF_INIT, d2 = AA_BUF_INIT;
		aa_delta_op *o1 = NULL, *o2 = NULL;
		size_t n1 = 0, n2 = 0;
		version plain = { &b0, NULL, 0, NULL };
		version chain;

		random_bytes(&b0, rnd(250));
		check_delta(&plain, &b0, &v1, &o1, &n1, &d1);
		/* a delta over that delta: the base read through the chain */
		chain.bytes = NULL;
		chain.ops = o1;
		chain.nops = n1;
		chain.base = &plain;
		check_delta(&chain, &v1, &v2, &o2, &n2, &d2);
		free(o1);
		free(o2);
		aa_buf_free(&b0);
		aa_buf_free(&v1);
		aa_buf_free(&v2);
		aa_buf_free(&d1);
		aa_buf_free(&d2);
	}
}

/* A copy of size 0 means 0x10000 bytes; malformed deltas are refused. */
static void test_delta_ops_refusals(void **state)
{
	/* base 65537 bytes, result 65536: one copy from offset 1, size 0 */
	const unsigned char copy64k[] = { 0x81, 0x80, 0x04, 0x80, 0x80, 0x04, 0x81, 0x01 };
	const unsigned char past_end[] = { 3, 4, 0x91, 1, 3 };
	const unsigned char op0[] = { 3, 1, 0 };
	const unsigned char short_insert[] = { 0, 3, 3, 'a' };
	const unsigned char too_few[] = { 0, 3, 1, 'a' };
	aa_delta_op *ops = NULL;
	size_t n, len;

	(void)state;
	assert_int_equal(aa_delta_ops_parse(copy64k, sizeof(copy64k), 0x10001, &ops, &n, &len), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ops[0].len, 0x10000);
	assert_int_equal(ops[0].from, 1);
	free(ops);
	assert_int_equal(aa_delta_ops_parse(copy64k, sizeof(copy64k), 5, &ops, &n, &len), -1);
	assert_int_equal(aa_delta_ops_parse(past_end, sizeof(past_end), 3, &ops, &n, &len), -1);
	assert_int_equal(aa_delta_ops_parse(op0, sizeof(op0), 3, &ops, &n, &len), -1);
	assert_int_equal(aa_delta_ops_parse(short_insert, sizeof(short_insert), 0, &ops, &n, &len), -1);
	assert_int_equal(aa_delta_ops_parse(too_few, sizeof(too_few), 0, &ops, &n, &len), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holds_rule),
		cmocka_unit_test(test_occ_scan),
		cmocka_unit_test(test_random_deltas),
		cmocka_unit_test(test_delta_ops_refusals),
	};

	return AA_RUN_TESTS(tests);
}
