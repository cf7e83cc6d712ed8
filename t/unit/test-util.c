/* Unit tests of the util layer (src/util/util.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <git2.h>

#include "unit.h"
#include "util/util.h"

static void test_grow_doubles(void **state)
{
	int *v = NULL;
	size_t n, cap = 0;

	(void)state;
	for (n = 0; n < 1000; n++) {
		assert_int_equal(AA_GROW(v, n, cap), 0);
		assert_true(cap > n);
		v[n] = (int)n;
	}
	/* 8 at first, doubled: the smallest 8 * 2^k >= 1000 */
	assert_int_equal(cap, 1024);
	for (n = 0; n < 1000; n++)
		assert_int_equal(v[n], (int)n);
	/* room left: nothing moves */
	assert_int_equal(AA_GROW(v, n, cap), 0);
	assert_int_equal(cap, 1024);
	free(v);
}

static void test_grow_to_a_count(void **state)
{
	char *v = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(aa_array_grow(&v, &cap, 3, 1), 0);
	assert_int_equal(cap, 8);
	assert_int_equal(aa_array_grow(&v, &cap, 100, 1), 0);
	assert_int_equal(cap, 128);
	assert_int_equal(aa_array_grow(&v, &cap, 0, 1), 0);
	assert_int_equal(cap, 128);
	free(v);
	/* the first allocation is a known count as it is */
	v = NULL, cap = 0;
	assert_int_equal(aa_array_grow(&v, &cap, 1000, 1), 0);
	assert_int_equal(cap, 1000);
	assert_int_equal(aa_array_grow(&v, &cap, 1001, 1), 0);
	assert_int_equal(cap, 2000);
	free(v);
}

/* Overflow: refused, the array and its capacity as they were. */
static void test_grow_overflow(void **state)
{
	long *v = NULL;
	size_t cap = 0, n = 0;

	(void)state;
	assert_int_equal(AA_GROW(v, n, cap), 0);
	v[0] = 42;
	assert_int_equal(aa_array_grow(&v, &cap, SIZE_MAX / 4, sizeof(*v)), -1);
	assert_int_equal(aa_array_grow(&v, &cap, SIZE_MAX, 1), -1);
	assert_int_equal(cap, 8);
	assert_int_equal(v[0], 42);
	free(v);
}

static void test_classes(void **state)
{
	const char all[] = " \t\r\n\f\vx";
	/* the members of each class among all[] */
	const char *blank = "11000000", *blank_cr = "11100000",
		   *hspace = "11101100", *ws = "11110000";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(all) - 1; i++) {
		char c = all[i];

		assert_int_equal(aa_is_blank(c), blank[i] == '1');
		assert_int_equal(aa_is_blank_cr(c), blank_cr[i] == '1');
		assert_int_equal(aa_is_hspace(c), hspace[i] == '1');
		assert_int_equal(aa_is_ws(c), ws[i] == '1');
	}
	assert_false(aa_is_ws('\0'));
	assert_int_equal(aa_lower('Q'), 'q');
	assert_int_equal(aa_lower('q'), 'q');
	assert_int_equal(aa_lower('@'), '@');
	assert_int_equal(aa_lower('['), '[');
	assert_int_equal(aa_lower((char)0xC9), (char)0xC9);
}

static void test_trim(void **state)
{
	const char *s = " \t x y\r \t";
	size_t len = strlen(s), a = 0, z = len;

	(void)state;
	assert_int_equal(aa_skip(s, len, 0, aa_is_blank), 3);
	assert_int_equal(aa_skip(s, len, 4, aa_is_blank), 5);
	assert_int_equal(aa_skip(s, 2, 0, aa_is_blank), 2);
	assert_int_equal(aa_rtrim(s, len, aa_is_blank), 7);
	assert_int_equal(aa_rtrim(s, len, aa_is_blank_cr), 6);
	aa_trim(s, &a, &z, aa_is_blank_cr);
	assert_int_equal(a, 3);
	assert_int_equal(z, 6);
	/* only blanks: empty, at the first non-blank's place (the end) */
	a = 0, z = 3;
	aa_trim(s, &a, &z, aa_is_blank);
	assert_int_equal(a, 3);
	assert_int_equal(z, 3);
	assert_int_equal(aa_rtrim("", 0, aa_is_ws), 0);
}

static void test_json_tokens(void **state)
{
	const char *s = " \n\t{\"a\\\"b\": \"\\\\\"}";
	size_t n = strlen(s);

	(void)state;
	assert_int_equal(aa_json_skip_ws(s, n, 0), 3);
	assert_int_equal(aa_json_skip_ws(s, n, 3), 3);
	assert_int_equal(aa_json_string_end(s, n, 4), 10);
	assert_int_equal(aa_json_skip_ws(s, n, 11), 12);
	assert_int_equal(aa_json_string_end(s, n, 12), 16);
	/* unterminated, and an escape at the very end */
	assert_int_equal(aa_json_string_end("\"abc", 4, 0), 4);
	assert_int_equal(aa_json_string_end("\"ab\\", 4, 0), 4);
}

static void test_write_all(void **state)
{
	char path[] = "/tmp/aa-test-util-XXXXXX", back[64] = { 0 };
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(aa_write_all(fd, "hello, ", 7), 0);
	assert_int_equal(aa_write_all(fd, "world", 5), 0);
	assert_int_equal(aa_write_all(fd, "", 0), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(read(fd, back, sizeof(back)), 12);
	assert_string_equal(back, "hello, world");
	close(fd);
	unlink(path);
	/* a closed descriptor: -1 with errno */
	errno = 0;
	assert_int_equal(aa_write_all(fd, "x", 1), -1);
	assert_int_equal(errno, EBADF);
}

static void test_prefix_and_indent(void **state)
{
	(void)state;
	assert_true(aa_starts_with("version: 1", 10, "version:"));
	assert_false(aa_starts_with("version", 7, "version:"));
	assert_true(aa_starts_with("x", 1, ""));
	/* the length counts, not a NUL */
	assert_false(aa_starts_with("vers\0ion:", 4, "version:"));
	assert_int_equal(aa_indent_of(" \t x", 4), 3);
	assert_int_equal(aa_indent_of("\r x", 3), 0);
	assert_int_equal(aa_indent_of("  ", 2), 2);
}

static void test_ci(void **state)
{
	(void)state;
	assert_true(aa_ci_starts_with("Title=x", 7, "title="));
	assert_true(aa_ci_starts_with("TITLE=", 6, "title="));
	assert_false(aa_ci_starts_with("Titl", 4, "title="));
	assert_false(aa_ci_starts_with("Tidle=", 6, "title="));
	assert_true(aa_ci_contains("// ... Existing Code", 20, "existing code"));
	assert_true(aa_ci_contains("abc", 3, "abc"));
	assert_false(aa_ci_contains("ab", 2, "abc"));
	assert_false(aa_ci_contains("a-b-c", 5, "abc"));
	assert_true(aa_ci_contains("", 0, ""));
}

static void test_read_all(void **state)
{
	char path[] = "/tmp/aa-test-util-XXXXXX";
	aa_buf b = AA_BUF_INIT;
	size_t i, big = 200000;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	for (i = 0; i < big; i++)
		assert_int_equal(aa_write_all(fd, i % 1000 ? "x" : "\n", 1), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(aa_buf_puts(&b, "kept:"), 0);
	assert_int_equal(aa_read_all(fd, &b), 0);
	assert_int_equal(b.len, 5 + big);
	assert_memory_equal(b.ptr, "kept:\nxx", 8);
	/* at the end: nothing more */
	assert_int_equal(aa_read_all(fd, &b), 0);
	assert_int_equal(b.len, 5 + big);
	close(fd);
	unlink(path);
	errno = 0;
	assert_int_equal(aa_read_all(fd, &b), -1);
	assert_int_equal(errno, EBADF);
	aa_buf_free(&b);
}

static int read_back(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY);
	ssize_t k;

	if (fd < 0)
		return -1;
	k = read(fd, buf, n - 1);
	close(fd);
	if (k < 0)
		return -1;
	buf[k] = '\0';
	return 0;
}

static void test_replace_file(void **state)
{
	char dir[] = "/tmp/aa-test-util-XXXXXX", path[64], tmp[64], back[32];
	int fd, durable;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/file", dir);
	snprintf(tmp, sizeof(tmp), "%s/file.tmp", dir);
	for (durable = 0; durable < 2; durable++) {
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		assert_true(fd >= 0);
		assert_int_equal(aa_replace_file(fd, tmp, durable ? "two" : "one",
						 3, path, durable), 0);
		assert_int_equal(read_back(path, back, sizeof(back)), 0);
		assert_string_equal(back, durable ? "two" : "one");
		assert_int_equal(access(tmp, F_OK), -1);
	}
	assert_int_equal(aa_fsync_dir(dir), 0);
	assert_int_equal(aa_fsync_dir_of(path), 0);
	/* a failed open: -1, its errno kept, the file as it was */
	errno = 0;
	fd = open("/nonexistent-aa/x", O_RDONLY);
	assert_int_equal(aa_replace_file(fd, tmp, "x", 1, path, 1), -1);
	assert_int_equal(errno, ENOENT);
	/* a failed rename (onto a directory): the temporary is removed */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	assert_true(fd >= 0);
	assert_int_equal(aa_replace_file(fd, tmp, "x", 1, dir, 0), -1);
	assert_true(errno != 0);
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(read_back(path, back, sizeof(back)), 0);
	assert_string_equal(back, "two");
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(aa_fsync_dir(dir), -1);
}

static void test_fatal(void **state)
{
	aa_diags d = AA_DIAGS_INIT;

	(void)state;
	assert_int_equal(aa_fatal(&d, AA_NOPOS, "p", "cannot %s", "write"),
			 AA_FATAL);
	assert_int_equal(aa_fatal_oom(&d, (aa_pos){ "in", 2 }, NULL), AA_FATAL);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.nerrors, 2);
	assert_int_equal(d.v[0].level, AA_DIAG_ERROR);
	assert_string_equal(d.v[0].msg, "cannot write");
	assert_string_equal(d.v[0].path, "p");
	assert_null(d.v[0].input);
	assert_int_equal(d.v[0].line, 0);
	assert_string_equal(d.v[1].msg, "out of memory");
	assert_string_equal(d.v[1].input, "in");
	assert_int_equal(d.v[1].line, 2);
	aa_diags_free(&d);
}

static void test_git_error(void **state)
{
	aa_diags d = AA_DIAGS_INIT;

	(void)state;
	git_libgit2_init();
	git_error_clear();
	assert_null(aa_git_error(NULL));
	assert_string_equal(aa_git_error("fallback"), "fallback");
	git_error_set_str(GIT_ERROR_OS, "disk on fire");
	assert_string_equal(aa_git_error(NULL), "disk on fire");
	assert_int_equal(aa_git_fail(&d, "cannot write"), AA_FATAL);
	assert_string_equal(d.v[0].msg, "cannot write: disk on fire");
	git_error_clear();
	assert_int_equal(aa_git_fail(&d, "cannot read"), AA_FATAL);
	assert_string_equal(d.v[1].msg, "cannot read: unknown error");
	assert_null(d.v[1].input);
	aa_diags_free(&d);
	git_libgit2_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_doubles),
		cmocka_unit_test(test_grow_to_a_count),
		cmocka_unit_test(test_grow_overflow),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_trim),
		cmocka_unit_test(test_json_tokens),
		cmocka_unit_test(test_write_all),
		cmocka_unit_test(test_prefix_and_indent),
		cmocka_unit_test(test_replace_file),
		cmocka_unit_test(test_ci),
		cmocka_unit_test(test_read_all),
		cmocka_unit_test(test_fatal),
		cmocka_unit_test(test_git_error),
	};

	return AA_RUN_TESTS(tests);
}
