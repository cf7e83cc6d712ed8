/*
 * Unit tests for the untracked cache (src/land/index_untracked.c): an
 * UNTR extension git 2.39 wrote is read and written back byte for byte;
 * invalidating a path drops the untracked names of its directory; and
 * damaged data (every byte changed, every length cut) is read without a
 * crash (under the sanitizers too): dropped, or read into something
 * that writes and reads back the same. t1292 compares landings with git.
 *
 * The fixture: in a new repository, files a/t a/b/t a/b/c/t d/t e/f/t
 * top and a/.gitignore ("*.o") committed; untracked a/u a/x.o a/b/c/u
 * d/u1 d/u2 e/f/newdir/sub/u g/u; `git update-index --untracked-cache`,
 * `git status`; the UNTR extension's data in hex.
 */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"
#include "land/index_untracked.h"

static const char *const git_untr =
	"264c6f636174696f6e202f746d702f756e74722f66782f722c2073797374656d"
	"204c696e7578006b0855920ac53a516b0855920ac53a510000fe0000b4662c00"
	"00000000000000000000f0000000000000000000000000000000000000000000"
	"00000000000000000000000000000000000006cc30ca8b9b10bb92f8e5c96ee9"
	"4348c6c4ac93e600000000000000000000000000000000000000002e67697469"
	"676e6f7265000a010400672f0001016100750000016200010063007500020064"
	"0075320075310000016500010166006e65776469722f0001016e657764697200"
	"7375622f0001007375620075000100670075000000000a000000020000000200"
	"00000000000000000003ff000000000000000a00000002000000020000000000"
	"0000000000038000000000000000020000000200000002000000000000000000"
	"000002000000006b0855920c7079526b0855920c7079520000fe0000b4661900"
	"00000000000000000010006b0855920c3370526b0855920c3370520000fe0000"
	"b466350000000000000000000010006b0855920b0243516b0855920b02435100"
	"00fe0000b466360000000000000000000010006b0855920c3370526b0855920c"
	"3370520000fe0000b466370000000000000000000010006b0855920c3370526b"
	"0855920c3370520000fe0000b466380000000000000000000010006b0855920b"
	"0243516b0855920b0243510000fe0000b466390000000000000000000010006b"
	"0855920c3370526b0855920c3370520000fe0000b4663a000000000000000000"
	"0010006b0855920c3370526b0855920c3370520000fe0000b4666b0000000000"
	"000000000010006b0855920c3370526b0855920c3370520000fe0000b4666c00"
	"00000000000000000010006b0855920c7079526b0855920c7079520000fe0000"
	"b466700000000000000000000010005761abcfdf0c26a75374c945dfe366eaee"
	"e0428500";

static void test_round_trip(void **state)
{
	size_t len;
	unsigned char *data = unit_unhex(git_untr, &len);
	aa_untr *u = NULL;
	aa_buf out = AA_BUF_INIT;

	(void)state;
	assert_int_equal(aa_untr_parse(&u, data, len), 0);
	assert_non_null(u);
	assert_int_equal(aa_untr_write(u, &out), 0);
	assert_int_equal(out.len, len);
	assert_memory_equal(out.ptr, data, len);
	aa_untr_free(u);
	aa_buf_free(&out);
	free(data);
}

/* The bytes of "a/u\0" (an untracked name of a/) are in the output. */
static int holds(const aa_buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + n <= b->len; i++)
		if (!memcmp(b->ptr + i, s, n))
			return 1;
	return 0;
}

static void test_invalidate(void **state)
{
	size_t len;
	unsigned char *data = unit_unhex(git_untr, &len);
	aa_untr *u = NULL;
	aa_buf out = AA_BUF_INIT;

	(void)state;
	assert_int_equal(aa_untr_parse(&u, data, len), 0);
	assert_non_null(u);
	assert_int_equal(aa_untr_write(u, &out), 0);
	assert_true(holds(&out, "u2\0u1", 6));
	aa_buf_clear(&out);
	/* d/ loses its names; a path under a directory not in the cache is fine */
	assert_int_equal(aa_untr_invalidate(u, "d/new", 1), 0);
	assert_int_equal(aa_untr_invalidate(u, "zz/yy/xx", 1), 0);
	/* a path the fsmonitor names is checked first: ".git" is not one */
	assert_int_equal(aa_untr_invalidate(u, ".git/x", 0), 0);
	assert_int_equal(aa_untr_write(u, &out), 0);
	assert_false(holds(&out, "u2\0u1", 6));
	assert_true(out.len < len);
	aa_untr_free(u);
	aa_buf_free(&out);
	free(data);
}

/* Reads p[0..n); when it parses, its output reads back and writes the same. */
static void read_any(const unsigned char *p, size_t n)
{
	aa_untr *u = NULL, *v = NULL;
	aa_buf a = AA_BUF_INIT, b = AA_BUF_INIT;

	assert_int_equal(aa_untr_parse(&u, p, n), 0);
	if (!u)
		return;
	assert_int_equal(aa_untr_invalidate(u, "a/b/c/u", 1), 0);
	assert_int_equal(aa_untr_write(u, &a), 0);
	assert_int_equal(aa_untr_parse(&v, (unsigned char *)a.ptr, a.len), 0);
	assert_non_null(v);
	assert_int_equal(aa_untr_write(v, &b), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.ptr, b.ptr, a.len);
	aa_untr_free(u);
	aa_untr_free(v);
	aa_buf_free(&a);
	aa_buf_free(&b);
}

static void test_damaged(void **state)
{
	size_t len, i, cut;
	unsigned char *data = unit_unhex(git_untr, &len);
	static const unsigned char values[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };

	(void)state;
	for (cut = 0; cut < len; cut++) {
		unsigned char *p = malloc(cut ? cut : 1);

		memcpy(p, data, cut);
		read_any(p, cut);
		free(p);
	}
	for (i = 0; i < len; i++) {
		size_t k;

		for (k = 0; k < sizeof(values); k++) {
			unsigned char *p = malloc(len), was = data[i];

			memcpy(p, data, len);
			p[i] = values[k] == was ? (unsigned char)(was ^ 0x40) : values[k];
			read_any(p, len);
			free(p);
		}
	}
	free(data);
}

/* Found by contrib/fuzz/fuzz-index-ext: the ident's length read into the last NUL. */
static void test_ident_past_end(void **state)
{
	static const unsigned char data[] = { 0x95, 0x00 };
	unsigned char *p = malloc(sizeof(data));
	aa_untr *u = NULL;

	(void)state;
	memcpy(p, data, sizeof(data));
	assert_int_equal(aa_untr_parse(&u, p, sizeof(data)), 0);
	assert_null(u);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_invalidate),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_ident_past_end),
	};
	return AA_RUN_TESTS(tests);
}
