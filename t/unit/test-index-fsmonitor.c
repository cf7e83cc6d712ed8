/*
 * Unit tests for the fsmonitor data (src/land/index_fsmonitor.c): the
 * old bits and the paths a hook names make entries dirty, the hook's
 * token is written; core.fsmonitor off gives nothing; damaged data
 * (every byte changed, every length cut) is read without a crash and
 * never leaves an entry clean that the old data did not know clean.
 * t1293 compares landings with git.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <git2.h>
#include "unit.h"
#include "land/ewah.h"
#include "land/index_fsmonitor.h"

static char dir[64];
static git_repository *repo;

static void set_monitor(const char *value)
{
	git_config *cfg;

	assert_int_equal(git_repository_config(&cfg, repo), 0);
	if (value)
		assert_int_equal(git_config_set_string(cfg, "core.fsmonitor", value), 0);
	else
		git_config_delete_entry(cfg, "core.fsmonitor");
	git_config_free(cfg);
}

/* FSMN data: version 2, `token`, the bits of `bits` (-1 ends). */
static void make_fsmn(aa_buf *b, const char *token, const int *bits)
{
	aa_ewah e;
	aa_buf bm = AA_BUF_INIT;
	unsigned char n[4];

	assert_int_equal(aa_ewah_init(&e), 0);
	for (; *bits >= 0; bits++)
		aa_ewah_set(&e, (uint64_t)*bits);
	assert_int_equal(aa_ewah_write(&e, &bm), 0);
	aa_buf_put(b, "\0\0\0\2", 4);
	aa_buf_put(b, token, strlen(token) + 1);
	n[0] = n[1] = 0;
	n[2] = (unsigned char)(bm.len >> 8);
	n[3] = (unsigned char)bm.len;
	aa_buf_put(b, n, 4);
	aa_buf_put(b, bm.ptr, bm.len);
	aa_ewah_free(&e);
	aa_buf_free(&bm);
}

static int setup(void **state)
{
	char hook[128];
	FILE *f;

	(void)state;
	git_libgit2_init();
	snprintf(dir, sizeof(dir), "/tmp/aa-fsmn-XXXXXX");
	assert_non_null(mkdtemp(dir));
	assert_int_equal(git_repository_init(&repo, dir, 0), 0);
	snprintf(hook, sizeof(hook), "%s/.git/hook", dir);
	f = fopen(hook, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\necho \"$*\" >.git/hook.log\nprintf 'new\\0x/\\0e\\0'\n");
	fclose(f);
	chmod(hook, 0755);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	git_repository_free(repo);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	git_libgit2_shutdown();
	return 0;
}

static void test_hook(void **state)
{
	static const int bits[] = { 1, 3, -1 };
	aa_buf b = AA_BUF_INIT, out = AA_BUF_INIT, want = AA_BUF_INIT;
	aa_fsmn *f;
	static const int want_bits[] = { 0, 1, 3, 4, 5, -1 };
	char hook[128];

	(void)state;
	snprintf(hook, sizeof(hook), "%s/.git/hook", dir);
	set_monitor(hook);
	make_fsmn(&b, "old", bits);
	assert_int_equal(aa_fsmn_read(&f, repo, (unsigned char *)b.ptr, b.len, 6), 0);
	assert_non_null(f);
	assert_int_equal(aa_fsmn_added(f), 0);
	/* old: a b c d e x/y: 1 and 3 dirty before, e and x/ named */
	assert_int_equal(aa_fsmn_old_dirty(f, 0, "a", 0100644), 0);
	assert_int_equal(aa_fsmn_old_dirty(f, 1, "b", 0100644), 1);
	assert_int_equal(aa_fsmn_old_dirty(f, 2, "c", 0160000), 1); /* a gitlink */
	assert_int_equal(aa_fsmn_old_dirty(f, 3, "d", 0100644), 1);
	assert_int_equal(aa_fsmn_old_dirty(f, 4, "e", 0100644), 1);
	assert_int_equal(aa_fsmn_old_dirty(f, 5, "x/y", 0100644), 1);
	assert_int_equal(aa_fsmn_old_dirty(f, 5, "xy", 0100644), 0);
	assert_int_equal(aa_fsmn_npaths(f), 2);
	assert_string_equal(aa_fsmn_path(f, 0), "e");
	assert_string_equal(aa_fsmn_path(f, 1), "x");
	/* the new index: a new entry first, then the old ones */
	aa_fsmn_mark(f, 0, 1);
	aa_fsmn_mark(f, 1, 1);
	aa_fsmn_mark(f, 2, 0);
	aa_fsmn_mark(f, 3, 1);
	aa_fsmn_mark(f, 4, 1);
	aa_fsmn_mark(f, 5, 1);
	aa_fsmn_mark(f, 6, 0);
	assert_int_equal(aa_fsmn_write(f, &out), 0);
	make_fsmn(&want, "new", want_bits);
	assert_int_equal(out.len, want.len);
	assert_memory_equal(out.ptr, want.ptr, want.len);
	aa_fsmn_free(f);
	aa_buf_free(&b);
	aa_buf_free(&out);
	aa_buf_free(&want);
}

static void test_off_and_added(void **state)
{
	static const int bits[] = { -1 };
	aa_buf b = AA_BUF_INIT;
	aa_fsmn *f;

	(void)state;
	make_fsmn(&b, "old", bits);
	set_monitor(NULL);
	assert_int_equal(aa_fsmn_read(&f, repo, (unsigned char *)b.ptr, b.len, 2), 0);
	assert_null(f);
	set_monitor("false");
	assert_int_equal(aa_fsmn_read(&f, repo, (unsigned char *)b.ptr, b.len, 2), 0);
	assert_null(f);
	/* the daemon: git's answer when it does not answer, all dirty */
	set_monitor("true");
	assert_int_equal(aa_fsmn_read(&f, repo, (unsigned char *)b.ptr, b.len, 2), 0);
	assert_non_null(f);
	assert_int_equal(aa_fsmn_old_dirty(f, 0, "a", 0100644), 1);
	aa_fsmn_free(f);
	/* none before: added, all dirty */
	assert_int_equal(aa_fsmn_read(&f, repo, NULL, 0, 2), 0);
	assert_non_null(f);
	assert_int_equal(aa_fsmn_added(f), 1);
	assert_int_equal(aa_fsmn_old_dirty(f, 1, "b", 0100644), 1);
	aa_fsmn_free(f);
	aa_buf_free(&b);
}

/* Any data: no crash; an entry clean only where the data said so. */
static void read_any(const unsigned char *p, size_t n)
{
	aa_fsmn *f = NULL;
	aa_buf out = AA_BUF_INIT;
	size_t i;

	assert_int_equal(aa_fsmn_read(&f, repo, p, n, 8), 0);
	assert_non_null(f);
	for (i = 0; i < 8; i++)
		aa_fsmn_mark(f, i, aa_fsmn_old_dirty(f, i, "a", 0100644));
	assert_int_equal(aa_fsmn_write(f, &out), 0);
	aa_fsmn_free(f);
	aa_buf_free(&out);
}

static void test_damaged(void **state)
{
	static const int bits[] = { 0, 2, 5, 7, -1 };
	static const unsigned char values[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
	aa_buf b = AA_BUF_INIT;
	size_t i, k, cut;
	char hook[128];

	(void)state;
	/* a hook that answers nothing (no paths): the old bits decide */
	snprintf(hook, sizeof(hook), "%s/.git/quiet", dir);
	{
		FILE *f = fopen(hook, "w");

		assert_non_null(f);
		fprintf(f, "#!/bin/sh\nprintf 'tok\\0'\n");
		fclose(f);
		chmod(hook, 0755);
	}
	set_monitor("true"); /* no process per case */
	make_fsmn(&b, "t", bits);
	for (cut = 0; cut < b.len; cut++)
		read_any((unsigned char *)b.ptr, cut);
	for (i = 0; i < b.len; i++)
		for (k = 0; k < sizeof(values); k++) {
			unsigned char *p = malloc(b.len);

			memcpy(p, b.ptr, b.len);
			p[i] = values[k] == p[i] ? (unsigned char)(p[i] ^ 0x40) : values[k];
			read_any(p, b.len);
			free(p);
		}
	/* with the hook: a bitmap naming more entries than there are */
	set_monitor(hook);
	{
		aa_fsmn *f;

		assert_int_equal(aa_fsmn_read(&f, repo, (unsigned char *)b.ptr, b.len, 4), 0);
		assert_non_null(f);
		for (i = 0; i < 4; i++)
			assert_int_equal(aa_fsmn_old_dirty(f, i, "a", 0100644), 1);
		aa_fsmn_free(f);
		assert_int_equal(aa_fsmn_read(&f, repo, (unsigned char *)b.ptr, b.len, 8), 0);
		assert_int_equal(aa_fsmn_old_dirty(f, 1, "a", 0100644), 0);
		assert_int_equal(aa_fsmn_old_dirty(f, 2, "a", 0100644), 1);
		aa_fsmn_free(f);
	}
	aa_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hook),
		cmocka_unit_test(test_off_and_added),
		cmocka_unit_test(test_damaged),
	};
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, setup, teardown);
}
