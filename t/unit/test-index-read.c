/*
 * Unit tests for the O(touched) index reader (src/land/index_read.c):
 * indexes written here byte by byte as gitformat-index describes them
 * (v2, v3 with extended flags, v4 with prefix compression), then looked
 * up and walked; damaged ones refused. t1290 reads git's own indexes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "unit.h"
#include "land/index_read.h"

typedef struct ent {
	const char *path;
	unsigned stage;
	unsigned ext;   /* extended flags (v3+) */
	unsigned char id;
} ent;

typedef struct bytes {
	unsigned char *p;
	size_t n;
} bytes;

static void put(bytes *b, const void *p, size_t n)
{
	b->p = realloc(b->p, b->n + n);
	assert_non_null(b->p);
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put32(bytes *b, unsigned v)
{
	unsigned char c[4] = { v >> 24, v >> 16, v >> 8, v };

	put(b, c, 4);
}

static void put16(bytes *b, unsigned v)
{
	unsigned char c[2] = { v >> 8, v };

	put(b, c, 2);
}

/* git's encode_varint */
static void put_varint(bytes *b, size_t value)
{
	unsigned char varint[16];
	unsigned pos = sizeof(varint) - 1;

	varint[pos] = value & 127;
	while (value >>= 7)
		varint[--pos] = 128 | (--value & 127);
	put(b, varint + pos, sizeof(varint) - pos);
}

static void put_entry(bytes *b, unsigned version, const ent *e,
		      const char *prev)
{
	size_t start = b->n, len = strlen(e->path), i;
	unsigned char id[20];
	unsigned flags = e->stage << 12 | (len < 0xfff ? len : 0xfff);

	for (i = 0; i < 6; i++)
		put32(b, 1000 + i);   /* ctime, mtime, dev, ino */
	put32(b, 0100644);      /* mode */
	put32(b, 7);            /* uid */
	put32(b, 8);            /* gid */
	put32(b, 42);           /* size */
	memset(id, e->id, sizeof(id));
	put(b, id, sizeof(id));
	put16(b, flags | (e->ext ? 0x4000 : 0));
	if (e->ext)
		put16(b, e->ext);
	if (version < 4) {
		size_t pad;

		put(b, e->path, len);
		pad = ((b->n - start + 8) & ~(size_t)7) - (b->n - start);
		while (pad--)
			put(b, "", 1);
	} else {
		size_t common = 0, plen = strlen(prev);

		while (common < plen && common < len && prev[common] == e->path[common])
			common++;
		put_varint(b, plen - common);
		put(b, e->path + common, len - common + 1);
	}
}

/* An index file of these entries (already sorted), with `ext` appended. */
static char *write_index(unsigned version, const ent *v, size_t n,
			 const char *ext, size_t extlen)
{
	static char name[64];
	bytes b = { NULL, 0 };
	unsigned char trailer[20];
	size_t i;
	FILE *f;

	snprintf(name, sizeof(name), "/tmp/aa-ixread-%ld", (long)getpid());
	put(&b, "DIRC", 4);
	put32(&b, version);
	put32(&b, (unsigned)n);
	for (i = 0; i < n; i++)
		put_entry(&b, version, &v[i], i ? v[i - 1].path : "");
	if (extlen)
		put(&b, ext, extlen);
	memset(trailer, 0xab, sizeof(trailer));
	put(&b, trailer, sizeof(trailer));
	f = fopen(name, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b.p, 1, b.n, f), b.n);
	fclose(f);
	free(b.p);
	return name;
}

static aa_ixread *open_ok(const char *path)
{
	aa_ixread *r = NULL;
	char why[200] = "";

	if (aa_ixread_open(&r, path, why, sizeof(why)) < 0)
		fail_msg("open: %s", why);
	return r;
}

static const ent sample[] = {
	{ "a.txt", 0, 0, 1 },
	{ "a/b", 0, 0, 2 },
	{ "a/c", 0, 0, 3 },
	{ "a0", 0, 0, 4 },
	{ "dir/x", 0, 0, 5 },
	{ "dir/y", 0, 0, 6 },
	{ "z", 0, 0, 7 },
};

static void check_sample(aa_ixread *r)
{
	git_index_entry e;
	size_t i;

	assert_int_equal(aa_ixread_count(r), 7);
	assert_false(aa_ixread_has_conflicts(r));
	for (i = 0; i < 7; i++) {
		assert_int_equal(aa_ixread_get(r, sample[i].path, 0, &e), 1);
		assert_string_equal(e.path, sample[i].path);
		assert_int_equal(e.id.id[0], sample[i].id);
		assert_int_equal(e.mode, 0100644);
		assert_int_equal(e.file_size, 42);
		assert_int_equal(e.uid, 7);
	}
	assert_int_equal(aa_ixread_get(r, "a", 0, &e), 0);
	assert_int_equal(aa_ixread_get(r, "dir", 0, &e), 0);
	assert_int_equal(aa_ixread_get(r, "a/b", 1, &e), 0);
	assert_int_equal(aa_ixread_get(r, "", 0, &e), 0);
	assert_int_equal(aa_ixread_get(r, "zz", 0, &e), 0);
	assert_int_equal(aa_ixread_get(r, "0", 0, &e), 0);
}

static void walk_prefix(aa_ixread *r, const char *prefix, const char *want)
{
	aa_ixiter it;
	git_index_entry e;
	char got[256] = "";

	assert_int_equal(aa_ixiter_start(&it, r, prefix), 0);
	while (aa_ixiter_next(&it, &e) > 0) {
		if (strncmp(e.path, prefix, strlen(prefix)))
			break;
		strcat(got, e.path);
		strcat(got, ";");
	}
	aa_ixiter_free(&it);
	assert_string_equal(got, want);
}

static void test_versions(void **state)
{
	unsigned v;

	(void)state;
	for (v = 2; v <= 4; v++) {
		aa_ixread *r = open_ok(write_index(v, sample, 7, NULL, 0));

		assert_int_equal(aa_ixread_version(r), v);
		check_sample(r);
		walk_prefix(r, "a/", "a/b;a/c;");
		walk_prefix(r, "dir/", "dir/x;dir/y;");
		walk_prefix(r, "", "a.txt;a/b;a/c;a0;dir/x;dir/y;z;");
		walk_prefix(r, "q/", "");
		assert_int_equal(aa_ixread_checksum(r)->id[0], 0xab);
		aa_ixread_close(r);
	}
}

static void test_extended_and_stages(void **state)
{
	static const ent v[] = {
		{ "ita", 0, 0x2000, 1 },
		{ "m", 1, 0, 2 },
		{ "m", 2, 0, 3 },
		{ "m", 3, 0, 4 },
		{ "skip", 0, 0x4000, 5 },
	};
	unsigned ver;

	(void)state;
	for (ver = 3; ver <= 4; ver++) {
		aa_ixread *r = open_ok(write_index(ver, v, 5, NULL, 0));
		git_index_entry e;

		assert_true(aa_ixread_has_conflicts(r));
		assert_int_equal(aa_ixread_get(r, "ita", 0, &e), 1);
		assert_int_equal(e.flags_extended, 0x2000);
		assert_int_equal(aa_ixread_get(r, "skip", 0, &e), 1);
		assert_int_equal(e.flags_extended, 0x4000);
		assert_int_equal(aa_ixread_get(r, "m", 0, &e), 0);
		assert_int_equal(aa_ixread_get(r, "m", 2, &e), 1);
		assert_int_equal(e.id.id[0], 3);
		assert_int_equal(git_index_entry_stage(&e), 2);
		assert_int_equal(aa_ixread_get(r, "m", 3, &e), 1);
		assert_int_equal(e.id.id[0], 4);
		aa_ixread_close(r);
	}
}

/* Many entries: v4's restart points, and a binary search over many. */
static void test_many(void **state)
{
	enum { N = 1000 };
	ent *v = calloc(N, sizeof(*v));
	char (*names)[32] = calloc(N, 32);
	unsigned ver;
	size_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		snprintf(names[i], 32, "d%02zu/file-%04zu.c", i / 100, i);
		v[i].path = names[i];
		v[i].id = (unsigned char)i;
	}
	for (ver = 2; ver <= 4; ver++) {
		aa_ixread *r = open_ok(write_index(ver, v, N, NULL, 0));
		git_index_entry e;
		aa_ixiter it;
		size_t n = 0;

		for (i = 0; i < N; i++) {
			assert_int_equal(aa_ixread_get(r, names[i], 0, &e), 1);
			assert_string_equal(e.path, names[i]);
			assert_int_equal(e.id.id[0], (unsigned char)i);
		}
		assert_int_equal(aa_ixread_get(r, "d05/file-0500.d", 0, &e), 0);
		/* before the first restart point, after the last entry, between two */
		assert_int_equal(aa_ixread_get(r, "a", 0, &e), 0);
		assert_int_equal(aa_ixread_get(r, "z", 0, &e), 0);
		assert_int_equal(aa_ixread_get(r, "d00/file-0031.c+", 0, &e), 0);
		assert_int_equal(aa_ixread_get(r, "d00/file-0032.c", 1, &e), 0);
		assert_int_equal(aa_ixiter_start(&it, r, "d07/"), 0);
		while (aa_ixiter_next(&it, &e) > 0 && !strncmp(e.path, "d07/", 4))
			n++;
		aa_ixiter_free(&it);
		assert_int_equal(n, 100);
		aa_ixread_close(r);
	}
	free(v);
	free(names);
}

/* A path of 0xfff bytes or more: its length is not in the flags. */
static void test_long_path(void **state)
{
	char *longp = malloc(5000);
	ent v[2] = { { NULL, 0, 0, 1 }, { "b", 0, 0, 2 } };
	unsigned ver;

	(void)state;
	memset(longp, 'a', 4999);
	longp[4999] = '\0';
	v[0].path = longp;
	for (ver = 2; ver <= 4; ver++) {
		aa_ixread *r = open_ok(write_index(ver, v, 2, NULL, 0));
		git_index_entry e;

		assert_int_equal(aa_ixread_get(r, longp, 0, &e), 1);
		assert_int_equal(strlen(e.path), 4999);
		assert_int_equal(aa_ixread_get(r, "b", 0, &e), 1);
		aa_ixread_close(r);
	}
	free(longp);
}

static void test_extensions(void **state)
{
	static const char tree[] = "TREE\0\0\0\x03" "abc";
	static const char link[] = "link\0\0\0\x02" "xy";
	aa_ixread *r;
	char why[200];

	(void)state;
	r = open_ok(write_index(2, sample, 7, tree, sizeof(tree) - 1));
	check_sample(r);
	aa_ixread_close(r);
	assert_int_equal(aa_ixread_open(&r, write_index(2, sample, 7, link,
						       sizeof(link) - 1),
					why, sizeof(why)), -1);
	assert_string_equal(why, "unsupported mandatory extension: 'link'");
	/* an extension longer than the file */
	assert_int_equal(aa_ixread_open(&r, write_index(2, sample, 7, tree,
						       sizeof(tree) - 2),
					why, sizeof(why)), -1);
}

static void test_damaged(void **state)
{
	const char *name = write_index(2, sample, 7, NULL, 0);
	aa_ixread *r = NULL;
	char why[200];
	FILE *f;
	long size;
	unsigned char *all;

	(void)state;
	f = fopen(name, "rb");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	all = malloc((size_t)size);
	assert_int_equal(fread(all, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	/* every truncation: refused, never read past the end */
	for (long cut = 0; cut < size; cut++) {
		f = fopen(name, "wb");
		fwrite(all, 1, (size_t)cut, f);
		fclose(f);
		if (aa_ixread_open(&r, name, why, sizeof(why)) == 0) {
			/* only what still parses as a whole index */
			aa_ixread_close(r);
		}
	}
	/* a count larger than the entries */
	all[11] = 9;
	f = fopen(name, "wb");
	fwrite(all, 1, (size_t)size, f);
	fclose(f);
	assert_int_equal(aa_ixread_open(&r, name, why, sizeof(why)), -1);
	/* a bad version, a bad signature */
	all[11] = 7;
	all[7] = 5;
	f = fopen(name, "wb");
	fwrite(all, 1, (size_t)size, f);
	fclose(f);
	assert_int_equal(aa_ixread_open(&r, name, why, sizeof(why)), -1);
	assert_string_equal(why, "unsupported index version 5");
	all[7] = 2;
	all[0] = 'X';
	f = fopen(name, "wb");
	fwrite(all, 1, (size_t)size, f);
	fclose(f);
	assert_int_equal(aa_ixread_open(&r, name, why, sizeof(why)), -1);
	free(all);
}

/* v4: a prefix to drop longer than the previous path. */
static void test_v4_bad_strip(void **state)
{
	static const ent v[] = { { "ab", 0, 0, 1 }, { "ac", 0, 0, 2 } };
	const char *name = write_index(4, v, 2, NULL, 0);
	aa_ixread *r;
	char why[200];
	FILE *f = fopen(name, "r+b");

	(void)state;
	/* entry 2's varint: 12 + 62 + 1 + 3 ("ab\0") + 62 */
	fseek(f, 12 + 62 + 1 + 3 + 62, SEEK_SET);
	fputc(9, f);
	fclose(f);
	assert_int_equal(aa_ixread_open(&r, name, why, sizeof(why)), -1);
}

static void test_missing_and_empty(void **state)
{
	aa_ixread *r = NULL;
	git_index_entry e;
	aa_ixiter it;
	char why[200];
	FILE *f;

	(void)state;
	r = open_ok("/nonexistent/aa-index");
	assert_int_equal(aa_ixread_count(r), 0);
	assert_int_equal(aa_ixread_get(r, "a", 0, &e), 0);
	assert_int_equal(aa_ixiter_start(&it, r, "a/"), 0);
	assert_int_equal(aa_ixiter_next(&it, &e), 0);
	aa_ixiter_free(&it);
	aa_ixread_close(r);
	f = fopen(write_index(2, sample, 0, NULL, 0), "wb");
	fclose(f);
	assert_int_equal(aa_ixread_open(&r, write_index(2, sample, 0, NULL, 0),
					why, sizeof(why)), 0);
	assert_int_equal(aa_ixread_count(r), 0);
	aa_ixread_close(r);
	f = fopen(write_index(2, sample, 0, NULL, 0), "wb");
	fclose(f);
	{
		char name[64];

		snprintf(name, sizeof(name), "/tmp/aa-ixread-%ld", (long)getpid());
		assert_int_equal(aa_ixread_open(&r, name, why, sizeof(why)), -1);
		unlink(name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_extended_and_stages),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_long_path),
		cmocka_unit_test(test_extensions),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_v4_bad_strip),
		cmocka_unit_test(test_missing_and_empty),
	};
	return AA_RUN_TESTS(tests);
}
