/* Unit tests of the shared buffers (src/util/buf.c). */
#include <stdint.h>
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
	quoted("nul\0esc\x1b", 8, 80, "\"nul\\000esc\\033\"");
	quoted("\a\b\n\v\f\r\x7f\x01", 8, 80, "\"\\a\\b\\n\\v\\f\\r\\177\\001\"");
	/* text keeps UTF-8, not the C1 controls nor bytes that are not UTF-8 */
	quoted("\xc3\xa9\xc2\x9b\xff\xe2\x82", 7, 80,
	       "\"\xc3\xa9\\302\\233\\377\\342\\202\"");
	quoted("abcdef", 6, 3, "\"abc...\"");
	/* never cut inside a UTF-8 character: "é" is 2 bytes */
	quoted("ab\xc3\xa9", 4, 3, "\"ab...\"");
	quoted("ab\xc3\xa9", 4, 4, "\"ab\xc3\xa9\"");
}

static void path_is(const char *path, const char *want)
{
	assert_string_equal(aa_qpath(path), want);
}

/* Paths as git prints them with core.quotePath=true (its default). */
static void test_quote_path(void **state)
{
	(void)state;
	path_is("src/a b.c", "src/a b.c");
	path_is("", "");
	path_is("tab\there", "\"tab\\there\"");
	path_is("esc\x1b[2J\a\r\n", "\"esc\\033[2J\\a\\r\\n\"");
	path_is("caf\xc3\xa9", "\"caf\\303\\251\"");
	path_is("q\"b\\", "\"q\\\"b\\\\\"");
	assert_false(aa_quote_needed("caf\xc3\xa9", 5, 0));
	assert_true(aa_quote_needed("caf\xc3\xa9", 5, AA_QUOTE_HIGH));
	assert_string_equal(aa_qtext("plain", 5, 80), "\"plain\"");
	assert_string_equal(aa_qtext("abc\x1b", 4, 2), "\"ab...\"");
}

/* core.quotePath=false: UTF-8 as it is; control bytes escaped still. */
static void test_quote_path_false(void **state)
{
	(void)state;
	aa_quote_path_set(0);
	path_is("caf\xc3\xa9", "caf\xc3\xa9");
	path_is("tab\there", "\"tab\\there\"");
	path_is("caf\xc3\xa9\x1b", "\"caf\xc3\xa9\\033\"");
	path_is("bad\xff", "\"bad\\377\"");
	assert_string_equal(aa_qpathp("b/", "caf\xc3\xa9"), "b/caf\xc3\xa9");
	aa_quote_path_set(1);
	path_is("caf\xc3\xa9", "\"caf\\303\\251\"");
	/* --summary's names: raw UTF-8 whatever the setting */
	assert_string_equal(aa_qname("na\xc3\xafve"), "na\xc3\xafve");
	assert_string_equal(aa_qname("a\tb"), "\"a\\tb\"");
}

/* Running out once is remembered: later appends fail until cleared. */
static void test_oom_is_sticky(void **state)
{
	aa_buf b = AA_BUF_INIT;

	(void)state;
	assert_int_equal(aa_buf_puts(&b, "abc"), 0);
	assert_false(aa_buf_oom(&b));
	/* a size no allocator gives: the same path as a failed realloc */
	assert_int_equal(aa_buf_grow(&b, SIZE_MAX), -1);
	assert_true(aa_buf_oom(&b));
	assert_int_equal(aa_buf_puts(&b, "def"), -1);
	assert_int_equal(aa_buf_putc(&b, 'x'), -1);
	assert_int_equal(aa_buf_printf(&b, "%d", 42), -1);
	assert_string_equal(b.ptr, "abc");
	aa_buf_clear(&b);
	assert_false(aa_buf_oom(&b));
	assert_int_equal(aa_buf_puts(&b, "ok"), 0);
	assert_string_equal(b.ptr, "ok");
	aa_buf_free(&b);
}

/* A message built in a failed buffer is reported as out of memory. */
static void test_error_buf(void **state)
{
	aa_diags d = AA_DIAGS_INIT;
	aa_buf m = AA_BUF_INIT;

	(void)state;
	assert_int_equal(aa_buf_puts(&m, "the reason"), 0);
	assert_int_equal(aa_error_buf(&d, (aa_pos){ "in", 3 }, "p", &m), -1);
	assert_string_equal(d.v[0].msg, "the reason");
	aa_buf_grow(&m, SIZE_MAX);
	assert_int_equal(aa_error_buf(&d, (aa_pos){ "in", 4 }, "p", &m), -1);
	assert_string_equal(d.v[1].msg, "out of memory");
	assert_int_equal(d.nerrors, 2);
	aa_buf_free(&m);
	aa_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_and_detach),
		cmocka_unit_test(test_first_grow_is_exact),
		cmocka_unit_test(test_put_quoted),
		cmocka_unit_test(test_quote_path),
		cmocka_unit_test(test_quote_path_false),
		cmocka_unit_test(test_oom_is_sticky),
		cmocka_unit_test(test_error_buf),
	};

	return AA_RUN_TESTS(tests);
}
