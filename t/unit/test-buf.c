/* Unit tests of the shared buffers (src/buf.c). */
#include <stdlib.h>

#include "unit.h"
#include "aiapply/common.h"

static void test_put_and_detach(void **state)
{
	aa_buf b = AA_BUF_INIT;
	char *p;
	size_t i;

	(void)state;
	for (i = 0; i < 10000; i++)
		assert_int_equal(aa_buf_putc(&b, (char)('a' + i % 26)), 0);
	assert_int_equal(b.len, 10000);
	assert_int_equal(b.ptr[b.len], '\0');
	p = aa_buf_detach(&b);
	assert_null(b.ptr);
	assert_int_equal(b.len, 0);
	assert_int_equal(p[0], 'a');
	assert_int_equal(p[9999], 'a' + 9999 % 26);
	assert_int_equal(p[10000], '\0');
	free(p);
	/* an empty buffer detaches to "" */
	p = aa_buf_detach(&b);
	assert_string_equal(p, "");
	free(p);
}

/* The first allocation is the size asked for (a file's known size). */
static void test_first_grow_is_exact(void **state)
{
	aa_buf b = AA_BUF_INIT;

	(void)state;
	assert_int_equal(aa_buf_grow(&b, 100000), 0);
	assert_int_equal(b.cap, 100001);
	assert_int_equal(aa_buf_put(&b, "x", 1), 0);
	assert_int_equal(b.cap, 100001);
	aa_buf_free(&b);
	assert_int_equal(aa_buf_grow(&b, 3), 0);
	assert_int_equal(b.cap, 64);
	aa_buf_free(&b);
}

static void quoted(const char *s, size_t len, size_t max, const char *want)
{
	aa_buf b = AA_BUF_INIT;

	assert_int_equal(aa_buf_put_quoted(&b, s, len, max), 0);
	assert_string_equal(b.ptr, want);
	aa_buf_free(&b);
}

static void test_put_quoted(void **state)
{
	(void)state;
	quoted("plain", 5, 80, "\"plain\"");
	quoted("", 0, 80, "\"\"");
	quoted("a\tb", 3, 80, "\"a\\tb\"");
	quoted("say \"hi\" \\o/", 12, 80, "\"say \\\"hi\\\" \\\\o/\"");
	quoted("nul\0esc\x1b", 8, 80, "\"nul\\x00esc\\x1b\"");
	quoted("abcdef", 6, 3, "\"abc...\"");
	/* never cut inside a UTF-8 character: "é" is 2 bytes */
	quoted("ab\xc3\xa9", 4, 3, "\"ab...\"");
	quoted("ab\xc3\xa9", 4, 4, "\"ab\xc3\xa9\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_and_detach),
		cmocka_unit_test(test_first_grow_is_exact),
		cmocka_unit_test(test_put_quoted),
	};

	return AA_RUN_TESTS(tests);
}
