/*
 * Unit tests for git's EWAH bitmaps (src/land/ewah.c): the bytes written
 * for each case of ewah-cases.h are the ones git's own ewah code wrote
 * (ewah-fixture.h, made by contrib/ewah-fixtures/gen.c), git's bytes
 * read back give the same bits, random bitmaps round-trip, and damaged
 * ones (cut short, a literal run past the words) are refused without
 * reading past them.
 */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "land/ewah.h"
#include "ewah-cases.h"
#include "ewah-fixture.h"

typedef struct bits {
	uint64_t *v;
	size_t n, cap, stop_at;
} bits;

static int collect(uint64_t pos, void *ctx)
{
	bits *b = ctx;

	if (b->n == b->stop_at)
		return 1;
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->v = realloc(b->v, b->cap * sizeof(*b->v));
		assert_non_null(b->v);
	}
	b->v[b->n++] = pos;
	return 0;
}

static void write_bits(const uint64_t *v, size_t n, aa_buf *out)
{
	aa_ewah e;
	size_t i;

	assert_int_equal(aa_ewah_init(&e), 0);
	for (i = 0; i < n; i++)
		aa_ewah_set(&e, v[i]);
	assert_int_equal(aa_ewah_write(&e, out), 0);
	aa_ewah_free(&e);
}

static void test_git_bytes(void **state)
{
	size_t c;

	(void)state;
	assert_int_equal(sizeof(ewah_fixture) / sizeof(ewah_fixture[0]), EWAH_NCASES);
	for (c = 0; c < EWAH_NCASES; c++) {
		size_t n, glen, used = 0;
		uint64_t *v = ewah_case(&ewah_cases[c], &n), nbits = 0;
		unsigned char *git = unit_unhex(ewah_fixture[c], &glen);
		aa_buf out = AA_BUF_INIT;
		bits got = { NULL, 0, 0, (size_t)-1 };

		write_bits(v, n, &out);
		if (out.len != glen || memcmp(out.ptr, git, glen))
			fail_msg("case \"%s\": bytes differ from git's", ewah_cases[c].name);
		assert_int_equal(aa_ewah_read(git, glen, &used, &nbits, collect, &got), 0);
		assert_int_equal(used, glen);
		assert_int_equal(nbits, n ? v[n - 1] + 1 : 0);
		assert_int_equal(got.n, n);
		if (n)
			assert_memory_equal(got.v, v, n * sizeof(*v));
		free(got.v);
		aa_buf_free(&out);
		free(git);
		free(v);
	}
}

static void test_random_round_trip(void **state)
{
	uint64_t seed = 12345;
	int round;

	(void)state;
	for (round = 0; round < 200; round++) {
		uint64_t *v = NULL, pos = 0;
		size_t n = 0, cap = 0, used;
		unsigned dense = (unsigned)(ewah_rand(&seed) % 1001);
		size_t len = (size_t)(ewah_rand(&seed) % 5000);
		aa_buf out = AA_BUF_INIT;
		bits got = { NULL, 0, 0, (size_t)-1 };
		size_t i;

		for (i = 0; i < len; i++, pos++) {
			if (ewah_rand(&seed) % 1000 == 0)
				pos += ewah_rand(&seed) % 100000; /* a long gap */
			if (ewah_rand(&seed) % 1000 >= dense)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				v = realloc(v, cap * sizeof(*v));
				assert_non_null(v);
			}
			v[n++] = pos;
		}
		write_bits(v, n, &out);
		assert_int_equal(aa_ewah_read((unsigned char *)out.ptr, out.len, &used,
					      NULL, collect, &got), 0);
		assert_int_equal(used, out.len);
		assert_int_equal(got.n, n);
		if (n)
			assert_memory_equal(got.v, v, n * sizeof(*v));
		free(got.v);
		free(v);
		aa_buf_free(&out);
	}
}

static void test_damaged(void **state)
{
	size_t c, cut, glen;

	(void)state;
	/* every bitmap cut short is refused, and nothing is reported */
	for (c = 0; c < 6; c++) {
		unsigned char *git = unit_unhex(ewah_fixture[c], &glen);

		for (cut = 0; cut < glen; cut++) {
			unsigned char *p = malloc(cut ? cut : 1);
			bits got = { NULL, 0, 0, (size_t)-1 };

			memcpy(p, git, cut);
			assert_int_equal(aa_ewah_read(p, cut, NULL, NULL, collect, &got), -1);
			assert_int_equal(got.n, 0);
			free(p);
		}
		free(git);
	}
	{
		/* one word: a marker claiming 2 literal words */
		static const unsigned char lit[] = {
			0, 0, 0, 64, 0, 0, 0, 1,
			0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0 };
		/* a word count larger than the data */
		static const unsigned char count[] = {
			0, 0, 0, 64, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0 };
		bits got = { NULL, 0, 0, (size_t)-1 };

		assert_int_equal(aa_ewah_read(lit, sizeof(lit), NULL, NULL, collect, &got), -1);
		assert_int_equal(aa_ewah_read(count, sizeof(count), NULL, NULL, collect, &got), -1);
		assert_int_equal(got.n, 0);
	}
}

static void test_stop(void **state)
{
	size_t glen, used;
	unsigned char *git = unit_unhex(ewah_fixture[8], &glen); /* all of 6400 */
	bits got = { NULL, 0, 0, 10 };

	(void)state;
	/* a run of 6,400 ones: the reader stops when the callback says so */
	assert_int_equal(aa_ewah_read(git, glen, &used, NULL, collect, &got), -1);
	assert_int_equal(got.n, 10);
	free(got.v);
	free(git);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_git_bytes),
		cmocka_unit_test(test_random_round_trip),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_stop),
	};
	return AA_RUN_TESTS(tests);
}
